"""The codec: round trips, every way a frame can be damaged, and the CircuitPython subset."""

import ast
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.board import protocol as p
from companion.errors import ProtocolError

u8 = st.integers(0, 0xFF)
u16 = st.integers(0, 0xFFFF)
u32 = st.integers(0, 0xFFFFFFFF)
square = st.integers(0, p.MAX_SQUARES - 1)


@st.composite
def snapshots(draw):
    count = draw(st.integers(0, p.MAX_SQUARES))
    squares = draw(st.sets(st.integers(0, count - 1))) if count else set()
    return p.Snapshot.from_squares(draw(u16), draw(u8), count, squares)


messages = st.one_of(
    st.builds(p.Hello, u8, u16, u16),
    st.builds(p.Welcome, u8, st.tuples(u8, u8, u8), u8, u8, u16, u16, u16, u8, u8),
    st.just(p.NeedHello()),
    st.builds(p.Events, u16, st.lists(st.tuples(st.integers(0, 0x7FFF), st.booleans()), min_size=1, max_size=255)),
    st.just(p.SnapshotRequest()),
    snapshots(),
    st.builds(p.LedFrame, u16, st.binary(max_size=3 * 400).map(lambda b: b[: len(b) // 3 * 3])),
    st.builds(p.LedDelta, u16, u16, st.lists(st.tuples(u16, u8, u8, u8), max_size=300)),
    st.builds(p.LedAck, u16, u8),
    st.builds(p.Heartbeat, u32, u16),
    st.just(p.StatsRequest()),
    st.builds(p.Stats, st.lists(u32, max_size=40)),
)


@given(messages)
def test_every_message_survives_encode_then_decode(message):
    decoder = p.Decoder()
    assert decoder.feed(p.encode(message)) == [message]
    assert decoder.counters()["frames"] == 1


@given(st.lists(messages, min_size=1, max_size=5), st.data())
def test_a_stream_split_at_any_byte_boundaries_decodes_the_same(batch, data):
    wire = b"".join(p.encode(m) for m in batch)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(wire)), max_size=8)))
    decoder = p.Decoder()
    got = []
    start = 0
    for cut in cuts + [len(wire)]:
        got += decoder.feed(wire[start:cut])
        start = cut
    assert got == batch


def test_a_frame_fed_one_byte_at_a_time_decodes_once_complete():
    wire = p.encode(p.Events(1, [(5, True)]))
    decoder = p.Decoder()
    for i, byte in enumerate(wire):
        got = decoder.feed(bytes([byte]))
        assert got == ([] if i < len(wire) - 1 else [p.Events(1, [(5, True)])])


@given(st.binary(max_size=3000))
@settings(max_examples=300)
def test_the_decoder_never_raises_on_garbage(garbage):
    decoder = p.Decoder()
    decoder.feed(garbage)
    decoder.feed(garbage[::-1])


@given(st.binary(min_size=1, max_size=400))
def test_the_table_crc_equals_the_c_crc(data):
    assert p.crc16_python(data) == p.crc16(data)


@given(st.binary(max_size=1000))
def test_cobs_round_trips_and_never_emits_zero(data):
    encoded = p.cobs_encode(data)
    assert b"\x00" not in encoded
    assert p.cobs_decode(encoded) == data
    assert len(encoded) <= len(data) + len(data) // 254 + 1


GOOD = p.encode(p.Events(3, [(12, False), (28, True)]))
NEXT = p.encode(p.Heartbeat(99, 4))


@pytest.mark.parametrize("position", range(len(GOOD) - 1))
def test_a_flipped_bit_anywhere_drops_the_frame_and_the_next_frame_still_decodes(position):
    damaged = bytearray(GOOD)
    damaged[position] ^= 0x10
    decoder = p.Decoder()
    got = decoder.feed(bytes(damaged) + NEXT)
    assert got[-1] == p.Heartbeat(99, 4)
    assert p.Events(3, [(12, False), (28, True)]) not in got
    assert decoder.dropped() >= 1


@pytest.mark.parametrize("keep", range(1, len(GOOD) - 1))
def test_a_truncated_frame_is_dropped_and_counted(keep):
    decoder = p.Decoder()
    assert decoder.feed(GOOD[:keep] + b"\x00" + NEXT) == [p.Heartbeat(99, 4)]
    assert decoder.dropped() == 1


def test_a_burst_of_garbage_between_frames_loses_no_good_frame():
    garbage = bytes((i * 37 + 11) % 256 for i in range(5000))
    decoder = p.Decoder()
    got = decoder.feed(GOOD + garbage + b"\x00" + NEXT)
    assert got[0] == p.Events(3, [(12, False), (28, True)])
    assert got[-1] == p.Heartbeat(99, 4)
    assert decoder.dropped() >= 1


def test_an_unknown_type_is_counted_and_dropped():
    decoder = p.Decoder()
    assert decoder.feed(p.encode_body(0x7E, b"future") + NEXT) == [p.Heartbeat(99, 4)]
    assert decoder.counters()["unknown_types"] == 1


def test_a_known_type_with_a_short_payload_is_counted_as_bad_payload():
    decoder = p.Decoder()
    assert decoder.feed(p.encode_body(p.HEARTBEAT, b"\x01\x02") + NEXT) == [p.Heartbeat(99, 4)]
    assert decoder.counters()["bad_payloads"] == 1


def test_longer_payloads_are_accepted_so_fields_can_be_appended_within_a_version():
    decoder = p.Decoder()
    wire = p.encode_body(p.HEARTBEAT, p.Heartbeat(5, 6).encode_payload() + b"new field")
    assert decoder.feed(wire) == [p.Heartbeat(5, 6)]


