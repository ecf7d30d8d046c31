"""The sealed channel between two boards (companion.link.channel), pure: pairing by the code,
sealing, and every fault a hand on the wire can make: each one detected, nothing of it accepted."""

import pytest

from companion.errors import LinkError
from companion.link.channel import (Channel, Connected, Interrupted, Paired, PairingFailed, Received, Rejected)
from companion.link.code import PairingCode
from tests.link_helpers import CODE, entropy_of


def _pair(code_a=CODE, code_b=CODE):
    a = Channel("host", entropy_of("a"), code=code_a)
    b = Channel("guest", entropy_of("b"), code=code_b)
    events = {"host": [], "guest": []}
    a.start(0)
    b.start(0)
    _run(a, b, events)
    return a, b, events


def _run(a, b, events, hand=None):
    for _ in range(1000):
        moved = False
        for src, dst in ((a, b), (b, a)):
            for frame in src.data_to_send():
                moved = True
                frames = hand(frame, src.role) if hand else [frame]
                for f in frames:
                    events[dst.role] += dst.receive(f, 0)
        if not moved:
            return


def test_the_same_code_gives_both_boards_one_key_and_a_connection():
    a, b, events = _pair()
    assert a.key == b.key and len(a.key) == 32
    assert any(isinstance(e, Paired) for e in events["host"]) and any(isinstance(e, Paired) for e in events["guest"])
    assert a.connected and b.connected
    assert sum(a.rejected.values()) == sum(b.rejected.values()) == 0


def test_a_wrong_code_fails_the_pairing_on_both_boards_and_nothing_is_sealed():
    a, b, events = _pair(CODE, PairingCode("41209338"))
    assert any(isinstance(e, PairingFailed) for e in events["host"])
    assert any(isinstance(e, PairingFailed) for e in events["guest"])
    assert not a.connected and not b.connected
    with pytest.raises(LinkError):
        a.send(b"e2e4")


def test_the_code_is_eight_digits_typed_with_spaces_or_dashes_and_its_nameplate_is_the_first_two():
    assert PairingCode.parse("41 209-337") == CODE
    assert CODE.nameplate == "41" and CODE.shown() == "41 209 337"
    assert "209" not in repr(CODE)
    for bad, words in (("4120933", "8 digits; 7 were typed"), ("41a09337", "digits only"), ("", "8 digits; 0")):
        with pytest.raises(LinkError, match=words):
            PairingCode.parse(bad)


def test_sealed_messages_arrive_in_order_and_hold_no_plaintext():
    a, b, events = _pair()
    seen = []
    for text in (b'{"move":"e2e4"}', b'{"move":"e7e5"}'):
        a.send(text)
        frames = a.data_to_send()
        seen += frames
        for f in frames:
            events["guest"] += b.receive(f, 0)
    got = [e.payload for e in events["guest"] if isinstance(e, Received)]
    assert got == [b'{"move":"e2e4"}', b'{"move":"e7e5"}']
    assert not any(b"e2e4" in f or b"move" in f for f in seen)


@pytest.mark.parametrize("fault, kind", [("flip", "bad-seal"), ("drop", "gap"), ("reorder", "gap"),
                                         ("replay", "repeat")])
def test_a_hand_on_the_wire_is_detected_nothing_of_it_accepted_and_the_link_recovers(fault, kind):
    """The message sealed after the tampered one shows the fault; the epoch closes, a new one
    starts, and what was refused is the only thing missing (the game above resends it)."""
    a, b, events = _pair()
    sent = []
    for i in range(3):
        a.send(f"m{i}".encode())
        sent += a.data_to_send()
    if fault == "flip":
        f = bytearray(sent[1])
        f[-5] ^= 0x04
        wire = [sent[0], bytes(f), sent[2]]
    elif fault == "drop":
        wire = [sent[0], sent[2]]
    elif fault == "reorder":
        wire = [sent[0], sent[2], sent[1]]
    else:
        wire = [sent[0], sent[1], sent[0], sent[2]]
    events["guest"] = []
    for f in wire:
        events["guest"] += b.receive(f, 0)
    got = [e.payload for e in events["guest"] if isinstance(e, Received)]
    assert got == ([b"m0", b"m1"] if fault == "replay" else [b"m0"])  # only what came untouched, in order
    assert b.rejected[kind] == 1
    assert any(isinstance(e, Interrupted) for e in events["guest"])
    _run(a, b, events)  # the new epoch's hellos
    assert a.connected and b.connected and a.epoch == 1 and b.epoch == 2
    a.send(b"after")
    for f in a.data_to_send():
        events["guest"] += b.receive(f, 0)
    assert events["guest"][-1] == Received(b"after")


def test_frames_of_an_earlier_epoch_and_an_old_hello_are_refused():
    a, b, events = _pair()
    a.send(b"old")
    old = a.data_to_send()
    old_hello = a._hello()
    a.start(0)  # a reconnection: a new epoch
    _run(a, b, events)
    events["guest"] = []
    for f in old:
        events["guest"] += b.receive(f, 0)
    assert b.rejected["stale"] == 1 and not any(isinstance(e, Received) for e in events["guest"])
    assert any(isinstance(e, Rejected) and e.kind == "old-hello" for e in b.receive(old_hello, 0))


def test_a_third_party_without_the_code_cannot_speak_on_the_link():
    a, b, events = _pair()
    mallory = Channel("host", entropy_of("m"), key=bytes(32))  # knows the topic, not the key
    mallory.start(0)
    forged = mallory.data_to_send()
    mallory._peer_nonce, mallory._peer_seen_mine = b"x" * 16, True
    mallory.epoch, mallory.peer_epoch = b.peer_epoch, b.epoch  # the epochs travel in clear
    mallory._rekey()
    mallory.send(b'{"t":"entry"}')
    forged += mallory.data_to_send() + [b"S", b"Sa" + b"\0" * 40, b"garbage" * 10]
    got = []
    for f in forged:
        got += b.receive(f, 0)
    assert not any(isinstance(e, (Received, Connected)) for e in got)
    assert b.rejected["bad-hello"] == 1 and b.rejected["bad-seal"] == 1
    assert sum(b.rejected.values()) == len(forged)
    _run(a, b, events)
    assert a.connected and b.connected  # the real link goes on (after a new handshake: a stranger can
    a.send(b"still here")               # make the boards shake hands again, never speak on the link)
    assert Received(b"still here") in b.receive(a.data_to_send()[0], 0)
