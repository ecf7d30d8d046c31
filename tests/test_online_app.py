"""The app's lichess rooms without a window: the product's flow and presenters (the simulated
board, the real tracker, the journal on disk), the real link against the fake lichess on
loopback, a clock the test moves for the board and the same clock for the link."""

from __future__ import annotations

import os
import threading
import time

import pytest

from companion.app.presenters.online_room import OnlineSetup
from companion.online.link import OnlineLink
from companion.online.page import ConnectPage
from companion.online.token import Token, save_token

from fake_lichess import FakeLichess
from tests.ui_flow_helpers import App

TOKEN = "lip_board0001"


def _get(port: int, path: str) -> bytes:
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("GET", path)
    body = conn.getresponse().read()
    conn.close()
    return body


def setup_for(fake: FakeLichess, page: bool = False):
    def make(clock):
        now = lambda: clock.t  # noqa: E731 - the link reads the board's clock, never moves it
        return OnlineSetup(fake.url, lambda base, token, post: OnlineLink(base, token, post, now),
                           (lambda base, on_token: ConnectPage(base, on_token, host="127.0.0.1", address="127.0.0.1",
                                                               clock_ms=now)) if page else None)
    return make


class Online:
    """The app with lichess, waited on as a person waits: the screen changes when lichess answers."""

    def __init__(self, app: App) -> None:
        self.app = app
        self.woken = threading.Event()
        app.flow.wake = self.woken.set

    def until(self, cond, what: str = "", timeout: float = 10.0) -> None:
        end = time.monotonic() + timeout
        while True:
            self.app.pump()
            if cond():
                return
            assert time.monotonic() < end, f"timed out waiting for {what}: screen={self.app.flow.display.screen} " \
                                           f"notice={self.app.flow.display.notice!r} online={self.app.flow.online.notice!r}"
            self.woken.wait(0.05)
            self.woken.clear()

    def follow_the_lights(self) -> None:
        a = self.app
        s = a.flow.game.session
        expected = s.rules.expected_occupancy(s.pos)
        g = s.rules.geometry
        names = [g.name_of(sq) for sq in sorted(a.flow.board.sensed - expected)] + \
                [g.name_of(sq) for sq in sorted(expected - a.flow.board.sensed)]
        a.tap(*names)
        assert a.flow.board.in_sync, a.flow.board.guidance


@pytest.fixture
def fake():
    with FakeLichess(keepalive_s=0.3) as f:
        f.add_token(TOKEN, "bobby", "board:play")
        f.add_user("maia", "Maia", 1620)
        yield f


def connected(tmp_path, fake, page=False) -> Online:
    app = App(tmp_path, computer=False, online=setup_for(fake, page))
    o = Online(app)
    return o


def playing(tmp_path, fake, white: str = "bobby", black: str = "maia", setup=None):
    """A lichess game on the board, set up and shown: ``(online, app, flow, game id)``."""
    save_token(tmp_path / "lichess.token", Token(TOKEN))
    gid = fake.create_game(white, black)
    o = Online(App(tmp_path, computer=False, online=setup(fake))) if setup else connected(tmp_path, fake)
    a, f = o.app, o.app.flow
    a.start.lichess()
    o.until(lambda: f.display.screen == "setup", "the game")
    a.setup.fill()
    a.pump()
    assert f.display.screen == "game"
    return o, a, f, gid


