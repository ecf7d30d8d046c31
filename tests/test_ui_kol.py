"""Smoke tests: KoL Chess and Load / Save in the real app (Xvfb), played by taps; screenshots
checked. tests/ui_kol_driver.py plays each scenario in its own process (tests/ui_scenarios.py
runs and checks it); the screenshots the README shows are copied to docs/screenshots/."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.ui_scenarios import HERE, SHOTS, run_scenario

pytestmark = pytest.mark.ui

DRIVER = HERE / "ui_kol_driver.py"
#: (scenario, screenshot) -> file name under docs/screenshots/
DOCS_SHOTS = {
    ("load-save", "start"): "kol-start.png",
    ("load-save", "kol-game"): "kol-game.png",
    ("load-save", "text-qr"): "load-save.png",
    ("load-save", "typed-refused"): "load-save-keyboard.png",
    ("load-save", "files"): "load-save-files.png",
    ("load-save", "text-qr-part1"): "load-save-parts.png",
    ("kol-game", "kol-retreat"): "kol-retreat.png",
    ("kol-game", "kol-double-capture"): "kol-double-capture.png",
    ("kol-game", "kol-trade"): "kol-trade.png",
}


def run(scenario: str, data: Path, tmp_path: Path) -> list[Path]:
    shots, _ = run_scenario(DRIVER, scenario, SHOTS / f"kol-{scenario}", data, tmp_path, timeout=240,
                            docs_shots=DOCS_SHOTS)
    return shots


def test_a_game_is_saved_as_text_and_qr_on_a_stick_typed_on_the_keyboard_and_loaded_back(tmp_path):
    """Load / Save by taps: a KoL game's text and QR code, saved on a stick (a folder stands in
    for it), a chess game typed on the on-screen keyboard (a mistake refused, naming its line,
    with nothing changed), then the KoL game loaded back from the stick; the QR codes on the
    screen read back by zbar to the text shown (one code, then a long game's parts)."""
    shots = run("load-save", tmp_path / "data", tmp_path)
    stems = [s.stem for s in shots]
    assert stems.index("files") < stems.index("text-qr-part1") and stems[-1] == f"text-qr-part{len(stems) - stems.index('files') - 1}"
    assert len(stems) - stems.index("files") - 1 >= 2  # a long game in parts, each read back by zbar
    assert len(list((tmp_path / "stick").glob("*.txt"))) == 1


def test_a_kol_game_by_taps_with_a_tower_retreat_and_exit_a_double_capture_and_a_trade(tmp_path):
    """The King into his Tower (the Tower lifted meanwhile) and out again, Boris taking two
    pawns, a back-row trade chosen on the screen and the piece changed on the board."""
    shots = run("kol-game", tmp_path / "data", tmp_path)
    assert [s.stem for s in shots] == ["kol-retreat", "kol-exit", "kol-double-capture", "kol-trade",
                                       "kol-after-trade"]
