"""The RP2040's devices, simulated: the keypad scanner, the NeoPixels, the watchdog and the USB
data channel on a pseudo-terminal.

They behave as CircuitPython's ``keypad``, ``neopixel``, ``watchdog`` and ``usb_cdc`` do, as
far as the firmware uses them, so the real firmware (firmware/companion_fw.py) runs on them
unchanged: the simulator (firmware_sim.py) wires them up, and the firmware tests use them as
fakes of the CircuitPython modules (tests/fakes_circuitpython/).
"""

from __future__ import annotations

import errno
import os
import pty
import threading
import time
import tty
from typing import Callable, Optional

RGB = tuple[int, int, int]


def _ms() -> int:
    return time.monotonic_ns() // 1_000_000


# --- simulated keypad ----------------------------------------------------------------------------


class SimEvent:
    """Like keypad.Event."""

    def __init__(self, key_number: int = 0, pressed: bool = True, timestamp: int = 0) -> None:
        self.key_number = key_number
        self.pressed = pressed
        self.timestamp = timestamp

    @property
    def released(self) -> bool:
        return not self.pressed

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, SimEvent)
            and (self.key_number, self.pressed) == (other.key_number, other.pressed)
        )

    def __repr__(self) -> str:
        return f"<Event: key_number {self.key_number} {'pressed' if self.pressed else 'released'}>"


class SimEventQueue:
    """Like keypad.EventQueue: bounded; when full the oldest event is dropped and
    ``overflowed`` is set until :meth:`clear`. Reading it lets the scanner catch up first."""

    def __init__(self, keys: "SimKeys", max_events: int) -> None:
        self._keys = keys
        self._max = max_events
        self._events: list[SimEvent] = []
        self._overflowed = False

    def _put(self, event: SimEvent) -> None:
        if len(self._events) >= self._max:
            self._events.pop(0)
            self._overflowed = True
        self._events.append(event)

    def get(self) -> Optional[SimEvent]:
        with self._keys.lock:
            self._keys.scan_if_due()
            return self._events.pop(0) if self._events else None

    def get_into(self, event: SimEvent) -> bool:
        got = self.get()
        if got is None:
            return False
        event.key_number, event.pressed, event.timestamp = got.key_number, got.pressed, got.timestamp
        return True

    def clear(self) -> None:
        with self._keys.lock:
            self._events.clear()
            self._overflowed = False

    @property
    def overflowed(self) -> bool:
        with self._keys.lock:
            self._keys.scan_if_due()
            return self._overflowed

    def __len__(self) -> int:
        with self._keys.lock:
            self._keys.scan_if_due()
            return len(self._events)

    def __bool__(self) -> bool:
        return len(self) > 0


class SimKeys:
    """A keypad scanner (KeyMatrix / ShiftRegisterKeys semantics) over simulated switches.

    Like the C scanner it scans every ``interval`` seconds (here: when read) and reports a
    change after ``debounce_threshold`` scans in the new state. Starts with every key released,
    so switches already closed report a press on the first scan."""

    def __init__(
        self,
        key_count: int,
        *,
        interval: float = 0.02,
        max_events: int = 64,
        debounce_threshold: int = 1,
        clock: Callable[[], int] = _ms,
    ) -> None:
        self.key_count = key_count
        self.interval_ms = int(interval * 1000)
        self.debounce_threshold = max(1, debounce_threshold)
        self.lock = threading.RLock()
        self.clock = clock
        self.raw = bytearray(key_count)
        self.state = bytearray(key_count)
        self._dirty: dict[int, int] = {}
        self._last_scan: Optional[int] = None
        self.events = SimEventQueue(self, max_events)
        self.scans = 0

    # the world side
    def set_pressed(self, key: int, pressed: bool) -> None:
        if not 0 <= key < self.key_count:
            raise ValueError(f"key {key} is outside 0..{self.key_count - 1}")
        with self.lock:
            self.raw[key] = 1 if pressed else 0
            self._dirty[key] = 0

    def press(self, key: int) -> None:
        self.set_pressed(key, True)

    def release(self, key: int) -> None:
        self.set_pressed(key, False)

    # the keypad API
    def reset(self) -> None:
        with self.lock:
            self.state = bytearray(self.key_count)
            self._dirty = {k: 0 for k in range(self.key_count) if self.raw[k]}

    def deinit(self) -> None:
        pass

    def scan_if_due(self) -> None:
        now = self.clock()
        if self._last_scan is not None and now - self._last_scan < self.interval_ms:
            return
        if self._last_scan is None:
            self._dirty = {k: 0 for k in range(self.key_count) if self.raw[k] != self.state[k]}
        self._last_scan = now
        self.scans += 1
        for key in list(self._dirty):
            if self.raw[key] == self.state[key]:
                del self._dirty[key]  # bounced back
                continue
            self._dirty[key] += 1
            if self._dirty[key] >= self.debounce_threshold:
                self.state[key] = self.raw[key]
                del self._dirty[key]
                self.events._put(SimEvent(key, bool(self.raw[key]), now))


