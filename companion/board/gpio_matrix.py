"""Reed switches wired to the Pi's GPIO header, read with gpiozero (a SensorPort).

Two wirings (hardware/README.md has the diagrams):

* :class:`GpioMatrix`, a diode matrix: one GPIO per rank (rows, outputs) and one per file
  (columns, inputs with pull-ups); each square is a reed switch in series with a diode from its
  column to its row. One row at a time is driven low; a column reads low where that row's switch
  is closed. The diodes stop current flowing backwards through other closed switches, so any
  number of pieces can stand on the board without "ghost" squares. 16 pins for 8x8.
* :class:`ShiftRegisterChain`, a chain of 74HC165 parallel-in shift registers, one input per
  square, bit-banged through three or four GPIOs with gpiozero. Good up to about 12x12 on a Pi
  (each bit costs a few pin operations); 20x20 boards use the RP2040 instead.

Both scan on their own thread at a fixed rate, debounce (a square's new state is accepted after
``debounce_scans`` equal scans, which also hides a magnet brushing a neighbouring square while
a piece slides) and hand events to the sink; the first event after :meth:`start` is an
OccupancySnapshot. :meth:`scan_once` does one scan at a time given by the caller, so tests
drive the scanner deterministically. Pins are opened on the first scan, never at import or
construction; pass ``pin_factory`` (e.g. gpiozero's MockFactory) to run off a Pi.
"""

from __future__ import annotations

import threading
import time
from typing import Callable, Sequence, Union

from ..errors import HardwareError
from ..i18n import _
from .ports import BoardDisconnected, BoardEvent, EventSink, OccupancySnapshot, SquareChanged

Pin = Union[int, str]
Clock = Callable[[], int]


def monotonic_ms() -> int:
    return time.monotonic_ns() // 1_000_000


class Debouncer:
    """Raw scans in, accepted changes out (pure).

    A square's state changes when ``scans`` consecutive scans agree on the new state; a reading
    that flips back earlier (contact bounce, a magnet passing by) is forgotten. The event is
    stamped with the time of the scan that confirmed it, so events come out in time order."""

    def __init__(self, size: int, scans: int) -> None:
        if scans < 1:
            raise ValueError(f"debounce needs at least 1 scan, got {scans}")
        self.size = size
        self.scans = scans
        self._state: list[bool] = [False] * size
        self._pending: list[int] = [0] * size  # equal scans seen that differ from _state
        self.is_primed = False

    def prime(self, raw: Sequence[bool]) -> None:
        """Take ``raw`` as the current state without events (the first scan after start)."""
        self._check(raw)
        self._state = list(raw)
        self._pending = [0] * self.size
        self.is_primed = True

    def feed(self, raw: Sequence[bool], t_ms: int) -> list[SquareChanged]:
        self._check(raw)
        events = []
        state, pending, need = self._state, self._pending, self.scans
        for sq, now in enumerate(raw):
            if now == state[sq]:
                pending[sq] = 0
                continue
            pending[sq] += 1
            if pending[sq] >= need:
                state[sq] = now
                pending[sq] = 0
                events.append(SquareChanged(sq, bool(now), t_ms))
        return events

    @property
    def occupied(self) -> frozenset[int]:
        return frozenset(sq for sq, on in enumerate(self._state) if on)

    def _check(self, raw: Sequence[bool]) -> None:
        if len(raw) != self.size:
            raise ValueError(f"a scan gave {len(raw)} squares, expected {self.size}")


