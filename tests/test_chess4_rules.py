"""Four-player chess (chess4): one test per rule of chess.com's "4 Player Chess" help page that we
implement, named after it (docs/rules/chess4.md quotes each), and the decisions recorded there."""

from __future__ import annotations

import random

import pytest

from companion.board.profiles import load_profile
from companion.core.moves import Answer
from companion.errors import IllegalMoveError, PositionError, VariantError
from companion.games import make_rules
from tests.chess4_helpers import moves, play, position, rules


def sq(name: str) -> int:
    return rules().geometry.parse_square(name)


# ----- the board and the armies ---------------------------------------------------------------------
def test_the_board_is_14x14_with_its_3x3_corners_cut():
    g = rules().geometry
    assert (g.width, g.height) == (14, 14)
    void = [s for s in range(g.size) if g.is_void(s)]
    assert len(void) == 36
    assert g.is_void(sq("c3")) and g.is_void(sq("l12")) and not g.is_void(sq("d3")) and not g.is_void(sq("c4"))


def test_it_fits_the_20x20_board_in_the_middle_with_the_squares_around_dark():
    """The board profile's map_offset = "center" puts the 14x14 map on squares d4..q17 of a 20x20
    board; the squares outside the map stay dark and their switches are ignored."""
    placement = load_profile("serial-20x20").placement(14, 14)
    assert (placement.file_offset, placement.rank_offset) == (3, 3)
    assert placement.map_width == 14 and placement.board_width == 20


def test_gameplay_begins_with_red_clockwise_move_order_red_blue_yellow_green():
    r = rules()
    pos = r.start_position()
    assert [s.colour for s in r.board_map.seats] == ["red", "blue", "yellow", "green"]
    assert r.homes == ("south", "west", "north", "east")
    seen = []
    for text in ("h2h3", "b7c7", "h13h12", "m10l10"):
        seen.append(pos.turn)
        play(r, pos, text)
    assert seen == [0, 1, 2, 3] and pos.turn == 0


def test_the_modern_set_up_of_chess_com():
    r = rules()
    pos = r.start_position()
    at = lambda name: (pos.board[sq(name)].owner, pos.board[sq(name)].kind.code)  # noqa: E731
    assert at("g1") == (0, "Q") and at("h1") == (0, "K")
    assert at("a8") == (1, "Q") and at("a7") == (1, "K")
    assert at("h14") == (2, "Q") and at("g14") == (2, "K")
    assert at("n7") == (3, "Q") and at("n8") == (3, "K")
    assert all(len(pos.occ[p]) == 16 for p in range(4))


def test_each_army_moves_forward_away_from_its_own_edge():
    r = rules()
    pos = r.start_position()
    assert moves(r, pos, "h2") == ["h2h3", "h2h4"]
    play(r, pos, "h2h3")
    assert moves(r, pos, "b7") == ["b7c7", "b7d7"]
    play(r, pos, "b7c7")
    assert moves(r, pos, "h13") == ["h13h11", "h13h12"]
    play(r, pos, "h13h12")
    assert moves(r, pos, "m10") == ["m10k10", "m10l10"]
    # h2h3 opened the diagonal g1-n8: Red's Queen pins Green's pawn on m7 to its King
    assert moves(r, pos, "m7") == []


def test_a_move_may_not_leave_the_king_attacked_by_any_player_in_the_game():
    """The Red Queen on g1 pins Blue's b6 pawn to its King on a7 once f2 has moved (the diagonal
    g1-a7): perft 2 from the start counts 395, not 400."""
    r = rules()
    pos = r.start_position()
    play(r, pos, "f2f4")
    assert "b6c6" not in moves(r, pos)
    assert moves(r, pos, "b5") == ["b5c5", "b5d5"]


def test_kings_are_not_captured():
    """A King left attacked by a third player's move is not taken: its owner must answer at
    its own turn (checkmate happens only then)."""
    r, pos = position({"e8": "1R", "e10": "4N", "e12": "3K", "n9": "4K"}, turn=3)
    play(r, pos, "e10c9")  # Green's knight moves away: Red's rook now attacks Yellow's King
    assert r.in_check(pos, 2)
    assert "e8e12" not in moves(r, pos)


# ----- promotion ------------------------------------------------------------------------------------
def test_pawns_promote_on_your_8th_rank_to_a_one_point_queen():
    """FFA: "Pawns will promote on your 8th rank" (the middle of the board) and "1-point Queens"."""
    r, pos = position({"e7": "1P"})
    assert moves(r, pos, "e7") == ["e7e8d"]
    play(r, pos, "e7e8d")
    assert pos.board[sq("e8")].kind.code == "D"
    r, pos = position({"g9": "2P"}, turn=1)
    assert moves(r, pos, "g9") == ["g9h9d"]  # Blue's 8th rank is file h


