"""Open every screen of the app, and its popups, at one window size; check each one's layout.

    python tests/ui_screens_driver.py all SHOT_DIR DATA_DIR WIDTHxHEIGHT

Played by taps like the other drivers (tests/ui_smoke_driver.py, tests/ui_dungeon_driver.py),
through the screens a newcomer meets: a game left unfinished, the start screen and its name
picker, a Dungeon Chess draft, the turn order, the deployment and a four-player game on the
20x20 map (a piece lifted: the board zooms), the menu and piece info, a Combat Chess set-up,
game, fight and its end, the saved games, four-player chess with dice fights (its start screen,
set-up and game), a position set up by hand, a tournament game (a name
typed, the table's settings, the clock, the game bar at the clock, the arbiter's PIN and
screen), the board check, a problem. Then every screen the app has that the walk did not reach is opened as it stands, so a
screen added later is checked too.

After each screenshot the window's layout is checked (tests/ui_layout.py): text under 12 px, a
label's text larger than its box, a widget outside the window, the board's texts under 12 px.
After each tap, the button now under the finger must be the same action or none. Every
problem is printed as a line ``PROBLEM <shot>: ...``; the test fails on any.
"""

from __future__ import annotations

import functools
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import ui_dungeon_driver as dungeon  # noqa: E402  (sets up the window from argv first)
import ui_smoke_driver as base  # noqa: E402
import ui_tournament_driver as table  # noqa: E402
from kivy.tests.common import UnitTestTouch  # noqa: E402
from ui_layout import action_at, layout_problems  # noqa: E402

from companion.app import bootstrap  # noqa: E402
from companion.app import texts as T  # noqa: E402
from companion.app.presenters.flow import Problem  # noqa: E402
from companion.journal import JournalStore  # noqa: E402
from companion.session import GameSetup, Seat, Session  # noqa: E402
from companion.tournament.files import Stick  # noqa: E402

FRAME = base.FRAME


class ScreensDriver(dungeon.DungeonDriver):
    def __init__(self, app) -> None:
        super().__init__(app)
        self.problems: list[str] = []
        self.seen: set[str] = set()

    def shot(self, name: str):
        yield from super().shot(name)
        self.seen.add(self.app.screens.current)

    def check_layout(self, name: str) -> None:
        """Every problem of every screen is listed at the end (not only the first screen's)."""
        for line in layout_problems():
            self.problems.append(f"{name} ({self.app.screens.current}): {line}")

    def buttons(self) -> dict[tuple[float, float], str]:
        """Every enabled, shown button of the screen's steps: its centre in the window -> the
        action it stands for (rows of a scrolling list are content, not steps: left out)."""
        from kivy.uix.behaviors import ButtonBehavior
        from ui_layout import hidden, scrolled

        out = {}
        for w in self.widgets():
            if isinstance(w, ButtonBehavior) and not w.disabled and not hidden(w) and not getattr(w, "hidden", False) \
                    and w.get_root_window() is not None and not scrolled(w):
                out[w.to_window(*w.center)] = getattr(w, "key", "") or getattr(w, "text", "")
        return out

    def _state(self):
        f = self.flow
        return (f.display.screen, id(f.display.prompt), f.display.info_square, f.display.info_mode, f.board.sensed,
                getattr(self.app.screens.current_screen, "names_popup", None) is not None)

    def _step(self, dt):
        check = getattr(self, "guard_check", None)
        if check is not None and self.app.touch_guarded() and not self.app._dirty:
            # the finger that just tapped taps again at once: nothing may happen
            self.guard_check = None
            x, y, what = check
            before = self._state()
            touch = UnitTestTouch(x, y)
            touch.touch_down()
            touch.touch_up()
            if self._state() != before:
                self.problems.append(f"a second tap on {what!r} at once did something on {self.flow.display.screen}")
        super()._step(dt)

    def touch_widget(self, widget, what: str):
        x, y = widget.to_window(*widget.center)
        screen, prompt = self.app.screens.current, self.flow.display.prompt
        old = self.buttons()
        touch = UnitTestTouch(x, y)
        touch.touch_down()
        touch.touch_up()
        asked = self.flow.display.screen  # a screen the tap itself asked for
        self.guard_check = (x, y, what)
        yield FRAME * 2
        for _ in range(200):  # until the change is on screen: the app shows the view the flow asks for
            # (the view, not the flow's screen: a Dungeon game is "game" shown as "dungeon_game",
            # a game at the clock is shown as "clock"; waiting for those two to be equal ran out
            # its frames after every such tap, three seconds each)
            if not self.app._dirty and self.flow.view_screen == self.app.screens.current:
                break
            yield FRAME
        else:
            raise AssertionError(f"tap {what!r} on {screen}: {self.flow.view_screen!r} never came on screen; "
                                 f"{self.state()}")
        yield from self.check_surprise(old, asked, f"tap {what!r} on {screen}")
        self.guard_check = None

    def check_surprise(self, old: dict, asked: str, what: str):
        """A screen that a button brought by itself (a tap set the board up, and the game
        started) must not put a different action where the old screen had a button: a person
        reaching for the next button would press something else. (A screen that a move on the
        board brings, the fight after a capture, is what the players look for next; the touch
        guard keeps a second tap from pressing what came there. So is the clock of a clocked
        game whose board was just set up: its halves fill the screen, and pressing it is the next
        step.)"""
        yield FRAME
        if self.flow.display.screen == asked or self.flow.view_screen == "clock":
            return
        for (x, y), action in old.items():
            there = action_at(x, y)
            if there is not None and there != action:
                self.problems.append(f"{what}: {self.flow.display.screen} came by itself and put {there!r} where "
                                     f"{action!r} was")


