"""Run one smoke scenario of a UI driver in its own process and check it (shared by
tests/test_ui_smoke.py and tests/test_ui_dungeon.py).

A Kivy app is one per process, so each scenario runs its driver under the display the test
run has, or under xvfb-run when there is none. A scenario fails on a non-zero exit, on any
error or traceback in the app's log, or on a screenshot that is blank or of the wrong size.
Screenshots land in tests/screenshots/ (not in git); the ones the docs show are copied to
docs/screenshots/ when missing or when COMPANION_UPDATE_SCREENSHOTS=1.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Mapping

from tests.png_check import colour_count, read_png

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SHOTS = HERE / "screenshots"
DOCS = ROOT / "docs" / "screenshots"


def run_scenario(driver: Path, scenario: str, out: Path, data: Path, tmp_path: Path, *,
                 size: str = "800x480", timeout: int = 180,
                 docs_shots: Mapping[tuple[str, str], str] = {},
                 expected_errors: tuple[str, ...] = (), language: str = "en") -> tuple[list[Path], str]:
    """Run ``scenario`` of ``driver``; returns its screenshots and its log. A log line with
    one of ``expected_errors`` in it is the fault the scenario makes on purpose."""
    if out.exists():
        shutil.rmtree(out)
    env = dict(os.environ, KIVY_HOME=str(tmp_path / "kivy-home"), KIVY_NO_ARGS="1", KIVY_NO_FILELOG="1",
               COMPANION_LANG=language)
    env.pop("KIVY_NO_CONSOLELOG", None)  # the app's log is checked for errors
    command = [sys.executable, str(driver), scenario, str(out), str(data), size]
    if not env.get("DISPLAY") and not env.get("WAYLAND_DISPLAY"):
        xvfb = shutil.which("xvfb-run")
        assert xvfb, "no display and no xvfb-run: install xvfb (apt-get install xvfb xauth)"
        command = [xvfb, "-a", "-s", "-screen 0 1280x800x24"] + command
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout)
    log = done.stdout + done.stderr
    assert done.returncode == 0 and "SMOKE OK" in done.stdout, log[-4000:]
    problems = [line for line in log.splitlines()
                if ("Traceback" in line or "[ERROR" in line or "[CRITICAL" in line or "Exception" in line)
                and not any(e in line for e in expected_errors)]
    assert not problems, "\n".join(problems[:20])
    shots = [Path(p) for line in done.stdout.splitlines() if line.startswith("SHOTS ") for p in line.split()[1:]]
    width, height = (int(v) for v in size.split("x"))
    for shot in shots:
        w, h, _, _ = read_png(shot)
        assert (w, h) == (width, height), f"{shot.name}: {w}x{h}, the window is {size}"
        assert colour_count(shot) > 20, f"{shot.name} is (nearly) blank"
    update = os.environ.get("COMPANION_UPDATE_SCREENSHOTS") == "1"
    for shot in shots:
        name = docs_shots.get((scenario, shot.stem))
        if name and (update or not (DOCS / name).exists()):
            DOCS.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(shot, DOCS / name)
    return shots, log