def test_a_rapid_game_from_seek_to_the_archive(tmp_path, fake):
    save_token(tmp_path / "lichess.token", Token(TOKEN))
    fake.auto_pair = ("maia", 0.1)
    o = connected(tmp_path, fake)
    a, f = o.app, o.app.flow
    from companion.app.bootstrap import attach_broadcast

    live = attach_broadcast(f, "127.0.0.1:0", announce=False)  # the board serves its game live too
    a.start.lichess()
    o.until(lambda: f.online.is_connected(), "the account and its event stream")
    view = a.online.view()
    assert view.mode == "lobby" and view.connection == "Connected to lichess as Bobby"
    a.online.choose_clock(1)  # 10+5
    a.online.seek()
    o.until(lambda: f.display.screen == "setup", "the game from the seek")
    gid = f.online_game.game_id
    assert ("POST", "/api/board/seek", {"rated": "false", "time": "10", "increment": "5"}) in fake.requests
    a.setup.fill()
    a.pump()
    assert f.display.screen == "game"
    assert a.game.view().status == "Your move"
    a.tap("e2", "e4")
    o.until(lambda: fake.games[gid].moves == ["e2e4"], "our move on lichess")
    fake.opponent_move(gid, "e7e5")
    o.until(lambda: f.online_game.owed == ["e7e5"], "their move asked of the player")
    assert a.game.view().status == "Maia played e7-e5"
    e7, e5 = a.sq("e7"), a.sq("e5")
    assert f.board.frame[e7] != (0, 0, 0) and f.board.frame[e5] != (0, 0, 0), "lit from and to"
    a.tap("e7", "e5")
    assert [m.move for m in f.game.session.moves] == ["e2e4", "e7e5"] and not f.online_game.owed
    # a takeback: Maia asks, the board's player accepts, the pieces are guided back
    fake.propose_takeback(gid, "maia")
    o.until(lambda: f.display.prompt is not None and f.display.prompt.kind == "online-takeback", "the question")
    f.display.answer_prompt("accept")
    o.until(lambda: len(f.game.session.moves) == 1, "the takeback")
    assert not f.board.in_sync
    o.follow_the_lights()
    # the stream drops; Maia moves meanwhile; the board catches up
    fake.cut_streams("game")
    fake.opponent_move(gid, "c7c5")
    o.until(lambda: f.online_game.owed == ["c7c5"], "the move made while the stream was down")
    a.tap("c7", "c5")
    a.tap("g1", "f3")
    o.until(lambda: fake.games[gid].moves == ["e2e4", "c7c5", "g1f3"], "our move after the drop")
    # a draw offer, accepted: the end, filed with its PGN and lichess link
    fake.offer_draw(gid, "maia")
    o.until(lambda: f.display.prompt is not None and f.display.prompt.kind == "online-draw", "the draw offer")
    f.display.answer_prompt("accept")
    o.until(lambda: f.display.screen == "game_over", "the end")
    assert f.game.session.result.reason == "draw agreed" and not f.game.session.result.winners
    saved = f.game.saved_as
    assert saved is not None and saved.exists()
    pgn = saved.with_suffix(".pgn").read_text()
    assert f'[Site "{fake.url}/{gid}"]' in pgn and '[White "Bobby"]' in pgn and '[Black "Maia"]' in pgn
    assert "1. e4 c5 2. Nf3" in pgn.replace("\n", " ") and '[Result "1/2-1/2"]' in pgn
    over = a.over.view()
    assert over.headline == "Draw" and over.link == f"On lichess: {fake.url}/{gid}"
    served = b"".join(_get(live.server.port, path) for path in ("/", "/game.json", "/game.pgn", "/board.js"))
    live.stop()
    assert b"Bobby" in served and TOKEN.encode() not in served
    for root, _, files in os.walk(tmp_path):
        for name in files:
            if name != "lichess.token":
                assert TOKEN.encode() not in open(os.path.join(root, name), "rb").read(), name


def test_a_refused_move_comes_back_with_lichess_words(tmp_path, fake):
    o, a, f, gid = playing(tmp_path, fake)
    fake.fault("move", 400, error="Piece on d2 cannot move to d4")
    a.tap("d2", "d4")
    o.until(lambda: not f.game.session.moves, "the move taken back")
    assert "lichess refused d2d4: Piece on d2 cannot move to d4" in a.game.view().notice
    assert not f.board.in_sync
    o.follow_the_lights()


def test_connect_without_a_token_then_through_the_page(tmp_path, fake):
    import urllib.parse
    import urllib.request

    o = connected(tmp_path, fake, page=True)
    a, f = o.app, o.app.flow
    a.start.lichess()
    view = a.online.view()
    assert view.mode == "connect" and view.qr and view.page.startswith("http://127.0.0.1:")
    code = urllib.parse.parse_qs(urllib.parse.urlparse(view.page).query)["k"][0]
    data = urllib.parse.urlencode({"k": code, "token": TOKEN}).encode()
    with urllib.request.urlopen(view.page.split("?")[0] + "/token", data=data, timeout=10) as r:
        assert b"Bobby" in r.read()
    o.until(lambda: f.online.state == "connected", "the account")
    assert (tmp_path / "lichess.token").stat().st_mode & 0o777 == 0o600
    assert a.online.view().mode == "lobby"
    a.online.disconnect()
    assert not (tmp_path / "lichess.token").exists() and a.online.view().mode == "connect"