def test_teams_pawns_promote_on_your_11th_rank_to_any_piece():
    r, pos = position({"e10": "1P"}, mode="teams")
    assert moves(r, pos, "e10") == ["e10e11b", "e10e11n", "e10e11q", "e10e11r"]


# ----- castling and en passant ------------------------------------------------------------------------
@pytest.mark.parametrize("turn, king, rook, short, long_", [
    (0, "h1", ("k1", "d1"), ("h1j1", "k1", "i1"), ("h1f1", "d1", "g1")),
    (1, "a7", ("a4", "a11"), ("a7a5", "a4", "a6"), ("a7a9", "a11", "a8")),
    (2, "g14", ("d14", "k14"), ("g14e14", "d14", "f14"), ("g14i14", "k14", "h14")),
    (3, "n8", ("n11", "n4"), ("n8n10", "n11", "n9"), ("n8n6", "n4", "n7")),
])
def test_castling_on_either_side_for_every_army(turn, king, rook, short, long_):
    colour = str(turn + 1)
    r, pos = position({king: colour + "K", rook[0]: colour + "R", rook[1]: colour + "R"}, turn=turn,
                      castling=tuple(sorted(sq(x) for x in rook)))
    for text, rook_from, rook_to in (short, long_):
        assert text in moves(r, pos, king)
        play(r, pos, text)
        assert pos.board[sq(rook_to)].kind.code == "R" and pos.board[sq(rook_from)] is None
        r.undo(pos)
    castles = sorted(r.san(pos, m) for m in r.legal_moves(pos) if m.special == "castle")
    assert castles == ["O-O", "O-O-O"]


def test_castling_through_a_square_any_player_attacks_is_not_allowed():
    r, pos = position({"d1": "1R", "k1": "1R", "i5": "2R"}, castling=(sq("d1"), sq("k1")))
    assert "h1j1" not in moves(r, pos) and "h1f1" in moves(r, pos)


def test_en_passant_each_player_may_take_a_pawn_that_passed_on_its_next_turn():
    r, pos = position({"e2": "1P", "d4": "2P", "f4": "3P", "f2": "4P"})
    play(r, pos, "e2e4")
    assert "d4e3" in moves(r, pos)  # Blue
    play(r, pos, "a7a6")  # Blue does not take
    assert "f4e3" in moves(r, pos)  # Yellow still may
    play(r, pos, "f4e3")
    assert pos.board[sq("e4")] is None and pos.board[sq("e3")].owner == 2
    r, pos = position({"e2": "1P", "d4": "2P"})
    play(r, pos, "e2e4", "a7a6", "g14f14", "n8n9", "h1g1")
    assert "d4e3" not in moves(r, pos)  # the chance is gone once Red has moved again


# ----- checkmate, stalemate and dead armies -------------------------------------------------------------
def yellow_boxed(**extra):
    pieces = {"d14": "3K", "d13": "3P", "e13": "3P", "k3": "1R"}
    pieces.update(extra)
    return position(pieces)


def test_checkmate_only_happens_when_the_checkmated_players_turn_is_reached():
    r, pos = yellow_boxed(h11="2B")
    play(r, pos, "k3k14")  # check: Yellow has no answer, but Blue moves first
    assert pos.var("out") is None
    play(r, pos, "h11k14")  # Blue takes the rook
    assert pos.turn == 2 and pos.var("out") is None


def test_checkmating_an_opponent_scores_20_and_its_pieces_stay_dead():
    r, pos = yellow_boxed()
    play(r, pos, "k3k14", "a7a6")
    assert pos.var("out") == (2,) and pos.turn == 3
    assert pos.var("points") == (20, 0, 0, 0)
    assert pos.board[sq("d14")].owner == 2 and pos.board[sq("e13")].owner == 2  # grey walls
    assert ("checkmated", 2, ()) in pos.var("effects")
    assert any("checkmated" in line for line in r.describe_turn(pos))


def test_dead_pieces_attack_nothing_block_and_are_taken_for_no_points():
    r, pos = yellow_boxed(g11="1K")
    play(r, pos, "k3k14", "a7a6", "n8n9")
    assert 2 not in r.enemies(pos, 0)
    assert "g11f12" in moves(r, pos, "g11")  # the dead pawn on e13 would attack f12
    assert "k14e14" in moves(r, pos, "k14") and "k14c14" not in moves(r, pos, "k14")
    play(r, pos, "k14e14", "a6a5", "n9n8", "e14e13", "a5a6", "n8n9", "e13e14", "a6a5", "n9n8",
         "e14d14")  # the dead King too
    assert pos.var("points") == (20, 0, 0, 0)


