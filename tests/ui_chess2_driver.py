"""Open the real app and play Chess 2 by taps, as people would; save screenshots.

    python tests/ui_chess2_driver.py SCENARIO SHOT_DIR DATA_DIR [WIDTHxHEIGHT]

The same driver as tests/ui_dungeon_driver.py (widgets found by their text or key, squares of
the on-screen board; it never calls a presenter). After every screenshot it checks the screen:
no text under 12 pixels, no widget outside the window. Scenarios:

* ``animals``: Chess 2 chosen on the start screen, the armies chosen double-blind (Animals
  against Classic), a rampage taking a friend and a foe, a duel declined, a Tiger's pounce, its
  duel won by the attacker with on-screen bids, the stones card, the Elephant's box.
* ``two-kings``: Two Kings against Classic: a king-turn taken, one skipped by lifting a Warrior
  King, one skipped with the button, a Whirlwind guided on the board.
* ``duels``: Classic against Classic with on-screen bids: a duel won by the defender, a bluff
  called; then a game with real stones: an impossible entry refused, a duel entered.
* ``invasion``: a King crossing the midline wins (from a constructed position).
* ``match-start`` / ``match-resume``: a three-game match: game 1, the loser switches army, game 2
  begun; then the app is gone (as after a power cut) and comes back with the match and its
  score; game 2 and 3 finished, the loser switching again, the match won.
* ``vs-computer``: a person against the computer (Black, level 1): the computer's army (Reaper)
  chosen first, in secret; its thinking shown; its move lit and made on the board by the test's
  hands. Then, from a constructed position, the computer captures and the person duels: the
  computer's bid is sealed (on the disk, in the journal) before the person's pad appears, and
  both bids are revealed together.

Test-only shortcuts: ``invasion`` and the second game of ``vs-computer`` start from a constructed
position (AppFlow.new_game with a start text, as the KoL and Dungeon scenarios do). In
``vs-computer`` the real computer (companion.ai, seeded) plays, but its answers are held until
the scenario has looked at its thinking (here a level-1 search takes milliseconds; on the Pi it
takes long enough to be seen), and the computer's draws (its army, its bid's random number) are
fixed numbers instead of the system's randomness.
"""

from __future__ import annotations

import functools
import random
import sys
import threading
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import ui_smoke_driver as base  # noqa: E402  (sets up the window from argv first)
from kivy.core.window import Window  # noqa: E402
from kivy.uix.label import Label  # noqa: E402
from ui_dungeon_driver import DungeonDriver  # noqa: E402

from companion.app import bootstrap  # noqa: E402
from companion.app import texts as T  # noqa: E402
from companion.app.presenters.armies import ARMY_ORDER  # noqa: E402
from companion.app.presenters.flow import RANDOM_STEPS  # noqa: E402
from companion.journal import CURRENT, JournalStore, read_journal  # noqa: E402
from companion.session import Seat  # noqa: E402

FRAME = base.FRAME
MIN_TEXT_PX = 12


def _inside_hidden(widget) -> bool:
    """Inside something transparent or of no size (a hidden row)."""
    node = widget.parent
    while node is not None and node is not node.parent:
        if getattr(node, "opacity", 1) == 0 or (hasattr(node, "height") and (node.height < 2 or node.width < 2)):
            return True
        node = node.parent
    return False


