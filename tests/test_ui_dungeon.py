"""Smoke tests: Dungeon Chess in the real app (Xvfb), played by taps; screenshots checked.

tests/ui_dungeon_driver.py plays each scenario in its own process (see tests/test_ui_smoke.py
for how a scenario is run and checked). The screenshots the docs show are copied to
docs/screenshots/dungeon-*.png when missing or when COMPANION_UPDATE_SCREENSHOTS=1.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.png_check import colour_count, read_png

pytestmark = pytest.mark.ui

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DRIVER = HERE / "ui_dungeon_driver.py"
SHOTS = HERE / "screenshots"
DOCS = ROOT / "docs" / "screenshots"
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
}


def run(scenario: str, data: Path, tmp_path: Path, size: str = "800x480") -> tuple[list[Path], str]:
    """Run one scenario in its own process (Xvfb when there is no display); fail on a non-zero
    exit, an error in the app's log or a blank screenshot. Returns the screenshots and the log."""
    out = SHOTS / f"dungeon-{scenario}"
    if out.exists():
        shutil.rmtree(out)
    env = dict(os.environ, KIVY_HOME=str(tmp_path / "kivy-home"), KIVY_NO_ARGS="1", KIVY_NO_FILELOG="1")
    env.pop("KIVY_NO_CONSOLELOG", None)  # the app's log is checked for errors
    command = [sys.executable, str(DRIVER), scenario, str(out), str(data), size]
    if not env.get("DISPLAY") and not env.get("WAYLAND_DISPLAY"):
        xvfb = shutil.which("xvfb-run")
        assert xvfb, "no display and no xvfb-run: install xvfb (apt-get install xvfb xauth)"
        command = [xvfb, "-a", "-s", "-screen 0 1280x800x24"] + command
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=240)
    log = done.stdout + done.stderr
    assert done.returncode == 0 and "SMOKE OK" in done.stdout, log[-4000:]
    problems = [line for line in log.splitlines()
                if "Traceback" in line or "[ERROR" in line or "[CRITICAL" in line or "Exception" in line]
    assert not problems, "\n".join(problems[:20])
    shots = [Path(p) for line in done.stdout.splitlines() if line.startswith("SHOTS ") for p in line.split()[1:]]
    width, height = (int(v) for v in size.split("x"))
    for shot in shots:
        w, h, _, _ = read_png(shot)
        assert (w, h) == (width, height), f"{shot.name}: {w}x{h}, the window is {size}"
        assert colour_count(shot) > 20, f"{shot.name} is (nearly) blank"
    update = os.environ.get("COMPANION_UPDATE_SCREENSHOTS") == "1"
    for shot in shots:
        name = DOCS_SHOTS.get((scenario, shot.stem))
        if name and (update or not (DOCS / name).exists()):
            DOCS.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(shot, DOCS / name)
    return shots, log


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
