"""The serial link codec shared by the Pi and the RP2040 firmware (docs/serial-protocol.md).

This one file runs on CPython 3.11 *and* on CircuitPython 9: the host imports it as
``companion.board.protocol``, the firmware as ``protocol`` (the same file, copied to the
CIRCUITPY drive). So it uses only what both have: classes without dataclasses, ``struct``,
``bytes``/``bytearray``, no ``enum``, no ``typing`` at run time, no ``from __future__``.

It is sans-I/O (like h11): :func:`encode` turns a message into the bytes of one wire frame and
:class:`Decoder` turns received bytes into messages. A damaged, truncated, oversized or unknown
frame is counted in the decoder's counters and dropped; the decoder never raises.

Wire frame: ``COBS(type u8 | payload | crc16 u16-le) 0x00``. The CRC is CRC-16/CCITT-FALSE
(poly 0x1021, init 0xFFFF) over type and payload. All integers are little-endian.
"""

import struct

try:  # on the Pi: the product's error root; on the board there is no companion package
    from companion.errors import ProtocolError
except ImportError:

    class ProtocolError(ValueError):
        """A frame or message is malformed."""


PROTOCOL_VERSION = 1

# Largest body (type + payload + crc) either side accepts: a full LED frame for a 26x26 board
# (2 + 2 + 676 * 3 payload bytes) fits. Anything longer is garbage and is dropped.
MAX_BODY = 2048
# COBS adds one byte per 254 and one at the start.
MAX_ENCODED = MAX_BODY + MAX_BODY // 254 + 2
MAX_SQUARES = 676

# Message types: session, board events, LEDs, health
HELLO, WELCOME, NEED_HELLO = 0x01, 0x02, 0x03
EVENTS, SNAPSHOT_REQUEST, SNAPSHOT = 0x10, 0x11, 0x12
LED_FRAME, LED_DELTA, LED_ACK = 0x20, 0x21, 0x22
HEARTBEAT, STATS_REQUEST, STATS = 0x30, 0x31, 0x32

# WELCOME capability bits
CAP_LEDS = 0x0001
CAP_LED_DELTA = 0x0002
CAP_STATS = 0x0004
CAP_WATCHDOG = 0x0008
CAP_SIMULATED = 0x8000

# WELCOME scanner kinds
SCANNER_UNKNOWN, SCANNER_KEY_MATRIX, SCANNER_SHIFT_REGISTER = 0, 1, 2

# WELCOME reset reasons (the firmware maps microcontroller.ResetReason onto these)
RESET_UNKNOWN, RESET_POWER_ON, RESET_BROWNOUT, RESET_SOFTWARE = 0, 1, 2, 3
RESET_DEEP_SLEEP_ALARM, RESET_RESET_PIN, RESET_WATCHDOG, RESET_RESCUE_DEBUG = 4, 5, 6, 7

# SNAPSHOT reasons
SNAP_HANDSHAKE, SNAP_REQUESTED, SNAP_PERIODIC, SNAP_RESYNC = 0, 1, 2, 3

# LED_ACK statuses
ACK_OK, ACK_NEED_FULL, ACK_BAD_FRAME, ACK_NO_LEDS = 0, 1, 2, 3

# STATS counters, in wire order. New counters are only ever appended.
STATS_FIELDS = (
    "uptime_ms", "rx_frames", "rx_crc_errors", "rx_cobs_errors", "rx_short_frames", "rx_oversize",
    "rx_unknown_types", "rx_bad_payloads", "tx_frames", "tx_dropped", "events", "keypad_overflows",
    "led_frames", "sessions", "rx_unexpected",
    # firmware 1.1: main-loop passes, and the keypad's scan interval setting (us; not a counter)
    "loops", "scan_interval_us",
)

# Decoder counters, in the order of Decoder.counters()
DECODER_COUNTERS = ("frames", "crc_errors", "cobs_errors", "short_frames", "oversize", "unknown_types", "bad_payloads")


# --- CRC-16/CCITT-FALSE -----------------------------------------------------------------------


def _make_crc_table():
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return tuple(table)


_CRC_TABLE = _make_crc_table()


def crc16_python(data, crc=0xFFFF):
    """CRC-16/CCITT-FALSE in plain Python (the path the board takes); check("123456789")
    = 0x29B1."""
    table = _CRC_TABLE
    for b in data:
        crc = ((crc << 8) & 0xFF00) ^ table[(crc >> 8) ^ b]
    return crc


