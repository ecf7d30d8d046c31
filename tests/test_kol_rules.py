"""KoL Chess, every rule sentence of the text (shared/seeds/004) with a hand-checked position:
the exact moves the engine allows. Readings of the text: docs/rules/kol.md. Positions are on
our reconstructed board (maps/kol.toml): green on the light squares of ranks 4 and 9 (and j1,
c12), red on the dark squares of ranks 5 and 8, blue on c3 f3 j3 j6 c7 c10 g10 j10, the Knott
Yeti's roads on the edges, files f-g and ranks 6-7. BASE (tests/kol_board.py) adds Blue's King
on c2 and Boris on a12, Orange's King on j11 and Boris on l1, unless a test replaces them."""

import pytest

from companion.core.moves import Answer
from companion.errors import IllegalMoveError, PositionError, VariantError
from companion.games import make_rules
from tests.kol_board import R, moves, play, position, sq

KING_A2 = {"c2": None, "a2": "K"}  # Blue's King off every line the test looks at


# ---------------------------------------------------------------------------------------- start

def test_blue_moves_first():
    """"Blue moves first." Player 1 is Blue and has the first move."""
    pos = R.start_position()
    assert pos.turn == 0 and R.board_map.seat(1).colour == "blue"
    assert moves(pos)[:3] == ["a2a3", "a2a4", "b1a4"]


def test_each_side_has_twelve_pieces_and_four_pawns_of_each_kind():
    """Six Monsters, the Tower, three Legends, King and Princess, and the three kinds of pawn
    (our reconstruction: docs/rules/kol.md)."""
    pos = R.start_position()
    for player in (0, 1):
        codes = sorted(p.kind.code for _, p in pos.pieces(player))
        assert codes == sorted(["KG"] * 4 + ["G"] * 4 + ["GN"] * 4 + ["NS", "DE", "KN", "KY", "VG", "SV",
                                                                       "T", "SP", "B", "J", "K", "P"])


def test_the_one_capture_of_the_first_move_is_the_demoninjas_through_its_own_gnome():
    """docs/rules/kol.md (the set-up): each side's one capture at the start is its Demoninja's
    long diagonal through its own Gnome ("Only friendly pieces can move through gnomes") to the
    Knob Goblin in the far corner; the Gnauga or the Demoninja takes back."""
    pos = R.start_position()
    assert [R.move_text(pos, m) for m in R.legal_moves(pos) if m.capture is not None] == ["k1a11"]
    play(pos, "k1a11")
    assert sorted(R.move_text(pos, m) for m in R.legal_moves(pos) if m.capture is not None) == \
        ["a12a11", "b12a11", "b12l2"]


def test_the_start_position_has_54_moves_and_perft_2_and_3():
    pos = R.start_position()
    assert len(moves(pos)) == 54
    from companion.core.rules import iter_perft
    assert iter_perft(R, pos, 2) == 2911


# ---------------------------------------------------------------------------------------- pawns

def test_knob_goblin_one_forward_two_on_first_move_captures_diagonally():
    """"Knob Goblin (kg) - Moves vertically one space (two on first move), captures diagonally
    one space. Cannot move backwards.\""""
    pos = position({"e2": "KG", "d3": "g", "f3": "kg", "e5": "KG", "e6": "g"})
    assert moves(pos, "e2") == ["e2d3", "e2e3", "e2e4", "e2f3"]
    assert moves(pos, "e5") == []  # blocked ahead, nothing to take, never back


def test_gnoll_moves_diagonally_up_to_two_and_captures_straight_ahead():
    """"Gnoll (g) - Moves diagonally up to two spaces, captures vertically one space. Cannot
    move backwards.\""""
    assert moves(position({"e4": "G"}), "e4") == ["e4c6", "e4d5", "e4f5", "e4g6"]
    pos = position({"e4": "G", "e5": "kg", "d5": "kg"})
    assert moves(pos, "e4") == ["e4e5", "e4f5", "e4g6"]  # d5 blocks, and is not taken diagonally


def test_gnome_moves_sideways_up_to_two_captures_forward_and_may_charge_on():
    """"Gnome (gn) - Moves horizontally up to two spaces; captures one space forward, but may
    move an extra space forward if the next space is empty.\""""
    pos = position({"e4": "GN", "e5": "kg", "c4": "kg"})
    assert moves(pos, "e4") == ["e4d4", "e4e5", "e4e6", "e4f4", "e4g4"]
    play(pos, "e4e6")
    assert pos.board[sq("e5")] is None and pos.board[sq("e6")].kind.code == "GN"
    pos = position({"e4": "GN", "e5": "kg", "e6": "kg"})
    assert moves(pos, "e4") == ["e4c4", "e4d4", "e4e5", "e4f4", "e4g4"]  # e6 taken: no charge


