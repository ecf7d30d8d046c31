"""A computer's move on a four-player Dungeon board: ``Tracker.request_move`` lights it, says it
in words (effects included), and accepts only that move, carried out in any order."""

from __future__ import annotations

import pytest

from companion.board.tracker import IllegalMoveShown, MoveDetected
from companion.errors import IllegalMoveError
from tests.dungeon_board import position, rules
from tests.dungeon_board_games import QUICK_FOUR_PIECES, QUICK_FOUR_SCRIPT, action
from tests.dungeon_board_table import DungeonTable

R = rules("dungeon-four-player")


def quick_four_after(plies: int) -> DungeonTable:
    """The constructed four-player game after its first ``plies`` actions (played by the engine)."""
    pos = position(R, QUICK_FOUR_PIECES, 0)
    for text, _ in QUICK_FOUR_SCRIPT[:plies]:
        R.play(pos, action(R, pos, text))
    return DungeonTable(R, pos)


def request(t: DungeonTable, text: str) -> list:
    return t.handle(t.tracker.request_move(t.rules.parse_move(t.pos, text)))


def test_a_cannon_capture_asked_of_a_person_is_lit_and_said():
    t = quick_four_after(11)  # green to move; e10 takes t10 over the Wizard on n10
    request(t, "e10t10")
    assert t.lit() == {"e10": "computer-move-from", "t10": "computer-move-to"}
    assert t.tracker.guidance.text == "Take the blue Hero off t10. Move the green Kobold from e10 to t10."


@pytest.mark.parametrize("order", [("t10", "e10"), ("e10", "t10")])
def test_the_requested_cannon_capture_is_accepted_in_either_order(order):
    t = quick_four_after(11)
    request(t, "e10t10")
    t.run([("lift", order[0]), ("lift", order[1]), ("put", "t10")])
    assert t.actions == ["e10t10"]
    assert t.tracker.in_sync and not t.tracker.guidance.text


def test_a_bounce_and_a_slide_through_the_arena_still_count():
    t = quick_four_after(11)
    request(t, "e10t10")
    t.run([("lift", "t10"), ("lift", "e10"), ("put", "f10"), ("lift", "f10"), ("put", "t10")])
    assert t.actions == ["e10t10"]


def test_another_move_than_the_requested_one_is_refused_at_once():
    t = quick_four_after(11)
    request(t, "e10t10")
    t.run([("lift", "e10"), ("put", "e11")], settle=0)
    assert t.tracker.status == "out-of-sync"
    shown = t.of(IllegalMoveShown)[-1]
    assert shown.text.startswith("That is not the move to make.")
    assert t.lit()["e11"] == "illegal" and t.lit()["e10"] == "place"
    t.wait(3000)
    assert t.actions == []
    t.run([("lift", "e11"), ("put", "e10"), ("lift", "t10"), ("lift", "e10"), ("put", "t10")])
    assert t.actions == ["e10t10"]


def test_a_requested_explosion_is_said_in_full_and_may_be_done_in_one_go():
    t = quick_four_after(9)  # blue's Hero takes the hexed Demonics next to yellow's King
    request(t, "p10q11")
    text = t.tracker.guidance.text
    assert text.startswith("Take the green Demonics off q11. Move the blue Hero from p10 to q11. ")
    assert "Remove the yellow Warlord from r11 (destroyed by the explosion)." in text
    lit = t.lit()
    assert lit["p10"] == "computer-move-from" and lit["q11"] == "computer-move-to"
    assert {s for s, m in lit.items() if m == "computer-move-from"} >= {"r11", "r12", "s7", "n13"}
    # the person does all of it before the settle time: one move, nothing left to fix
    steps = [("lift", "q11"), ("lift", "p10"), ("put", "q11")]
    steps += [("lift", s) for s in ("r11", "r12", "s7", "n13")]
    t.run(steps)
    assert t.actions == ["p10q11"]
    assert t.tracker.in_sync and t.pos.var("out") == (3,)


def test_a_requested_explosion_done_only_by_hand_is_guided_afterwards():
    t = quick_four_after(9)
    request(t, "p10q11")
    t.run([("lift", "q11"), ("lift", "p10"), ("put", "q11")])
    assert t.actions == ["p10q11"]
    assert t.tracker.status == "out-of-sync"
    assert set(t.lit()) == {"r11", "r12", "s7", "n13"}
    t.follow_guidance()
    assert t.tracker.in_sync


def test_a_requested_salamander_capture_and_the_computers_step():
    t = quick_four_after(2)  # green's Salamander takes blue's Hero on h7
    request(t, "g9h7")
    t.run([("lift", "h7"), ("lift", "g9"), ("put", "h7")])
    assert t.actions == ["g9h7"]
    assert t.prompt().kind == "step"
    # the computer answers for green: the session plays it and tells the tracker
    t.rules.play(t.pos, action(t.rules, t.pos, "i8"))
    t.handle(t.tracker.position_changed())
    assert t.prompt() is None
    assert t.tracker.guidance.text == "Move the green Salamander from h7 to i8 (hit-and-run)."
    t.follow_guidance()
    assert t.tracker.in_sync


def test_a_requested_hex_needs_no_hands():
    t = quick_four_after(4)
    out = request(t, "r12q11hex")
    assert [o.move.special for o in out if isinstance(o, MoveDetected)] == ["hex"]  # reported at once
    assert t.actions == ["r12q11hex"] and t.tracker.in_sync
    assert t.pos.board[t.sq("q11")].state == {"hex": 2}


def test_a_move_that_is_not_legal_cannot_be_requested():
    t = quick_four_after(11)
    bad = t.rules.parse_move(t.pos, "e10t10")._replace(to=t.sq("s10"))
    with pytest.raises(IllegalMoveError, match="not a legal move"):
        t.tracker.request_move(bad)