class Chess2Driver(DungeonDriver):
    def shot(self, name: str):
        yield from super().shot(name)
        self.check_screen(name)

    def check_screen(self, name: str) -> None:
        """No text under 12 px, no text cut off by its box, nothing drawn outside the window (the
        touchscreen's rules)."""
        w, h = Window.size
        for widget in self.widgets():
            if widget.opacity == 0 or widget.get_root_window() is None or widget.width <= 1 or widget.height <= 1:
                continue
            if isinstance(widget, Label) and widget.text.strip() and widget.font_size < MIN_TEXT_PX:
                raise AssertionError(f"{name}: text {widget.text[:30]!r} is {widget.font_size:.1f} px")
            x, y = widget.to_window(widget.x, widget.y)
            if x < -1 or y < -1 or x + widget.width > w + 1 or y + widget.height > h + 1:
                if isinstance(widget, Label) and widget.text.strip():
                    raise AssertionError(f"{name}: {type(widget).__name__} {widget.text[:30]!r} lies outside "
                                         f"the window ({x:.0f},{y:.0f} {widget.width:.0f}x{widget.height:.0f})")
            if isinstance(widget, Label) and widget.text.strip() and not _inside_hidden(widget):
                widget.texture_update()
                tw, th = widget.texture_size
                if tw > widget.width + 2 or th > widget.height + 2:  # cut off
                    raise AssertionError(f"{name}: {type(widget).__name__} {widget.text[:30]!r}: text {tw:.0f}x{th:.0f} "
                                         f"in a box {widget.width:.0f}x{widget.height:.0f}")

    def shown(self, text: str) -> bool:
        """Is ``text`` on the screen (a label that can be seen)?"""
        return any(isinstance(w, Label) and w.text == text and w.opacity > 0 and w.height > 1
                   and w.get_root_window() is not None and not _inside_hidden(w) for w in self.widgets())

    def settle(self, count: int):
        """Until the game has ``count`` moves (the tracker's settle time passes)."""
        for _ in range(100):
            if len(self.flow.game.session.moves) >= count:
                break
            yield FRAME
        yield FRAME

    def until(self, test, what: str, frames: int = 200):
        for _ in range(frames):
            if test():
                return
            yield FRAME
        raise AssertionError(f"waited for {what}: {self.state()}")

    def lift_and_put_back(self, square: str):
        yield from self.tap(square)
        yield 0.1
        yield from self.tap(square)
        yield 0.3

    def bid(self, amount: int):
        """A secret bid on the screen: tap it, seal it."""
        yield from self.press_key(f"duel:{amount}")
        yield from self.press("Seal my bid")

    def choose_armies(self, white: str, black: str):
        yield from self.press_key(f"army:{white}")
        yield from self.press("Hide my choice")
        yield from self.press_key(f"army:{black}")
        yield from self.press("Hide my choice")
        yield from self.press("Reveal")

    def resign(self, name: str):
        yield from self.press("Resign")
        yield from self.press(name)
        yield from self.expect("game_over")


def start_chess2(d: Chess2Driver, bids: str = "On screen", games: str = "1 game"):
    yield from d.press("Chess 2")
    yield from d.press(bids)
    yield from d.press(games)


def animals(d: Chess2Driver):
    """Animals against Classic, chosen double-blind; a rampage (friend and foe), a duel declined,
    a pounce whose duel the attacker wins with on-screen bids, the stones."""
    yield from start_chess2(d)
    yield from d.shot("start")
    yield from d.press("Choose the armies")
    yield from d.expect("armies")
    yield from d.shot("armies-choose")
    yield from d.press_key("army:animals")
    yield from d.shot("armies-selected")
    yield from d.press("Hide my choice")
    yield from d.shot("armies-hidden")
    v = d.app.presenters.armies.view()
    assert not any(b.selected for b in v.buttons) and "White's choice is hidden." in v.notes, v
    yield from d.press_key("army:classic")
    yield from d.press("Hide my choice")
    yield from d.press("Reveal")
    yield from d.shot("armies-revealed")
    yield from d.press("Start the game")
    yield from d.expect("setup")
    yield from d.press("Place every piece for me")
    yield from d.expect("game")
    s = d.flow.game.session
    assert s.rules.armies == ("animals", "classic")
    for frm, to, n in (("b2", "b3", 1), ("a7", "a5", 2), ("e2", "e3", 3), ("a5", "a4", 4)):
        yield from d.move(frm, to)
        yield from d.settle(n)
    # the Elephant rampages a1-a4: its own pawn on a2 and the black pawn on a4
    yield from d.tap("a2")
    yield from d.tap("a4")
    yield from d.tap("a1")
    yield from d.tap("a4")
    yield from d.until(lambda: d.flow.display.screen == "duel", "the duel offer")
    yield from d.shot("duel-offer")
    yield from d.press("No duel")
    yield from d.expect("game")
    yield from d.settle(5)
    assert s.moves[-1].san == "Ra1xa4" and d.flow.board.in_sync, d.state()
    yield from d.shot("rampage")
    yield from d.move("e7", "e6")
    yield from d.settle(6)
    yield from d.move("h2", "h3")
    yield from d.settle(7)
    yield from d.move("f8", "a3")
    yield from d.settle(8)
    # the Tiger on c1 pounces on the bishop on a3 and stays home
    yield from d.tap("c1")
    yield from d.tap("a3")
    yield from d.tap("c1")
    yield from d.until(lambda: d.flow.display.screen == "duel", "the duel offer")
    yield from d.press("Duel")
    yield from d.shot("duel-bid")
    yield from d.bid(2)
    yield from d.shot("duel-bid-sealed")
    yield from d.bid(1)
    yield from d.shot("duel-result")
    assert d.app.presenters.duel.view().result[0] == "White bid 2, Black bid 1."
    yield from d.press("Continue")
    yield from d.expect("game")
    yield from d.follow_the_lights()
    assert s.pos.board[s.rules.geometry.parse_square("c1")].kind.title == "Tiger", d.state()
    yield from d.shot("pounce")
    yield from d.press("Stones")
    yield from d.shot("stones")
    yield from d.press("Close")
    # Piece info on the Elephant (now on a4): its 5x5 box marked on the screen's board
    yield from d.press(T.PIECE_INFO)
    yield from d.tap("a4")
    yield from d.press("Close")
    assert sum(sq.zone for sq in d.app.presenters.board.view().squares) == 15, d.state()
    yield from d.shot("elephant-box")


