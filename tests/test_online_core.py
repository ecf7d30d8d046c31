"""The pure core of lichess play (companion.online): ndjson, the lines as values, the game's and
the lobby's state machines, requests, backoff, the broadcast push schedule, PKCE, the token."""

from __future__ import annotations

import json
import os

import pytest

from companion.errors import OnlineError
from companion.online import api, backoff, connect, push
from companion.online.events import (ChallengeCanceled, ChallengeDeclined, ChallengeReceived, ChatLine, GameFinish,
                                     GameFull, GameStart, GameState, OpponentGone, Unknown, read_event_line,
                                     read_game_line)
from companion.online.game import (ActionRefused, ClocksChanged, GameEnded, GameLoaded, MoveConfirmed, MovePlayed,
                                   MoveRefused, MovesUndone, MoveWaiting, OffersChanged, OnlineGame, OpponentLeft,
                                   Reopen)
from companion.online.lobby import ChallengeAnswered, ChallengesChanged, GameBegan, Lobby
from companion.online.ndjson import KEEP_ALIVE, NdjsonReader
from companion.online.token import Token, read_token, remove_token, save_token

from lichess_lines import challenge, game_full, game_info, state


# ----- ndjson ------------------------------------------------------------------------------------------------
def stream_bytes() -> bytes:
    lines = [game_full(), {}, state("e2e4"), {}, {"type": "chatLine", "room": "player", "username": "Maia",
                                                 "text": "Good luck"}, state("e2e4 e7e5")]
    return b"".join((json.dumps(x).encode() if x else b"") + b"\n" for x in lines)


def test_ndjson_every_split_gives_the_same_lines():
    """Fed at every byte boundary (h11's way), the reader gives the same lines and keep-alives."""
    data = stream_bytes()
    whole = NdjsonReader("s").feed(data)
    assert [x if x is KEEP_ALIVE else x["type"] for x in whole] == \
        ["gameFull", KEEP_ALIVE, "gameState", KEEP_ALIVE, "chatLine", "gameState"]
    for cut in range(1, len(data)):
        r = NdjsonReader("s")
        assert r.feed(data[:cut]) + r.feed(data[cut:]) == whole
        assert r.pending == 0


def test_ndjson_one_byte_at_a_time():
    r = NdjsonReader("s")
    out = []
    for b in stream_bytes():
        out += r.feed(bytes([b]))
    assert len(out) == 6


def test_ndjson_a_cut_line_is_dropped_and_counted():
    data = stream_bytes()
    r = NdjsonReader("s")
    out = r.feed(data[:-10])
    assert out[-1]["type"] == "chatLine"
    assert r.close() == len(json.dumps(state("e2e4 e7e5"))) + 1 - 10
    assert r.close() == 0


@pytest.mark.parametrize("bad, words", [(b"[1,2]\n", "not a JSON object"), (b"{oops\n", "not valid JSON"),
                                        (b'{"a": ' + b"1" * 40 + b"}\n", "digits"),
                                        (b"[" * 40 + b"]" * 40 + b"\n", "nested")])
def test_ndjson_bad_lines_are_one_line_errors(bad, words):
    with pytest.raises(OnlineError, match=words):
        NdjsonReader("the game stream").feed(bad)


def test_ndjson_a_line_too_long_is_refused_without_waiting_for_its_end():
    r = NdjsonReader("s", max_line=100)
    with pytest.raises(OnlineError, match="at most 100"):
        r.feed(b"x" * 101)


# ----- lines as values -----------------------------------------------------------------------------------------
def test_game_full_as_the_schema_has_it():
    g = read_game_line(game_full(moves="e2e4 c7c5", wdraw=True))
    assert isinstance(g, GameFull)
    assert (g.id, g.variant, g.speed, g.white.id, g.black.name, g.clock_initial_ms, g.clock_increment_ms) == \
        ("Gm8pQz2x", "standard", "rapid", "bobby", "Maia", 600_000, 5_000)
    assert g.state.moves == ("e2e4", "c7c5") and g.state.draw_offered_by() == "white"
    corr = read_game_line(game_full(clock=None))
    assert corr.clock_initial_ms is None and corr.days_per_turn == 3


