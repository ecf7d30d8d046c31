"""Window tests: a game with a friend's board in the real app (Xvfb): the pairing screens (the
code shown large; the number pad), a linked Combat Chess fight and a linked Chess 2 duel, the
friend's board a second board in the process (tests/ui_link_driver.py). Every screenshot is
checked for text under 12 px and widgets outside the window; the ones docs/link.md shows are
copied to docs/screenshots/."""

from __future__ import annotations

import pytest

from tests.ui_scenarios import HERE, SHOTS, run_scenario

pytestmark = [pytest.mark.ui, pytest.mark.slow]

DRIVER = HERE / "ui_link_driver.py"
DOCS_SHOTS = {
    ("host-combat", "link-code"): "link-code.png",
    ("host-combat", "link-fight"): "link-fight.png",
    ("guest-chess2", "link-typing"): "link-typing.png",
    ("guest-chess2", "link-proposal"): "link-proposal.png",
    ("guest-chess2", "link-duel"): "link-duel.png",
    ("host-faults", "link-away"): "link-away.png",
    ("host-faults", "link-refused"): "link-refused.png",
    ("host-dungeon", "link-dungeon-game"): "link-dungeon-game.png",
    ("host-dungeon-draft", "link-dungeon-draft"): "link-dungeon-draft.png",
    ("host-dungeon-draft", "link-dungeon-place"): "link-dungeon-place.png",
}


@pytest.mark.parametrize("scenario", ["host-combat", "guest-chess2", "host-faults", "host-dungeon",
                                      "host-dungeon-draft"])
def test_a_game_with_a_friends_board_in_a_real_window(scenario, tmp_path):
    shots, _ = run_scenario(DRIVER, scenario, SHOTS / f"link-{scenario}", tmp_path / "data", tmp_path, size="800x480",
                            timeout=300, docs_shots=DOCS_SHOTS)
    names = [s.stem for s in shots]
    wanted = {"host-combat": ("link-code", "link-fight"), "guest-chess2": ("link-typing", "link-duel"),
              "host-faults": ("link-reconnecting", "link-away", "link-back", "link-refused"),
              "host-dungeon": ("link-dungeon-start", "link-dungeon-game"),
              "host-dungeon-draft": ("link-dungeon-draft", "link-dungeon-place", "link-dungeon-drafted-game")}[scenario]
    assert all(w in names for w in wanted), names
