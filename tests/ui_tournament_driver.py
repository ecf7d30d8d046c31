"""Open the real app and play at the tournament table by taps, as players and an arbiter
would; save screenshots and check every screen's text (no text under 12 px, nothing cut off).

    python tests/ui_tournament_driver.py SCENARIO SHOT_DIR DATA_DIR [WIDTHxHEIGHT]

The same driver as tests/ui_smoke_driver.py (widgets found by their text, squares of the
on-screen board; presenters never called), with the clock's halves and the on-screen keyboard.
The clock runs on the real monotonic time. Test-only shortcuts, set before the app runs: a
folder under DATA_DIR stands in for a mounted USB stick (with a pairing file on it), and the
flag scenario plays a 6-second game (``next_table.clock``) so the flag falls within the test.
"""

from __future__ import annotations

import functools
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import ui_smoke_driver as base  # noqa: E402  (sets up the window from argv first)
from kivy.core.window import Window  # noqa: E402
from kivy.tests.common import UnitTestTouch  # noqa: E402
from kivy.uix.label import Label  # noqa: E402

from companion.app import bootstrap  # noqa: E402
from companion.app.screens.clock import ClockFace  # noqa: E402
from companion.journal import JournalStore  # noqa: E402

FRAME = base.FRAME
MEDIA = base.DATA.parent / f"{base.DATA.name}-media"
STICK = MEDIA / "pi" / "CLUB-USB"
PAIRINGS = Path(__file__).resolve().parent / "data" / "pairings"
MIN_FONT = 12


class TableDriver(base.Driver):
    def clock_tap(self, position: int):
        """A tap on the left (0) or right (1) half of the clock."""
        yield FRAME
        faces = sorted((w for w in self.widgets() if isinstance(w, ClockFace) and w.get_root_window() is not None),
                       key=lambda w: w.to_window(*w.center)[0])
        assert len(faces) == 2, f"no clock on screen {self.flow.display.screen!r}"
        face = faces[position]
        assert not face.disabled, f"the {'left' if position == 0 else 'right'} half is disabled"
        x, y = face.to_window(*face.center)
        touch = UnitTestTouch(x, y)
        touch.touch_down()
        touch.touch_up()
        yield FRAME * 2

    def by_hand(self, frm: str, to: str, capture: bool = False):
        """Pieces moved on the board; nothing happens in the game until the clock is pressed."""
        if capture:
            yield from self.tap(to)
        yield from self.tap(frm)
        yield from self.tap(to)

    def show_board(self):
        yield from self.press("Board")

    def show_clock(self):
        yield from self.press("Clock")

    def move_and_press(self, frm: str, to: str, capture: bool = False):
        """Move on the screen's board, back to the clock, tap the mover's half."""
        s = self.flow.game.session
        side = s.turn
        before = len(s.moves)
        yield from self.show_board()
        yield from self.by_hand(frm, to, capture)
        yield from self.show_clock()
        yield from self.clock_tap(side)
        assert len(s.moves) == before + 1, (frm, to, self.flow.display.notice)

    def press_at(self, text: str, position: int):
        """The ``position``-th (from the left) of the buttons showing ``text``."""
        from companion.app.widgets.common import BigButton

        from companion.i18n import _ as in_language

        text = in_language(text)
        yield FRAME
        found = sorted((w for w in self.widgets() if isinstance(w, BigButton) and w.text == text and not w.disabled
                        and w.opacity > 0 and w.get_root_window() is not None), key=lambda w: w.to_window(*w.center)[0])
        assert len(found) > position, f"no {position + 1} buttons {text!r} on screen {self.flow.display.screen!r}"
        x, y = found[position].to_window(*found[position].center)
        touch = UnitTestTouch(x, y)
        touch.touch_down()
        touch.touch_up()
        yield FRAME * 2

    def type(self, text: str):
        for ch in text:
            yield from self.press("Space" if ch == " " else ch)
        yield from self.press("OK")

    def layout_problems(self) -> list[str]:
        """Text under 12 px, or a label whose text does not fit its box or the window."""
        problems = []
        width, height = Window.size
        for w in self.widgets():
            if not isinstance(w, Label) or not w.text.strip() or w.get_root_window() is None:
                continue
            if w.opacity == 0 or w.width < 2 or w.height < 2 or _hidden(w):
                continue
            where = f"{type(w).__name__} {w.text[:30]!r}"
            if w.font_size < MIN_FONT - 0.01:
                problems.append(f"{where}: font {w.font_size:.1f} px")
            w.texture_update()
            tw, th = w.texture_size
            if tw > w.width + 2 or th > w.height + 2:
                problems.append(f"{where}: text {tw:.0f}x{th:.0f} in a box {w.width:.0f}x{w.height:.0f}")
            x0, y0 = w.to_window(w.x, w.y)
            if x0 < -1 or y0 < -1 or x0 + w.width > width + 1 or y0 + w.height > height + 1:
                problems.append(f"{where}: outside the window at {x0:.0f},{y0:.0f}")
        return problems

    def shot(self, name: str):
        yield from super().shot(name)
        problems = self.layout_problems()
        assert not problems, f"{name}: " + "; ".join(problems[:6])