def two_kings(d: Chess2Driver):
    """Two Kings against Classic: a king-turn taken, one skipped by lifting a Warrior King, one
    skipped with the button, and a Whirlwind."""
    yield from start_chess2(d)
    yield from d.press("Choose the armies")
    yield from d.choose_armies("two-kings", "classic")
    yield from d.press("Start the game")
    yield from d.press("Place every piece for me")
    yield from d.expect("game")
    s = d.flow.game.session
    yield from d.move("e2", "e4")
    yield from d.until(lambda: s.pos.pending is not None and s.pos.pending.kind == "king-turn", "the king-turn")
    yield from d.shot("king-turn")
    yield from d.move("e1", "e2")  # the king-turn taken
    yield from d.settle(1)
    assert s.moves[-1].san == "e4, Ke2" and s.turn == 1, d.state()
    yield from d.move("e7", "e5")
    yield from d.settle(2)
    yield from d.move("g1", "f3")
    yield from d.until(lambda: s.pos.pending is not None, "the king-turn")
    yield from d.lift_and_put_back("d1")  # skipped by lifting a Warrior King
    yield from d.until(lambda: s.turn == 1 and s.pos.pending is None, "the skip")
    yield from d.move("b8", "c6")
    yield from d.settle(4)
    yield from d.move("b1", "c3")
    yield from d.until(lambda: s.pos.pending is not None, "the king-turn")
    yield from d.move("e2", "e3")  # the king-turn: a Warrior King steps up
    yield from d.until(lambda: s.turn == 1, "the king-turn move")
    yield from d.move("c6", "d4")
    yield from d.settle(6)
    # the Whirlwind: the King on e3 lifted, the knight on d4 taken off, the King put back
    yield from d.tap("e3")
    yield from d.tap("d4")
    yield from d.tap("e3")
    yield from d.settle(7)
    assert s.moves[-1].san == "Ke3 whirl", d.state()
    yield from d.shot("whirlwind")
    yield from d.follow_the_lights()
    assert d.flow.board.in_sync
    yield from d.press("Skip king-turn")
    yield from d.until(lambda: s.turn == 1, "the skip")
    yield from d.shot("after-whirlwind")


