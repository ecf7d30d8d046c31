"""Dungeon Chess's hunt counts the hunted King's own moves (``box_moves``, issue 30): a Princess
slides diagonally (across the lake too), so a net of attacked neighbour squares does not hold
her. Off by default: every other game's evaluation, and the previous level's, is unchanged."""

import pytest

from companion.ai.eval_table import DEFAULTS, table_from_dict
from companion.ai.evaluate import Evaluator
from companion.ai.previous import previous_table
from companion.errors import VariantError
from companion.games import make_rules

# player 1's lone Princess on a1 against player 2's Red Dragon on c1 and a Kobold: the Red
# Dragon attacks a2 (its jump), b1 and b2 (its steps), so no square next to her is safe; yet
# she slides b2-c3, and across the lake (d4 to g7) to h8, i9 and j10: one line of escape
SLIDES_OPEN = "4(2KB)5/10/10/10/10/10/10/10/10/(1PR)1(2RD)7 2"
# the Kobold on b4 attacks c3 (a diagonal step): h8, i9 and j10 are still open on that line
SLIDES_C3_TAKEN = "10/10/10/10/10/10/1(2KB)8/10/10/(1PR)1(2RD)7 2"
# the Kobold on b2, guarded by the Red Dragon, closes the whole diagonal: she has no move
SLIDES_CLOSED = "10/10/10/10/10/10/10/10/1(2KB)8/(1PR)1(2RD)7 2"
# Princess and Hero against a bare Red Dragon (steps only: its moves are its neighbour squares)
BARE_OPEN = "10/3(2RD)6/10/10/10/10/10/10/2(1HE)1(1PR)5/10 1"
BARE_CORNERED = "(2RD)9/10/1(1WZ)8/10/10/10/10/10/10/4(1PR)5 1"
# the Wizard on a9 attacks along rank 9 up to the Red Dragon on d9: e9 lies behind it
BEHIND = "10/(1WZ)2(2RD)6/10/10/10/10/10/10/10/4(1PR)5 1"


@pytest.fixture(scope="module")
def dungeon():
    return make_rules("dungeon", "dungeon-compact")


def _with(dungeon, **keys):
    return Evaluator(dungeon, table_from_dict({"evaluation": {"inherit": "dungeon", **keys}}, "test"))


def _royal(pos, player):
    return next(iter(pos.royals[player]))


def test_box_moves_is_off_by_default_and_in_the_previous_table(dungeon):
    assert DEFAULTS["box_moves"] is False
    assert previous_table(dungeon).box_moves is False


def test_box_moves_must_be_true_or_false():
    with pytest.raises(VariantError, match="box_moves"):
        table_from_dict({"evaluation": {"box_moves": 1}}, "t.toml")


def test_a_princess_slides_count_as_room(dungeon):
    ev = _with(dungeon, box_moves=True)
    pos = dungeon.position_from_text(SLIDES_OPEN)
    ks = _royal(pos, 0)
    assert ev._neighbour_room(pos, ks, 0, 1) == 0  # the old count: trapped
    names = {dungeon.geometry.name_of(m.to) for m in dungeon.pseudo_moves(pos, 0, (ks,))
             if not dungeon.is_attacked(pos, m.to, 1)}
    assert names == {"c3", "h8", "i9", "j10"}
    assert ev._royal_room(pos, ks, 0, 1) == 1  # four squares on one line: one escape
    closed = dungeon.position_from_text(SLIDES_CLOSED)
    assert ev._royal_room(closed, _royal(closed, 0), 0, 1) == 0


def test_with_box_moves_the_hunter_is_paid_for_closing_a_slide(dungeon):
    """The right choice: closing the Princess's last line scores; by the neighbour count the
    open and the closed net are the same (no safe neighbour square in either)."""
    on, off = _with(dungeon, box_moves=True), _with(dungeon, box_moves=False)
    plain = _with(dungeon, king_box=0, bare_trap=0)

    def box(ev, text):
        pos = dungeon.position_from_text(text)
        return ev.evaluate(pos, 1) - plain.evaluate(pos, 1)

    assert box(off, SLIDES_OPEN) == pytest.approx(box(off, SLIDES_CLOSED))
    assert box(on, SLIDES_CLOSED) > box(on, SLIDES_OPEN)
    # the open net scores below the old "trapped" reading, the closed one the same
    assert box(on, SLIDES_OPEN) < box(off, SLIDES_OPEN)
    assert box(on, SLIDES_CLOSED) == pytest.approx(box(off, SLIDES_CLOSED))


def test_a_line_counts_as_one_escape_until_it_is_closed(dungeon):
    """Must not pay: taking one square of a line she can still slide along closes nothing, so
    a Princess on a long diagonal (a corner's) is not judged safer for its many squares."""
    on = _with(dungeon, box_moves=True)
    plain = _with(dungeon, king_box=0, bare_trap=0)

    def box(text):
        pos = dungeon.position_from_text(text)
        return on.evaluate(pos, 1) - plain.evaluate(pos, 1)

    assert box(SLIDES_C3_TAKEN) == pytest.approx(box(SLIDES_OPEN))


def test_a_king_that_only_steps_is_judged_as_before(dungeon):
    """Must not change: a Red Dragon's moves are its safe neighbour squares, so a hunt of a bare
    Red Dragon scores the same with or without box_moves."""
    on, off = _with(dungeon, box_moves=True), _with(dungeon, box_moves=False)
    pos = dungeon.position_from_text(BARE_OPEN)
    assert on.evaluate(pos, 0) == off.evaluate(pos, 0)
    # its jump captures are moves too: cornered on a10 by the Wizard on b8, it can take the
    # Wizard (a knight's jump away), which the neighbour count read as a closed net
    pos = dungeon.position_from_text(BARE_CORNERED)
    ks = _royal(pos, 1)
    assert off._neighbour_room(pos, ks, 1, 0) == 0
    assert on._royal_room(pos, ks, 1, 0) == 1
    assert on.evaluate(pos, 0) < off.evaluate(pos, 0)


