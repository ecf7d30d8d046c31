"""A lichess game's other ends and lichess's errors, in the app without a window (the product's
flow, the real link, the fake lichess on loopback): abort, resign, claim victory; a 429, a
network lost and back, a token revoked in the middle of a game. Each is said in one line on
screen, and nothing is lost: the game stays journaled, a move made meanwhile is sent once."""

from __future__ import annotations

import pytest

from companion.app.presenters.online_room import OnlineSetup
from companion.online.link import OnlineLink
from companion.online.token import Token, save_token

from fake_lichess import FakeLichess
from tests.test_online_app import TOKEN, Online, connected, playing
from tests.ui_flow_helpers import App

NEW_TOKEN = "lip_board0002"


@pytest.fixture
def fake():
    with FakeLichess(keepalive_s=0.3) as f:
        f.add_token(TOKEN, "bobby", "board:play")
        f.add_user("maia", "Maia", 1620)
        yield f


def short_minute(fake: FakeLichess):
    """The product's link with lichess's minute after a 429 shortened to 1.5 s of the board's clock."""
    def make(clock):
        now = lambda: clock.t  # noqa: E731 - the test moves the board's clock
        return OnlineSetup(fake.url, lambda base, token, post: OnlineLink(base, token, post, now, rate_limit_ms=1500))
    return make


def both_moved(o: Online, fake: FakeLichess, gid: str) -> None:
    """1. e4 from the board, sent; 1... e5 from lichess, made on the board as the lights ask."""
    a, f = o.app, o.app.flow
    a.tap("e2", "e4")
    o.until(lambda: fake.games[gid].moves == ["e2e4"], "our move")
    fake.opponent_move(gid, "e7e5")
    o.until(lambda: f.online_game.owed == ["e7e5"], "Maia's move")
    a.tap("e7", "e5")


def one_line(text: str) -> bool:
    return bool(text) and "\n" not in text


def test_abort_before_both_have_moved_keeps_the_game_unfinished(tmp_path, fake):
    o, a, f, gid = playing(tmp_path, fake)
    bar = a.bar.view()
    assert (bar.action, bar.action_label) == ("abort", "Abort")
    a.bar.action()
    o.until(lambda: fake.games[gid].status == "aborted", "the abort on lichess")
    o.until(lambda: "aborted on lichess" in f.online.notice, "the board's word for it")
    assert ("POST", f"/api/board/game/{gid}/abort", {}) in fake.requests
    assert f.game.session is None or f.game.session.result is None or not f.game.session.result.winners


def test_resign_asks_first_then_resigns_on_lichess(tmp_path, fake):
    o, a, f, gid = playing(tmp_path, fake)
    both_moved(o, fake, gid)
    assert a.bar.view().action == ""  # both have moved: no Abort any more
    a.bar.resign()
    assert f.display.prompt is not None and f.display.prompt.title == "Resign this game on lichess?"
    assert not any(p.endswith("/resign") for _, p, _ in fake.requests), "nothing sent before the yes"
    f.display.answer_prompt("yes")
    o.until(lambda: f.display.screen == "game_over", "the end")
    s = f.game.session
    assert s.result.reason == "resigned" and s.result.winners == {1}
    pgn = f.game.saved_as.with_suffix(".pgn").read_text()
    assert '[Result "0-1"]' in pgn and f"{fake.url}/{gid}" in pgn


def test_claim_victory_once_the_opponent_has_gone(tmp_path, fake):
    o, a, f, gid = playing(tmp_path, fake)
    both_moved(o, fake, gid)
    a.tap("g1", "f3")
    o.until(lambda: fake.games[gid].moves == ["e2e4", "e7e5", "g1f3"], "Nf3")
    fake.opponent_gone(gid, "maia", True, claim_in_s=0)
    o.until(lambda: a.bar.view().action == "claim", "Claim victory in the bar")
    assert a.bar.view().action_label == "Claim victory"
    assert "Maia left the game" in a.game.view().notice
    a.bar.action()
    prompt = f.display.prompt
    assert prompt.title == "Maia has left the game" and [o.label for o in prompt.options][:2] == [
        "Claim victory", "Claim a draw"]
    f.display.answer_prompt("victory")
    o.until(lambda: f.display.screen == "game_over", "the win")
    assert f.game.session.result.winners == {0}
    assert ("POST", f"/api/board/game/{gid}/claim-victory", {}) in fake.requests


def test_a_draw_claimed_once_the_opponent_has_gone(tmp_path, fake):
    o, a, f, gid = playing(tmp_path, fake)
    both_moved(o, fake, gid)
    fake.opponent_gone(gid, "maia", True, claim_in_s=0)
    o.until(lambda: a.bar.view().action == "claim", "the claim in the bar")
    a.bar.action()
    f.display.answer_prompt("draw")
    o.until(lambda: f.display.screen == "game_over", "the draw")
    assert not f.game.session.result.winners and '[Result "1/2-1/2"]' in f.game.saved_as.with_suffix(".pgn").read_text()


