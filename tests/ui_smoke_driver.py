"""Open the real app in a window and play it by taps, as a person would; save screenshots.

    python tests/ui_smoke_driver.py SCENARIO SHOT_DIR DATA_DIR [WIDTHxHEIGHT]

Runs inside a display (Xvfb in the tests). The app is built by companion.app.bootstrap exactly
as the product builds it, on the simulated board, with a journal in DATA_DIR. Every action is a
synthetic touch on a widget found by its text (buttons) or on a square of the on-screen board;
the driver never calls a presenter. Prints "SMOKE OK" at the end; any exception (in the script
or in the app) exits non-zero with the traceback.
"""

from __future__ import annotations

import functools
import os
import re
import sys
import time
import traceback
from pathlib import Path

STARTED = time.monotonic()
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

SCENARIO, SHOTS, DATA = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
SIZE = sys.argv[4] if len(sys.argv) > 4 else "800x480"
os.environ["COMPANION_WINDOW"] = SIZE
os.environ.setdefault("KIVY_NO_ARGS", "1")

from companion.app.main import configure_window  # noqa: E402
from companion.i18n import Plural, _ as in_language, ngettext, use_system_language  # noqa: E402

configure_window()
use_system_language()  # COMPANION_LANG: the walk runs in German too (the drivers name buttons in English)


def shows(template, text: str) -> bool:
    """Whether ``text`` holds ``template`` (an English message, or a text of companion/app/texts
    with a count), as the language shows it, whatever fills its ``{placeholders}``."""
    forms = ([ngettext(template.singular, template.plural, n) for n in (1, 2)] if isinstance(template, Plural)
             else [in_language(template)])
    return any(re.search(".*?".join(map(re.escape, re.split(r"\{\w*\}", form))), text, re.S) for form in forms)

from kivy.animation import Animation  # noqa: E402
from kivy.clock import Clock  # noqa: E402
from kivy.core.window import Window  # noqa: E402
from kivy.tests.common import UnitTestTouch  # noqa: E402
from kivy.uix.behaviors import ButtonBehavior  # noqa: E402
from kivy.uix.modalview import ModalView  # noqa: E402

from companion.app import bootstrap  # noqa: E402
from companion.app import texts as T  # noqa: E402
from companion.app.widgets.board import BoardWidget  # noqa: E402
from companion.app.widgets.common import BigButton  # noqa: E402
from companion.journal import JournalStore  # noqa: E402

FRAME = 0.045  # seconds: enough for the app's 30 Hz pump to take a tap in and redraw


