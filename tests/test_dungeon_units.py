"""Dungeon Chess: the 24 units of the rulebook's UNIT ROSTER, one test (at least) per unit.

Board for these tests (tests/dungeon_board.py, OPEN): 10x10, water d5 e5 d6 e6, void h9.
Kings are placed out of the way (a1 / j10) unless the test is about them.
"""

import pytest

from companion.core.roster import load_roster
from companion.games.abilities import ABILITIES
from tests.dungeon_board import position, rules, targets

R = rules()
KINGS = {"a1": (0, "princess"), "j10": (1, "warlord")}


def pos_with(pieces, turn=0):
    return position(R, {**KINGS, **pieces}, turn)


# ------------------------------------------------------------------- the table itself

ROSTER = [  # unit, faction, role, cost  (rulebook v0.1.0, "UNIT ROSTER")
    ("hero", "human", "pawn", 2), ("skeleton", "undead", "pawn", 1),
    ("kobold", "redskin", "pawn", 5), ("goblin", "greenskin", "pawn", 5),
    ("stronghold", "human", "castle", 10), ("tomb", "undead", "castle", 12),
    ("iron_golem", "redskin", "castle", 18), ("ogre", "greenskin", "castle", 14),
    ("knight", "human", "knight", 12), ("reaper", "undead", "knight", 15),
    ("salamander", "redskin", "knight", 18), ("orc", "greenskin", "knight", 14),
    ("archer", "human", "bishop", 18), ("wraith", "undead", "bishop", 15),
    ("fire_elemental", "redskin", "bishop", 12), ("troll", "greenskin", "bishop", 16),
    ("wizard", "human", "queen", 20), ("vampire", "undead", "queen", 20),
    ("demonics", "redskin", "queen", 22), ("shaman", "greenskin", "queen", 20),
    ("princess", "human", "king", 15), ("warlock", "undead", "king", 20),
    ("red_dragon", "redskin", "king", 20), ("warlord", "greenskin", "king", 15),
]


def test_the_roster_has_all_24_units_with_the_rulebook_costs_factions_and_roles():
    roster = load_roster("dungeon")
    got = [(k.name, k.faction, k.role, k.cost) for k in roster.kinds]
    assert sorted(got) == sorted(ROSTER)
    assert len({k.code for k in roster.kinds}) == 24


def test_every_faction_has_one_unit_per_chess_role_and_only_kings_are_royal():
    """"Each faction has 6 unit types corresponding to chess roles (Pawn, Castle, Knight,
    Bishop, Queen, King)." "Kings are royal - lose yours and you lose the game.\""""
    roster = load_roster("dungeon")
    for faction in ("human", "undead", "redskin", "greenskin"):
        roles = sorted(k.role for k in roster.kinds if k.faction == faction)
        assert roles == sorted(["pawn", "castle", "knight", "bishop", "queen", "king"])
    assert all(k.royal == (k.role == "king") for k in roster.kinds)


def test_every_ability_named_in_the_roster_is_described_and_every_unit_has_plain_words():
    for k in load_roster("dungeon").kinds:
        assert dict(k.info)["notes"], k.name
        for a in k.abilities:
            assert ABILITIES[a].words and ABILITIES[a].rule


def test_vocabulary_abilities_are_what_the_patterns_say():
    """Abilities that are pure movement must be visible in the data itself."""
    roster = load_roster("dungeon")
    k = {x.name: x for x in roster.kinds}
    assert "hop" in k["iron_golem"].immune  # cannon_proof
    assert k["reaper"].water == "stop"  # water_walk
    assert any(p.phase for p in k["wraith"].both)  # phase
    assert any(p.pierce == "any" for p in k["archer"].capture)  # piercing
    assert any(p.pierce == "friend" for p in k["tomb"].capture)  # phase_fire
    for name in ("fire_elemental", "troll", "demonics", "shaman"):  # water_weakness: diagonal rides only
        rides = [p for _, p in k[name].all_patterns() if p.type == "ride"]
        assert "water_weakness" in k[name].abilities and k[name].water == "cross"
        assert all(p.water_block == (p.dx == p.dy) for p in rides) and any(p.water_block for p in rides)
    for name in ("kobold", "goblin", "iron_golem", "ogre"):  # cannon
        assert any(p.type == "hop" for p in k[name].capture)


# ---------------------------------------------------------------------------- pawns

