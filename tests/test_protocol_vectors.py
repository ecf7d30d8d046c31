"""Test vectors: the exact bytes of every message. docs/serial-protocol.md lists the same ones;
another host implementation can check itself against them. Changing any of these bytes is a
protocol version change."""

import pytest

from companion.board import protocol as p

VECTORS = [
    ("HELLO", p.Hello(1, 500, 3000), "09 01 01 f4 01 b8 0b a2 a5 00"),
    (
        "WELCOME",
        p.Welcome(
            1,
            (1, 0, 0),
            8,
            8,
            64,
            p.CAP_LEDS | p.CAP_LED_DELTA | p.CAP_STATS,
            0x1234,
            p.RESET_WATCHDOG,
            p.SCANNER_SHIFT_REGISTER,
        ),
        "04 02 01 01 01 04 08 08 40 02 07 07 34 12 06 02 c2 21 00",
    ),
    ("NEED_HELLO", p.NeedHello(), "04 03 93 d1 00"),
    ("EVENTS", p.Events(7, [(12, False), (28, True)]), "03 10 07 03 02 0c 05 1c 80 e9 c9 00"),
    ("SNAPSHOT_REQUEST", p.SnapshotRequest(), "04 11 e0 e3 00"),
    (
        "SNAPSHOT",
        p.Snapshot.from_squares(8, p.SNAP_REQUESTED, 64, [0, 1, 9, 63]),
        "03 12 08 03 01 40 03 03 02 01 01 01 01 04 80 48 01 00",
    ),
    (
        "LED_FRAME",
        p.LedFrame.from_colors(5, [(255, 0, 0), (0, 0, 0), (0, 16, 255)]),
        "03 20 05 02 03 02 ff 01 01 01 01 01 05 10 ff 2f 9d 00",
    ),
    ("LED_DELTA", p.LedDelta(6, 5, [(1, 0, 255, 0)]), "03 21 06 02 05 02 01 02 01 01 02 ff 03 db 7e 00"),
    ("LED_ACK", p.LedAck(6, p.ACK_NEED_FULL), "03 22 06 04 01 67 fc 00"),
    ("HEARTBEAT", p.Heartbeat(123456, 8), "05 30 40 e2 01 02 08 03 c1 42 00"),
    ("STATS_REQUEST", p.StatsRequest(), "04 31 82 c7 00"),
    ("STATS", p.Stats([1, 2, 0x01020304]), "04 32 03 01 01 01 02 02 01 01 07 04 03 02 01 04 a2 00"),
]


@pytest.mark.parametrize("name, message, wire", VECTORS, ids=[v[0] for v in VECTORS])
def test_every_message_encodes_to_its_pinned_bytes(name, message, wire):
    assert p.encode(message).hex(" ") == wire


@pytest.mark.parametrize("name, message, wire", VECTORS, ids=[v[0] for v in VECTORS])
def test_pinned_bytes_decode_to_the_message(name, message, wire):
    decoder = p.Decoder()
    assert decoder.feed(bytes.fromhex(wire)) == [message]
    assert decoder.dropped() == 0


def test_vectors_cover_every_message_type():
    assert {type(v[1]) for v in VECTORS} == set(p.MESSAGE_CLASSES.values())


def _crc16_bitwise(data: bytes) -> int:
    """CRC-16/CCITT-FALSE straight from its definition, independent of the table."""
    crc = 0xFFFF
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
    return crc


def test_crc_is_ccitt_false_with_its_published_check_value():
    assert p.crc16(b"123456789") == 0x29B1
    assert p.crc16_python(b"123456789") == 0x29B1


@pytest.mark.parametrize("name, message, wire", VECTORS, ids=[v[0] for v in VECTORS])
def test_each_vector_carries_the_crc_of_its_body(name, message, wire):
    body = p.cobs_decode(bytes.fromhex(wire)[:-1])
    assert body[0] == message.TYPE
    assert int.from_bytes(body[-2:], "little") == _crc16_bitwise(body[:-2])


# The COBS examples published with the algorithm's description (Cheshire & Baker's scheme).
COBS_EXAMPLES = [
    ("00", "01 01"),
    ("00 00", "01 01 01"),
    ("00 11 00", "01 02 11 01"),
    ("11 22 00 33", "03 11 22 02 33"),
    ("11 22 33 44", "05 11 22 33 44"),
    ("11 00 00 00", "02 11 01 01 01"),
]


@pytest.mark.parametrize("raw, encoded", COBS_EXAMPLES)
def test_cobs_matches_the_published_examples(raw, encoded):
    assert p.cobs_encode(bytes.fromhex(raw)).hex(" ") == encoded
    assert p.cobs_decode(bytes.fromhex(encoded)) == bytes.fromhex(raw)


def test_cobs_long_runs_use_0xff_blocks_without_a_trailing_empty_block():
    assert p.cobs_encode(bytes(range(1, 255))) == b"\xff" + bytes(range(1, 255))
    assert p.cobs_encode(bytes(range(0, 255))) == b"\x01\xff" + bytes(range(1, 255))
    assert p.cobs_encode(bytes(range(1, 256))) == b"\xff" + bytes(range(1, 255)) + b"\x02\xff"
    assert p.cobs_encode(bytes(range(2, 256)) + b"\x00") == b"\xff" + bytes(range(2, 256)) + b"\x01\x01"


def test_the_protocol_document_lists_exactly_these_vectors():
    from pathlib import Path
    import re

    doc = (Path(__file__).resolve().parents[1] / "docs/serial-protocol.md").read_text()
    table = doc[doc.index("## Test vectors") : doc.index("## Writing another host")]
    listed = set(re.findall(r"\| `((?:[0-9a-f]{2} )+00)` \|", table))
    assert listed == {wire for _, _, wire in VECTORS}
