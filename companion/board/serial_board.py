"""The RP2040 board over USB serial: SensorPort and LedPort for the app (docs/serial-protocol.md).

Two layers, h11-style:

- :class:`HostLink` (host_link.py) is the host side of the protocol with no I/O, no clock and
  no thread: it is given bytes and times (ms) and returns bytes to send and board events.
- :class:`SerialBoard` here is the edge: a pyserial port and one thread that reads, feeds the link,
  writes what it asks for, reopens the port when the board goes away and hands events to the
  sink. Nothing else touches the port, so ``show`` and ``request_snapshot`` never block on I/O.

LED frames are per square index (a1 = 0) and unscaled; the firmware applies the brightness cap
and maps squares to its LED chain (config.py LED_ORDER).
"""

from __future__ import annotations

import functools
import threading
import time
from typing import Callable, Optional

from ..errors import ProtocolError
from ..i18n import _
from .host_link import CONSOLE_MARKERS, DISCONNECTED, HostLink
from .ports import BoardEvent, EventSink, LedFrame
from .serial_ports import find_data_port

__all__ = ["CONSOLE_MARKERS", "DISCONNECTED", "HostLink", "SerialBoard", "find_data_port"]


def _open_with_pyserial(path: str, timeout: float, write_timeout: float, baudrate: int = 115200):
    import serial

    return serial.serial_for_url(path, baudrate=baudrate, timeout=timeout, write_timeout=write_timeout)