def test_hero_steps_8_ways_captures_only_diagonally():
    """Hero: "1 square, any direction (8-way)"; attack "Diagonal only (1 square)"."""
    pos = pos_with({"c3": (0, "hero"), "c4": (1, "hero"), "d4": (1, "hero")})
    assert targets(R, pos, "c3", captures=False) == ["b2", "b3", "b4", "c2", "d2", "d3"]
    assert targets(R, pos, "c3", captures=True) == ["d4"]  # c4 is straight ahead: no capture


def test_pawns_cannot_step_on_water():
    """"All Pawns cannot step on water.\""""
    pos = pos_with({"c5": (0, "hero")})
    assert "d5" not in targets(R, pos, "c5") and "d6" not in targets(R, pos, "c5")
    assert targets(R, pos, "c5") == ["b4", "b5", "b6", "c4", "c6", "d4"]


def test_skeleton_moves_like_a_hero():
    """Skeleton: "1 square, any direction (8-way)", "Diagonal only (1 square)"."""
    pos = pos_with({"c3": (0, "skeleton"), "c4": (1, "hero"), "b4": (1, "hero")})
    assert targets(R, pos, "c3", captures=True) == ["b4"]
    assert targets(R, pos, "c3", captures=False) == ["b2", "b3", "c2", "d2", "d3", "d4"]


@pytest.mark.parametrize("unit", ["kobold", "goblin"])
def test_kobold_and_goblin_slide_along_rook_lines_up_to_the_first_piece(unit):
    """"Kobold and Goblin can also slide along rook lines up to the first piece they encounter
    (the screen)" - onto empty squares only; water is no piece: the slide passes over it
    without stopping on it (maps/variants/dungeon.toml, WATER)."""
    pos = pos_with({"c3": (0, unit), "c7": (1, "hero"), "g3": (0, "hero")})
    t = targets(R, pos, "c3", captures=False)
    assert {"c4", "c5", "c6"} <= set(t) and "c7" not in t  # up to the screen, not onto it
    assert {"d3", "e3", "f3"} <= set(t) and "g3" not in t
    assert {"a3", "c1"} <= set(t)
    pos = pos_with({"c5": (0, unit), "h5": (1, "hero")})
    t = targets(R, pos, "c5", captures=False)
    assert "d5" not in t and "e5" not in t and {"f5", "g5"} <= set(t) and "h5" not in t


@pytest.mark.parametrize("unit", ["kobold", "goblin"])
def test_kobold_and_goblin_capture_diagonally_and_as_cannons(unit):
    """Attack: "Diagonal (1 sq) + Cannon"."""
    pos = pos_with({"c3": (0, unit), "d4": (1, "hero"), "c6": (0, "hero"), "c8": (1, "hero"), "c2": (1, "hero")})
    assert targets(R, pos, "c3", captures=True) == ["c8", "d4"]  # c2 straight adjacent: no


# --------------------------------------------------------------------------- castles

def test_stronghold_steps_one_square_orthogonally_and_attacks_along_rook_lines():
    """Stronghold: move "1 square orthogonally", attack "Adjacent + Rook slide"."""
    pos = pos_with({"b4": (0, "stronghold"), "g4": (1, "hero"), "b9": (1, "hero"), "c5": (1, "hero")})
    assert targets(R, pos, "b4", captures=False) == ["a4", "b3", "b5", "c4"]
    assert targets(R, pos, "b4", captures=True) == ["b9", "g4"]  # c5 is diagonal: no


def test_stronghold_attack_crosses_water_but_never_stops_on_it():
    """Rook-slide attacks pass over water (rules-notes: sliders other than the four
    water-weak units cross water without stopping on it)."""
    pos = pos_with({"c5": (0, "stronghold"), "g5": (1, "hero")})
    assert targets(R, pos, "c5", captures=True) == ["g5"]


def test_tomb_rook_attack_passes_through_one_friendly_piece():
    """Tomb: "Phase fire: rook-slide attacks pass through one friendly piece"."""
    pos = pos_with({"c3": (0, "tomb"), "c5": (0, "hero"), "c7": (1, "hero"), "c9": (1, "hero"),
                    "f3": (1, "hero"), "g3": (1, "hero")})
    t = targets(R, pos, "c3", captures=True)
    assert "c7" in t and "c9" not in t  # through one friend, to the first enemy behind it
    assert "f3" in t and "g3" not in t  # an enemy is not passed through
    pos = pos_with({"c3": (0, "tomb"), "c4": (0, "hero"), "c5": (0, "hero"), "c7": (1, "hero")})
    assert "c7" not in targets(R, pos, "c3")  # only one friend


