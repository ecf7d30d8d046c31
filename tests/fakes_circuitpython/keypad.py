"""Fake ``keypad``: KeyMatrix and ShiftRegisterKeys over simulated switches.

Both record their constructor arguments in ``.args``; ``press(key)`` / ``release(key)`` act on
the switches. ``created`` lists every scanner made. Set ``REJECT_DEBOUNCE = True`` to act like
CircuitPython 8, which has no ``debounce_threshold``."""

from companion.board.firmware_sim import SimEvent as Event  # noqa: F401  (keypad.Event)
from companion.board.firmware_sim import SimEventQueue as EventQueue  # noqa: F401
from companion.board.firmware_sim import SimKeys

created = []
REJECT_DEBOUNCE = False


class _Scanner(SimKeys):
    def __init__(self, key_count, args):
        if REJECT_DEBOUNCE and "debounce_threshold" in args:
            raise TypeError("unexpected keyword argument 'debounce_threshold'")
        super().__init__(
            key_count,
            interval=args.get("interval", 0.02),
            max_events=args.get("max_events", 64),
            debounce_threshold=args.get("debounce_threshold", 1),
        )
        self.args = args
        created.append(self)


class KeyMatrix(_Scanner):
    def __init__(self, row_pins, column_pins, columns_to_anodes=True, **kwargs):
        args = dict(row_pins=list(row_pins), column_pins=list(column_pins), columns_to_anodes=columns_to_anodes)
        args.update(kwargs)
        super().__init__(len(row_pins) * len(column_pins), args)


class ShiftRegisterKeys(_Scanner):
    def __init__(self, *, clock, data, latch, key_count, value_when_pressed, value_to_latch=True, **kwargs):
        args = dict(
            clock=clock,
            data=data,
            latch=latch,
            key_count=key_count,
            value_when_pressed=value_when_pressed,
            value_to_latch=value_to_latch,
        )
        args.update(kwargs)
        super().__init__(key_count, args)