def test_game_stream_lines():
    assert read_game_line(state("", status="resign", winner="black")).winner == "black"
    assert read_game_line({"type": "chatLine", "room": "spectator", "username": "Zed", "text": "hi"}) == \
        ChatLine("spectator", "Zed", "hi")
    assert read_game_line({"type": "opponentGone", "gone": True, "claimWinInSeconds": 52}) == OpponentGone(True, 52)
    assert read_game_line({"type": "opponentGone", "gone": False}) == OpponentGone(False, None)
    assert read_game_line({"type": "somethingNew", "x": 1}) == Unknown("somethingNew")
    exp = read_game_line(state("", expiration={"idleMillis": 1000, "millisToMove": 30000}))
    assert exp.expiration.to_move_ms == 30000


@pytest.mark.parametrize("line, words", [
    ({"moves": ""}, "without a type"),
    ({"type": "gameFull", "id": "x"}, "no 'variant'"),
    ({**state(), "wtime": "lots"}, "'wtime' is 'lots', not a int"),
    ({**state(), "winner": "green"}, "not white or black"),
    ({**state(), "wtime": -5}, "negative"),
    ({"type": "chatLine", "room": "player", "text": "x"}, "no 'username'"),
])
def test_game_lines_missing_what_the_schema_requires(line, words):
    with pytest.raises(OnlineError, match=words):
        read_game_line(line)


def test_event_stream_lines():
    s = read_event_line({"type": "gameStart", "game": game_info(color="black")})
    assert isinstance(s, GameStart) and s.game.color == "black" and s.game.opponent.name == "Maia"
    f = read_event_line({"type": "gameFinish", "game": game_info(status="resign", winner="white")})
    assert isinstance(f, GameFinish) and f.game.winner == "white" and f.game.status == "resign"
    c = read_event_line({"type": "challenge", "challenge": challenge()})
    assert isinstance(c, ChallengeReceived) and c.challenge.time_control == "15+10" and c.challenge.direction == "in"
    both = [read_event_line({"type": t, "challenge": challenge()}) for t in ("challengeCanceled", "challengeCancelled")]
    assert all(isinstance(x, ChallengeCanceled) for x in both)
    d = read_event_line({"type": "challengeDeclined",
                         "challenge": challenge(status="declined", declineReason="Too fast for me.")})
    assert isinstance(d, ChallengeDeclined) and d.challenge.decline_reason == "Too fast for me."
    corr = read_event_line({"type": "challenge", "challenge": challenge(
        timeControl={"type": "correspondence", "daysPerTurn": 3})})
    assert corr.challenge.time_control == "3 days" and corr.challenge.days == 3
    not_board = read_event_line({"type": "gameStart", "game": game_info(compat={"bot": False, "board": False})})
    assert not not_board.game.board_compatible


# ----- the game --------------------------------------------------------------------------------------------------
def loaded(moves: str = "", me: str = "bobby", **extra) -> tuple[OnlineGame, list]:
    g = OnlineGame("Gm8pQz2x", me)
    g.stream_opened(0)
    return g, g.receive(read_game_line(game_full(moves=moves, **extra)), 1000)


def kinds(out) -> list[str]:
    return [type(x).__name__ for x in out]


def test_first_game_full_loads_the_game_and_its_moves():
    g, out = loaded("e2e4 e7e5")
    assert isinstance(out[0], GameLoaded) and out[0].color == "white"
    assert [(m.uci, m.by_opponent) for m in out if isinstance(m, MovePlayed)] == [("e2e4", False), ("e7e5", True)]
    assert g.is_my_turn
    g2, out2 = loaded("e2e4", me="maia")
    assert out2[0].color == "black" and g2.is_my_turn