def test_only_friendly_pieces_move_through_gnomes():
    """"Only friendly pieces can move through gnomes.\""""
    pos = position({"e4": "VG", "e6": "GN", "g4": "gn"})
    assert moves(pos, "e4") == sorted(["e4a4", "e4b4", "e4c4", "e4d4", "e4e1", "e4e2", "e4e3", "e4e5",
                                       "e4e7", "e4e8", "e4e9", "e4e10", "e4e11", "e4e12", "e4f4", "e4g4"])
    pos = position({"e4": "vg", "e6": "GN", "e2": "gn"}, turn=1)
    assert moves(pos, "e4") == sorted(["e4a4", "e4b4", "e4c4", "e4d4", "e4e1", "e4e3", "e4e5", "e4e6",
                                       "e4f4", "e4g4", "e4h4", "e4i4", "e4j4", "e4k4", "e4l4"])


def test_a_gnome_gives_check_through_nothing_but_its_side_sees_through_it():
    pos = position({"c2": None, "e1": "K", "f1": "KG", "e3": "GN", "e8": "vg"}, turn=0)
    assert R.in_check(pos, 0) is False  # Blue's own Gnome shields the King from Orange
    pos = position({"c2": None, "e1": "K", "j11": None, "e8": "k", "e3": "GN", "e2": "VG"}, turn=1)
    assert R.in_check(pos, 1)  # Blue's Gnauga sees through Blue's Gnome


# ------------------------------------------------------------------------------------- monsters

def test_ninja_snowman_moves_diagonally_and_stays_on_white_green_and_appropriate_blue():
    """"Ninja Snowman (Ns) - Moves diagonally any distance, stays on white/green and appropriate
    blue." e4 is green; the light blue c10... are among its squares, the dark blue c3 never."""
    pos = position({"e4": "NS", "g6": "kg", "c2": None, "b1": "KG"})
    assert moves(pos, "e4") == ["e4a8", "e4b7", "e4c2", "e4c6", "e4d3", "e4d5", "e4f3", "e4f5", "e4g2",
                                "e4g6", "e4h1"]
    light = R.tags["light"]
    assert all(m.to in light for m in R.legal_moves(pos) if m.frm == sq("e4"))
    pos = position({"h11": "NS"})  # the light blue g10 is among its squares
    assert "h11g10" in moves(pos, "h11") and sq("g10") in R.tags["blue"] & R.tags["light"]


def test_demoninja_moves_diagonally_and_stays_on_black_red_and_appropriate_blue():
    """"Demoninja (De) - Moves diagonally any distance, stays on black/red and appropriate blue.\""""
    pos = position({"d4": "DE", "f6": "kg"})
    assert moves(pos, "d4") == ["d4a1", "d4a7", "d4b2", "d4b6", "d4c3", "d4c5", "d4e3", "d4e5", "d4f2",
                                "d4f6", "d4g1"]
    assert sq("c3") in R.tags["blue"]  # a dark blue square: the Demoninja's, as the text says


def test_knight_in_white_satin_leaps_two_and_one_over_pieces():
    """"Knight in White Satin (Kn) - Moves two horizontally/vertically and one
    vertically/horizontally; may move over other pieces.\""""
    pos = position({"e4": "KN", "e5": "kg", "d5": "KG", "f6": "kg", "d6": "KG"})
    assert moves(pos, "e4") == ["e4c3", "e4c5", "e4d2", "e4f2", "e4f6", "e4g3", "e4g5"]


def test_knott_yeti_moves_only_on_edges_and_central_cross_and_wraps_round():
    """"Knott Yeti (Ky) - Moves any distance horizontally/vertically, but only on edges and
    central cross. Wrap-around: can move off of edge and back onto opposite, open square.\""""
    # on the central file: the whole file round (wrapping), and across the two-wide cross to g5
    pos = position({"f5": "KY"})
    assert moves(pos, "f5") == sorted([f"f5f{r}" for r in range(1, 13) if r != 5] + ["f5g5"])
    # on the central rank: left to a6, off the edge and back on at l6, k6, ... up to the pawn on
    # h6, which it takes only the plain way (from the right it is reached before wrapping)
    pos = position({"e6": "KY", "h6": "kg"})
    assert moves(pos, "e6") == sorted(["e6a6", "e6b6", "e6c6", "e6d6", "e6e7", "e6f6", "e6g6", "e6h6",
                                       "e6i6", "e6j6", "e6k6", "e6l6"])
    assert R.parse_move(pos, "e6i6").capture is None  # i6 only by wrapping round: a quiet move


