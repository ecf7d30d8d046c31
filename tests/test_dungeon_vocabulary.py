"""Vocabulary options added for Dungeon Chess, tested on the bare engine (no game module):
``phase`` and ``pierce`` rides, ``immune = ["hop"]``, captures never landing where a slider may
not stop, generation for a subset of squares, and tables shared between seats."""

import pytest

from companion.core.geometry import FLOOR, WATER, Geometry
from companion.core.notation import parse_position
from companion.core.pieces import PieceKind, parse_pattern
from companion.core.roster import roster_from_dict
from companion.core.rules import Rules
from companion.errors import VariantError


def kind(name, code, move=(), capture=(), both=(), **kw):
    P = lambda items: tuple(parse_pattern(t) for t in items)  # noqa: E731
    return PieceKind(name=name, code=code, move=P(move), capture=P(capture), both=P(both), **kw)


KING = kind("king", "K", both=["leap 1,0", "leap 1,1"], royal=True)
PHASER = kind("phaser", "F", both=["ride 1,1 phase"], water="cross")
PIERCER = kind("piercer", "A", move=["ride 1,1"], capture=["ride 1,1 pierce"], water="cross")
FRIENDLY = kind("friendly piercer", "T", move=["leap 1,0"], capture=["ride 1,0 pierce=friend"], water="cross")
CANNON = kind("cannon", "C", move=["ride 1,0"], capture=["hop 1,0"])
GOLEM = kind("golem", "G", move=["leap 1,0"], immune=("hop",))
ROOK = kind("glider rook", "R", both=["ride 1,0"], water="cross")
SWIMMER = kind("swimmer", "S", both=["leap 1,0"], water="stop")
PAWN = kind("pawn", "P", move=["leap 0,1 forward"])
KINDS = [KING, PHASER, PIERCER, FRIENDLY, CANNON, GOLEM, ROOK, SWIMMER, PAWN]


def game(terrain=None, homes=("south", "north")):
    return Rules(Geometry(8, 8, terrain or ()), KINDS, homes)


def captures(rules, pos, square):
    g = rules.geometry
    s = g.parse_square(square)
    return sorted(g.name_of(m.to) for m in rules.pseudo_moves(pos, pos.board[s].owner) if m.frm == s and m.capture is not None)


def quiet(rules, pos, square):
    g = rules.geometry
    s = g.parse_square(square)
    return sorted(g.name_of(m.to) for m in rules.pseudo_moves(pos, pos.board[s].owner) if m.frm == s and m.capture is None)


def test_phase_ride_passes_through_own_pieces_only():
    r = game()
    pos = parse_position(r, "8/8/5p2/8/3P4/2P5/1F6/8 1")
    assert quiet(r, pos, "b2") == ["a1", "a3", "c1", "e5"]
    assert captures(r, pos, "b2") == ["f6"]
    assert r.is_attacked(pos, r.geometry.parse_square("f6"), 0)
    assert r.attackers(pos, r.geometry.parse_square("f6"), 0) == [r.geometry.parse_square("b2")]
    blocked = parse_position(r, "8/8/5p2/8/3p4/2P5/1F6/8 1")
    assert captures(r, blocked, "b2") == ["d4"]
    assert not r.is_attacked(blocked, r.geometry.parse_square("f6"), 0)


def test_pierce_captures_the_first_piece_or_the_one_behind_it():
    r = game()
    pos = parse_position(r, "8/6p1/5p2/8/3P4/8/1A6/8 1")
    assert captures(r, pos, "b2") == ["f6"]  # behind the friend on d4; g7 is behind two pieces
    assert quiet(r, pos, "b2") == ["a1", "a3", "c1", "c3"]
    pos = parse_position(r, "8/8/5p2/8/3p4/8/1A6/8 1")
    assert captures(r, pos, "b2") == ["d4", "f6"]
    assert r.is_attacked(pos, r.geometry.parse_square("f6"), 0)
    assert not r.is_attacked(parse_position(r, "8/6p1/5p2/8/3P4/8/1A6/8 1"), r.geometry.parse_square("g7"), 0)


