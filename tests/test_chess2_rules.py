"""Chess 2 (rules v2.4), one test per rule sentence of the seed (002_355d17d5c304ba86.txt):
Midline Invasion, no stalemate, dueling, promotion, draws. The armies' abilities are in
tests/test_chess2_armies.py; the readings of unclear sentences in docs/rules/chess2.md."""

import pytest

from companion.core.moves import Answer
from companion.core.rules import iter_perft
from companion.errors import IllegalMoveError
from tests.chess2_helpers import answer_texts, game, moves, piece, play, pos_of, targets

CLASSIC = game("classic")


# --------------------------------------------------------------------------- Midline Invasion

def test_you_also_win_if_your_king_crosses_the_midline_of_the_board():
    """"you also win if your king crosses the midline of the board": a King landing on its 5th
    rank wins at once; nothing is legal afterwards, and perft counts no move after it."""
    pos = pos_of(CLASSIC, "4k3/8/8/8/4K3/8/8/8 w - - 0 1")
    # the King's 8 moves: d5, e5, f5 invade; after each of the other 5, black has 5 King moves
    assert iter_perft(CLASSIC, pos, 1) == 8
    assert iter_perft(CLASSIC, pos, 2) == 5 * 5
    play(CLASSIC, pos, "e4e5")
    o = CLASSIC.outcome(pos)
    assert o is not None and o.winners == {0} and o.reason == "Midline Invasion"
    assert CLASSIC.legal_moves(pos) == []
    assert ("invasion", 0) in pos.var("effects")


def test_your_king_must_land_on_the_5th_rank_without_being_in_check():
    """"to win by Midline Invasion, your King must land on the 5th rank without being in check":
    a 5th-rank square the enemy attacks is not a legal move (moving into check)."""
    pos = pos_of(CLASSIC, "4k3/8/8/r7/4K3/8/8/8 w - - 0 1")
    assert targets(CLASSIC, pos, "e4") == ["d3", "d4", "e3", "f3", "f4"]


def test_black_invades_on_its_own_fifth_rank():
    """The midline is each player's own: black's King wins on rank 4."""
    pos = pos_of(CLASSIC, "8/8/8/4k3/8/8/8/K7 b - - 0 1")
    play(CLASSIC, pos, "e5d4")
    assert CLASSIC.outcome(pos).winners == {1}


def test_to_win_by_midline_invasion_both_warrior_kings_must_cross():
    """"To win by the Midline Invasion method, BOTH warrior kings must cross the midline of the
    board into enemy territory." One across is not a win; the second, here in the king-turn, is."""
    r = game("two-kings", "classic")
    pos = pos_of(r, "4k3/8/8/8/3KK3/8/P7/8 w - - 0 1")
    play(r, pos, "d4d5")
    assert r.outcome(pos) is None and pos.pending.kind == "king-turn"
    play(r, pos, "e4e5")
    o = r.outcome(pos)
    assert o.winners == {0} and o.reason == "Midline Invasion"


def test_the_second_warrior_king_crossing_on_the_normal_turn_wins_before_any_king_turn():
    r = game("two-kings", "classic")
    pos = pos_of(r, "4k3/8/8/3K4/4K3/8/8/8 w - - 0 1")
    play(r, pos, "e4f5")
    assert pos.pending is None and r.outcome(pos).winners == {0}


def test_if_you_have_no_legal_moves_you_lose_the_game():
    """"Unlike Chess 1 though, there are no stalemates. If you have no legal moves, you lose the
    game." (FIDE calls this position stalemate.)"""
    pos = pos_of(CLASSIC, "7k/8/6Q1/8/8/8/8/4K3 b - - 0 1")
    assert not CLASSIC.in_check(pos) and CLASSIC.legal_moves(pos) == []
    o = CLASSIC.outcome(pos)
    assert o.winners == {0} and o.reason == "no legal move"


