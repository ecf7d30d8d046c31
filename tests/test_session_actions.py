"""Session actions and set-ups as JSON: round trips and strict reading."""

import pytest

from companion.errors import RecordError
from companion.session import (
    AnswerDraw, OfferDraw, PlayMove, Resign, Roll, Undo,
    action_from_json, action_to_json, start_from_json, start_to_json,
)
from tests.session_helpers import VS_COMPUTER, setup

ACTIONS = [PlayMove("e7e8q"), Roll((3,), ((5,), (1, 2)), "entered"), Undo(2), Resign(1), OfferDraw(0),
           AnswerDraw(False)]


@pytest.mark.parametrize("action", ACTIONS, ids=lambda a: type(a).__name__)
def test_every_action_survives_a_json_round_trip(action):
    assert action_from_json(action_to_json(action)) == action


def test_a_set_up_survives_the_start_entry_round_trip():
    s = setup(dice="seeded", seats=VS_COMPUTER, d6_only=True, start="4k3/8/8/8/8/8/8/4K3 w - - 0 1")
    assert start_from_json(start_to_json(s)) == s


@pytest.mark.parametrize("value, message", [
    ({"type": "fly"}, "unknown action type"),
    ({"type": "move"}, "'move' is missing"),
    ({"type": "move", "move": 5}, "must be text"),
    ({"type": "move", "move": "e2e4", "x": 1}, "unknown field 'x'"),
    ({"type": "roll", "attacker": [], "defenders": [[1]], "source": "system"}, "non-empty list"),
    ({"type": "roll", "attacker": [1], "defenders": [], "source": "system"}, "defenders"),
    ({"type": "roll", "attacker": [True], "defenders": [[1]], "source": "system"}, "whole numbers"),
    ({"type": "undo", "turns": 0}, "at least 1"),
    ({"type": "resign", "player": "white"}, "whole number"),
    ({"type": "answer-draw", "accept": "yes"}, "true or false"),
    ([1, 2], "unknown action type"),
])
def test_a_malformed_action_names_the_field(value, message):
    with pytest.raises(RecordError, match=message):
        action_from_json(value, "journal entry 7")


def test_a_start_entry_whose_commitment_does_not_match_the_seed_is_refused():
    entry = start_to_json(setup(dice="seeded"))
    entry["commitment"] = "0" * 64
    with pytest.raises(RecordError, match="commitment"):
        start_from_json(entry)


def test_a_start_entry_with_an_impossible_set_up_says_so():
    entry = start_to_json(setup(dice="virtual"))
    entry["setup"]["game"] = "checkers"
    with pytest.raises(RecordError, match="unknown game"):
        start_from_json(entry, "journal entry 1")
    entry = start_to_json(setup(dice="virtual"))
    entry["version"] = 9
    with pytest.raises(RecordError, match="version 9"):
        start_from_json(entry)
