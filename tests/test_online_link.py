"""The link to lichess against the fake lichess on loopback (tests/fake_lichess.py): the real
HTTP, the real streams, and every misbehaviour the issue names: streams cut mid-line, 429,
5xx, slow answers, a refused move, a move played but never answered."""

from __future__ import annotations

import asyncio
import logging
import os
import socket

import pytest

from companion.cli import main
from companion.online import api
from companion.online.client import LichessClient
from companion.online.game import (GameEnded, GameLoaded, MoveConfirmed, MovePlayed, MoveRefused, MovesUndone,
                                   OffersChanged)
from companion.online.lobby import ChallengeAnswered, ChallengesChanged, GameBegan
from companion.online.play import ConnectionChanged
from companion.online.token import Token, save_token
from companion.online.transport import LineRefused, StreamLost

from fake_lichess import FakeLichess
from online_driver import Board, clock_ms

BOARD = "lip_board0001"
CASTER = "lip_caster001"


@pytest.fixture
def fake():
    with FakeLichess(keepalive_s=0.3) as f:
        f.add_token(BOARD, "bobby", "board:play")
        f.add_token(CASTER, "carla", "board:play,study:write")
        f.add_user("maia", "Maia", 1620)
        f.add_user("kenneth", "Kenneth", 1700)
        yield f


def move_posts(fake: FakeLichess, uci: str) -> int:
    return sum(1 for m, path, _ in fake.requests if m == "POST" and path.endswith(f"/move/{uci}"))


# ----- companion lichess check ------------------------------------------------------------------------------
def token_file(tmp_path, text: str, name: str = "t.token"):
    p = tmp_path / name
    save_token(p, Token(text))
    return str(p)


def test_check_says_who_and_the_scopes(fake, tmp_path, capsys):
    assert main(["lichess", "check", "--server", fake.url, "--token-file", token_file(tmp_path, CASTER)]) == 0
    assert capsys.readouterr().out == "connected as Carla (scopes: board:play, study:write)\n"


