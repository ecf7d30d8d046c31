"""Open the real app and play a game with a friend's board, as people would; save screenshots.

    python tests/ui_link_driver.py SCENARIO SHOT_DIR DATA_DIR [WIDTHxHEIGHT]

The friend's board is a second board in this process without a screen
(companion.link.board.LinkedBoard: the same link, its computer player), linked over loopback
TCP. The app's player uses only the screen and the simulated board (the Chess 2 driver's
widgets and taps; every screenshot checked for text under 12 px, cut-off text and widgets
outside the window). Scenarios:

* ``host-combat``: Combat Chess with the second seat at a friend's board; the code shown large;
  the friend's board pairs with it and plays Black; the other board's moves are made on this
  board by following the lights; a capture, and its fight's dice from both boards' secrets.
* ``guest-chess2``: Join a friend: the code typed on the number pad; the friend's board
  proposes Chess 2; accepted, an army (Classic) chosen in secret; a capture the friend's board duels:
  this board's bid sealed, the other board's awaited, both revealed.

Test-only: the code is drawn from a fixed number (the app's draw), so the friend's board in the
test knows it; the port is fixed.
"""

from __future__ import annotations

import json
import random
import sys
import tempfile
import threading
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import ui_smoke_driver as base  # noqa: E402  (sets up the window from argv first)
from ui_chess2_driver import Chess2Driver  # noqa: E402

from companion.app import bootstrap  # noqa: E402
from companion.journal import JournalStore  # noqa: E402
from companion.link.board import LinkedBoard  # noqa: E402
from companion.link.code import PairingCode  # noqa: E402
from companion.link.match import free_port  # noqa: E402
from companion.link.transport import TcpGuest, TcpHost  # noqa: E402

FRAME = base.FRAME
PORT = free_port()
CODE_NUMBER = 41209337


def transports(role: str, nameplate: str):
    return TcpHost("127.0.0.1", PORT) if role == "host" else TcpGuest(("127.0.0.1", PORT))


def friend(role: str, spec: dict) -> LinkedBoard:
    """The friend's board, without a screen, its computer at its seats, in a thread."""
    data = Path(tempfile.mkdtemp(prefix="friend-"))
    board = LinkedBoard(data, role=role, spec=spec, transport=transports(role, "41"),
                        code=PairingCode.from_number(CODE_NUMBER), out=lambda item: None)
    threading.Thread(target=board.run, args=(1,), daemon=True).start()
    return board


SPEC = {"map": None, "a": "greedy", "b": "greedy", "armies": None, "movetime": None, "nodes": 200, "seed": 5,
        "max_plies": 400, "draw_rules": False, "players": 2}


class LinkDriver(Chess2Driver):
    def state(self) -> str:
        linked = self.flow.link.linked
        more = ""
        if linked is not None and linked.session is not None:
            st = linked.st
            more = (f" link: waiting for {linked.waiting_for()!r}, pending={linked.session.pos.pending}, "
                    f"commits={sorted(st.commits)}, opened={sorted(st.opened)}, refused={st.refused}, "
                    f"duel={self.app.presenters.duel.view().phase if self.app.presenters.duel.view() else None}")
        return super().state() + more

    def follow(self):
        """The other board's move: lit on this board; make it by following the lights."""
        yield from self.until(lambda: not self.flow.board.in_sync or self.my_turn(), "the other board's move")
        if not self.flow.board.in_sync:
            yield from self.follow_the_lights()
        yield from self.until(lambda: self.flow.board.in_sync, "the board in step")

    def press_top(self, text: str):
        """The button ``text`` on top (a popup's, where the screen behind shows the same words)."""
        yield FRAME
        found = [w for w in self.widgets() if isinstance(w, base.BigButton) and w.text == text
                 and not w.disabled and w.opacity > 0 and w.get_root_window() is not None]
        assert found, f"no button {text!r}"
        yield from self.touch_widget(found[0], text)

    def my_turn(self) -> bool:
        s = self.flow.game.session
        return s is not None and s.pos.pending is None and s.linked.to_act() is not None

    def play_until(self, test, what: str, rng: random.Random, limit: int = 60):
        """This board's player moves (a capture when there is one) until ``test()``."""
        for _ in range(limit):
            if test():
                return
            yield from self.until(lambda: self.my_turn() or test() or not self.flow.board.in_sync, "a turn")
            if test():
                return
            if not self.flow.board.in_sync:
                yield from self.follow()
                continue
            s = self.flow.game.session
            g = s.rules.geometry
            moves = s.rules.legal_moves(s.pos)
            simple = [m for m in moves if m.frm >= 0 and not m.special  # a plain move of one piece, no promotion
                      and s.rules.move_text(s.pos, m)[-1].isdigit()]
            captures = [m for m in simple if m.capture is not None]
            m = rng.choice(captures or simple)
            yield from self.move(g.name_of(m.frm), g.name_of(m.to))
        raise AssertionError(f"waited for {what}: {self.state()}")