def unfinished_game(data: Path) -> None:
    """A chess game of two moves left in the journal, as after a power cut."""
    store = JournalStore(data)
    journal = store.create()
    setup = GameSetup("chess", (Seat("Ann"), Seat("Ben")), "virtual", False, "20260101-120000-abcd")
    session, _ = Session.new(setup, recorder=journal.append)
    for move in ("e2e4", "e7e5"):
        session.play(move)
    journal.close()


def new_game(d: ScreensDriver):
    """Menu, New game, and yes: back to the start screen."""
    yield from d.press("Menu")
    yield from d.press("New game")
    yield from d.press("Yes, new game")


def walk(d: ScreensDriver):
    app, flow = d.app, d.flow
    # ----- an unfinished game: loading, then the offer to go on ------------------------------------
    yield 0.3
    yield from d.expect("resume")
    yield from d.shot("resume")
    flow.display.screen, flow.resume.progress = "loading", 0.4
    flow.display.changed()
    yield FRAME * 2
    yield from d.shot("loading")
    flow.display.screen = "resume"
    flow.display.changed()
    yield FRAME * 2
    yield from d.press("Start a new game")
    # ----- the start screen -------------------------------------------------------------------------
    yield from d.expect("start")
    yield from d.shot("start")
    yield from d.press_key("settings")  # the board's language and speech, before any game
    yield from d.shot("settings")
    yield from d.press("Cancel")
    yield from d.press("White")
    yield from d.shot("start-names")
    yield from d.press("Cancel")
    yield from d.press("Dungeon Chess")
    yield from d.press_key("dungeon-four-player")
    yield from d.shot("start-dungeon")
    # ----- Dungeon Chess: draft, turn order, deployment, four players on 20x20 -----------------------
    yield from d.press("Choose the armies")
    yield from d.expect("draft")
    yield from d.press("Skeleton swarm")
    yield from d.shot("draft")
    yield from d.press("Human balanced")
    while flow.display.screen == "draft" and flow.display.prompt is None:
        yield from d.press(d.app.presenters.draft.view().next_label)
    yield from d.shot("turn-order")
    yield from d.press("Random")
    yield from d.expect("deploy")
    yield from d.deploy_by_taps(2)
    yield from d.shot("deploy")
    yield from d.press("Place the rest for me")
    for _ in range(100):
        if flow.display.screen == "game":
            break
        yield FRAME
    yield from d.expect("game")
    yield from d.shot("dungeon-game")
    s = flow.game.session
    g = s.rules.geometry
    move = sorted(s.rules.legal_moves(s.pos), key=lambda m: s.rules.move_text(s.pos, m))[0]
    yield from d.tap(g.name_of(move.frm))
    yield from d.shot("dungeon-lifted")
    yield from d.tap(g.name_of(move.to))
    yield from d.settle_board()
    yield from d.tap(g.name_of(move.to), hold=0.8)
    yield from d.shot("dungeon-piece-info")
    yield from d.press("Close")
    yield from d.press("Menu")
    yield from d.shot("menu")
    yield from d.press("New game")
    yield from d.shot("new-game-confirm")
    yield from d.press("Yes, new game")
    # ----- Combat Chess: set-up, game, fight, the end -----------------------------------------------
    yield from d.expect("start")
    yield from d.press("Chess")  # its "Dice fights" switch is on: Combat Chess
    assert d.app.presenters.start.game == "combat"
    yield from d.press("Start")
    yield from d.expect("setup")
    yield from d.shot("setup")
    yield from d.press("Place every piece for me")
    yield from d.expect("game")
    yield from d.move("e2", "e4")
    yield from d.move("d7", "d5")
    yield from d.tap("e4")
    yield from d.shot("game-lifted")
    yield from d.tap("e4")
    yield 0.3
    yield from d.move("e4", "d5")
    yield from d.expect("fight")
    yield from d.shot("fight")
    yield from d.roll_until_decided()
    yield from d.shot("fight-result")
    yield from d.press("Continue")
    yield from d.expect("game")
    yield from d.follow_the_lights()
    yield from d.shot("game")
    yield from d.tap("a2", hold=0.8)
    yield from d.shot("piece-info")
    yield from d.press("Close")
    yield from d.press("Resign")
    yield from d.shot("resign")
    yield from d.press("White")
    yield from d.expect("game_over")
    yield from d.shot("game-over")
    assert base.shows(T.GAME_SAVED, d.app.presenters.over.view().saved), d.app.presenters.over.view().saved
    yield from d.press("New game")
    # ----- the saved games: review, copy to the stick, play an unfinished one on --------------------
    yield from d.expect("start")
    yield from d.press_key("games")
    for _ in range(200):
        if d.app.presenters.games.view().rows:
            break
        yield FRAME
    yield from d.expect("games")
    rows = d.app.presenters.games.view().rows
    assert [r.finished for r in rows][:1] == [True], rows  # the newest: the Combat game just resigned
    yield from d.press_key("game:0")
    yield from d.shot("games")
    yield from d.press_key("review")
    yield from d.expect("review")
    yield from d.press_key("review-back")
    yield from d.shot("review")
    step = d.app.presenters.review.view().step
    assert base.shows(T.REVIEW_MOVE, step) and d.flow.board.meanings, step
    yield from d.press_key("review-first")
    assert d.app.presenters.review.view().at_start
    yield from d.press_key("review-close")
    yield from d.press_key("copy-all")
    assert base.shows(T.GAMES_COPIED, d.app.presenters.games.view().notice), d.app.presenters.games.view().notice
    unfinished = [i for i, r in enumerate(d.app.presenters.games.view().rows) if not r.finished]
    yield from d.press_key(f"game:{unfinished[0]}")
    yield from d.press_key("take-up")
    for _ in range(200):  # replayed in a worker; asked for, so no question: the board's set-up
        if d.flow.display.screen == "setup":
            break
        yield FRAME
    yield from d.expect("setup")
    yield from d.press("Place every piece for me")
    yield from d.expect("game")
    assert d.flow.game.session.moves
    yield from new_game(d)
    # ----- start from a position set up by hand --------------------------------------------------------
    # ----- four-player chess, teams, with dice fights: the start screen, the set-up, the game ---------
    yield from d.expect("start")
    yield from d.press("Four-player chess")
    yield from d.press_key("fights")
    yield from d.press_key("mode=teams")
    yield from d.press("Real dice")
    yield from d.shot("start-chess4")
    yield from d.press("Start")
    yield from d.expect("setup")
    yield from d.shot("chess4-setup")
    yield from d.press("Place every piece for me")
    yield from d.expect("game")
    yield from d.move("h2", "h4")
    yield from d.tap("b7")  # Blue's pawn lifted
    yield from d.shot("chess4-lifted")
    yield from d.tap("b7")
    yield from new_game(d)
    # ----- start from a position set up by hand --------------------------------------------------------
    yield from d.expect("start")
    yield from d.press("Chess")
    yield from d.press_key("fights")  # off: plain chess
    yield from d.press_key("from-position")
    yield from d.expect("position")
    yield from d.press_key("standard")
    yield from d.press_key("-")
    yield from d.tap("e2")
    yield from d.press_key("P0")
    yield from d.tap("e4")
    yield from d.press_key("turn")
    yield from d.press_key("type-position")  # the position as FEN, on Load / Save's keyboard
    yield from d.expect("game_text")
    yield from d.shot("position-typed")
    yield from d.press("Go on from here")
    yield from d.expect("position")
    yield from d.shot("position")
    yield from d.press_key("position-start")
    for _ in range(100):
        if d.flow.display.screen == "game":
            break
        yield FRAME
    yield from d.expect("game")
    s = d.flow.game.session
    assert s.setup.start == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1" and s.turn == 1, s.setup
    yield from new_game(d)
    # ----- Chess 2: the armies chosen double-blind, a capture the defender may duel ------------------
    yield from d.expect("start")
    yield from d.press("Chess 2")
    yield from d.shot("start-chess2")
    yield from d.press("Choose the armies")
    yield from d.expect("armies")
    yield from d.press_key("army:classic")
    yield from d.press("Hide my choice")
    yield from d.press_key("army:two-kings")
    yield from d.press("Hide my choice")
    yield from d.press("Reveal")
    yield from d.shot("armies")
    yield from d.press("Start the game")
    yield from d.press("Place every piece for me")
    yield from d.expect("game")
    yield from d.move("e2", "e4")
    yield from d.move("d7", "d5")
    yield from d.press("Skip king-turn")  # Black's king-turn (Two Kings), from the game bar
    for square in ("d5", "e4", "d5"):  # exd5: Black may duel
        yield from d.tap(square)
    for _ in range(200):
        if flow.display.screen == "duel":
            break
        yield FRAME
    yield from d.expect("duel")
    yield from d.shot("duel")
    yield from d.press("No duel")
    yield from d.expect("game")
    yield from new_game(d)
    # ----- a tournament game: a name typed, the table's settings, the clock, the arbiter -------------
    yield from d.expect("start")
    yield from table.named_tournament(d)
    assert d.flow.view_screen == "clock", d.flow.view_screen
    yield from d.shot("clock")
    yield from table.TableDriver.clock_tap(d, 1)  # Black starts White's clock
    yield from d.press("Board")
    yield from d.shot("tournament-game")
    bar = app.presenters.bar.view()  # the one game bar: no takeback, no draw offer but on the clock
    assert not bar.can_undo and not bar.can_draw and bar.can_resign and bar.action == "clock", bar
    yield from d.press("Clock")
    yield from table.open_arbiter(d)
    yield from d.shot("arbiter")
    yield from d.press("Back")
    yield from d.press("Board")
    yield from new_game(d)
    # ----- the board check, a problem ----------------------------------------------------------------
    yield from d.expect("start")
    yield from d.press("Board check")
    yield from d.shot("board-check")
    yield from d.press("Back")
    # the app's own words, so the German walk shows German (a player's name is no word)
    flow.problems.show(Problem("computer", T.PROBLEM_COMPUTER_TITLE.format(name="Anna"), T.COMPUTER_NO_MOVE,
                               T.PROBLEM_COMPUTER_ADVICE.format(name="Anna"), retry=True))
    yield FRAME * 2
    yield from d.shot("problem")
    yield from d.press("Continue")
    # ----- every other screen, as it stands (shell.SCREENS: the app's every screen) ----------------
    from companion.app.shell import SCREENS

    for name in SCREENS:
        if name in d.seen:
            continue
        flow.display.screen = name
        flow.display.changed()
        yield FRAME * 3
        yield from d.shot(f"as-is-{name}")
    unseen = set(SCREENS) - d.seen
    assert not unseen, f"screens never shown: {sorted(unseen)}"