def duels(d: Chess2Driver):
    """On-screen bids: a duel won by the defender, a bluff called; then real stones entered."""
    yield from start_chess2(d)
    yield from d.press("Choose the armies")
    yield from d.choose_armies("classic", "classic")
    yield from d.press("Start the game")
    yield from d.press("Place every piece for me")
    s = d.flow.game.session
    yield from d.move("e2", "e4")
    yield from d.move("d7", "d5")
    yield from d.move("e4", "d5")
    yield from d.until(lambda: d.flow.display.screen == "duel", "the duel offer")
    yield from d.press("Duel")
    yield from d.bid(1)
    yield from d.bid(2)
    yield from d.shot("duel-defender-wins")
    assert d.app.presenters.duel.view().result[1].startswith("Black wins the duel"), d.state()
    yield from d.press("Continue")
    yield from d.expect("game")
    yield from d.shot("duel-lost-guidance")
    yield from d.follow_the_lights()
    yield from d.move("d8", "d2")  # Qxd2+: White may duel, paying 1 (the queen outranks the pawn)
    yield from d.until(lambda: d.flow.display.screen == "duel", "the duel offer")
    yield from d.press("Duel (pay 1)")
    yield from d.bid(0)
    yield from d.bid(0)
    yield from d.shot("bluff-called")
    yield from d.press("Gain a stone")
    yield from d.shot("bluff-result")
    yield from d.press("Continue")
    yield from d.expect("game")
    yield from d.follow_the_lights()
    # a new game with real stones
    yield from d.press("Menu")
    yield from d.press("New game")
    yield from d.press("Yes, new game")
    yield from d.expect("start")
    yield from start_chess2(d, bids="Real stones")
    yield from d.press("Choose the armies")
    yield from d.choose_armies("classic", "classic")
    yield from d.press("Start the game")
    yield from d.press("Place every piece for me")
    s = d.flow.game.session
    assert s.setup.bids == "stones"
    yield from d.move("e2", "e4")
    yield from d.move("d7", "d5")
    yield from d.move("e4", "d5")
    yield from d.until(lambda: d.flow.display.screen == "duel", "the duel offer")
    yield from d.press("Duel")
    yield from d.shot("stones-entry")
    yield from d.press_key("fist:0:2")
    yield from d.press_key("fist:1:2")
    yield from d.press("Use these bids")
    yield from d.shot("stones-result")
    assert d.app.presenters.duel.view().result[0] == "White bid 2, Black bid 2.", d.state()
    yield from d.press("Continue")
    yield from d.follow_the_lights()


def invasion(d: Chess2Driver):
    """A King crosses the midline and wins."""
    d.flow.new_game("chess2", (Seat("Ann"), Seat("Ben")), start="4k3/8/8/8/8/3K4/8/8 w - - 0 1 armies=classic,classic",
                    options={"armies": "classic,classic"})
    yield from d.expect("setup")
    yield from d.press("Place every piece for me")
    yield from d.expect("game")
    yield from d.move("d3", "d4")
    yield from d.move("e8", "d8")
    yield from d.move("d4", "d5")
    yield from d.until(lambda: d.flow.display.screen == "game_over", "the end")
    assert d.flow.game.session.result.reason == "Midline Invasion"
    yield from d.shot("invasion")


def match_start(d: Chess2Driver):
    """A three-game match: game 1 (Black resigns), the loser switches army, game 2 begun; then
    the app is gone as after a power cut."""
    yield from d.press("White")  # the seats' names: Ann and Ben
    yield from d.press("Player 1")
    yield from d.press("Black")
    yield from d.press("Player 2")
    yield from start_chess2(d, games="Best of 3")
    yield from d.press("Choose the armies")
    yield from d.expect("armies")
    yield from d.choose_armies("classic", "animals")
    yield from d.press("Start the game")
    yield from d.press("Place every piece for me")
    yield from d.move("e2", "e4")
    yield from d.resign("Player 2")
    yield from d.shot("match-game-over")
    yield from d.press("Next game")
    yield from d.expect("armies")
    yield from d.shot("match-loser-switches")
    v = d.app.presenters.armies.view()
    assert v.ask == "Player 2 (White): choose your army." and v.score == "Match: Player 1 1 \u2013 0 Player 2", v
    yield from d.press_key("army:reaper")
    yield from d.press("Start the game")
    yield from d.expect("setup")
    yield from d.press("Place every piece for me")
    yield from d.move("e2", "e4")
    assert d.flow.matches.match.current is not None and d.flow.game.session.rules.armies == ("reaper", "classic")


