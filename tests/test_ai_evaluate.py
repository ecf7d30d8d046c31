"""Evaluation from data: piece values (or XP costs), piece-square tables, terrain-aware
mobility, pawn structure, king safety, fatigue; tables validated with clear errors."""

import pytest

from companion.ai.eval_table import load_table, table_from_dict
from companion.ai.evaluate import Evaluator
from companion.core.geometry import FLOOR, WATER, Geometry
from companion.core.notation import parse_position
from companion.core.pieces import PieceKind, parse_pattern
from companion.core.rules import Rules
from companion.errors import VariantError
from companion.games import make_rules
from tests.test_ai_search import random_positions


def kind(name, code, both=(), **kw):
    return PieceKind(name=name, code=code, both=tuple(parse_pattern(t) for t in both), **kw)


def test_start_position_is_balanced_but_for_the_move(chess_rules):
    ev = Evaluator(chess_rules)
    pos = chess_rules.start_position()
    assert ev.evaluate(pos, 0) == ev.table.tempo
    assert ev.scores(pos)[0] == ev.scores(pos)[1]


def test_mirrored_position_scores_the_same_for_the_other_side(chess_rules):
    ev = Evaluator(chess_rules)
    a = chess_rules.position_from_text("r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4")
    b = chess_rules.position_from_text("rnbqk2r/pppp1ppp/5n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQK2R b KQkq - 4 4")
    assert ev.evaluate(a, 0) == pytest.approx(ev.evaluate(b, 1))


def test_material_values_come_from_the_roster(chess_rules):
    ev = Evaluator(chess_rules)
    assert [ev.values[chess_rules.kind_index[c]] for c in "PNBRQK"] == [100, 320, 330, 500, 900, 0]


def test_knight_in_the_centre_beats_knight_in_the_corner(chess_rules):
    ev = Evaluator(chess_rules)
    centre = chess_rules.position_from_text("4k3/8/8/8/3N4/8/8/4K3 w - - 0 1")
    corner = chess_rules.position_from_text("4k3/8/8/8/8/8/8/N3K3 w - - 0 1")
    assert ev.evaluate(centre, 0) > ev.evaluate(corner, 0)


def test_passed_pawn_is_worth_more_further_up(chess_rules):
    ev = Evaluator(chess_rules)
    low = chess_rules.position_from_text("4k3/8/8/8/8/8/P7/4K3 w - - 0 1")
    high = chess_rules.position_from_text("4k3/P7/8/8/8/8/8/4K3 w - - 0 1")
    assert ev.evaluate(high, 0) > ev.evaluate(low, 0) + 100


def test_doubled_and_isolated_pawns_cost(chess_rules):
    ev = Evaluator(chess_rules)
    healthy = chess_rules.position_from_text("4k3/pp6/8/8/8/8/PP6/4K3 w - - 0 1")
    doubled = chess_rules.position_from_text("4k3/pp6/8/8/8/P7/P7/4K3 w - - 0 1")
    assert ev.evaluate(doubled, 0) < ev.evaluate(healthy, 0)


def test_king_shelter_counts_in_the_middlegame(chess_rules):
    """White's king has three pawns around it, Black's none: the shelter weight favours White."""
    pos = chess_rules.position_from_text("rnbq1bnr/8/5k2/8/8/8/5PPP/RNBQ1BK1 w - - 0 1")
    with_shelter = Evaluator(chess_rules, table_from_dict({"evaluation": {"inherit": "chess", "shelter": 20}}, "x"))
    without = Evaluator(chess_rules, table_from_dict({"evaluation": {"inherit": "chess", "shelter": 0}}, "x"))
    assert with_shelter.evaluate(pos, 0) > without.evaluate(pos, 0) + 20