class Driver:
    def __init__(self, app) -> None:
        self.app = app
        self.flow = app.flow
        self.failure: str | None = None
        self.shots: list[str] = []

    # ----- running a script ------------------------------------------------------------------
    def run(self, script) -> None:
        self.gen = script(self)
        Clock.schedule_once(self._step, 0.5)

    def _step(self, _dt) -> None:
        if os.environ.get("SMOKE_TIMING"):
            print(f"step {time.monotonic() - STARTED:.2f} {self.flow.display.screen}", flush=True)
        fading = [w for w in Window.children if isinstance(w, ModalView) and w._anim_alpha < 1]
        if (self.app.screens.transition.is_active or self.app._dirty or fading or Animation._instances
                or self.app.touch_guarded()):
            # a screen is being switched or a popup fades in or out (both take touches away),
            # a change is not on screen yet, or a new screen still ignores touches: a person
            # would not be faster than that either
            Clock.schedule_once(self._step, FRAME / 2)
            return
        try:
            wait = next(self.gen)
        except StopIteration:
            self.app.stop()
            return
        except Exception:  # noqa: BLE001 - report any failure of the script, then stop
            self.failure = traceback.format_exc() + "\n" + self.state()
            self.app.stop()
            return
        Clock.schedule_once(self._step, FRAME if wait is None else wait)

    def state(self) -> str:
        f = self.flow
        moves = [m.san for m in f.game.session.moves] if f.game.session else []
        return (f"screen={f.display.screen} moves={moves} in_sync={f.board.in_sync} guidance={f.board.guidance!r} "
                f"notice={f.display.notice!r} sensed={sorted(f.board.sensed)}")

    # ----- finding and touching widgets ------------------------------------------------------
    def widgets(self):
        for top in Window.children:
            yield from top.walk(restrict=True)

    def button(self, text: str) -> BigButton:
        text = in_language(text)  # the button's English words, as the language shows them
        found = [w for w in self.widgets() if isinstance(w, BigButton) and w.text == text
                 and not w.disabled and w.opacity > 0 and w.get_root_window() is not None]
        if not found:
            shown = sorted({w.text for w in self.widgets() if isinstance(w, BigButton) and w.opacity > 0})
            raise AssertionError(f"no button {text!r} on screen {self.flow.display.screen!r}; buttons: {shown}")
        return found[-1]

    def touch_widget(self, widget, what: str):
        """A finger on the middle of ``widget`` (``what``: the action it stands for)."""
        x, y = widget.to_window(*widget.center)
        touch = UnitTestTouch(x, y)
        touch.touch_down()
        touch.touch_up()
        yield FRAME * 2

    def press(self, text: str):
        yield FRAME  # one more frame: widgets added by the last change get their place first
        b = self.button(text)
        yield from self.touch_widget(b, b.key or b.text)

    def press_key(self, key: str):
        """A button found by what it stands for (its ``key``), when its text is not unique."""
        yield FRAME
        found = [w for w in self.widgets() if isinstance(w, ButtonBehavior) and getattr(w, "key", None) == key
                 and not w.disabled and w.opacity > 0 and w.get_root_window() is not None]
        if not found:
            keys = sorted({(w.key, w.disabled, w.opacity) for w in self.widgets() if getattr(w, "key", "")})
            raise AssertionError(f"no button with key {key!r} on screen {self.flow.display.screen!r}; keys: {keys}")
        yield from self.touch_widget(found[-1], key)

    def press_starting(self, prefix: str):
        """A prompt's button whose text starts with ``prefix`` (the labels name squares)."""
        yield FRAME
        prefix = in_language(prefix)
        texts = sorted({w.text for w in self.widgets() if isinstance(w, BigButton) and w.opacity > 0
                        and w.text.startswith(prefix)})
        if not texts:
            raise AssertionError(f"no button starting {prefix!r} on screen {self.flow.display.screen!r}")
        yield from self.press(texts[0])

    def choose_computer(self, seat: int, level: int = 1):
        """On the start screen: the computer plays ``seat`` at ``level``."""
        yield from self.press_key(f"kind:{seat}")
        yield from self.press_starting(f"Computer {level}")

    def board(self) -> BoardWidget:
        screen = self.app.screens.current_screen
        for w in screen.walk(restrict=True):
            if isinstance(w, BoardWidget) and w.view is not None:
                return w
        raise AssertionError(f"no board on screen {self.flow.display.screen!r}")

    def tap(self, square: str, hold: float = 0.0):
        board = self.board()
        index = self.flow.game.session.rules.geometry.parse_square(square) if self.flow.game.session else _index(square)
        board.bring_into_view(index)  # on a map shown in part, as a drag of the view would
        x, y = board.square_centre(index)
        touch = UnitTestTouch(x, y)
        touch.touch_down()
        if hold:
            yield hold
        touch.touch_up()
        yield FRAME

    def move(self, frm: str, to: str):
        """A move by hand on the simulated board (a capture lifts the victim first), then
        wait, as a player would, until the screen shows that the move was taken."""
        s = self.flow.game.session
        g = s.rules.geometry
        before = len(s.moves)
        if s.pos.board[g.parse_square(to)] is not None:
            yield from self.tap(to)
        yield from self.tap(frm)
        yield from self.tap(to)
        for _ in range(100):
            if len(s.moves) != before or self.flow.display.prompt is not None or self.flow.display.screen != "game":
                break
            yield FRAME
        else:
            raise AssertionError(f"the move {frm}-{to} was not taken")
        yield FRAME

    def follow_the_lights(self):
        """Do what the board asks after an undo or a fight: empty and fill the marked squares."""
        s = self.flow.game.session
        expected = s.rules.expected_occupancy(s.pos)
        g = s.rules.geometry
        for sq in sorted(self.flow.board.sensed - expected):
            yield from self.tap(g.name_of(sq))
        for sq in sorted(expected - self.flow.board.sensed):
            yield from self.tap(g.name_of(sq))
        assert self.flow.board.in_sync, f"the board is still out of step: {self.flow.board.guidance!r}"

    def wait_for_computer(self, seconds: float = 60.0):
        """Until the computer's move is lit (its search runs in a worker thread)."""
        waited = 0.0
        while self.flow.ai.requested is None:
            assert waited < seconds, "the computer did not answer"
            yield FRAME
            waited += FRAME

    def wait_lit(self, *squares: int, seconds: float = 20.0):
        """Until each square's light is on and has just come on: a blinking light (the
        computer's move) is then on screen for the next frames, as a player would see it."""
        waited = 0.0
        off_seen = False
        while True:
            lit = all(self.flow.board.frame[sq] != (0, 0, 0) for sq in squares)
            if lit and off_seen:
                return
            off_seen = off_seen or not lit
            assert waited < seconds, f"squares {squares} did not light up"
            yield 0.01
            waited += 0.01

    def roll_until_decided(self):
        """App dice: roll (again after each tie) until the fight is decided, the animation
        played out each time."""
        while self.flow.play.fight is not None and self.flow.play.fight.ended is None:
            yield from self.press("Tie! Roll again" if self.flow.play.fight.rounds else "Roll the dice")
            yield 1.2  # the animation

    def enter_dice(self, *faces: int):
        for face in faces:
            yield from self.press(str(face))
        yield from self.press("Use these dice")

    def shot(self, name: str):
        """A screenshot, and the layout checked as on every screen (tests/ui_layout.py): the
        scenarios' screens, with their fights, badges and questions, are held to it too."""
        yield FRAME * 3  # let the last change reach the screen
        made = Window.screenshot(name=str(SHOTS / f"{name}.png"))
        final = SHOTS / f"{name}.png"
        os.replace(made, final)
        self.shots.append(str(final))
        self.check_layout(name)
        yield FRAME

    def check_layout(self, name: str) -> None:
        from ui_layout import layout_problems

        problems = layout_problems()
        assert not problems, f"{name} ({self.app.screens.current}): " + "; ".join(problems[:8])

    def expect(self, screen: str):
        assert self.flow.display.screen == screen, f"expected the {screen} screen, the app shows {self.flow.display.screen}"
        yield None