def test_our_move_is_sent_and_confirmed_by_the_stream():
    g, _ = loaded()
    out = g.play("e2e4", 2000)
    assert out == [api.move("Gm8pQz2x", "e2e4")]
    assert g.answered(out[0], 200, "", 2100) == []
    out = g.receive(read_game_line(state("e2e4")), 2200)
    assert MoveConfirmed("e2e4", 0) in out and not [x for x in out if isinstance(x, (MovePlayed, MovesUndone))]
    out = g.receive(read_game_line(state("e2e4 e7e5")), 3000)
    assert [x for x in out if isinstance(x, MovePlayed)] == [MovePlayed("e7e5", 1, True)]
    assert g.is_my_turn


def test_a_state_without_our_move_in_flight_does_not_take_it_back():
    """The opponent's draw offer arrives before our move reaches lichess: the move stays."""
    g, _ = loaded("e2e4 e7e5")
    [req] = g.play("g1f3", 0)
    out = g.receive(read_game_line(state("e2e4 e7e5", bdraw=True)), 10)
    assert not [x for x in out if isinstance(x, (MovesUndone, MovePlayed))]
    assert OffersChanged("black", "") in out and g.pending.uci == "g1f3"


def test_a_move_made_offline_is_sent_when_a_fresh_state_shows_our_turn():
    g, _ = loaded("e2e4 e7e5")
    g.stream_lost(5000)
    assert g.play("g1f3", 5100) == [MoveWaiting("g1f3", "offline")]
    out = g.receive(read_game_line(game_full(moves="e2e4 e7e5")), 9000)
    assert api.move("Gm8pQz2x", "g1f3") in out


def test_a_move_without_answer_that_lichess_played_is_confirmed_never_sent_again():
    g, _ = loaded("e2e4 e7e5")
    [req] = g.play("g1f3", 0)
    out = g.answered(req, None, "no answer", 100)
    assert out == [MoveWaiting("g1f3", "checking"), Reopen("Gm8pQz2x")]
    g.stream_lost(100)
    out = g.receive(read_game_line(game_full(moves="e2e4 e7e5 g1f3")), 600)
    assert MoveConfirmed("g1f3", 2) in out and not [x for x in out if isinstance(x, api.Request)]
    assert g.pending is None


def test_a_move_without_answer_that_lichess_did_not_get_is_sent_once_more_only():
    g, _ = loaded("e2e4 e7e5")
    [req] = g.play("g1f3", 0)
    g.answered(req, 502, "bad gateway", 100)
    g.stream_lost(100)
    out = g.receive(read_game_line(game_full(moves="e2e4 e7e5")), 600)
    assert [x for x in out if isinstance(x, api.Request)] == [api.move("Gm8pQz2x", "g1f3")]
    # a second fresh look while the re-sent move is on its way sends nothing more
    g.stream_lost(700)
    out = g.receive(read_game_line(game_full(moves="e2e4 e7e5")), 800)
    assert not [x for x in out if isinstance(x, api.Request)]
    assert g.pending.attempts == 2


def test_a_resent_move_refused_is_checked_before_it_is_taken_back():
    g, _ = loaded("e2e4 e7e5")
    [req] = g.play("g1f3", 0)
    g.answered(req, None, "", 100)
    g.stream_lost(100)
    [req2] = [x for x in g.receive(read_game_line(game_full(moves="e2e4 e7e5")), 200) if isinstance(x, api.Request)]
    out = g.answered(req2, 400, "Not your turn, or game already over", 300)
    assert Reopen("Gm8pQz2x") in out
    g.stream_lost(300)
    out = g.receive(read_game_line(game_full(moves="e2e4 e7e5 g1f3")), 400)  # the first had landed after all
    assert MoveConfirmed("g1f3", 2) in out and MovesUndone(1) not in out
    # the same, when it had not: refused with lichess's words, taken back
    g, _ = loaded("e2e4 e7e5")
    [req] = g.play("g1f3", 0)
    g.answered(req, None, "", 100)
    g.stream_lost(100)
    [req2] = [x for x in g.receive(read_game_line(game_full(moves="e2e4 e7e5")), 200) if isinstance(x, api.Request)]
    g.answered(req2, 400, "Piece on g1 cannot move to f3", 300)
    g.stream_lost(300)
    out = g.receive(read_game_line(game_full(moves="e2e4 e7e5")), 400)
    assert out[:2] == [MovesUndone(1), MoveRefused("g1f3", "Piece on g1 cannot move to f3")]


