"""Review findings for Human Combat Chess: cases the rule tests did not reach.

Each test here failed before its fix; the names say the rule that broke.
"""

import chess

from companion.games.chess import ChessRules
from companion.games.combat import CombatRules

R = CombatRules()
CHESS = ChessRules()


def legal(rules, fen):
    pos = rules.position_from_text(fen)
    return sorted(rules.move_text(pos, m) for m in rules.legal_moves(pos)), rules.position_text(pos)


def test_en_passant_that_removes_the_checking_pawn_is_legal_as_in_fide():
    """"all the normal rules for movement apply": black d7-d5 checks the king on e4; e5xd6
    en passant removes the checker, so it is a legal attempt (a fight)."""
    fen = "8/8/8/3pP3/4K3/8/8/7k w - d6 0 2"
    moves, text = legal(R, fen)
    assert "e5d6" in moves
    assert moves == legal(CHESS, fen)[0]
    assert text.split()[3] == "d6"  # the en passant square stays in the FEN


def test_en_passant_that_exposes_the_king_along_the_rank_is_illegal_as_in_fide():
    """The classic horizontal pin: after b5xc6 e.p. the rook on h5 would see the king on a5."""
    fen = "8/8/8/KPp4r/8/8/8/7k w - c6 0 2"
    moves, text = legal(R, fen)
    assert "b5c6" not in moves
    assert moves == legal(CHESS, fen)[0]
    assert text.split()[3] == "-"  # like FEN (and python-chess), an unusable e.p. square is dropped


def test_en_passant_legality_in_a_position_from_random_combat_play_matches_python_chess():
    """Found by random Combat games with seeded dice (seed 300-ish): the en passant square of
    a position where the capture would leave the king in check."""
    fen = "1n1n2r1/1bqk3N/1pp3pb/r2PppP1/pQPP4/PP1BKP2/R6P/1NBR4 w - f6 0 40"
    pos = R.position_from_text(fen)
    ours = sorted(R.move_text(pos, m) for m in R.legal_moves(pos))
    board = chess.Board(fen)
    assert ours == sorted(m.uci() for m in board.legal_moves)
    assert R.fen(pos) == board.fen(en_passant="legal")
