"""Every screen of the app, and its popups, at 800x480 (the Raspberry Pi touchscreen) and at
1280x800: no widget outside the window, no text under 12 px (the board's labels, badges and
odds included), no label whose text does not fit its box, no other action put under a finger by
a screen that came by itself, and a second tap at once does nothing. The walk also reviews a
saved game, copies the games to a folder standing in for a USB stick, plays an unfinished game
on, starts a game from a position set up by hand, and plays a tournament game at the clock to
the arbiter's screen (tests/ui_screens_driver.py). Screens the
walk does not reach are opened as they stand, so a screen added later is checked too.
"""

from __future__ import annotations

import pytest

from tests.ui_scenarios import HERE, SHOTS, run_scenario

pytestmark = [pytest.mark.ui, pytest.mark.slow]

DRIVER = HERE / "ui_screens_driver.py"
#: (scenario, screenshot) -> file name under docs/screenshots/ (the README's gallery, 800x480);
#: the other screens' pictures come from the scenario tests (test_ui_smoke.py, test_ui_dungeon.py)
DOCS_SHOTS = {
    ("all", "resume"): "resume.png",
    ("all", "games"): "games.png",
    ("all", "review"): "review.png",
    ("all", "position"): "position.png",
    ("all", "dungeon-lifted"): "dungeon-zoom.png",
}


#: German words are long: the walk runs in German too, at the Pi's 800x480 (docs/i18n.md)
GERMAN_SHOTS = {("all", "start"): "de-start.png", ("all", "game"): "de-game.png", ("all", "settings"): "de-settings.png"}


@pytest.mark.parametrize("size, language", [("800x480", "en"), ("1280x800", "en"), ("800x480", "de")])
def test_every_screen_fits_the_window_and_reads_at_arms_length(tmp_path, size, language):
    data = tmp_path / "data"
    shots, log = run_scenario(DRIVER, "all", SHOTS / f"screens-{size}-{language}", data, tmp_path, size=size,
                              timeout=600, language=language,
                              docs_shots=(DOCS_SHOTS if language == "en" else GERMAN_SHOTS) if size == "800x480" else {})
    problems = [line for line in log.splitlines() if line.startswith("PROBLEM ")]
    assert not problems, "\n".join(problems)
    seen = next(line for line in log.splitlines() if line.startswith("SCREENS ")).split()[1:]
    assert {"start", "draft", "deploy", "dungeon_game", "setup", "game", "fight", "game_over", "games", "review",
            "position", "board_check", "problem", "resume", "loading", "table_setup", "clock", "arbiter"} <= set(seen)
    copied = list((tmp_path / "stick" / "companion-games").glob("*.jsonl"))
    assert len(copied) >= 3  # every saved game (and its dice record) went to the stick
