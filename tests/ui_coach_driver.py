"""Open the real app and use the coach by taps, as people would; save screenshots.

    python tests/ui_coach_driver.py SCENARIO SHOT_DIR DATA_DIR [WIDTHxHEIGHT]

The same driver as tests/ui_dungeon_driver.py (widgets found by their text or key, squares of
the on-screen board; it never calls a presenter). After every screenshot the layout is checked
(tests/ui_layout.py: no text under 12 px, nothing outside the window or cut off). Scenario:

* ``coach``: a chess game between two people; White turns the coach on (the Menu), asks for a hint (the
  real search on its worker, a few seconds: its progress shown, then the move lit on the board);
  1.e4 d5 2.Qg4?? -- the coach says the move drops material, and "Undo it" takes it back in one
  tap; the pawn on e4, now attacked and undefended, is lit as a threat.
* ``coach-dungeon``, ``coach-kol``, ``coach-chess4``: the same row on the map screen (Dungeon
  Chess on the 10x10 map, KoL Chess on its 12x12 board, four-player chess with four people), from a constructed start (the test's shortcut: AppFlow.new_game
  with a start text) where the player to move has a unit hanging: the coach turned on (the
  Menu) lights it and says so, a hint is searched and lit, a move that leaves the unit hanging
  is said ("That move drops material ... Better was ...") and "Undo it" takes it back.
"""

from __future__ import annotations

import functools
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import ui_smoke_driver as base  # noqa: E402  (sets up the window from argv first)
from ui_dungeon_driver import DungeonDriver  # noqa: E402

from companion.app import bootstrap  # noqa: E402
from companion.app import texts as T  # noqa: E402
from companion.board.palette import Meaning  # noqa: E402
from companion.journal import JournalStore  # noqa: E402
from companion.session import Seat  # noqa: E402

FRAME = base.FRAME


class CoachDriver(DungeonDriver):
    def until(self, done, what: str, seconds: float = 20.0):
        for _ in range(int(seconds / FRAME)):
            if done():
                return
            yield FRAME
        raise AssertionError(f"{what}: {self.state()} coach failure={self.flow.coach.failure!r}")


def coach(d: CoachDriver):
    d.flow.new_game("chess", (Seat("Ann"), Seat("Bob")))
    yield from d.expect("setup")
    yield from d.press("Place every piece for me")
    yield from d.expect("game")
    c = d.flow.coach
    yield from d.press("Menu")
    yield from d.shot("coach-menu")
    yield from d.press(T.COACH_MENU)
    assert c.coached == {0}, d.state()
    yield from d.press(T.HINT)
    yield from d.until(lambda: c.hinting is not None and c.hinting.progress > 0.2, "the hint's progress")
    yield from d.shot("coach-thinking")
    yield from d.until(lambda: c.hint is not None, "the hint")
    lit = d.flow.board.coach_lights
    assert lit[c.hint.frm] == Meaning.HINT_FROM and lit[c.hint.to] == Meaning.HINT_TO, d.state()
    yield from d.shot("coach-hint")
    yield from d.move("e2", "e4")
    yield from d.move("d7", "d5")
    yield from d.move("d1", "g4")
    yield from d.until(lambda: c.offer_undo, "the word after 2.Qg4??")
    yield from d.shot("coach-blunder")
    yield from d.press(T.UNDO_IT)
    yield from d.until(lambda: len(d.flow.game.session.moves) == 2 and c.threats, "the move taken back")
    assert [t.square for t in c.threats] == [d.flow.game.session.rules.geometry.parse_square("e4")], d.state()
    yield from d.shot("coach-threat")


def review(d: CoachDriver):
    """1.e4 d5 2.Qg4?? Bxg4, White resigns; the game reviewed from the games list and analysed
    (our search here, half a second a move: the test's shortcut, so it does not wait for
    Stockfish): the progress, then the blunder marked, its best alternative lit, the graph."""
    from companion.ai.analysis import SearchAnalyser

    d.flow.analysis.make_analyser = SearchAnalyser
    d.flow.new_game("chess", (Seat("White"), Seat("Black")))
    yield from d.expect("setup")
    yield from d.press("Place every piece for me")
    yield from d.expect("game")
    for frm, to in (("e2", "e4"), ("d7", "d5"), ("d1", "g4"), ("c8", "g4")):
        yield from d.move(frm, to)
    yield from d.press("Resign")
    yield from d.press("White")
    yield from d.expect("game_over")
    yield from d.press("New game")
    yield from d.expect("start")
    yield from d.press_key("games")
    yield from d.until(lambda: d.app.presenters.games.view().rows, "the games list")
    yield from d.press_key("game:0")
    yield from d.press_key("review")
    yield from d.expect("review")
    yield from d.press_key("review-analyse")
    yield from d.until(lambda: d.flow.analysis.analysis.done >= 1, "the first move analysed")
    yield from d.shot("review-analysing")
    yield from d.until(lambda: d.flow.analysis.analysis.finished, "the analysis")
    yield from d.press_key("review-back")  # to 2.Qg4??
    view = d.app.presenters.review.view().analysis
    assert view.kind == "blunder" and d.flow.board.coach_lights, d.state()
    yield from d.shot("review-analysed")


