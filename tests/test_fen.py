"""FEN parsing: round trips, and every malformed FEN is a clear PositionError."""

import pytest

from companion.errors import PositionError
from companion.games.chess import START_FEN, ChessRules
from tests.perft_data import read_suite

RULES = ChessRules()


@pytest.mark.parametrize("fen", sorted({fen for _i, fen, *_ in read_suite("perft_chess.epd")}))
def test_fen_round_trip(fen):
    assert RULES.fen(RULES.position_from_fen(fen)) == fen


@pytest.mark.parametrize("fen,words", [
    ("", "0 fields"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "7 ranks"),
    ("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "rank 6 has more than 8 squares"),
    ("rnbqkbnr/pppppppp/7/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "rank 6 has 7 squares"),
    ("rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "'x' is not a piece letter"),
    ("rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", "black must have exactly one king"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "side to move"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkz - 0 1", "castling field"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1", "castling right 'K' needs"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1", "off this 8x8 board"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1", "impossible with w to move"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1", "no pawn just passed"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1", "move counters"),
    ("Pnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w kq - 0 1", "pawn on rank 8"),
    ("4k3/8/8/8/8/8/8/R3K2R b - - 0 1", None),
    ("4k2R/8/8/8/8/8/8/4K3 w - - 0 1", "not to move is in check"),
])
def test_bad_fen_is_a_clear_error(fen, words):
    if words is None:
        RULES.position_from_fen(fen)  # legal: a control case
        return
    with pytest.raises(PositionError) as err:
        RULES.position_from_fen(fen)
    assert words in str(err.value)


def test_start_position_is_the_start_fen():
    assert RULES.fen(RULES.start_position()) == START_FEN
