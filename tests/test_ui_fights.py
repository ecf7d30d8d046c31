"""Smoke tests: four-player chess and dice fights in other games, in the real app (Xvfb), played
by taps; screenshots checked (tests/ui_layout.py at every one). tests/ui_fights_driver.py plays
each scenario in its own process; the screenshots the README shows go to docs/screenshots/."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.ui_scenarios import HERE, SHOTS, run_scenario

pytestmark = [pytest.mark.ui, pytest.mark.slow]

DRIVER = HERE / "ui_fights_driver.py"
#: (scenario, screenshot) -> file name under docs/screenshots/
DOCS_SHOTS = {
    ("start", "start-dungeon-fights"): "start-dice-fights.png",
    ("start", "start-chess4"): "start-chess4.png",
    ("chess4-points", "chess4-points"): "chess4-points.png",
    ("chess4-points", "chess4-over"): "chess4-over.png",
    ("dungeon-fight", "dungeon-fight-entry"): "dungeon-fight.png",
    ("dungeon-fight", "dungeon-after-fight"): "dungeon-after-fight.png",
    ("kol-fight", "kol-fight"): "kol-fight.png",
}


def run(scenario: str, data: Path, tmp_path: Path) -> list[str]:
    shots, _ = run_scenario(DRIVER, scenario, SHOTS / f"fights-{scenario}", data, tmp_path, timeout=240,
                            docs_shots=DOCS_SHOTS)
    return [s.stem for s in shots]


def test_the_start_screen_switches_dice_fights_on_and_a_four_player_game_starts_with_the_computer(tmp_path):
    """Dice fights on Dungeon Chess (real dice) and KoL Chess, four-player chess in teams with
    the computer playing Blue: the game begun by taps, the computer's move made on the board."""
    assert run("start", tmp_path / "data", tmp_path) == [
        "start-dungeon-fights", "start-kol-fights", "start-chess4", "chess4-setup", "chess4-computer-move"]


def test_four_player_chess_shows_points_and_a_dead_army_and_ends_when_three_players_are_out(tmp_path):
    assert run("chess4-points", tmp_path / "data", tmp_path) == ["chess4-points", "chess4-over"]


def test_a_dungeon_fight_with_real_dice_typed_on_the_number_pad(tmp_path):
    assert run("dungeon-fight", tmp_path / "data", tmp_path) == [
        "dungeon-odds", "dungeon-fight", "dungeon-fight-entry", "dungeon-fight-result", "dungeon-after-fight"]


def test_a_kol_double_capture_is_one_fight_rolled_by_the_app(tmp_path):
    assert run("kol-fight", tmp_path / "data", tmp_path) == ["kol-fight", "kol-fight-result", "kol-after-fight"]
