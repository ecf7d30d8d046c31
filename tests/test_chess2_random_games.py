"""Seeded random games of all 21 Chess 2 match-ups: no exception; every step undone restores the
exact position and hash; the position text round-trips (same text, same hash) at every step;
every game ends by a rule the seed names."""

import itertools
import random

import pytest

from companion.games.chess2 import ARMIES, rules_for

ENDINGS = {"Midline Invasion", "checkmate", "no legal move", "threefold repetition", "fifty-move rule",
           "impossible checkmate"}
MATCHUPS = list(itertools.combinations_with_replacement(ARMIES, 2))


def test_there_are_21_matchups():
    """"there are 21 diﬀerent matchups\""""
    assert len(MATCHUPS) == 21


def _random_game(rules, rng, max_actions=3000):
    pos = rules.start_position()
    start = pos.snapshot()
    actions = 0
    seen_kinds = set()
    while True:
        o = rules.outcome(pos)
        if o is not None:
            break
        assert actions < max_actions, f"no end after {actions} actions: {rules.position_text(pos)}"
        options = rules.legal_moves(pos) if pos.pending is None else rules.answers(pos)
        assert options, rules.position_text(pos)
        if pos.pending is not None:
            seen_kinds.add(pos.pending.kind)
        action = rng.choice(options)
        before, text = pos.snapshot(), rules.position_text(pos)
        rules.apply(pos, action)
        if rng.random() < 0.25:
            rules.undo(pos)
            assert pos.snapshot() == before and rules.position_text(pos) == text
            rules.apply(pos, action)
        after = rules.position_text(pos)
        again = rules.position_from_text(after)
        assert rules.position_text(again) == after and again.hash == pos.hash, after
        assert rules.expected_occupancy(pos) <= frozenset(range(64))
        actions += 1
    while pos.depth:
        rules.undo(pos)
    assert pos.snapshot() == start
    return o, actions, seen_kinds


@pytest.mark.slow  # random play of every matchup
def test_random_games_of_every_matchup_end_by_a_named_rule():
    reasons: dict[str, int] = {}
    total = 0
    kinds = set()
    for white, black in MATCHUPS:
        rules = rules_for((white, black))
        for g in range(8):
            rng = random.Random(f"chess2:{white}:{black}:{g}")
            o, n, seen = _random_game(rules, rng)
            assert o.reason in ENDINGS, o.reason
            reasons[o.reason] = reasons.get(o.reason, 0) + 1
            total += n
            kinds |= seen
    assert total > 5000, total
    assert {"duel", "bids", "bluff", "king-turn"} <= kinds
    assert {"Midline Invasion", "checkmate"} <= set(reasons)