def test_you_can_still_win_by_checkmate():
    """"You can still win by checkmate"."""
    pos = pos_of(CLASSIC, "R6k/1R6/8/8/8/8/8/4K3 b - - 0 1")
    o = CLASSIC.outcome(pos)
    assert o.winners == {0} and o.reason == "checkmate"


# ----------------------------------------------------------------------------------- Dueling

# a white knight on e4 can take the black pawn on d6 (a knight outranks a pawn: a fee of 1)
KNIGHT_TAKES_PAWN = "4k3/8/3p4/8/4N3/8/8/4K3 w - - 0 1"


def test_you_start_with_3_stones():
    """"You start with 3 stones"; a position text without stones= starts at 3,3."""
    for armies in (("classic", "classic"), ("reaper", "animals"), ("two-kings", "nemesis")):
        r = game(*armies)
        assert r.stones(r.start_position()) == (3, 3)
    pos = CLASSIC.position_from_text(KNIGHT_TAKES_PAWN + " armies=classic,classic")
    assert CLASSIC.stones(pos) == (3, 3)


def test_gain_1_stone_each_time_you_capture_an_enemy_pawn_up_to_6():
    """"gain 1 stone each time you capture an enemy pawn, up to a maximum of 6 stones"."""
    pos = pos_of(CLASSIC, KNIGHT_TAKES_PAWN)
    play(CLASSIC, pos, "e4d6", "pass")
    assert CLASSIC.stones(pos) == (4, 3)
    pos = pos_of(CLASSIC, KNIGHT_TAKES_PAWN, stones="6,3")
    play(CLASSIC, pos, "e4d6", "pass")
    assert CLASSIC.stones(pos) == (6, 3)


def test_whenever_you_would_capture_any_piece_the_defender_can_initiate_a_duel():
    """"Whenever you would capture any piece, the defender can initiate a duel." The capture
    stops on the defender's choice; nothing is taken until it is answered."""
    pos = pos_of(CLASSIC, KNIGHT_TAKES_PAWN)
    play(CLASSIC, pos, "e4d6")
    d = pos.pending
    assert d.kind == "duel" and d.player == 1 and not d.chance
    assert d.get("attacker") == CLASSIC.geometry.parse_square("e4")
    assert d.get("victim") == CLASSIC.geometry.parse_square("d6")
    assert answer_texts(CLASSIC, pos) == ["duel", "pass"]
    assert piece(CLASSIC, pos, "e4") == "N" and piece(CLASSIC, pos, "d6") == "p"
    assert CLASSIC.legal_moves(pos) == [] and CLASSIC.outcome(pos) is None
    # the board shows the capture as the player made it
    assert CLASSIC.expected_occupancy(pos) == frozenset(CLASSIC.geometry.parse_square(s) for s in ("e8", "d6", "e1"))


def test_if_your_piece_is_higher_rank_he_must_pay_1_stone_to_initiate():
    """"If your piece is higher rank than his (ranks: pawn -> knight/bishop -> rook -> queen), he
    must pay 1 stone to initiate a duel." The stone is destroyed, then both bid."""
    pos = pos_of(CLASSIC, KNIGHT_TAKES_PAWN)
    play(CLASSIC, pos, "e4d6")
    assert pos.pending.get("fee") == 1
    play(CLASSIC, pos, "duel")
    assert CLASSIC.stones(pos) == (3, 2) and pos.pending.kind == "bids"
    # equal ranks: no fee, one stone is enough
    pos = pos_of(CLASSIC, "4k3/8/3r4/8/8/8/8/3RK3 w - - 0 1", stones="3,1")
    play(CLASSIC, pos, "d1d6")
    assert pos.pending.get("fee") == 0
    play(CLASSIC, pos, "duel")
    assert CLASSIC.stones(pos) == (3, 1)