def _index(name: str) -> int:
    return "abcdefgh".index(name[0]) + 8 * (int(name[1:]) - 1)


# ----- scenarios --------------------------------------------------------------------------------


def combat_game(d: Driver):
    """A whole Combat Chess game with real dice typed on the number pad: a tie, fights won,
    an undo, a promotion with a capture, a piece's fight history, and checkmate."""
    yield from d.expect("start")
    yield from d.shot("start")
    yield from d.press("Real dice")
    yield from d.press("Start")
    yield from d.expect("setup")
    yield from d.shot("setup")
    yield from d.press("Place every piece for me")
    yield from d.expect("game")
    yield from d.move("h2", "h4")
    yield from d.move("a7", "a6")
    yield from d.press("Undo")
    assert not d.flow.board.in_sync and [m.san for m in d.flow.game.session.moves] == ["h4"]
    yield from d.shot("undo-guidance")
    yield from d.follow_the_lights()
    yield from d.move("g7", "g5")
    yield from d.tap("h4")  # lift: its moves light up, the capture shows its odds
    yield from d.shot("lifted-piece")
    yield from d.tap("h4")  # put back: nothing happened
    yield 0.3
    yield from d.move("h4", "g5")
    yield from d.expect("fight")
    yield from d.shot("fight-odds")
    yield from d.press("5")
    yield from d.shot("fight-entry")
    yield from d.press("6")
    yield from d.press("Use these dice")
    yield from d.shot("fight-tie")
    yield from d.enter_dice(6, 1)
    yield from d.shot("fight-result")
    yield from d.press("Continue")
    yield from d.expect("game")
    yield from d.move("h7", "h6")
    yield from d.move("g5", "h6")
    yield from d.enter_dice(6, 1)
    yield from d.press("Continue")
    yield from d.move("f8", "g7")
    yield from d.move("h6", "g7")
    yield from d.enter_dice(6, 1)
    yield from d.press("Continue")
    yield from d.move("g8", "f6")
    yield from d.shot("fatigue")
    yield from d.move("g7", "h8")
    assert d.flow.display.prompt is not None and d.flow.display.prompt.kind == "promotion", d.flow.display.prompt
    yield from d.shot("promotion")
    yield from d.press("Queen")
    yield from d.expect("fight")
    yield from d.enter_dice(6, 1)
    yield from d.press("Continue")
    yield from d.tap("h8", hold=0.8)
    assert d.app.presenters.info.view() is not None
    yield from d.shot("piece-info")
    yield from d.press("Close")
    yield from d.move("f6", "g8")
    yield from d.move("h8", "g8")
    yield from d.enter_dice(10, 1)
    yield from d.shot("fight-won-queen")
    yield from d.press("Continue")
    yield from d.expect("game_over")
    yield from d.shot("game-over")
    assert d.flow.game.session.result.reason == "checkmate"
    moves = [m.san for m in d.flow.game.session.moves]
    assert moves == ["h4", "g5", "hxg5", "h6", "gxh6", "Bg7", "hxg7", "Nf6", "gxh8=Q", "Ng8", "Qxg8"], moves
    yield from d.press("New game")
    yield from d.expect("start")


