"""Chess 2 perft: Classic against Classic equals FIDE (the Chess Programming Wiki counts, and
python-chess move for move); every army against the counts of an independent implementation
(CGamesPlay/chess2), which counts the same way (tests/data/perft_chess2.epd says how)."""

import random

import pytest

from companion.core.rules import iter_perft, perft_divide
from companion.games.chess2 import rules_for
from companion.games.chess2_text import armies_in_text
from tests.perft_data import read_suite

CASES = list(read_suite("perft_chess2.epd"))


def _params():
    for ident, text, depth, count, slow in CASES:
        marks = [pytest.mark.slow] if slow else []
        yield pytest.param(text, depth, count, id=f"{ident}-d{depth}", marks=marks)


@pytest.mark.parametrize("text,depth,count", list(_params()))
def test_perft_matches_published_count(text, depth, count):
    rules = rules_for(armies_in_text(text))
    pos = rules.position_from_text(text)
    before = pos.snapshot()
    n = iter_perft(rules, pos, depth)
    if n != count:
        divide = ", ".join(f"{rules.move_text(pos, m)}:{c}" for m, c in perft_divide(rules, pos, depth))
        pytest.fail(f"perft({depth}) = {n}, expected {count}; divide: {divide}")
    assert pos.snapshot() == before, "perft must leave the position exactly as it found it"


def test_every_army_is_covered_by_the_suite():
    seen = set()
    for _ident, text, _d, _c, _slow in CASES:
        seen.update(armies_in_text(text))
    assert seen == {"classic", "nemesis", "empowered", "reaper", "two-kings", "animals"}


def test_classic_against_classic_plays_fide_move_for_move():
    """Seeded random games (every capture undueled): the legal moves are python-chess's in every
    position before a King crosses the midline."""
    chess = pytest.importorskip("chess")
    rules = rules_for(("classic", "classic"))
    rng = random.Random(2016)
    compared = 0
    for _game in range(30):
        pos = rules.start_position()
        board = chess.Board()
        for _ply in range(80):
            if rules.invader(pos) is not None:
                break
            ours = sorted(rules.move_text(pos, m) for m in rules.legal_moves(pos))
            theirs = sorted(m.uci() for m in board.legal_moves)
            assert ours == theirs, rules.position_text(pos)
            compared += 1
            if not ours:
                break
            text = rng.choice(ours)
            rules.play(pos, rules.parse_move(pos, text))
            while pos.pending is not None:
                rules.play(pos, rules.parse_answer(pos, "pass"))
            board.push_uci(text)
            assert rules.position_text(pos).split()[:4] == board.fen().split()[:4]
    assert compared > 1000
