"""Kill and poison, in a real window (Xvfb; issue 26): a tournament game with its clock running
and the arbiter's PIN set is killed (SIGKILL), its ``clock.checkpoint`` and ``arbiter.json``
are damaged, and the app is started again on them. The screen must say that the clock could not
be restored (with the journal's times) and that arbiter mode is locked (with how to reset it),
nothing may crash, and once the arbiter has reset the PIN the game goes on. Scenarios:
tests/ui_poison_driver.py; the same damage without a window: tests/test_clock_checkpoint_damaged.py
and tests/test_arbiter_pin_file.py.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time

import pytest

from companion.tournament.checkpoint import NAME as CHECKPOINT
from companion.tournament.pin_file import NAME as PIN_FILE
from tests.test_arbiter_pin_file import DAMAGED as PIN_DAMAGE
from tests.test_clock_checkpoint_damaged import DAMAGED as CHECKPOINT_DAMAGE
from tests.ui_scenarios import HERE, ROOT, SHOTS, run_scenario

pytestmark = [pytest.mark.ui, pytest.mark.slow]

DRIVER = HERE / "ui_poison_driver.py"
DOCS_SHOTS = {("poisoned", "clock-not-restored"): "clock-not-restored.png", ("poisoned", "pin-locked"): "pin-locked.png"}


def play_and_kill(data, tmp_path, shots) -> None:
    """The ``play`` scenario, SIGKILLed once it says its clock checkpoint is on the disk."""
    if shots.exists():
        shutil.rmtree(shots)
    env = dict(os.environ, KIVY_HOME=str(tmp_path / "kivy-home"), KIVY_NO_ARGS="1", KIVY_NO_FILELOG="1")
    command = [sys.executable, str(DRIVER), "play", str(shots), str(data), "800x480"]
    if not env.get("DISPLAY") and not env.get("WAYLAND_DISPLAY"):
        command = [shutil.which("xvfb-run"), "-a", "-s", "-screen 0 1280x800x24"] + command
    proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 240
        line = ""
        while time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line or line.startswith("KILL ME "):
                break
        assert line.startswith("KILL ME "), "the game did not reach the kill: " + proc.stderr.read()[-3000:]
        os.kill(int(line.split()[2]), signal.SIGKILL)
        proc.wait(60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    log = proc.stderr.read()
    assert not [x for x in log.splitlines() if "Traceback" in x or "[ERROR" in x or "[CRITICAL" in x], log[-3000:]
    assert (data / "current.jsonl").is_file() and (data / CHECKPOINT).is_file() and (data / PIN_FILE).is_file()


@pytest.mark.parametrize("checkpoint, pin", [
    ("binary", "binary"),
    ("a folder", "nested JSON"),
    ("cut off", "truncated"),
    ("both slots' checksums wrong", "salt a number"),
])
def test_killed_then_poisoned_the_app_says_so_and_the_game_goes_on(tmp_path, checkpoint, pin):
    data = tmp_path / "data"
    data.mkdir()
    name = f"poison-{checkpoint}-{pin}".replace(" ", "-").replace("'", "")
    play_and_kill(data, tmp_path, SHOTS / f"{name}-play")
    CHECKPOINT_DAMAGE[checkpoint][0](data / CHECKPOINT)
    pin_path = data / PIN_FILE
    pin_path.unlink()
    PIN_DAMAGE[pin][0](pin_path)
    shots, _ = run_scenario(DRIVER, "poisoned", SHOTS / name, data, tmp_path, timeout=240,
                            docs_shots=DOCS_SHOTS if checkpoint == "binary" else {})
    assert [s.stem for s in shots] == ["clock-not-restored", "pin-locked-from-the-clock-message",
                                       "clock-journal-times", "pin-locked", "arbiter-set-the-clocks",
                                       "the-game-goes-on"]
    assert os.path.lexists(data / f"{PIN_FILE}.old-1") and os.path.lexists(data / f"{CHECKPOINT}.damaged")