def test_stalemating_yourself_scores_20():
    """The stalemated player is out and gets +20 ("Stalemating yourself +20")."""
    r, pos = position({"d14": "3K", "d13": "3P", "d12": "1N", "e2": "1R"}, turn=1)
    play(r, pos, "a7a6")
    assert pos.var("out") == (2,) and pos.var("points") == (0, 0, 20, 0)
    assert ("stalemated", 2, ()) in pos.var("effects")


def test_the_checkmate_points_go_to_the_last_player_to_move_of_those_attacking_the_king():
    """Red's rook mates along the 14th rank; Blue then checks with a knight as well: both attack
    Yellow's King when its turn comes, and Blue moved last."""
    r, pos = yellow_boxed(c11="2N")
    play(r, pos, "k3k14", "c11e12")
    assert pos.var("points") == (0, 20, 0, 0)
    r, pos = yellow_boxed(c11="2N")
    play(r, pos, "k3k14", "c11a10")
    assert pos.var("points") == (20, 0, 0, 0)


# ----- points ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("victim, worth", [("P", 1), ("D", 1), ("N", 3), ("B", 5), ("R", 5), ("Q", 9)])
def test_capturing_active_colored_pieces_scores(victim, worth):
    r, pos = position({"e5": "1R", "e9": "3" + victim})
    play(r, pos, "e5e9")
    assert pos.var("points") == (worth, 0, 0, 0)


def test_checking_two_players_simultaneously_with_a_knight_scores_5():
    r, pos = position({"h5": "1N", "e8": "2K", "i8": "4K"})
    play(r, pos, "h5g7")
    assert pos.var("points") == (5, 0, 0, 0)


def test_checking_two_players_simultaneously_with_a_queen_scores_1():
    r, pos = position({"h4": "1Q", "e8": "2K", "k8": "4K"})
    play(r, pos, "h4h8")
    assert pos.var("points") == (1, 0, 0, 0)


def test_checking_three_players_at_once_with_a_queen_scores_5():
    r, pos = position({"h4": "1Q", "e8": "2K", "k8": "4K", "h11": "3K"})
    play(r, pos, "h4h8")
    assert pos.var("points") == (5, 0, 0, 0)


# ----- resigning and the end ------------------------------------------------------------------------
def test_a_resigned_players_army_becomes_dead_but_its_king_stays_live_worth_20():
    r, pos = position({"e7": "1R"}, turn=1)
    r.resign(pos, 1)
    assert pos.var("out") == (1,) and pos.var("resigned") == (1,) and pos.turn == 2
    assert pos.board[sq("a7")].owner == 1  # it stays
    play(r, pos, "g14f14", "n8n9", "e7a7")
    assert pos.var("points")[0] == 20 and pos.var("resigned") is None


def test_the_game_is_finished_when_three_players_have_been_eliminated_most_points_win():
    r, pos = position({"e7": "1R"}, points=(3, 8, 0, 2))
    r.resign(pos, 1)
    r.resign(pos, 2)
    assert r.outcome(pos) is None
    r.resign(pos, 3)
    o = r.outcome(pos)
    assert o is not None and o.reason == "three players out"
    # the last player standing takes +20 for each resigned King still on the board
    assert pos.var("points") == (63, 8, 0, 2) and o.winners == {0}


def test_two_players_left_the_leader_may_claim_the_win_by_resigning():
    """With two players left a resignation ends the game; the other gets +20 for the resigning
    King, so a leader by 21 or more still wins (chess.com's "claim win")."""
    r, pos = position({}, points=(40, 0, 0, 15), out=(1, 2))
    pos.set_var("out", (1, 2))
    r.resign(pos, 0)
    o = r.outcome(pos)
    assert pos.var("points") == (40, 0, 0, 35) and o.winners == {0}


def test_equal_points_share_the_win():
    r, pos = position({}, points=(10, 10, 0, 0))
    for p in (1, 2, 3):
        r.resign(pos, p)
    assert pos.var("points") == (70, 10, 0, 0)
    r, pos = position({}, points=(10, 70, 0, 0))
    for p in (1, 2, 3):
        r.resign(pos, p)
    assert r.outcome(pos).winners == {0, 1}


def test_a_draw_by_the_fifty_move_rule_gives_10_to_every_player_left():
    r, pos = position({}, halfmove=99)
    play(r, pos, "h1g1")
    o = r.outcome(pos)
    assert o.reason == "fifty-move rule" and pos.var("points") == (10, 10, 10, 10)


def test_a_draw_when_no_player_left_has_more_than_its_king():
    r, pos = position({"e5": "1R", "e9": "3N"}, out=(1, 3))
    pos.set_var("out", (1, 3))
    play(r, pos, "e5e9")  # Red takes the last piece: Yellow's King and Red's rook... still a rook
    assert r.outcome(pos) is None
    r, pos = position({"e9": "3N", "e8": "1K"}, out=(1, 3))
    play(r, pos, "e8e9")
    assert r.outcome(pos).reason == "insufficient material"
    assert pos.var("points") == (13, 0, 10, 0)


