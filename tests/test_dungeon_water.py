"""Dungeon Chess water: the one reading for every unit (maps/variants/dungeon.toml, "WATER"),
checked unit by unit on the Compact Skirmish (water d4-g7).

The rulebook: "water blocks movement" (introduction); "Most units CANNOT step onto water
squares"; "Knights cannot land on water (but can leap over it)"; "Water blocks diagonal slides
for Fire Elemental, Troll, Demonics, and Shaman"; "Cannon lines skip over water"; the Reaper
"can land on water squares". Read as: nobody but the Reaper ends a move on water; every slide
passes over water, except the diagonal slides of those four units, which stop before it.
"""

import pytest

from companion.core.geometry import WATER
from companion.core.roster import load_roster
from tests.dungeon_board import position, rules, sq

R = rules("dungeon-compact")
UNITS = [k.name for k in load_roster("dungeon").kinds]

# unit: (straight slide c5-h5 over d5-g5, straight capture c5xh5, diagonal slide c3-h8 over
#        d4-g7, diagonal capture c3xh8, cannon c5xi5 over the screen h5), written from the
#        rulebook table and the reading above, not from the data
EXPECTED = {
    "hero": (False, False, False, False, False),
    "skeleton": (False, False, False, False, False),
    "kobold": (True, False, False, False, True),  # "rook slide (to screen)": water is no screen
    "goblin": (True, False, False, False, True),
    "stronghold": (False, True, False, False, False),
    "tomb": (False, True, False, False, False),
    "iron_golem": (True, False, False, False, True),
    "ogre": (True, False, False, False, True),
    "knight": (False, False, False, False, False),
    "reaper": (False, False, False, False, False),
    "salamander": (False, False, False, False, False),
    "orc": (False, False, False, False, False),
    "archer": (False, False, True, True, False),
    "wraith": (False, False, True, True, False),
    "fire_elemental": (False, False, False, False, False),  # "water blocks slide entirely"
    "troll": (False, False, False, False, False),
    "wizard": (True, True, False, True, False),
    "vampire": (False, True, True, True, False),
    "demonics": (True, True, False, False, False),  # diagonal slides blocked, straight ones cross
    "shaman": (True, True, False, False, False),
    "princess": (False, False, True, False, False),
    "warlock": (False, False, False, True, False),
    "red_dragon": (False, False, False, False, False),
    "warlord": (False, False, False, False, False),
}


def test_the_table_covers_every_unit():
    assert sorted(EXPECTED) == sorted(UNITS)


def _setup(unit: str, at: str, enemies: dict):
    kind = R.roster_kind(unit)
    pieces = {at: (0, unit), "j1": (1, "warlord"), **{s: (1, u) for s, u in enemies.items()}}
    if not kind.royal:
        pieces["a10"] = (0, "warlord")
    return position(R, pieces)


def _moves(pos, at: str):
    return [m for m in R.moves_from(pos, sq(R, at)) if m.special != "hex"]


def _has(moves, to: str, capture: bool) -> bool:
    return any(m.to == sq(R, to) and (m.capture is not None) == capture for m in moves)


@pytest.mark.parametrize("unit", UNITS)
def test_water_is_one_reading_for_every_unit(unit):
    """Nobody but the Reaper ends a move on water; every slide passes over water except the
    diagonal slides of Fire Elemental, Troll, Demonics and Shaman; cannon lines skip water."""
    straight, straight_capture, diagonal, diagonal_capture, cannon = EXPECTED[unit]
    seen = []
    pos = _setup(unit, "c5", {})
    seen += _moves(pos, "c5")
    assert _has(seen, "h5", False) == straight
    pos = _setup(unit, "c5", {"h5": "hero"})
    moves = _moves(pos, "c5")
    seen += moves
    assert _has(moves, "h5", True) == straight_capture
    pos = _setup(unit, "c3", {})
    moves = _moves(pos, "c3")
    seen += moves
    assert _has(moves, "h8", False) == diagonal
    pos = _setup(unit, "c3", {"h8": "hero"})
    moves = _moves(pos, "c3")
    seen += moves
    assert _has(moves, "h8", True) == diagonal_capture
    pos = _setup(unit, "c5", {"h5": "hero", "i5": "hero"})
    moves = _moves(pos, "c5")
    seen += moves
    assert _has(moves, "i5", True) == cannon
    on_water = any(R.geometry.terrain[m.to] == WATER for m in seen)
    assert on_water == (unit == "reaper"), "only the Reaper lands on water"


def test_only_the_reaper_lands_on_water():
    """"Water-walk: can land on water squares" - and its L-jumps do (c2 to d4, b5 to d4)."""
    pos = _setup("reaper", "c2", {})
    assert _has(_moves(pos, "c2"), "d4", False)
    assert [k.name for k in load_roster("dungeon").kinds if k.water == "stop"] == ["reaper"]


def test_a_piece_standing_on_water_stops_a_slide_that_reaches_it():
    """The Reaper on water is a piece: a slide over the water ends before it, and only an
    enemy Reaper could capture it there (capturing is moving onto its square)."""
    pos = position(R, {"c5": (0, "kobold"), "e5": (1, "reaper"), "a10": (0, "warlord"), "j1": (1, "warlord")})
    moves = _moves(pos, "c5")
    assert not _has(moves, "f5", False) and not _has(moves, "e5", True)