def host_combat(d: LinkDriver):
    yield from d.press("Chess")  # Human Combat Chess: chess with the Dice fights switch on
    if d.app.presenters.start.game != "combat":
        yield from d.press_key("fights")
    assert d.app.presenters.start.game == "combat"
    yield from d.press_key("kind:1")
    yield from d.press("Friend's board")
    yield from d.shot("start-friend")
    yield from d.press("Start")
    yield from d.expect("link")
    yield from d.shot("link-code")
    assert d.app.presenters.link.view().code == "41 209 337"
    friend("guest", dict(SPEC, variant="combat"))
    yield from d.until(lambda: d.flow.display.screen == "setup", "the game agreed", frames=400)
    yield from d.press("Place every piece for me")
    yield from d.expect("game")
    yield from d.shot("link-game")
    rng = random.Random(3)
    yield from d.play_until(lambda: d.flow.display.screen == "fight", "a fight", rng)
    yield from d.until(lambda: d.flow.play.fight is not None and d.flow.play.fight.rounds, "the dice", frames=400)
    yield from d.until(lambda: d.app.presenters.fight.phase() != "rolling", "the dice shown", frames=200)
    yield from d.shot("link-fight")
    s = d.flow.game.session
    assert s.record.rounds and s.record.rounds[-1].link is not None


def guest_chess2(d: LinkDriver):
    yield from d.press("Join a friend")
    yield from d.expect("link")
    for digit in "4120":
        yield from d.press(digit)
    yield from d.shot("link-typing")
    friend("host", dict(SPEC, variant="chess2", a="duelist", b="duelist", armies="classic,classic",
                        guest_person=True))
    for digit in "9337":
        yield from d.press(digit)
    yield from d.until(lambda: d.flow.display.prompt is not None, "the proposal", frames=400)
    yield from d.shot("link-proposal")
    yield from d.press("Accept")
    yield from d.until(lambda: d.flow.display.prompt is not None and d.flow.display.prompt.kind == "link-army",
                       "the army question")
    yield from d.shot("link-army")
    yield from d.press("Classic")
    yield from d.until(lambda: d.flow.display.screen == "setup", "the game", frames=400)
    yield from d.press("Place every piece for me")
    yield from d.expect("game")
    rng = random.Random(4)
    yield from d.play_until(lambda: d.flow.display.screen == "duel", "a duel", rng)
    v = d.app.presenters.duel.view()
    if v.phase == "offer":
        yield from d.press("Duel")
    yield from d.until(lambda: d.app.presenters.duel.view().phase in ("bid", "wait"), "the bids", frames=400)
    if d.app.presenters.duel.view().phase == "bid":
        yield from d.bid(1)
    yield from d.shot("link-duel")
    yield from d.until(lambda: d.app.presenters.duel.view().phase == "result", "both bids revealed", frames=400)
    yield from d.shot("link-duel-result")