def _hidden(w) -> bool:
    """Inside a widget that is not shown (zero size or transparent), e.g. a hidden row."""
    p = w.parent
    while p is not None and p is not p.parent:
        if getattr(p, "opacity", 1) == 0 or (hasattr(p, "height") and p.height < 2 and p.size_hint_y is None):
            return True
        p = p.parent
    return False


# ----- scenarios --------------------------------------------------------------------------------------


def open_tournament(d: TableDriver, clock: str = "3+2"):
    yield from d.expect("start")
    yield from d.press("Chess")
    if d.app.presenters.start.game == "combat":  # chess's "Dice fights" switch is on: off, plain chess
        yield from d.press_key("fights")
    assert d.app.presenters.start.game == "chess"
    yield from d.press("Casual, no clock")
    yield from d.expect("table_setup")
    yield from d.press("Tournament")
    yield from d.press(clock)


def start_at_the_clock(d: TableDriver):
    """From the table screen: the game set up on the board, the clock started by Black."""
    yield from d.press("Done")
    yield from d.press("Start")
    yield from d.press("Place every piece for me")
    yield from d.clock_tap(1)


def start_tournament(d: TableDriver, clock: str = "15+10"):
    """A tournament game set up on the board, the clock started by Black."""
    yield from open_tournament(d, clock)
    yield from start_at_the_clock(d)


def named_tournament(d: TableDriver, name: str = "Anna"):
    """White's name typed on the keyboard, tournament mode chosen on the table screen, the game
    started and its board set up: the clock waits for Black's first press."""
    yield from d.press("White")  # the name button opens the name picker
    yield from d.press("Type a name\u2026")
    yield from d.shot("keyboard")
    yield from TableDriver.type(d, name)
    yield from open_tournament(d)
    yield from d.shot("table-setup")
    yield from d.press("Done")
    yield from d.shot("start-tournament")
    yield from d.press("Start")
    yield from d.press("Place every piece for me")
    yield from d.expect("game")


def blitz(d: TableDriver):
    """A whole blitz game in tournament mode with the clock running: players typed on the
    keyboard, the table screen, the clock started by Black, every move pressed, mate."""
    yield from named_tournament(d)
    assert d.flow.view_screen == "clock"
    yield from d.shot("clock-start")
    yield from d.clock_tap(1)  # Black starts White's clock
    for frm, to, capture in (("e2", "e4", False), ("e7", "e5", False), ("f1", "c4", False), ("b8", "c6", False),
                             ("d1", "h5", False), ("g8", "f6", False)):
        yield from d.move_and_press(frm, to, capture)
        if len(d.flow.game.session.moves) == 4:
            yield 1.2  # the clock visibly runs
            yield from d.shot("clock-running")
    yield from d.show_board()
    yield from d.by_hand("h5", "f7", capture=True)
    yield from d.shot("tournament-board")  # nothing lit but the last move
    yield from d.show_clock()
    yield from d.clock_tap(0)
    yield from d.expect("game_over")
    assert d.flow.game.session.result.reason == "checkmate"
    assert [m.san for m in d.flow.game.session.moves][-1] == "Qxf7#"
    yield from d.shot("tournament-game-over")
    games = base.DATA / "games"
    assert list(games.glob("*.pgn")), "no record saved"


def illegal(d: TableDriver):
    """An illegal move caught at the press: the penalty, the board guided back."""
    yield from start_tournament(d)
    yield from d.move_and_press("e2", "e4")
    yield from d.show_board()
    yield from d.by_hand("e8", "e6")  # the king jumps two squares
    yield from d.show_clock()
    yield from d.clock_tap(1)
    assert d.flow.game.table.illegal == {1: 1}, d.flow.display.notice
    yield from d.shot("illegal-penalty")
    yield from d.show_board()
    yield from d.shot("illegal-guided-back")
    yield from d.follow_the_lights()
    yield from d.show_clock()
    yield from d.move_and_press("e7", "e5")


def claim(d: TableDriver):
    """Knights out and back twice: the third repetition is claimed and checked."""
    yield from start_tournament(d)
    for _ in range(2):
        for frm, to in (("g1", "f3"), ("g8", "f6"), ("f3", "g1"), ("f6", "g8")):
            yield from d.move_and_press(frm, to)
    yield from d.press_at("Claim draw", 0)  # White, to move, claims
    yield from d.shot("claim")
    yield from d.press("Threefold repetition")
    yield from d.expect("game_over")
    assert d.flow.game.session.result.reason == "threefold repetition"
    yield from d.shot("claim-drawn")


def open_arbiter(d: TableDriver, pin: str = "2468"):
    """Menu, Arbiter, a PIN set on the board's number pad (typed twice): the arbiter's screen."""
    yield from d.press("Menu")
    yield from d.press("Arbiter")
    yield from d.shot("pin-pad")
    for _ in range(2):
        for digit in pin:
            yield from d.press(digit)
        yield from d.press("OK")
    yield from d.expect("arbiter")