def test_a_refused_move_is_taken_back_with_lichess_words():
    g, _ = loaded("e2e4 e7e5")
    [req] = g.play("e1e2", 0)
    out = g.answered(req, 400, "Not your turn, or game already over", 50)
    assert out == [MovesUndone(1), MoveRefused("e1e2", "Not your turn, or game already over")]
    assert g.pending is None and g.is_my_turn


def test_a_429_holds_the_move_a_minute_and_sends_it_if_nothing_changed():
    g, _ = loaded("e2e4 e7e5")
    [req] = g.play("g1f3", 0)
    out = g.answered(req, 429, "", 100, retry_at_ms=60_100)
    assert out == [MoveWaiting("g1f3", "rate-limited", 60_100)]
    assert g.tick(30_000) == []
    assert g.tick(60_100) == [api.move("Gm8pQz2x", "g1f3")]


def test_a_move_refused_401_is_held_not_taken_back_and_sent_on_the_next_fresh_state():
    """A revoked token: lichess did not play the move (401), so the board keeps it and sends it
    when a new token's game stream shows our turn unchanged."""
    g, _ = loaded("e2e4 e7e5")
    [req] = g.play("g1f3", 0)
    assert g.answered(req, 401, "No such token", 100) == [MoveWaiting("g1f3", "offline")]
    assert g.local_moves == ("e2e4", "e7e5", "g1f3") and g.tick(60_000) == []
    g.stream_opened(69_000)
    out = g.receive(read_game_line(game_full(moves="e2e4 e7e5")), 70_000)
    assert out[0] == api.move("Gm8pQz2x", "g1f3") and g.pending is not None


def test_a_takeback_during_the_wait_drops_the_held_move():
    g, _ = loaded("e2e4 e7e5")
    [req] = g.play("g1f3", 0)
    g.answered(req, 429, "", 100, retry_at_ms=60_100)
    out = g.receive(read_game_line(state("e2e4")), 20_000)  # the opponent's takeback was accepted elsewhere
    assert out[0] == MovesUndone(2)  # our held move and their e7e5
    assert g.pending is None and g.tick(60_100) == []


def test_takeback_and_a_different_line():
    g, _ = loaded("e2e4 e7e5 g1f3 b8c6")
    out = g.receive(read_game_line(state("e2e4 e7e5")), 2000)
    assert out[0] == MovesUndone(2)
    out = g.receive(read_game_line(state("e2e4 c7c5")), 3000)
    assert out[:2] == [MovesUndone(1), MovePlayed("c7c5", 1, True)]


def test_offers_chat_opponent_gone_and_the_end():
    g, _ = loaded("e2e4 e7e5")
    out = g.receive(read_game_line(state("e2e4 e7e5", btakeback=True)), 10)
    assert OffersChanged("", "black") in out
    assert g.answer_takeback(True) == [api.takeback("Gm8pQz2x", True)]
    out = g.receive(ChatLine("player", "Maia", "good luck"), 20)
    assert kinds(out) == ["ChatReceived"] and g.chat[-1].text == "good luck"
    out = g.receive(OpponentGone(True, 30), 1000)
    assert out == [OpponentLeft(True, 31_000)]
    assert not g.can_claim_victory(30_999) and g.claim_victory(30_999) == []
    assert g.claim_victory(31_000) == [api.claim_victory("Gm8pQz2x")]
    out = g.receive(read_game_line(state("e2e4 e7e5", status="timeout", winner="white")), 32_000)
    assert GameEnded("timeout", "white") in out and not g.is_playing
    assert g.play("g1f3", 33_000) == [MoveRefused("g1f3", "the game is over")]
    assert g.resign() == [] and g.offer_draw() == []