def test_a_challenge_from_a_friend_and_one_to_a_friend(tmp_path, fake):
    save_token(tmp_path / "lichess.token", Token(TOKEN))
    o = connected(tmp_path, fake)
    a, f = o.app, o.app.flow
    a.start.lichess()
    o.until(lambda: f.online.state == "connected" and f.online.play.lobby.connected, "the lobby")
    a.online.challenge("maia")
    o.until(lambda: f.online.play.lobby.outgoing, "our challenge")
    [cid] = f.online.play.lobby.outgoing
    fake.answer_challenge(cid, accept=False)
    o.until(lambda: "Maia declined" in a.online.view().notice, "the answer")
    assert a.online.view().friends == ("maia",)
    cid = fake.challenge_from("maia", "bobby", limit_s=900, increment_s=10)
    o.until(lambda: a.online.view().incoming, "the challenge")
    assert a.online.view().incoming[0].text == "Maia (1620) challenges you: 15+10"
    a.online.accept(cid)
    o.until(lambda: f.display.screen == "setup", "the game")
    assert f.online_game.my_seat == 1 and f.game.session.seats[0].name == "Maia"


def test_castling_written_king_to_rook_is_the_kings_two_squares():
    """GameStateEvent.yaml: moves in UCI, "King to rook for Chess960-compatible castling"."""
    from companion.app.presenters.online_game_room import _engine_text
    from companion.session import GameSetup, Seat, Session

    s, _ = Session.new(GameSetup("chess", (Seat("A"), Seat("B"))))
    for uci in "e2e4 e7e5 g1f3 g8f6 f1c4 f8c5".split():
        s.play(uci)
    assert _engine_text(s, "e1h1") == "e1g1" and _engine_text(s, "e1g1") == "e1g1"
    s.play(_engine_text(s, "e1h1"))
    assert s.moves[-1].san == "O-O" and _engine_text(s, "e8h8") == "e8g8"
    assert _engine_text(s, "h2h3") == "h2h3"


def test_a_token_typed_on_the_keyboard_and_one_from_a_usb_stick(tmp_path, fake):
    stick = tmp_path / "stick"
    stick.mkdir()
    (stick / ".companion-stick").write_text("")
    data = tmp_path / "data"
    app = App(data, computer=False, online=setup_for(fake), media_roots=(str(tmp_path),))
    o = Online(app)
    f = app.flow
    app.start.lichess()
    assert app.online.view().mode == "connect"
    app.online.from_stick()
    assert "No USB stick with a lichess.token" in app.online.view().notice
    (stick / "lichess.token").write_text(TOKEN + "\n")  # a stick has no owner: its file's mode is not asked
    app.online.from_stick()
    o.until(lambda: f.online.state == "connected", "the account from the stick")
    assert "Delete lichess.token from the stick" in app.online.view().notice
    assert (data / "lichess.token").stat().st_mode & 0o777 == 0o600 and (stick / "lichess.token").exists()
    app.online.disconnect()
    app.online.type_token()
    app.type("not a token!")
    assert f.display.entry is not None and "not a lichess token" in f.display.entry.problem
    f.display.entry_cancel()
    app.online.type_token()
    app.type(TOKEN)
    o.until(lambda: f.online.state == "connected", "the account typed")


