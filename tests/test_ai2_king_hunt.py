"""The king hunt (Dungeon Chess ends only when a King is taken): ahead in material, pieces
closer to the enemy King and fewer safe squares for it score better; off in chess."""

import pytest

from companion.ai.eval_table import load_table, table_from_dict
from companion.ai.evaluate import Evaluator
from companion.errors import VariantError
from companion.games import make_rules

# player 1 (Archer, Wizard, Princess, Heroes) far ahead of player 2's lone Red Dragon King
FAR = "7(2RD)2/10/10/10/10/10/2(1WZ)7/10/1(1HE)1(1HE)(1HE)3(1AR)1/4(1PR)5 1"
NEAR = "7(2RD)2/10/6(1WZ)3/10/10/10/10/10/1(1HE)1(1HE)(1HE)3(1AR)1/4(1PR)5 1"
# the same lead with one Hero left to player 2, and player 1's Princess far or near
AHEAD = "7(2RD)2/9(2HE)/10/10/10/10/2(1WZ)7/10/1(1HE)1(1HE)(1HE)3(1AR)1/4(1PR)5 1"
AHEAD_KING_NEAR = "7(2RD)2/9(2HE)/4(1PR)5/10/10/10/2(1WZ)7/10/1(1HE)1(1HE)(1HE)3(1AR)1/10 1"


@pytest.fixture(scope="module")
def dungeon():
    return make_rules("dungeon", "dungeon-compact")


def test_dungeon_table_turns_the_king_hunt_on(dungeon):
    t = Evaluator(dungeon).table
    assert t.name == "dungeon"
    assert t.king_hunt > 0 and t.king_box > 0 and t.contempt > 0


def test_the_side_ahead_gains_by_bringing_a_piece_to_the_enemy_king(dungeon):
    ev = Evaluator(dungeon)
    far, near = dungeon.position_from_text(FAR), dungeon.position_from_text(NEAR)
    assert ev.evaluate(near, 0) > ev.evaluate(far, 0)
    no_hunt = Evaluator(dungeon, table_from_dict({"evaluation": {"inherit": "dungeon", "king_hunt": 0, "king_box": 0}}, "test"))
    gain = ev.evaluate(near, 0) - ev.evaluate(far, 0)
    assert gain > no_hunt.evaluate(near, 0) - no_hunt.evaluate(far, 0)


def test_taking_the_enemy_kings_safe_squares_scores(dungeon):
    ev = Evaluator(dungeon)
    no_box = Evaluator(dungeon, table_from_dict({"evaluation": {"inherit": "dungeon", "king_box": 0}}, "test"))
    pos = dungeon.position_from_text(AHEAD)
    # the King on h10 has safe squares: the box term costs the side ahead something
    assert ev.evaluate(pos, 0) < no_box.evaluate(pos, 0)


def test_no_hunt_when_the_material_is_even(dungeon):
    ev = Evaluator(dungeon)
    off = Evaluator(dungeon, table_from_dict({"evaluation": {"inherit": "dungeon", "king_hunt": 0, "king_box": 0}}, "test"))
    pos = dungeon.start_position()
    assert ev.evaluate(pos, 0) == off.evaluate(pos, 0)


def test_chess_has_no_king_hunt(chess_rules):
    t = load_table("chess")
    assert t.king_hunt == 0 and t.king_box == 0


def test_king_hunt_must_be_a_number():
    with pytest.raises(VariantError, match="king_hunt must be a number"):
        table_from_dict({"evaluation": {"king_hunt": "yes"}}, "t.toml")


# player 1's Princess and Heroes against player 2's bare Red Dragon: a lead (20 per Hero) far
# below hunt_lead, and yet the only winning chances either side has
BARE_TWO = "7(2RD)2/10/10/10/10/10/2(1HE)7/10/1(1HE)8/4(1PR)5 1"
BARE_ONE = "7(2RD)2/10/10/10/10/10/2(1HE)7/10/10/4(1PR)5 1"
BARE_ONE_NEAR = "7(2RD)2/10/6(1HE)3/10/10/10/10/10/10/4(1PR)5 1"
BARE_ONE_KING_NEAR = "7(2RD)2/10/4(1PR)5/10/10/10/2(1HE)7/10/10/10 1"


def test_the_hunt_runs_against_a_bare_king_whatever_the_lead(dungeon):
    ev = Evaluator(dungeon)
    assert ev.table.hunt_lead > 20  # one Hero is not a hunt_lead ahead ...
    off = Evaluator(dungeon, table_from_dict({"evaluation": {"inherit": "dungeon", "king_hunt": 0, "king_box": 0}}, "test"))
    far, near = dungeon.position_from_text(BARE_ONE), dungeon.position_from_text(BARE_ONE_NEAR)
    # ... and yet the Hero closer to the bare King scores more than the piece tables alone say
    assert ev.evaluate(near, 0) - ev.evaluate(far, 0) > off.evaluate(near, 0) - off.evaluate(far, 0)