def test_actions_refused_say_lichess_words():
    g, _ = loaded("e2e4 e7e5 g1f3")
    [req] = g.abort() or [api.abort("Gm8pQz2x")]
    out = g.answered(req, 400, "This game cannot be aborted", 10)
    assert out == [ActionRefused("abort", "This game cannot be aborted")]
    assert not g.can_abort()
    assert g.answered(api.resign("Gm8pQz2x"), 429, "", 10) == [
        ActionRefused("resign", "lichess asked the board to wait a minute; try again then")]


def test_clocks_run_for_the_side_to_move_once_both_have_moved():
    g, out = loaded("e2e4", wtime=590_000, btime=600_000)
    assert ClocksChanged(590_000, 600_000, "", 1000) in out  # lichess starts the clocks after two moves
    g.receive(read_game_line(state("e2e4 e7e5", wtime=590_000, btime=597_000)), 2000)
    assert g.clocks(5000) == (587_000, 597_000, "white")
    g.play("g1f3", 6000)
    assert g.clocks(9000) == (586_000, 597_000, "")  # ours stopped when we moved
    g, _ = loaded("e2e4 e7e5", clock=None)
    assert not g.has_clock() and g.clocks(5000)[2] == ""


def test_black_to_move_first_from_a_position():
    g, out = loaded("", fen="8/8/8/8/8/8/4k3/4K3 b - - 0 1", me="maia")
    assert g.first_mover == "black" and g.color == "black" and g.is_my_turn


# ----- the lobby ----------------------------------------------------------------------------------------------
def test_lobby_challenges_and_games():
    lobby = Lobby(me="bobby")
    lobby.stream_opened()
    out = lobby.receive(read_event_line({"type": "challenge", "challenge": challenge()}))
    assert isinstance(out[0], ChallengesChanged) and [c.id for c in out[0].incoming] == ["Ch4llng1"]
    assert lobby.accept("Ch4llng1") == [api.accept("Ch4llng1")]
    out = lobby.receive(read_event_line({"type": "gameStart", "game": game_info("Ch4llng1", "black")}))
    assert isinstance(out[-1], GameBegan) and not lobby.incoming
    # the same game sent again after a reconnection is not news
    lobby.stream_opened()
    assert not [x for x in lobby.receive(read_event_line({"type": "gameStart", "game": game_info("Ch4llng1")}))
                if isinstance(x, GameBegan)]


def test_lobby_our_challenge_declined_or_withdrawn():
    lobby = Lobby(me="bobby")
    mine = challenge("Out00001", challenger="bobby", dest="kenneth", direction="out")
    lobby.receive(read_event_line({"type": "challenge", "challenge": mine}))
    assert list(lobby.outgoing) == ["Out00001"]
    out = lobby.receive(read_event_line({"type": "challengeDeclined", "challenge": {
        **mine, "status": "declined", "declineReason": "I'm not accepting challenges at the moment."}}))
    assert isinstance(out[0], ChallengeAnswered) and out[0].declined and "not accepting" in out[0].reason


def test_lobby_after_a_reconnection_forgets_what_was_not_sent_again():
    lobby = Lobby(me="bobby")
    lobby.stream_opened()
    for cid in ("Aaaaaaa1", "Bbbbbbb2"):
        lobby.receive(read_event_line({"type": "challenge", "challenge": challenge(cid)}))
    lobby.receive(KEEP_ALIVE)
    lobby.stream_lost()
    lobby.stream_opened()
    assert lobby.receive(read_event_line({"type": "challenge", "challenge": challenge("Bbbbbbb2")})) == []
    out = lobby.receive(KEEP_ALIVE)  # the burst is over: Aaaaaaa1 was withdrawn while the board was away
    assert [c.id for c in out[0].incoming] == ["Bbbbbbb2"]
    assert lobby.decline("Bbbbbbb2", "later")[0] == api.decline("Bbbbbbb2", "later")