def coached_map(d: CoachDriver, game: str, start: str, blunder: tuple[str, str], board_map: str | None = None,
                seats: tuple = (Seat("Ann"), Seat("Bob"))):
    name = game
    d.flow.new_game(game, seats, start=start, **({"board_map": board_map} if board_map else {}))
    yield from d.expect("setup")
    yield from d.press("Place every piece for me")
    yield from d.expect("game")
    assert d.flow.view_screen == "dungeon_game", d.state()
    c = d.flow.coach
    yield from d.press("Menu")
    yield from d.press(T.COACH_MENU)
    assert c.coached == {0}, d.state()
    yield from d.until(lambda: c.threats, "the hanging unit")
    yield from d.shot(f"{name}-threat")
    yield from d.press(T.HINT)
    # a small position can be searched to its end before the progress is seen: then no "thinking" shot
    yield from d.until(lambda: (c.hinting is not None and c.hinting.progress > 0.2) or c.hint is not None,
                       "the hint's progress")
    if c.hint is None:
        yield from d.shot(f"{name}-thinking")
    yield from d.until(lambda: c.hint is not None, "the hint")
    lit = d.flow.board.coach_lights
    assert lit[c.hint.frm] == Meaning.HINT_FROM and lit[c.hint.to] == Meaning.HINT_TO, d.state()
    yield from d.shot(f"{name}-hint")
    yield from d.move(*blunder)
    yield from d.until(lambda: c.offer_undo, f"the word after {blunder}")
    yield from d.shot(f"{name}-blunder")
    yield from d.press(T.UNDO_IT)
    yield from d.until(lambda: not d.flow.game.session.moves and c.threats, "the move taken back")
    yield from d.follow_the_lights()  # the unit put back where it was
    yield from d.press(T.COACH)  # the row's switch: the coach off, its row gone
    yield from d.until(lambda: not c.coached and not d.flow.board.coach_lights, "the coach off")
    yield from d.shot(f"{name}-off")


def coach_dungeon(d: CoachDriver):
    """A Knight on b5 hangs to Bob's Knight; Ann's Prince steps e1-f1 instead of saving it."""
    yield from coached_map(d, "dungeon", DUNGEON_HANGING, ("e1", "f1"), "dungeon-compact")


def coach_kol(d: CoachDriver):
    """Ann's Tower on e5 faces Bob's Tower on e8; Ann's King steps c2-d2 instead."""
    from companion.games import make_rules
    from kol_board import position

    yield from coached_map(d, "kol", make_rules("kol").position_text(position({"e5": "T", "e8": "t"})), ("c2", "d2"))


def coach_chess4(d: CoachDriver):
    """Four-player chess (free-for-all, four people): Red's Rook on d5 hangs to Blue's Rook on
    a5 (Blue moves next); Red's King steps h1-g1 instead of taking it: the coach says the move
    drops material and "Undo it" takes it back in one tap."""
    from chess4_helpers import position

    r, pos = position({"d5": "1R", "a5": "2R"})
    seats = tuple(Seat(n) for n in ("Red", "Blue", "Yellow", "Green"))
    yield from coached_map(d, "chess4", r.position_text(pos), ("h1", "g1"), seats=seats)


def coach_four(d: CoachDriver):
    """Four players on the 20x20 map (the side panel's fullest: four chips in two rows): Blue
    turns the coach on and asks for a hint; the row and its words fit beside the map."""
    from dungeon_board import position, rules
    from dungeon_board_games import QUICK_FOUR_PIECES

    r = rules("dungeon-four-player")
    seats = tuple(Seat(n) for n in ("Blue", "Red", "Green", "Yellow"))
    d.flow.new_game("dungeon", seats, start=r.position_text(position(r, QUICK_FOUR_PIECES, 0)),
                    board_map="dungeon-four-player")
    yield from d.expect("setup")
    yield from d.press("Place every piece for me")
    yield from d.expect("game")
    c = d.flow.coach
    yield from d.press("Menu")
    yield from d.press(T.COACH_MENU)
    assert c.coached == {0}, d.state()
    yield from d.press(T.HINT)
    yield from d.until(lambda: c.hint is not None, "the hint")
    yield from d.shot("four-hint")


#: Dungeon Chess on the 10x10 map: Bob's Knight on e7 takes Ann's Knight on b5 for free
DUNGEON_HANGING = "7(2RD)2/10/10/2(2KN)7/10/1(1KN)8/10/10/10/4(1PR)5 1"

SCENARIOS = {"coach": coach, "review": review, "coach-dungeon": coach_dungeon, "coach-kol": coach_kol, "coach-chess4": coach_chess4,
             "coach-four": coach_four}


def main() -> int:
    base.SHOTS.mkdir(parents=True, exist_ok=True)
    board = bootstrap.open_board()
    tracker = functools.partial(bootstrap.default_tracker(), settle_ms=40, slow_settle_ms=80, castle_settle_ms=120)
    flow = bootstrap.build_flow(board, JournalStore(base.DATA), make_tracker=tracker,
                                computer=bootstrap.default_computer())
    return base.run_app(flow, SCENARIOS[base.SCENARIO], CoachDriver)


if __name__ == "__main__":
    sys.exit(main())