class CuttableGuest(TcpGuest):
    """The friend's board's connection, with a cable the test can pull and plug in again."""

    def __init__(self) -> None:
        self.cut = False
        super().__init__(find=lambda: None if self.cut else ("127.0.0.1", PORT))

    def pull(self) -> None:
        self.cut = True
        self.drop()

    def plug(self) -> None:
        self.cut = False


def _banner(d: LinkDriver):
    return next(w for w in d.widgets() if type(w).__name__ == "Banner" and w.text and w.get_root_window() is not None)


def host_faults(d: LinkDriver):
    """Chess with the friend's board: the network cut mid-game (said at once, then *away*, the
    choices), a move made here meanwhile, the network back (nothing lost); then the friend's
    board writes a move out of turn: refused in one line."""
    yield from d.press("Chess")
    if d.app.presenters.start.game != "chess":
        yield from d.press_key("fights")  # FIDE chess: the Dice fights switch off
    assert d.app.presenters.start.game == "chess"
    yield from d.press_key("kind:1")
    yield from d.press("Friend's board")
    yield from d.press("Start")
    yield from d.expect("link")
    cable = CuttableGuest()
    data = Path(tempfile.mkdtemp(prefix="friend-"))
    board = LinkedBoard(data, role="guest", spec=dict(SPEC, variant="chess"), transport=cable,
                        code=PairingCode.from_number(CODE_NUMBER), out=lambda item: None)
    threading.Thread(target=board.run, args=(1,), daemon=True).start()
    yield from d.until(lambda: d.flow.display.screen == "setup", "the game agreed", frames=400)
    yield from d.press("Place every piece for me")
    yield from d.expect("game")
    rng = random.Random(6)
    session = d.flow.game.session
    yield from d.play_until(lambda: len(session.moves) >= 4 and d.my_turn() and d.flow.board.in_sync,
                            "four moves", rng)
    cable.pull()
    yield from d.until(lambda: "reconnecting" in d.flow.display.banner, "the link's line: reconnecting", frames=200)
    yield from d.shot("link-reconnecting")
    before = len(session.moves)
    yield from d.play_until(lambda: len(session.moves) > before, "a move made while the other board is away", rng)
    yield from d.until(lambda: "away" in d.flow.display.banner, "the other board away", frames=600)
    yield from d.shot("link-away")
    yield from d.touch_widget(_banner(d), "the link's line")
    yield from d.until(lambda: d.flow.display.prompt is not None and d.flow.display.prompt.kind == "link-away",
                       "wait, adjourn or claim")
    yield from d.shot("link-away-choices")
    yield from d.press("Wait")
    cable.plug()
    yield from d.until(lambda: d.flow.display.banner == "Linked game: connected"
                       and board.game is not None and len(board.game.session.moves) == len(session.moves),
                       "the other board back, the move made meanwhile sent", frames=600)
    assert [m.move for m in board.game.session.moves] == [m.move for m in session.moves]  # nothing lost or doubled
    yield from d.shot("link-back")
    yield from d.follow()  # the other board's move, made here by following the lights
    yield from d.until(lambda: d.flow.board.in_sync and d.my_turn(), "this board's turn", frames=600)
    st = board.game.st
    forged = {"t": "entry", "n": len(st.log) + 1, "e": {"type": "move", "move": "a7a6"}, "g": st.number,
              "at": len(st.log), "h": st.hash()}
    board.port.send([json.dumps(forged).encode()])  # the friend's board writes on this board's turn
    yield from d.until(lambda: d.flow.display.notice.startswith("Refused"), "the forged move refused", frames=200)
    assert d.flow.display.notice.startswith("Refused: the other board wrote action")
    assert len(session.moves) == len(board.game.session.moves)  # nothing accepted
    yield from d.shot("link-refused")