# ----- requests and what lichess allows ------------------------------------------------------------------
def test_board_api_seeks_are_rapid_or_classical():
    r = api.seek(10, 0)
    assert (r.method, r.path, r.form, r.stream) == ("POST", "/api/board/seek",
                                                    (("rated", "false"), ("time", "10"), ("increment", "0")), True)
    assert api.speed_of(8 * 60, 0) == "rapid" and api.speed_of(7 * 60, 2) == "rapid"
    assert api.speed_of(7 * 60, 1) == "blitz" and api.speed_of(25 * 60, 0) == "classical"
    with pytest.raises(OnlineError, match="5\\+3 is blitz: lichess lets a board seek rapid or classical"):
        api.seek(5, 3)
    with pytest.raises(OnlineError, match="0 to 180 minutes"):
        api.seek(200, 0)
    assert api.seek_correspondence(3).form == (("rated", "false"), ("days", "3"))
    with pytest.raises(OnlineError, match="1, 2, 3, 5, 7, 10, 14 days"):
        api.seek_correspondence(4)


def test_challenges_may_be_blitz_but_not_bullet():
    r = api.challenge("Kenneth", limit_s=300, increment_s=3, color="white")
    assert r.path == "/api/challenge/Kenneth" and ("clock.limit", "300") in r.form and ("color", "white") in r.form
    with pytest.raises(OnlineError, match="is bullet"):
        api.challenge("Kenneth", limit_s=60, increment_s=0)
    with pytest.raises(OnlineError, match="whole minutes"):
        api.challenge("Kenneth", limit_s=100, increment_s=0)
    with pytest.raises(OnlineError, match="not a lichess user name"):
        api.challenge("no spaces", days=3)
    assert ("days", "7") in api.challenge("kenneth", days=7).form


def test_request_paths_and_bad_ids():
    assert api.move("Gm8pQz2x", "e7e8q").path == "/api/board/game/Gm8pQz2x/move/e7e8q"
    assert api.move("Gm8pQz2x", "e2e4", offering_draw=True).query == (("offeringDraw", "true"),)
    assert api.draw("Gm8pQz2x", False).path.endswith("/draw/no")
    assert api.takeback("Gm8pQz2x", True).path.endswith("/takeback/yes")
    assert api.claim_victory("Gm8pQz2x").path.endswith("/claim-victory")
    assert api.broadcast_push("AbCd1234", "pgn").text == "pgn"
    for bad in ("../x", "Gm8pQz2x/../../api", ""):
        with pytest.raises(OnlineError):
            api.game_stream(bad)
    with pytest.raises(OnlineError, match="UCI"):
        api.move("Gm8pQz2x", "e2e9")
    assert api.round_id("https://lichess.org/broadcast/club/round-1/AbCd1234") == "AbCd1234"
    with pytest.raises(OnlineError, match="8 letters and digits"):
        api.round_id("round-1")


def test_backoff():
    b = backoff.Backoff()
    assert [b.failed(backoff.NETWORK, 0) for _ in range(8)] == [500, 1000, 2000, 4000, 8000, 16000, 30000, 30000]
    b.succeeded()
    assert b.failed(backoff.SERVER, 100, jitter=1.0) == 100 + 625
    assert b.failed(backoff.RATE_LIMITED, 1000) == 61_000
    assert b.failed(backoff.NETWORK, 2000) == 61_000 and not b.may_send(60_999) and b.may_send(61_000)
    assert backoff.failure_kind(429) == "rate-limited" and backoff.failure_kind(None) == "network"


# ----- the broadcast push --------------------------------------------------------------------------------
def pgn(n: int, variant: str | None = None) -> str:
    tag = f'[Variant "{variant}"]\n' if variant else ""
    return f'[Event "Club"]\n[Round "1.{n}"]\n[White "A{n}"]\n[Black "B{n}"]\n{tag}[Result "*"]\n\n1. e4 e5 *\n'


