"""Perft: our FIDE move generator against the published Chess Programming Wiki counts."""

import pytest

from companion.core.rules import iter_perft, perft_divide
from companion.games.chess import ChessRules
from tests.perft_data import read_suite

RULES = ChessRules()
CASES = list(read_suite("perft_chess.epd"))


def _params():
    for ident, fen, depth, count, slow in CASES:
        marks = [pytest.mark.slow] if slow else []
        yield pytest.param(fen, depth, count, id=f"{ident}-d{depth}", marks=marks)


@pytest.mark.parametrize("fen,depth,count", list(_params()))
def test_perft_matches_published_count(fen, depth, count):
    pos = RULES.position_from_fen(fen)
    before = pos.snapshot()
    n = iter_perft(RULES, pos, depth)
    if n != count:
        divide = ", ".join(f"{RULES.move_text(pos, m)}:{c}" for m, c in perft_divide(RULES, pos, depth))
        pytest.fail(f"perft({depth}) = {n}, expected {count}; divide: {divide}")
    assert pos.snapshot() == before, "perft must leave the position exactly as it found it"


def test_every_cpw_position_reaches_100000_nodes():
    """The suite itself: positions 3-6 are each checked to a depth past 100,000 nodes."""
    deepest = {}
    for ident, _fen, _depth, count, _slow in CASES:
        deepest[ident] = max(deepest.get(ident, 0), count)
    for ident in ("position3", "position4", "position5", "position6", "start", "kiwipete"):
        assert deepest[ident] > 100_000, ident