def test_against_a_bare_king_the_own_king_joins_the_hunt(dungeon):
    ev = Evaluator(dungeon)
    no_hunt = Evaluator(dungeon, table_from_dict({"evaluation": {"inherit": "dungeon", "king_hunt": 0}}, "test"))

    def hunt_gain(far_text, near_text):
        far, near = dungeon.position_from_text(far_text), dungeon.position_from_text(near_text)
        return (ev.evaluate(near, 0) - ev.evaluate(far, 0)) - (no_hunt.evaluate(near, 0) - no_hunt.evaluate(far, 0))

    # the Princess six steps closer to the lone Red Dragon: the hunt term pays for each step
    assert hunt_gain(BARE_ONE, BARE_ONE_KING_NEAR) == pytest.approx(6 * ev.table.king_hunt)
    # while the other side still has pieces to fight with, the King stays out of the hunt
    assert hunt_gain(AHEAD, AHEAD_KING_NEAR) == pytest.approx(0.0)


# Princess and Hero against a bare Red Dragon in the open: four safe squares taken of eight
# (the Red Dragon on d9 steps to c10, d10, e10, c8, e8, c9 or e9 unless attacked)
BARE_OPEN = "10/3(2RD)6/10/10/10/10/10/10/2(1HE)1(1PR)5/10 1"
# every square next to a Red Dragon cornered on a10 is taken: the Wizard on d9 attacks b9 and
# guards the Hero on a9, which attacks b10; no jump of the Red Dragon captures anything
BARE_CORNERED = "(2RD)9/(1HE)2(1WZ)6/10/10/10/10/10/10/10/4(1PR)5 1"
BARE_CORNERED_OPEN = "10/(1HE)2(1WZ)6/10/10/10/10/10/7(2RD)2/10/4(1PR)5 1"


def test_against_a_bare_king_the_side_with_pieces_scores_above_a_draw(dungeon):
    """The box term against a bare royal rewards the squares taken instead of charging for those
    left: charged, a Princess and Hero against a lone Red Dragon scored -64 (under the draw at
    -contempt = -20), and the computer repeated moves into a draw it should have played to win."""
    ev = Evaluator(dungeon)
    no_box = Evaluator(dungeon, table_from_dict({"evaluation": {"inherit": "dungeon", "king_box": 0}}, "test"))
    for text in (BARE_OPEN, BARE_ONE, BARE_TWO, FAR, BARE_CORNERED):
        pos = dungeon.position_from_text(text)
        assert ev.evaluate(pos, 0) > -ev.table.contempt, text
        assert ev.evaluate(pos, 0) >= no_box.evaluate(pos, 0), text  # the box term never costs here


def test_against_a_bare_king_each_square_taken_from_it_pays(dungeon):
    ev = Evaluator(dungeon)
    no_box = Evaluator(dungeon, table_from_dict({"evaluation": {"inherit": "dungeon", "king_box": 0}}, "test"))

    def box(text):
        pos = dungeon.position_from_text(text)
        return ev.evaluate(pos, 0) - no_box.evaluate(pos, 0)

    # cornered on a10 with all three neighbours attacked: eight of eight squares taken
    assert box(BARE_CORNERED) == pytest.approx(8 * ev.table.king_box)
    assert box(BARE_CORNERED) > box(BARE_CORNERED_OPEN)


def test_bare_trap_must_be_a_number():
    with pytest.raises(VariantError, match="bare_trap must be a number"):
        table_from_dict({"evaluation": {"bare_trap": "yes"}}, "t.toml")


def test_bare_trap_pays_most_for_a_bare_kings_last_squares(dungeon):
    """bare_trap / (1 + safe squares): taking the last free square of a bare King is worth far
    more than taking one of many, so a shallow search closes the net instead of shuffling
    (a Red Dragon left one square, i7/i8, was walked back and forth for 50 moves without it)."""
    trap = Evaluator(dungeon)
    assert trap.table.bare_trap == 120
    off = Evaluator(dungeon, table_from_dict({"evaluation": {"inherit": "dungeon", "bare_trap": 0}}, "test"))

    def gain(text):
        pos = dungeon.position_from_text(text)
        return trap.evaluate(pos, 0) - off.evaluate(pos, 0)

    assert gain(BARE_CORNERED) == pytest.approx(120)  # no safe square left
    # the Red Dragon on h3, away from the Wizard: several free squares
    pos = dungeon.position_from_text(BARE_CORNERED_OPEN)
    room = sum(1 for s in trap.neighbours[next(iter(pos.royals[1]))]
               if not dungeon.geometry.is_water(s) and not dungeon.is_attacked(pos, s, 0))
    assert room > 1
    assert gain(BARE_CORNERED_OPEN) == pytest.approx(120 / (room + 1))
    # only against a bare King
    pos = dungeon.position_from_text(AHEAD)
    assert trap.evaluate(pos, 0) == off.evaluate(pos, 0)


def test_bare_trap_counts_without_king_box(dungeon):
    only = Evaluator(dungeon, table_from_dict({"evaluation": {"inherit": "dungeon", "king_box": 0, "bare_trap": 120}}, "t"))
    off = Evaluator(dungeon, table_from_dict({"evaluation": {"inherit": "dungeon", "king_box": 0, "bare_trap": 0}}, "t"))
    pos = dungeon.position_from_text(BARE_CORNERED)
    assert only.evaluate(pos, 0) - off.evaluate(pos, 0) == pytest.approx(120)
