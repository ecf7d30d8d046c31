"""Smoke tests: Dungeon Chess in the real app (Xvfb), played by taps; screenshots checked.

tests/ui_dungeon_driver.py plays each scenario in its own process (see tests/ui_scenarios.py
for how a scenario is run and checked). The screenshots the docs show are copied to
docs/screenshots/dungeon-*.png when missing or when COMPANION_UPDATE_SCREENSHOTS=1.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.ui_scenarios import HERE, SHOTS, run_scenario

pytestmark = pytest.mark.ui

DRIVER = HERE / "ui_dungeon_driver.py"
#: (scenario, screenshot) -> file name under docs/screenshots/
DOCS_SHOTS = {
    ("compact", "start"): "dungeon-start.png",
    ("compact", "draft"): "dungeon-draft.png",
    ("compact", "draft-swarm"): "dungeon-draft-problem.png",
    ("compact", "turn-order"): "dungeon-turn-order.png",
    ("compact", "deployment"): "dungeon-deployment.png",
    ("compact", "compact-game"): "dungeon-compact-game.png",
    ("four-player", "four-player-game"): "dungeon-four-player-game.png",
    ("four-player", "four-troll"): "dungeon-effect-guidance.png",
    ("four-player", "four-step"): "dungeon-step.png",
    ("four-player", "four-hex"): "dungeon-hex.png",
    ("four-player", "four-info"): "dungeon-unit-info.png",
    ("four-player", "game-over"): "dungeon-game-over.png",
    ("two-player", "two-player-game"): "dungeon-two-player-game.png",
    ("three-player", "three-start"): "dungeon-three-start.png",
    ("three-player", "three-player-game"): "dungeon-three-player-game.png",
    ("three-player", "three-undo"): "dungeon-undo-after-end.png",
}


def run(scenario: str, data: Path, tmp_path: Path, size: str = "800x480") -> tuple[list[Path], str]:
    """Run one scenario in its own process (tests/ui_scenarios.py); returns screenshots and log."""
    return run_scenario(DRIVER, scenario, SHOTS / f"dungeon-{scenario}", data, tmp_path, size=size,
                        timeout=240, docs_shots=DOCS_SHOTS)


def names(shots: list[Path]) -> list[str]:
    return [s.stem for s in shots]


def test_a_compact_game_is_drafted_deployed_by_taps_played_left_and_resumed(tmp_path):
    data = tmp_path / "data"
    shots, _ = run("compact", data, tmp_path)
    assert {"start", "draft-swarm", "draft", "turn-order", "deployment", "compact-game"} <= set(names(shots))
    assert (data / "current.jsonl").exists()
    shots, _ = run("compact-resume", data, tmp_path, size="1280x800")
    assert names(shots) == ["resume", "resumed-setup", "resumed-game"]


def test_a_four_player_game_on_the_20x20_map_is_played_by_taps_to_the_last_king_standing(tmp_path):
    shots, log = run("four-player", tmp_path / "data", tmp_path)
    assert {"four-troll", "four-info", "four-step", "four-hex", "four-explosion", "four-pass",
            "game-over"} <= set(names(shots))
    assert "REDRAW 20x20" in log
    archived = list((tmp_path / "data" / "games").glob("*.jsonl"))
    assert archived and not (tmp_path / "data" / "current.jsonl").exists()


def test_the_two_player_dungeon_is_deployed_with_the_rest_placed_for_us_and_played(tmp_path):
    shots, _ = run("two-player", tmp_path / "data", tmp_path)
    assert names(shots) == ["two-player-game"]


def test_a_three_player_game_on_the_four_player_map_is_set_up_and_played_by_taps(tmp_path):
    """"2-4 PLAYERS": the yellow seat left empty, Red a computer, the draw rules chosen; three
    armies drafted and deployed; moves by taps (the computer's carried out on the board); then
    a three-player ending to the last King standing, its last move taken back from the game-over
    screen (guided on the board) and played again."""
    shots, _ = run("three-player", tmp_path / "data", tmp_path)
    assert {"three-start", "three-deployment", "three-player-game", "three-pass", "three-game-over",
            "three-undo"} <= set(names(shots))
    archived = list((tmp_path / "data" / "games").glob("*.jsonl"))
    assert archived and not (tmp_path / "data" / "current.jsonl").exists()