def test_knott_yeti_wraps_from_one_edge_to_the_opposite_edge_square_if_open():
    # b1 on the bottom edge: down off the board and back on at b12 (the top edge); rank 1 to the
    # right is blocked at d1, to the left it wraps to l1 but Orange's Boris stands there
    pos = position({"b1": "KY", "d1": "KG", "k1": "kg"})
    assert moves(pos, "b1") == ["b1a1", "b1b12", "b1c1"]
    pos = position({"b1": "KY", "d1": "KG", "b12": "kg"})
    assert moves(pos, "b1") == ["b1a1", "b1c1"]  # "open square": no capture by wrapping


def test_knott_yeti_off_its_roads_cannot_move():
    assert moves(position({"e5": "KY"}), "e5") == []


def test_vicious_gnauga_moves_straight_any_distance():
    """"Vicious Gnauga (Vg) - Moves horizontally/vertically any distance.\""""
    pos = position({"e4": "VG", "e7": "kg", "h4": "KG"})
    assert moves(pos, "e4") == sorted(["e4a4", "e4b4", "e4c4", "e4d4", "e4e1", "e4e2", "e4e3", "e4e5",
                                       "e4e6", "e4e7", "e4f4", "e4g4"])


def test_smarmy_viking_leaps_three_and_one_over_pieces():
    """"Smarmy Viking (Sv) - Moves three horizontally/vertically and one vertically/horizontally;
    may move over other pieces.\""""
    pos = position({"e4": "SV", "e5": "kg", "h5": "kg", "b3": "KG"})
    assert moves(pos, "e4") == ["e4b5", "e4d1", "e4d7", "e4f1", "e4f7", "e4h3", "e4h5"]


# ---------------------------------------------------------------------------------------- tower

def test_the_tower_moves_straight_and_cannot_capture_the_princess():
    """"The Tower (T) - Moves horizontally/vertically any distance." ... "Cannot capture the
    Princess.\""""
    pos = position({"e4": "T", "e6": "p", "e2": "kg", "c4": "kg"})
    assert moves(pos, "e4") == sorted(["e4c4", "e4d4", "e4e2", "e4e3", "e4e5", "e4f4", "e4g4", "e4h4",
                                       "e4i4", "e4j4", "e4k4", "e4l4"])
    assert not R.is_attacked(pos, sq("e6"), 0)


def test_the_king_retreats_into_the_tower_by_moving_into_it():
    """"Three times during the game, the King can 'retreat' into the tower by moving into it."
    Turn X: move King into Tower."""
    pos = position({"c2": None, "f1": "K", "g1": "T", "g2": "KG"})
    assert moves(pos, "f1") == ["f1e1", "f1e2", "f1f2", "f1g1in"]
    play(pos, "f1g1in")
    held = pos.board[sq("g1")]
    assert held.kind.code == "TK" and pos.board[sq("f1")] is None
    assert pos.var("retreats") == (1, 0) and held.state["turns"] == 1
    assert R.position_text(pos).endswith("6(1TK:turns=1)4b 2 quiet=1 retreats=[1,0]")


def test_three_retreats_a_game_and_no_more():
    """"Three times during the game\""""
    pos = position({"c2": None, "f1": "K", "g1": "T"}, retreats=(3, 0))
    assert moves(pos, "f1") == ["f1e1", "f1e2", "f1f2", "f1g2"]
    pos = position({"c2": None, "f1": "K", "g1": "T"}, retreats=(2, 3))
    assert "f1g1in" in moves(pos, "f1")


def test_the_tower_count_does_not_reset_with_a_new_tower():
    """"The Tower count does not reset if you get a new Tower." Blue has no Tower; a pawn is
    traded for one next to the King: after three retreats he may not use it, after two he may."""
    for used, allowed in ((3, False), (2, True)):
        pos = position({"c2": None, "d11": "K", "e11": "KG"}, retreats=(used, 0))
        play(pos, "e11e12", "=T", "j11j10")
        assert ("d11e12in" in moves(pos, "d11")) is allowed


def test_the_tower_with_its_king_cannot_be_captured():
    """"The Tower cannot be captured when the King is in it\""""
    pos = position({"c2": None, "g4": "TK:1", "g8": "vg", "j11": None, "k5": "k"}, turn=1)
    assert moves(pos, "g8") == sorted(["g8a8", "g8b8", "g8c8", "g8d8", "g8e8", "g8f8", "g8h8", "g8i8",
                                       "g8j8", "g8k8", "g8l8", "g8g5", "g8g6", "g8g7", "g8g9", "g8g10",
                                       "g8g11", "g8g12"])
    assert not R.is_attacked(pos, sq("g4"), 1) and not R.in_check(pos, 0)


