"""Open the real app and play four-player chess and games with dice fights by taps; save
screenshots.

    python tests/ui_fights_driver.py SCENARIO SHOT_DIR DATA_DIR [WIDTHxHEIGHT]

The same driver as tests/ui_dungeon_driver.py (widgets found by their text or key, squares of
the on-screen board; it never calls a presenter). Scenarios:

* ``start``: the start screen's "Dice fights" switch on Dungeon Chess and KoL Chess, four-player
  chess with its four seats (one played by the computer) and teams, then a four-player game
  begun from the start screen: its board set up, moves by taps, the computer's move made.
* ``chess4-points``: a free-for-all game with points and Blue's army dead (grey) on the 14x14
  board: a capture that scores, then resignations until three players are out (game over,
  everyone's points).
* ``dungeon-fight``: Dungeon Chess with dice fights and real dice: the lifted Knight's odds on
  the board, the fight screen with the number pad, the dice typed, the result, the fatigue on
  the board and the fight's result in the side panel.
* ``kol-fight``: KoL Chess with dice fights and the app's dice (checkable, so the rolls are the
  same every run): Boris's double capture, one fight against both pawns (their dice summed),
  rolled, and the result.

Test-only shortcuts: ``chess4-points``, ``dungeon-fight`` and ``kol-fight`` start from a
constructed position (AppFlow.new_game with a start text, as the Dungeon Chess four-player
scenario does), so the screens come within a few moves.
"""

from __future__ import annotations

import functools
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import ui_smoke_driver as base  # noqa: E402  (sets up the window from argv first)
from ui_dungeon_driver import DungeonDriver  # noqa: E402

from companion.app import bootstrap  # noqa: E402
from companion.journal import JournalStore  # noqa: E402
from companion.session import Seat  # noqa: E402
from test_chess4_fights_app import chess4_position, dungeon_fight_start  # noqa: E402

FRAME = base.FRAME
FIGHTS = {"fights": "dice"}


class FightsDriver(DungeonDriver):
    def settle(self, moves: int):
        """Until the game has ``moves`` moves (the tracker's settle time passes)."""
        for _ in range(150):
            if len(self.flow.game.session.moves) >= moves and self.flow.game.session.pos.pending is None:
                break
            yield FRAME
        yield FRAME

    def shot_entering(self, faces: list[int]):
        """Real dice typed on the number pad (a screenshot half way), then used."""
        for i, face in enumerate(faces):
            yield from self.press(str(face))
            if i == 0:
                yield from self.shot("dungeon-fight-entry")
        yield from self.press("Use these dice")

    def wait_for(self, test, what: str, frames: int = 200):
        for _ in range(frames):
            if test():
                return
            yield FRAME
        raise AssertionError(f"{what}: {self.state()}")


def start_screen(d: FightsDriver):
    """The switch and the game's own choices on the start screen; a four-player game begun."""
    yield from d.expect("start")
    yield from d.press("Dungeon Chess")
    yield from d.press_key("fights")
    assert d.app.presenters.start.view().has_dice, d.state()
    yield from d.press("Real dice")
    yield from d.shot("start-dungeon-fights")
    yield from d.press("KoL Chess")
    yield from d.press_key("fights")
    yield from d.shot("start-kol-fights")
    yield from d.press("Four-player chess")
    yield from d.press_key("mode=teams")
    yield from d.choose_computer(1)
    yield from d.shot("start-chess4")
    yield from d.press("Start")
    yield from d.expect("setup")
    s = d.flow.game.session
    assert (s.setup.game, s.setup.option_values, len(s.seats), s.seats[1].computer) == \
        ("chess4", {"mode": "teams"}, 4, True), s.setup
    assert d.flow.board.link.width == 14 and d.flow.game.table.clock is None  # no clock for four players
    yield from d.shot("chess4-setup")
    yield from d.press("Place every piece for me")
    yield from d.expect("game")
    yield from d.move("h2", "h4")  # Red; then Blue, the computer, is lit to be made by hand
    yield from d.wait_for_computer(30)
    request = d.flow.ai.requested
    g = s.rules.geometry
    yield from d.shot("chess4-computer-move")
    yield from d.move(g.name_of(request.frm), g.name_of(request.to))
    yield from d.settle(2)
    assert len(s.moves) == 2 and s.moves[1].player == 1, d.state()