def test_a_429_is_said_in_one_line_and_the_move_goes_once_after_it(tmp_path, fake):
    o, a, f, gid = playing(tmp_path, fake, setup=short_minute)
    fake.fault("move", 429)
    a.tap("e2", "e4")
    o.until(lambda: "asked the board to wait" in a.game.view().notice, "the wait said")
    assert one_line(a.game.view().notice) and [m.move for m in f.game.session.moves] == ["e2e4"]
    assert f.online.connection_line().startswith("lichess asked the board to wait: 2 s")
    a.pump()
    version = f.display.version
    a.clock.t += 1000
    a.pump()
    assert f.display.version > version and f.online.connection_line() == "lichess asked the board to wait: 1 s"
    a.clock.t += 500  # the minute passes
    o.until(lambda: fake.games[gid].moves == ["e2e4"], "the move after the wait", timeout=15)
    posts = [p for m, p, _ in fake.requests if m == "POST" and p.endswith("/move/e2e4")]
    assert len(posts) == 2  # the one answered 429, and the one after the wait


def test_the_network_lost_and_back_loses_nothing(tmp_path, fake):
    o, a, f, gid = playing(tmp_path, fake)
    fake.fault("game", 503)  # the first reconnection fails too
    fake.cut_streams("game")
    o.until(lambda: not f.online.is_connected(), "the stream lost")
    line = f.online.connection_line()
    assert one_line(line) and line.startswith("Reconnecting to lichess"), line
    assert a.game.view().seal == "Not connected to lichess"
    a.tap("e2", "e4")  # a move made while the link is down is kept, then sent
    o.until(lambda: fake.games[gid].moves == ["e2e4"], "the move once the link is back", timeout=15)
    assert f.online.is_connected()
    assert len([p for m, p, _ in fake.requests if m == "POST" and "/move/" in p]) == 1


def test_a_token_revoked_mid_game_is_said_and_a_new_one_takes_the_game_up(tmp_path, fake):
    o, a, f, gid = playing(tmp_path, fake)
    both_moved(o, fake, gid)
    fake.revoke(TOKEN)  # on lichess, Preferences, API access tokens
    a.tap("g1", "f3")  # sent with the revoked token: refused 401, not played, held
    o.until(lambda: f.online.state == "none", "the token refused")
    line = f.online.connection_line()
    assert line == "lichess refused the board's token (revoked or expired): connect again."
    assert "Ng1-f3" not in a.game.view().notice and "g1f3" in a.game.view().notice  # held, said
    assert a.game.view().seal == "Not connected to lichess"
    assert [m.move for m in f.game.session.moves] == ["e2e4", "e7e5", "g1f3"], "nothing taken back"
    a.start.lichess() if f.display.screen == "start" else None
    view = a.online.view()
    assert view.mode == "connect" and view.problem == line  # the QR code, the stick and the keyboard again
    fake.add_token(NEW_TOKEN, "bobby")
    f.online.keep_token(Token(NEW_TOKEN))
    o.until(lambda: fake.games[gid].moves == ["e2e4", "e7e5", "g1f3"], "the held move, sent with the new token")
    assert len([p for m, p, _ in fake.requests if m == "POST" and p.endswith("/move/g1f3")]) == 2  # 401, then played
    fake.opponent_move(gid, "b8c6")
    o.until(lambda: f.online_game.owed == ["b8c6"], "the game goes on")
    assert (tmp_path / "lichess.token").read_text().strip() == NEW_TOKEN
    assert (tmp_path / "lichess.token").stat().st_mode & 0o777 == 0o600
    for path in tmp_path.rglob("*"):  # the journal, the saved games: neither token anywhere
        if path.is_file() and path.name != "lichess.token":
            data = path.read_bytes()
            assert TOKEN.encode() not in data and NEW_TOKEN.encode() not in data, path


def test_the_account_connected_again_from_the_game_goes_back_to_it(tmp_path, fake):
    """A token refused in the middle of a game: the game's Menu opens the lichess screen (the
    QR code, the stick, the keyboard) and Back returns to the game, which goes on."""
    o, a, f, gid = playing(tmp_path, fake)
    both_moved(o, fake, gid)
    a.bar.menu()
    assert "lichess" not in [x.key for x in f.display.prompt.options]  # connected: nothing to do there
    f.display.answer_prompt(None)
    fake.revoke(TOKEN)
    fake.cut_streams("events")
    o.until(lambda: f.online.state == "none", "the token refused")
    assert f.display.banner == "lichess refused the board's token: Menu, Connect to lichess"
    assert a.bar.view().action == "" and not a.bar.view().can_draw, "nothing offered that needs lichess"
    a.bar.menu()
    assert f.display.prompt.options[0].label == "Connect to lichess"
    f.display.answer_prompt("lichess")
    o.until(lambda: a.online.view().mode == "connect", "the connect screen")
    assert f.display.screen == "online"
    fake.add_token(NEW_TOKEN, "bobby")
    a.online.type_token()
    a.type(NEW_TOKEN)
    o.until(lambda: f.online.is_connected(), "connected again")
    a.online.back()
    assert f.display.screen == "game" and f.online_game.game_id == gid
    a.tap("g1", "f3")
    o.until(lambda: fake.games[gid].moves == ["e2e4", "e7e5", "g1f3"], "the game goes on")