def test_the_tower_with_its_king_cannot_capture_or_threaten_the_opposing_king():
    """"... but cannot capture other pieces either or threaten the opposing King.\""""
    pos = position({"c2": None, "g4": "TK:1", "g8": "k", "j11": None, "b4": "kg"}, turn=1)
    assert not R.in_check(pos, 1)
    assert sorted(m for m in moves(pos, "g8")) == ["g8f7", "g8f8", "g8f9", "g8g7", "g8g9", "g8h7", "g8h8", "g8h9"]
    pos.set_turn(0)
    assert moves(pos, "g4") == sorted(["g4c4", "g4d4", "g4e4", "g4f4", "g4h4", "g4i4", "g4j4", "g4k4", "g4l4",
                                       "g4g1", "g4g2", "g4g3", "g4g5", "g4g6", "g4g7",
                                       "g4f3out", "g4f4out", "g4f5out", "g4g3out", "g4g5out", "g4h3out",
                                       "g4h4out", "g4h5out"])  # not b4, not g8: no captures


def test_turn_x_plus_1_move_the_tower_let_the_king_out_or_do_something_else():
    """"Turn X+1: move the Tower, including the King; let the King exit the tower and in doing
    so he may take a piece during the exit move; do something else.\""""
    pos = position({"c2": None, "f1": "K", "g1": "T", "g2": "KG"})
    play(pos, "f1g1in", "j11j10")
    assert moves(pos, "g1") == ["g1a1", "g1b1", "g1c1", "g1d1", "g1e1", "g1f1", "g1f1out", "g1f2out",
                                "g1h1", "g1h2out", "g1i1", "g1j1", "g1k1"]  # h1 is watched by Boris on l1
    assert "g2g3" in moves(pos) and "a12a11" in moves(pos)


def test_turn_x_plus_2_the_king_must_leave():
    """"Turn X+2: unless you took option (2) last turn, you have to let the King exit now.\""""
    pos = position({"c2": None, "f1": "K", "g1": "T", "g2": "KG"})
    play(pos, "f1g1in", "j11j10", "a12a11", "j10j9")
    assert moves(pos) == ["g1f1out", "g1f2out", "g1h2out"]


def test_after_the_tower_moved_with_the_king_he_must_leave_the_next_turn():
    """"... or the Tower can move with the King in it, but the King MUST leave the tower on the
    following turn.\""""
    pos = position({"c2": None, "f1": "K", "g1": "T", "g2": "KG"})
    play(pos, "f1g1in", "j11j10", "g1c1", "j10j9")
    assert moves(pos) == ["c1b1out", "c1b2out", "c1c2out", "c1d2out"]  # d1 is watched from l1


def test_the_king_may_take_a_piece_as_he_leaves():
    """"... and may take a piece in doing so." Only f2 is safe to step to: taking the Gnauga."""
    pos = position({"c2": None, "g1": "TK:1", "g2": "kg", "f2": "vg", "h2": "KG"})
    assert [m for m in moves(pos, "g1") if m.endswith("out")] == ["g1f2out"]
    play(pos, "g1f2out")
    assert pos.board[sq("f2")].kind.code == "K" and pos.board[sq("g1")].kind.code == "T"
    assert pos.turn == 1 and pos.var("effects")[0] == ("captured", sq("f2"), "Vicious Gnauga", 1)


def test_a_king_who_cannot_leave_on_turn_x_plus_2_waits_and_the_tower_stays():
    """Our reading (docs/rules/kol.md): with no legal exit, any other move, but the Tower with
    the King does not move again."""
    pos = position({"c2": None, "g1": "TK:2", "f1": "KG", "h1": "KG", "f2": "KG", "g2": "KG", "h2": "KG"})
    assert not any(m.startswith("g1") for m in moves(pos))
    assert "f2f3" in moves(pos) and "a12a1" in moves(pos)


def test_a_king_who_could_not_leave_stays_under_the_obligation_and_the_position_loads_back():
    """"Turn X+2 : ... you have to let the King exit now": the obligation stays (turns=2, "he
    must leave") for as long as he cannot, so the position saves and loads back exactly; it
    used to count on to turns=3, which Load refused. A text written so still loads (as 2)."""
    pos = position({"c2": None, "g1": "TK:2", "f1": "KG", "h1": "KG", "f2": "KG", "g2": "KG", "h2": "KG"})
    play(pos, "a12a1", "j11j10")
    assert pos.board[sq("g1")].state["turns"] == 2
    text = R.position_text(pos)
    assert "(1TK:turns=2)" in text
    assert R.position_text(R.position_from_text(text)) == text
    assert moves(R.position_from_text(text.replace("turns=2", "turns=3"))) == moves(pos)
    with pytest.raises(PositionError, match=r"turns=0; expected 1 or 2"):
        R.position_from_text(text.replace("turns=2", "turns=0"))
    play(pos, "f2f3")  # the way out opens: on his next turn he must take it
    play(pos, "j10j9")
    assert moves(pos) == ["g1f2out"]


