"""The engine's generality: any board size, terrain, 2-4 players, the movement vocabulary
(leapers, riders with ranges, cannons, split move/capture, terrain permissions), piece state,
and turns that stop mid-way for a decision. Built from data only, with no game module."""

import pytest

from companion.core.geometry import FLOOR, VOID, WATER, Geometry
from companion.core.moves import Answer, Decision, Move
from companion.core.notation import format_position, parse_position
from companion.core.pieces import PieceKind, parse_pattern
from companion.core.rules import Rules, iter_perft
from companion.errors import IllegalMoveError, MapError, PositionError, VariantError


def kind(name, code, move=(), capture=(), both=(), **kw):
    P = lambda items: tuple(parse_pattern(t) for t in items)  # noqa: E731
    return PieceKind(name=name, code=code, move=P(move), capture=P(capture), both=P(both), **kw)


KING = kind("king", "K", both=["leap 1,0", "leap 1,1"], royal=True)
ROOK = kind("rook", "R", both=["ride 1,0"])
SHORT = kind("short rook", "S", both=["ride 1,0 max=2"])
CANNON = kind("cannon", "C", move=["ride 1,0"], capture=["hop 1,0"])
KNIGHT = kind("knight", "N", both=["leap 1,2"])
SPLIT = kind("wizard", "W", move=["ride 1,0"], capture=["ride 1,1"])
SWIMMER = kind("swimmer", "F", both=["ride 1,1"], water="stop")
GLIDER = kind("glider", "G", both=["ride 1,1"], water="cross")
WADER = kind("wader", "D", both=["ride 1,1"], water="block")
PAWN = kind("pawn", "P", move=["leap 0,1 exact"], capture=["leap 1,1 forward"])
KINDS = [KING, ROOK, SHORT, CANNON, KNIGHT, SPLIT, SWIMMER, GLIDER, WADER, PAWN]


def game(width, height, homes=("south", "north"), terrain=None):
    geo = Geometry(width, height, terrain or ())
    return Rules(geo, KINDS, homes)


def targets(rules, pos, square):
    g = rules.geometry
    sq = g.parse_square(square)
    return sorted(g.name_of(m.to) for m in rules.pseudo_moves(pos, pos.board[sq].owner) if m.frm == sq)


@pytest.mark.parametrize("w,h", [(5, 5), (8, 8), (10, 10), pytest.param(8, 20, marks=pytest.mark.slow),
                                 pytest.param(20, 8, marks=pytest.mark.slow), pytest.param(20, 20, marks=pytest.mark.slow),
                                 pytest.param(26, 26, marks=pytest.mark.slow), (7, 13)])
def test_boards_of_any_size_width_and_height_independent(w, h):
    rules = game(w, h)
    pos = rules.new_position()
    corner = pos.new_piece("R", 0)
    pos.put(0, corner)
    assert len(targets(rules, pos, "a1")) == (w - 1) + (h - 1)
    assert rules.geometry.name_of(w * h - 1) == f"{'abcdefghijklmnopqrstuvwxyz'[w - 1]}{h}"


@pytest.mark.parametrize("w,h", [(4, 8), (8, 4), (27, 8), (0, 0)])
def test_board_size_out_of_range_is_an_error(w, h):
    with pytest.raises(MapError, match="must be an integer from 5 to 26"):
        Geometry(w, h)


def test_leaper_jumps_over_pieces_and_terrain_but_never_lands_on_void_or_forbidden_water():
    t = [FLOOR] * 25
    t[2 * 5 + 1] = VOID   # b3
    t[1 * 5 + 2] = WATER  # c2
    t[1 * 5 + 1] = VOID   # b2 (jumped over)
    rules = game(5, 5, terrain=tuple(t))
    pos = parse_position(rules, "5/5/5/5/N4 1")
    assert targets(rules, pos, "a1") == []  # b3 void, c2 water (knights may not land on water)
    pos = parse_position(rules, "5/5/2N2/5/5 1")
    assert "b2" not in targets(rules, pos, "c3") and "a2" in targets(rules, pos, "c3")


def test_rider_range_limit():
    rules = game(8, 8)
    pos = parse_position(rules, "8/8/8/8/3S4/8/8/8 1")
    assert targets(rules, pos, "d4") == sorted(["d5", "d6", "d3", "d2", "c4", "b4", "e4", "f4"])