def app_dice(d: Driver):
    """The app rolls (a checkable seed): the roll animation, a fight's result guided on the
    board, a draw offer declined, the board check, resignation and the revealed seed."""
    yield from d.press("Checkable")
    yield from d.press("Start")
    yield from d.press("Place every piece for me")
    yield from d.move("e2", "e4")
    yield from d.move("d7", "d5")
    yield from d.move("e4", "d5")
    yield from d.expect("fight")
    yield from d.press("Roll the dice")
    yield from d.shot("fight-rolling")
    yield 1.2  # the animation
    yield from d.roll_until_decided()
    yield from d.shot("fight-rolled")
    yield from d.press("Continue")
    yield from d.expect("game")
    yield from d.shot("after-fight")
    yield from d.follow_the_lights()
    yield from d.press("Draw?")
    yield from d.shot("draw-offer")
    yield from d.press("Decline")
    yield from d.press("Menu")
    yield from d.press("Board check")
    yield from d.expect("board_check")
    yield from d.press("Light every LED in turn")
    yield 0.6
    yield from d.shot("board-check")
    yield from d.press("Stop the lights")
    yield from d.press("Back")
    yield from d.expect("game")
    yield from d.press("Resign")
    yield from d.press("Black")
    yield from d.expect("game_over")
    assert d.flow.game.session.setup.seed and d.flow.game.session.setup.seed in d.app.presenters.over.view().seed
    yield from d.shot("game-over-seed")


def leave_unfinished(d: Driver):
    """Start a game, make two moves, and stop the app mid-game (as if the power went off)."""
    yield from d.press("Start")
    yield from d.press("Place every piece for me")
    yield from d.move("e2", "e4")
    yield from d.move("e7", "e5")
    assert d.flow.game.journal is not None and not d.flow.game.journal.closed


def resume_game(d: Driver):
    """The next start offers the unfinished game; it continues where it was. (The tests run
    this one in a larger window: every screen scales.)"""
    yield 0.3
    yield from d.expect("resume")
    yield from d.shot("resume")
    yield from d.press("Continue this game")
    yield from d.expect("setup")  # the simulated board starts empty: set the game up again
    yield from d.shot("resumed-setup")
    yield from d.press("Place every piece for me")
    yield from d.expect("game")
    assert [m.san for m in d.flow.game.session.moves] == ["e4", "e5"]
    yield from d.move("g1", "f3")
    yield from d.shot("resumed-game")


def vs_computer(d: Driver):
    """Against the computer (Black, level 1): it thinks in its worker, its move is lit, a person
    makes it on the board; an undo takes back its reply and the player's move together."""
    yield from d.choose_computer(1)  # Black
    assert d.flow.ai.computer is not None, "companion.ai is not installed"
    yield from d.shot("start-computer")
    yield from d.press("Start")
    yield from d.press("Place every piece for me")
    yield from d.expect("game")
    s = d.flow.game.session
    assert s.seats[1].computer and not s.seats[0].computer
    yield from d.move("e2", "e4")
    yield from d.wait_for_computer()
    g = s.rules.geometry
    move = d.flow.ai.requested
    yield from d.wait_lit(move.frm, move.to)  # the computer's move blinks: shown while it is on
    yield from d.shot("computer-move")
    yield from d.move(g.name_of(move.frm), g.name_of(move.to))
    assert len(s.moves) == 2 and d.flow.ai.requested is None
    first_two = [m.san for m in s.moves]
    yield from d.move("d2", "d4")
    yield from d.wait_for_computer()
    move = d.flow.ai.requested
    yield from d.move(g.name_of(move.frm), g.name_of(move.to))
    assert len(s.moves) == 4
    if d.flow.display.screen == "fight":  # the computer's level 1 sometimes captures (a Combat Chess fight)
        yield from d.roll_until_decided()
        yield from d.press("Continue")
        yield from d.follow_the_lights()
    yield from d.press("Undo")
    assert [m.san for m in s.moves] == first_two and s.turn == 0
    yield from d.shot("computer-undo")


class CollectorLog:
    """The gc module, its calls written down (companion/app/heap.py's collector)."""

    def __init__(self) -> None:
        import gc

        self.gc, self.calls = gc, []

    def __getattr__(self, name: str):
        def call(*args):
            self.calls.append(name)
            return getattr(self.gc, name)(*args)
        return call


