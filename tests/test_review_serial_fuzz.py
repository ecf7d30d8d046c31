"""Review: fuzzing both ends of the serial link beyond random bytes.

Random bytes almost never pass the CRC, so the payload decoders and the state machines behind
them were reached only by well-formed messages. Here frames carry a *valid* CRC around random
payloads, and both the host's HostLink and the real firmware logic get random sequences of
well-formed but unexpected messages (wrong sizes, off-board squares, other versions, acks for
unknown frames, a board that restarts) mixed with garbage, unplugging and key changes."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_firmware_core import Rig
from test_protocol_codec import messages

from companion.board import protocol as p
from companion.board.ports import BoardConnected, BoardDisconnected, OccupancySnapshot, SquareChanged
from companion.board.serial_board import HostLink

u8, u16 = st.integers(0, 0xFF), st.integers(0, 0xFFFF)


@settings(max_examples=400)
@given(st.sampled_from(sorted(p.MESSAGE_CLASSES)), st.binary(max_size=600))
def test_a_frame_with_a_valid_crc_and_any_payload_is_decoded_or_counted_never_raised(type_code, payload):
    decoder = p.Decoder()
    out = decoder.feed(p.encode_body(type_code, payload))
    assert len(out) + decoder.dropped() == 1


def _welcomes():
    return st.builds(p.Welcome, st.sampled_from([1, 1, 1, 2]), st.tuples(u8, u8, u8), st.sampled_from([8, 8, 9]),
                     st.sampled_from([8, 8, 7]), u16, u16, u16, u8, u8)


_board_messages = st.one_of(
    _welcomes(),
    st.builds(lambda seq, reason, sq: p.Snapshot.from_squares(seq, reason, 64, sq), u16, st.integers(0, 3),
              st.sets(st.integers(0, 63))),
    st.builds(p.Events, u16, st.lists(st.tuples(st.integers(0, 80), st.booleans()), min_size=1, max_size=10)),
    st.builds(p.LedAck, st.integers(0, 10), st.integers(0, 4)),
    st.just(p.NeedHello()),
    messages,
)
_frames = st.lists(st.tuples(u8, u8, u8), min_size=64, max_size=64).map(tuple)
_host_actions = st.one_of(
    st.tuples(st.just("receive"), st.lists(_board_messages, min_size=1, max_size=4), st.integers(0, 500)),
    st.tuples(st.just("garbage"), st.binary(max_size=40), st.integers(0, 500)),
    st.tuples(st.just("poll"), st.none(), st.integers(0, 3000)),
    st.tuples(st.just("show"), _frames, st.integers(0, 50)),
    st.tuples(st.just("snapshot"), st.none(), st.integers(0, 50)),
    st.tuples(st.just("open"), st.none(), st.integers(0, 50)),
    st.tuples(st.just("close"), st.none(), st.integers(0, 50)),
)


@pytest.mark.slow
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_host_actions, max_size=40))
def test_the_host_link_never_raises_and_only_reports_squares_of_the_board(actions):
    link = HostLink(8, 8)
    sent = p.Decoder()
    now = 0
    link.opened(0)
    for kind, arg, dt in actions:
        now += dt
        events = []
        if kind == "receive":
            events = link.receive(b"".join(p.encode(m) for m in arg), now)
        elif kind == "garbage":
            events = link.receive(arg, now)
        elif kind == "poll":
            out, events, _ = link.poll(now)
            sent.feed(out)
        elif kind == "show":
            link.show(arg)
        elif kind == "snapshot":
            link.request_snapshot()
        elif kind == "open":
            link.opened(now)
        else:
            events = link.closed(now)
        for e in events:
            if isinstance(e, SquareChanged):
                assert 0 <= e.square < 64
            elif isinstance(e, OccupancySnapshot):
                assert all(0 <= s < 64 for s in e.occupied)
            else:
                assert isinstance(e, (BoardConnected, BoardDisconnected))
    assert sent.dropped() == 0  # whatever happened, the host only ever sends good frames


_host_messages = st.one_of(
    messages,
    st.builds(p.LedDelta, st.integers(0, 5), st.integers(0, 5),
              st.lists(st.tuples(st.integers(0, 70), u8, u8, u8), max_size=10)),
    st.builds(p.LedFrame, st.integers(0, 5), st.sampled_from([64, 63, 65, 0]).map(lambda n: bytes(3 * n))),
    st.builds(p.Hello, st.sampled_from([1, 1, 2]), u16, u16),
)
_board_actions = st.one_of(
    st.tuples(st.just("send"), st.lists(_host_messages, min_size=1, max_size=3), st.integers(0, 400)),
    st.tuples(st.just("garbage"), st.binary(max_size=50), st.integers(0, 400)),
    st.tuples(st.just("key"), st.integers(0, 63), st.integers(0, 400)),
    st.tuples(st.just("step"), st.none(), st.integers(0, 5000)),
    st.tuples(st.just("plug"), st.none(), st.integers(0, 100)),
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_board_actions, max_size=30))
def test_the_firmware_never_raises_and_a_new_session_reports_the_true_occupancy(actions):
    rig = Rig()
    rig.connect()
    pressed: set[int] = set()
    for kind, arg, dt in actions:
        if kind == "send":
            rig.send(*arg)
        elif kind == "garbage":
            rig.line.host_write(arg)
        elif kind == "key":
            (rig.keys.release if arg in pressed else rig.keys.press)(arg)
            pressed ^= {arg}
        elif kind == "plug":
            rig.line.connected = not rig.line.connected
        rig.step(dt)
    rig.line.connected = True
    rig.line.host_write(b"\x00")  # as the host does before HELLO: flush a half-received frame
    replies = rig.connect() + rig.step(10)
    snapshots = [m for m in replies if isinstance(m, p.Snapshot)]
    assert set(rig.fw.occupied()) == pressed
    assert snapshots and set(snapshots[-1].occupied()) == pressed