def test_the_same_position_three_times_is_a_draw():
    r, pos = position({"e5": "1R", "j5": "2R", "e10": "3R", "j10": "4R"})
    for _ in range(2):
        play(r, pos, "h1g1", "a7a6", "g14f14", "n8n9", "g1h1", "a6a7", "f14g14", "n9n8")
    assert r.outcome(pos).reason == "threefold repetition"


# ----- teams ------------------------------------------------------------------------------------------
def test_teams_your_teammate_is_the_player_across_and_you_cannot_capture_its_pieces():
    r, pos = position({"e5": "1R", "e9": "3N", "e3": "2N"}, mode="teams")
    assert "e5e9" not in moves(r, pos) and "e5e3" in moves(r, pos)
    assert r.allies(0) == {0, 2} and r.allies(1) == {1, 3}


def test_teams_a_partner_does_not_check_you():
    r, pos = position({"h9": "3R"}, mode="teams")
    assert not r.in_check(pos, 0)


def test_teams_the_first_team_to_checkmate_an_enemy_player_wins():
    r, pos = position({"h1": "1K", "d14": "2K", "d13": "2P", "e13": "2P", "f13": "4B", "k3": "1R", "a7": "4R",
                       "n8": "3K", "n11": "4K"}, mode="teams", kings=False)
    play(r, pos, "k3k14")
    o = r.outcome(pos)
    assert o is not None and o.winners == {0, 2} and o.reason == "checkmate"


def test_teams_stalemate_is_a_draw_and_a_resignation_loses_for_the_team():
    r, pos = position({"d14": "3K", "d13": "3P", "d12": "2N", "e2": "2R"}, turn=0, mode="teams")
    play(r, pos, "h1g1", "a7a6")
    assert r.outcome(pos).winners == frozenset() and r.outcome(pos).reason == "stalemate"
    r, pos = position({}, mode="teams")
    r.resign(pos, 1)
    assert r.outcome(pos).winners == {0, 2}


# ----- the position as text, and undo -----------------------------------------------------------------
def test_the_position_text_round_trips_with_every_variable():
    r, pos = position({"e2": "1P", "d4": "2P"})
    play(r, pos, "e2e4")
    r.resign(pos, 3)
    text = r.position_text(pos)
    assert 'ep=[["e3","e4"],null,null,null]' in text and "resigned=[3]" in text and "out=[3]" in text
    again = r.position_from_text(text)
    assert r.position_text(again) == text and again.hash == pos.hash


@pytest.mark.parametrize("text, words", [
    ("14/14/14/14/14/14/14/14/14/14/14/14/14/14 1", "must have exactly one King"),
    (None, "out=[7]"),
    (None, "castling: e1 is no rook"),
    (None, "points="),
])
def test_a_bad_position_text_is_one_clear_line(text, words):
    r = rules()
    start = r.position_text(r.start_position())
    if text is None:
        text = {"out=[7]": start + " out=[7]", "castling: e1 is no rook": start.replace('castling=["d1"', 'castling=["e1"'),
                "points=": start.replace("points=[0,0,0,0]", "points=[1,2]")}[words]
    with pytest.raises(PositionError) as e:
        r.position_from_text(text)
    assert words in str(e.value) and "\n" not in str(e.value)


def test_options_are_checked():
    with pytest.raises(VariantError, match="mode"):
        make_rules("chess4", mode="pairs")
    with pytest.raises(VariantError, match="4 players"):
        make_rules("chess4", players=3)


@pytest.mark.parametrize("mode", ["ffa", "teams"])
def test_random_games_apply_and_undo_exactly_and_end(mode):
    r = rules(mode)
    rng = random.Random(7)
    for _ in range(3):
        pos = r.start_position()
        plies = 0
        while r.outcome(pos) is None and plies < 700:
            before, h = pos.snapshot(), pos.hash
            if rng.random() < 0.004:
                r.resign(pos, pos.turn)
            else:
                r.apply(pos, rng.choice(r.legal_moves(pos)))
            r.undo(pos)
            assert pos.snapshot() == before and pos.hash == h
            if rng.random() < 0.004:
                r.resign(pos, pos.turn)
            else:
                r.apply(pos, rng.choice(r.legal_moves(pos)))
            plies += 1
        assert r.outcome(pos) is not None or plies == 700


def test_an_answer_is_refused_when_nothing_waits():
    r = rules()
    pos = r.start_position()
    with pytest.raises(IllegalMoveError):
        r.play(pos, Answer("fight", "attacker"))