def test_cannon_needs_exactly_one_screen_friend_or_foe():
    rules = game(8, 8)
    # cannon a1, screen a3 (friend), target a5 (enemy), a second piece beyond does not matter
    pos = parse_position(rules, "8/8/8/r7/8/R7/8/C7 1")
    assert "a5" in targets(rules, pos, "a1")
    assert "a3" not in targets(rules, pos, "a1")  # cannot capture the screen itself
    # no screen: cannot capture; two screens: cannot capture
    assert "a5" not in targets(rules, parse_position(rules, "8/8/8/r7/8/8/8/C7 1"), "a1")
    assert "a5" not in targets(rules, parse_position(rules, "8/8/8/r7/r7/R7/8/C7 1"), "a1")
    # an enemy screen works too
    assert "a5" in targets(rules, parse_position(rules, "8/8/8/r7/8/r7/8/C7 1"), "a1")


def test_cannon_lines_skip_water_and_stop_at_void():
    t = [FLOOR] * 64
    t[1 * 8] = WATER  # a2 is water: transparent to the cannon
    rules = game(8, 8, terrain=tuple(t))
    pos = parse_position(rules, "8/8/8/r7/8/R7/8/C7 1")
    assert "a5" in targets(rules, pos, "a1")
    t[3 * 8] = VOID  # a4 void: the line stops
    rules = game(8, 8, terrain=tuple(t))
    assert "a5" not in targets(rules, parse_position(rules, "8/8/8/r7/8/R7/8/C7 1"), "a1")


def test_split_move_and_capture_patterns():
    rules = game(8, 8)
    pos = parse_position(rules, "8/8/8/2r1r3/3W4/8/8/3r4 1")
    t = targets(rules, pos, "d4")
    assert "c5" in t and "e5" in t          # captures diagonally
    assert "d1" not in t and "d2" in t      # moves orthogonally, never captures that way
    assert "c3" not in t                    # never moves diagonally to an empty square


def test_terrain_permissions_stop_cross_block():
    t = [FLOOR] * 64
    t[2 * 8 + 2] = WATER  # c3
    rules = game(8, 8, terrain=tuple(t))
    # swimmer may stop on water; glider slides over without stopping; wader is blocked
    swim = targets(rules, parse_position(rules, "8/8/8/8/8/8/1F6/8 1"), "b2")
    glide = targets(rules, parse_position(rules, "8/8/8/8/8/8/1G6/8 1"), "b2")
    wade = targets(rules, parse_position(rules, "8/8/8/8/8/8/1D6/8 1"), "b2")
    assert "c3" in swim and "d4" in swim
    assert "c3" not in glide and "d4" in glide
    assert "c3" not in wade and "d4" not in wade


def test_one_ride_may_be_stopped_by_water_where_the_kind_crosses_it():
    """``ride ... water=block``: this ride stops before water, the kind's other rides cross it
    (Dungeon Chess: "Water blocks diagonal slides for ... Demonics, and Shaman")."""
    t = [FLOOR] * 64
    t[2 * 8 + 2] = WATER  # c3
    t[1 * 8 + 3] = WATER  # d2
    queen = kind("dry queen", "Q", both=["ride 1,0", "ride 1,1 water=block"], water="cross")
    rules = Rules(Geometry(8, 8, tuple(t)), [KING, queen], ("south", "north"))
    moves = targets(rules, parse_position(rules, "8/8/8/8/8/8/1Q6/8 1"), "b2")
    assert "c3" not in moves and "d4" not in moves      # the diagonal stops before c3
    assert "d2" not in moves and "e2" in moves          # the straight slide crosses d2
    assert parse_pattern("ride 1,1 water=block").text() == "ride 1,1 water=block"


def test_void_blocks_every_slide():
    t = [FLOOR] * 64
    t[3] = VOID  # d1
    rules = game(8, 8, terrain=tuple(t))
    assert targets(rules, parse_position(rules, "8/8/8/8/8/8/8/R7 1"), "a1")[:3] == ["a2", "a3", "a4"]
    assert "e1" not in targets(rules, parse_position(rules, "8/8/8/8/8/8/8/R7 1"), "a1")
    with pytest.raises(PositionError, match="void"):
        parse_position(rules, "8/8/8/8/8/8/8/3R4 1")