def match_resume(d: Chess2Driver):
    """The app comes back: game 2 of the match resumed with its score; Player 2 wins it (1-1);
    Player 1 lost and switches; game 3 and the match."""
    yield 0.3
    yield from d.expect("resume")
    yield from d.press("Continue this game")
    yield from d.press("Place every piece for me")
    yield from d.expect("game")
    assert d.flow.matches.match is not None and d.flow.matches.match.score == (1.0, 0.0)
    yield from d.move("e7", "e5")
    yield from d.resign("Player 1")
    assert d.app.presenters.over.view().match == "Match: Player 1 1 \u2013 1 Player 2"
    yield from d.press("Next game")
    yield from d.expect("armies")
    v = d.app.presenters.armies.view()
    assert "Player 2 won the last game and keeps Reaper." in v.notes and v.ask.startswith("Player 1 (White)")
    yield from d.press_key("army:two-kings")
    yield from d.press("Start the game")
    yield from d.press("Place every piece for me")
    assert d.flow.game.session.rules.armies == ("two-kings", "reaper")
    yield from d.move("e2", "e4")
    yield from d.lift_and_put_back("d1")
    yield from d.resign("Player 2")
    yield from d.shot("match-over")
    assert d.app.presenters.over.view().match == "Player 1 wins the match 2 \u2013 1."
    yield from d.press("New game")
    yield from d.expect("start")


class HeldComputer:
    """The real computer player whose answers wait until the scenario lets each one through
    (``release``), so that the screen can be looked at while it thinks. Its move comes from
    companion.ai's search in its worker, as in the app; its secret bid is fixed in the flow's
    worker, which waits here."""

    def __init__(self, real) -> None:
        self.real = real
        self.moves: list = []  # answers found, not yet let through
        self.parts: list = []  # bids found, not yet let through
        self._bid_gate = threading.Event()

    def __getattr__(self, name):
        return getattr(self.real, name)

    def start(self, rules, pos, level, on_progress, on_done) -> None:
        self.real.start(rules, pos, level, on_progress, lambda move: self.moves.append((on_done, move)))

    def choose_part(self, rules, pos, seat, level, u):
        part = self.real.choose_part(rules, pos, seat, level, u)
        self.parts.append(part)
        self._bid_gate.wait(60)
        self._bid_gate.clear()
        return part

    def release(self, seconds: float = 60.0):
        """Let the computer's next answer (a move or a bid) through, once it has one."""
        waited = 0.0
        while not self.moves and not self.parts:
            assert waited < seconds, "the computer found nothing"
            yield FRAME
            waited += FRAME
        if self.moves:
            on_done, move = self.moves.pop(0)
            on_done(move)
        else:
            self.parts.pop(0)
            self._bid_gate.set()
        yield FRAME


#: the computer's draws in ``vs-computer``: its army (Reaper), then its bid's random number
def _computer_draws(n: int) -> int:
    return ARMY_ORDER.index("reaper") if n == len(ARMY_ORDER) else n * 3 // 4  # n: RANDOM_STEPS


