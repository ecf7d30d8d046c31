"""``horizon_fights``: a fight met with no depth left is valued by its exact odds times the
static evaluations of its outcomes (no capture search after each outcome), except an outcome
that ends the game or leaves a King open to a compulsory attack (docs/ai.md, "Chance nodes")."""

import time

import pytest

from companion.ai.eval_table import table_with
from companion.ai.evaluate import Evaluator
from companion.ai.search import Search, chance_value, score_of_value
from companion.games import make_rules

# the white knight on c3 can attack the black bishop on d5, which the pawn on e6 defends: after
# the knight wins its fight, the pawn's counter-attack is one more fight
DEFENDED = "4k3/8/4p3/3b4/8/2N5/8/4K3 w - - 0 1"
# White's rook on a8 pins Black's rook on c8 to the King on e8 (tests/test_ai_chance.py)
PINNED_ATTACKER = "R1r1k3/8/8/8/8/8/8/4K3 {} - - 0 1"


@pytest.fixture(scope="module")
def combat():
    return make_rules("combat")


def _scores(rules, text, horizon, depth=1, **settings):
    table = table_with(rules.name, {"horizon_fights": horizon, **settings})
    pos = rules.position_from_text(text)
    ev = Evaluator(rules, table)
    info = Search(rules, ev).run(pos, now=time.perf_counter, max_depth=depth, exact_root=True)
    return {rules.move_text(pos, a): v for a, v in info.root_scores}, ev


def test_a_fight_at_the_horizon_is_its_odds_times_the_static_outcomes(combat):
    scores, ev = _scores(combat, DEFENDED, True)
    pos = combat.position_from_text(DEFENDED)
    combat.apply(pos, combat.parse_move(pos, "c3d5"))
    t = ev.table
    curve = (t.win_value, t.risk_scale, t.gain_scale, t.loss_value)
    expected = 0.0
    for o in combat.chance_outcomes(pos):
        combat.apply(pos, o.answer)
        expected += float(o.probability) * chance_value(ev.evaluate(pos, 0), *curve)
        combat.undo(pos)
    assert scores["c3d5"] == pytest.approx(score_of_value(expected, *curve))
    # without it the capture search goes on after each outcome (the pawn's counter-attack)
    searched, _ = _scores(combat, DEFENDED, False)
    assert searched["c3d5"] != pytest.approx(scores["c3d5"])


def test_a_fight_at_the_horizon_still_sees_an_open_or_fallen_king(combat):
    """Black's rook attack risks its King: a lost fight leaves it open to White's compulsory
    attack. Judged at the horizon it counts exactly as when the fights are searched out."""
    linear = {"gain_scale": 0.0, "win_value": 5000.0, "loss_value": 0.0}
    for settings in ({}, linear):
        static, _ = _scores(combat, PINNED_ATTACKER.format("b"), True, **settings)
        searched, _ = _scores(combat, PINNED_ATTACKER.format("b"), False, **settings)
        assert static["c8a8"] == pytest.approx(searched["c8a8"], abs=1e-6)
    pos = combat.position_from_text(PINNED_ATTACKER.format("b"))
    odds = combat.odds_of_move(pos, combat.parse_move(pos, "c8a8"))
    assert static["c8a8"] < float(odds.attacker) * 500 - float(odds.defender) * 500 - 100


def test_with_depth_left_the_capture_is_still_chosen_the_same(combat):
    """At depth 3 the root capture's own fight is searched (its outcomes get two plies; only
    the fights at the leaves are judged statically): both pick the same move."""
    on, _ = _scores(combat, DEFENDED, True, depth=3)
    off, _ = _scores(combat, DEFENDED, False, depth=3)
    assert max(on, key=on.get) == max(off, key=off.get)


def test_off_by_default_so_chess_is_untouched():
    for game in ("chess", "dungeon", "kol"):
        assert Search(make_rules(game)).horizon_fights is False
