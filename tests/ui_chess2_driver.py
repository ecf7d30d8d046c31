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

One test-only shortcut: ``invasion`` starts from a constructed position (AppFlow.new_game with a
start text, as the KoL and Dungeon scenarios do).
"""

from __future__ import annotations

import functools
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import ui_smoke_driver as base  # noqa: E402  (sets up the window from argv first)
from kivy.core.window import Window  # noqa: E402
from kivy.uix.label import Label  # noqa: E402
from ui_dungeon_driver import DungeonDriver  # noqa: E402

from companion.app import bootstrap  # noqa: E402
from companion.app import texts as T  # noqa: E402
from companion.journal import JournalStore  # noqa: E402
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

    def settle(self, count: int):
        """Until the game has ``count`` moves (the tracker's settle time passes)."""
        for _ in range(100):
            if len(self.flow.session.moves) >= count:
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
    s = d.flow.session
    assert s.rules.armies == ("animals", "classic")
    for frm, to, n in (("b2", "b3", 1), ("a7", "a5", 2), ("e2", "e3", 3), ("a5", "a4", 4)):
        yield from d.move(frm, to)
        yield from d.settle(n)
    # the Elephant rampages a1-a4: its own pawn on a2 and the black pawn on a4
    yield from d.tap("a2")
    yield from d.tap("a4")
    yield from d.tap("a1")
    yield from d.tap("a4")
    yield from d.until(lambda: d.flow.screen == "duel", "the duel offer")
    yield from d.shot("duel-offer")
    yield from d.press("No duel")
    yield from d.expect("game")
    yield from d.settle(5)
    assert s.moves[-1].san == "Ra1xa4" and d.flow.in_sync, d.state()
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
    yield from d.until(lambda: d.flow.screen == "duel", "the duel offer")
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
    s = d.flow.session
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
    assert d.flow.in_sync
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
    s = d.flow.session
    yield from d.move("e2", "e4")
    yield from d.move("d7", "d5")
    yield from d.move("e4", "d5")
    yield from d.until(lambda: d.flow.screen == "duel", "the duel offer")
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
    yield from d.until(lambda: d.flow.screen == "duel", "the duel offer")
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
    s = d.flow.session
    assert s.setup.bids == "stones"
    yield from d.move("e2", "e4")
    yield from d.move("d7", "d5")
    yield from d.move("e4", "d5")
    yield from d.until(lambda: d.flow.screen == "duel", "the duel offer")
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
    yield from d.until(lambda: d.flow.screen == "game_over", "the end")
    assert d.flow.session.result.reason == "Midline Invasion"
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
    assert d.flow.match.current is not None and d.flow.session.rules.armies == ("reaper", "classic")


def match_resume(d: Chess2Driver):
    """The app comes back: game 2 of the match resumed with its score; Player 2 wins it (1-1);
    Player 1 lost and switches; game 3 and the match."""
    yield 0.3
    yield from d.expect("resume")
    yield from d.press("Continue this game")
    yield from d.press("Place every piece for me")
    yield from d.expect("game")
    assert d.flow.match is not None and d.flow.match.score == (1.0, 0.0)
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
    assert d.flow.session.rules.armies == ("two-kings", "reaper")
    yield from d.move("e2", "e4")
    yield from d.lift_and_put_back("d1")
    yield from d.resign("Player 2")
    yield from d.shot("match-over")
    assert d.app.presenters.over.view().match == "Player 1 wins the match 2 \u2013 1."
    yield from d.press("New game")
    yield from d.expect("start")


SCENARIOS = {"animals": animals, "two-kings": two_kings, "duels": duels, "invasion": invasion,
             "match-start": match_start, "match-resume": match_resume}


def main() -> int:
    base.SHOTS.mkdir(parents=True, exist_ok=True)
    board = bootstrap.open_board()
    tracker = functools.partial(bootstrap.default_tracker(), settle_ms=40, slow_settle_ms=80, castle_settle_ms=120)
    flow = bootstrap.build_flow(board, JournalStore(base.DATA), make_tracker=tracker,
                                computer=bootstrap.default_computer(), draw_seat=lambda n: 0)
    return base.run_app(flow, SCENARIOS[base.SCENARIO], Chess2Driver)


if __name__ == "__main__":
    sys.exit(main())