def test_iron_golem_moves_like_a_slider_to_screen_and_captures_adjacent_or_by_cannon():
    """Iron Golem: move "1 sq ortho + rook slide (to screen)", attack "Adjacent + Cannon"."""
    pos = pos_with({"c3": (0, "iron_golem"), "c4": (1, "hero"), "c8": (1, "hero"), "f3": (0, "hero"),
                    "h3": (1, "hero"), "d4": (1, "hero")})
    # adjacent c4; cannon over c4 onto c8 and over f3 onto h3 (never onto the diagonal d4)
    assert targets(R, pos, "c3", captures=True) == ["c4", "c8", "h3"]
    assert targets(R, pos, "c3", captures=False) == ["a3", "b3", "c1", "c2", "d3", "e3"]


def test_ogre_moves_and_attacks_like_the_iron_golem():
    """Ogre: move "1 sq ortho + rook slide (to screen)", attack "Adjacent + Cannon"."""
    pos = pos_with({"c3": (0, "ogre"), "b3": (1, "hero"), "c6": (1, "hero"), "c9": (1, "hero")})
    assert targets(R, pos, "c3", captures=True) == ["b3", "c9"]


# --------------------------------------------------------------------------- knights

def test_knight_jumps_over_pieces_and_terrain_but_never_lands_on_water():
    """"All Knights leap over pieces and terrain." "Knights cannot land on water (but can
    leap over it).\""""
    pos = pos_with({"c4": (0, "knight"), "c5": (0, "hero"), "d4": (0, "hero"), "e3": (1, "hero")})
    t = targets(R, pos, "c4")
    assert "d6" not in t and "e5" not in t  # water
    assert {"b6", "a5", "a3", "b2", "d2", "e3"} == set(t)


def test_reaper_water_walk_lands_on_water():
    """Reaper: "Water-walk: can land on water squares"."""
    pos = pos_with({"c4": (0, "reaper")})
    assert {"d6", "e5"} <= set(targets(R, pos, "c4"))


def test_salamander_jumps_like_a_knight():
    pos = pos_with({"c4": (0, "salamander"), "b6": (1, "hero")})
    assert targets(R, pos, "c4") == ["a3", "a5", "b2", "b6", "d2", "e3"]


def test_orc_also_jumps_two_squares_straight():
    """Orc: "L-shaped jump (2+1) OR 2 squares orthogonally"; "Same as movement" for attacks;
    as a Knight it leaps ("All Knights leap over pieces and terrain")."""
    pos = pos_with({"c3": (0, "orc"), "c4": (0, "hero"), "c5": (1, "hero"), "e3": (1, "hero")})
    t = targets(R, pos, "c3")
    assert {"c5", "e3", "a3", "c1"} <= set(t)  # straight jumps, over c4
    assert {"b5", "d5"} & set(t) == {"b5"}  # d5 is water
    assert targets(R, pos, "c3", captures=True) == ["c5", "e3"]


# --------------------------------------------------------------------------- bishops

def test_archer_moves_diagonally_and_captures_through_one_piece():
    """Archer: attack "Diagonal slide (through 1 piece)", "Piercing: can attack through one
    intervening piece" - of either side."""
    pos = pos_with({"b2": (0, "archer"), "c3": (0, "hero"), "d4": (1, "hero"), "f6": (1, "hero"),
                    "a3": (1, "hero")})
    assert targets(R, pos, "b2", captures=True) == ["a3", "d4"]  # d4 behind the c3 friend
    pos = pos_with({"b2": (0, "archer"), "c3": (1, "hero"), "d4": (1, "hero"), "f6": (1, "hero")})
    assert targets(R, pos, "b2", captures=True) == ["c3", "d4"]  # the first, or one behind it
    assert targets(R, pos, "b2", captures=False) == ["a3", "c1"]  # moves stop at the first piece


def test_wraith_slides_through_friendly_pieces_only():
    """Wraith: "Phase: slides pass through friendly pieces (stops only at enemies/voids)"."""
    pos = pos_with({"b2": (0, "wraith"), "c3": (0, "hero"), "d4": (0, "hero"), "g7": (1, "hero"),
                    "c1": (1, "hero")})
    t = targets(R, pos, "b2")
    assert {"f6", "g7", "c1"} <= set(t)  # through c3 and d4, over the water at e5, onto g7
    assert "c3" not in t and "d4" not in t and "h8" not in t  # never onto a friend; g7 stops it
    pos = pos_with({"b2": (0, "wraith"), "c3": (1, "hero"), "d4": (0, "hero")})
    assert targets(R, pos, "b2", captures=True) == ["c3"] and "e5" not in targets(R, pos, "b2")