def test_a_position_the_game_ended_in_loads_back():
    """A game won by "capturing all three of your opponent's Legends" ends in a position with
    no Orange Legend: its text loads back (a saved game used to be refused at its last line);
    a position where neither side has one is refused."""
    pos = position({"a12": None, "l1": "B", "j12": "j"})  # Orange's only Legend: Jarlsberg on j12
    play(pos, "l1l12", "j11i11", "l12j12")
    assert R.outcome(pos).reason == "all three Legends captured"
    text = R.position_text(pos)
    assert R.position_text(R.position_from_text(text)) == text
    with pytest.raises(PositionError, match="neither side has a Legend"):
        R.position_from_text(text.replace("9B2", "12"))


def test_the_king_keeps_his_uid_through_the_tower():
    pos = position({"c2": None, "f1": "K", "g1": "T"})
    king, tower = pos.board[sq("f1")].uid, pos.board[sq("g1")].uid
    play(pos, "f1g1in", "j11j10", "g1g2out")
    assert (pos.board[sq("g2")].uid, pos.board[sq("g1")].uid) == (king, tower)


# ---------------------------------------------------------------------------------------- legends

def test_sneaky_pete_moves_in_any_straight_line_up_to_seven():
    """"Sneaky Pete (SP) - Moves in any straight line up to seven spaces\""""
    pos = position({**KING_A2, "e4": "SP"})
    expected = ([f"e4e{r}" for r in range(5, 12)] + ["e4e3", "e4e2", "e4e1"]
                + [f"e4{f}4" for f in "abcdfghijkl"]
                + ["e4d5", "e4c6", "e4b7", "e4a8", "e4f5", "e4g6", "e4h7", "e4i8", "e4j9", "e4k10", "e4l11",
                   "e4d3", "e4c2", "e4b1", "e4f3", "e4g2", "e4h1"])
    assert moves(pos, "e4") == sorted(expected)  # not e12: eight squares away


def test_sneaky_pete_on_green_changes_places_with_a_pawn_or_monster_on_green_within_four():
    """"... OR if on a green square, may change places with any friendly Pawn or Monster also on
    a green square within four spaces in a direct line from Sneaky Pete." e4 is green; g4 and
    a4 are green (a Knob Goblin, a Gnoll: swaps, a4 over Orange's pawn on c4); i4 is green but
    holds a Legend; e8, c6, h7, g2 are not green; k4 is six squares away."""
    pos = position({**KING_A2, "e4": "SP", "g4": "KG", "e8": "NS", "c6": "KN", "i4": "J", "a4": "G",
                    "h7": "KG", "k4": "KG", "c4": "kg", "g6": "P", "g2": "DE"})
    assert moves(pos, "e4") == ["e4a4swap", "e4b1", "e4c2", "e4c4", "e4d3", "e4d4", "e4d5", "e4e1", "e4e2",
                                "e4e3", "e4e5", "e4e6", "e4e7", "e4f3", "e4f4", "e4f5", "e4g4swap"]
    play(pos, "e4g4swap")
    assert (pos.board[sq("e4")].kind.code, pos.board[sq("g4")].kind.code) == ("KG", "SP")


def test_sneaky_pete_off_green_does_not_swap():
    pos = position({**KING_A2, "e5": "SP", "g5": "KG", "e9": "KN"})
    assert not any(m.endswith("swap") for m in moves(pos, "e5"))


def test_a_swap_that_brings_a_pawn_to_the_far_rank_offers_a_trade():
    pos = position({"a12": "J", "c12": "SP", "f9": "KG"})
    assert "c12f9swap" in moves(pos, "c12")
    play(pos, "c12f9swap")
    assert pos.pending.kind == "trade" and pos.pending.get("square") == sq("c12")


def test_boris_moves_straight_any_distance():
    """"Boris (B) - Moves horizontally/vertically any distance\""""
    pos = position({**KING_A2, "e1": "B", "e3": "kg", "e4": "kg"})
    assert moves(pos, "e1") == sorted(["e1a1", "e1b1", "e1c1", "e1d1", "e1e2", "e1e3", "e1f1", "e1g1",
                                       "e1h1", "e1i1", "e1j1", "e1k1", "e1l1"])  # e3, e4 not red: no double


def test_boris_takes_two_adjacent_pieces_when_one_is_on_red_within_four():
    """"... can take two adjacent pieces if one is on a red square within four spaces and both
    are in its line of movement. When using his special move, Boris ends on the farther of the
    two pieces taken." e5 is red, four squares from e1."""
    pos = position({**KING_A2, "e1": "B", "e4": "kg", "e5": "kg"})
    assert [m for m in moves(pos, "e1") if m[2:3] == "e"] == ["e1e2", "e1e3", "e1e4", "e1e5"]
    move = R.parse_move(pos, "e1e5")
    assert (move.special, move.capture) == ("double", sq("e4"))
    play(pos, "e1e5")
    assert pos.board[sq("e4")] is None and pos.board[sq("e5")].kind.code == "B"
    # the nearer piece on red (four away) and the farther one five away: still a double capture
    pos = position({**KING_A2, "e1": "B", "e5": "kg", "e6": "kg"})
    assert "e1e6" in moves(pos, "e1")
    # both in the line, but the farther is his own: no double capture
    pos = position({**KING_A2, "e1": "B", "e4": "kg", "e5": "KG"})
    assert "e1e5" not in moves(pos, "e1")
    # five squares away is not within four
    pos = position({**KING_A2, "e1": "B", "e6": "kg", "e7": "kg"})
    assert [m for m in moves(pos, "e1") if m[2:3] == "e"] == ["e1e2", "e1e3", "e1e4", "e1e5", "e1e6"]


