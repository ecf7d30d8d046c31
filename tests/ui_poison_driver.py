"""Open the real app at the tournament table, to be killed, poisoned and started again (issue
26): tests/test_ui_clock_poison.py runs it.

    python tests/ui_poison_driver.py SCENARIO SHOT_DIR DATA_DIR [WIDTHxHEIGHT]

``play``: a rapid tournament game by taps; the arbiter's PIN set on the number pad; 1. e4 pressed;
Black thinks (clock checkpoints go to the disk); then it prints ``KILL ME <pid>`` and waits to be
killed (SIGKILL). The test then damages ``arbiter.json`` and ``clock.checkpoint``.

``poisoned``: the app started again on that data folder, played by taps: the game is taken up;
the screen says the clock could not be restored and shows the journal's times; Close; the board
set up; Menu -> Arbiter says arbiter mode is locked and how to reset it (the popup's own
"Arbiter: set the clocks" too); the arbiter resets the PIN on the board's computer (companion
arbiter --reset-pin, run here as the arbiter would); then arbiter mode opens with the new PIN,
Black's clock is set and restarted, and the game goes on (1... e5 pressed).
"""

from __future__ import annotations

import functools
import io
import os
import sys
from argparse import Namespace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import ui_smoke_driver as base  # noqa: E402  (sets up the window from argv first)
from ui_tournament_driver import TableDriver, open_arbiter, open_tournament  # noqa: E402

from companion import arbiter_cli  # noqa: E402
from companion.app import bootstrap  # noqa: E402
from companion.app import texts as T  # noqa: E402
from companion.journal import JournalStore  # noqa: E402

FRAME = base.FRAME


def _on_screen(d: TableDriver, words: str) -> bool:
    return any(getattr(w, "text", None) == words and getattr(w, "opacity", 0) > 0 for w in d.widgets())


def play(d: TableDriver):
    yield from open_tournament(d, "15+10")
    yield from d.press("Done")
    yield from d.press("Start")
    yield from d.press("Place every piece for me")
    yield from d.expect("game")
    yield from open_arbiter(d)  # the PIN set on the board: arbiter.json is there
    yield from d.press("Back")
    yield from d.clock_tap(1)  # Black starts White's clock
    yield from d.move_and_press("e2", "e4")
    yield 1.6  # Black thinks: the running clock's checkpoints are written
    assert d.flow.clock.checkpoints.flush(), "the checkpoint writer is still busy"
    yield from d.shot("before-the-kill")
    print(f"KILL ME {os.getpid()}", flush=True)
    for _ in range(600):
        yield 0.2
    raise AssertionError("not killed within two minutes")


def poisoned(d: TableDriver):
    for _ in range(200):  # the journal replayed in a worker
        if d.flow.display.screen == "resume":
            break
        yield FRAME
    yield from d.expect("resume")
    yield from d.press(T.RESUME)
    yield from d.expect("setup")
    prompt = d.flow.display.prompt
    assert prompt is not None and prompt.kind == "clock-not-restored", (prompt, d.flow.display.notice)
    assert "15:00" in prompt.title, prompt.title  # Black's clock as the journal has it
    yield FRAME * 4
    assert _on_screen(d, prompt.title), "the message is not on screen"
    yield from d.shot("clock-not-restored")
    yield from d.press(T.SET_CLOCKS)  # straight to the arbiter: but the PIN file is damaged too
    locked = d.flow.display.prompt
    assert locked is not None and locked.kind == "pin-damaged" and d.flow.display.entry is None, locked
    yield FRAME * 4
    assert _on_screen(d, locked.title), "the lock is not said on screen"
    yield from d.shot("pin-locked-from-the-clock-message")
    yield from d.press(T.CLOSE)
    yield from d.press("Place every piece for me")
    yield from d.expect("game")
    assert d.flow.view_screen == "clock"
    view = d.app.presenters.clock.view()
    assert view.paused and view.halves[1].face == "15:00", view
    assert view.notice.startswith("The clock could not be restored after the power cut"), view.notice
    yield from d.shot("clock-journal-times")
    yield from d.press("Menu")
    yield from d.press("Arbiter")
    assert d.flow.display.prompt.kind == "pin-damaged" and d.flow.display.entry is None
    yield from d.shot("pin-locked")
    yield from d.press(T.CLOSE)
    # the arbiter resets the PIN on the board's computer (here: the command, run as the arbiter would)
    out = io.StringIO()
    assert arbiter_cli.run(Namespace(reset_pin=True, data=str(base.DATA)), out, io.StringIO(),
                           io.StringIO("1357\n1357\n")) == 0, out.getvalue()
    yield from d.press("Menu")
    yield from d.press("Arbiter")
    assert d.app.presenters.entry.view().title == T.PIN_ENTER
    yield from d.type("1357")  # the number pad, then OK
    yield from d.expect("arbiter")
    yield from d.press_at("Set time", 1)  # Black's clock: what the arbiter saw on it, 14:58
    yield from d.type("1458")
    yield from d.press("Restart clock")
    yield from d.shot("arbiter-set-the-clocks")
    yield from d.press("Back")
    yield from d.move_and_press("e7", "e5")
    assert [m.san for m in d.flow.game.session.moves] == ["e4", "e5"]
    yield from d.shot("the-game-goes-on")


SCENARIOS = {"play": play, "poisoned": poisoned}


def main() -> int:
    base.SHOTS.mkdir(parents=True, exist_ok=True)
    board = bootstrap.open_board()
    tracker = functools.partial(bootstrap.default_tracker(), settle_ms=40, slow_settle_ms=80, castle_settle_ms=120)
    flow = bootstrap.build_flow(board, JournalStore(base.DATA), make_tracker=tracker, computer=None)
    return base.run_app(flow, SCENARIOS[base.SCENARIO], TableDriver)


if __name__ == "__main__":
    sys.exit(main())
