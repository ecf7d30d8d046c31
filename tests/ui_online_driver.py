"""Play a whole rapid game on lichess from the simulated board, in a real window, by taps; the
fake lichess (tests/fake_lichess.py) runs in this process and plays the other side.

    python tests/ui_online_driver.py SCENARIO SHOT_DIR DATA_DIR [WIDTHxHEIGHT]

The app is built by companion.app.bootstrap as the product builds it, with the lichess server
set to the fake's address; the phone that connects the account is a request to the board's own
page. Prints "SMOKE OK" at the end (tests/test_ui_online.py runs it).
"""

from __future__ import annotations

import functools
import sys
import urllib.parse
import urllib.request

import ui_smoke_driver as smoke  # noqa: E402 - sets up the window from the command line first
import ui_layout  # noqa: E402
from ui_smoke_driver import DATA, FRAME, SCENARIO, SHOTS, Driver, run_app  # noqa: E402

from companion.app import bootstrap  # noqa: E402
from companion.app.presenters.online_room import OnlineSetup  # noqa: E402
from companion.journal import JournalStore  # noqa: E402
from companion.online.link import OnlineLink  # noqa: E402
from companion.online.page import ConnectPage  # noqa: E402
from fake_lichess import FakeLichess  # noqa: E402

TOKEN = "lip_board0001"
FAKE = FakeLichess(keepalive_s=0.5)


class OnlineDriver(Driver):
    def until(self, cond, what: str, seconds: float = 10.0):
        waited = 0.0
        while not cond():
            assert waited < seconds, f"timed out waiting for {what}: {self.state()} lichess: " \
                                     f"{self.flow.online.connection_line()!r} {self.flow.online.notice!r}"
            yield FRAME
            waited += FRAME

    def shot(self, name: str):
        yield from super().shot(name)
        if self.flow.display.screen == "online":
            body = self.app.screens.current_screen.ids.body
            bottom, top = body.to_window(body.x, body.y)[1], body.to_window(body.x, body.top)[1]
            out = [f"{type(w).__name__} {getattr(w, 'text', '')[:30]!r}" for w in body.walk(restrict=True)
                   if w is not body and w.height >= 2 and w.opacity > 0
                   and (w.to_window(w.x, w.y)[1] < bottom - 1 or w.to_window(w.x, w.top)[1] > top + 1)]
            assert not out, f"{name}: outside the lichess screen's body (over its header): {out[:4]}"
        self.no_button_covered(name)

    def no_button_covered(self, name: str) -> None:
        """A finger on any button shown presses that button: nothing drawn later (which gets the
        touch first) covers its middle, a disabled widget least of all (Kivy's swallow touches)."""
        from kivy.uix.behaviors import ButtonBehavior

        from kivy.core.window import Window

        top = Window.children[0]  # the layer on top (a popup, or the screens) gets the touches
        shown = [w for w in top.walk(restrict=True) if w.get_root_window() is not None]
        for i, b in enumerate(shown):
            if not isinstance(b, ButtonBehavior) or b.disabled or getattr(b, "hidden", False) or b.opacity == 0 \
                    or ui_layout.hidden(b):
                continue
            x, y = b.to_window(*b.center)
            for w in shown[i + 1:]:
                if w.parent is None or b in _ancestors(w) or w in _ancestors(b) or getattr(w, "hidden", False):
                    continue
                # a widget of no size or transparent still takes touches (Kivy does not skip it)
                if (w.disabled or isinstance(w, ButtonBehavior)) and w.collide_point(*w.to_widget(x, y)):
                    raise AssertionError(f"{name}: {b.text!r} is covered by {type(w).__name__} "
                                         f"{getattr(w, 'text', '')!r} (disabled={w.disabled})")

    def phone_sends_the_token(self, token: str = TOKEN):
        """The phone that scanned the code: the board's page, a token pasted there."""
        url = self.flow.online.page_url
        assert url, "no page for the phone"
        code = urllib.parse.parse_qs(urllib.parse.urlparse(url).query)["k"][0]
        data = urllib.parse.urlencode({"k": code, "token": token}).encode()
        with urllib.request.urlopen(url.split("?")[0] + "/token", data=data, timeout=10) as r:
            assert b"Bobby" in r.read()
        yield FRAME