def test_forward_depends_on_the_owner_home_edge_for_four_players():
    rules = game(9, 9, homes=("south", "north", "west", "east"))
    pos = parse_position(rules, "9/9/9/9/(3P)3(1P)3(4P)/9/9/9/(2P)8 1")
    assert targets(rules, pos, "e5") == ["e6"]   # south player: forward is up
    pos.set_turn(1)
    assert targets(rules, pos, "a1") == []       # north player: forward is down, off the board
    assert targets(rules, pos, "a5") == ["b5"]   # west: forward is to the right
    assert targets(rules, pos, "i5") == ["h5"]   # east: forward is to the left


def test_turn_order_is_cyclic_and_skips_eliminated_players():
    rules = game(9, 9, homes=("south", "north", "west", "east"))
    pos = parse_position(rules, "(2K)8/9/9/9/(3K)7(4K)/9/9/9/(1K)8 1")
    order = []
    for _ in range(5):
        order.append(pos.turn)
        rules.end_turn(pos)
    assert order == [0, 1, 2, 3, 0]
    pos.set_var("out", (2,))
    seq = []
    for _ in range(4):
        seq.append(pos.turn)
        rules.end_turn(pos)
    assert 2 not in seq


def test_attack_detection_matches_generated_captures_for_every_kind():
    """is_attacked (reverse tables) agrees with the moves the generator produces."""
    import random

    t = [FLOOR] * 100
    for s in (33, 34, 43, 44):
        t[s] = WATER
    for s in (0, 9, 90):
        t[s] = VOID
    rules = game(10, 10, homes=("south", "north"), terrain=tuple(t))
    rng = random.Random(5)
    codes = [k.code for k in KINDS if not k.royal]
    for _ in range(150):
        pos = rules.new_position()
        free = [s for s in range(100) if t[s] == FLOOR]
        rng.shuffle(free)
        for s in free[:rng.randint(4, 30)]:
            pos.put(s, pos.new_piece(rng.choice(codes), rng.randint(0, 1)))
        for by in (0, 1):
            reach = {m.to for m in rules.pseudo_moves(pos, by) if m.capture is not None}
            for s in range(100):
                p = pos.board[s]
                if p is not None and p.owner != by:
                    assert rules.is_attacked(pos, s, by) == (s in reach), (format_position(pos), s, by)


def test_piece_state_is_part_of_the_hash_and_restored_by_undo():
    rules = game(8, 8)
    pos = parse_position(rules, "8/8/8/8/3N4/8/8/K6k 1")
    base = pos.hash
    pos.begin()
    pos.set_state(rules.geometry.parse_square("d4"), "fatigue", 1)
    assert pos.hash != base
    assert "(1N:fatigue=1)" in format_position(pos)
    pos.undo_frame()
    assert pos.hash == base and pos.board[27].state == {}


def test_extended_position_format_round_trip_with_state_and_variables():
    rules = game(10, 10, homes=("south", "north", "west", "east"))
    text = "(2K)9/10/10/10/(3K)8(4K)/10/10/(1N:fatigue=2,hex=1)9/10/(1K)9 3 out=[1] stones=[3,2]"
    pos = parse_position(rules, text)
    assert format_position(pos) == text
    assert pos.turn == 2 and pos.var("stones") == (3, 2)


@pytest.mark.parametrize("text,words", [
    ("8/8/8 1", "3 rows"),
    ("8/8/8/8/8/8/8/7Z 1", "'Z' is not a piece"),
    ("8/8/8/8/8/8/8/(5K)7 1", "player 5 does not exist"),
    ("8/8/8/8/8/8/8/K8 1", "has 9 squares, expected 8"),
    ("8/8/8/8/8/8/8/K6 1", "has 7 squares"),
    ("8/8/8/8/8/8/8/K7 9", "side to move"),
    ("8/8/8/8/8/8/8/K7 1 junk", "name=value"),
    ("8/8/8/8/8/8/8/K7 1 x={", "not valid JSON"),
    ("8/8/8/8/8/8/8/(1K:bad)7 1", "key=value"),
])
def test_bad_extended_position_is_a_clear_error(text, words):
    with pytest.raises(PositionError, match=words):
        parse_position(game(8, 8), text)


@pytest.mark.parametrize("text,words", [
    ("jump 1,2", "not a movement pattern"),
    ("leap x,2", "two integers"),
    ("leap 0,0", "non-zero"),
    ("leap 1,2 sideways", "unknown option 'sideways'"),
    ("leap 1,2 max=3", "only applies to 'ride'"),
    ("leap 1,2 lame", "straight-line"),
    ("leap 1,2 water=block", "only applies to 'ride'"),
    ("ride 1,1 water=cross", "unknown option"),
])
def test_bad_pattern_is_a_clear_error(text, words):
    with pytest.raises(VariantError, match=words):
        parse_pattern(text)