def test_wraith_is_stopped_by_void_and_never_stops_on_water():
    pos = pos_with({"f7": (0, "wraith")})
    t = targets(R, pos, "f7")
    assert "g8" in t and "i10" not in t  # h9 is void
    pos = pos_with({"b2": (0, "wraith")})
    t = targets(R, pos, "b2")
    assert "e5" not in t and "f6" in t


def test_fire_elemental_is_stopped_by_water():
    """"Water weakness: water blocks slide entirely"."""
    pos = pos_with({"b2": (0, "fire_elemental")})
    t = targets(R, pos, "b2")
    assert "d4" in t and "f6" not in t and "e5" not in t


def test_troll_slides_diagonally_and_is_stopped_by_water():
    pos = pos_with({"b2": (0, "troll")})
    t = targets(R, pos, "b2")
    assert "d4" in t and "f6" not in t


# ---------------------------------------------------------------------------- queens

def test_wizard_moves_as_rook_attacks_in_all_directions():
    """Wizard: "Split: moves as Rook, attacks in all directions"."""
    pos = pos_with({"b3": (0, "wizard"), "d5": (0, "hero"), "c4": (1, "hero"), "b7": (1, "hero")})
    assert "c4" in targets(R, pos, "b3", captures=True)
    assert "c4" not in targets(R, pos, "b3", captures=False) and "c2" not in targets(R, pos, "b3")
    assert targets(R, pos, "b3", captures=True) == ["b7", "c4"]


def test_vampire_moves_as_bishop_attacks_in_all_directions():
    """Vampire: "Split: moves as Bishop, attacks in all directions"."""
    pos = pos_with({"b3": (0, "vampire"), "b6": (1, "hero"), "f3": (1, "hero")})
    t = targets(R, pos, "b3", captures=False)
    assert "b4" not in t and "c4" in t
    assert targets(R, pos, "b3", captures=True) == ["b6", "f3"]


@pytest.mark.parametrize("unit", ["demonics", "shaman"])
def test_demonics_and_shaman_are_queens_whose_diagonal_slides_water_blocks(unit):
    """Demonics and Shaman: "Full queen (all 8 directions)"; "Water blocks diagonal slides for
    Fire Elemental, Troll, Demonics, and Shaman" ("Both Demonics and Shaman are water-blocked"):
    their diagonal slides stop before water, their straight ones cross it like anyone's."""
    pos = pos_with({"c4": (0, unit)})
    t = targets(R, pos, "c4")
    assert "d5" not in t and "e6" not in t and "f7" not in t  # diagonal: stopped by the pool at d5
    assert {"c10", "a2", "j4"} <= set(t)
    pos = pos_with({"c5": (0, unit)})
    t = targets(R, pos, "c5")
    assert "d5" not in t and "e5" not in t and {"f5", "j5"} <= set(t)  # straight: over the water


# ----------------------------------------------------------------------------- kings

def test_princess_slides_diagonally_without_capturing():
    """Princess: "King step (1 sq, 8-way) + Bishop slide", attack "King step only",
    "no capture via slide"."""
    pos = position(R, {"b2": (0, "princess"), "j10": (1, "warlord"), "f6": (1, "hero"), "c2": (1, "hero")})
    t = targets(R, pos, "b2")
    assert {"c3", "d4"} <= set(t) and "f6" not in t and "e5" not in t  # e5 is water
    assert targets(R, pos, "b2", captures=True) == ["c2"]


def test_warlock_attacks_at_distance_along_diagonals():
    """Warlock: attack "King step + Bishop slide attack"; moves only a King step."""
    pos = position(R, {"b2": (0, "warlock"), "j10": (1, "warlord"), "g7": (1, "hero")})
    assert targets(R, pos, "b2", captures=True) == ["g7"]  # across the water at e5
    assert "d4" not in targets(R, pos, "b2")


@pytest.mark.parametrize("king", ["red_dragon", "warlord"])
def test_red_dragon_and_warlord_strike_with_an_l_shaped_leap(king):
    """Red Dragon / Warlord: attack "King step + Knight jump attack"."""
    pos = position(R, {"c3": (0, king), "j10": (1, "warlord"), "d5": (1, "reaper"), "e4": (1, "hero"),
                       "b5": (1, "hero")})
    assert targets(R, pos, "c3", captures=True) == ["b5", "e4"]  # the Reaper on water cannot be taken
    assert "e2" not in targets(R, pos, "c3")  # no quiet L move