def test_boris_sees_through_his_own_gnomes():
    pos = position({**KING_A2, "e1": "B", "e2": "GN", "e4": "kg", "e5": "kg"})
    assert "e1e5" in moves(pos, "e1")


def test_boris_double_capture_is_check():
    """The farther of two pieces may be the King: "threatened directly with capture". Orange's
    King on e5 (red, four from Boris on e1) behind his pawn on e4 is in check; the pawn stepping
    to e3 ends it (e3 and e4 are not red), so do the King's steps (e6 too: no piece to take
    before him), and Orange's Boris taking Blue's along rank 1."""
    pos = position({"c2": None, "a2": "K", "e1": "B", "j11": None, "e5": "k", "e4": "kg"}, turn=1)
    assert R.in_check(pos, 1) and R.attackers(pos, sq("e5"), 0) == [sq("e1")]
    assert moves(pos) == ["e4e3", "e5d4", "e5d5", "e5d6", "e5e6", "e5f4", "e5f5", "e5f6", "l1e1"]


def test_jarlsberg_moves_diagonally_or_teleports_between_blue_squares():
    """"Jarlsberg (J) - Moves diagonally any distance OR teleports from a blue square to any
    open blue square in a direct horizontal/vertical line." From c3: f3 (blue, open), c10 (blue,
    open); not j3 (his own pawn), not c7 (Orange's pawn), not j10 (not on a line with c3)."""
    pos = position({**KING_A2, "c3": "J", "c7": "kg", "j3": "KG"})
    assert moves(pos, "c3") == sorted(["c3a1", "c3b2", "c3d2", "c3e1", "c3b4", "c3a5", "c3d4", "c3e5", "c3f6",
                                       "c3g7", "c3h8", "c3i9", "c3j10", "c3k11", "c3l12", "c3f3", "c3c10"])
    pos = position({**KING_A2, "d3": "J"})
    assert not any(m in moves(pos, "d3") for m in ("d3c3", "d3f3"))  # d3 is not blue


# ----------------------------------------------------------------------------------------- royals

def test_the_king_moves_one_space_and_not_into_check():
    """"King (K) - Can move one space in any direction ... The King cannot move into check.\""""
    pos = position({"c2": None, "e5": "K", "e7": "kg", "g6": "vg"})
    assert moves(pos, "e5") == ["e5d4", "e5d5", "e5e4", "e5f4", "e5f5"]


def test_in_check_the_player_must_take_the_king_out_of_danger():
    """"If threatened directly with capture ("in check"), the player must move to take the King
    out of danger, either by capturing the offending piece, blocking it with another, or moving
    the King." Orange's Gnauga on e8 checks the King on e1: Jarlsberg (a12) and the Ninja
    Snowman (h5) take it, the Gnauga on b5 blocks on e5, the Snowman on e2; the King steps to d1,
    d2, f1, f2 (not e2: still on the file)."""
    pos = position({"c2": None, "e1": "K", "e8": "vg", "b5": "VG", "h5": "NS", "a12": "J", "l1": None,
                    "l12": "j"})
    assert moves(pos) == ["a12e8", "b5e5", "e1d1", "e1d2", "e1f1", "e1f2", "h5e2", "h5e8"]


def test_the_princess_moves_up_to_four_and_cannot_capture_pawns():
    """"Princess (P) - Can move up to four spaces in any one direction; ... cannot capture pawns.\""""
    pos = position({**KING_A2, "e4": "P", "e6": "kg", "g6": "ns", "c4": "t", "b7": "kg"})
    assert moves(pos, "e4") == sorted(["e4b1", "e4c2", "e4c4", "e4c6", "e4d3", "e4d4", "e4d5", "e4e1", "e4e2",
                                       "e4e3", "e4e5", "e4f3", "e4f4", "e4f5", "e4g2", "e4g4", "e4g6", "e4h1",
                                       "e4h4", "e4i4"])