def test_check_reads_the_server_from_the_environment(fake, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("COMPANION_LICHESS_URL", fake.url)
    assert main(["lichess", "check", "--token-file", token_file(tmp_path, BOARD)]) == 0
    assert capsys.readouterr().out == "connected as Bobby (scopes: board:play)\n"


@pytest.mark.parametrize("case, words", [
    ("revoked", "the token was revoked or is not valid"),
    ("no file", "no such token file"),
    ("others", "other users can read this token file"),
    ("unreadable", "cannot read the token file"),
    ("not a token", "is not a lichess token"),
])
def test_check_says_what_is_wrong_in_one_line(fake, tmp_path, capsys, monkeypatch, case, words):
    path = token_file(tmp_path, "lip_revoked01")
    if case == "no file":
        os.unlink(path)
    elif case == "others":
        os.chmod(path, 0o640)
    elif case == "unreadable":  # as the app's user without the right to read it (root reads every file)
        def refuse(*args, **kwargs):
            raise PermissionError(13, "Permission denied")
        monkeypatch.setattr("companion.online.token.open", refuse, raising=False)
    elif case == "not a token":
        with open(path, "w") as f:
            f.write("hello world\n")
    assert main(["lichess", "check", "--server", fake.url, "--token-file", path]) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1 and "lip_revoked01" not in err


def test_check_without_network(tmp_path, capsys):
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()  # nobody listens there
    assert main(["lichess", "check", "--server", f"http://127.0.0.1:{port}", "--token-file",
                 token_file(tmp_path, BOARD)]) == 2
    assert "no network: lichess cannot be reached" in capsys.readouterr().err


# ----- the client ------------------------------------------------------------------------------------------
def test_a_429_holds_every_request_for_the_wait(fake):
    fake.fault("account", 429)

    async def go():
        async with LichessClient(fake.url, Token(BOARD), clock_ms, rate_limit_ms=60_000) as c:
            first = await c.call(api.account())
            second = await c.call(api.account())
            return first, second

    first, second = asyncio.run(go())
    assert first.status == 429 and second.status == 429 and second.retry_at_ms == first.retry_at_ms
    assert sum(1 for _, path, _ in fake.requests if path == "/api/account") == 1  # the second was never sent


def test_lichess_words_on_a_refusal(fake):
    async def go():
        async with LichessClient(fake.url, Token(BOARD), clock_ms) as c:
            return await c.call(api.challenge("nobody", limit_s=600, increment_s=5))

    answer = asyncio.run(go())
    assert answer.status == 400 and answer.error == "No such user: nobody"


# ----- a game over the link ---------------------------------------------------------------------------------
def test_seek_play_both_ways_and_the_end(fake):
    fake.auto_pair = ("maia", 0.2)
    with Board(fake.url) as b:
        b.pump(lambda: b.play.connection().is_connected, what="the event stream")
        b.do(b.play.seek(10, 5))
        b.pump(lambda: b.saw(GameLoaded), what="the game")
        gid = b.play.game.game_id
        assert b.play.game.color == "white" and b.play.game.opponent.name == "Maia"
        b.move("e2e4")
        b.pump(lambda: b.saw(MoveConfirmed, uci="e2e4"))
        fake.opponent_move(gid, "e7e5")
        b.pump(lambda: b.saw(MovePlayed, uci="e7e5", by_opponent=True))
        fake.chat(gid, "maia", "good luck")
        fake.offer_draw(gid, "maia")
        b.pump(lambda: b.saw(OffersChanged, draw_by="black"))
        b.do(b.play.game.answer_draw(False))
        b.pump(lambda: b.saw(OffersChanged, draw_by=""))
        b.do(b.play.game.resign())
        b.pump(lambda: b.saw(GameEnded))
        assert b.saw(GameEnded, status="resign", winner="black") and b.play.game.chat[-1].text == "good luck"
        assert move_posts(fake, "e2e4") == 1


def test_a_takeback_both_ways(fake):
    gid = fake.create_game("bobby", "maia")
    with Board(fake.url) as b:
        b.pump(lambda: b.saw(GameLoaded))
        for mine, theirs in (("e2e4", "e7e5"), ("g1f3", "b8c6")):
            b.move(mine)
            b.pump(lambda: b.saw(MoveConfirmed, uci=mine))
            fake.opponent_move(gid, theirs)
            b.pump(lambda: b.saw(MovePlayed, uci=theirs))
        fake.propose_takeback(gid, "maia")  # Maia takes back b8c6
        b.pump(lambda: b.saw(OffersChanged, takeback_by="black"))
        b.do(b.play.game.answer_takeback(True))
        b.pump(lambda: b.saw(MovesUndone, count=1))
        assert b.play.game.moves == ("e2e4", "e7e5", "g1f3")
        b.do(b.play.game.propose_takeback())  # we take back g1f3: Maia accepts
        b.pump(lambda: b.saw(OffersChanged, takeback_by="white"))
        fake.answer_takeback(gid, "maia", True)
        b.pump(lambda: b.play.game.moves == ("e2e4", "e7e5"))
        assert b.count(MovesUndone) == 2


def test_a_stream_cut_mid_line_is_read_again_from_its_start(fake):
    gid = fake.create_game("bobby", "maia")
    with Board(fake.url) as b:
        b.pump(lambda: b.saw(GameLoaded))
        b.move("d2d4")
        b.pump(lambda: b.saw(MoveConfirmed, uci="d2d4"))
        fake.cut_streams("game", mid_line=True)
        b.pump(lambda: any(isinstance(x, StreamLost) and x.stream == gid for x in b.raw), what="the cut")
        assert not b.play.connection().is_connected
        assert not [x for x in b.raw if isinstance(x, LineRefused)]  # the half line was never read
        fake.opponent_move(gid, "d7d5")  # while the board is away
        b.pump(lambda: b.saw(MovePlayed, uci="d7d5"), what="the move made while away")
        assert b.play.connection().is_connected and b.count(GameLoaded) == 1
        assert b.count(MovePlayed) == 1 and b.count(MoveConfirmed) == 1  # nothing played twice on the board
        assert b.play.game.moves == ("d2d4", "d7d5")


def test_a_move_played_but_never_answered_is_not_sent_twice(fake):
    gid = fake.create_game("bobby", "maia")
    with Board(fake.url) as b:
        b.pump(lambda: b.saw(GameLoaded))
        fake.fault("move", apply_then_drop=True)
        b.move("e2e4")
        b.pump(lambda: b.saw(MoveConfirmed, uci="e2e4"), what="the move confirmed from a fresh gameFull")
        assert move_posts(fake, "e2e4") == 1 and b.play.game.moves == ("e2e4",)


def test_a_move_lost_on_a_5xx_is_sent_again_once(fake):
    gid = fake.create_game("bobby", "maia")
    with Board(fake.url) as b:
        b.pump(lambda: b.saw(GameLoaded))
        fake.fault("move", 503)
        b.move("c2c4")
        b.pump(lambda: b.saw(MoveConfirmed, uci="c2c4"))
        assert move_posts(fake, "c2c4") == 2 and fake.games[gid].moves == ["c2c4"]


def test_a_refused_move_comes_back_with_lichess_words(fake):
    fake.create_game("bobby", "maia")
    with Board(fake.url) as b:
        b.pump(lambda: b.saw(GameLoaded))
        fake.fault("move", 400, error="Piece on e2 cannot move to e5")
        b.move("e2e4")
        b.pump(lambda: b.saw(MoveRefused))
        assert b.saw(MoveRefused, uci="e2e4", reason="Piece on e2 cannot move to e5") and b.saw(MovesUndone, count=1)
        assert b.play.game.is_my_turn


def test_slow_answers_and_a_5xx_on_the_stream(fake):
    fake.fault("events", 503)
    gid = fake.create_game("bobby", "maia")
    with Board(fake.url) as b:
        b.pump(lambda: b.saw(GameLoaded), what="the game after the 503")
        assert any(isinstance(x, StreamLost) and x.status == 503 and x.retry_at_ms for x in b.raw)
        fake.fault("move", delay_s=0.6)
        b.move("e2e4")
        b.pump(lambda: b.saw(MoveConfirmed, uci="e2e4"))
        assert move_posts(fake, "e2e4") == 1


def test_a_429_on_a_move_waits_and_sends_it_once(fake):
    gid = fake.create_game("bobby", "maia")
    with Board(fake.url, rate_limit_ms=500) as b:
        b.pump(lambda: b.saw(GameLoaded))
        fake.fault("move", 429)
        b.move("e2e4")
        b.pump(lambda: b.saw(MoveConfirmed, uci="e2e4"))
        assert move_posts(fake, "e2e4") == 2  # the first was refused unplayed (429), the second played
        held = [x for x in b.seen if isinstance(x, ConnectionChanged) and x.connection.held_until_ms]
        assert held, "the screen was told that lichess asked to wait"


def test_challenges_in_and_out(fake):
    with Board(fake.url) as b:
        b.pump(lambda: b.play.connection().is_connected)
        cid = fake.challenge_from("kenneth", "bobby", limit_s=900, increment_s=10)
        b.pump(lambda: b.saw(ChallengesChanged) and b.play.lobby.incoming)
        assert b.play.lobby.incoming[cid].challenger.name == "Kenneth"
        b.do(b.play.accept(cid))
        b.pump(lambda: b.saw(GameLoaded))
        assert b.play.game.game_id == cid and b.play.game.color == "black"
        b.do(b.play.challenge("maia", limit_s=600, increment_s=0))
        b.pump(lambda: b.play.lobby.outgoing)
        [out] = b.play.lobby.outgoing
        fake.answer_challenge(out, accept=False)
        b.pump(lambda: b.saw(ChallengeAnswered))
        assert b.saw(ChallengeAnswered, declined=True, reason="I'm not accepting challenges at the moment.")


def test_the_token_never_reaches_a_log_or_an_event(fake, caplog):
    caplog.set_level(logging.DEBUG)
    gid = fake.create_game("bobby", "maia")
    fake.fault("move", 400, error="nope")
    with Board(fake.url) as b:
        b.pump(lambda: b.saw(GameLoaded))
        b.move("e2e4")
        b.pump(lambda: b.saw(MoveRefused))
        fake.cut_streams("game")
        b.pump(lambda: b.count(GameLoaded) == 1 and any(isinstance(x, StreamLost) for x in b.raw))
        text = caplog.text + repr(b.raw) + repr(b.seen) + repr(b.link.__dict__) + repr(b.play.__dict__)
    assert BOARD not in text
