"""The host's half of the serial protocol as a state machine over (bytes, time) values.

Sans-I/O (h11-style): :class:`HostLink` has no port, no clock and no thread. It is given the
bytes received and the time (ms), and returns bytes to send and board events (``ports.py``).
The serial adapter (serial_board.py) owns the port and the thread and drives it; tests drive
it directly. The protocol is docs/serial-protocol.md, the codec protocol.py.
"""

from __future__ import annotations

from typing import Optional

from ..i18n import N_, _
from . import protocol
from .ports import BoardConnected, BoardDisconnected, BoardEvent, LedFrame, OccupancySnapshot, SquareChanged

DISCONNECTED = N_("board disconnected")  # marked: said as _(DISCONNECTED)

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
        where: str | None = None,
        heartbeat_ms: int = 500,
        timeout_ms: int = 2000,
        hello_retry_ms: int = 300,
        ack_timeout_ms: int = 1000,
    ) -> None:
        self.width = width
        self.height = height
        self.size = width * height
        self.where = where or _("the serial port")
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

    def closed(self, now: int, reason: str | None = None) -> list[BoardEvent]:
        self.phase = "closed"
        self.inflight = None
        return self._down(now, reason or _(DISCONNECTED))

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
                _("{where} is the CircuitPython console (REPL), not the data port: use the port named "
                  "'CircuitPython CDC2 data' or --serial auto (hardware/FIRMWARE.md)").format(where=self.where),
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
                return self._down(now, _("board restarted: resynchronising"))
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
                _("the board's firmware speaks protocol version {theirs}, this app speaks {ours}: update the "
                  "firmware (hardware/FIRMWARE.md) or the app").format(theirs=w.version, ours=protocol.PROTOCOL_VERSION),
            )
        if (w.width, w.height) != (self.width, self.height):
            self._enter("incompatible", now)
            return self._down(
                now,
                _("the board at {where} has {width}x{height} squares but companion is set up for "
                  "{our_width}x{our_height}: fix WIDTH/HEIGHT in the board's config.py or the board profile").format(
                    where=self.where, width=w.width, height=w.height, our_width=self.width, our_height=self.height),
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
                    _("no answer from the board at {where}: is it the CircuitPython data port running the "
                      "companion firmware (hardware/FIRMWARE.md)?").format(where=self.where),
                )
                if now - self.phase_at > 3 * self.timeout_ms:
                    return bytes(out), events, True
        elif self.phase == "sync":
            if now - self.phase_at > self.timeout_ms:
                self._enter("hello", now)
        elif self.phase == "up":
            if now - self.last_rx > self.timeout_ms:
                self.phase = "closed"
                return b"", self._down(now, _(DISCONNECTED)), True
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
