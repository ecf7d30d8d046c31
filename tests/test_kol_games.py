"""KoL Chess played out: seeded random games (thousands of moves) without an exception, every
apply undone exactly (position and hash), the position text round-tripping, and every game
ending by a rule of the text or one of our documented draws; perft regression counts."""

import random

import pytest

from companion.core.rules import iter_perft
from tests.kol_board import R

ENDINGS = {"all three Legends captured", "checkmate", "no legal move", "the same position 3 times",
           "50 moves each without a capture or a pawn move"}


def _random_game(seed: int, stats: dict) -> int:
    rng = random.Random(seed)
    pos = R.start_position()
    plies = 0
    while True:
        out = R.outcome(pos)
        if out is not None:
            assert out.reason in ENDINGS
            stats[out.reason] = stats.get(out.reason, 0) + 1
            return plies
        if pos.pending is not None:
            actions = R.answers(pos)
        else:
            actions = R.legal_moves(pos)
            plies += 1
        assert actions, "a position that is not over has a move or an answer"
        before = pos.snapshot()
        if plies % 7 == 0:  # every action of this position, applied and undone
            for a in actions:
                R.apply(pos, a)
                R.undo(pos)
                assert pos.snapshot() == before
        special = [a for a in actions if getattr(a, "special", "")]
        rare = [a for a in special if a.special == "double"]  # two enemies side by side near red: rare
        action = rng.choice(rare or (special if special and rng.random() < 0.3 else actions))
        if not hasattr(action, "decision"):
            stats.setdefault("specials", set()).add(action.special)
        R.play(pos, action)
        if plies % 25 == 0 and pos.pending is None:
            text = R.position_text(pos)
            again = R.position_from_text(text)
            assert R.position_text(again) == text
            assert sorted(map(str, R.legal_moves(again))) == sorted(map(str, R.legal_moves(pos)))
        R.undo(pos)
        assert pos.snapshot() == before
        R.play(pos, action)


@pytest.mark.slow
def test_random_games_end_by_a_rule_and_undo_exactly():
    stats: dict = {}
    total = sum(_random_game(seed, stats) for seed in range(12))
    assert total >= 2000
    # the special moves all happened somewhere in these games (played with a bias toward them)
    assert {"in", "out", "swap", "double", "charge"} <= stats["specials"]


@pytest.mark.parametrize("depth,count", [(1, 54), (2, 2911), pytest.param(3, 176375, marks=pytest.mark.slow)])
def test_perft_of_the_start_position(depth, count):
    assert iter_perft(R, R.start_position(), depth) == count


@pytest.mark.slow
def test_the_legality_shortcut_agrees_with_the_full_check_on_random_positions():
    """KolRules._legal takes quiet moves off the King's lines as legal without playing them:
    on 600 positions of random games it gives the very moves the full check gives."""
    rng = random.Random(31)
    full = [frozenset(range(R.geometry.size))] * R.geometry.size  # every square "on a line"
    seen = 0
    while seen < 600:
        pos = R.start_position()
        while R.outcome(pos) is None and seen < 600:
            if pos.pending is not None:
                R.play(pos, rng.choice(R.answers(pos)))
                continue
            fast = R.legal_moves(pos)
            saved, R.lines_through = R.lines_through, full
            try:
                slow = R.legal_moves(pos)
            finally:
                R.lines_through = saved
            assert sorted(fast) == sorted(slow), R.position_text(pos)
            R.play(pos, rng.choice(fast))
            seen += 1