def test_you_each_put_0_1_or_2_stones_in_your_fists_then_simultaneously_reveal_them():
    """"To duel, you each put 0, 1, or 2 stones in your closed fists, then simultaneously reveal
    them." One decision answered by both players at once: every answer carries both bids, so
    neither bid exists on its own before the other."""
    pos = pos_of(CLASSIC, KNIGHT_TAKES_PAWN)
    play(CLASSIC, pos, "e4d6", "duel")
    d = pos.pending
    assert d.kind == "bids" and d.player == -1 and d.get("players") == (0, 1)
    assert d.get("options") == ((0, 1, 2), (0, 1, 2))
    assert sorted(a.value for a in CLASSIC.answers(pos)) == [(a, b) for a in range(3) for b in range(3)]
    for half in (Answer("bids", 1), Answer("bids", (1,)), Answer("bids", (3, 0))):
        with pytest.raises(IllegalMoveError):
            CLASSIC.play(pos, half)
    # no more than the stones owned: after the fee black has 2; with 1 stone a bid is 0 or 1
    pos = pos_of(CLASSIC, KNIGHT_TAKES_PAWN, stones="1,2")
    play(CLASSIC, pos, "e4d6", "duel")
    assert pos.pending.get("options") == ((0, 1), (0, 1))


def test_all_stones_revealed_are_destroyed():
    """"All stones revealed are destroyed.\""""
    pos = pos_of(CLASSIC, KNIGHT_TAKES_PAWN)
    play(CLASSIC, pos, "e4d6", "duel", "2-1")
    # white 3 - 2 (bid) + 1 (the pawn), black 3 - 1 (fee) - 1 (bid)
    assert CLASSIC.stones(pos) == (2, 1)


def test_the_winner_shows_more_stones_ties_go_to_the_attacker():
    """"The winner of the duel is the one who showed more stones--ties go to the attacker." and
    "If the attacker wins a duel, he takes the piece in question as in normal Chess.\""""
    pos = pos_of(CLASSIC, KNIGHT_TAKES_PAWN)
    play(CLASSIC, pos, "e4d6", "duel", "1-1")
    assert piece(CLASSIC, pos, "d6") == "N" and piece(CLASSIC, pos, "e4") is None
    assert CLASSIC.stones(pos) == (3, 1) and pos.turn == 1


def test_if_the_defender_wins_the_attacker_also_loses_the_piece_he_attacked_with():
    """"If the defender wins, he still loses his piece, but the attacker ALSO loses the piece
    he attacked with.\""""
    pos = pos_of(CLASSIC, KNIGHT_TAKES_PAWN)
    play(CLASSIC, pos, "e4d6", "duel", "0-2")
    assert piece(CLASSIC, pos, "d6") is None and piece(CLASSIC, pos, "e4") is None
    # white lost no stone and took a pawn (+1); black paid 1 and bid 2
    assert CLASSIC.stones(pos) == (4, 0) and pos.turn == 1
    # said where the knight stands on the board: on the square it took
    assert ("duel_lost", CLASSIC.geometry.parse_square("d6"), "Knight", 0) in pos.var("effects")


def test_the_attacker_calls_a_bluff_by_bidding_0_and_chooses_gain_or_destroy():
    """"The attacker calls your bluff by bidding 0 himself. He wins because attacker always wins
    on a tie and in addition, the attacker can choose to gain 1 stone or cause the defender to
    lose 1 stone." The reward comes with the duel, before the pawn's stone."""
    pos = pos_of(CLASSIC, KNIGHT_TAKES_PAWN)
    play(CLASSIC, pos, "e4d6", "duel", "0-0")
    assert pos.pending.kind == "bluff" and pos.pending.player == 0
    assert answer_texts(CLASSIC, pos) == ["destroy", "gain"]
    play(CLASSIC, pos, "gain")
    assert CLASSIC.stones(pos) == (5, 2) and piece(CLASSIC, pos, "d6") == "N"
    pos = pos_of(CLASSIC, KNIGHT_TAKES_PAWN)
    play(CLASSIC, pos, "e4d6", "duel", "0-0", "destroy")
    assert CLASSIC.stones(pos) == (4, 1)


