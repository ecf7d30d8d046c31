"""Arbiter mode, behind the PIN: the PIN set on the board the first time (kept as a salted hash
in ``arbiter.json``, companion.tournament.pin_file), asked for every time after; then the
arbiter's actions on the table (the clocks, penalties, results, takebacks), each journaled.

A PIN file that is there but damaged (companion.tournament.pin_file says how) locks arbiter
mode: the screen says so and how the arbiter resets it (``companion arbiter --reset-pin``),
and nobody at the table can set a new PIN over it.

:class:`ArbiterMode` owns the way into arbiter mode and the screen to go back to.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from ...tournament import arbiter as pins
from ...tournament.pin_file import NAME as PIN_FILE, read_pin, write_pin
from .. import texts as T
from .display import Display
from .entry import Entry, time_ms
from .game_room import GameRoom
from .play import Play
from .questions import Prompt, PromptOption

#: The questions asked here, answered in :meth:`ArbiterMode.answer`.
ASKED = ("arbiter-result",)


class ArbiterMode:
    def __init__(self, game: GameRoom, play: Play, display: Display, directory: Path, *,
                 new_salt: Callable[[], bytes]) -> None:
        self.game = game
        self.play = play  # whether the game's end is on screen (arbiter mode goes back to it)
        self.display = display
        self.directory = Path(directory)
        self.new_salt = new_salt  # the PIN's salt, drawn at the edge
        self._back = "game"

    @property
    def pin_path(self) -> Path:
        return self.directory / PIN_FILE

    # ----- the PIN --------------------------------------------------------------------------------
    def open(self) -> None:
        """Arbiter mode, behind the PIN (set on the board the first time; locked while the PIN
        file is damaged)."""
        pin = read_pin(self.pin_path)
        if pin.locked:
            self._say_locked(pin.damage)
        elif pin.record is None:
            self._ask(T.PIN_SET, self._pin_first)
        else:
            self._ask(T.PIN_ENTER, lambda typed: self._pin_check(pin.record, typed))

    def _say_locked(self, damage: str) -> None:
        self.display.entry = None
        self.display.ask(Prompt("pin-damaged", T.PIN_DAMAGED.format(reason=damage), (), cancel_label=T.CLOSE))

    def _ask(self, title: str, on_done: Callable[[str], str | None]) -> None:
        self.display.open_entry(Entry(title, keys="digits", secret=True, max_len=pins.MAX_PIN, on_done=on_done))

    def _pin_first(self, pin: str) -> str | None:
        if not pins.valid_pin(pin):
            return T.PIN_RULE
        self._ask(T.PIN_AGAIN, lambda again: self._pin_save(pin, again))
        return None

    def _pin_save(self, pin: str, again: str) -> str | None:
        if again != pin:
            return T.PIN_MISMATCH
        if self.display.screen != "arbiter":  # the first PIN: only where there is none (not over a damaged one)
            now = read_pin(self.pin_path)
            if now.locked:
                self._say_locked(now.damage)
                return None
        try:
            write_pin(self.pin_path, pins.make_pin(pin, self.new_salt()))
        except OSError as e:
            return T.CANNOT_SAVE.format(reason=e.strerror or e)
        self._enter()
        return None

    def _pin_check(self, record, pin: str) -> str | None:
        if not pins.pin_matches(record, pin):
            return T.PIN_WRONG
        self._enter()
        return None

    def change_pin(self) -> None:
        """In arbiter mode (the PIN was typed): a new PIN, over the old file whatever it holds."""
        self._ask(T.PIN_SET, self._pin_first)

    # ----- arbiter mode ----------------------------------------------------------------------------
    def _enter(self) -> None:
        if self.display.screen != "arbiter":
            self._back = self.display.screen
        self.display.show("arbiter")

    def close(self) -> None:
        screen = self._back if self._back in ("game", "game_over", "setup") else "game"
        table = self.game.table
        if table is not None and table.is_over and self.play.over is not None:
            screen = "game_over"
        self.display.show(screen)

    def do(self, op: str, **args) -> None:
        table = self.game.table
        t = self.game.clock_ms()
        self.game.command(lambda: table.arbiter(op, t, **args))

    def set_time(self, side: int) -> None:
        s = self.game.session
        name = s.seats[side].name if s is not None and 0 <= side < len(s.seats) else T.COLOUR_NAMES[side % 2]
        self.display.open_entry(Entry(T.SET_TIME.format(name=name), keys="digits", kind="time", max_len=6,
                                      on_done=lambda digits: self._set_time(side, digits)))

    def _set_time(self, side: int, digits: str) -> str | None:
        if not digits:
            return T.TIME_RULE
        self.do("set-time", side=side, ms=time_ms(digits))
        return None

    def ask_result(self) -> None:
        self.display.ask(Prompt("arbiter-result", T.ARBITER_RESULTS_TITLE, tuple(
            PromptOption(code, label) for code, label in T.ARBITER_RESULTS.items())))

    def answer(self, prompt: Prompt, key: str | None) -> None:
        """Display.answers_to: the result the arbiter sets."""
        if key is not None:
            self.do("result", result=key)


__all__ = ["ArbiterMode", "PIN_FILE"]