def test_the_royal_is_lifted_so_a_square_behind_it_is_attacked(dungeon):
    ev = _with(dungeon, box_moves=True)
    pos = dungeon.position_from_text(BEHIND)
    ks = _royal(pos, 1)
    # e9 is safe while the Red Dragon stands on d9 (it blocks the Wizard's line), not once it steps
    assert ev._royal_room(pos, ks, 1, 0) == ev._neighbour_room(pos, ks, 1, 0) - 1
    text_before = dungeon.position_text(pos)
    assert dungeon.position_text(pos) == text_before and pos.board[ks] is not None


def test_the_charge_for_room_stays_within_eight_squares(dungeon):
    """Ahead but not against a bare King the room is charged, at most 8 squares' worth, as the
    neighbour count: a Princess's escapes (up to 12) must not pay a side for dropping material
    under hunt_lead (where the charge stops)."""
    on = _with(dungeon, box_moves=True, king_hunt=0, bare_trap=0)
    none = _with(dungeon, box_moves=True, king_hunt=0, bare_trap=0, king_box=0)
    # Princess on c2 and a Hero (player 1) against Red Dragon, Iron Golem and Kobold: 210 ahead
    pos = dungeon.position_from_text("(2IG)4(2KB)3(2RD)/10/10/10/10/10/10/10/2(1PR)7/(1HE)9 2")
    ks = _royal(pos, 0)
    assert on._royal_room(pos, ks, 0, 1) > 8
    assert on.evaluate(pos, 1) - none.evaluate(pos, 1) == pytest.approx(-8 * on.table.king_box)


# Red Dragon and Iron Golem (player 2) against a lone Princess on b3; the Red Dragon on h6 is
# 6 steps from her as the crow flies, but the lake (d4 to g7) lies between: 8 steps on foot
BEHIND_THE_LAKE = "10/10/10/9(2IG)/7(2RD)2/10/10/1(1PR)8/10/10 2"
# the Red Dragon on h3 instead: 6 steps either way, no water between
BELOW_THE_LAKE = "10/10/10/9(2IG)/10/10/10/1(1PR)5(2RD)2/10/10 2"


def test_hunt_paths_walks_around_the_lake(dungeon):
    ev = _with(dungeon, hunt_paths=True)
    pos = dungeon.position_from_text(BEHIND_THE_LAKE)
    ks, rd = _royal(pos, 0), _royal(pos, 1)
    geo = dungeon.geometry
    walk = ev._walk_from(ks)
    assert geo.distance(rd, ks) == 6 and walk[rd] == 8
    low = dungeon.position_from_text(BELOW_THE_LAKE)
    assert walk[_royal(low, 1)] == 6
    # water and void squares are never stepped on: the lake's squares are out of reach
    assert all(walk[s] >= 40 for s in range(geo.size) if geo.is_water(s))


def test_with_hunt_paths_the_hunter_goes_round_the_lake(dungeon):
    """The right choice: by straight lines the Red Dragon on h6 and on h3 stand equally near
    the Princess, so nothing sends it round the lake; walked, h3 is 2 steps nearer."""
    on, off = _with(dungeon, hunt_paths=True), _with(dungeon, hunt_paths=False)
    behind, below = (dungeon.position_from_text(t) for t in (BEHIND_THE_LAKE, BELOW_THE_LAKE))
    plain = _with(dungeon, king_hunt=0)

    def hunt(ev, pos):
        return ev.evaluate(pos, 1) - plain.evaluate(pos, 1)

    assert hunt(off, below) == pytest.approx(hunt(off, behind))
    assert hunt(on, below) - hunt(on, behind) == pytest.approx(2 * on.table.king_hunt)


def test_hunt_paths_changes_nothing_in_the_open(dungeon):
    """Must not change: with no water or void between, the walk is the straight line."""
    on, off = _with(dungeon, hunt_paths=True), _with(dungeon, hunt_paths=False)
    for text in ("10/3(2RD)6/10/10/10/10/10/10/2(1HE)1(1PR)5/10 1",
                 "10/10/10/10/10/10/10/1(1PR)5(2RD)2/10/5(2IG)4 2"):
        pos = dungeon.position_from_text(text)
        assert on.evaluate(pos, 0) == pytest.approx(off.evaluate(pos, 0)), text


def test_the_dungeon_table_turns_both_on(dungeon):
    t = Evaluator(dungeon).table
    assert t.box_moves is True and t.hunt_paths is True


def test_against_a_bare_princess_in_the_open_the_box_never_costs(dungeon):
    """Up to 12 escapes are counted, at most 8 pay or cost: against a bare royal the box term
    stays a reward, never below 0 (charged, the side that must win scored its won ending under
    a draw and repeated moves; the review then also saw a Knight lost to a bare Princess as
    a smaller loss than it is)."""
    on = _with(dungeon, box_moves=True)
    none = _with(dungeon, box_moves=True, king_box=0, bare_trap=0)
    pos = dungeon.position_from_text("(2IG)4(2KB)3(2RD)/10/10/10/10/10/10/10/2(1PR)7/10 2")
    assert on._royal_room(pos, _royal(pos, 0), 0, 1) > 8
    assert on.evaluate(pos, 1) - none.evaluate(pos, 1) >= 0
