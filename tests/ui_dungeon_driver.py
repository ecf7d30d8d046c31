"""Open the real app and play Dungeon Chess by taps, as people would; save screenshots.

    python tests/ui_dungeon_driver.py SCENARIO SHOT_DIR DATA_DIR [WIDTHxHEIGHT]

The same driver as tests/ui_smoke_driver.py (its Driver touches widgets found by their text or
key and squares of the on-screen board; it never calls a presenter), with the Dungeon Chess
steps: the start screen's map, the draft, the turn order, the deployment, effects guided on
the board, the Salamander's step, a hex and a forced pass. One test-only shortcut: the
"four-player" scenario starts the game from a constructed position (AppFlow.new_game with a
start text, the call the deployment ends with), so that a whole four-player game on the 20x20
map, with every effect, two eliminations and the last King standing, takes 15 turns. The
random turn order draws seat 2 (``draw_seat``), so runs are repeatable.
"""

from __future__ import annotations

import functools
import re
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import ui_smoke_driver as base  # noqa: E402  (sets up the window from argv first)
from kivy.tests.common import UnitTestTouch  # noqa: E402

from companion.app import bootstrap  # noqa: E402
from companion.journal import JournalStore  # noqa: E402
from companion.session import Seat  # noqa: E402

FRAME = base.FRAME


class DungeonDriver(base.Driver):
    def geometry(self):
        f = self.flow
        if f.game.session is not None:
            return f.game.session.rules.geometry
        if f.dungeon.prep is not None:
            return f.dungeon.prep.rules.geometry
        from companion.core.geometry import Geometry

        return Geometry(f.board.link.width, f.board.link.height)  # no game yet (a position set up by hand)

    def tap(self, square, hold: float = 0.0):
        board = self.board()
        index = square if isinstance(square, int) else self.geometry().parse_square(square)
        board.bring_into_view(index)  # on a map shown in part, as a drag of the view would
        x, y = board.square_centre(index)
        touch = UnitTestTouch(x, y)
        touch.touch_down()
        if hold:
            yield hold
        touch.touch_up()
        yield FRAME

    def move(self, frm: str, to: str):
        """A move by hand; wait until it is taken (or a question about it is asked)."""
        s = self.flow.game.session
        g = s.rules.geometry
        before = (len(s.moves), s.pos.depth)
        if s.pos.board[g.parse_square(to)] is not None:
            yield from self.tap(to)
        yield from self.tap(frm)
        yield from self.tap(to)
        for _ in range(200):
            if (len(s.moves), s.pos.depth) != before or self.flow.display.prompt is not None or self.flow.display.screen != "game":
                break
            yield FRAME
        else:
            raise AssertionError(f"the move {frm}-{to} was not taken: {self.state()}")
        yield FRAME

    def follow_the_lights(self, limit: int = 80):
        """Do what the lit squares say (the board's guidance, in the game or the deployment)
        until the board shows the game: pieces that move go square to square, then the rest
        is taken off and put on."""
        f = self.flow
        for _ in range(limit):
            guide = f.game.session.tracker if f.game.session is not None else f.dungeon.prep.guide
            if guide.status != "out-of-sync":
                return
            g, sensed = guide.guidance, guide.sensed
            if g.pairs:
                a, b = g.pairs[0]
                if a in sensed:
                    yield from self.tap(a)
                if b not in guide.sensed:
                    yield from self.tap(b)
            elif [q for q in g.remove if q in sensed]:
                yield from self.tap([q for q in g.remove if q in sensed][0])
            elif [q for q in g.place if q not in sensed]:
                yield from self.tap([q for q in g.place if q not in sensed][0])
            else:
                raise AssertionError(f"the guidance gives nothing to do: {g}")
            yield FRAME
        raise AssertionError(f"the board never came back in step: {self.state()}")

    def settle_board(self):
        """When the board must change after an effect, do what the lights say."""
        yield FRAME * 2
        if not self.flow.board.in_sync:
            yield from self.follow_the_lights()
            for _ in range(100):
                if self.flow.board.in_sync:
                    break
                yield FRAME
            assert self.flow.board.in_sync, f"the board is still out of step: {self.flow.board.guidance!r}"

    def deploy_by_taps(self, count: int | None = None):
        """Put units on lit squares, one tap each (the first free square of the spawn zone)."""
        placed = 0
        while count is None or placed < count:
            prep = self.flow.dungeon.prep
            if prep is None or prep.deployment is None or prep.deployment.next_unit() is None:
                return
            before = len(prep.deployment.placed)
            free = sorted(prep.deployment.free_squares())
            yield from self.tap(free[0])
            for _ in range(100):
                if self.flow.dungeon.prep is None or len(self.flow.dungeon.prep.deployment.placed) != before:
                    break
                yield FRAME
            else:
                raise AssertionError(f"the unit put on {self.geometry().name_of(free[0])} was not placed")
            placed += 1

    def place_the_rest(self):
        """The deployment's "Place the rest for me", until the game screen is up."""
        yield from self.press("Place the rest for me")
        for _ in range(100):
            if self.flow.display.screen == "game":
                break
            yield FRAME
        yield from self.expect("game")


