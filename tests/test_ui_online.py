"""A whole rapid game on lichess from the simulated board in a real window (Xvfb), against the
fake lichess: connect through the board's page, seek, moves both ways with the opponent's lit
on the board, a takeback guided back, a dropped stream, a draw offer, the end in the archive;
screenshots of the connect, seek, game and game-over screens for the README's gallery."""

from __future__ import annotations

import pytest

from tests.ui_scenarios import HERE, SHOTS, run_scenario

pytestmark = pytest.mark.ui

README_SHOTS = {
    ("lichess-game", "lichess-connect"): "lichess-connect.png",
    ("lichess-game", "lichess-seek"): "lichess-seek.png",
    ("lichess-game", "lichess-game"): "lichess-game.png",
    ("lichess-game", "lichess-game-over"): "lichess-game-over.png",
}


def test_a_rapid_lichess_game_is_played_from_the_board(tmp_path):
    shots, log = run_scenario(HERE / "ui_online_driver.py", "lichess-game", SHOTS / "lichess-game", tmp_path / "data",
                            tmp_path, timeout=240, docs_shots=README_SHOTS)
    names = [s.stem for s in shots]
    assert names == ["lichess-connect", "lichess-seek", "lichess-game", "lichess-takeback", "lichess-reconnecting",
                     "lichess-game-over"]
    data = tmp_path / "data"
    token = (data / "lichess.token").read_text().strip()
    assert (data / "lichess.token").stat().st_mode & 0o777 == 0o600
    assert token not in log, "the token is in the app's log"
    for path in data.rglob("*"):
        if path.is_file() and path.name != "lichess.token":
            assert token.encode() not in path.read_bytes(), f"the token is in {path}"


def test_the_lobby_and_lichess_errors_on_screen(tmp_path):
    shots, log = run_scenario(HERE / "ui_online_driver.py", "lichess-lobby", SHOTS / "lichess-lobby", tmp_path / "data",
                            tmp_path, timeout=240)
    assert [s.stem for s in shots] == ["lichess-challenges", "lichess-friend", "lichess-wait", "lichess-claim",
                                       "lichess-claim-question", "lichess-game-token-refused",
                                       "lichess-token-refused", "lichess-resign"]
    for token in ("lip_board0001", "lip_board0002"):  # the one revoked, and the one after it
        assert token not in log, "the token is in the app's log"
        for path in (tmp_path / "data").rglob("*"):
            if path.is_file() and path.name != "lichess.token":
                assert token.encode() not in path.read_bytes(), f"the token is in {path}"