def test_an_oversized_frame_is_dropped_without_buffering_it_all():
    decoder = p.Decoder()
    decoder.feed(b"\x01" * (p.MAX_ENCODED + 10))
    assert decoder.counters()["oversize"] == 1
    assert decoder._size == 0
    assert decoder.feed(b"\x01\x01\x00" + NEXT) == [p.Heartbeat(99, 4)]


def test_a_frame_too_short_for_a_crc_is_counted():
    decoder = p.Decoder()
    assert decoder.feed(b"\x02\x10\x00") == []
    assert decoder.counters()["short_frames"] == 1


def test_invalid_cobs_is_counted():
    decoder = p.Decoder()
    assert decoder.feed(b"\x09\x01\x02\x00") == []  # code 9 promises 8 bytes, 2 follow
    assert decoder.counters()["cobs_errors"] == 1


def test_lone_delimiters_are_skipped_silently():
    decoder = p.Decoder()
    assert decoder.feed(b"\x00\x00" + NEXT + b"\x00") == [p.Heartbeat(99, 4)]
    assert decoder.dropped() == 0


def test_reset_forgets_a_half_frame():
    decoder = p.Decoder()
    decoder.feed(GOOD[:5])
    decoder.reset()
    assert decoder.feed(NEXT) == [p.Heartbeat(99, 4)]
    assert decoder.dropped() == 0


@pytest.mark.parametrize(
    "message, problem",
    [
        (p.Events(1, []), "1 to 255"),
        (p.Events(1, [(0x8000, True)]), "does not fit"),
        (p.Snapshot(0, 0, 64, b"\x00"), "bitmap"),
        (p.LedFrame(1, b"\x01\x02"), "multiple of 3"),
    ],
)
def test_encoding_an_impossible_message_raises_protocol_error(message, problem):
    with pytest.raises(ProtocolError, match=problem):
        p.encode(message)


def test_a_frame_over_the_size_limit_cannot_be_encoded():
    with pytest.raises(ProtocolError, match="exceeds"):
        p.encode(p.LedFrame(1, bytes(3 * 700)))


def test_bitmap_rejects_squares_off_the_board():
    with pytest.raises(ProtocolError, match="outside"):
        p.bitmap_from_squares([64], 64)


@given(st.integers(1, 676).flatmap(lambda n: st.tuples(st.just(n), st.sets(st.integers(0, n - 1)))))
def test_bitmaps_round_trip(case):
    count, squares = case
    assert p.squares_from_bitmap(p.bitmap_from_squares(squares, count), count) == sorted(squares)


def test_messages_have_value_equality_and_a_repr_that_names_the_fields():
    assert p.LedAck(3, 0) == p.LedAck(3, 0) and p.LedAck(3, 0) != p.LedAck(3, 1)
    assert p.LedAck(3, 0) != p.Heartbeat(3, 0)
    assert repr(p.LedAck(3, 0)) == "LedAck(frame_id=3, status=0)"


def test_stats_name_their_values_in_wire_order():
    values = list(range(len(p.STATS_FIELDS)))
    assert p.Stats(values).as_dict() == dict(zip(p.STATS_FIELDS, values))


# --- the code that runs on the board stays inside what CircuitPython 9 has ----------------------

ROOT = Path(__file__).resolve().parents[1]
BOARD_SOURCES = [
    ROOT / "companion/board/protocol.py",
    ROOT / "firmware/companion_fw.py",
    ROOT / "firmware/wiring.py",
    ROOT / "firmware/code.py",
    ROOT / "firmware/boot.py",
    ROOT / "firmware/config.py",
]
CIRCUITPYTHON_MODULES = {
    "struct", "binascii", "time", "os", "traceback", "board", "digitalio", "keypad", "neopixel",
    "usb_cdc", "microcontroller", "watchdog", "supervisor", "protocol", "companion_fw", "wiring",
    "config", "companion.errors", "companion.board",
}  # fmt: skip


@pytest.mark.parametrize("path", BOARD_SOURCES, ids=lambda p: p.name)
def test_board_code_uses_only_the_circuitpython_subset(path):
    tree = ast.parse(path.read_text(), filename=str(path))
    for node in ast.walk(tree):
        where = f"{path.name}:{getattr(node, 'lineno', '?')}"
        if isinstance(node, ast.Import):
            for alias in node.names:
                assert alias.name in CIRCUITPYTHON_MODULES, f"{where} imports {alias.name}"
        elif isinstance(node, ast.ImportFrom):
            assert node.module in CIRCUITPYTHON_MODULES, f"{where} imports from {node.module}"
        assert not isinstance(node, (ast.JoinedStr, ast.NamedExpr, ast.Match, ast.AsyncFunctionDef)), where
        assert not isinstance(node, ast.AnnAssign), f"{where}: variable annotation"
        if isinstance(node, ast.FunctionDef):
            assert node.returns is None and all(a.annotation is None for a in node.args.args), where
        if isinstance(node, ast.ClassDef):
            assert not node.decorator_list, f"{where}: class decorator (dataclass?)"


def test_there_is_one_codec_source_in_the_repository():
    tops = [d for d in ROOT.iterdir() if d.is_dir() and not d.name.startswith(".") and d.name not in ("build", "dist")]
    copies = [f for top in tops for f in top.rglob("protocol.py")]
    assert copies == [ROOT / "companion/board/protocol.py"]
