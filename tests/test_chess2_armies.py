"""Chess 2's six armies: hand-checked positions with the exact move list of every ability, one
test per rule sentence of "The Six Armies" and "Other Notes" (seed 002_355d17d5c304ba86.txt).
Readings of unclear sentences: docs/rules/chess2.md."""

from companion.core.rules import iter_perft
from tests.chess2_helpers import answer_texts, game, moves, piece, play, pos_of, targets


def sq_list(text: str) -> list[str]:
    return sorted(text.split())


# ------------------------------------------------------------------------------- I) Classic

def test_classic_is_regular_old_chess_and_the_only_army_that_can_castle():
    """"It's regular old Chess. This is the only army that can castle.\""""
    r = game("classic", "animals")
    pos = pos_of(r, "r3k2r/8/8/8/8/8/8/R3K2R w KQ - 0 1")
    assert {"e1g1", "e1c1"} <= set(moves(r, pos, "e1"))
    play(r, pos, "e1g1")
    assert piece(r, pos, "g1") == "K" and piece(r, pos, "f1") == "R"
    # an Animals King with an Elephant on h8 has no castling right, nor any castling move
    pos = pos_of(r, "r3k2r/8/8/8/8/8/8/R3K2R b KQ - 0 1")
    assert not [m for m in moves(r, pos, "e8") if m in ("e8g8", "e8c8")]
    for army in ("nemesis", "empowered", "reaper", "animals"):
        other = game(army, "classic")
        try:
            pos_of(other, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
        except ValueError as e:
            assert "only the Classic army castles" in str(e)
        else:
            raise AssertionError(f"{army} was given castling rights")


# ------------------------------------------------------------------------------- II) Nemesis

def test_the_nemesis_moves_as_a_queen_but_cannot_capture():
    """"The nemesis piece moves as a queen, but cannot capture or be captured except by the enemy
    king.": the pawn on d6 blocks its file and cannot be taken."""
    r = game("nemesis", "classic")
    pos = pos_of(r, "4k3/8/3p4/8/3Q4/8/8/K7 w - - 0 1")
    assert targets(r, pos, "d4") == sq_list("d5 d3 d2 d1 c4 b4 a4 e4 f4 g4 h4 e5 f6 g7 h8 c5 b6 a7 e3 f2 g1 c3 b2")


def test_the_nemesis_can_check_and_checkmate_a_king():
    """"(It can check and checkmate a king, and a king can capture it.)\""""
    r = game("nemesis", "classic")
    pos = pos_of(r, "4k3/8/8/8/4Q3/8/8/K7 b - - 0 1")
    assert r.in_check(pos)
    assert moves(r, pos) == ["e8d7", "e8d8", "e8f7", "e8f8"]
    # the King may take an unguarded Nemesis; guarded by the knight on d6, it mates
    assert "a8b7" in moves(r, pos_of(r, "k7/1Q6/8/8/8/8/8/K7 b - - 0 1"))
    mate = pos_of(r, "k7/1Q6/3N4/8/8/8/8/K7 b - - 0 1")
    assert r.outcome(mate).reason == "checkmate" and r.outcome(mate).winners == {0}


def test_only_the_enemy_king_can_capture_the_nemesis():
    """The black rook on h7 cannot take the Nemesis on d7; the black King can (no duel)."""
    r = game("nemesis", "classic")
    pos = pos_of(r, "4k3/3Q3r/8/8/8/8/8/K7 b - - 0 1")
    assert moves(r, pos) == ["e8d7", "e8f8"]
    play(r, pos, "e8d7")
    assert pos.pending is None and piece(r, pos, "d7") == "k"


def test_nemesis_pawns_move_as_normal_pawns_or_one_space_toward_the_enemy_king():
    """"Your pawns can move as normal pawns, or alternatively they can make a nemesis move, which
    is a move one space toward the enemy king. (Imagine a box drawn around your pawn and the
    enemy king; moving inside that box is a nemesis move.)": c3 toward f6 may go c4 (forward),
    d4 (diagonal) or d3 (sideways), and captures b4 diagonally forward."""
    r = game("nemesis", "classic")
    pos = pos_of(r, "8/8/5k2/8/1n6/2P5/8/K7 w - - 0 1")
    assert moves(r, pos, "c3") == ["c3b4", "c3c4", "c3d3", "c3d4"]


def test_a_nemesis_move_can_be_toward_your_back_row_if_the_enemy_king_is_behind_your_pawn():
    """"That move can be toward your back row if the enemy king is behind your pawn.\""""
    r = game("nemesis", "classic")
    pos = pos_of(r, "8/4P3/3k4/8/8/8/8/K7 w - - 0 1")
    assert moves(r, pos, "e7") == ["e7d7", "e7e6", "e7e8b", "e7e8n", "e7e8q", "e7e8r"]


def test_nemesis_pawns_can_only_capture_the_way_normal_pawns_can():
    """"Nemesis pawns can only capture pieces (or threaten a king) the same way normal pawns
    can: diagonally forward.": the knight on d4, straight toward the King, is not taken; the
    King on e4... is threatened only diagonally forward."""
    r = game("nemesis", "classic")
    pos = pos_of(r, "6k1/8/8/8/3n4/3P4/8/K7 w - - 0 1")
    assert moves(r, pos, "d3") == ["d3e3", "d3e4"]
    pos = pos_of(r, "8/8/8/4k3/3P4/8/8/K7 b - - 0 1")
    assert r.is_attacked(pos, r.geometry.parse_square("e5"), 0)
    assert not r.is_attacked(pos, r.geometry.parse_square("d5"), 0)


def test_nemesis_pawns_cannot_move_two_spaces_at_the_start():
    """"Your pawns cannot move two spaces at the start of the game." (From the start, 19 moves:
    8 single steps, 4 knight moves and 7 diagonal steps toward the black King on e8.)"""
    r = game("nemesis", "classic")
    pos = r.start_position()
    assert moves(r, pos, "e2") == ["e2e3"]
    assert moves(r, pos, "d2") == ["d2d3", "d2e3"]
    assert len(r.legal_moves(pos)) == 19


# ----------------------------------------------------------------------------- III) Empowered

def test_empowered_pieces_gain_the_movement_of_adjacent_knights_bishops_rooks():
    """"if knight, bishop, rook are in a line, adjacent to one another, then knight can move as
    knight+bishop. Bishop can move as knight+bishop+rook. Rook can move as rook+bishop. The
    knight does NOT gain rook movement in this example, nor does the rook gain knight movement.\""""
    r = game("empowered", "classic")
    pos = pos_of(r, "8/8/7k/8/2NBR3/8/8/K7 w - - 0 1")
    knight = "a3 a5 b2 b6 d2 d6 e3 e5"
    bishop_from_c4 = "b5 a6 d5 e6 f7 g8 b3 a2 d3 e2 f1"
    assert targets(r, pos, "c4") == sq_list(knight + " " + bishop_from_c4)
    bishop = "c5 b6 a7 e5 f6 g7 h8 c3 b2 e3 f2 g1"
    knight_from_d4 = "b3 b5 c2 c6 e2 e6 f3 f5"
    rook_from_d4 = "d5 d6 d7 d8 d3 d2 d1"
    assert targets(r, pos, "d4") == sq_list(" ".join((bishop, knight_from_d4, rook_from_d4)))
    rook = "e5 e6 e7 e8 e3 e2 e1 f4 g4 h4"
    bishop_from_e4 = "f5 g6 h7 d5 c6 b7 a8 f3 g2 h1 d3 c2 b1"
    assert targets(r, pos, "e4") == sq_list(rook + " " + bishop_from_e4)


def test_empowered_diagonals_do_not_count():
    """"(diagonals do not count)": a knight diagonally next to a bishop stays a knight."""
    r = game("empowered", "classic")
    pos = pos_of(r, "8/8/7k/8/3B4/2N5/8/K7 w - - 0 1")
    assert targets(r, pos, "c3") == sq_list("a2 a4 b1 b5 d1 d5 e2 e4")


def test_empowered_king_queen_and_pawns_cannot_gain_and_the_queen_moves_as_a_king():
    """"(King, queen, and pawns cannot gain movement properties.) ... the queen can only move as
    a king.\""""
    r = game("empowered", "classic")
    pos = pos_of(r, "8/8/7k/8/2NQR3/3P4/8/K7 w - - 0 1")
    assert targets(r, pos, "d4") == sq_list("c5 d5 e5 c3 e3")
    assert targets(r, pos, "d3") == []  # blocked by the queen; no borrowed move
    pos = pos_of(r, "8/8/7k/8/2RP4/8/8/K7 w - - 0 1")
    assert targets(r, pos, "d4") == ["d5"]


def test_an_empowered_piece_checks_with_borrowed_movement():
    """The knight on c3, next to the rook on c2, moves (and attacks) as a rook too: the black
    King on c7 is in check along the c-file."""
    r = game("empowered", "classic")
    pos = pos_of(r, "8/2k5/8/8/8/2N5/2R5/K7 b - - 0 1")
    assert r.in_check(pos)
    assert r.geometry.parse_square("c3") in r.attackers(pos, r.geometry.parse_square("c7"), 0)


# -------------------------------------------------------------------------------- IV) Reaper

def test_the_reaper_can_teleport_and_capture_anywhere_except_the_enemys_back_row():
    """"It can teleport and capture anywhere on the board except the enemy's back row.": from
    the start, the 32 empty squares of ranks 3-6 and the 8 black pawns; nothing on rank 8."""
    r = game("reaper", "classic")
    pos = r.start_position()
    expected = [f"{f}{n}" for f in "abcdefgh" for n in (3, 4, 5, 6, 7)]
    assert targets(r, pos, "d1") == sorted(expected)
    pos = pos_of(r, "r3k3/8/8/8/8/7n/8/3QK3 w - - 0 1")
    t = targets(r, pos, "d1")
    assert "h3" in t and "a8" not in t and len(t) == 64 - 8 - 2


def test_the_reaper_cannot_capture_a_king():
    """"The reaper cannot capture a king." Nor does it give check."""
    r = game("reaper", "classic")
    pos = pos_of(r, "8/8/4k3/8/8/8/8/3QK3 w - - 0 1")
    assert "e6" not in targets(r, pos, "d1") and len(targets(r, pos, "d1")) == 64 - 8 - 3
    assert not r.in_check(pos, 1)


def test_the_ghosts_teleport_to_any_open_square_and_cannot_capture():
    """"the rooks are ghosts that can teleport to any open square on the board. The ghosts
    cannot capture or be captured." (The enemy back row too.)"""
    r = game("reaper", "classic")
    pos = pos_of(r, "4k2r/8/8/8/8/8/8/R3K3 w - - 0 1")
    t = targets(r, pos, "a1")
    assert len(t) == 64 - 4 and "h8" not in t and "e8" not in t and "a8" in t


def test_ghosts_cannot_be_captured_and_pieces_cannot_pass_through_them():
    """"Pieces cannot pass through the Reaper army's ghost rooks or occupy the same square as a
    ghost rook.": the black rook stops before the Ghost on a4; a knight leaps over it."""
    r = game("reaper", "classic")
    pos = pos_of(r, "r3k3/8/8/8/R7/8/8/4K3 b - - 0 1")
    assert [t for t in targets(r, pos, "a8") if t[0] == "a"] == ["a5", "a6", "a7"]
    assert not [m for m in r.legal_moves(pos) if m.capture is not None]
    pos = pos_of(r, "4k3/8/8/8/8/1R6/1nR5/4K3 b - - 0 1")
    assert targets(r, pos, "b2") == ["a4", "c4", "d1", "d3"]


def test_even_the_reaper_cannot_take_an_elephant_if_its_more_than_2_squares_away():
    """"Even the reaper cannot take an elephant if its more than 2 squares away.\""""
    r = game("reaper", "animals")
    far = pos_of(r, "4k3/8/4r3/8/8/8/8/Q3K3 w - - 0 1")
    assert "e6" not in targets(r, far, "a1")
    near = pos_of(r, "4k3/8/4r3/8/3Q4/8/8/4K3 w - - 0 1")
    assert "e6" in targets(r, near, "d4")


# ----------------------------------------------------------------------------- V) Two Kings

def test_two_kings_have_no_queen_and_two_warrior_kings():
    """"You have no queen, but instead have two kings called warrior kings.\""""
    r = game("two-kings", "classic")
    pos = r.start_position()
    assert r.position_text(pos).startswith("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w kq")
    assert len(pos.royals[0]) == 2
    try:
        pos_of(r, "4k3/8/8/8/8/8/8/3QK3 w - - 0 1")
    except ValueError as e:
        assert "not a piece of white's army" in str(e)
    else:
        raise AssertionError("a Two Kings queen was accepted")


def test_if_either_warrior_king_is_checkmated_you_lose():
    """"If either one is checkmated, you lose.": the King on a1 is mated by the rooks; the other
    King on h3 could move, but that does not answer the check."""
    r = game("two-kings", "classic")
    pos = pos_of(r, "4k3/8/8/8/8/7K/1r6/K6r w - - 0 1")
    assert r.in_check(pos) and r.legal_moves(pos) == []
    assert r.outcome(pos).reason == "checkmate" and r.outcome(pos).winners == {1}


def test_whirlwind_destroys_all_adjacent_pieces_friendly_and_enemy():
    """"the warrior king stays in place and destroys all adjacent pieces—friendly and
    enemy—including diagonally adjacent pieces." No duel (Kings are immune); the black pawn
    gives white a stone."""
    r = game("two-kings", "classic")
    pos = pos_of(r, "4k3/8/8/8/2n5/3Kp3/3P4/7K w - - 0 1")
    assert "d3d3" in moves(r, pos, "d3")
    play(r, pos, "d3d3")
    for s in ("c4", "e3", "d2"):
        assert piece(r, pos, s) is None
    assert piece(r, pos, "d3") == "K" and r.stones(pos) == (4, 3)
    assert pos.pending.kind == "king-turn"


def test_a_whirlwind_that_destroys_a_pawn_just_double_stepped_ends_the_en_passant_right():
    """Found by a timed match: 1.e4 and a king-turn Whirlwind destroying that pawn left an en
    passant square with no pawn behind it; black's capture onto it crashed move generation."""
    r = game("two-kings", "classic")
    pos = pos_of(r, "4k3/8/8/8/5p2/3K4/4P3/7K w - - 0 1")
    play(r, pos, "e2e4", "d3d3")
    assert piece(r, pos, "e4") is None and pos.var("ep") is None
    assert "f4e3" not in moves(r, pos) and "f4f3" in moves(r, pos)
    assert r.position_text(pos).split()[3] == "-"


def test_you_cannot_whirlwind_if_your_other_warrior_king_is_adjacent():
    """"You cannot Whirlwind if your other warrior king is adjacent.\""""
    r = game("two-kings", "classic")
    pos = pos_of(r, "4k3/8/8/8/2n5/2KKp3/3P4/8 w - - 0 1")
    assert "d3d3" not in moves(r, pos, "d3") and "c3c3" not in moves(r, pos, "c3")


def test_a_whirlwind_cannot_destroy_a_ghost_rook():
    """"A warrior king's Whirlwind cannot destroy a ghost rook.": the Ghost survives the
    Whirlwind; a Whirlwind with only a Ghost next to it destroys nothing and is not a move
    (docs/rules/chess2.md)."""
    r = game("two-kings", "reaper")
    pos = pos_of(r, "4k3/8/8/8/8/2rKp3/8/7K w - - 0 1")
    play(r, pos, "d3d3")
    assert piece(r, pos, "c3") == "r" and piece(r, pos, "e3") is None
    pos = pos_of(r, "4k3/8/8/8/8/2rK4/8/7K w - - 0 1")
    assert "d3d3" not in moves(r, pos, "d3")


def test_after_each_of_your_turns_you_may_take_a_king_turn_moving_only_a_warrior_king():
    """"After each of your turns, you may (optionally) take a special king-turn where you only
    move a warrior king." and "During your king-turn, you may ONLY move a warrior king or perform
    Whirlwind with a warrior king.": after 1.e4, skip or either King to e2."""
    r = game("two-kings", "classic")
    pos = r.start_position()
    play(r, pos, "e2e4")
    assert pos.turn == 0 and pos.pending.kind == "king-turn" and pos.pending.get("ply")
    assert answer_texts(r, pos) == ["d1e2", "e1e2", "skip"]
    play(r, pos, "skip")
    assert pos.turn == 1 and pos.pending is None
    # perft counts each king-turn answer as a ply: 20 moves, 32 king-turn answers, 640 replies
    assert [iter_perft(r, r.start_position(), d) for d in (1, 2, 3)] == [20, 32, 640]


def test_on_your_normal_turn_there_are_no_special_restrictions():
    """"On your normal turn, there are no special restrictions. You can move either warrior
    king, or some other piece, whatever you want.\""""
    r = game("two-kings", "classic")
    pos = pos_of(r, "4k3/8/8/8/8/8/N7/3KK3 w - - 0 1")
    froms = {m[:2] for m in moves(r, pos)}
    assert froms == {"a2", "d1", "e1"}


def test_a_king_turn_is_skipped_by_tapping_a_warrior_king():
    """"whenever you choose to skip this extra king-turn, it would be helpful if you tap one of
    your warrior kings as a signal to your opponent": lifting and replacing a Warrior King is
    the board's gesture for "skip" (rules.gestures, which the tracker reads)."""
    r = game("two-kings", "classic")
    pos = r.start_position()
    assert r.gestures(pos) == []
    play(r, pos, "e2e4")
    ((answer, squares),) = r.gestures(pos)
    assert r.answer_text(answer) == "skip" and squares == {r.geometry.parse_square("d1"), r.geometry.parse_square("e1")}


def test_it_doesnt_matter_if_you_moved_that_warrior_king_during_your_normal_turn():
    """"It doesn't matter if you moved that warrior king or not during your normal turn.\""""
    r = game("two-kings", "classic")
    pos = pos_of(r, "4k3/8/8/8/8/8/8/3KK3 w - - 0 1")
    play(r, pos, "e1f2", "f2g3")
    assert piece(r, pos, "g3") == "K" and pos.turn == 1


def test_you_cant_move_into_check_on_your_normal_turn_or_your_king_turn():
    """"You can't move into check on your normal-turn or your king-turn.": the rook on f8 keeps
    both Kings off the f-file in the king-turn too."""
    r = game("two-kings", "classic")
    pos = pos_of(r, "4kr2/8/8/8/8/8/P7/3KK3 w - - 0 1")
    assert "e1f1" not in moves(r, pos) and "e1f2" not in moves(r, pos)
    play(r, pos, "a2a3")
    assert answer_texts(r, pos) == ["d1c1", "d1c2", "d1d2", "d1e2", "e1d2", "e1e2", "skip"]


def test_the_normal_turn_must_answer_check_without_counting_on_the_king_turn():
    """Two Kings in check: the normal turn must leave no King in check (a move that would only
    be saved by the king-turn is illegal)."""
    r = game("two-kings", "classic")
    pos = pos_of(r, "4k3/8/8/8/4r3/8/P7/3KK3 w - - 0 1")
    assert r.in_check(pos)
    assert "a2a3" not in moves(r, pos)
    assert set(moves(r, pos)) <= {"e1d2", "e1f1", "e1f2"}


# ------------------------------------------------------------------------------- VI) Animals

def test_the_wild_horse_moves_as_a_knight_but_can_capture_its_own_pieces():
    """"Knight -> Wild Horse. Moves as a knight, but can capture its own pieces.": from the
    start, b1 goes to a3, c3, or takes its own pawn on d2 (no duel, no stone)."""
    r = game("animals", "classic")
    pos = r.start_position()
    assert moves(r, pos, "b1") == ["b1a3", "b1c3", "b1d2"]
    play(r, pos, "b1d2")
    assert pos.pending is None and piece(r, pos, "d2") == "N" and r.stones(pos) == (3, 3)
    pos = pos_of(r, "4k3/8/8/8/8/8/3K4/1N6 w - - 0 1")
    assert "b1d2" not in moves(r, pos, "b1")  # never its King


def test_the_tiger_moves_up_to_2_squares_diagonally():
    """"Bishop -> Tiger. Can only move up to 2 squares diagonally\""""
    r = game("animals", "classic")
    pos = pos_of(r, "4k3/8/8/8/3B4/8/8/K7 w - - 0 1")
    assert targets(r, pos, "d4") == sq_list("c5 b6 e5 f6 c3 b2 e3 f2")


def test_the_tiger_does_not_move_when_it_captures():
    """"but does not move when it captures (immediately jumps back to the square it attacked
    from).\""""
    r = game("animals", "classic")
    pos = pos_of(r, "4k3/8/5p2/8/3B4/8/8/K7 w - - 0 1")
    assert "d4f6" in moves(r, pos, "d4")
    assert r.occupancy_after(pos, r.parse_move(pos, "d4f6")) == frozenset(
        r.geometry.parse_square(s) for s in ("e8", "d4", "a1"))
    play(r, pos, "d4f6", "pass")
    assert piece(r, pos, "d4") == "B" and piece(r, pos, "f6") is None and r.stones(pos) == (4, 3)


def test_the_elephant_can_only_move_up_to_3_squares_orthogonally():
    """"Rook -> Elephant. Can only move up to 3 squares orthogonally.\""""
    r = game("animals", "classic")
    pos = pos_of(r, "4k3/8/8/8/3R4/8/8/K7 w - - 0 1")
    assert targets(r, pos, "d4") == sq_list("d5 d6 d7 d3 d2 d1 c4 b4 a4 e4 f4 g4")


def test_the_elephant_rampages_its_maximum_distance_capturing_everything_in_its_path():
    """"It can capture both friendly and enemy pieces, even multiple pieces in one move. If it
    captures a piece, the elephant rampages and must move its maximum distance, capturing
    everything in its path.": with a pawn on d5 the only move up is d4-d7, taking d5 and d6."""
    r = game("animals", "classic")
    pos = pos_of(r, "4k3/8/3n4/3p4/3R4/8/3P4/K7 w - - 0 1")
    assert targets(r, pos, "d4") == sq_list("d7 d3 d1 c4 b4 a4 e4 f4 g4")
    play(r, pos, "d4d7")
    # one duel per enemy victim, in path order: first the pawn on d5
    assert pos.pending.kind == "duel" and pos.pending.get("victim") == r.geometry.parse_square("d5")
    play(r, pos, "pass")
    assert pos.pending.get("victim") == r.geometry.parse_square("d6")
    play(r, pos, "pass")
    assert piece(r, pos, "d7") == "R" and piece(r, pos, "d5") is None and piece(r, pos, "d6") is None
    assert r.stones(pos) == (4, 3)
    # down, through its own pawn on d2: d4-d1 takes it (no duel, no stone)
    pos = pos_of(r, "4k3/8/8/8/3R4/8/3P4/K7 w - - 0 1")
    assert "d4d1" in moves(r, pos, "d4") and "d4d2" not in moves(r, pos, "d4")
    play(r, pos, "d4d1")
    assert pos.pending is None and piece(r, pos, "d2") is None and r.stones(pos) == (3, 3)


def test_a_defenders_win_in_a_rampage_kills_the_elephant_and_spares_the_rest():
    """Duels in a rampage (docs/rules/chess2.md): one offer per enemy piece in path order; when
    a defender wins one, that piece and the Elephant leave the board and the rest of the path
    is spared (the Elephant never arrives)."""
    r = game("animals", "classic")
    pos = pos_of(r, "4k3/8/3n4/3p4/3R4/8/8/K7 w - - 0 1")
    play(r, pos, "d4d7", "duel", "0-1")
    assert piece(r, pos, "d4") is None and piece(r, pos, "d5") is None and piece(r, pos, "d7") is None
    assert piece(r, pos, "d6") == "n" and pos.turn == 1
    assert r.stones(pos) == (4, 1)  # black: 3 - 1 (fee: an Elephant outranks a pawn) - 1 (bid)


def test_a_rampage_stops_at_the_board_edge():
    r = game("animals", "classic")
    pos = pos_of(r, "4k3/8/8/8/8/8/1p6/1R5K w - - 0 1")
    assert "b1b3" not in moves(r, pos, "b1")  # b2 is taken: must go on
    assert "b1b4" in moves(r, pos, "b1")
    pos = pos_of(r, "4k3/8/8/8/8/8/8/nR5K w - - 0 1")
    assert "b1a1" in moves(r, pos, "b1")  # the edge after one square


def test_the_elephant_cannot_be_captured_by_a_piece_more_than_2_squares_away():
    """"Also, the elephant cannot be captured by a piece more than 2 squares away. (Draw a 5x5 box
    with Elephant in the center. It can't be captured by pieces outside the box.)\""""
    r = game("classic", "animals")
    far = pos_of(r, "4k3/8/8/8/4r3/8/8/K3R3 w - - 0 1")
    assert "e4" not in targets(r, far, "e1")
    near = pos_of(r, "4k3/8/8/8/4r3/8/4R3/K7 w - - 0 1")
    assert "e4" in targets(r, near, "e2")
    knight = pos_of(r, "4k3/8/8/8/4r3/8/3N4/K7 w - - 0 1")
    assert "e4" in targets(r, knight, "d2")


def test_the_jungle_queen_moves_as_a_rook_or_as_a_knight():
    """"Queen -> Jungle Queen. Can move as a rook or as a knight.\""""
    r = game("animals", "classic")
    pos = pos_of(r, "4k3/8/8/8/3Q4/8/8/K7 w - - 0 1")
    rook = "d5 d6 d7 d8 d3 d2 d1 a4 b4 c4 e4 f4 g4 h4"
    knight = "b3 b5 c2 c6 e2 e6 f3 f5"
    assert targets(r, pos, "d4") == sq_list(rook + " " + knight)


# ------------------------------------------------------------------- readings (docs/rules)

def test_a_rampage_may_not_go_through_a_ghost_a_nemesis_a_far_elephant_or_a_king():
    """"must move its maximum distance, capturing everything in its path": a piece it may not
    capture on the path makes the rampage impossible (docs/rules/chess2.md)."""
    ghost = game("animals", "reaper")
    pos = pos_of(ghost, "4k3/8/8/3r4/3R4/8/8/K7 w - - 0 1")
    assert [t for t in targets(ghost, pos, "d4") if t[0] == "d" and t > "d4"] == []
    nem = game("animals", "nemesis")
    pos = pos_of(nem, "4k3/8/3q4/3p4/3R4/8/8/K7 w - - 0 1")
    assert "d4d7" not in moves(nem, pos, "d4")
    ele = game("animals")
    pos = pos_of(ele, "4k3/3r4/8/3p4/3R4/8/8/K7 w - - 0 1")
    assert "d4d7" not in moves(ele, pos, "d4")  # the black Elephant on d7 is 3 squares away
    own_king = pos_of(ele, "4k3/8/8/8/Kp1R4/8/8/8 w - - 0 1")
    assert targets(ele, own_king, "d4") == sq_list("c4 d5 d6 d7 d3 d2 d1 e4 f4 g4")


def test_an_elephant_checks_through_the_pieces_it_would_rampage_over():
    """An enemy King on the path of a possible rampage is in check, even behind another piece;
    not when the rampage could not be made (a far Elephant at its end)."""
    r = game("animals")
    pos = pos_of(r, "8/3k4/3p4/3R4/8/8/8/K7 b - - 0 1")
    assert r.in_check(pos)
    assert r.attackers(pos, r.geometry.parse_square("d7"), 0) == [r.geometry.parse_square("d5")]
    blocked = pos_of(r, "3r4/3k4/3p4/3R4/8/8/8/K7 b - - 0 1")
    assert not r.in_check(blocked)