def test_a_player_cant_have_more_than_6_stones_so_a_called_bluff_at_6_destroys():
    """"(A player can't have more than 6 stones.)": at 6 the only reward left is destroying one
    of the defender's stones, given without asking."""
    pos = pos_of(CLASSIC, KNIGHT_TAKES_PAWN, stones="6,3")
    play(CLASSIC, pos, "e4d6", "duel", "0-0")
    assert pos.pending is None and CLASSIC.stones(pos) == (6, 1)


def test_kings_cannot_be_involved_in_duels():
    """"Kings cannot be involved in duels because they have "Diplomatic Immunity." (They can't
    initiate a duel or be dueled.)": a King's capture completes at once."""
    pos = pos_of(CLASSIC, "4k3/8/8/8/8/8/3p4/4K3 w - - 0 1")
    play(CLASSIC, pos, "e1d2")
    assert pos.pending is None and piece(CLASSIC, pos, "d2") == "K"
    assert CLASSIC.stones(pos) == (4, 3)


def test_players_with_0_stones_cannot_initiate_duels():
    """"Players with 0 stones cannot initiate duels".\""""
    pos = pos_of(CLASSIC, "4k3/8/3r4/8/8/8/8/3RK3 w - - 0 1", stones="3,0")
    play(CLASSIC, pos, "d1d6")
    assert pos.pending is None and piece(CLASSIC, pos, "d6") == "R"


def test_when_you_duel_against_a_player_with_0_stones_you_must_bid_1_and_you_automatically_win():
    """"but they can be dueled against. When you duel against a player with 0 stones, you must
    bid 1 and you automatically win the duel." No bids are asked: the defender's 1 is spent."""
    pos = pos_of(CLASSIC, KNIGHT_TAKES_PAWN, stones="0,3")
    play(CLASSIC, pos, "e4d6", "duel")
    assert pos.pending is None
    assert piece(CLASSIC, pos, "d6") is None and piece(CLASSIC, pos, "e4") is None
    # black: 3 - 1 (fee) - 1 (bid); white: + 1 for the pawn it took
    assert CLASSIC.stones(pos) == (1, 1)


def test_a_defender_with_1_stone_may_pay_it_to_duel_a_higher_ranked_attacker():
    """"he must pay 1 stone to initiate a duel" and "Players with 0 stones cannot initiate
    duels": with 1 stone he is not barred. He pays it, and the attacker, dueling "a player with
    0 stones", "must bid 1 and automatically win": a stone for a stone (it used to take 2)."""
    pos = pos_of(CLASSIC, KNIGHT_TAKES_PAWN, stones="3,1")
    play(CLASSIC, pos, "e4d6")
    assert pos.pending.kind == "duel" and pos.pending.get("fee") == 1
    before = pos.snapshot()
    play(CLASSIC, pos, "duel")
    assert pos.pending is None and piece(CLASSIC, pos, "d6") == "N" and piece(CLASSIC, pos, "e4") is None
    # black: 1 - 1 (fee); white: 3 - 1 (the bid it must make) + 1 (the pawn it took)
    assert CLASSIC.stones(pos) == (3, 0)
    assert ("bids", 1, 0, "attacker") in pos.var("effects")
    CLASSIC.undo(pos)
    assert pos.snapshot() == before
    play(CLASSIC, pos, "pass")  # passing keeps his stone
    assert CLASSIC.stones(pos) == (4, 1)


