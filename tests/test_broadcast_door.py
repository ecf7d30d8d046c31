"""The servers' door (companion.broadcast.listener): at most so many connections within the
open-file limit, an idle one gives its place to a spectator, one address gets its share, a
request head must come within seconds, and the libraries' logs cannot flood."""

from __future__ import annotations

import logging
import select
import socket
import time

import pytest

from companion.broadcast import listener, web
from companion.broadcast.board_server import BoardServer
from companion.broadcast.listener import MIN_CAP, RateLimit, connection_cap
from companion.broadcast.snapshot import take_snapshot
from tests.broadcast_helpers import chess_session, get


def test_the_cap_keeps_the_reserve_free_under_the_open_file_limit():
    assert connection_cap(256, 256, limit=1024, in_use=40) == 256  # the Pi's default: room to spare
    assert connection_cap(256, 256, limit=512, in_use=40) == 216  # 512 - 40 - 256
    assert connection_cap(256, 256, limit=300, in_use=40) == MIN_CAP  # never none at all
    assert 0 < connection_cap(256) <= 256  # this process, as it is


def test_the_log_lets_a_few_of_each_kind_through_and_counts_the_rest():
    now = [0.0]
    limit = RateLimit(burst=3, window=60, clock=lambda: now[0])

    def record(msg):
        return logging.LogRecord("asyncio", logging.ERROR, __file__, 1, msg, None, None)

    passed = [limit.filter(record("socket.accept() out of system resource")) for _ in range(1000)]
    assert passed.count(True) == 3
    assert limit.filter(record("another kind"))  # each kind has its own share
    now[0] = 61.0
    later = record("socket.accept() out of system resource")
    assert limit.filter(later) and "997 more like this were left out" in later.getMessage()


def _serve(**kw) -> BoardServer:
    server = BoardServer("door test", "127.0.0.1", 0)
    for key, value in kw.items():
        setattr(server.thread, key, value)
    server.start()
    server.publish(take_snapshot(chess_session("e2e4"), 1, 0, server.name))
    return server


def _idle(port: int, source: str = "127.0.2.1") -> socket.socket:
    s = socket.socket()
    s.bind((source, 0))
    s.connect(("127.0.0.1", port))
    return s


def _closed(s: socket.socket, seconds: float = 5.0) -> bool:
    s.settimeout(seconds)
    try:
        return s.recv(100) == b""
    except TimeoutError:
        return False
    except OSError:
        return True


def test_a_full_door_lets_a_spectator_in_in_place_of_an_idle_connection():
    server = _serve(most=MIN_CAP)
    door = server.thread.door
    flood = [_idle(server.port, f"127.0.2.{n + 1}") for n in range(MIN_CAP)]
    try:
        deadline = time.monotonic() + 60  # a long bound on the event (a busy machine accepts slowly)
        while len(door.open) < MIN_CAP and time.monotonic() < deadline:
            time.sleep(0.01)
        assert len(door.open) == MIN_CAP == door.cap
        start = door.clock()
        door.clock = lambda: start + listener.EVICT_AFTER_S  # the idle ones are old enough now
        status, _, body = get(server.port, "/game.json")
        assert status == 200 and b'"e4"' in body
        readable, _, _ = select.select(flood, [], [], 5.0)  # the one closed to make room
        assert door.evicted >= 1 and readable and all(_closed(s, 1.0) for s in readable)
        assert len(door.open) <= MIN_CAP
    finally:
        for s in flood:
            s.close()
        server.stop()


def test_one_address_gets_its_share_and_no_more():
    server = _serve()
    door = server.thread.door
    mine = [_idle(server.port, "127.0.3.1") for _ in range(listener.PER_PEER + 4)]
    try:
        assert sum(_closed(s, 2.0) for s in mine[listener.PER_PEER:]) == 4
        assert door.turned_away == 4 and door.peers["127.0.3.1"] == listener.PER_PEER
        assert get(server.port, "/game.json")[0] == 200  # another address is served
    finally:
        for s in mine:
            s.close()
        server.stop()


@pytest.mark.parametrize("send", [b"", b"GET /game.json HTTP/1.1\r\nHost: board\r\n"])
def test_a_request_head_that_never_finishes_is_closed(monkeypatch, send):
    monkeypatch.setitem(web.LIMITS, "keepalive_timeout", 0.5)  # the board's is 10 s
    server = _serve()
    try:
        s = _idle(server.port)
        s.sendall(send)
        start = time.monotonic()
        # closed by the 0.5 s timeout (well before the board's own 10 s), however busy the machine
        assert _closed(s, 30.0) and time.monotonic() - start < 9.0
        s.close()
        assert get(server.port, "/game.json")[0] == 200
    finally:
        server.stop()


def test_no_file_left_to_accept_is_one_log_line_a_minute(caplog):
    """What asyncio logged 204,000 times a minute: accept() failing for want of files."""
    import asyncio
    import errno

    class Full:
        def accept(self):
            raise OSError(errno.EMFILE, "Too many open files")

    loop = asyncio.new_event_loop()
    now = [0.0]
    door = listener.Door(loop, lambda: None, [], cap=8, name="board broadcast", clock=lambda: now[0])
    try:
        with caplog.at_level(logging.INFO):
            for i in range(10_000):
                now[0] = i * 0.01  # 100 s
                door._accept(Full())
        lines = [r for r in caplog.records if "no open file left" in r.getMessage()]
        assert door.out_of_files == 10_000 and len(lines) == 2  # at 0 s and at 60 s
        assert "stops taking them for a second" in lines[0].getMessage()
    finally:
        door.close()
        loop.close()
