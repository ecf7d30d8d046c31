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
    t = ev.table
    curve = (t.win_value, t.risk_scale, t.gain_scale, t.loss_value)
    expected = 0.0
    for o in outcomes:
        combat.apply(pos, o.answer)
        expected += float(o.probability) * chance_value(ev.evaluate(pos, 0), *curve)
        combat.undo(pos)
    combat.undo(pos)
    assert dict(info.root_scores)[capture] == pytest.approx(score_of_value(expected, *curve))


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


# White's rook on a8 pins Black's rook on c8 to the King on e8: if Black's rook attacks a8 and
# loses, it leaves the board and White must attack the King ("If a piece is threatening the
# opposing King at the start of their own turn, they must attack the King").
PINNED_ATTACKER = "R1r1k3/8/8/8/8/8/8/4K3 {} - - 0 1"


def _linear_table(rules):
    """The game's table with plain centipawns averaged and a won or lost game worth 5000, its
    leaves searched by the capture search (``leaf_fights`` off: what this file tests)."""
    from companion.ai.eval_table import table_with

    return table_with(rules.name, {"gain_scale": 0.0, "win_value": 5000.0, "loss_value": 0.0,
                                   "leaf_fights": False, "threat": 0.0})


def _root_scores(rules, text, chance_qply, table=None):
    pos = rules.position_from_text(text)
    search = Search(rules, Evaluator(rules, table), SearchOptions(chance_qply=chance_qply))
    info = search.run(pos, now=time.perf_counter, max_depth=1, exact_root=True)
    return {rules.move_text(pos, a): v for a, v in info.root_scores}


def test_fights_judged_statically_still_see_a_fallen_or_open_king(combat):
    """Deep in the capture search fight outcomes are judged statically, but not one that
    ends the game (the King lost its fight: the game is lost, not "a piece down") or that
    leaves a King open to a compulsory attack. Black's rook attack risks its King: that counts
    whether the fights are searched out (chance_qply=8) or judged at once (chance_qply=0), with
    the attack at the root (Black to move) or inside the capture search (White to move)."""
    black = PINNED_ATTACKER.format("b")
    for table in (None, _linear_table(combat)):  # the game's own table, and plain centipawns
        a, b = _root_scores(combat, black, 0, table), _root_scores(combat, black, 8, table)
        assert a["c8a8"] == pytest.approx(b["c8a8"], abs=1e-6)
    linear = _linear_table(combat)
    static, searched = _root_scores(combat, black, 0, linear), _root_scores(combat, black, 8, linear)
    assert static["c8a8"] == pytest.approx(searched["c8a8"], abs=1e-6)
    pos = combat.position_from_text(black)
    odds = combat.odds_of_move(pos, combat.parse_move(pos, "c8a8"))
    # worth less than the rook fight alone (R against R, the attacker's weapon choice)
    assert static["c8a8"] < float(odds.attacker) * 500 - float(odds.defender) * 500 - 100
    white = PINNED_ATTACKER.format("w")
    static, searched = _root_scores(combat, white, 0, linear), _root_scores(combat, white, 8, linear)
    # a quiet White move: Black's only capture is that gamble, so White stands fine
    assert static["e1e2"] == pytest.approx(searched["e1e2"], abs=1e-6)
    assert static["e1e2"] > 0


def test_gain_scale_values_a_lead_less_the_larger_it_is_and_a_deficit_as_itself():
    """gain_scale: a lead L counts gain * tanh(L / gain); a deficit counts as itself down to
    -loss_value; a won game win_value, a lost one -loss_value. Inverse and order hold."""
    win, g, loss = 1500.0, 1500.0, 5000.0
    for v in (-4900.0, -800.0, -0.5, 0.0, 0.5, 300.0, 1400.0, 4000.0):
        u = chance_value(v, win, 0.0, g, loss)
        assert score_of_value(u, win, 0.0, g, loss) == pytest.approx(v, rel=1e-9, abs=1e-9)
    assert chance_value(-800.0, win, 0.0, g, loss) == -800.0
    values = [chance_value(v, win, 0.0, g, loss) for v in (-6000, -800, 0, 300, 2000, 9000)]
    assert values == sorted(values) and values[0] == 1.0 - loss and values[-1] < win
    assert chance_value(MATE - 3, win, 0.0, g, loss) > win
    assert chance_value(-MATE + 3, win, 0.0, g, loss) < -loss
    # a fair +-300 fight is a loss when 2000 ahead, still neutral when 800 behind
    ahead = 0.5 * chance_value(2300, win, 0, g, loss) + 0.5 * chance_value(1700, win, 0, g, loss)
    assert score_of_value(ahead, win, 0, g, loss) < 2000 - 50
    behind = 0.5 * chance_value(-500, win, 0, g, loss) + 0.5 * chance_value(-1100, win, 0, g, loss)
    assert score_of_value(behind, win, 0, g, loss) == pytest.approx(-800)


# Seen in a match against random: White, far ahead, checked with the queen next to the King
# (Qf7+): a 40% chance that the King loses the fight it must take, a 60% chance to lose the queen.
QUEEN_GAMBLE = "3r1k1r/pp2p1b1/3pQp1p/2pP4/2N3P1/P2BB3/1PP5/3R1RK1 w - - 4 26 fatigue=c4:1,g4:2,d5:1,c5:1"


def test_far_ahead_the_computer_does_not_offer_its_queen_for_a_shot_at_the_king(combat):
    """Combat Chess's table (gain_scale): the queen stays home. With plain centipawns and a won
    game worth 5000 the same search throws it in (0.4 x 5000 outweighs 0.6 x 900)."""
    pos = combat.position_from_text(QUEEN_GAMBLE)
    gamble = combat.parse_move(pos, "e6f7")
    info = Search(combat).run(pos, now=time.perf_counter, max_nodes=6000)
    assert info.best != gamble
    info = Search(combat, Evaluator(combat, _linear_table(combat))).run(pos, now=time.perf_counter, max_nodes=6000)
    assert info.best == gamble