def test_a_defender_with_1_stone_cannot_pay_it_to_duel_an_attacker_with_0_stones():
    """The corner where the text contradicts itself (docs/rules/chess2.md, "Duels with few
    stones"): paying his one stone would leave both at 0, each "a player with 0 stones" whom
    the other "must bid 1" to beat. Against an attacker with 0 stones the defender "must bid
    1", so he needs 1 stone after the fee: with 1 he cannot start the duel; with 2 he can."""
    pos = pos_of(CLASSIC, KNIGHT_TAKES_PAWN, stones="0,1")
    play(CLASSIC, pos, "e4d6")
    assert pos.pending is None and piece(CLASSIC, pos, "d6") == "N"
    assert CLASSIC.stones(pos) == (1, 1)
    pos = pos_of(CLASSIC, KNIGHT_TAKES_PAWN, stones="0,2")
    play(CLASSIC, pos, "e4d6", "duel")
    assert piece(CLASSIC, pos, "d6") is None and CLASSIC.stones(pos) == (1, 0)
    # no fee (equal ranks): his one stone is his bid of 1, and he wins
    pos = pos_of(CLASSIC, "4k3/8/3r4/8/8/8/8/3RK3 w - - 0 1", stones="0,1")
    play(CLASSIC, pos, "d1d6", "duel")
    assert piece(CLASSIC, pos, "d6") is None and CLASSIC.stones(pos) == (0, 0)


def test_if_you_lose_a_pawn_in_a_duel_your_opponent_does_gain_a_stone():
    """"If you lose a pawn in a duel, your opponent does gain a stone." Also when the pawn was
    the attacker and the defender won (docs/rules/chess2.md)."""
    # the defender's pawn, lost although the defender won
    pos = pos_of(CLASSIC, KNIGHT_TAKES_PAWN)
    play(CLASSIC, pos, "e4d6", "duel", "0-1")
    assert CLASSIC.stones(pos) == (4, 1)
    # the attacker's pawn, lost because the defender won: black gains a stone for it
    pos = pos_of(CLASSIC, "4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1")
    play(CLASSIC, pos, "e4d5", "duel", "0-1")
    assert piece(CLASSIC, pos, "d5") is None and piece(CLASSIC, pos, "e4") is None
    assert CLASSIC.stones(pos) == (3, 3)  # black: 3 - 1 (bid) + 1 (white's pawn)


def test_a_lost_duel_that_uncovers_the_attackers_king_is_check_not_an_illegal_move():
    """"it's illegal to move into check" judges the move as made (Qxd7 is legal, as in chess).
    If the defender then wins the duel, both Queens leave and the rook on d8 checks the white
    King: black moves on (a King is never taken), and white must answer the check."""
    pos = pos_of(CLASSIC, "3rk3/3q4/8/8/8/8/3Q4/3K4 w - - 0 1")
    assert "d2d7" in moves(CLASSIC, pos)
    play(CLASSIC, pos, "d2d7", "duel", "0-1")
    assert pos.turn == 1 and CLASSIC.in_check(pos, 0)
    assert all(m.capture is None or pos.board[m.capture].owner == 0 and not pos.board[m.capture].kind.royal
               for m in CLASSIC.legal_moves(pos))
    assert "d8d1" not in moves(CLASSIC, pos)
    play(CLASSIC, pos, "e8f8")
    assert CLASSIC.in_check(pos) and set(moves(CLASSIC, pos)) == {"d1c1", "d1c2", "d1e1", "d1e2"}


def test_dueling_ranks_special_pieces():
    """"all special queens count as queens, even though the Empowered queen is rather weak.
    Elephants count as rooks. The wild horse and the tiger count as a knight/bishop. Nemesis
    pawns count as pawns." (Ghosts are rooks; Warrior Kings are Kings.)"""
    expected = {
        ("classic", "P"): 1, ("classic", "N"): 2, ("classic", "B"): 2, ("classic", "R"): 3, ("classic", "Q"): 4,
        ("nemesis", "P"): 1, ("nemesis", "Q"): 4, ("empowered", "Q"): 4, ("empowered", "N"): 2,
        ("reaper", "Q"): 4, ("reaper", "R"): 3, ("animals", "N"): 2, ("animals", "B"): 2,
        ("animals", "R"): 3, ("animals", "Q"): 4, ("two-kings", "K"): 0, ("classic", "K"): 0,
    }
    for (army, letter), rank in expected.items():
        r = game(army)
        assert r.rank[r.kind_of(0, letter)] == rank, (army, letter)