def chess4_points(d: FightsDriver):
    """Points on the players' rows, Blue's army grey; a capture scores; three players out."""
    seats = tuple(Seat(n) for n in ("Ann", "Ben", "Cy", "Di"))
    d.flow.new_game("chess4", seats, start=chess4_position())
    yield from d.expect("setup")
    yield from d.press("Place every piece for me")
    yield from d.expect("game")
    s = d.flow.game.session
    before = s.pos.var("points")
    capture = next(m for m in s.rules.legal_moves(s.pos)
                   if m.capture is not None and s.pos.board[m.capture].owner not in (s.pos.var("out") or ()))
    g = s.rules.geometry
    yield from d.move(g.name_of(capture.frm), g.name_of(capture.to))
    yield from d.settle(len(s.moves))
    assert s.pos.var("points")[0] > before[0], (before, s.pos.var("points"))
    view = d.app.presenters.dungeon.view()
    assert "pts" in view.players[0].detail and "out" in view.players[1].detail and "scores" in view.effects, view
    yield from d.shot("chess4-points")
    for _ in range(2):  # Blue is out already: the next two resign, three players are out
        assert not s.is_over, d.state()
        name = s.seats[s.turn].name
        yield from d.press("Resign")
        yield from d.press(name)  # who resigns (the player to move)
        yield from d.wait_for(lambda: d.flow.display.prompt is None, "the resignation was not taken")
    assert s.is_over and s.result.reason == "three players out", s.result
    yield from d.wait_for(lambda: d.flow.display.screen == "game_over", "no game-over screen")
    assert d.app.presenters.over.view().points.startswith("Points: "), d.app.presenters.over.view()
    yield from d.shot("chess4-over")


def dungeon_fight(d: FightsDriver):
    """Real dice typed for a Dungeon fight: the odds on the lifted Knight, the number pad, the
    result, the fatigue token on the board."""
    start = dungeon_fight_start()
    seats = (Seat("Blue"), Seat("Red"))
    d.flow.new_game("dungeon", seats, "entered", start=start, board_map="dungeon-compact", options=FIGHTS)
    yield from d.expect("setup")
    yield from d.press("Place every piece for me")
    yield from d.expect("game")
    yield from d.tap("b3")  # the Knight lifted: the chance of each fight it could start
    c5 = d.geometry().parse_square("c5")
    yield from d.wait_for(lambda: d.app.presenters.board.view().squares[c5].odds,
                          "no odds on the Iron Golem")
    yield from d.shot("dungeon-odds")
    yield from d.tap("b3")  # put back
    yield from d.move("b3", "c5")
    yield from d.wait_for(lambda: d.flow.display.screen == "fight", "no fight screen")
    yield from d.shot("dungeon-fight")
    view = d.app.presenters.fight.view()
    assert view.attacker.name == "Blue Knight" and view.defenders[0].name == "Red Iron Golem", view
    info = d.flow.play.fight.info
    yield from d.shot_entering([6] * info.attacker.dice.count + [1] * sum(f.dice.count for f in info.defenders))
    yield from d.shot("dungeon-fight-result")
    yield from d.press("Continue")
    yield from d.settle_board()
    s = d.flow.game.session
    assert s.moves[-1].fight == "attacker" and "fight won" in d.app.presenters.dungeon.view().last_turn, d.state()
    yield from d.shot("dungeon-after-fight")


#: tests/ui_kol_driver.py's position (Boris on e1 facing two Orange Knob Goblins on e4 and e5),
#: with Sneaky Pete on a1: Blue keeps a Legend if Boris loses his fight.
KOL_FIGHT = "9k1j/4(1KG)7/12/12/(2VG)11/12/12/4(2KG)7/4(2KG)7/12/12/(1SP)3BKT5 1"


def kol_fight(d: FightsDriver):
    """Boris's double capture with the app's dice: one fight against both pawns, rolled."""
    seats = (Seat("Blue"), Seat("Orange"))
    d.flow.new_game("kol", seats, "seeded", start=KOL_FIGHT, options=FIGHTS)
    yield from d.expect("setup")
    yield from d.press("Place every piece for me")
    yield from d.expect("game")
    yield from d.tap("e4")
    yield from d.tap("e5")
    yield from d.tap("e1")
    yield from d.tap("e5")  # both pawns off, Boris on the farther: a fight against both
    yield from d.wait_for(lambda: d.flow.display.screen == "fight", "no fight screen")
    view = d.app.presenters.fight.view()
    assert len(view.defenders) == 2 and view.attacker.name == "Blue Boris", view
    yield from d.shot("kol-fight")
    yield from d.roll_until_decided()
    yield from d.shot("kol-fight-result")
    yield from d.press("Continue")
    yield from d.settle_board()
    s = d.flow.game.session
    assert s.moves[-1].fight in ("attacker", "defender") and not s.is_over, d.state()
    yield from d.shot("kol-after-fight")


SCENARIOS = {"start": start_screen, "chess4-points": chess4_points, "dungeon-fight": dungeon_fight,
             "kol-fight": kol_fight}


def main() -> int:
    base.SHOTS.mkdir(parents=True, exist_ok=True)
    board = bootstrap.open_board()
    tracker = functools.partial(bootstrap.default_tracker(), settle_ms=40, slow_settle_ms=80, castle_settle_ms=120)
    seeds = iter(range(1, 1000))
    flow = bootstrap.build_flow(board, JournalStore(base.DATA), make_tracker=tracker,
                                computer=bootstrap.default_computer(), seed=lambda: bytes([next(seeds)]) * 32)
    return base.run_app(flow, SCENARIOS[base.SCENARIO], FightsDriver)


if __name__ == "__main__":
    sys.exit(main())