try:  # CPython has the same CRC in C (binascii.crc_hqx); CircuitPython does not
    from binascii import crc_hqx as _crc_hqx

    def crc16(data, crc=0xFFFF):
        """CRC-16/CCITT-FALSE of ``data``."""
        return _crc_hqx(data, crc)

except ImportError:
    crc16 = crc16_python


# --- COBS ---------------------------------------------------------------------------------------


def cobs_encode(data):
    """Consistent Overhead Byte Stuffing: the result has no 0x00 byte (Cheshire & Baker)."""
    out = bytearray()
    parts = bytes(data).split(b"\x00")
    last = len(parts) - 1
    for i, chunk in enumerate(parts):
        while len(chunk) >= 254:
            out.append(0xFF)
            out.extend(chunk[:254])
            chunk = chunk[254:]
            if i == last and not chunk:
                return bytes(out)
        out.append(len(chunk) + 1)
        out.extend(chunk)
    return bytes(out)


def cobs_decode(data):
    """The inverse of :func:`cobs_encode`; None when ``data`` is not valid COBS."""
    out = bytearray()
    i = 0
    n = len(data)
    while i < n:
        code = data[i]
        if code == 0:
            return None
        end = i + code
        if end > n:
            return None
        out.extend(data[i + 1 : end])
        i = end
        if code != 0xFF and i < n:
            out.append(0)
    return bytes(out)


# --- bit maps -----------------------------------------------------------------------------------