def test_the_defender_pays_against_a_higher_rank_only():
    r = game("animals", "reaper")
    pos = pos_of(r, "4k3/8/8/8/1q6/1n6/8/4K3 w - - 0 1")
    att_n, att_q = pos.board[r.geometry.parse_square("b3")], pos.board[r.geometry.parse_square("b4")]
    # a black Reaper (queen rank) capturing a white Wild Horse: the horse's owner pays
    horse = pos.new_piece("AN", 0)
    assert r.fee(att_q, horse) == 1 and r.fee(att_n, horse) == 0


def test_a_duel_is_not_a_ply_in_perft():
    """Perft counts moves: a capture counts once (the defender passes), as in chess."""
    pos = pos_of(CLASSIC, KNIGHT_TAKES_PAWN)
    # white: 8 knight moves (d6 a capture) + 5 King moves; after Nxd6 black has 4 King moves
    assert iter_perft(CLASSIC, pos, 1) == 13
    pos2 = pos_of(CLASSIC, KNIGHT_TAKES_PAWN)
    play(CLASSIC, pos2, "e4d6", "pass")
    assert iter_perft(CLASSIC, pos2, 1) == len(CLASSIC.legal_moves(pos2))


# ------------------------------------------------------------------------------- Promotion

def test_when_a_pawn_reaches_the_last_row_you_must_promote_it_within_your_army():
    """"you must promote it (not optional). You can promote to any piece that's part of your army
    other than a pawn or a king (or a Warrior King)... an Empowered pawn can't promote to a
    Tiger because Tiger is not part of its army.\""""
    cases = {"classic": "bnqr", "empowered": "bnqr", "reaper": "bnqr", "animals": "bnqr", "nemesis": "bnqr",
             "two-kings": "bnr"}
    for army, letters in cases.items():
        r = game(army, "classic")
        kings = "3KK3" if army == "two-kings" else "4K3"
        pos = pos_of(r, f"7k/1P6/8/8/8/8/8/{kings} w - - 0 1")
        assert [m for m in moves(r, pos, "b7") if m[2:4] == "b8"] == sorted(f"b7b8{c}" for c in letters), army
        codes = {m.promotion for m in r.moves_from(pos, r.geometry.parse_square("b7")) if m.promotion}
        assert all(r.kind(c).faction == army for c in codes)
    # what each promotion is: an Animals pawn may become a Tiger
    r = game("animals", "classic")
    pos = pos_of(r, "7k/1P6/8/8/8/8/8/4K3 w - - 0 1")
    play(r, pos, "b7b8b")
    assert pos.board[r.geometry.parse_square("b8")].kind.title == "Tiger"


def test_when_you_promote_a_pawn_your_opponent_does_not_get_a_stone():
    """"When you promote a pawn, your opponent does not get a stone.\""""
    pos = pos_of(CLASSIC, "7k/1P6/8/8/8/8/8/4K3 w - - 0 1")
    play(CLASSIC, pos, "b7b8q")
    assert CLASSIC.stones(pos) == (3, 3)


def test_a_capture_promotion_promotes_only_if_the_pawn_wins_its_duel():
    pos = pos_of(CLASSIC, "2r4k/1P6/8/8/8/8/8/4K3 w - - 0 1")
    play(CLASSIC, pos, "b7c8q", "duel", "0-1")
    assert piece(CLASSIC, pos, "c8") is None and piece(CLASSIC, pos, "b7") is None
    pos = pos_of(CLASSIC, "2r4k/1P6/8/8/8/8/8/4K3 w - - 0 1")
    play(CLASSIC, pos, "b7c8q", "duel", "1-0")
    assert piece(CLASSIC, pos, "c8") == "Q"


# ------------------------------------------------------------------------------------ Draws

