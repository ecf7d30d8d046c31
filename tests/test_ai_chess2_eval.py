"""The evaluation keys Chess 2 added (any game may use them): tables merged per match-up,
[counter] (stones), [goal] (a King near its fifth rank), [phase], a royal piece's value."""

import pytest

from companion.ai.eval_table import table_for, table_from_dict
from companion.ai.evaluate import Evaluator
from companion.errors import VariantError
from tests.chess2_helpers import game, pos_of


def test_a_matchup_merges_the_game_table_and_each_armys():
    r = game("animals", "reaper")
    t = table_for(r)
    assert "chess2.toml" in t.source and "chess2-animals.toml" in t.source and "chess2-reaper.toml" in t.source
    assert {"AK", "RK", "AN"} <= set(t.pst) and "CK" not in t.pst
    assert t.counter["stones"][0] == 0 and t.phase["RR"] == 0
    changed = table_for(r, {"contempt": 40.0})
    assert changed.contempt == 40.0 and changed.pst == t.pst
    with pytest.raises(VariantError, match="unknown key"):
        table_for(r, {"contempts": 1.0})


def test_stones_are_worth_what_the_counter_says():
    r = game("classic")
    ev = Evaluator(r)
    a = pos_of(r, "4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1", stones="3,3")
    b = pos_of(r, "4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1", stones="3,0")
    worth = ev.table.counter["stones"]
    assert ev.scores(b)[1] - ev.scores(a)[1] == pytest.approx(worth[0] - worth[3])
    assert ev.scores(b)[0] == pytest.approx(ev.scores(a)[0])


def test_a_king_next_to_its_fifth_rank_with_safe_squares_is_worth_the_goal_entry():
    r = game("classic")
    ev = Evaluator(r)
    entry = ev.table.goal["entry"]
    free = pos_of(r, "4k3/8/8/8/4K3/8/8/8 b - - 0 1")      # d5, e5, f5 all safe
    guarded = pos_of(r, "4k3/8/8/r7/4K3/8/8/8 b - - 0 1")  # the rook holds the fifth rank
    royals = [sorted(free.royals[0]), sorted(free.royals[1])]
    extra = [0.0, 0.0]
    ev._goal(free, royals, extra)
    assert extra[0] == entry[3]
    extra = [0.0, 0.0]
    ev._goal(guarded, [sorted(guarded.royals[0]), sorted(guarded.royals[1])], extra)
    assert extra[0] == entry[0]


def test_two_warrior_kings_count_the_smaller_term():
    r = game("two-kings", "classic")
    ev = Evaluator(r)
    pos = pos_of(r, "4k3/8/8/8/4K3/8/8/K7 b - - 0 1")  # one King next to the midline, one far
    extra = [0.0, 0.0]
    ev._goal(pos, [sorted(pos.royals[0]), sorted(pos.royals[1])], extra)
    assert extra[0] == 0.0


def test_phase_weights_and_royal_values_come_from_the_table():
    r = game("two-kings", "reaper")
    ev = Evaluator(r)
    assert ev.phase_weight[r.kind_index["RR"]] == 0 and ev.phase_weight[r.kind_index["RQ"]] == 300
    assert ev.values[r.kind_index["KK"]] == 450 and ev.values[r.kind_index["RK"]] == 0


@pytest.mark.parametrize("data,words", [
    ({"counter": {"stones": {"values": []}}}, "needs values"),
    ({"counter": {"stones": {"values": ["a"]}}}, "must be numbers"),
    ({"counter": {"stones": 3}}, "needs values"),
    ({"goal": {"entry": "x"}}, "entry must be a list"),
    ({"goal": {"far": 1}}, "[goal] takes entry"),
    ({"phase": {"RQ": "x"}}, "must be a number"),
])
def test_bad_new_keys_are_refused_naming_them(data, words):
    with pytest.raises(VariantError) as e:
        table_from_dict(data, "test.toml")
    assert words in str(e.value)