def test_push_only_what_changed_at_most_every_two_seconds():
    s = push.PushSchedule()
    assert s.due(0) is None
    s.changed(pgn(1))
    text = s.due(0)
    assert text and s.due(10) is None  # one in flight
    s.changed(pgn(1) + "\n" + pgn(2))
    s.answered(200, "", 100)
    assert s.due(1999) is None and s.due(2000).count("[Event") == 2
    s.answered(200, "", 2100)
    assert s.due(10_000) is None and s.pushes == 2  # nothing new


def test_push_waits_a_minute_after_429_and_never_repeats_a_refused_text():
    s = push.PushSchedule()
    s.changed(pgn(1))
    s.due(0)
    s.answered(429, "", 100)
    assert s.due(60_099) is None and s.due(60_100) is not None
    s.answered(400, "Cannot parse moves", 60_200)
    assert "Cannot parse moves" in s.problem and s.due(100_000) is None
    s.changed(pgn(2))
    assert s.due(100_000) is not None


def test_push_keeps_chess_games_and_at_most_100():
    text, not_chess, over = push.pushable(pgn(1) + "\n" + pgn(2, "Dungeon Chess") + "\n" + pgn(3, "Standard"))
    assert text.count("[Event") == 2 and not_chess == 1 and over == 0
    text, _, over = push.pushable("\n".join(pgn(i) for i in range(105)))
    assert text.count("[Event") == 100 and over == 5


# ----- connecting ------------------------------------------------------------------------------------------
def test_pkce_s256_is_rfc7636s():
    assert connect.code_challenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk") == \
        "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"


def test_authorization_and_its_answer():
    a = connect.authorization("https://lichess.org", "http://192.168.1.20:8080/lichess/callback", "v" * 43, "st4te")
    assert a.url.startswith("https://lichess.org/oauth?response_type=code&client_id=companion-board")
    assert "code_challenge_method=S256" in a.url and "scope=board%3Aplay" in a.url and "v" * 43 not in a.url
    assert a.code_from({"state": "st4te", "code": "liu_abcdefgh"}) == "liu_abcdefgh"
    with pytest.raises(OnlineError, match="not for the board"):
        a.code_from({"state": "other", "code": "liu_abcdefgh"})
    with pytest.raises(OnlineError, match="not allowed"):
        a.code_from({"state": "st4te", "error": "access_denied"})
    assert ("code_verifier", "v" * 43) in a.token_form("liu_abcdefgh")
    page = connect.token_page("https://lichess.org", connect.BROADCAST_SCOPES)
    assert page == ("https://lichess.org/account/oauth/token/create?scopes%5B%5D=board%3Aplay&"
                    "scopes%5B%5D=study%3Awrite&description=Companion+board")


def test_token_never_shows_itself(tmp_path):
    t = Token("lip_Secret123")
    assert "Secret" not in f"{t} {t!r} {[t]} {dict(t=t)}" and t.reveal() == "lip_Secret123"
    with pytest.raises(TypeError):
        import pickle
        pickle.dumps(t)


def test_token_file(tmp_path):
    p = tmp_path / "lichess.token"
    with pytest.raises(OnlineError, match="no such token file"):
        read_token(p)
    save_token(p, Token("lip_Secret123"))
    assert os.stat(p).st_mode & 0o777 == 0o600 and read_token(p) == Token("lip_Secret123")
    os.chmod(p, 0o644)
    with pytest.raises(OnlineError, match="other users can read this token file .mode 644.; make it yours only"):
        read_token(p)
    p.write_text("not a token!\n")
    os.chmod(p, 0o600)
    with pytest.raises(OnlineError, match="not a lichess token"):
        read_token(p)
    p.write_text("")
    with pytest.raises(OnlineError, match="empty"):
        read_token(p)
    assert remove_token(p) and not p.exists() and not remove_token(p)
    with pytest.raises(OnlineError, match="not a file"):
        read_token(tmp_path)