def test_pierce_friend_passes_only_an_own_piece():
    r = game()
    pos = parse_position(r, "8/p7/8/P7/8/8/T7/8 1")
    assert captures(r, pos, "a2") == ["a7"]
    pos = parse_position(r, "8/p7/8/p7/8/8/T7/8 1")
    assert captures(r, pos, "a2") == ["a5"]
    assert not r.is_attacked(pos, r.geometry.parse_square("a7"), 0)
    assert r.is_attacked(parse_position(r, "8/p7/8/P7/8/8/T7/8 1"), r.geometry.parse_square("a7"), 0)


def test_a_hop_immune_kind_is_no_cannon_target_but_still_a_screen():
    r = game()
    pos = parse_position(r, "g7/8/8/p7/8/8/C7/8 1")
    assert captures(r, pos, "a2") == []
    assert not r.is_attacked(pos, r.geometry.parse_square("a8"), 0)
    pos = parse_position(r, "p7/8/8/g7/8/8/C7/8 1")
    assert captures(r, pos, "a2") == ["a8"]


def test_a_slider_that_may_only_cross_water_never_captures_onto_it():
    t = [FLOOR] * 64
    t[3 * 8 + 0] = WATER  # a4
    r = game(tuple(t))
    pos = parse_position(r, "8/8/8/8/s7/8/R7/8 1")  # an enemy swimmer on the water at a4
    assert captures(r, pos, "a2") == [] and "a5" not in quiet(r, pos, "a2")  # blocked, not taken
    pos = parse_position(r, "p7/8/8/8/8/8/R7/8 1")
    assert captures(r, pos, "a2") == ["a8"] and "a4" not in quiet(r, pos, "a2")  # crossed, not stopped on


def test_pseudo_moves_for_a_subset_of_squares():
    r = game()
    pos = parse_position(r, "8/8/8/8/8/8/1F6/R7 1")
    only = r.pseudo_moves(pos, 0, [r.geometry.parse_square("b2")])
    assert {m.frm for m in only} == {r.geometry.parse_square("b2")}
    assert set(only) == {m for m in r.pseudo_moves(pos, 0) if m.frm == r.geometry.parse_square("b2")}


def test_seat_independent_kinds_share_their_tables_and_directional_ones_do_not():
    r = game()
    assert r.compiled[KINDS.index(PHASER)][0] is r.compiled[KINDS.index(PHASER)][1]
    assert r.compiled[KINDS.index(PAWN)][0] is not r.compiled[KINDS.index(PAWN)][1]
    assert r.attack_tables[0] is not r.attack_tables[1]  # the pawn makes the seats differ
    r2 = Rules(Geometry(8, 8), [KING, PHASER, CANNON], ("south", "north", "east"))
    assert r2.attack_tables[0] is r2.attack_tables[2]


@pytest.mark.parametrize("text,words", [
    ("leap 1,2 phase", "only apply to 'ride'"),
    ("hop 1,0 pierce", "only apply to 'ride'"),
    ("ride 1,1 phase pierce", "either 'phase' or 'pierce'"),
    ("ride 1,1 pierce=enemy", "unknown option 'pierce=enemy'"),
])
def test_bad_ride_options_are_errors(text, words):
    with pytest.raises(VariantError, match=words):
        parse_pattern(text)


def test_pierce_under_move_and_unknown_immunity_are_errors():
    with pytest.raises(VariantError, match="'pierce' is about captures"):
        kind("x", "X", move=["ride 1,1 pierce"])
    with pytest.raises(VariantError, match="only hop is supported"):
        kind("x", "X", both=["leap 1,0"], immune=("leap",))
    with pytest.raises(VariantError, match="immune must be list"):
        roster_from_dict({"variant": {"name": "v"}, "pieces": {"g": {"code": "G", "immune": "hop"}}}, "v.toml")


def test_pattern_text_round_trips_the_new_options():
    for text in ("ride 1,1 phase", "ride 1,0 pierce", "ride 1,0 pierce=friend"):
        assert parse_pattern(text).text() == text
