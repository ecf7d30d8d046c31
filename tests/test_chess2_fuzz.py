"""Damaged Chess 2 position texts (every army, pending duels and king-turns): each is one clear
PositionError/VariantError or a position that perft can play from (the helpers and budget of
tests/test_fuzz_inputs.py)."""

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.core.rules import iter_perft
from companion.errors import CompanionError
from companion.games.chess2 import rules_for
from tests.test_fuzz_inputs import FUZZ, clear_or_value, damaged, reshuffled

MATCHUPS = (("animals", "reaper"), ("two-kings", "nemesis"), ("empowered", "classic"))


def _texts(rules) -> list[str]:
    """The start and positions of seeded random play, pending decisions included."""
    pos = rules.start_position()
    rng = random.Random(16)
    texts = [rules.position_text(pos)]
    for _ in range(60):
        if rules.outcome(pos) is not None:
            break
        options = rules.legal_moves(pos) if pos.pending is None else rules.answers(pos)
        rules.play(pos, rng.choice(options))
        texts.append(rules.position_text(pos))
    return texts


@pytest.mark.parametrize("armies", MATCHUPS, ids=lambda a: "-".join(a))
def test_a_damaged_chess2_position_is_a_clear_error_or_a_position(armies):
    rules = rules_for(armies)
    texts = _texts(rules)
    assert any("pending=" in t for t in texts)
    extra = st.sampled_from(texts).map(lambda t: t + " " + " ".join(
        ("pending=king-turn", "pending=duel:e4d5", "pending=bids:a1a4", "stones=6,0", "armies=reaper,reaper")))

    @FUZZ
    @given(damaged(texts) | reshuffled(texts) | extra)
    def check(text):
        pos = clear_or_value(rules.position_from_text, text)
        if not isinstance(pos, CompanionError):
            clear_or_value(iter_perft, rules, pos, 2)
            clear_or_value(rules.position_text, pos)

    check()
