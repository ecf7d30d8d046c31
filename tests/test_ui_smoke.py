"""Smoke tests: the real app in a real window (Xvfb), played by taps; screenshots checked.

Each scenario runs tests/ui_smoke_driver.py in its own process (a Kivy app is one per
process), under the display the test run has, or under xvfb-run when there is none. A scenario
fails on a non-zero exit, on any error or traceback in the app's log, or on a screenshot that
is blank. Screenshots land in tests/screenshots/<scenario>/ (not in git); the ones the README
shows are copied to docs/screenshots/ when missing or when COMPANION_UPDATE_SCREENSHOTS=1.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.ui_scenarios import HERE, SHOTS, run_scenario

pytestmark = pytest.mark.ui

DRIVER = HERE / "ui_smoke_driver.py"
#: screenshot name in a scenario -> file name under docs/screenshots/
README_SHOTS = {
    ("combat-game", "start"): "start.png",
    ("combat-game", "setup"): "setup.png",
    ("combat-game", "lifted-piece"): "lifted-piece.png",
    ("combat-game", "fight-odds"): "fight-odds.png",
    ("combat-game", "fight-entry"): "fight-real-dice.png",
    ("combat-game", "fight-result"): "fight-result.png",
    ("combat-game", "fatigue"): "game.png",
    ("combat-game", "promotion"): "promotion.png",
    ("combat-game", "piece-info"): "piece-info.png",
    ("combat-game", "undo-guidance"): "undo.png",
    ("combat-game", "game-over"): "game-over.png",
    ("app-dice", "fight-rolled"): "fight-app-dice.png",
    ("app-dice", "board-check"): "board-check.png",
    ("resume", "resumed-game"): "game-1280x800.png",
    ("vs-computer", "computer-move"): "computer-move.png",
}


def run_driver(scenario: str, data: Path, tmp_path: Path, size: str = "800x480") -> list[Path]:
    shots, _ = run_scenario(DRIVER, scenario, SHOTS / scenario, data, tmp_path, size=size,
                            timeout=180, docs_shots=README_SHOTS)
    return shots


def names(shots: list[Path]) -> list[str]:
    return [s.stem for s in shots]


def test_a_whole_combat_chess_game_is_played_by_taps_alone(tmp_path):
    """Real dice on the number pad, a tie, an undo guided back, a promotion, checkmate."""
    shots = run_driver("combat-game", tmp_path / "data", tmp_path)
    assert names(shots)[-1] == "game-over" and "promotion" in names(shots) and "fight-tie" in names(shots)
    archived = list((tmp_path / "data" / "games").glob("*.jsonl"))
    assert any(p.name.endswith(".dice.jsonl") for p in archived) and not (tmp_path / "data" / "current.jsonl").exists()


def test_app_rolled_dice_animate_and_the_seed_is_revealed_at_the_end(tmp_path):
    shots = run_driver("app-dice", tmp_path / "data", tmp_path)
    assert {"fight-rolling", "fight-rolled", "board-check", "game-over-seed"} <= set(names(shots))


def test_a_game_left_unfinished_is_resumed_at_the_next_start_in_a_larger_window(tmp_path):
    data = tmp_path / "data"
    run_driver("leave-unfinished", data, tmp_path)
    assert (data / "current.jsonl").exists()
    shots = run_driver("resume", data, tmp_path, size="1280x800")
    assert names(shots) == ["resume", "resumed-setup", "resumed-game"]


def test_against_the_computer_its_move_is_lit_and_undo_takes_back_its_reply_too(tmp_path):
    shots = run_driver("vs-computer", tmp_path / "data", tmp_path)
    assert names(shots) == ["start-computer", "computer-move", "computer-undo"]


def test_after_a_change_of_language_the_next_rest_unfreezes_and_collects_everything(tmp_path):
    """The screens it replaced had been frozen (companion/app/heap.py): what died in a cycle
    since a freeze is walked again at the next rest (the old screens themselves are still held
    by Kivy: docs/performance.md, "The collection at rest")."""
    shots = run_driver("language-unfreezes", tmp_path / "data", tmp_path)
    assert names(shots) == ["start-german", "game-german"]