def lichess_game(d: OnlineDriver):
    """Connect, seek 10+5, moves both ways with the opponent's lit on the board, a takeback
    guided back, a dropped stream, chat, a draw offer accepted, the end in the archive."""
    f = d.flow
    yield from d.expect("start")
    yield from d.press("lichess")
    yield from d.expect("online")
    yield from d.shot("lichess-connect")
    yield from d.phone_sends_the_token()
    yield from d.until(lambda: f.online.is_connected(), "the account connected")
    yield from d.press("10+5")
    FAKE.auto_pair = ("maia", 2.5)
    yield from d.press("Seek a game")
    yield from d.until(lambda: f.online.seeking, "the seek")
    yield from d.shot("lichess-seek")
    yield from d.until(lambda: f.display.screen == "setup", "an opponent", 15)
    gid = f.online_game.game_id
    yield from d.press("Place every piece for me")
    yield from d.expect("game")
    yield from d.move("e2", "e4")
    yield from d.until(lambda: FAKE.games[gid].moves == ["e2e4"], "our move on lichess")
    FAKE.opponent_move(gid, "e7e5")
    yield from d.until(lambda: f.online_game.owed == ["e7e5"], "Maia's move")
    yield from d.wait_lit(smoke._index("e7"), smoke._index("e5"))
    FAKE.chat(gid, "maia", "Good luck!")
    yield from d.until(lambda: "Good luck" in d.app.presenters.game.view().legend, "the chat line")
    yield from d.shot("lichess-game")
    yield from d.move("e7", "e5")
    yield from d.move("g1", "f3")
    yield from d.until(lambda: FAKE.games[gid].moves == ["e2e4", "e7e5", "g1f3"], "Nf3 on lichess")
    FAKE.propose_takeback(gid, "maia")
    yield from d.until(lambda: f.display.prompt is not None, "the takeback question")
    yield from d.shot("lichess-takeback")
    yield from d.press("Accept")
    yield from d.until(lambda: len(f.game.session.moves) == 1, "the takeback (Maia's e5 and our Nf3)")
    yield from d.follow_the_lights()
    FAKE.cut_streams("game")
    yield from d.until(lambda: not f.online.is_connected(), "the dropped stream", 5)
    yield from d.shot("lichess-reconnecting")
    FAKE.opponent_move(gid, "d7d5")  # while the board is away
    yield from d.until(lambda: f.online_game.owed == ["d7d5"], "Maia's move made while the stream was down")
    yield from d.move("d7", "d5")
    yield from d.move("b1", "c3")
    yield from d.until(lambda: FAKE.games[gid].moves == ["e2e4", "d7d5", "b1c3"], "Nc3 on lichess")
    FAKE.opponent_move(gid, "b8c6")
    yield from d.until(lambda: f.online_game.owed == ["b8c6"], "Maia's next move")
    yield from d.move("b8", "c6")
    FAKE.offer_draw(gid, "maia")
    yield from d.until(lambda: f.display.prompt is not None, "the draw offer")
    yield from d.press("Accept")
    yield from d.until(lambda: f.display.screen == "game_over", "the end")
    yield from d.shot("lichess-game-over")
    saved = f.game.saved_as
    assert saved is not None and saved.exists(), "the game is in the archive"
    pgn = saved.with_suffix(".pgn").read_text()
    assert f"{FAKE.url}/{gid}" in pgn and '[Result "1/2-1/2"]' in pgn
    posts = [p for m, p, _ in FAKE.requests if m == "POST" and "/move/" in p]
    assert len(posts) == len(set(posts)) == 3, posts  # e4, Nf3 (taken back), Nc3  # every move of ours sent once
    yield from d.press("New game")
    yield from d.expect("start")


