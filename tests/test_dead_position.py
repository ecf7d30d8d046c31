"""FIDE 5.2.2 / 6.9: "cannot checkmate ... by any possible series of legal moves", beyond the
material (companion/games/dead_position.py, docs/tournament.md): the locked-Pawn proof, the
bounded search of every reachable position, and ``ChessRules.can_win`` built on both. The
flag-fall rulings that use it: tests/test_tournament_table.py (6.9)."""

import pytest

from companion.games import make_rules
from companion.games.dead_position import MAX_POSITIONS, is_closed, mate_reachable, no_check_ever

R = make_rules("chess")
ISSUE = "8/8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8 w - - 0 1"


def pos_of(fen):
    return R.position_from_fen(fen)


@pytest.mark.parametrize("fen", [
    ISSUE,
    "8/8/8/4k3/1p1p1p1p/1P1P1P1P/4K1B1/8 w - - 0 1",  # a Bishop behind its own Pawns
    "8/2b5/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8 w - - 0 1",  # a Bishop whose diagonals the wall stops
    "k7/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/8/K7 w - - 0 1",  # a chain across the whole board
    "7k/8/8/8/3b4/p1p1p1p1/P1P1P1P1/K7 w - - 0 1",  # dark Bishop, wall of dark-square Pawns
])
def test_locked_pawns_no_piece_gets_past_prove_nobody_can_ever_mate(fen):
    pos = pos_of(fen)
    assert no_check_ever(R, pos)
    assert not R.can_win(pos, 0) and not R.can_win(pos, 1)


@pytest.mark.parametrize("fen,why", [
    ("8/8/8/4k3/1p1p1p1p/1P1P1P1P/4KN2/8 w - - 0 1", "the Knight jumps the wall"),
    ("8/8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/B7 w - - 0 1", "the Bishop can stand where a Pawn takes it"),
    ("8/8/8/4k3/1p1p1p1p/1P1P1P2/4K3/8 w - - 0 1", "the h4 Pawn can move"),
    ("8/8/8/4k3/1p1p1p1p/1P1PpP1P/4K3/8 w - - 0 1", "the King can take the e3 Pawn"),
    ("8/8/8/4k3/1p1p1p1p/2PP1P1P/4K3/8 w - - 0 1", "c3 takes b4 or d4"),
    ("4k3/8/8/1p1pPp1p/1P1P1P1P/8/8/4K3 w - f6 0 1", "an en passant capture"),
])
def test_what_is_not_locked_is_not_taken_as_dead(fen, why):
    assert not no_check_ever(R, pos_of(fen)), why


def test_the_search_sees_every_reachable_position_and_finds_no_mate():
    """The issue's position searched in full (both Kings walk their halves; ~1,000 positions):
    no mate for either side; with too small a bound the answer is unknown."""
    pos = pos_of(ISSUE)
    assert mate_reachable(R, pos, 0, max_positions=5000) is False
    assert mate_reachable(R, pos, 1, max_positions=5000) is False
    assert mate_reachable(R, pos, 1, max_positions=50) is None
    assert R.fen(pos) == ISSUE and pos.history == []  # left exactly as it was


def test_the_search_finds_a_mate_when_one_is_reachable():
    """Black's King stands in White's half: the Bishop and King can mate White's King."""
    pos = pos_of("8/8/8/8/3b4/p1p1p1p1/P1P1P1P1/K6k w - - 0 1")
    assert not no_check_ever(R, pos) and is_closed(R, pos)
    before = (R.fen(pos), pos.hash)
    assert mate_reachable(R, pos, 1, max_positions=20_000) is True
    assert (R.fen(pos), pos.hash) == before


def test_an_open_position_is_not_searched_and_can_be_won():
    """Queens, Rooks or a Pawn free to move: the bound would be reached anyway; mate counts as
    possible (the flag loses), as before."""
    for fen in ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "7k/5K2/5P2/8/8/8/8/8 b - - 0 1"):
        assert not is_closed(R, pos_of(fen)) and R.can_win(pos_of(fen), 0)


def test_material_alone_still_decides_first():
    assert not R.can_win(pos_of("7k/5K2/5P2/8/8/8/8/8 b - - 0 1"), 1)  # a lone King


def test_a_closed_position_the_search_cannot_decide_counts_as_winnable():
    """The Knight can break in but the positions are too many for the bound: unknown, so mate
    counts as possible (the Laws' default: the flag loses)."""
    pos = pos_of("8/8/8/4k3/1p1p1p1p/1P1P1P1P/4KNB1/8 w - - 0 1")
    assert is_closed(R, pos) and mate_reachable(R, pos, 1) is None and R.can_win(pos, 1)
    assert MAX_POSITIONS == 800