def test_the_princess_is_captured_only_by_royals_legends_or_monsters():
    """"... can only be captured by a Royal, Legends, or Monsters": not by a Knob Goblin (d5,
    diagonally), a Gnoll (e5, straight) or the Tower (l4); by a Monster, the King, a Legend."""
    pos = position({**KING_A2, "e4": "P", "d5": "kg", "e5": "g", "l4": "t"}, turn=1)
    assert not any(m.to == sq("e4") for m in R.legal_moves(pos))
    assert not R.is_attacked(pos, sq("e4"), 1)
    pos = position({**KING_A2, "e4": "P", "e8": "vg", "f5": "k", "j11": None, "h1": "sp"}, turn=1)
    assert {"e8e4", "f5e4", "h1e4"} <= set(moves(pos)) and R.attackers(pos, sq("e4"), 1) == sorted(
        [sq("e8"), sq("f5"), sq("h1")], key=R.attackers(pos, sq("e4"), 1).index)


# ------------------------------------------------------------------------------------ back row

def test_knob_goblins_and_gnolls_on_the_back_row_trade_for_a_monster_or_a_missing_princess_or_tower():
    """"Knob Goblins and Gnolls which reach the back row may be traded for either a Monster or,
    if the appropriate piece has been removed previously, the Princess or Tower.\""""
    pos = position({"e11": "KG"})
    play(pos, "e11e12")
    assert pos.pending.kind == "trade" and pos.turn == 0
    assert [R.answer_text(a) for a in R.answers(pos)] == ["keep", "NS", "DE", "KN", "KY", "VG", "SV", "T", "P"]
    pos = position({"e11": "KG", "h1": "P", "g1": "T"})
    play(pos, "e11e12")
    assert [R.answer_text(a) for a in R.answers(pos)] == ["keep", "NS", "DE", "KN", "KY", "VG", "SV"]
    pos = position({"d10": "G"})
    play(pos, "d10f12")
    assert [R.answer_text(a) for a in R.answers(pos)] == ["keep", "NS", "DE", "KN", "KY", "VG", "SV", "T", "P"]


def test_gnomes_on_the_back_row_trade_for_any_piece_except_the_king_one_each_at_a_time():
    """"Gnomes which reach the back row may be traded for ANY piece except the King. However, a
    player may only have one each of the Tower, Princess, and Legends on the board at a time."
    Blue has Boris (a12) on the board: no second Boris."""
    pos = position({"e11": "GN", "e12": "kg"})
    play(pos, "e11e12")
    assert [R.answer_text(a) for a in R.answers(pos)] == ["keep", "NS", "DE", "KN", "KY", "VG", "SV", "T", "SP",
                                                          "J", "P"]
    play(pos, "=SP")
    assert pos.board[sq("e12")].kind.code == "SP" and pos.turn == 1 and pos.pending is None
    pos = position({"e10": "GN", "e11": "kg"})
    play(pos, "e10e12", "=keep")  # the charge reaches the back row too; keeping is allowed
    assert pos.board[sq("e12")].kind.code == "GN" and pos.turn == 1


def test_a_gnome_moving_along_the_back_row_is_not_traded_again():
    pos = position({"e12": "GN"})
    play(pos, "e12f12")
    assert pos.pending is None and pos.turn == 1


def test_a_trade_answer_that_is_not_offered_is_refused():
    pos = position({"e11": "KG", "h1": "P"})
    play(pos, "e11e12")
    with pytest.raises(IllegalMoveError):
        R.play(pos, Answer("trade", "P"))
    with pytest.raises(IllegalMoveError):
        R.play(pos, R.legal_moves(position({}))[0])


# ---------------------------------------------------------------------------------------- winning

def test_capturing_all_three_legends_wins():
    """"Victory is gained either by capturing all three of your opponent's Legends\""""
    pos = position({**KING_A2, "l1": None, "e4": "VG", "e9": "sp"})
    assert R.outcome(pos) is None
    play(pos, "e4e9")
    out = R.outcome(pos)
    assert out.winners == frozenset({0}) and out.reason == "all three Legends captured"
    assert R.legal_moves(pos) == []


def test_checkmate_wins():
    """"... or by placing their King in a situation where they are in check both at the moment
    and whatever move the opposing player makes." The Gnauga checks on b1 (guarded by the King
    on c1), Boris on l2 holds a2, the King holds b2."""
    pos = position({"j11": None, "a12": None, "c2": None, "l1": None, "l12": "j", "a1": "k", "c1": "K",
                    "l2": "B", "b12": "VG"})
    play(pos, "b12b1")
    out = R.outcome(pos)
    assert out.winners == frozenset({0}) and out.reason == "checkmate"


def test_a_retreat_into_the_tower_is_a_way_out_of_check():
    """Our reading: the King moving into his Tower is "moving the King" out of danger. Orange's
    Knight checks a1; b1 is watched by Orange's Boris: the Tower on b2 is the only way out, and
    after three retreats there is none: checkmate."""
    pieces = {"c2": None, "a1": "K", "a2": "KG", "b2": "T", "c2": "kn"}
    assert moves(position(pieces)) == ["a1b2in"]
    out = R.outcome(position(pieces, retreats=(3, 0)))
    assert out.winners == frozenset({1}) and out.reason == "checkmate"