def test_terrain_lowers_the_value_of_squares_next_to_water():
    """Generic mobility comes from the movement data on the real map: a rook boxed in by
    water reaches fewer squares, so the same rook is worth less there."""
    t = [FLOOR] * 64
    for sq in (9, 10, 17, 18, 11, 19, 25, 26, 27):  # water around c2..d3
        t[sq] = WATER
    kinds = [kind("king", "K", both=["leap 1,0", "leap 1,1"], royal=True), kind("rook", "R", both=["ride 1,0"], value=500)]
    rules = Rules(Geometry(8, 8, tuple(t)), kinds, ("south", "north"))
    ev = Evaluator(rules)
    rid = rules.kind_index["R"]
    boxed, open_ = rules.geometry.parse_square("a2"), rules.geometry.parse_square("e5")
    assert ev.mg[rid][0][boxed] < ev.mg[rid][0][open_]
    pos_boxed = parse_position(rules, "7k/8/8/8/8/8/R7/7K 1")
    pos_open = parse_position(rules, "7k/8/8/4R3/8/8/8/7K 1")
    assert ev.evaluate(pos_boxed, 0) < ev.evaluate(pos_open, 0)


def test_pieces_with_only_an_xp_cost_are_valued_from_it():
    kinds = [kind("king", "K", both=["leap 1,0"], royal=True), kind("archer", "A", both=["ride 1,1"], cost=18)]
    rules = Rules(Geometry(8, 8), kinds, ("south", "north"))
    ev = Evaluator(rules)
    assert ev.values[rules.kind_index["A"]] == 18 * ev.table.xp_value


def test_a_game_without_a_table_gets_the_defaults():
    table = load_table("no-such-game-yet")
    assert table.source == "<defaults>" and table.mobility > 0


def test_combat_table_inherits_chess_and_adds_fatigue():
    t = load_table("combat")
    assert "P" in t.pst and "fatigue" in t.state_penalty
    assert t.state_penalty["fatigue"].per_point > 0


def test_fatigue_penalty_is_capped():
    rules = make_rules("combat")
    ev = Evaluator(rules)
    pos = rules.position_from_text("4k3/8/8/8/8/2N5/8/4K3 w - - 0 1 fatigue=c3:40")
    knight = pos.board[rules.geometry.parse_square("c3")]
    cap = ev.table.state_penalty["fatigue"].max
    assert ev.piece_value(knight) == pytest.approx(320 * (1 - cap))


@pytest.mark.parametrize("data,words", [
    ({"evaluation": {"mobilty": 2}}, "unknown key 'mobilty'"),
    ({"evaluation": {"tempo": "ten"}}, "tempo must be a number"),
    ({"evaluation": {"repetition_is_draw": 1}}, "must be true or false"),
    ({"evaluation": {"inherit": "nothing-here"}}, "inherit = 'nothing-here' names no table"),
    ({"evalution": {}}, r"unknown table \[evalution\]"),
    ({"values": {"N": "lots"}}, r"\[values\] N must be a number"),
    ({"state_penalty": {"fatigue": {"per_point": 2}}}, "shares of the piece's value"),
    ({"state_penalty": {"fatigue": {"max": 0.5}}}, "needs per_point"),
    ({"pst": {"N": {"mg": "1 2\n3"}}}, "same number of values"),
    ({"pst": {"N": {"mg": "1 x"}}}, "not a number"),
    ({"pst": {"N": {"mg": "1 2\n3 4", "eg": "1 2 3\n4 5 6"}}}, "must match"),
    ({"pst": {"N": {"eg": "1 2"}}}, "needs mg"),
    ({"evaluation": {"draw_fade": 1}}, "draw_fade is the share of the draw clock"),
    ({"evaluation": {"draw_fade": -0.5}}, "draw_fade is the share of the draw clock"),
])
def test_bad_table_is_a_clear_error_naming_the_file_and_key(data, words):
    with pytest.raises(VariantError, match=words) as e:
        table_from_dict(data, "tables/x.toml")
    assert "tables/x.toml" in str(e.value)


def test_piece_square_table_of_the_wrong_size_is_refused(chess_rules):
    table = table_from_dict({"pst": {"N": {"mg": "1 2\n3 4"}}}, "tables/x.toml")
    with pytest.raises(VariantError, match=r"\[pst.N\] is 2x2, the board is 8x8"):
        Evaluator(chess_rules, table)