def main() -> int:
    base.SHOTS.mkdir(parents=True, exist_ok=True)
    unfinished_game(base.DATA)
    board = bootstrap.open_board()
    tracker = functools.partial(bootstrap.default_tracker(), settle_ms=40, slow_settle_ms=80, castle_settle_ms=120)
    guide = functools.partial(bootstrap.default_deploy_guide(), settle_ms=40)
    stick = base.DATA.parent / "stick"  # a folder standing in for a USB stick
    stick.mkdir(parents=True, exist_ok=True)
    flow = bootstrap.build_flow(board, JournalStore(base.DATA), make_tracker=tracker,
                                computer=bootstrap.default_computer(), draw_seat=lambda n: 0,
                                make_deploy_guide=guide, seed=lambda: bytes([7]) * 32, sticks=lambda: [Stick(stick, "STICK")])
    holder: dict = {}

    class Driver(ScreensDriver):
        def __init__(self, app) -> None:
            super().__init__(app)
            holder["driver"] = self

    status = base.run_app(flow, walk, Driver)
    driver = holder["driver"]
    for line in driver.problems:
        print(f"PROBLEM {line}")
    print(f"SCREENS {' '.join(sorted(driver.seen))}")
    return status


if __name__ == "__main__":
    sys.exit(main())