def arbiter(d: TableDriver):
    """The arbiter sets a PIN, pauses, corrects a clock, restarts it."""
    yield from start_tournament(d)
    yield from d.move_and_press("d2", "d4")
    yield from open_arbiter(d)
    yield from d.press("Pause")
    yield from d.press_at("Penalty", 0)  # against White
    yield from d.press_at("Set time", 0)  # White's clock
    for digit in "1000":
        yield from d.press(digit)
    yield from d.press("OK")
    yield from d.shot("arbiter")
    yield from d.press("Restart clock")
    yield from d.press("Back")
    view = d.flow.game.table.clock.view(d.flow.clock_ms())
    assert 595_000 < view.times[0] <= 600_000 and d.flow.game.table.illegal == {0: 1}, view
    yield from d.shot("arbiter-corrected")


def flag(d: TableDriver):
    """A 6-second game: tenths under ten seconds, the flag shown at once."""
    yield from open_tournament(d, "3+2")
    d.flow.settings.next_table.clock = "6"  # test-only shortcut: a game the test can wait for
    yield from start_at_the_clock(d)
    yield 2.0
    yield from d.shot("clock-tenths")
    assert "." in d.app.presenters.clock.view().halves[0].face
    waited = 0.0
    while d.flow.game.session.result is None:
        assert waited < 10, "the flag did not fall"
        yield 0.1
        waited += 0.1
    yield from d.expect("game_over")
    assert d.flow.game.session.result.reason == "time"
    yield from d.shot("flag")


def pairing(d: TableDriver):
    """Players, board and clock from a TRF file on a USB stick; the result back on the stick."""
    yield from d.press("Casual, no clock")
    yield from d.press("From a pairing file\u2026")
    yield from d.press("leiden-rapid.trf (CLUB-USB)")
    yield from d.shot("pairing-boards")
    yield from d.press("2. IM Okafor, Ada (2455) \u2013 FM Lindqvist, Per (2390)")
    yield from d.shot("pairing-chosen")
    yield from d.press("Done")
    yield from d.press("Start")
    yield from d.press("Place every piece for me")
    yield from d.shot("pairing-clock")
    yield from d.clock_tap(1)
    yield from d.move_and_press("c2", "c4")
    yield from d.press_at("Resign", 1)  # Black resigns
    yield from d.press("Yes, resign")
    yield from d.expect("game_over")
    yield from d.press("Copy games to a USB stick")
    assert (STICK / "companion-games" / "round-4-results.csv").exists(), d.flow.display.notice
    yield from d.shot("pairing-copied")


def big_clock(d: TableDriver):
    """The clock at 1280x800."""
    yield from start_tournament(d)
    yield from d.move_and_press("e2", "e4")
    yield from d.shot("clock-1280x800")


def screens(d: TableDriver):
    """The screens both the tournament table and Load / Save add to, at 800x480, every text
    checked: the start screen of each game (KoL Chess and the table's settings side by side),
    the menu of a clocked game (Load / Save and the table's items), the Load / Save screen of
    that game and its keyboard."""
    yield from d.expect("start")
    for name, game in (("combat", "Chess"), ("kol", "KoL Chess"), ("dungeon", "Dungeon Chess"), ("chess", "Chess")):
        yield from d.press(game)
        if name == "combat":  # chess with its "Dice fights" switch on; the longest hint: checkable dice, only d6
            assert d.flow.game.session is None and d.app.presenters.start.game == "combat"
            yield from d.press("Checkable")
            yield from d.press("Only d6")
        if name == "chess":  # its switch off: plain chess
            yield from d.press_key("fights")
        yield from d.shot(f"start-{name}")
    yield from d.press("Casual, no clock")
    yield from d.press("Casual")
    yield from d.press("3+2")
    yield from start_at_the_clock(d)
    yield from d.move_and_press("e2", "e4")
    yield from d.press("Menu")
    yield from d.shot("menu")
    yield from d.press("Load / Save")
    yield from d.expect("game_text")
    assert '"type":"press"' in d.app.presenters.text.view().text  # the clock is in the game's text
    yield from d.shot("game-text")
    yield from d.press("Type a game\u2026")
    yield from d.shot("game-text-keyboard")


SCENARIOS = {"screens": screens, "blitz": blitz, "illegal": illegal, "claim": claim, "arbiter": arbiter, "flag": flag,
             "pairing": pairing, "big": big_clock}


def main() -> int:
    base.SHOTS.mkdir(parents=True, exist_ok=True)
    if base.SCENARIO == "pairing":
        STICK.mkdir(parents=True, exist_ok=True)
        (STICK / ".companion-stick").write_text("")
        shutil.copy(PAIRINGS / "leiden-rapid.trf", STICK / "leiden-rapid.trf")
    board = bootstrap.open_board()
    tracker = functools.partial(bootstrap.default_tracker(), settle_ms=40, slow_settle_ms=80, castle_settle_ms=120)
    flow = bootstrap.build_flow(board, JournalStore(base.DATA), make_tracker=tracker, computer=None,
                                media_roots=(MEDIA,))
    return base.run_app(flow, SCENARIOS[base.SCENARIO], TableDriver)


if __name__ == "__main__":
    sys.exit(main())
