"""``companion hall --lichess-round ID``: the round pushed to a lichess broadcast round as boards
change, against the fake lichess (its push endpoint, python-chess reading what was pushed)."""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import logging
import time

import chess.pgn
import pytest

from companion.broadcast.cli import lichess_round, run
from companion.broadcast.fleet import FleetBoard
from companion.broadcast.hall import HallServer, LichessRound
from companion.broadcast.lichess_push import LichessPusher
from companion.errors import BroadcastError, OnlineError
from companion.online.token import Token, save_token

from fake_lichess import FakeLichess
from tests.broadcast_helpers import get

CASTER = "lip_caster001"
PLAYER = "lip_player001"


@pytest.fixture
def fake():
    with FakeLichess(keepalive_s=0.3) as f:
        f.add_token(CASTER, "carla", "board:play,study:write")
        f.add_token(PLAYER, "bobby", "board:play")
        yield f


def pushed_moves(fake) -> list[list[str]]:
    """The moves of each game in the last push, as lichess's PGN reader (python-chess here) reads them."""
    f, out = io.StringIO(fake.pushes[-1][2]), []
    while (g := chess.pgn.read_game(f)) is not None:
        out.append([m.uci() for m in g.mainline_moves()])
    return out


def wait_for(predicate, timeout=15.0, what=""):
    end = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < end, f"timed out: {what}"
        time.sleep(0.05)


def test_the_round_reaches_lichess_as_boards_change(fake, tmp_path, caplog):
    caplog.set_level(logging.DEBUG)
    boards = [FleetBoard(n, tmp_path / f"board-{n}", heartbeat=0.5) for n in (1, 2)]
    said: list[str] = []
    hall = None
    try:
        urls = [f"127.0.0.1:{b.start()}" for b in boards]
        hall = HallServer("127.0.0.1", 0, boards=urls, lichess=LichessRound("AbCd1234", fake.url, Token(CASTER)),
                          say=said.append)
        hall.start()
        wait_for(lambda: fake.pushes and fake.pushes[-1][2].count("[Event ") == 2, what="the first push")
        boards[0].move("e2e4")
        boards[1].move("d2d4")
        boards[0].move("e7e5")
        wait_for(lambda: pushed_moves(fake) == [["e2e4", "e7e5"], ["d2d4"]], what="the moves")
        times = [t for t, _, _ in fake.pushes]
        assert all(b - a >= 1900 for a, b in zip(times, times[1:])), "pushes at least 2 s apart"
        assert {r for _, r, _ in fake.pushes} == {"AbCd1234"}
        assert said[0] == "lichess round AbCd1234: pushed (2 games)"
        status = json.loads(get(hall.port, "/hall.json")[2])["lichess"]
        assert status["round"] == "AbCd1234" and status["pushes"] >= 2 and status["problem"] == ""
        served = b"".join(get(hall.port, p)[2] for p in ("/", "/round.pgn", "/hall.json", "/results", "/results.csv",
                                                         "/hall.js"))
        assert CASTER.encode() not in served
    finally:
        if hall is not None:
            hall.stop()
        for b in boards:
            b.stop()
    assert CASTER not in caplog.text and CASTER not in " ".join(said)


def test_a_refused_round_is_said_once_and_not_pushed_again(fake, tmp_path):
    fake.fault("push", 400, times=100, error="Cannot parse moves")
    board = FleetBoard(1, tmp_path / "board-1", heartbeat=0.5)
    said: list[str] = []
    hall = None
    try:
        url = f"127.0.0.1:{board.start()}"
        hall = HallServer("127.0.0.1", 0, boards=[url], lichess=LichessRound("AbCd1234", fake.url, Token(CASTER)),
                          say=said.append)
        hall.start()
        wait_for(lambda: said, what="the refusal said")
        assert said == ["lichess round AbCd1234: lichess refused the round (400): Cannot parse moves"]
        assert len([r for r in fake.requests if "/push" in r[1]]) == 1
        assert hall.pusher.schedule.due(10 ** 12) is None  # the same round is never pushed again, however late
    finally:
        if hall is not None:
            hall.stop()
        board.stop()


