"""Combat Chess fights are chance nodes: the search takes the exact expectation over the fight
outcomes, so a computer attacker weighs the risk of losing its piece against the prize."""

import time

import pytest

from companion.ai.evaluate import Evaluator
from companion.ai.search import MATE, Search, SearchOptions, chance_value, score_of_value
from companion.games import make_rules

# a white knight on c3 can attack the undefended black bishop on d5; nothing else is going on
FORK_FREE = "4k3/8/8/3b4/8/2N5/8/4K3 w - - 0 1"


@pytest.fixture(scope="module")
def combat():
    return make_rules("combat")


def choose(rules, text, depth=3):
    pos = rules.position_from_text(text)
    info = Search(rules).run(pos, now=time.perf_counter, max_depth=depth)
    return rules.move_text(pos, info.best), info


def test_capture_score_is_the_exact_expectation_over_the_fight_outcomes(combat):
    """Depth 1 without quiescence: the capture's score is sum(p * value of the outcome),
    with the exact probabilities of the engine's chance_outcomes."""
    pos = combat.position_from_text(FORK_FREE)
    ev = Evaluator(combat)
    search = Search(combat, ev, SearchOptions(quiescence=False))
    info = search.run(pos, now=time.perf_counter, max_depth=1, exact_root=True)
    capture = combat.parse_move(pos, "c3d5")
    combat.apply(pos, capture)
    outcomes = combat.chance_outcomes(pos)
    assert {o.answer.value for o in outcomes} == {"attacker", "defender", "bounce"}
    assert sum(o.probability for o in outcomes) == 1
    win = ev.table.win_value
    expected = 0.0
    for o in outcomes:
        combat.apply(pos, o.answer)
        expected += float(o.probability) * chance_value(ev.evaluate(pos, 0), win)
        combat.undo(pos)
    combat.undo(pos)
    assert dict(info.root_scores)[capture] == pytest.approx(score_of_value(expected, win))


def test_a_small_chance_to_take_the_king_does_not_outweigh_a_sure_material_loss():
    """A won game counts win_value when averaged over dice, not a mate score: a 5% shot at
    the enemy king while the queen is lost otherwise is a bad trade."""
    win = 5000.0
    gamble = 0.05 * chance_value(MATE - 3, win) + 0.95 * chance_value(-900, win)
    assert score_of_value(gamble, win) < 0
    for v in (-4900.0, -250.5, 0.0, 17.0, 999.0, 4998.0):
        assert score_of_value(chance_value(v, win), win) == v
    assert chance_value(MATE - 1, win) > chance_value(MATE - 5, win) > chance_value(8000, win)
    assert chance_value(-MATE + 1, win) < chance_value(-MATE + 5, win) < chance_value(-8000, win)
    assert score_of_value(chance_value(MATE - 7, win), win) == pytest.approx(MATE - 7)


def test_fresh_attacker_takes_the_fight_with_good_odds(combat):
    move, _ = choose(combat, FORK_FREE)
    assert move == "c3d5"


def test_tired_attacker_declines_a_fight_it_will_probably_lose(combat):
    """Four fatigue tokens: the knight rolls d8+1-4 against the bishop's d8, wins about one
    fight in six and dies in most of the rest; taking is a loss on average."""
    pos = combat.position_from_text(FORK_FREE + " fatigue=c3:4")
    odds = combat.odds_of_move(pos, combat.parse_move(pos, "c3d5"))
    assert odds.attacker < odds.defender
    move, info = choose(combat, FORK_FREE + " fatigue=c3:4")
    assert move != "c3d5"


def test_in_fide_chess_the_same_capture_is_simply_taken():
    chess = make_rules("chess")
    move, _ = choose(chess, FORK_FREE)
    assert move == "c3d5"


def test_prefers_the_attacker_with_the_better_odds(combat):
    """Two knights can attack the same bishop: the fresh one is sent, not the tired one.
    (Black's extra rook keeps the material even: a side far ahead avoids gambles at all.)"""
    text = "r3k3/8/8/3b4/8/2N1N3/8/4K3 w - - 0 1 fatigue=c3:3"
    move, _ = choose(combat, text)
    assert move == "e3d5"
    # and with the fatigue on the other knight, the other one goes
    move, _ = choose(combat, "r3k3/8/8/3b4/8/2N1N3/8/4K3 w - - 0 1 fatigue=e3:3")
    assert move == "c3d5"


def test_worse_odds_never_make_the_fight_more_attractive(combat):
    """Fatigue 0..5 on the attacking knight: it fights while fresh, declines when exhausted,
    and once it declines at some fatigue it declines at every higher one."""
    takes = []
    for f in range(6):
        text = FORK_FREE + (f" fatigue=c3:{f}" if f else "")
        move, _ = choose(combat, text)
        takes.append(move == "c3d5")
    assert takes[0] and not takes[-1]
    first_decline = takes.index(False)
    assert not any(takes[first_decline:])


def test_fatigue_lowers_a_pieces_value(combat):
    ev = Evaluator(combat)
    fresh = combat.position_from_text(FORK_FREE)
    tired = combat.position_from_text(FORK_FREE + " fatigue=c3:2")
    knight = combat.geometry.parse_square("c3")
    assert ev.piece_value(tired.board[knight]) < ev.piece_value(fresh.board[knight])
    assert ev.evaluate(tired, 0) < ev.evaluate(fresh, 0)


def test_risk_scale_averages_win_chances_instead_of_centipawns():
    """With risk_scale a side far ahead weighs a fight's risk above its gain: +300/-300 at even
    odds is neutral at 0 but a loss at +1500 (the win chance curve flattens); order is kept."""
    win, k = 5000.0, 1000.0
    for v in (-3000.0, -250.5, 0.0, 17.0, 999.0, 3000.0):
        assert score_of_value(chance_value(v, win, k), win, k) == pytest.approx(v, rel=1e-9, abs=1e-9)
    values = [chance_value(v, win, k) for v in (-4000, -100, 0, 100, 4000)]
    assert values == sorted(values) and chance_value(MATE - 9, win, k) > chance_value(20000, win, k)
    even = 0.5 * chance_value(300, win, k) + 0.5 * chance_value(-300, win, k)
    assert score_of_value(even, win, k) == pytest.approx(0.0, abs=1e-9)
    ahead = 0.5 * chance_value(1800, win, k) + 0.5 * chance_value(1200, win, k)
    assert score_of_value(ahead, win, k) < 1500
