"""Window test: the coach in the real app (Xvfb) at 800x480, by taps; every screenshot checked
for text under 12 px and widgets outside the window (tests/ui_coach_driver.py)."""

from __future__ import annotations

import pytest

from tests.ui_scenarios import HERE, SHOTS, run_scenario

pytestmark = pytest.mark.ui

DRIVER = HERE / "ui_coach_driver.py"
DOCS_SHOTS = {("coach", "coach-hint"): "coach-hint.png", ("coach", "coach-blunder"): "coach-blunder.png",
              ("review", "review-analysed"): "review-analysed.png",
              ("coach-dungeon", "dungeon-blunder"): "coach-dungeon-blunder.png",
              ("coach-kol", "kol-hint"): "coach-kol-hint.png",
              ("coach-chess4", "chess4-blunder"): "coach-chess4-blunder.png"}


def test_the_coach_hints_warns_after_a_bad_move_and_lights_a_threat(tmp_path):
    shots, _ = run_scenario(DRIVER, "coach", SHOTS / "coach", tmp_path / "data", tmp_path, timeout=240,
                            docs_shots=DOCS_SHOTS)
    assert [s.stem for s in shots] == ["coach-menu", "coach-thinking", "coach-hint", "coach-blunder", "coach-threat"]


def test_a_saved_game_is_analysed_in_the_review_with_its_graph_and_the_blunder_lit(tmp_path):
    shots, _ = run_scenario(DRIVER, "review", SHOTS / "coach-review", tmp_path / "data", tmp_path, timeout=240,
                            docs_shots=DOCS_SHOTS)
    assert [s.stem for s in shots] == ["review-analysing", "review-analysed"]


@pytest.mark.parametrize("game", ["dungeon", "kol", "chess4"])
def test_the_same_coach_row_on_the_map_screen(tmp_path, game):
    shots, _ = run_scenario(DRIVER, f"coach-{game}", SHOTS / f"coach-{game}", tmp_path / "data", tmp_path, timeout=240,
                            docs_shots=DOCS_SHOTS)
    stems = [s.stem for s in shots]
    # "thinking" only when the hint's search was seen under way (a small position may end first)
    assert [x for x in stems if x != f"{game}-thinking"] == [f"{game}-{k}" for k in ("threat", "hint", "blunder", "off")]


def test_the_coach_row_fits_beside_the_four_player_map(tmp_path):
    shots, _ = run_scenario(DRIVER, "coach-four", SHOTS / "coach-four", tmp_path / "data", tmp_path, timeout=240)
    assert [s.stem for s in shots] == ["four-hint"]