def lichess_lobby(d: OnlineDriver):
    """The lobby's other screens and lichess's errors: two challenges (one declined, one taken),
    a friend's name typed on the on-screen keyboard (the player chose to type), a 429 said in one
    line, the opponent gone and the win claimable, the resign question, and a token revoked on
    lichess: the connect screen again, in one line."""
    f = d.flow
    yield from d.expect("start")
    yield from d.press("lichess")
    yield from d.expect("online")
    yield from d.phone_sends_the_token()
    yield from d.until(lambda: f.online.is_connected() and f.online.play.lobby.connected, "the lobby")
    FAKE.add_user("anna", "Anna", 1850)
    FAKE.challenge_from("maia", "bobby", limit_s=900, increment_s=10)
    anna = FAKE.challenge_from("anna", "bobby", limit_s=None, days=3, rated=True)
    yield from d.until(lambda: len(d.app.presenters.online.view().incoming) == 2, "two challenges")
    yield from d.shot("lichess-challenges")
    yield from d.press("Decline")  # Anna's, the second
    yield from d.until(lambda: [c.id for c in d.app.presenters.online.view().incoming] != [anna] and len(d.app.presenters.online.view().incoming) == 1, "Anna's challenge declined")
    yield from d.press("Another name…")
    yield from d.until(lambda: f.display.entry is not None, "the keyboard")
    for ch in "anna":
        yield from d.press(ch)
    yield from d.shot("lichess-friend")
    yield from d.press("OK")
    yield from d.until(lambda: "Challenge sent to anna" in f.online.notice, "our challenge")
    [cid] = f.online.play.lobby.outgoing
    FAKE.answer_challenge(cid, accept=False, reason="I'm not accepting challenges at the moment.")
    yield from d.until(lambda: "declined" in f.online.notice, "Anna's answer")
    FAKE.fault("challenge", 429)
    yield from d.press("anna")  # the friend's button, remembered
    yield from d.until(lambda: f.online.connection_line().startswith("lichess asked the board to wait"), "the wait")
    yield from d.shot("lichess-wait")
    yield from d.until(lambda: f.online.connection_line().startswith("Connected"), "the wait over", 10)
    yield from d.press("Accept")  # Maia's 15+10
    yield from d.until(lambda: f.display.screen == "setup", "the game", 15)
    gid = f.online_game.game_id
    yield from d.press("Place every piece for me")
    yield from d.expect("game")
    white = FAKE.games[gid].white == "bobby"
    if not white:
        FAKE.opponent_move(gid, "e2e4")
        yield from d.until(lambda: f.online_game.owed == ["e2e4"], "Maia's first move")
        yield from d.move("e2", "e4")
        yield from d.move("e7", "e5")
    else:
        yield from d.move("e2", "e4")
        yield from d.until(lambda: FAKE.games[gid].moves == ["e2e4"], "our move")
        FAKE.opponent_move(gid, "e7e5")
        yield from d.until(lambda: f.online_game.owed == ["e7e5"], "Maia's move")
        yield from d.move("e7", "e5")
    yield from d.until(lambda: len(FAKE.games[gid].moves) == 2, "two moves on lichess")
    FAKE.opponent_gone(gid, "maia", True, claim_in_s=0)
    yield from d.until(lambda: d.app.presenters.bar.view().action == "claim", "Claim victory")
    yield from d.shot("lichess-claim")
    yield from d.press("Claim victory")
    yield from d.until(lambda: f.display.prompt is not None, "the claim's question")
    yield from d.shot("lichess-claim-question")
    yield from d.press("Cancel")  # the player waits instead
    yield from d.until(lambda: f.display.prompt is None, "the question closed")
    FAKE.revoke(TOKEN)  # on lichess: Preferences, API access tokens
    FAKE.cut_streams("events")
    yield from d.until(lambda: f.online.state == "none", "the token refused", 15)
    yield from d.shot("lichess-game-token-refused")
    yield from d.press("Menu")
    yield from d.press("Connect to lichess")
    yield from d.expect("online")
    yield from d.shot("lichess-token-refused")
    assert "refused the board's token" in d.app.presenters.online.view().problem
    FAKE.add_token("lip_board0002", "bobby")
    yield from d.phone_sends_the_token("lip_board0002")
    yield from d.until(lambda: f.online.is_connected(), "connected again")
    yield from d.press("Back")
    yield from d.expect("game")
    yield from d.press("Resign")
    yield from d.until(lambda: f.display.prompt is not None, "the question")
    yield from d.shot("lichess-resign")
    yield from d.press("Yes, resign")
    yield from d.until(lambda: f.display.screen == "game_over", "the end")
    assert FAKE.games[gid].status == "resign"
    yield from d.press("New game")
    yield from d.expect("start")


def _ancestors(w) -> list:
    out = []
    while w.parent is not None and w.parent is not w:
        w = w.parent
        out.append(w)
    return out


SCENARIOS = {"lichess-game": lichess_game, "lichess-lobby": lichess_lobby}


def main() -> int:
    SHOTS.mkdir(parents=True, exist_ok=True)
    FAKE.start()
    FAKE.add_token(TOKEN, "bobby", "board:play")
    FAKE.add_user("maia", "Maia", 1620)
    clock = bootstrap.monotonic_ms
    minute = 3000 if SCENARIO == "lichess-lobby" else 60_000  # lichess's wait after a 429, shortened
    online = OnlineSetup(FAKE.url, lambda base, token, post: OnlineLink(base, token, post, clock, rate_limit_ms=minute),
                         lambda base, on_token: ConnectPage(base, on_token, host="127.0.0.1", address="127.0.0.1"))
    tracker = functools.partial(bootstrap.default_tracker(), settle_ms=40, slow_settle_ms=80, castle_settle_ms=120)
    flow = bootstrap.build_flow(bootstrap.open_board(), JournalStore(DATA), make_tracker=tracker, computer=None,
                                online=online)
    try:
        return run_app(flow, SCENARIOS[SCENARIO], OnlineDriver)
    finally:
        FAKE.stop()


if __name__ == "__main__":
    sys.exit(main())
