"""Window tests: Chess 2 in the real app (Xvfb), played by taps on the simulated board; every
screenshot checked for text under 12 px and widgets outside the window. tests/ui_chess2_driver.py
plays each scenario in its own process (tests/ui_scenarios.py runs and checks it); the
screenshots the README shows are copied to docs/screenshots/."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.ui_scenarios import HERE, SHOTS, run_scenario

pytestmark = pytest.mark.ui

DRIVER = HERE / "ui_chess2_driver.py"
#: (scenario, screenshot) -> file name under docs/screenshots/
DOCS_SHOTS = {
    ("animals", "start"): "chess2-start.png",
    ("animals", "armies-selected"): "chess2-armies.png",
    ("animals", "armies-hidden"): "chess2-armies-hidden.png",
    ("animals", "armies-revealed"): "chess2-armies-revealed.png",
    ("animals", "duel-offer"): "chess2-duel-offer.png",
    ("animals", "rampage"): "chess2-rampage.png",
    ("animals", "duel-bid-sealed"): "chess2-duel-bid.png",
    ("animals", "duel-result"): "chess2-duel-result.png",
    ("animals", "pounce"): "chess2-pounce.png",
    ("animals", "stones"): "chess2-stones.png",
    ("animals", "elephant-box"): "chess2-elephant-box.png",
    ("two-kings", "king-turn"): "chess2-king-turn.png",
    ("two-kings", "whirlwind"): "chess2-whirlwind.png",
    ("duels", "duel-lost-guidance"): "chess2-duel-lost.png",
    ("duels", "bluff-called"): "chess2-bluff.png",
    ("duels", "stones-entry"): "chess2-real-stones.png",
    ("invasion", "invasion"): "chess2-invasion.png",
    ("match-start", "match-loser-switches"): "chess2-match-armies.png",
    ("match-resume", "match-over"): "chess2-match-over.png",
    ("vs-computer", "computer-armies"): "chess2-computer-armies.png",
    ("vs-computer", "computer-thinking"): "chess2-computer-thinking.png",
    ("vs-computer", "computer-move"): "chess2-computer-move.png",
    ("vs-computer", "computer-bidding"): "chess2-computer-bidding.png",
    ("vs-computer", "computer-bid-sealed"): "chess2-computer-bid.png",
}


def run(scenario: str, data: Path, tmp_path: Path, size: str = "800x480") -> list[Path]:
    suffix = "" if size == "800x480" else f"-{size}"
    shots, _ = run_scenario(DRIVER, scenario, SHOTS / f"chess2-{scenario}{suffix}", data, tmp_path, size=size,
                            timeout=300, docs_shots=DOCS_SHOTS if size == "800x480" else {})
    return shots


def names(shots: list[Path]) -> list[str]:
    return [s.stem for s in shots]


@pytest.mark.parametrize("size", ["800x480", "1280x800"])
def test_an_animals_game_by_taps_with_a_rampage_and_a_tiger_pounce(tmp_path, size):
    """Chess 2 from the start screen, the armies chosen double-blind (Animals against Classic),
    the Elephant's rampage taking its own pawn and an enemy one (the duel declined), the
    Tiger's pounce (its duel won by the attacker with on-screen bids), the stones."""
    shots = run("animals", tmp_path / "data", tmp_path, size)
    assert names(shots) == ["start", "armies-choose", "armies-selected", "armies-hidden", "armies-revealed",
                            "duel-offer", "rampage", "duel-bid", "duel-bid-sealed", "duel-result", "pounce", "stones",
                            "elephant-box"]


def test_a_two_kings_game_with_king_turns_taken_and_skipped_and_a_whirlwind(tmp_path):
    shots = run("two-kings", tmp_path / "data", tmp_path)
    assert names(shots) == ["king-turn", "whirlwind", "after-whirlwind"]


@pytest.mark.parametrize("size", ["800x480", "1280x800"])
def test_duels_won_by_the_defender_a_bluff_called_and_real_stones_entered(tmp_path, size):
    shots = run("duels", tmp_path / "data", tmp_path, size)
    assert names(shots) == ["duel-defender-wins", "duel-lost-guidance", "bluff-called", "bluff-result",
                            "stones-entry", "stones-result"]


def test_a_midline_invasion_wins(tmp_path):
    shots = run("invasion", tmp_path / "data", tmp_path)
    assert names(shots) == ["invasion"]


def test_a_three_game_match_the_loser_switches_and_the_match_survives_the_app_going(tmp_path):
    """Game 1, the loser's army switched, game 2 begun; the app is gone (a new process on the
    same data, as after a power cut); the match comes back with its score and is played out."""
    data = tmp_path / "data"
    first = run("match-start", data, tmp_path)
    assert names(first) == ["match-game-over", "match-loser-switches"]
    second = run("match-resume", data, tmp_path)
    assert names(second) == ["match-over"]
    assert not (data / "match.json").exists() and len(list((data / "games").glob("*.match.json"))) == 1


def test_against_the_computer_its_army_thinking_move_and_sealed_bid_by_taps(tmp_path):
    """A person against the computer (Reaper, chosen first in secret): its thinking shown, its
    move lit and made on the board; then it captures and the person duels: the computer's bid is
    on the disk before the person's pad appears, and both are revealed together."""
    shots = run("vs-computer", tmp_path / "data", tmp_path)
    assert names(shots) == ["computer-armies", "computer-armies-revealed", "computer-thinking", "computer-move",
                            "computer-bidding", "computer-bid-sealed", "computer-duel-result"]