def test_piece_data_validation():
    with pytest.raises(VariantError, match="code must be"):
        kind("x", "k1")
    with pytest.raises(VariantError, match="water must be"):
        kind("x", "X", water="swim")
    with pytest.raises(VariantError, match="list them under capture"):
        kind("x", "X", move=["hop 1,0"])
    with pytest.raises(VariantError, match="unique"):
        Rules(Geometry(8, 8), [KING, KING], ("south", "north"))
    with pytest.raises(VariantError, match="2 to 4 players"):
        Rules(Geometry(8, 8), [KING], ("south",))


class DuelRules(Rules):
    """A toy game whose captures stop for a decision: the defender may call a duel (yes/no),
    and a duel is decided by a chance event. Shows multi-step turns on the shared engine."""

    name = "toy-duel"

    def perform(self, pos, move):
        if move.capture is not None:
            pos.set_var("pending", Decision("duel", player=pos.board[move.capture].owner,
                                            info=(("move", (move.frm, move.to)),)))
            return
        super().perform(pos, move)

    def answers(self, pos):
        d = pos.pending
        if d.kind == "duel":
            return [Answer("duel", v, d.player) for v in ("yes", "no")]
        return []

    def answer(self, pos, answer):
        d = pos.pending
        frm, to = d.get("move")
        if d.kind == "duel" and answer.value == "yes":
            pos.set_var("pending", Decision("dice", chance=True, info=d.info))
            return
        pos.set_var("pending", None)
        if answer.value in ("no", "attacker"):
            super().perform(pos, Move(frm, to, to))
        else:  # the defender won: the attacker is lost
            pos.take(frm)
            self.end_turn(pos)


def test_a_turn_can_stop_for_decisions_and_continue_and_undo_step_by_step():
    rules = DuelRules(Geometry(8, 8), KINDS, ("south", "north"))
    pos = parse_position(rules, "7k/8/8/8/8/8/8/R6r 1")
    start = pos.snapshot()
    capture = next(m for m in rules.legal_moves(pos) if m.capture is not None)
    rules.play(pos, capture)
    assert pos.pending.kind == "duel" and pos.pending.player == 1
    assert rules.legal_moves(pos) == []  # nothing moves while a decision is pending
    with pytest.raises(IllegalMoveError, match="decision is pending"):
        rules.play(pos, Move(0, 8))
    with pytest.raises(IllegalMoveError, match="not one of the choices"):
        rules.play(pos, Answer("duel", "maybe", 1))
    rules.play(pos, Answer("duel", "yes", 1))
    assert pos.pending.chance
    rules.play(pos, Answer("dice", "defender"))
    assert pos.pending is None and pos.board[0] is None and pos.turn == 1
    for _ in range(3):
        rules.undo(pos)
    assert pos.snapshot() == start


def test_perft_on_a_fairy_board_is_stable_and_leaves_the_position_unchanged():
    rules = game(10, 10)
    pos = parse_position(rules, "k9/2c1p1n3/10/10/4W5/10/10/10/2C1P1N3/K9 1")
    before = pos.snapshot()
    assert iter_perft(rules, pos, 3) == iter_perft(rules, pos, 3) > 0
    assert pos.snapshot() == before


def test_a_move_reachable_by_two_patterns_is_listed_once():
    """A king step that is also the first square of a slide (Dungeon's Princess, Kobold) is one
    move, not two: perft and the AI count moves, the tracker matches them."""
    princess = kind("princess", "Q", move=["ride 1,1"], both=["leap 1,0", "leap 1,1"], royal=True)
    kobold = kind("kobold", "B", move=["leap 1,0", "leap 1,1", "ride 1,0"], capture=["leap 1,1", "hop 1,0"])
    rules = Rules(Geometry(8, 8), [princess, kobold, KING], ("south", "north"))
    pos = parse_position(rules, "7k/8/8/8/3B4/8/8/Q7 1")
    moves = rules.pseudo_moves(pos, 0)
    assert len(moves) == len(set(moves))
    g = rules.geometry
    assert sum(1 for m in moves if m.frm == g.parse_square("a1") and m.to == g.parse_square("b2")) == 1
    assert sum(1 for m in moves if m.frm == g.parse_square("d4") and m.to == g.parse_square("d5")) == 1