def _dungeon_with_a_friend(d: LinkDriver, board_map: str, remote: tuple[int, ...], shots: bool = False):
    """Dungeon Chess on ``board_map`` with the seats ``remote`` at the friend's board, started."""
    yield from d.press("Dungeon Chess")
    yield from d.press_key(board_map)
    for seat in remote:
        yield from d.press_key(f"kind:{seat}")
        if shots and seat == remote[0]:
            yield from d.shot("link-dungeon-seat-list")
        yield from d.press_top("Friend's board")
    if shots:
        yield from d.shot("link-dungeon-start")
    yield from d.press("Start")
    yield from d.expect("link")
    players = 4 if board_map == "dungeon-four-player" else 2
    friend("guest", dict(SPEC, variant="dungeon", map=board_map, players=players))


def _army_asked(d: LinkDriver, seat: str):
    yield from d.until(lambda: d.flow.display.prompt is not None and d.flow.display.prompt.kind ==
                       "link-dungeon-army" and d.flow.display.prompt.title.startswith(seat), f"{seat}'s army",
                       frames=400)


def host_dungeon(d: LinkDriver):
    """Dungeon Chess for four on the 20x20 map, Red and Yellow at the friend's board: the seat's
    list, the start screen, the code, both boards' armies sealed, the game."""
    yield from _dungeon_with_a_friend(d, "dungeon-four-player", (1, 3), shots=True)
    for seat, army in (("Blue", "Human balanced"), ("Green", "Greenskin midrange")):
        yield from _army_asked(d, seat)
        if seat == "Green":
            yield from d.shot("link-dungeon-army")
        yield from d.press(army)
    yield from d.until(lambda: d.flow.display.screen == "setup", "the game agreed", frames=400)
    s = d.flow.game.session
    assert s.setup.board_map == "dungeon-four-player" and len(s.setup.seats) == 4
    yield from d.press("Place every piece for me")
    yield from d.expect("game")
    yield from d.until(lambda: "Linked game" in d.flow.display.banner, "the link's line")
    yield from d.shot("link-dungeon-game")


def host_dungeon_draft(d: LinkDriver):
    """Dungeon Chess for two, Red at the friend's board: Draft beside the presets, Blue's army
    drafted unit by unit on the draft screen and placed by hand, sealed until the friend's is in."""
    yield from _dungeon_with_a_friend(d, "dungeon-two-player", (1,))
    yield from _army_asked(d, "Blue")
    yield from d.shot("link-dungeon-draft-choice")
    yield from d.press("Draft unit by unit, place by hand")
    yield from d.expect("draft")
    yield from d.press("Human balanced")
    yield from d.press_key("remove:knight")
    yield from d.press_key("add:stronghold")
    yield from d.press_key("unit:stronghold")
    yield from d.shot("link-dungeon-draft")
    yield from d.press("Place on the board")
    yield from d.expect("deploy")
    yield from d.deploy_by_taps(4)
    yield from d.shot("link-dungeon-place")
    yield from d.deploy_by_taps()
    yield from d.until(lambda: d.flow.display.screen == "setup", "the game agreed", frames=400)
    s = d.flow.game.session
    assert "SH)" in s.setup.start, s.setup.start  # the Stronghold drafted here
    yield from d.press("Place every piece for me")
    yield from d.expect("game")
    yield from d.until(lambda: "Linked game" in d.flow.display.banner, "the link's line")
    yield from d.shot("link-dungeon-drafted-game")


SCENARIOS = {"host-combat": host_combat, "guest-chess2": guest_chess2, "host-faults": host_faults,
             "host-dungeon": host_dungeon, "host-dungeon-draft": host_dungeon_draft}


def main() -> int:
    import functools

    base.SHOTS.mkdir(parents=True, exist_ok=True)
    board = bootstrap.open_board()
    tracker = functools.partial(bootstrap.default_tracker(), settle_ms=40, slow_settle_ms=80, castle_settle_ms=120)
    flow = bootstrap.build_flow(board, JournalStore(base.DATA), make_tracker=tracker, computer=None,
                                draw_seat=lambda n: CODE_NUMBER % n, make_link_transport=transports)
    return base.run_app(flow, SCENARIOS[base.SCENARIO], LinkDriver)


if __name__ == "__main__":
    sys.exit(main())