class _Scanner:
    """The scan loop shared by both wirings: debounce, snapshots, the thread, the sink."""

    def __init__(
        self,
        width: int,
        height: int,
        *,
        scan_interval_ms: int,
        debounce_scans: int,
        clock: Clock | None,
    ) -> None:
        if scan_interval_ms < 1:
            raise ValueError(f"scan interval must be at least 1 ms, got {scan_interval_ms}")
        self.width = width
        self.height = height
        self.scan_interval_ms = scan_interval_ms
        self._debouncer = Debouncer(width * height, debounce_scans)
        self._clock = clock or monotonic_ms
        self._snapshot_wanted = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # -- the hardware-specific part ---------------------------------------------------------
    def _open(self) -> None:
        raise NotImplementedError

    def _close(self) -> None:
        raise NotImplementedError

    def _read(self) -> list[bool]:
        """One raw reading: True where a switch is closed, by square index."""
        raise NotImplementedError

    # -- scanning ---------------------------------------------------------------------------
    def scan_once(self, t_ms: int) -> list[BoardEvent]:
        """Read every switch once and return what that scan tells (never calls the sink).

        The first scan (after construction or :meth:`start`) returns an OccupancySnapshot; later
        scans return the debounced SquareChanged events, and a snapshot after
        :meth:`request_snapshot`."""
        self._open()
        raw = self._read()
        if not self._debouncer.is_primed:
            self._debouncer.prime(raw)
            self._snapshot_wanted.clear()
            return [OccupancySnapshot(self._debouncer.occupied, t_ms)]
        events: list[BoardEvent] = list(self._debouncer.feed(raw, t_ms))
        if self._snapshot_wanted.is_set():
            self._snapshot_wanted.clear()
            events.append(OccupancySnapshot(self._debouncer.occupied, t_ms))
        return events

    @property
    def occupied(self) -> frozenset[int]:
        """The debounced occupancy after the last scan."""
        return self._debouncer.occupied

    def request_snapshot(self) -> None:
        """Ask for an OccupancySnapshot after the next scan (thread-safe)."""
        self._snapshot_wanted.set()

    # -- the thread -------------------------------------------------------------------------
    def start(self, sink: EventSink) -> None:
        """Open the pins and scan on a background thread that only calls ``sink``."""
        if self._thread is not None and self._thread.is_alive():
            raise HardwareError(_("the switch scanner is already running; stop it first"))
        self._open()  # fail here, in the caller's thread, when a pin cannot be opened
        self._debouncer.is_primed = False
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, args=(sink,), name="reed-scan", daemon=True)
        self._thread.start()

    def _run(self, sink: EventSink) -> None:
        interval = self.scan_interval_ms / 1000
        next_at = time.monotonic()
        while not self._stop.is_set():
            try:
                events = self.scan_once(self._clock())
            except Exception as exc:  # a pin failed under us: tell the app and end the thread
                sink(BoardDisconnected(_("reading the reed switches failed: {reason}").format(reason=exc), self._clock()))
                return
            for event in events:
                sink(event)
            next_at += interval
            delay = next_at - time.monotonic()
            if delay < 0:  # running late (a slow sink): don't try to catch up in a burst
                next_at = time.monotonic()
                delay = 0
            self._stop.wait(delay)

    def stop(self) -> None:
        """Stop scanning and release the pins (safe to call twice, or from the sink)."""
        self._stop.set()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=2)
        self._thread = None
        self._close()

    @property
    def is_running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()


def _open_device(what: str, pin: Pin, make: Callable[[], object]) -> object:
    try:
        return make()
    except Exception as exc:  # gpiozero raises its own tree (GPIOZeroError) and OSErrors
        raise HardwareError(
            _("cannot open GPIO pin {pin} as {what}: {exc} (check the pin numbers in the board profile and that no "
              "other program uses them)").format(pin=pin, what=what, exc=exc)
        ) from exc


def _busy_wait_us(us: int) -> None:
    """Let a line settle for a few microseconds; sleep() cannot wait that little."""
    end = time.perf_counter_ns() + us * 1000
    while time.perf_counter_ns() < end:
        pass


class GpioMatrix(_Scanner):
    """A diode reed-switch matrix: ``row_pins`` one per rank (rank 1 first), ``column_pins``
    one per file (file a first); pins are BCM numbers or gpiozero pin names.

    ``settle_us`` waits after selecting a row before reading the columns (the internal pull-ups
    are ~50 kOhm, so a long cable needs a few microseconds to rise back)."""

    def __init__(
        self,
        width: int,
        height: int,
        row_pins: Sequence[Pin],
        column_pins: Sequence[Pin],
        *,
        scan_interval_ms: int = 10,
        debounce_scans: int = 3,
        settle_us: int = 0,
        pin_factory: object | None = None,
        clock: Clock | None = None,
    ) -> None:
        if len(row_pins) != height:
            raise ValueError(f"{len(row_pins)} row pins given for a board {height} ranks high")
        if len(column_pins) != width:
            raise ValueError(f"{len(column_pins)} column pins given for a board {width} files wide")
        super().__init__(width, height, scan_interval_ms=scan_interval_ms, debounce_scans=debounce_scans, clock=clock)
        self.row_pins = tuple(row_pins)
        self.column_pins = tuple(column_pins)
        self.settle_us = settle_us
        self._pin_factory = pin_factory
        self._rows: list = []
        self._columns: list = []

    def _open(self) -> None:
        if self._rows:
            return
        from gpiozero import DigitalOutputDevice, InputDevice  # no pin factory at import

        rows, columns = [], []
        try:
            for rank, pin in enumerate(self.row_pins):
                # active_high=False: on() drives the row low (selected); idle rows stay high
                rows.append(
                    _open_device(
                        f"matrix row {rank + 1}",
                        pin,
                        lambda pin=pin: DigitalOutputDevice(
                            pin, active_high=False, initial_value=False, pin_factory=self._pin_factory
                        ),
                    )
                )
            for file, pin in enumerate(self.column_pins):
                # InputDevice, not DigitalInputDevice/Button: we poll, so no edge-detection
                # threads; pull_up=True makes is_active mean "pulled low through a switch"
                columns.append(
                    _open_device(
                        f"matrix column {file + 1}",
                        pin,
                        lambda pin=pin: InputDevice(pin, pull_up=True, pin_factory=self._pin_factory),
                    )
                )
        except HardwareError:
            for device in rows + columns:
                device.close()
            raise
        self._rows, self._columns = rows, columns

    def _close(self) -> None:
        for device in self._rows + self._columns:
            device.close()
        self._rows, self._columns = [], []

    def _read(self) -> list[bool]:
        raw: list[bool] = []
        settle = self.settle_us
        columns = self._columns
        for row in self._rows:
            row.on()
            if settle:
                _busy_wait_us(settle)
            raw.extend(column.is_active for column in columns)
            row.off()
        return raw