# ----- the draw clock -----------------------------------------------------------------------------
def test_scores_fade_toward_a_draw_as_the_fifty_move_clock_runs_out(chess_rules):
    ev = Evaluator(chess_rules)
    assert ev.draw_fade == 0.5
    fresh = chess_rules.position_from_text("6k1/8/8/8/8/8/1P6/R5K1 w - - 0 80")
    assert chess_rules.draw_clock(fresh) == (0, 100)
    full = ev.evaluate(fresh, 0)
    assert full > 500
    for halfmove, share in ((50, 1.0), (80, 0.4), (99, 0.02), (100, 0.0)):
        pos = chess_rules.position_from_text(f"6k1/8/8/8/8/8/1P6/R5K1 w - - {halfmove} 80")
        assert ev.evaluate(pos, 0) == pytest.approx(full * share)
        assert ev.evaluate(pos, 1) == pytest.approx(ev.evaluate(fresh, 1) * share)  # the side behind: toward 0 too


def test_near_the_fifty_move_limit_the_side_ahead_makes_progress(chess_rules):
    """Without the fade the search never sees the rule (chess asks outcome only when no move
    is legal) and shuffles the king at halfmove 98; with it, it pushes the pawn (clock reset)."""
    import time

    from companion.ai.search import Search

    pos = chess_rules.position_from_text("8/8/8/4k3/8/8/4P3/R3K3 w - - 98 80")
    info = Search(chess_rules).run(pos, now=time.perf_counter, max_depth=4)
    assert chess_rules.move_text(pos, info.best).startswith("e2")
    off = Evaluator(chess_rules, table_from_dict({"evaluation": {"inherit": "chess", "draw_fade": 0}}, "t"))
    blind = Search(chess_rules, off).run(pos, now=time.perf_counter, max_depth=4)
    assert not chess_rules.move_text(pos, blind.best).startswith("e2")


def test_dungeon_scores_fade_with_the_quiet_move_clock_when_its_table_asks():
    rules = make_rules("dungeon", "dungeon-compact", draw_rules=True)
    assert Evaluator(rules).draw_fade == 0  # off in tables/dungeon.toml (measured: it lost games)
    ev = Evaluator(rules, table_from_dict({"evaluation": {"inherit": "dungeon", "draw_fade": 0.5}}, "t"))
    text = "7(2RD)2/10/10/10/10/10/2(1WZ)7/10/1(1HE)8/4(1PR)5 1"
    fresh = rules.position_from_text(text)
    late = rules.position_from_text(text + " quiet=90")
    assert rules.draw_clock(late) == (90, 100)  # 50 turns for each of the 2 players left
    assert ev.evaluate(late, 0) == pytest.approx(ev.evaluate(fresh, 0) * 0.2)
    assert make_rules("dungeon", "dungeon-compact").draw_clock(late) is None  # the rulebook's game: no such rule


def _mirrored(fen: str) -> str:
    """The same position with the colours swapped (ranks flipped, side to move swapped)."""
    board, side, castle, ep, *rest = fen.split()
    flipped = "/".join(row.swapcase() for row in board.split("/")[::-1])
    castle = "".join(sorted(castle.swapcase(), key="KQkq".index)) if castle != "-" else "-"
    ep = ep if ep == "-" else ep[0] + str(9 - int(ep[1]))
    return " ".join([flipped, "b" if side == "w" else "w", castle, ep] + rest)


def test_chess_is_scored_the_same_for_black_as_for_white_live_terms_included():
    # the live mobility and king-attack terms read each player's own movement tables: a
    # position and its colour-swapped twin score the same for the side to move
    rules = make_rules("chess")
    ev = Evaluator(rules)
    assert ev.live
    for pos in random_positions(rules, 20, seed=0, plies=(6, 59)):
        twin = rules.position_from_text(_mirrored(rules.position_text(pos)))
        assert ev.evaluate(pos, pos.turn) == pytest.approx(ev.evaluate(twin, twin.turn), abs=1e-6)