def language_unfreezes(d: Driver):
    """A change of language builds every screen again (the seats named after their colours in
    it). The ones dropped had been frozen out of the collector's walk (companion/app/heap.py):
    the next rest unfreezes and collects everything before it freezes again; the rests after it
    collect only what is not frozen."""
    import gc

    from companion.app.pacing import REST_AFTER_MS

    rest = REST_AFTER_MS / 1000 + 1.5
    heap = d.app._heap
    yield from d.expect("start")
    for _ in range(100):  # the window's own collect and freeze come 3 pumps after its first frames
        if heap.freezes:
            break
        yield 0.1
    log = heap.collector = CollectorLog()  # swapped in after it, so a slow first frame cannot add to the log
    yield rest
    assert heap.freezes == 1 and gc.get_freeze_count() > 0, "the window frozen once its first frames were drawn"
    assert log.calls == ["collect"], f"a plain rest: {log.calls}"
    yield from d.press_key("settings")
    yield from d.press("Language: English")
    yield from d.press("Deutsch")
    yield from d.expect("start")
    yield rest
    assert log.calls[1:] == ["unfreeze", "collect", "freeze"], f"the rest after the change: {log.calls}"
    yield from d.press_key("settings")
    yield from d.press("Cancel")  # in German: the driver names buttons in English
    yield rest
    assert log.calls[4:] == ["collect"], f"the next rest: {log.calls}"
    shown = {w.text for w in d.widgets() if isinstance(w, BigButton) and w.opacity > 0}
    assert {"Weiß", "Schwarz"} <= shown and not {"White", "Black"} & shown, f"the seats' names: {sorted(shown)}"
    yield from d.shot("start-german")
    # a game begun in English, switched to German mid-game: its seats' words follow (docs/i18n.md)
    yield from d.press_key("settings")
    yield from d.press(T.LANGUAGE_ITEM.format(name="Deutsch"))
    yield from d.press("English")
    yield from d.expect("start")
    yield from d.press("Start")
    yield from d.press("Place every piece for me")
    yield from d.expect("game")
    yield from d.move("e2", "e4")
    assert [p.name for p in d.app.presenters.game.view().players] == ["White", "Black"]
    yield from d.press("Menu")
    yield from d.press("Settings\u2026")
    yield from d.press(T.LANGUAGE_ITEM.format(name="English"))
    yield from d.press("Deutsch")
    yield from d.expect("game")
    yield 0.3
    texts = {w.text for w in d.widgets() if isinstance(getattr(w, "text", None), str) and w.opacity > 0}
    assert "Schwarz am Zug" in texts and {"Weiß", "Schwarz"} <= texts, f"the game screen: {sorted(texts)}"
    assert not {"White", "Black"} & texts and not any("Black (" in t for t in texts), sorted(texts)
    yield from d.shot("game-german")


SCENARIOS = {"combat-game": combat_game, "app-dice": app_dice, "leave-unfinished": leave_unfinished,
             "resume": resume_game, "vs-computer": vs_computer, "language-unfreezes": language_unfreezes}


def run_app(flow, script, driver_class=None) -> int:
    """Open the app around ``flow``, play ``script`` in it by taps, and report: the exit
    status, "SHOTS ..." and "SMOKE OK" on stdout, the failure on stderr."""
    app = bootstrap.build_app(flow)
    driver = (driver_class or Driver)(app)
    driver.run(script)
    app.run()
    if driver.failure:
        print(driver.failure, file=sys.stderr)
        return 1
    print("SHOTS " + " ".join(driver.shots))
    print("SMOKE OK")
    return 0


def main() -> int:
    SHOTS.mkdir(parents=True, exist_ok=True)
    board = bootstrap.open_board()
    seed_counter = iter(range(1, 1000))
    # the product's tracker with short settle times: the tests wait less, the logic is the same
    tracker = functools.partial(bootstrap.default_tracker(), settle_ms=40, slow_settle_ms=80, castle_settle_ms=120)
    flow = bootstrap.build_flow(board, JournalStore(DATA), make_tracker=tracker, computer=seeded_computer(),
                                seed=lambda: bytes([next(seed_counter)]) * 32)
    return run_app(flow, SCENARIOS[SCENARIO])


def seeded_computer(seed: int = 5):
    """The app's computer player with a seeded choice among its moves: the level-1 computer's
    mistakes (companion.ai.levels) are the same on every run, so a scenario against it takes
    the same path each time (the product seeds it at random)."""
    import random

    from companion.ai import levels, worker
    from companion.app.computer import SearchComputer

    return SearchComputer(levels, worker, rng=random.Random(seed))


if __name__ == "__main__":
    sys.exit(main())