# --- simulated pixels ----------------------------------------------------------------------------


class SimPixels:
    """Like neopixel.NeoPixel with ``auto_write=False``: colours are stored as given and
    scaled by ``brightness`` when shown (the way adafruit_pixelbuf scales, 8.8 fixed point)."""

    def __init__(self, n: int, *, brightness: float = 1.0, auto_write: bool = False, pixel_order: str = "GRB") -> None:
        self.n = n
        self.brightness = brightness
        self.auto_write = auto_write
        self.pixel_order = pixel_order
        self._buf: list[RGB] = [(0, 0, 0)] * n
        self.shown: list[RGB] = [(0, 0, 0)] * n
        self.show_count = 0

    def __len__(self) -> int:
        return self.n

    def __setitem__(self, index: int, color) -> None:
        if not -self.n <= index < self.n:
            raise IndexError(f"pixel {index} of {self.n}")
        r, g, b = color
        self._buf[index] = (int(r), int(g), int(b))
        if self.auto_write:
            self.show()

    def __getitem__(self, index: int) -> RGB:
        return self._buf[index]

    def fill(self, color) -> None:
        r, g, b = color
        self._buf = [(int(r), int(g), int(b))] * self.n
        if self.auto_write:
            self.show()

    def show(self) -> None:
        scale = int(self.brightness * 256)
        if scale >= 256:
            self.shown = list(self._buf)
        else:
            self.shown = [((r * scale) >> 8, (g * scale) >> 8, (b * scale) >> 8) for r, g, b in self._buf]
        self.show_count += 1

    def deinit(self) -> None:
        pass


class SimWatchdog:
    """Like microcontroller.watchdog: the simulator resets the firmware when it is not fed."""

    def __init__(self, timeout: float, clock: Callable[[], int] = _ms) -> None:
        self.timeout = timeout
        self.clock = clock
        self.last_feed = clock()
        self.feeds = 0

    def feed(self) -> None:
        self.last_feed = self.clock()
        self.feeds += 1

    def expired(self) -> bool:
        return self.timeout > 0 and self.clock() - self.last_feed > self.timeout * 1000

    def deinit(self) -> None:
        self.timeout = 0


# --- the USB data channel on a pty -------------------------------------------------------------


class PtyPort:
    """The board's end of the USB data channel, usb_cdc.Serial-like (``timeout = 0``).

    ``connected`` plays DTR: True while the host has the other end open (Linux reports EIO on
    the master while no one has the slave open)."""

    def __init__(self) -> None:
        self.master: Optional[int] = None
        self.tty_name: Optional[str] = None
        self._buf = bytearray()
        self.host_open = False
        self.write_drops = 0

    def open(self) -> str:
        master, slave = pty.openpty()
        tty.setraw(slave)
        name = os.ttyname(slave)
        os.close(slave)
        os.set_blocking(master, False)
        self.master, self.tty_name = master, name
        self._buf = bytearray()
        self.host_open = False
        return name

    def close(self) -> None:
        if self.master is not None:
            os.close(self.master)
        self.master = None
        self.host_open = False
        self._buf = bytearray()

    def poll(self) -> None:
        while self.master is not None:
            try:
                data = os.read(self.master, 65536)
            except BlockingIOError:
                self.host_open = True
                return
            except OSError as err:
                if err.errno == errno.EIO:
                    self.host_open = False
                    return
                raise
            if not data:
                self.host_open = False
                return
            self.host_open = True
            self._buf += data

    # usb_cdc.Serial API
    @property
    def connected(self) -> bool:
        self.poll()
        return self.host_open

    @property
    def in_waiting(self) -> int:
        self.poll()
        return len(self._buf)

    def read(self, size: int = -1) -> bytes:
        if size < 0:
            size = len(self._buf)
        data = bytes(self._buf[:size])
        del self._buf[:size]
        return data

    def write(self, data: bytes) -> int:
        if self.master is None:
            return 0
        view = memoryview(bytes(data))
        written = 0
        deadline = time.monotonic() + 0.1  # like usb_cdc write_timeout in wiring.py
        while written < len(view):
            try:
                written += os.write(self.master, view[written:])
            except BlockingIOError:
                if time.monotonic() > deadline:
                    break
                time.sleep(0.001)
            except OSError:
                break
        if written < len(view):
            self.write_drops += 1
        return written

    def inject(self, data: bytes) -> None:
        """Raw bytes to the host (garbage, half frames), bypassing the firmware."""
        if self.master is not None:
            os.write(self.master, data)
