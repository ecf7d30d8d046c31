"""KoL Chess on the physical board: the tracker follows every special move of the real rules
with no KoL code (docs/tracker.md, "A new game's effects"), made by hand in the orders people
use, and says each in words when the computer asks it of a person. On the board the Tower with
its King is the Tower piece (``shown_as = "T"``): the King stands on top of it, or beside the
board, and the Tower's square stays filled (docs/rules/kol.md)."""

import pytest
from dungeon_board_table import DungeonTable

from tests.kol_board import R, position


def table(pieces: dict, turn: int = 0, **variables) -> DungeonTable:
    return DungeonTable(R, position(pieces, turn, **variables))


def hands(t: DungeonTable, *steps: str) -> DungeonTable:
    return t.run([("lift" if s[0] == "-" else "put", s[1:]) for s in steps])


def asked(pieces: dict, move: str) -> str:
    t = table(pieces)
    t.handle(t.tracker.request_move(R.parse_move(t.pos, move)))
    return t.tracker.guidance.text


KING_F1 = {"c2": None, "f1": "K", "g1": "T"}
IN_TOWER = {"c2": None, "g1": "TK:1"}


@pytest.mark.parametrize("steps", [("-f1", "-g1", "+g1"), ("-g1", "-f1", "+g1")])
def test_the_king_into_his_tower_the_tower_lifted_while_the_king_is_off(steps):
    t = hands(table(KING_F1), *steps)
    assert t.actions == ["f1g1in"] and t.tracker.in_sync


def test_the_tower_touched_before_the_king_is_lifted_is_not_yet_a_retreat():
    """The touch of a square that stays filled counts only within one excursion from the game
    (docs/tracker.md): the Tower lifted and put back first, then the King lifted, is the King
    lifted alone; lifting the Tower again makes the retreat."""
    t = hands(table(KING_F1), "-g1", "+g1", "-f1")
    assert t.actions == []
    hands(t, "-g1", "+g1")
    assert t.actions == ["f1g1in"] and t.tracker.in_sync


def test_the_king_lifted_alone_is_not_a_retreat():
    t = hands(table(KING_F1), "-f1")
    assert t.actions == [] and not t.tracker.in_sync


def test_the_king_steps_out_onto_an_empty_square_and_the_tower_stays():
    t = hands(table(IN_TOWER), "+f2")
    assert t.actions == ["g1f2out"] and t.tracker.in_sync
    assert not any("cannot go" in text for text in t.guidance_texts)  # no false alarm meanwhile


@pytest.mark.parametrize("steps", [("-f2", "-g1", "+g1", "+f2"), ("-g1", "-f2", "+f2", "+g1")])
def test_the_king_steps_out_capturing(steps):
    t = hands(table({**IN_TOWER, "f2": "vg"}), *steps)
    assert t.actions == ["g1f2out"] and t.tracker.in_sync


def test_the_tower_moves_with_the_king_inside():
    t = hands(table(IN_TOWER), "-g1", "+c1")
    assert t.actions == ["g1c1"] and t.tracker.in_sync


@pytest.mark.parametrize("steps", [("-e4", "-e5", "-e1", "+e5"), ("-e1", "-e5", "+e5", "-e4"),
                                   ("-e5", "-e4", "-e1", "+e5")])
def test_boris_double_capture_by_hand(steps):
    t = hands(table({"c2": None, "a2": "K", "e1": "B", "e4": "kg", "e5": "kg"}), *steps)
    assert t.actions == ["e1e5"] and t.tracker.in_sync


@pytest.mark.parametrize("steps", [("-e4", "-g4", "+e4", "+g4"), ("-g4", "-e4", "+g4", "+e4")])
def test_sneaky_pete_swap_by_hand(steps):
    t = hands(table({"c2": None, "a2": "K", "e4": "SP", "g4": "KG"}), *steps)
    assert t.actions == ["e4g4swap"] and t.tracker.in_sync


def test_jarlsberg_teleport_and_the_gnome_charge_are_ordinary_moves():
    t = hands(table({"c2": None, "a2": "K", "c3": "J"}), "-c3", "+f3")
    assert t.actions == ["c3f3"]
    t = hands(table({"c2": None, "a2": "K", "e4": "GN", "e5": "kg"}), "-e5", "-e4", "+e6")
    assert t.actions == ["e4e6"] and t.tracker.in_sync


def test_a_back_row_trade_is_a_question_on_the_screen_then_the_piece_is_changed_on_the_board():
    t = hands(table({"e11": "KG"}), "-e11", "+e12")
    assert t.actions == ["e11e12"] and t.tracker.prompt.kind == "trade"
    assert t.tracker.prompt.options[:2] == ("keep", "NS")
    t.choose("VG")
    assert t.actions[-1] == "VG"
    assert t.tracker.guidance.text == ("Take the blue Knob Goblin off e12. "
                                       "Put the blue Vicious Gnauga back on e12.")
    hands(t, "-e12", "+e12")
    assert t.tracker.in_sync


@pytest.mark.parametrize("pieces,move,words", [
    (KING_F1, "f1g1in", "Move the blue King from f1 to g1. Lift the blue Tower on g1 and put it back."),
    (IN_TOWER, "g1f2out", "Put the blue King on f2."),
    ({**IN_TOWER, "f2": "vg"}, "g1f2out",
     "Take the orange Vicious Gnauga off f2. Put the blue King on f2. Lift the blue Tower on g1 and put it back."),
    ({"c2": None, "a2": "K", "e4": "SP", "g4": "KG"}, "e4g4swap",
     "Move the blue Sneaky Pete from e4 to g4. Move the blue Knob Goblin from g4 to e4."),
    ({"c2": None, "a2": "K", "e1": "B", "e4": "kg", "e5": "kg"}, "e1e5",
     "Take the orange Knob Goblin off e4. Take the orange Knob Goblin off e5. Move the blue Boris from e1 to e5."),
])
def test_a_special_move_asked_of_a_person_is_said_in_full(pieces, move, words):
    assert asked(pieces, move) == words