def split(move: str) -> tuple[str, str]:
    m = re.fullmatch(r"([a-t]\d+)([a-t]\d+)", move)
    return m.group(1), m.group(2)


# ----- scenarios --------------------------------------------------------------------------------


def compact(d: DungeonDriver):
    """Two people on the Compact Skirmish: the map chosen, armies drafted (a preset that does
    not fit, a rulebook army changed unit by unit), random turn order, every unit deployed by
    taps (one placement undone), moves, a capture, an undo; then the app stops mid-game."""
    yield from d.expect("start")
    yield from d.press("Dungeon Chess")
    yield from d.press_key("dungeon-four-player")
    yield from d.shot("start-four")
    yield from d.press_key("dungeon-compact")
    yield from d.shot("start")
    yield from d.press("Choose the armies")
    yield from d.expect("draft")
    yield from d.press("Skeleton swarm")
    assert "spawn zone" in d.app.presenters.draft.view().problems
    yield from d.shot("draft-swarm")
    yield from d.press("Human balanced")
    yield from d.press_key("remove:knight")
    yield from d.press_key("add:stronghold")
    yield from d.press_key("unit:stronghold")
    v = d.app.presenters.draft.view()
    assert v.ready and v.budget == "2 XP left of 75", v
    yield from d.shot("draft")
    yield from d.press("Next army")
    yield from d.press("Greenskin")
    assert "exactly 1 King" in d.app.presenters.draft.view().problems
    yield from d.press("Greenskin midrange")
    yield from d.press("Who starts?")
    yield from d.shot("turn-order")
    yield from d.press("Random")
    yield from d.expect("deploy")
    assert d.flow.dungeon.prep.first == 1
    yield from d.deploy_by_taps(5)
    yield from d.shot("deployment")
    yield from d.press("Undo")
    assert len(d.flow.dungeon.prep.deployment.placed) == 4
    yield from d.follow_the_lights()  # the undone unit's piece comes off
    yield from d.deploy_by_taps()
    for _ in range(100):
        if d.flow.display.screen == "game":
            break
        yield FRAME
    yield from d.expect("game")
    s = d.flow.game.session
    assert s.turn == 1 and s.setup.board_map == "dungeon-compact"
    yield from d.move("f9", "f8")
    yield from d.move("e1", "e2")
    yield from d.move("b9", "b1")  # the Shaman takes the Wizard: the Princess is attacked
    assert s.in_check()
    yield from d.tap("a1")  # lift the Princess: its moves light up, the capture on b1 too
    yield from d.shot("compact-lifted")
    yield from d.tap("a1")
    yield 0.3
    yield from d.move("a1", "b1")
    yield from d.shot("compact-game")
    yield from d.press("Undo")
    yield from d.follow_the_lights()
    assert len(s.moves) == 3
    yield from d.move("a1", "b1")
    yield from d.move("e9", "e8")
    assert [m.san for m in s.moves] == ["GB f9-f8", "HE e1-e2", "SM b9xb1", "PR a1xb1", "GB e9-e8"], s.moves
    assert d.flow.game.journal is not None and not d.flow.game.journal.closed


def compact_resume(d: DungeonDriver):
    """The next start offers the unfinished Dungeon game; the board is set up again, play goes on."""
    yield 0.3
    yield from d.expect("resume")
    yield from d.shot("resume")
    yield from d.press("Continue this game")
    yield from d.expect("setup")
    yield from d.shot("resumed-setup")
    yield from d.press("Place every piece for me")
    yield from d.expect("game")
    s = d.flow.game.session
    assert len(s.moves) == 5 and s.setup.game == "dungeon"
    yield from d.move("e2", "e3")
    assert len(s.moves) == 6
    yield from d.shot("resumed-game")