class SerialBoard:
    """SensorPort + LedPort for a board running the companion firmware.

    ``path`` is a device (``/dev/ttyACM1``, a ``/dev/serial/by-id/...`` link, a pty from
    ``companion firmware-sim``), any pyserial URL, or ``"auto"`` to look the data channel up by
    its USB interface name on every (re)connection. The adapter reconnects by itself; the app
    sees BoardDisconnected, later OccupancySnapshot + BoardConnected.

    The first event after :meth:`start` is the handshake's OccupancySnapshot when the board
    answers; when it cannot be reached it is one BoardDisconnected saying why, and the snapshot
    follows once the board appears. Nothing is opened before ``start``."""

    def __init__(
        self,
        path: str,
        width: int,
        height: int,
        *,
        heartbeat_s: float = 0.5,
        timeout_s: float = 2.0,
        retry_s: float = 0.5,
        ack_timeout_s: float = 1.0,
        clock: Callable[[], float] = time.monotonic,
        open_port: Optional[Callable[[str, float, float], object]] = None,
        find_port: Callable[[], Optional[str]] = find_data_port,
        baud: int = 115200,
    ) -> None:
        """``baud`` matters only on a real UART; USB CDC (the RP2040's data port) ignores it."""
        self.path = path
        self.width = width
        self.height = height
        self.retry_s = retry_s
        self._clock = clock
        self._open_port = open_port or functools.partial(_open_with_pyserial, baudrate=baud)
        self._find_port = find_port
        self.link = HostLink(
            width,
            height,
            where=path,
            heartbeat_ms=int(heartbeat_s * 1000),
            timeout_ms=int(timeout_s * 1000),
            ack_timeout_ms=int(ack_timeout_s * 1000),
        )
        self._lock = threading.Lock()
        self._settled = threading.Condition(self._lock)
        self._stopping = threading.Event()
        self._thread: Optional[threading.Thread] = None
        self._port = None
        self._sink: Optional[EventSink] = None
        self._last_error: Optional[BaseException] = None
        self.read_timeout_s = 0.02

    # --- SensorPort / LedPort ------------------------------------------------------------

    def start(self, sink: EventSink) -> None:
        if self._thread is not None:
            raise RuntimeError("SerialBoard.start called twice")
        self._sink = sink
        self._stopping.clear()
        self._thread = threading.Thread(target=self._run, name=f"serial-board {self.path}", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stopping.set()
        self._wake()
        if self._thread is not None:
            self._thread.join(timeout=3)
            self._thread = None

    def request_snapshot(self) -> None:
        with self._lock:
            self.link.request_snapshot()
        self._wake()

    def show(self, frame: LedFrame) -> None:
        """Queue a frame; the reader thread sends it (as a delta when smaller) once the board
        acknowledged the previous one. Only the newest frame is kept: a fast caller never
        builds a backlog."""
        frame = self._checked(frame)
        with self._lock:
            self.link.show(frame)
        self._wake()

    # --- extras for the app, tests and the bench ---------------------------------------------

    def flush_leds(self, timeout: float) -> bool:
        """Wait until the board acknowledged the last frame given to show (False on timeout)."""
        deadline = time.monotonic() + timeout
        with self._settled:
            while not self.link.leds_settled():
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._settled.wait(left)
        return True

    def request_stats(self) -> None:
        """Ask the board for its counters; they appear in :attr:`board_stats`."""
        with self._lock:
            self.link.request_stats()
        self._wake()

    @property
    def board_stats(self) -> dict:
        with self._lock:
            return dict(self.link.board_stats)

    @property
    def is_connected(self) -> bool:
        with self._lock:
            return self.link.phase == "up"

    @property
    def info(self) -> dict:
        with self._lock:
            return dict(self.link.info)

    def stats(self) -> dict:
        """The host side's counters: link events and the decoder's dropped frames."""
        with self._lock:
            result = dict(self.link.counters)
            result.update({"rx_" + k: v for k, v in self.link.decoder.counters().items()})
            return result

    # --- the reader thread -----------------------------------------------------------------

    def _checked(self, frame: LedFrame) -> LedFrame:
        size = self.width * self.height
        if len(frame) != size:
            raise ProtocolError(
                _("LED frame has {n} squares, the {width}x{height} board has {size}").format(
                    n=len(frame), width=self.width, height=self.height, size=size)
            )
        result = []
        for square, rgb in enumerate(frame):
            try:
                r, g, b = rgb
                ok = all(isinstance(c, int) and 0 <= c <= 255 for c in (r, g, b))
            except (TypeError, ValueError):
                ok = False
            if not ok:
                raise ProtocolError(_("LED frame square {square}: {rgb!r} is not (r, g, b) with 0..255 each").format(
                    square=square, rgb=rgb))
            result.append((r, g, b))
        return tuple(result)

    def _now(self) -> int:
        return int(self._clock() * 1000)

    def _wake(self) -> None:
        port = self._port
        if port is not None and hasattr(port, "cancel_read"):
            try:
                port.cancel_read()
            except Exception:  # the port may be closing under us; the loop notices by itself
                pass

    def _emit(self, events: list[BoardEvent]) -> None:
        for event in events:
            self._sink(event)  # type: ignore[misc]

    def _run(self) -> None:
        while not self._stopping.is_set():
            port = self._open()
            if port is None:
                self._stopping.wait(self.retry_s)
                continue
            try:
                self._serve(port)
            except Exception as err:  # pyserial raises SerialException / OSError on unplug
                with self._lock:
                    events = self.link.closed(self._now(), _(DISCONNECTED))
                self._emit(events)
                self._last_error = err
            finally:
                self._port = None
                try:
                    port.close()
                except Exception:
                    pass
                with self._settled:
                    self._settled.notify_all()
            if not self._stopping.is_set():
                self._stopping.wait(self.retry_s / 5)

    def _open(self):
        path = self.path
        try:
            if path == "auto":
                found = self._find_port()
                if found is None:
                    raise OSError(_("no CircuitPython data port (USB interface 'CircuitPython CDC2 data') found"))
                path = found
            port = self._open_port(path, self.read_timeout_s, 1.0)
            port.reset_input_buffer()
        except Exception as err:
            with self._lock:
                events = self.link.closed(self._now(), _("board not found at {path}: {reason}").format(path=path, reason=err))
            self._emit(events)
            return None
        with self._lock:
            self.link.where = path
            self.link.opened(self._now())
        self._port = port
        return port

    def _serve(self, port) -> None:
        while not self._stopping.is_set():
            with self._lock:
                out, events, reopen = self.link.poll(self._now())
            self._emit(events)
            if out:
                port.write(out)
            if reopen:
                return
            waiting = port.in_waiting
            data = port.read(waiting if waiting else 1)
            if data:
                waiting = port.in_waiting
                if waiting:
                    data += port.read(waiting)
                with self._settled:
                    events = self.link.receive(data, self._now())
                    if self.link.leds_settled():
                        self._settled.notify_all()
                self._emit(events)
