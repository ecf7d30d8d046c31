"""Smoke tests: the tournament table in the real app (Xvfb), played by taps; screenshots and
every screen's text checked (no text under 12 px, nothing cut off or outside the window).

tests/ui_tournament_driver.py plays each scenario in its own process (tests/ui_scenarios.py
runs and checks it). The screenshots the README shows are copied to docs/screenshots/ when
missing or when COMPANION_UPDATE_SCREENSHOTS=1.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.ui_scenarios import HERE, SHOTS, run_scenario

pytestmark = pytest.mark.ui

DRIVER = HERE / "ui_tournament_driver.py"
DOCS_SHOTS = {
    ("blitz", "table-setup"): "tournament-table.png",
    ("blitz", "clock-running"): "tournament-clock.png",
    ("blitz", "keyboard"): "tournament-keyboard.png",
    ("blitz", "tournament-board"): "tournament-board.png",
    ("illegal", "illegal-penalty"): "tournament-illegal.png",
    ("claim", "claim"): "tournament-claim.png",
    ("arbiter", "arbiter"): "tournament-arbiter.png",
    ("flag", "clock-tenths"): "tournament-tenths.png",
    ("flag", "flag"): "tournament-flag.png",
    ("pairing", "pairing-boards"): "tournament-pairing.png",
    ("pairing", "pairing-clock"): "tournament-round-board.png",
    ("big", "clock-1280x800"): "tournament-clock-1280x800.png",
    ("screens", "menu"): "tournament-menu.png",
    ("screens", "game-text"): "load-save-clock.png",
}


def run(scenario: str, tmp_path: Path, size: str = "800x480") -> list[str]:
    shots, _ = run_scenario(DRIVER, scenario, SHOTS / f"tournament-{scenario}", tmp_path / "data", tmp_path,
                            size=size, timeout=240, docs_shots=DOCS_SHOTS)
    return [s.stem for s in shots]


def test_a_whole_blitz_game_at_the_clock_in_tournament_mode(tmp_path):
    assert run("blitz", tmp_path) == ["keyboard", "table-setup", "start-tournament", "clock-start", "clock-running",
                                      "tournament-board", "tournament-game-over"]
    assert list((tmp_path / "data" / "games").glob("*.pgn"))


def test_an_illegal_move_is_penalised_at_the_press(tmp_path):
    assert run("illegal", tmp_path) == ["illegal-penalty", "illegal-guided-back"]


def test_a_threefold_repetition_claim(tmp_path):
    assert run("claim", tmp_path) == ["claim", "claim-drawn"]


def test_an_arbiter_correction_behind_the_pin(tmp_path):
    assert run("arbiter", tmp_path) == ["pin-pad", "arbiter", "arbiter-corrected"]


def test_a_flag_falls_and_is_shown_at_once(tmp_path):
    assert run("flag", tmp_path) == ["clock-tenths", "flag"]


def test_players_and_clock_from_a_pairing_file_and_the_result_back_on_the_stick(tmp_path):
    assert run("pairing", tmp_path) == ["pairing-boards", "pairing-chosen", "pairing-clock", "pairing-copied"]


def test_the_clock_at_1280x800(tmp_path):
    assert run("big", tmp_path, size="1280x800") == ["clock-1280x800"]


def test_the_start_screen_menu_and_load_save_after_both_features(tmp_path):
    assert run("screens", tmp_path) == ["start-combat", "start-kol", "start-dungeon", "start-chess", "menu",
                                        "game-text", "game-text-keyboard"]