def test_no_legal_move_without_check_is_a_draw():
    """Our rule (the text has none): stalemate draws. Orange's King on l1 has k1, k2 (the Tower
    on k3) and l2 (the Knight on j3) covered; Jarlsberg on a12 is shut in by his pawn on b11,
    which is blocked."""
    pos = position({"j11": None, "l1": "k", "a12": "j", "b11": "kg", "b10": "KG", "k3": "T", "j3": "KN",
                    "e6": "SP"}, turn=1)
    assert R.legal_moves(pos) == [] and not R.in_check(pos, 1)
    out = R.outcome(pos)
    assert out.is_draw and out.reason == "no legal move"


def test_the_same_position_three_times_is_a_draw():
    pos = position({"c2": None, "a2": "K"})
    for _ in range(2):
        play(pos, "a2a3", "j11j10", "a3a2", "j10j11")
    out = R.outcome(pos)
    assert out is not None and out.is_draw and "3 times" in out.reason


def test_fifty_moves_each_without_capture_or_pawn_move_is_a_draw():
    pos = position({"c2": None, "a2": "K"}, quiet=99)
    assert R.outcome(pos) is None
    play(pos, "a2a3")
    assert R.outcome(pos).reason == "50 moves each without a capture or a pawn move"
    assert R.draw_clock(pos) == (100, 100)


# ------------------------------------------------------------------------------- position text

def test_position_text_round_trips_with_the_tower_and_the_retreat_count():
    pos = position({"c2": None, "f1": "K", "g1": "T", "g2": "KG"})
    play(pos, "f1g1in")
    text = R.position_text(pos)
    again = R.position_from_text(text)
    assert R.position_text(again) == text and moves(again) == moves(pos)


@pytest.mark.parametrize("text,words", [
    ("12/12/12/12/12/12/12/12/12/12/12/12 1", "Blue must have exactly one King"),
    ("B2k8/12/12/12/12/12/12/12/12/12/12/K1b9 1 retreats=[4,0]", "expected two counts from 0 to 3"),
    ("B2k8/12/12/12/12/12/12/12/12/12/12/(1TK)1b9 1", "needs :turns=1"),
    ("B2k8/12/12/12/12/12/12/12/12/12/12/(1TK:turns=0)1b9 1", "expected 1 or 2"),
    ("B2k8/12/12/12/12/12/12/12/12/12/12/(1KG:turns=1)K1b8 1", "no state 'turns' here"),
    ("B2k8/12/12/12/12/12/12/12/12/12/12/BK1b8 1", "has 2 of Boris"),
    ("3k8/12/12/12/12/12/12/12/12/12/12/K11 1", "neither side has a Legend left"),
    ("B2k8/12/12/12/12/12/12/12/12/12/12/K1b9 2 quiet=-3", "quiet=-3"),
])
def test_a_bad_position_text_says_what_is_wrong(text, words):
    with pytest.raises(PositionError, match=words):
        R.position_from_text(text)


# ----------------------------------------------------------------------------------- the board

def test_the_map_must_have_the_colour_tags(tmp_path):
    text = (R.board_map.source.read_text().replace("[tags]", "[tags]\nunused = []")
            .replace('blue = ["c3", "f3", "j3", "j6", "c7", "c10", "g10", "j10"]', ""))
    path = tmp_path / "kol.toml"
    path.write_text(text)
    with pytest.raises(VariantError, match=r"needs the tags blue \(Jarlsberg's teleport squares\)"):
        make_rules("kol", str(path))


def test_the_map_colours_must_agree(tmp_path):
    text = R.board_map.source.read_text().replace('blue = ["c3",', 'blue = ["a4", "c3",')
    path = tmp_path / "kol.toml"
    path.write_text(text)
    with pytest.raises(VariantError, match="a4 is both green and blue"):
        make_rules("kol", str(path))


def test_the_move_list_names_the_piece_that_moves_and_the_special_move():
    pos = position({"c2": None, "f1": "K", "g1": "T", "e4": "SP", "g4": "KG", "c1": "B", "c5": "kg", "c6": "kg"})
    said = {t: R.san(pos, R.parse_move(pos, t)) for t in ("f1g1in", "e4g4swap", "c1c6")}
    assert said == {"f1g1in": "K f1-g1 in", "e4g4swap": "SP e4-g4 swap", "c1c6": "B c1xc6"}
    pos = position({"c2": None, "g1": "TK:1", "f2": "vg"})
    assert R.san(pos, R.parse_move(pos, "g1f2out")) == "K g1xf2 out"