def test_a_token_without_study_write_is_said(fake, tmp_path):
    board = FleetBoard(1, tmp_path / "board-1", heartbeat=0.5)
    said: list[str] = []
    hall = None
    try:
        hall = HallServer("127.0.0.1", 0, boards=[f"127.0.0.1:{board.start()}"],
                          lichess=LichessRound("AbCd1234", fake.url, Token(PLAYER)), say=said.append)
        hall.start()
        wait_for(lambda: said, what="the refusal")
        assert said == ["lichess round AbCd1234: lichess refused the round (403): Missing scope: study:write"]
    finally:
        if hall is not None:
            hall.stop()
        board.stop()


def test_a_429_waits_a_full_minute_before_the_next_push(fake):
    """The pusher stepped by hand with a clock the test holds: a 429, then nothing for 60 s."""
    now = [1_000_000]
    pgn = ['[Event "Club"]\n[White "A"]\n[Black "B"]\n[Result "*"]\n\n1. e4 *\n']
    version = [1]
    fake.fault("push", 429)

    async def go():
        p = LichessPusher(lambda: pgn[0], lambda: version[0], "AbCd1234", fake.url, Token(CASTER), lambda: now[0])
        await p.start()
        p._task.cancel()  # stepped by hand below
        await p.push_once()
        assert p.schedule.problem == "lichess asked to wait a minute (429)"
        pgn[0] = pgn[0].replace("1. e4 *", "1. e4 e5 *")
        version[0] += 1
        for t in (2_000, 30_000, 59_999):
            now[0] = 1_000_000 + t
            await p.push_once()
        pushed_in_the_minute = len(fake.pushes)
        now[0] = 1_000_000 + 60_000
        await p.push_once()
        await p._client.close()
        p._client = None
        return pushed_in_the_minute

    assert asyncio.run(go()) == 0 and len(fake.pushes) == 1 and pushed_moves(fake) == [["e2e4", "e7e5"]]


def test_the_hall_command_line_refuses_what_it_cannot_use(tmp_path):
    good = tmp_path / "t.token"
    save_token(good, Token(CASTER))

    def args(**kw):
        base = dict(lichess_round=None, lichess_token_file=None, lichess_server=None)
        base.update(kw)
        return argparse.Namespace(**base)

    assert lichess_round(args()) is None
    with pytest.raises(BroadcastError, match="needs --lichess-token-file"):
        lichess_round(args(lichess_round="AbCd1234"))
    with pytest.raises(BroadcastError, match="go with --lichess-round"):
        lichess_round(args(lichess_token_file=str(good)))
    with pytest.raises(OnlineError, match="8 letters and digits"):
        lichess_round(args(lichess_round="round one", lichess_token_file=str(good)))
    good.chmod(0o644)
    with pytest.raises(OnlineError, match="other users can read"):
        lichess_round(args(lichess_round="AbCd1234", lichess_token_file=str(good)))
    good.chmod(0o600)
    r = lichess_round(args(lichess_round="https://lichess.org/broadcast/club-open/round-2/AbCd1234",
                           lichess_token_file=str(good), lichess_server="http://127.0.0.1:9"))
    assert (r.round_id, r.server) == ("AbCd1234", "http://127.0.0.1:9") and CASTER not in repr(r)


def test_hall_command_says_where_it_pushes(fake, tmp_path):
    token = tmp_path / "t.token"
    save_token(token, Token(CASTER))
    board = FleetBoard(1, tmp_path / "board-1", heartbeat=0.5)
    lines: list[str] = []
    try:
        port = board.start()
        ns = argparse.Namespace(listen="127.0.0.1:0", board=[f"127.0.0.1:{port}"], boards=None, pairings=None,
                                no_discovery=False, interface=None, out=None, lichess_round="AbCd1234",
                                lichess_token_file=str(token), lichess_server=fake.url)
        assert run(ns, out=lines.append, wait=lambda: wait_for(lambda: fake.pushes, what="a push")) == 0
    finally:
        board.stop()
    assert f"pushing the round to lichess broadcast round AbCd1234 on {fake.url} as boards change" in lines
    assert CASTER not in "\n".join(lines)
