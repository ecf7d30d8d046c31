"""A board's HTTP server: what it serves, and that nothing on the network can change or read
anything else (unknown paths, traversal attempts, wrong methods, oversized or malformed
requests are answered with errors and change nothing)."""

import json

import pytest

from companion.broadcast.board_server import BoardServer
from companion.broadcast.snapshot import take_snapshot
from tests.broadcast_helpers import chess_session, get, raw


class Clock:
    def __init__(self):
        self.t = 1_000

    def __call__(self):
        return self.t


@pytest.fixture
def board():
    clock = Clock()
    session = chess_session("e2e4", "e7e5")
    server = BoardServer("test board", "127.0.0.1", 0, clock_ms=clock)
    server.start()
    server.publish(take_snapshot(session, 1, clock.t, server.name))
    server.session = session
    yield server
    server.stop()


def test_the_game_is_served_as_pgn_json_svg_and_a_page(board):
    status, headers, body = get(board.port, "/game.pgn")
    assert status == 200 and headers["Content-Type"].startswith("application/x-chess-pgn")
    assert b"1. e4 e5 *" in body and b'[White "White"]' in body
    status, _, body = get(board.port, "/game.json")
    data = json.loads(body)
    assert status == 200 and data["state"] == "playing" and [m["move"] for m in data["moves"]] == ["e4", "e5"]
    assert data["players"] == ["White", "Black"] and data["board_picture"]["width"] == 8
    status, headers, body = get(board.port, "/board.svg")
    assert status == 200 and headers["Content-Type"].startswith("image/svg+xml") and body.count(b'class="piece"') == 32
    status, headers, body = get(board.port, "/")
    assert status == 200 and b"/board.js" in body and "script-src 'self'" in headers["Content-Security-Policy"]
    assert headers["X-Content-Type-Options"] == "nosniff"
    for path in ("/board.js", "/common.js", "/style.css", "/texts.js", "/live.json"):
        assert get(board.port, path)[0] == 200


def test_a_poller_that_has_the_game_gets_304_until_it_changes(board):
    _, headers, _ = get(board.port, "/game.pgn")
    etag = headers["ETag"]
    assert get(board.port, "/game.pgn", headers={"If-None-Match": etag})[0] == 304
    board.session.play("g1f3")
    board.publish(take_snapshot(board.session, 2, 2_000, board.name))
    status, headers, body = get(board.port, "/game.pgn", headers={"If-None-Match": etag})
    assert status == 200 and b"2. Nf3" in body and headers["ETag"] != etag


def test_a_board_without_a_game_says_so():
    server = BoardServer("idle", "127.0.0.1", 0)
    server.start()
    try:
        assert get(server.port, "/game.pgn")[0] == 404
        assert json.loads(get(server.port, "/game.json")[2]) == {"format": 1, "name": "idle", "version": 0,
                                                                 "state": "idle"}
    finally:
        server.stop()


@pytest.mark.parametrize("path", [
    "/nothing", "/game.pgn/extra", "/../../../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/pages/board.html",
    "/board.html", "/..%2f..%2fetc%2fpasswd", "//etc/passwd", "/static/../../pyproject.toml", "/game.pgn%00.txt",
])
def test_unknown_paths_and_traversal_attempts_read_no_file(board, path):
    status, _, body = get(board.port, path)
    assert status in (400, 404)
    assert b"root:" not in body and b"[project]" not in body and b"<html" not in body.lower()


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "PATCH", "OPTIONS"])
@pytest.mark.parametrize("path", ["/game.pgn", "/game.json", "/", "/events"])
def test_nothing_can_be_sent_to_the_board(board, method, path):
    before = board.current
    moves = list(board.session.moves)
    status, _, _ = get(board.port, path, method=method, body=b'{"type": "move", "move": "g1f3"}',
                       headers={"Content-Type": "application/json"})
    assert status == 405
    assert board.current is before and board.session.moves == moves


@pytest.mark.parametrize("request_bytes, statuses", [
    (b"GET /game.pgn HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 100_000 + b"\r\n\r\n", (400, 431)),
    (b"GET /" + b"a" * 100_000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", (400, 414)),
    (b"GET /game.pgn HTTP/1.1\r\n" + b"".join(b"X-H%d: v\r\n" % i for i in range(500)) + b"\r\n", (400, 431)),
    (b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + bytes(200), (400,)),  # TLS spoken to HTTP
    (b"GET /game.pgn HTTP/9.9\r\n\r\n", (400, 505)),
    (b"GARBAGE\r\n\r\n", (400,)),
    (b"GET /game.pgn HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n", (400,)),
    (b"POST /game.json HTTP/1.1\r\nHost: x\r\nContent-Length: 100000000\r\n\r\n" + b"x" * 1000, (405, 413)),
])
def test_oversized_or_malformed_requests_get_an_error_and_change_nothing(board, request_bytes, statuses):
    before = board.current
    answer = raw(board.port, request_bytes)
    status = int(answer.split(b" ", 2)[1]) if answer.startswith(b"HTTP/1.") else None
    assert status in statuses, answer[:200]
    assert board.current is before
    assert get(board.port, "/game.pgn")[0] == 200  # and the board serves on


def test_the_event_stream_sends_the_game_at_once_and_after_every_change(board):
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", board.port, timeout=10)
    conn.request("GET", "/events")
    r = conn.getresponse()
    assert r.status == 200 and r.getheader("Content-Type") == "text/event-stream"

    def next_event():
        lines = []
        while True:
            line = r.readline().decode().rstrip("\n")
            if line == "" and lines:
                return lines
            if line and not line.startswith(":"):
                lines.append(line)

    first = next_event()
    assert first[0] == "event: game" and json.loads(first[1][6:])["moves"][-1]["move"] == "e5"
    board.session.play("g1f3")
    board.publish(take_snapshot(board.session, 2, 2_000, board.name))
    second = json.loads(next_event()[1][6:])
    assert second["moves"][-1]["move"] == "Nf3" and "1. e4 e5 2. Nf3" in second["pgn"] and "<svg" in second["svg"]
    conn.close()


def test_watchers_beyond_the_limit_are_turned_away():
    import http.client

    server = BoardServer("busy", "127.0.0.1", 0, max_watchers=2)
    server.start()
    conns = []
    try:
        for _ in range(2):
            c = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
            c.request("GET", "/events")
            assert c.getresponse().status == 200
            conns.append(c)
        assert get(server.port, "/events")[0] == 503
        assert get(server.port, "/game.json")[0] == 200
    finally:
        for c in conns:
            c.close()
        server.stop()


def test_a_port_in_use_is_one_clear_error():
    from companion.errors import BroadcastError

    first = BoardServer("one", "127.0.0.1", 0)
    port = first.start()
    try:
        with pytest.raises(BroadcastError, match=f"127.0.0.1:{port}"):
            BoardServer("two", "127.0.0.1", port).start()
    finally:
        first.stop()
