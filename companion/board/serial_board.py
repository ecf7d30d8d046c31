"""The RP2040 board over USB serial: SensorPort and LedPort for the app (docs/serial-protocol.md).

Two layers, h11-style:

- :class:`HostLink` is the host side of the protocol with no I/O, no clock and no thread: it is
  given bytes and times (ms) and returns bytes to send and board events. Tests drive it directly.
- :class:`SerialBoard` is the edge: a pyserial port and one thread that reads, feeds the link,
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
from . import protocol
from .ports import (
    BoardConnected,
    BoardDisconnected,
    BoardEvent,
    EventSink,
    LedFrame,
    OccupancySnapshot,
    SquareChanged,
)
from .serial_ports import find_data_port

DISCONNECTED = "board disconnected"

# Text only the CircuitPython console (the REPL) prints: seeing it means the wrong port.
CONSOLE_MARKERS = (b"Adafruit CircuitPython", b"Press any key to enter the REPL", b"\r\n>>> ", b"Auto-reload is")

_HOST_TO_BOARD = (
    protocol.HELLO,
    protocol.SNAPSHOT_REQUEST,
    protocol.LED_FRAME,
    protocol.LED_DELTA,
    protocol.STATS_REQUEST,
)


class HostLink:
    """The host's half of the protocol as a state machine over (bytes, time) values.

    Phases: ``closed`` (no port) -> ``hello`` (HELLO sent, waiting for WELCOME) -> ``sync``
    (waiting for the handshake SNAPSHOT) -> ``up``; ``incompatible`` when the board's protocol
    version or size does not match. Every (re)connection delivers an OccupancySnapshot and then
    BoardConnected; a lost link delivers one BoardDisconnected until the next connection."""

    def __init__(
        self,
        width: int,
        height: int,
        *,
        where: str = "the serial port",
        heartbeat_ms: int = 500,
        timeout_ms: int = 2000,
        hello_retry_ms: int = 300,
        ack_timeout_ms: int = 1000,
    ) -> None:
        self.width = width
        self.height = height
        self.size = width * height
        self.where = where
        self.heartbeat_ms = heartbeat_ms
        self.timeout_ms = timeout_ms
        self.hello_retry_ms = hello_retry_ms
        self.ack_timeout_ms = ack_timeout_ms

        self.decoder = protocol.Decoder()
        self.phase = "closed"
        self.info: dict = {}
        self.boot_id: Optional[int] = None
        self.occupied: set[int] = set()
        self.expected_seq = 0
        self.opened_at = 0
        self.phase_at = 0
        self.last_rx = 0
        self.next_hello = 0
        self.next_heartbeat = 0
        self.reported_down = False
        self.snapshot_wanted = False  # the app asked: deliver the next snapshot even if equal
        self.snapshot_to_send = False
        self.stats_to_send = False
        self.board_stats: dict = {}

        self.desired: Optional[LedFrame] = None
        self.board_frame: Optional[LedFrame] = None  # what the board shows, per its last ACK_OK
        self.board_frame_id = 0
        self.rejected_frame: Optional[LedFrame] = None
        self.inflight: Optional[tuple[int, LedFrame, int]] = None
        self.next_frame_id = 1

        self.counters = {
            "connections": 0,
            "restarts_seen": 0,
            "sequence_gaps": 0,
            "snapshots_repaired": 0,
            "unexpected_messages": 0,
            "led_full": 0,
            "led_delta": 0,
            "led_acked": 0,
            "led_need_full": 0,
            "led_rejected": 0,
            "led_ack_timeouts": 0,
        }

    # --- the app's requests ----------------------------------------------------------------

    def show(self, frame: LedFrame) -> None:
        self.desired = frame

    def request_snapshot(self) -> None:
        self.snapshot_wanted = True
        self.snapshot_to_send = True

    def request_stats(self) -> None:
        self.stats_to_send = True

    def leds_settled(self) -> bool:
        """True when the board shows the last frame given to :meth:`show` (or cannot)."""
        return self.desired is None or self.desired == self.board_frame or self.desired is self.rejected_frame

    # --- port life -------------------------------------------------------------------------

    def opened(self, now: int) -> None:
        self.decoder.reset()
        self.phase = "hello"
        self.opened_at = self.phase_at = self.last_rx = now
        self.next_hello = now

    def closed(self, now: int, reason: str = DISCONNECTED) -> list[BoardEvent]:
        self.phase = "closed"
        self.inflight = None
        return self._down(now, reason)

    def _down(self, now: int, reason: str) -> list[BoardEvent]:
        if self.reported_down:
            return []
        self.reported_down = True
        return [BoardDisconnected(reason, now)]

    # --- input -----------------------------------------------------------------------------

    def receive(self, data: bytes, now: int) -> list[BoardEvent]:
        events: list[BoardEvent] = []
        if self.phase == "hello" and any(marker in data for marker in CONSOLE_MARKERS):
            # Stop talking at once: our bytes could reach the REPL as Ctrl-C and stop the firmware.
            self._enter("incompatible", now)
            return self._down(
                now,
                f"{self.where} is the CircuitPython console (REPL), not the data port: use the port "
                f"named 'CircuitPython CDC2 data' or --serial auto (hardware/FIRMWARE.md)",
            )
        for message in self.decoder.feed(data):
            self.last_rx = now
            events.extend(self._handle(message, now))
        return events

    def _handle(self, message: protocol.Message, now: int) -> list[BoardEvent]:
        kind = message.TYPE
        if kind in _HOST_TO_BOARD:
            self.counters["unexpected_messages"] += 1  # an echoing line, or another host
            return []
        if kind == protocol.WELCOME:
            return self._on_welcome(message, now)
        if kind == protocol.NEED_HELLO:
            if self.phase in ("up", "sync"):
                self._enter("hello", now)
                return self._down(now, "board restarted: resynchronising")
            return []
        if self.phase == "sync" and kind == protocol.SNAPSHOT:
            return self._on_first_snapshot(message, now)
        if self.phase != "up":
            return []
        if kind == protocol.EVENTS:
            return self._on_events(message, now)
        if kind == protocol.SNAPSHOT:
            return self._on_snapshot(message, now)
        if kind == protocol.HEARTBEAT:
            if message.last_seq != (self.expected_seq - 1) & 0xFFFF:
                self._gap()
        elif kind == protocol.LED_ACK:
            self._on_ack(message)
        elif kind == protocol.STATS:
            self.board_stats = message.as_dict()
        return []

    def _enter(self, phase: str, now: int) -> None:
        self.phase = phase
        self.phase_at = now
        if phase == "hello":
            self.next_hello = now
            self.inflight = None

    def _on_welcome(self, w: protocol.Welcome, now: int) -> list[BoardEvent]:
        if self.phase != "hello":
            return []
        if w.version != protocol.PROTOCOL_VERSION:
            self._enter("incompatible", now)
            return self._down(
                now,
                f"the board's firmware speaks protocol version {w.version}, this app speaks "
                f"{protocol.PROTOCOL_VERSION}: update the firmware (hardware/FIRMWARE.md) or the app",
            )
        if (w.width, w.height) != (self.width, self.height):
            self._enter("incompatible", now)
            return self._down(
                now,
                f"the board at {self.where} has {w.width}x{w.height} squares but companion is set "
                f"up for {self.width}x{self.height}: fix WIDTH/HEIGHT in the board's config.py or "
                f"the board profile",
            )
        restarted = self.boot_id is not None and w.boot_id != self.boot_id
        if restarted:
            self.counters["restarts_seen"] += 1
        self.boot_id = w.boot_id
        self.info = {
            "port": self.where,
            "protocol": w.version,
            "firmware": "%d.%d.%d" % w.firmware,
            "width": w.width,
            "height": w.height,
            "led_count": w.led_count,
            "capabilities": w.capabilities,
            "has_leds": bool(w.capabilities & protocol.CAP_LEDS),
            "simulated": bool(w.capabilities & protocol.CAP_SIMULATED),
            "boot_id": w.boot_id,
            "reset_reason": w.reset_reason,
            "scanner": w.scanner,
            "restarted": restarted,
        }
        self._enter("sync", now)
        return []

    def _on_first_snapshot(self, s: protocol.Snapshot, now: int) -> list[BoardEvent]:
        if s.square_count != self.size:
            self.counters["unexpected_messages"] += 1
            return []
        self.occupied = set(s.occupied())
        self.expected_seq = (s.seq + 1) & 0xFFFF
        self._enter("up", now)
        self.next_heartbeat = now
        self.snapshot_wanted = self.snapshot_to_send = False
        self.board_frame = None  # the board may have restarted: its next frame is a full one
        self.rejected_frame = None
        self.reported_down = False
        self.counters["connections"] += 1
        return [
            OccupancySnapshot(frozenset(self.occupied), now),
            BoardConnected(dict(self.info), now),
        ]

    def _on_events(self, e: protocol.Events, now: int) -> list[BoardEvent]:
        if e.first_seq != self.expected_seq:
            self._gap()
        self.expected_seq = (e.last_seq() + 1) & 0xFFFF
        events: list[BoardEvent] = []
        for square, occupied in e.changes:
            if square >= self.size:
                self.counters["unexpected_messages"] += 1
                continue
            if occupied:
                self.occupied.add(square)
            else:
                self.occupied.discard(square)
            events.append(SquareChanged(square, occupied, now))
        return events

    def _on_snapshot(self, s: protocol.Snapshot, now: int) -> list[BoardEvent]:
        if s.square_count != self.size:
            self.counters["unexpected_messages"] += 1
            return []
        self.expected_seq = (s.seq + 1) & 0xFFFF
        occupied = set(s.occupied())
        differs = occupied != self.occupied
        if differs:
            self.counters["snapshots_repaired"] += 1
        self.occupied = occupied
        wanted = self.snapshot_wanted and s.reason == protocol.SNAP_REQUESTED
        if wanted:
            self.snapshot_wanted = False
        if differs or wanted:
            return [OccupancySnapshot(frozenset(occupied), now)]
        return []

    def _gap(self) -> None:
        self.counters["sequence_gaps"] += 1
        self.snapshot_to_send = True

    def _on_ack(self, ack: protocol.LedAck) -> None:
        if self.inflight is None or ack.frame_id != self.inflight[0]:
            return  # a late ack for a frame we gave up on
        frame_id, frame, _ = self.inflight
        self.inflight = None
        if ack.status == protocol.ACK_OK:
            self.board_frame, self.board_frame_id = frame, frame_id
            self.counters["led_acked"] += 1
        elif ack.status == protocol.ACK_NEED_FULL:
            self.board_frame = None
            self.counters["led_need_full"] += 1
        else:
            self.board_frame = None
            self.rejected_frame = frame  # do not resend it until the app shows something else
            self.counters["led_rejected"] += 1

    # --- output and timers ---------------------------------------------------------------------

    def poll(self, now: int) -> tuple[bytes, list[BoardEvent], bool]:
        """What to send now, events due to time passing, and whether to reopen the port."""
        out = bytearray()
        events: list[BoardEvent] = []
        if self.phase == "hello":
            if now >= self.next_hello:
                hello = protocol.Hello(protocol.PROTOCOL_VERSION, self.heartbeat_ms, self.timeout_ms + 1000)
                out += b"\x00" + protocol.encode(hello)
                self.next_hello = now + self.hello_retry_ms
            if now - self.phase_at > self.timeout_ms:
                events += self._down(
                    now,
                    f"no answer from the board at {self.where}: is it the CircuitPython data port "
                    f"running the companion firmware (hardware/FIRMWARE.md)?",
                )
                if now - self.phase_at > 3 * self.timeout_ms:
                    return bytes(out), events, True
        elif self.phase == "sync":
            if now - self.phase_at > self.timeout_ms:
                self._enter("hello", now)
        elif self.phase == "up":
            if now - self.last_rx > self.timeout_ms:
                self.phase = "closed"
                return b"", self._down(now, DISCONNECTED), True
            if now >= self.next_heartbeat:
                out += protocol.encode(protocol.Heartbeat(now & 0xFFFFFFFF, (self.expected_seq - 1) & 0xFFFF))
                self.next_heartbeat = now + self.heartbeat_ms
            if self.snapshot_to_send:
                out += protocol.encode(protocol.SnapshotRequest())
                self.snapshot_to_send = False
            if self.stats_to_send:
                out += protocol.encode(protocol.StatsRequest())
                self.stats_to_send = False
            out += self._led_output(now)
        return bytes(out), events, False

    def _led_output(self, now: int) -> bytes:
        if self.inflight is not None:
            if now - self.inflight[2] <= self.ack_timeout_ms:
                return b""
            self.counters["led_ack_timeouts"] += 1
            self.inflight = None
            self.board_frame = None
        frame = self.desired
        if frame is None or frame == self.board_frame or frame is self.rejected_frame:
            return b""
        if not self.info.get("has_leds", False):
            self.rejected_frame = frame
            return b""
        frame_id = self.next_frame_id
        self.next_frame_id = (frame_id + 1) & 0xFFFF
        message: protocol.Message
        base = self.board_frame
        changes = [] if base is None else [(sq,) + frame[sq] for sq in range(self.size) if frame[sq] != base[sq]]
        if base is not None and 6 + 5 * len(changes) < 4 + 3 * self.size:
            message = protocol.LedDelta(frame_id, self.board_frame_id, changes)
            self.counters["led_delta"] += 1
        else:
            message = protocol.LedFrame.from_colors(frame_id, frame)
            self.counters["led_full"] += 1
        self.inflight = (frame_id, frame, now)
        return protocol.encode(message)


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
                f"LED frame has {len(frame)} squares, the {self.width}x{self.height} board has {size}"
            )
        result = []
        for square, rgb in enumerate(frame):
            try:
                r, g, b = rgb
                ok = all(isinstance(c, int) and 0 <= c <= 255 for c in (r, g, b))
            except (TypeError, ValueError):
                ok = False
            if not ok:
                raise ProtocolError(f"LED frame square {square}: {rgb!r} is not (r, g, b) with 0..255 each")
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
                    events = self.link.closed(self._now(), DISCONNECTED)
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
                    raise OSError("no CircuitPython data port (USB interface 'CircuitPython CDC2 data') found")
                path = found
            port = self._open_port(path, self.read_timeout_s, 1.0)
            port.reset_input_buffer()
        except Exception as err:
            with self._lock:
                events = self.link.closed(self._now(), f"board not found at {path}: {err}")
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
