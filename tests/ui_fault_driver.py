"""Open the real app on a fault and play it by taps: a poisoned journal, a resume worker that
dies, a computer whose search fails. Same arguments and output as tests/ui_smoke_driver.py
(whose Driver it uses):

    python tests/ui_fault_driver.py SCENARIO SHOT_DIR DATA_DIR [WIDTHxHEIGHT]

The test writes the poisoned current.jsonl into DATA_DIR before it starts this driver.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.ui_smoke_driver import DATA, SCENARIO, SHOTS, Driver, run_app  # noqa: E402 (window config first)

from companion.app import bootstrap  # noqa: E402
from companion.journal import JournalStore  # noqa: E402


def _tap_text(d: Driver, text: str):
    """A tap on the (tappable) label showing ``text``."""
    from kivy.tests.common import UnitTestTouch

    found = [w for w in d.widgets() if getattr(w, "text", None) == text and w.opacity > 0]
    assert found, f"{text!r} is not on screen"
    x, y = found[-1].to_window(*found[-1].center)
    touch = UnitTestTouch(x, y)
    touch.touch_down()
    touch.touch_up()
    yield 0.1


Driver.tap_text = _tap_text


def poisoned(d: Driver):
    """The app says what was wrong and where the file went; then a new game can be played."""
    yield 0.3
    yield from d.expect("problem")
    view = d.app.presenters.problem.view()
    assert view.title == "The last game could not be loaded" and "games/damaged" in view.advice, view
    shown = {getattr(w, "text", None) for w in d.widgets() if getattr(w, "opacity", 0) == 1}
    assert {view.title, view.reason, view.advice} <= shown, "the message is not on screen"
    yield from d.shot("poisoned")
    yield from d.press("Continue")
    yield from d.expect("start")
    yield from d.press("Start")
    yield from d.expect("setup")
    yield from d.press("Place every piece for me")
    yield from d.expect("game")
    yield from d.move("e2", "e4")


def resume_dies(d: Driver):
    """The resume worker dies: the problem screen, never an endless progress bar."""
    yield 0.3
    yield from d.expect("problem")
    yield from d.shot("problem-resume")
    yield from d.press("Continue")
    yield from d.expect("start")


def computer_fails(d: Driver):
    """The computer's search raises: the problem screen says so; Continue goes back to the
    game, where a person may make the computer's move."""
    yield from d.choose_computer(1)
    yield from d.press("Start")
    yield from d.press("Place every piece for me")
    yield from d.expect("game")
    yield from d.move("e2", "e4")
    for _ in range(200):
        if d.flow.display.screen == "problem":
            break
        yield 0.05
    yield from d.expect("problem")
    yield from d.shot("problem-computer")
    yield from d.press("Continue")
    yield from d.expect("game")
    yield from d.move("e7", "e5")
    assert [m.san for m in d.flow.game.session.moves] == ["e4", "e5"]


class _BrokenLevels:
    """companion.ai.levels with a player whose search always raises."""

    def __init__(self):
        from companion.ai import levels

        self.LEVELS = levels.LEVELS
        self._real = levels.ComputerPlayer

    def ComputerPlayer(self, rules, level, rng):  # noqa: N802 - stands in for the class
        player = self._real(rules, level, rng)

        def choose(*a, **kw):
            raise RecursionError("maximum recursion depth exceeded")

        player.choose = choose
        return player


def low_space(d: Driver):
    """Little free space: a warning on the start screen, and in the game's banner."""
    yield from d.expect("start")
    warning = d.app.presenters.start.view().problem
    assert warning == "Little space left for saved games: 12 MB. Tap here.", warning
    yield from d.shot("low-space-start")
    yield from d.tap_text(warning)
    assert d.flow.display.prompt is not None and d.flow.display.prompt.kind == "space"
    yield from d.shot("low-space-help")
    yield from d.press("Close")
    yield from d.press("Start")
    yield from d.press("Place every piece for me")
    yield from d.expect("game")
    FREE[0] = 600 * 1024
    yield 0.2
    d.flow.storage.check_space()
    yield from d.move("e2", "e4")
    assert d.app.presenters.game.view().banner == "Storage almost full: 600 KB left. Tap here."
    yield from d.shot("low-space-game")


FREE = [12 * 1024 * 1024]
SCENARIOS = {"poisoned": poisoned, "resume-dies": resume_dies, "computer-fails": computer_fails,
             "low-space": low_space}


def main() -> int:
    SHOTS.mkdir(parents=True, exist_ok=True)
    computer = bootstrap.default_computer()
    if SCENARIO == "resume-dies":
        import companion.app.presenters.resume as resume_module

        def dies(*a, **kw):
            raise MemoryError("out of memory while reading the journal")

        resume_module.resume = dies
    if SCENARIO == "computer-fails":
        from companion.ai import worker

        from companion.app.computer import SearchComputer

        computer = SearchComputer(_BrokenLevels(), worker)
    free = (lambda: FREE[0]) if SCENARIO == "low-space" else None
    flow = bootstrap.build_flow(bootstrap.open_board(), JournalStore(DATA), make_tracker=bootstrap.default_tracker(),
                                computer=computer, free_bytes=free)
    return run_app(flow, SCENARIOS[SCENARIO])


if __name__ == "__main__":
    sys.exit(main())