def vs_computer(d: Chess2Driver):
    """A person (White) against the computer (Black, level 1)."""
    computer = d.flow.ai.computer
    yield from start_chess2(d)
    yield from d.choose_computer(1)  # Black
    yield from d.press("Choose the armies")
    yield from d.expect("armies")
    # the computer has chosen first, in secret: nothing on the screen tells its army
    v = d.app.presenters.armies.view()
    assert "Computer has chosen in secret." in v.notes and not v.revealed, v
    assert d.flow.matches.army_choice.chosen == {1: "reaper"} and not any(b.selected for b in v.buttons), v
    yield from d.press_key("army:classic")
    yield from d.shot("computer-armies")
    yield from d.press("Hide my choice")
    yield from d.press("Reveal")
    assert d.app.presenters.armies.view().revealed == "White (Classic) against Computer (Reaper).", d.state()
    yield from d.shot("computer-armies-revealed")
    yield from d.press("Start the game")
    yield from d.press("Place every piece for me")
    yield from d.expect("game")
    s = d.flow.game.session
    g = s.rules.geometry
    assert s.rules.armies == ("classic", "reaper") and s.seats[1].computer
    yield from d.move("e2", "e4")
    yield from d.until(lambda: d.flow.ai.thinking is not None, "the computer to think")
    yield from d.until(lambda: d.shown(T.THINKING.format(name="Computer")), "the thinking indicator")
    assert d.flow.ai.requested is None
    yield from d.shot("computer-thinking")
    yield from computer.release()
    yield from d.wait_for_computer()
    move = d.flow.ai.requested
    yield from d.wait_lit(move.frm, move.to)
    assert not d.shown(T.THINKING.format(name="Computer"))
    yield from d.shot("computer-move")
    yield from d.move(g.name_of(move.frm), g.name_of(move.to))  # the test's hands make it
    if d.flow.display.screen == "duel":  # (a Reaper may take a piece at once: no duel here)
        yield from d.press("No duel")
    yield from d.settle(2)
    last = s.moves[-1]
    assert (last.player, last.frm, last.to) == (1, move.frm, move.to), d.state()
    assert d.flow.ai.requested is None and d.flow.board.in_sync, d.state()
    # a second game, from a constructed position: the computer's only move takes a pawn
    seats = s.seats
    yield from d.press("Menu")
    yield from d.press("New game")
    yield from d.press("Yes, new game")
    d.flow.new_game("chess2", seats, start="7k/4N2p/6PP/8/8/8/8/K7 b - - 0 1 armies=classic,reaper",
                    options={"armies": "classic,reaper"})
    yield from d.expect("setup")
    yield from d.press("Place every piece for me")
    yield from d.expect("game")
    s = d.flow.game.session
    yield from computer.release()
    yield from d.wait_for_computer()
    move = d.flow.ai.requested
    assert (g.name_of(move.frm), g.name_of(move.to)) == ("h7", "g6"), d.state()
    yield from d.move("h7", "g6")  # the test's hands: the white pawn off, the black pawn over
    yield from d.until(lambda: d.flow.display.screen == "duel", "the duel offer")
    yield from d.press("Duel")
    # the computer fixes its bid first; the person's pad waits for it
    yield from d.until(lambda: d.flow.ai.thinking is not None and d.flow.ai.thinking.part, "the computer's bid")
    yield from d.until(lambda: d.shown(T.THINKING_BID.format(name="Computer")), "the bid indicator")
    pads = [w for w in d.widgets() if str(getattr(w, "key", "") or "").startswith("duel:") and w.opacity > 0]
    assert not pads, d.state()
    journal = base.DATA / CURRENT
    assert read_journal(journal).entries[-1] == {"type": "answer", "answer": "duel"}
    bidding = s.pos.copy()
    yield from d.shot("computer-bidding")
    yield from computer.release()
    yield from d.until(lambda: d.flow.ai.thinking is None and 1 not in s.parts_missing(), "the computer's sealed bid")
    sealed = read_journal(journal).entries[-1]
    assert sealed["type"] == "part" and sealed["player"] == 1, sealed
    # drawn from its bid game's equilibrium with the flow's random number (the engine's computer_part)
    u = _computer_draws(RANDOM_STEPS) / RANDOM_STEPS
    assert sealed["part"] == str(computer.real.choose_part(s.rules, bidding, 1, 1, u)), sealed
    v = d.app.presenters.duel.view()
    assert v.phase == "bid" and v.ask.startswith("Computer has bid in secret. White (defender)"), v
    assert v.attacker.bid == "" and v.attacker.sealed, v
    yield from d.shot("computer-bid-sealed")
    yield from d.bid(2)
    v = d.app.presenters.duel.view()
    assert v.phase == "result" and v.result[0] == f"Computer bid {sealed['part']}, White bid 2.", v
    yield from d.shot("computer-duel-result")
    yield from d.press("Continue")
    yield from d.expect("game")
    yield from d.follow_the_lights()


SCENARIOS = {"animals": animals, "two-kings": two_kings, "duels": duels, "invasion": invasion,
             "match-start": match_start, "match-resume": match_resume, "vs-computer": vs_computer}


def main() -> int:
    base.SHOTS.mkdir(parents=True, exist_ok=True)
    board = bootstrap.open_board()
    tracker = functools.partial(bootstrap.default_tracker(), settle_ms=40, slow_settle_ms=80, castle_settle_ms=120)
    computer, draw = bootstrap.default_computer(), lambda n: 0
    if base.SCENARIO == "vs-computer":
        from companion.ai import levels, worker
        from companion.app.computer import SearchComputer

        computer, draw = HeldComputer(SearchComputer(levels, worker, rng=random.Random(21))), _computer_draws
    flow = bootstrap.build_flow(board, JournalStore(base.DATA), make_tracker=tracker, computer=computer,
                                draw_seat=draw)
    return base.run_app(flow, SCENARIOS[base.SCENARIO], Chess2Driver)


if __name__ == "__main__":
    sys.exit(main())