def bitmap_from_squares(squares, count):
    """Occupancy bitmap: square i is bit (i % 8) of byte (i // 8), least significant first."""
    bitmap = bytearray((count + 7) // 8)
    for sq in squares:
        if not 0 <= sq < count:
            raise ProtocolError("square %d is outside a board of %d squares" % (sq, count))
        bitmap[sq >> 3] |= 1 << (sq & 7)
    return bytes(bitmap)


def squares_from_bitmap(bitmap, count):
    """Occupied square indices, ascending."""
    result = []
    for byte_index in range(min(len(bitmap), (count + 7) // 8)):
        byte = bitmap[byte_index]
        if byte:
            base = byte_index << 3
            for bit in range(8):
                if byte & (1 << bit) and base + bit < count:
                    result.append(base + bit)
    return result


# --- messages -------------------------------------------------------------------------------------


def _need(payload, size, what):
    if len(payload) < size:
        raise ProtocolError("%s payload has %d bytes, needs at least %d" % (what, len(payload), size))


class Message:
    """Base of every message: value equality and a repr you can paste back.

    A message whose payload is its fields in a fixed order sets ``LAYOUT`` (a struct format)
    and needs no code of its own to encode and decode; the others override both."""

    TYPE = -1
    NAME = ""
    FIELDS = ()
    LAYOUT = ""

    def __eq__(self, other):
        return type(other) is type(self) and all(getattr(self, n) == getattr(other, n) for n in self.FIELDS)

    def __ne__(self, other):
        return not self.__eq__(other)

    def __repr__(self):
        return "%s(%s)" % (type(self).__name__, ", ".join("%s=%r" % (n, getattr(self, n)) for n in self.FIELDS))

    def encode_payload(self):
        if not self.LAYOUT:
            return b""
        return struct.pack(self.LAYOUT, *[getattr(self, name) for name in self.FIELDS])

    @classmethod
    def decode_payload(cls, payload):
        if not cls.LAYOUT:
            return cls()
        _need(payload, struct.calcsize(cls.LAYOUT), cls.NAME)
        return cls(*struct.unpack_from(cls.LAYOUT, payload, 0))


class Hello(Message):
    """Host -> board: start (or restart) a session. The board answers WELCOME, then SNAPSHOT.

    ``heartbeat_ms``: how often the board should send HEARTBEAT; ``timeout_ms``: after this
    long without any frame from the host the board ends the session."""

    TYPE = HELLO
    NAME = "HELLO"
    FIELDS = ("version", "heartbeat_ms", "timeout_ms")
    LAYOUT = "<BHH"

    def __init__(self, version=PROTOCOL_VERSION, heartbeat_ms=500, timeout_ms=3000):
        self.version = version
        self.heartbeat_ms = heartbeat_ms
        self.timeout_ms = timeout_ms


class Welcome(Message):
    """Board -> host: who the board is. ``boot_id`` is random per boot, so a changed id means
    the firmware restarted."""

    TYPE = WELCOME
    FIELDS = ("version", "firmware", "width", "height", "led_count", "capabilities", "boot_id", "reset_reason",
              "scanner")

    def __init__(self, version=PROTOCOL_VERSION, firmware=(0, 0, 0), width=8, height=8, led_count=64,
                 capabilities=0, boot_id=0, reset_reason=RESET_UNKNOWN, scanner=SCANNER_UNKNOWN):
        self.version = version
        self.firmware = tuple(firmware)
        self.width = width
        self.height = height
        self.led_count = led_count
        self.capabilities = capabilities
        self.boot_id = boot_id
        self.reset_reason = reset_reason
        self.scanner = scanner

    def encode_payload(self):
        major, minor, patch = self.firmware
        return struct.pack("<BBBBBBHHHBB", self.version, major, minor, patch, self.width, self.height,
                           self.led_count, self.capabilities, self.boot_id, self.reset_reason, self.scanner)

    @staticmethod
    def decode_payload(payload):
        _need(payload, 14, "WELCOME")
        v = struct.unpack_from("<BBBBBBHHHBB", payload, 0)
        return Welcome(v[0], (v[1], v[2], v[3]), v[4], v[5], v[6], v[7], v[8], v[9], v[10])


class NeedHello(Message):
    """Board -> host: the board has no session with you (it restarted, or timed you out)."""

    TYPE = NEED_HELLO


class Events(Message):
    """Board -> host: square changes in the order they happened. ``changes`` is a list of
    ``(square, occupied)``; the i-th change has sequence number ``first_seq + i`` (mod 65536)."""

    TYPE = EVENTS
    FIELDS = ("first_seq", "changes")

    def __init__(self, first_seq, changes):
        self.first_seq = first_seq
        self.changes = [(sq, bool(occ)) for sq, occ in changes]

    def encode_payload(self):
        n = len(self.changes)
        if not 1 <= n <= 255:
            raise ProtocolError("EVENTS carries 1 to 255 changes, got %d" % n)
        out = bytearray(struct.pack("<HB", self.first_seq, n))
        for square, occupied in self.changes:
            if not 0 <= square < 0x8000:
                raise ProtocolError("square %d does not fit an EVENTS entry" % square)
            out.extend(struct.pack("<H", square | (0x8000 if occupied else 0)))
        return bytes(out)

    @staticmethod
    def decode_payload(payload):
        _need(payload, 3, "EVENTS")
        first_seq, n = struct.unpack_from("<HB", payload, 0)
        if n == 0:
            raise ProtocolError("EVENTS with no change")
        _need(payload, 3 + 2 * n, "EVENTS")
        changes = []
        for i in range(n):
            entry = struct.unpack_from("<H", payload, 3 + 2 * i)[0]
            changes.append((entry & 0x7FFF, bool(entry & 0x8000)))
        return Events(first_seq, changes)

    def last_seq(self):
        return (self.first_seq + len(self.changes) - 1) & 0xFFFF


class SnapshotRequest(Message):
    """Host -> board: send a SNAPSHOT now."""

    TYPE = SNAPSHOT_REQUEST


class Snapshot(Message):
    """Board -> host: every occupied square. ``seq`` is the sequence number of the last event
    the board sent before this snapshot: the snapshot already includes it and every earlier one."""

    TYPE = SNAPSHOT
    FIELDS = ("seq", "reason", "square_count", "bitmap")

    def __init__(self, seq, reason, square_count, bitmap):
        self.seq = seq
        self.reason = reason
        self.square_count = square_count
        self.bitmap = bytes(bitmap)

    @staticmethod
    def from_squares(seq, reason, square_count, squares):
        return Snapshot(seq, reason, square_count, bitmap_from_squares(squares, square_count))

    def occupied(self):
        return squares_from_bitmap(self.bitmap, self.square_count)

    def encode_payload(self):
        if len(self.bitmap) != (self.square_count + 7) // 8:
            raise ProtocolError(
                "SNAPSHOT bitmap has %d bytes, %d squares need %d"
                % (len(self.bitmap), self.square_count, (self.square_count + 7) // 8)
            )
        return struct.pack("<HBH", self.seq, self.reason, self.square_count) + self.bitmap

    @staticmethod
    def decode_payload(payload):
        _need(payload, 5, "SNAPSHOT")
        seq, reason, count = struct.unpack_from("<HBH", payload, 0)
        if count > MAX_SQUARES:
            raise ProtocolError("SNAPSHOT of %d squares (at most %d)" % (count, MAX_SQUARES))
        size = (count + 7) // 8
        _need(payload, 5 + size, "SNAPSHOT")
        return Snapshot(seq, reason, count, payload[5 : 5 + size])


class LedFrame(Message):
    """Host -> board: the colour of every square, ``rgb`` = r, g, b bytes per square index
    (a1 = 0), before the board's brightness cap."""

    TYPE = LED_FRAME
    FIELDS = ("frame_id", "rgb")

    def __init__(self, frame_id, rgb):
        self.frame_id = frame_id
        self.rgb = bytes(rgb)

    @staticmethod
    def from_colors(frame_id, colors):
        return LedFrame(frame_id, b"".join(bytes(color) for color in colors))

    def count(self):
        return len(self.rgb) // 3

    def encode_payload(self):
        if len(self.rgb) % 3:
            raise ProtocolError("LED_FRAME rgb length %d is not a multiple of 3" % len(self.rgb))
        return struct.pack("<HH", self.frame_id, len(self.rgb) // 3) + self.rgb

    @staticmethod
    def decode_payload(payload):
        _need(payload, 4, "LED_FRAME")
        frame_id, count = struct.unpack_from("<HH", payload, 0)
        if count > MAX_SQUARES:
            raise ProtocolError("LED_FRAME of %d squares (at most %d)" % (count, MAX_SQUARES))
        _need(payload, 4 + 3 * count, "LED_FRAME")
        return LedFrame(frame_id, payload[4 : 4 + 3 * count])


class LedDelta(Message):
    """Host -> board: only the squares that differ from frame ``base_id``. ``changes`` is a list
    of ``(square, r, g, b)``. A board that does not show ``base_id`` answers ACK_NEED_FULL."""

    TYPE = LED_DELTA
    FIELDS = ("frame_id", "base_id", "changes")

    def __init__(self, frame_id, base_id, changes):
        self.frame_id = frame_id
        self.base_id = base_id
        self.changes = [tuple(c) for c in changes]

    def encode_payload(self):
        out = bytearray(struct.pack("<HHH", self.frame_id, self.base_id, len(self.changes)))
        for square, r, g, b in self.changes:
            out.extend(struct.pack("<HBBB", square, r, g, b))
        return bytes(out)

    @staticmethod
    def decode_payload(payload):
        _need(payload, 6, "LED_DELTA")
        frame_id, base_id, count = struct.unpack_from("<HHH", payload, 0)
        if count > MAX_SQUARES:
            raise ProtocolError("LED_DELTA of %d squares (at most %d)" % (count, MAX_SQUARES))
        _need(payload, 6 + 5 * count, "LED_DELTA")
        changes = []
        for i in range(count):
            changes.append(struct.unpack_from("<HBBB", payload, 6 + 5 * i))
        return LedDelta(frame_id, base_id, changes)


class LedAck(Message):
    """Board -> host: LED frame ``frame_id`` was handled; ``status`` is one of ACK_*."""

    TYPE = LED_ACK
    NAME = "LED_ACK"
    FIELDS = ("frame_id", "status")
    LAYOUT = "<HB"

    def __init__(self, frame_id, status=ACK_OK):
        self.frame_id = frame_id
        self.status = status


class Heartbeat(Message):
    """Both ways: I am alive. ``last_seq`` from the board is its last event's sequence number,
    so a host that missed a trailing event notices within one heartbeat."""

    TYPE = HEARTBEAT
    NAME = "HEARTBEAT"
    FIELDS = ("uptime_ms", "last_seq")
    LAYOUT = "<IH"

    def __init__(self, uptime_ms=0, last_seq=0):
        self.uptime_ms = uptime_ms
        self.last_seq = last_seq

    def encode_payload(self):  # both wrap (the board's uptime passes 2**32 ms after 49 days)
        return struct.pack(self.LAYOUT, self.uptime_ms & 0xFFFFFFFF, self.last_seq & 0xFFFF)


class StatsRequest(Message):
    """Host -> board: send STATS now."""

    TYPE = STATS_REQUEST


class Stats(Message):
    """Board -> host: counters, in the order of STATS_FIELDS (u32 each, wrapping)."""

    TYPE = STATS
    FIELDS = ("values",)

    def __init__(self, values):
        self.values = list(values)

    def as_dict(self):
        return dict(zip(STATS_FIELDS, self.values))

    def encode_payload(self):
        out = bytearray(struct.pack("<B", len(self.values)))
        for v in self.values:
            out.extend(struct.pack("<I", v & 0xFFFFFFFF))
        return bytes(out)

    @staticmethod
    def decode_payload(payload):
        _need(payload, 1, "STATS")
        n = payload[0]
        _need(payload, 1 + 4 * n, "STATS")
        return Stats([struct.unpack_from("<I", payload, 1 + 4 * i)[0] for i in range(n)])


MESSAGE_CLASSES = {cls.TYPE: cls for cls in (Hello, Welcome, NeedHello, Events, SnapshotRequest, Snapshot, LedFrame,
                                              LedDelta, LedAck, Heartbeat, StatsRequest, Stats)}


# --- frames -------------------------------------------------------------------------------------


def encode_body(type_code, payload):
    """One complete wire frame for a raw type code and payload (tests use it for unknown types)."""
    body = bytes([type_code]) + bytes(payload)
    if len(body) + 2 > MAX_BODY:
        raise ProtocolError("frame body of %d bytes exceeds %d" % (len(body) + 2, MAX_BODY))
    body += struct.pack("<H", crc16(body))
    return cobs_encode(body) + b"\x00"


def encode(message):
    """The bytes of one wire frame carrying ``message`` (delimiter included)."""
    return encode_body(message.TYPE, message.encode_payload())


_STRUCT_ERROR = getattr(struct, "error", ValueError)


class Decoder:
    """Turns received bytes into messages. Feed it any chunks; it keeps partial frames.

    Counters (see DECODER_COUNTERS) say what was dropped and why. An empty frame (two 0x00 in
    a row) is silently skipped, so a sender may write a lone 0x00 to flush a half-received frame."""

    def __init__(self, max_body=MAX_BODY):
        self.max_encoded = max_body + max_body // 254 + 2
        self._parts = []
        self._size = 0
        self._discarding = False
        self.frames = 0
        self.crc_errors = 0
        self.cobs_errors = 0
        self.short_frames = 0
        self.oversize = 0
        self.unknown_types = 0
        self.bad_payloads = 0

    def counters(self):
        return dict((name, getattr(self, name)) for name in DECODER_COUNTERS)

    def dropped(self):
        """How many frames were dropped, for any reason."""
        return (self.crc_errors + self.cobs_errors + self.short_frames + self.oversize + self.unknown_types
                + self.bad_payloads)

    def reset(self):
        """Forget a half-received frame (after reopening the port)."""
        self._parts = []
        self._size = 0
        self._discarding = False

    def feed(self, data):
        """Every complete, valid message in ``data`` (plus what earlier calls left over)."""
        messages = []
        chunks = bytes(data).split(b"\x00")
        last = len(chunks) - 1
        for i, chunk in enumerate(chunks):
            if i < last:
                if self._discarding:
                    self._discarding = False
                else:
                    self._parts.append(chunk)
                    frame = b"".join(self._parts)
                    if frame:
                        message = self._decode_frame(frame)
                        if message is not None:
                            messages.append(message)
                self._parts = []
                self._size = 0
            elif chunk and not self._discarding:
                self._parts.append(chunk)
                self._size += len(chunk)
                if self._size > self.max_encoded:
                    self.oversize += 1
                    self._parts = []
                    self._size = 0
                    self._discarding = True
        return messages

    def _decode_frame(self, frame):
        if len(frame) > self.max_encoded:
            self.oversize += 1
            return None
        body = cobs_decode(frame)
        if body is None:
            self.cobs_errors += 1
            return None
        if len(body) < 3:
            self.short_frames += 1
            return None
        crc = body[-2] | (body[-1] << 8)
        if crc16(body[:-2]) != crc:
            self.crc_errors += 1
            return None
        cls = MESSAGE_CLASSES.get(body[0])
        if cls is None:
            self.unknown_types += 1
            return None
        try:
            message = cls.decode_payload(body[1:-2])
        except (ProtocolError, ValueError, IndexError, _STRUCT_ERROR):
            self.bad_payloads += 1
            return None
        self.frames += 1
        return message