def two_player(d: DungeonDriver):
    """The Two Player Dungeon (8 wide, 20 long): the default armies, the rest placed for us."""
    yield from d.press("Dungeon Chess")
    yield from d.press_key("dungeon-two-player")
    yield from d.press("Choose the armies")
    yield from d.press("Next army")
    yield from d.press("Who starts?")
    yield from d.press("Blue first")
    yield from d.expect("deploy")
    yield from d.deploy_by_taps(2)
    yield from d.place_the_rest()
    s = d.flow.game.session
    assert s.turn == 0 and (s.rules.geometry.width, s.rules.geometry.height) == (8, 20)
    g = s.rules.geometry
    move = sorted(s.rules.legal_moves(s.pos), key=lambda m: s.rules.move_text(s.pos, m))[0]
    yield from d.move(g.name_of(move.frm), g.name_of(move.to))
    yield from d.shot("two-player-game")


QUICK_FOUR = None  # filled in by main(): the constructed four-player position
#: A three-player ending on the Four Player Dungeon: Blue's Wizard takes Red's Warlord on h20 and
#: so checks Green's Warlord in the corner, which cannot move (its Ogre and Troll stand on g19 and
#: h19), take the Wizard (the Knight on i18 guards it) or block: Green passes; the Wizard takes it.
QUICK_THREE_PIECES = {
    "g1": (0, "princess"), "n20": (0, "wizard"), "i18": (0, "knight"), "h3": (0, "hero"),
    "h20": (1, "warlord"), "b10": (1, "hero"), "c9": (1, "knight"),
    "g20": (2, "warlord"), "g19": (2, "ogre"), "h19": (2, "troll"),
}


def four_player(d: DungeonDriver):
    """A whole four-player game on the 20x20 map by taps: a Troll pushed back, a Salamander's
    step chosen on the screen, a hex, a fragile Skeleton, an explosion that kills a King, two
    eliminations, a cannon, a forced pass, the last King standing."""
    from dungeon_board_games import QUICK_FOUR_SCRIPT

    yield from d.expect("start")
    seats = tuple(Seat(n) for n in ("Blue", "Red", "Green", "Yellow"))
    d.flow.new_game("dungeon", seats, start=QUICK_FOUR, board_map="dungeon-four-player")  # the test-only start
    yield FRAME * 3
    yield from d.expect("setup")
    yield from d.shot("four-setup")
    yield from d.press("Place every piece for me")
    yield from d.expect("game")
    s = d.flow.game.session
    for i, (text, _why) in enumerate(QUICK_FOUR_SCRIPT):
        prompt = d.flow.display.prompt
        if prompt is not None and prompt.kind == "step":
            yield from d.shot("four-step")
            yield from d.press(f"Step to {text}")
        elif prompt is not None and prompt.kind == "pass":
            yield from d.shot("four-pass")
            yield from d.press("Pass")
        elif text.endswith("hex"):
            yield from d.press("Hex\u2026")
            yield from d.shot("four-hex")
            yield from d.press_starting("Hex the green Demonics")
        else:
            yield from d.move(*split(text))
        if i == 0:
            yield from d.shot("four-troll")
        if i == 1:  # a long press on the pushed-back Troll: what it is and does
            yield from d.tap("n13", hold=0.8)
            assert d.app.presenters.info.view().fatigue.startswith("Wounded")
            yield from d.shot("four-info")
            yield from d.press("Close")
        if i == 9:
            yield from d.shot("four-explosion")
        yield from d.settle_board()
        assert [m.san for m in s.moves], "no move was played"
        if i == 5:
            yield from d.shot("four-player-game")
    yield from d.expect("game_over")
    assert s.result.reason == "the last King standing" and s.result.winners == frozenset({0})
    yield from d.shot("game-over")
    times = d.app.screens.get_screen("dungeon_game").ids.board.redraw_ms
    print(f"REDRAW 20x20 median {statistics.median(times):.1f} ms, 90th percentile "
          f"{sorted(times)[int(len(times) * 0.9)]:.1f} ms, max {max(times):.1f} ms over {len(times)} redraws")
    yield from d.press("New game")
    yield from d.expect("start")


QUICK_THREE = None  # filled in by main(): the constructed three-player ending