def test_threefold_repetition_counts_stones_and_the_king_turn_phase():
    """"threefold repetition (when the same position occurs three times)": the same pieces
    with different stones are not the same position, nor is a position waiting for a king-turn
    the same as that board with the opponent to move."""
    pos = pos_of(CLASSIC, "4k3/8/8/8/8/8/8/N3K3 w - - 0 1")
    for _ in range(2):
        play(CLASSIC, pos, "a1b3", "e8d8", "b3a1", "d8e8")
    o = CLASSIC.outcome(pos)
    assert o is not None and o.is_draw and o.reason == "threefold repetition"
    a = pos_of(CLASSIC, "4k3/8/8/8/8/8/8/N3K3 w - - 0 1", stones="3,3")
    b = pos_of(CLASSIC, "4k3/8/8/8/8/8/8/N3K3 w - - 0 1", stones="3,2")
    assert a.hash != b.hash
    r = game("two-kings", "classic")
    plain = pos_of(r, "4k3/8/8/8/8/8/8/N2KK3 w - - 0 1")
    waiting = pos_of(r, "4k3/8/8/8/8/8/8/N2KK3 w - - 0 1", pending="king-turn")
    assert plain.hash != waiting.hash


def test_the_fifty_move_rule():
    """"the fifty-move rule (when the last fifty successive moves made by both players contain
    no capture or pawn move)": 100 half-moves; a king-turn belongs to its turn."""
    pos = pos_of(CLASSIC, "4k3/8/8/8/8/8/8/N3K3 w - - 99 80")
    play(CLASSIC, pos, "a1b3")
    o = CLASSIC.outcome(pos)
    assert o.is_draw and o.reason == "fifty-move rule"
    r = game("two-kings", "classic")
    pos = pos_of(r, "4k3/8/8/8/8/8/8/N2KK3 w - - 10 20")
    play(r, pos, "a1b3", "d1c2")
    assert pos.var("halfmove") == 11


def test_impossible_checkmate_needs_both_no_material_and_no_invasion():
    """"impossible checkmate (when neither player has sufficient material to checkmate, and
    Midline Invasion is not possible)". King and knight against King cannot mate, but either
    King can still walk across: the game goes on."""
    pos = pos_of(CLASSIC, "4k3/8/8/8/8/8/8/N3K3 w - - 0 1")
    assert not CLASSIC.can_checkmate(pos, 0) and not CLASSIC.can_checkmate(pos, 1)
    assert CLASSIC.invasion_possible(pos, 0) and CLASSIC.invasion_possible(pos, 1)
    assert not CLASSIC.impossible_checkmate(pos) and CLASSIC.outcome(pos) is None
    # a King walled in by pawns cannot invade (but pawns are mating material)
    walled = pos_of(CLASSIC, "4k3/8/8/8/8/8/PPPPPPPP/4K3 w - - 0 1")
    assert not CLASSIC.invasion_possible(walled, 0) and CLASSIC.can_checkmate(walled, 0)
    # Two Warrior Kings are mating material
    r = game("two-kings", "classic")
    assert r.can_checkmate(pos_of(r, "4k3/8/8/8/8/8/8/3KK3 w - - 0 1"), 0)


# --------------------------------------------------------------------------- Other notes

@pytest.mark.parametrize("army", ["classic", "nemesis", "empowered", "reaper", "two-kings", "animals"])
def test_all_pawns_on_all_teams_have_the_ability_to_en_passant(army):
    """"All pawns on all teams have the ability to en passant." (A Nemesis pawn never
    double-steps, so it is never taken that way; it takes others.)"""
    r = game(army, "classic")
    kings = "3KK3" if army == "two-kings" else "4K3"
    pos = pos_of(r, f"4k3/3p4/8/4P3/8/8/8/{kings} b - - 0 1")
    play(r, pos, "d7d5")
    assert "e5d6" in moves(r, pos, "e5")
    play(r, pos, "e5d6", "pass")
    assert piece(r, pos, "d5") is None and piece(r, pos, "d6") == "P"
    assert r.stones(pos) == (4, 3)