class ShiftRegisterChain(_Scanner):
    """74HC165 chain, bit-banged with gpiozero: one input per square, no diodes.

    Wiring: every input has a 10 kOhm pull-up and its reed switch to ground (closed = low =
    occupied). ``load_pin`` goes to every chip's SH/LD (pin 1), ``clock_pin`` to every CLK
    (pin 2), ``data_pin`` to the first chip's QH (pin 9); each chip's QH feeds the next chip's
    SER (pin 10). ``clock_enable_pin`` drives CLK INH (pin 15) if wired, else tie it to ground.
    Bit order: the k-th bit shifted out is square k, so the first chip's input H (D7) is a1,
    G is b1, ..., A is h1, then the second chip's H, and so on."""

    def __init__(
        self,
        width: int,
        height: int,
        *,
        load_pin: Pin,
        clock_pin: Pin,
        data_pin: Pin,
        clock_enable_pin: Pin | None = None,
        scan_interval_ms: int = 10,
        debounce_scans: int = 3,
        pin_factory: object | None = None,
        clock: Clock | None = None,
    ) -> None:
        super().__init__(width, height, scan_interval_ms=scan_interval_ms, debounce_scans=debounce_scans, clock=clock)
        self.load_pin, self.clock_pin, self.data_pin = load_pin, clock_pin, data_pin
        self.clock_enable_pin = clock_enable_pin
        self.chips = (width * height + 7) // 8
        self._pin_factory = pin_factory
        self._devices: dict[str, object] = {}

    def _open(self) -> None:
        if self._devices:
            return
        from gpiozero import DigitalOutputDevice, InputDevice

        pf = self._pin_factory
        plan = [
            # SH/LD is active low: on() = load; idle high = shift
            ("load", "74HC165 load (SH/LD)", self.load_pin,
             lambda: DigitalOutputDevice(self.load_pin, active_high=False, initial_value=False, pin_factory=pf)),
            ("clock", "74HC165 clock (CLK)", self.clock_pin,
             lambda: DigitalOutputDevice(self.clock_pin, initial_value=False, pin_factory=pf)),
            # QH is driven by the chip: no pull; low = switch closed = occupied
            ("data", "74HC165 data (QH)", self.data_pin,
             lambda: InputDevice(self.data_pin, pull_up=None, active_state=False, pin_factory=pf)),
        ]
        if self.clock_enable_pin is not None:
            plan.append(
                ("enable", "74HC165 clock inhibit (CLK INH)", self.clock_enable_pin,
                 lambda: DigitalOutputDevice(self.clock_enable_pin, active_high=False, initial_value=False, pin_factory=pf))
            )
        opened: dict[str, object] = {}
        try:
            for key, what, pin, make in plan:
                opened[key] = _open_device(what, pin, make)
        except HardwareError:
            for device in opened.values():
                device.close()
            raise
        self._devices = opened

    def _close(self) -> None:
        for device in self._devices.values():
            device.close()
        self._devices = {}

    def _read(self) -> list[bool]:
        d = self._devices
        load, clk, data, enable = d["load"], d["clock"], d["data"], d.get("enable")
        load.on()  # latch all inputs
        load.off()
        if enable is not None:
            enable.on()
        bits: list[bool] = []
        for _ in range(self.chips * 8):
            bits.append(data.is_active)
            clk.on()  # rising edge: the next bit appears on QH
            clk.off()
        if enable is not None:
            enable.off()
        return bits[: self.width * self.height]