def three_player(d: DungeonDriver):
    """Three players on the Four Player Dungeon by taps: Red a computer, the yellow seat left
    empty ("Nobody"), the draw rules chosen, three armies drafted and deployed, a round of moves
    (the computer's carried out on the board). Then a constructed three-player ending played by
    taps: Red's King taken (Red out, its pieces guided off), Green stuck in check passes, Green's
    King taken: the last King standing; Undo on the game-over screen takes the last move back,
    guided on the board, and the game is won again."""
    yield from d.expect("start")
    yield from d.press("Dungeon Chess")
    yield from d.press_key("dungeon-four-player")
    yield from d.choose_computer(1)  # Red: Computer 1
    yield from d.press_key("kind:3")  # Yellow: the list ends with Nobody (the three-player seating)
    yield from d.press("Nobody")
    yield from d.press_key("draw_rules=on")
    yield from d.shot("three-start")
    yield from d.press("Choose the armies")
    yield from d.expect("draft")
    assert d.flow.dungeon.prep.nplayers == 3 and d.flow.dungeon.prep.draw_rules
    yield from d.press("Next army")
    yield from d.press("Next army")
    yield from d.press("Who starts?")
    yield from d.press("Blue first")
    yield from d.expect("deploy")
    yield from d.deploy_by_taps(3)
    yield from d.shot("three-deployment")
    yield from d.place_the_rest()
    s = d.flow.game.session
    assert s.rules.nplayers == 3 and s.setup.draw_rules and s.seats[1].computer
    assert [seat.home for seat in s.rules.board_map.seats] == ["south", "west", "north"]
    g = s.rules.geometry
    for _ in range(2):
        for seat in range(3):
            assert s.turn == seat
            if s.seats[seat].computer:
                yield from d.wait_for_computer()
                move = d.flow.ai.requested
            else:
                move = sorted(s.rules.legal_moves(s.pos), key=lambda m: s.rules.move_text(s.pos, m))[0]
            yield from d.move(g.name_of(move.frm), g.name_of(move.to))
            yield from d.settle_board()
    assert len(s.moves) == 6
    yield from d.shot("three-player-game")

    seats = (Seat("Blue"), Seat("Red", True, 1), Seat("Green"))
    d.flow.new_game("dungeon", seats, start=QUICK_THREE, board_map="dungeon-four-player")  # the test-only start
    yield FRAME * 3
    yield from d.expect("setup")
    yield from d.press("Place every piece for me")
    yield from d.expect("game")
    s = d.flow.game.session
    yield from d.move("n20", "h20")  # the Wizard takes Red's Warlord along rank 20
    assert s.pos.var("out") == (1,)
    yield from d.settle_board()  # Red's other pieces come off
    for _ in range(100):
        if d.flow.display.prompt is not None and d.flow.display.prompt.kind == "pass":
            break
        yield FRAME
    yield from d.shot("three-pass")
    yield from d.press("Pass")
    yield from d.settle_board()
    yield from d.move("h20", "g20")
    yield from d.expect("game_over")
    assert s.result.reason == "the last King standing" and s.result.winners == frozenset({0})
    yield from d.shot("three-game-over")
    yield from d.press("Undo")  # casual play: the last move is taken back, guided on the board
    yield from d.expect("game")
    assert s.result is None and s.turn == 0 and not d.flow.board.in_sync
    yield from d.shot("three-undo")
    yield from d.settle_board()
    yield from d.move("h20", "g20")
    yield from d.expect("game_over")
    assert s.result.winners == frozenset({0})
    yield from d.press("New game")
    yield from d.expect("start")


SCENARIOS = {"compact": compact, "compact-resume": compact_resume, "four-player": four_player,
             "two-player": two_player, "three-player": three_player}


def main() -> int:
    global QUICK_FOUR, QUICK_THREE
    from dungeon_board import position, rules
    from dungeon_board_games import QUICK_FOUR_PIECES

    r = rules("dungeon-four-player")
    QUICK_FOUR = r.position_text(position(r, QUICK_FOUR_PIECES, 0))
    r3 = rules("dungeon-four-player", players=3)
    QUICK_THREE = r3.position_text(position(r3, QUICK_THREE_PIECES, 0))
    base.SHOTS.mkdir(parents=True, exist_ok=True)
    board = bootstrap.open_board()
    tracker = functools.partial(bootstrap.default_tracker(), settle_ms=40, slow_settle_ms=80, castle_settle_ms=120)
    guide = functools.partial(bootstrap.default_deploy_guide(), settle_ms=40)
    flow = bootstrap.build_flow(board, JournalStore(base.DATA), make_tracker=tracker,
                                computer=base.seeded_computer(), draw_seat=lambda n: 1 % n,
                                make_deploy_guide=guide)
    return base.run_app(flow, SCENARIOS[base.SCENARIO], DungeonDriver)


if __name__ == "__main__":
    sys.exit(main())