def test_a_lichess_game_is_taken_up_after_a_restart(tmp_path, fake):
    o, a, f, gid = playing(tmp_path, fake)
    a.tap("e2", "e4")
    o.until(lambda: fake.games[gid].moves == ["e2e4"], "our move on lichess")
    f.stop()  # the power goes
    fake.opponent_move(gid, "c7c5")  # the game goes on on lichess meanwhile
    back = App(tmp_path, computer=False, online=setup_for(fake))
    o2 = Online(back)
    assert back.flow.display.screen == "resume"
    back.resume.accept()
    o2.until(lambda: back.flow.online_game.owed == ["c7c5"], "the move made while the board was off")
    assert back.flow.online_game.game_id == gid and [m.move for m in back.flow.game.session.moves] == ["e2e4"]
    back.setup.fill()  # the board as it stood
    back.pump()
    o2.until(lambda: back.flow.display.screen == "game", "the game screen")
    back.tap("c7", "c5")
    back.tap("g1", "f3")
    o2.until(lambda: fake.games[gid].moves == ["e2e4", "c7c5", "g1f3"], "the game goes on from the board")


def test_a_lichess_game_begun_elsewhere_waits_while_the_board_plays_a_game(tmp_path, fake):
    save_token(tmp_path / "lichess.token", Token(TOKEN))
    o = connected(tmp_path, fake)
    a, f = o.app, o.app.flow
    a.start.lichess()
    o.until(lambda: f.online.is_connected(), "the account")
    a.online.back()
    a.new_game("chess")  # two people at the board
    a.tap("e2", "e4")
    gid = fake.create_game("bobby", "maia")  # accepted on the phone meanwhile
    o.until(lambda: "not taken by the board" in f.online.notice, "the game left waiting")
    assert f.online_game.game_id is None and [m.san for m in f.game.session.moves] == ["e4"]
    a.start.lichess()
    assert a.online.view().games[0].id == gid
    a.online.play_here(gid)
    o.until(lambda: f.online_game.game_id == gid and f.display.screen == "setup", "the game taken on request")


def test_with_speech_on_the_lichess_opponents_move_is_said_when_it_arrives(tmp_path, fake):
    """docs/speech.md: the opponent's move in words, before the player makes it on the board."""
    from companion.board_settings import BoardSettings
    from companion.speech.announcements import SpeechSettings
    from tests.test_speech_app import FakeVoice

    save_token(tmp_path / "lichess.token", Token(TOKEN))
    fake.auto_pair = ("maia", 0.1)
    voice = FakeVoice()
    app = App(tmp_path, computer=False, online=setup_for(fake), voice=voice,
              board_settings=BoardSettings(None, SpeechSettings(on=True)))
    o = Online(app)
    f = app.flow
    app.start.lichess()
    o.until(lambda: f.online.is_connected(), "the account and its event stream")
    app.online.choose_clock(1)
    app.online.seek()
    o.until(lambda: f.display.screen == "setup", "the game from the seek")
    gid = f.online_game.game_id
    app.setup.fill()
    app.pump()
    app.tap("e2", "e4")
    o.until(lambda: fake.games[gid].moves == ["e2e4"], "our move on lichess")
    fake.opponent_move(gid, "g8f6")
    o.until(lambda: f.online_game.owed == ["g8f6"], "their move asked of the player")
    assert any("Knight f6" in said for said in voice.said), voice.said[-4:]


def test_lichess_keepalive_lines_are_no_activity_so_the_main_loop_rests_in_a_game(tmp_path, fake):
    """docs/performance.md: an empty line on a stream changes nothing on screen, so a lichess game
    waiting for a move lets the loop rest (and return the heap's free memory, pacing.py)."""
    from companion.app.pacing import REST_AFTER_MS, REST_FPS, FlowPacing
    from companion.online.ndjson import KEEP_ALIVE
    from companion.online.transport import LineReceived

    o, a, f, gid = playing(tmp_path, fake)
    pacing = FlowPacing(f)
    seen = []
    receive = f.online.receive

    def counting(event) -> None:
        if isinstance(event, LineReceived) and event.value is KEEP_ALIVE:
            seen.append(event.stream)
        receive(event)

    f.mailbox.route("online", counting)
    o.until(lambda: True)  # what came before
    a.clock.t += REST_AFTER_MS + 1000
    pacing.dirty = False
    o.until(lambda: gid in seen and len(seen) >= 3, "empty lines on the streams")
    assert pacing.plan(a.clock())[0] == REST_FPS
    assert not pacing.dirty, "an empty line redraws nothing"
