"""The computer's secret bids: an exact matrix-game solver, the bid drawn from the equilibrium
with a random number it is given, the search's joint nodes, and the Chess 2 baselines."""

import random
import time
from fractions import Fraction

import pytest

from companion.ai.baselines import DuelistPlayer, GreedyPlayer, RandomPlayer
from companion.ai.duel import pick, solve
from companion.ai.levels import ComputerPlayer, computer_part, parse_level, plan_part
from companion.ai.match import play_game, replay_actions, run_match
from companion.ai.search import Search
from tests.chess2_helpers import game, play, pos_of


def _equilibrium(matrix, sol):
    m, n = len(matrix), len(matrix[0])
    a = [[Fraction(v) for v in row] for row in matrix]
    assert sum(sol.rows) == 1 and sum(sol.cols) == 1
    assert min(sol.rows) >= 0 and min(sol.cols) >= 0
    for j in range(n):  # the row strategy guarantees the value against every column
        assert sum(sol.rows[i] * a[i][j] for i in range(m)) >= sol.value
    for i in range(m):  # the column strategy concedes no more than the value to any row
        assert sum(sol.cols[j] * a[i][j] for j in range(n)) <= sol.value


def test_known_games_are_solved_exactly():
    pennies = solve([[1, -1], [-1, 1]])
    assert pennies.rows == (Fraction(1, 2), Fraction(1, 2)) and pennies.value == 0
    rps = solve([[0, -1, 1], [1, 0, -1], [-1, 1, 0]])
    assert rps.rows == (Fraction(1, 3),) * 3 and rps.cols == (Fraction(1, 3),) * 3
    # a dominated row is never played; the saddle point is found
    saddle = solve([[3, 1], [2, 4], [1, 0]])
    assert saddle.rows[2] == 0 and saddle.value == Fraction(5, 2)
    assert solve([[7, 7], [7, 7]]).value == 7
    assert solve([[1, 2, 3]]).value == 1 and solve([[1], [2], [3]]).value == 3


def test_random_matrices_satisfy_the_equilibrium_inequalities_exactly():
    rng = random.Random(7)
    for _ in range(500):
        m, n = rng.randint(1, 3), rng.randint(1, 3)
        matrix = [[rng.choice((rng.randint(-4, 4), rng.uniform(-500, 500))) for _ in range(n)] for _ in range(m)]
        _equilibrium(matrix, solve(matrix))


def test_bad_matrices_are_refused():
    for bad in ([], [[]], [[1, 2], [3]]):
        with pytest.raises(ValueError):
            solve(bad)


def test_pick_draws_from_the_strategy_with_the_number_given():
    opts = (0, 1, 2)
    strat = (Fraction(1, 4), Fraction(0), Fraction(3, 4))
    assert pick(opts, strat, 0.0) == 0 and pick(opts, strat, 0.2499) == 0
    assert pick(opts, strat, 0.25) == 2 and pick(opts, strat, 0.9999) == 2
    assert all(pick(opts, strat, u / 100) != 1 for u in range(100))
    with pytest.raises(ValueError):
        pick(opts, strat, 1.0)


# a duel on the board: the white knight took the pawn on d6, black initiated and paid its fee
BIDS = "4k3/8/3p4/8/4N3/8/8/4K3 w - - 0 1"


def _bids_position(stones="3,3"):
    r = game("classic")
    pos = pos_of(r, BIDS, stones=stones)
    play(r, pos, "e4d6", "duel")
    assert pos.pending.kind == "bids"
    return r, pos


def test_the_computer_bid_is_a_pure_function_of_position_seat_and_random_number():
    r, pos = _bids_position()
    before = pos.snapshot()
    plan = plan_part(r, pos, 0, max_nodes=800)
    assert pos.snapshot() == before
    assert plan.options == (0, 1, 2) and sum(plan.strategy) == 1
    again = plan_part(r, pos, 0, max_nodes=800)
    assert again.strategy == plan.strategy and again.matrix == plan.matrix
    for u in (0.0, 0.3, 0.6, 0.99):
        assert computer_part(r, pos, 0, u, max_nodes=800) == plan.choose(u)
    defender = plan_part(r, pos, 1, max_nodes=800)
    assert defender.options == (0, 1, 2)
    # the plan is the equilibrium of its own matrix (payoffs as the search rounds them)
    search = Search(r)
    payoff = [[search._payoff(v) for v in row] for row in plan.matrix]
    for j in range(3):
        assert sum(p * payoff[i][j] for i, p in enumerate(plan.strategy)) >= min(
            sum(p * payoff[i][k] for i, p in enumerate(plan.strategy)) for k in range(3))


def test_the_search_refuses_to_answer_a_joint_decision_alone():
    r, pos = _bids_position()
    with pytest.raises(ValueError, match="joint decision"):
        Search(r).run(pos, now=time.perf_counter, max_nodes=100)
    with pytest.raises(ValueError):
        Search(r).joint_plan(pos_of(r, BIDS), 0, now=time.perf_counter, max_nodes=100)


def test_a_bid_can_only_be_what_the_stones_allow():
    r, pos = _bids_position(stones="1,3")
    plan = plan_part(r, pos, 0, max_nodes=500)
    assert plan.options == (0, 1)
    assert all(plan.choose(u / 10) in (0, 1) for u in range(10))


def test_the_computer_duels_an_attacker_with_no_stones():
    """Against an attacker with 0 stones a duel is won for sure: the Queen that took a pawn is
    worth more than the two stones it costs."""
    r = game("classic")
    pos = pos_of(r, "4k3/8/3p4/8/8/8/8/3QK3 w - - 0 1", stones="0,3")
    play(r, pos, "d1d6")
    assert pos.pending.kind == "duel" and pos.pending.player == 1
    info = Search(r).run(pos, now=time.perf_counter, max_nodes=3000)
    assert info.best.value == "duel"


def test_the_computer_weighs_paying_its_last_stone_against_a_higher_ranked_attacker():
    """A Queen takes a pawn of a defender with 1 stone: the duel is offered (the fee is his last
    stone, then the attacker must bid 1 and wins). The search scores both answers, the duel's
    without any bids to solve, and its answer plays."""
    r = game("classic")
    pos = pos_of(r, "4k3/ppp5/3p4/8/8/8/PPP5/3QK3 w - - 0 1", stones="3,1")
    play(r, pos, "d1d6")
    assert pos.pending.kind == "duel" and pos.pending.get("fee") == 1
    info = Search(r).run(pos, now=time.perf_counter, max_depth=3, exact_root=True)
    assert sorted(a.value for a, _ in info.root_scores) == ["duel", "pass"]
    r.play(pos, info.best)
    assert pos.pending is None
    assert r.stones(pos) == ((3, 0) if info.best.value == "duel" else (4, 1))


@pytest.mark.parametrize("stones,choice", [("5,1", "destroy"), ("2,6", "gain")])
def test_the_computer_takes_the_better_bluff_reward(stones, choice):
    """A called bluff: with 5 stones against 1, destroying the defender's last stone is worth
    more than a sixth; with 2 against 6, a third stone is worth more than the defender's sixth."""
    r = game("classic")
    # equal ranks (no fee); the pawns keep both Kings home, so the stones decide
    pos = pos_of(r, "4k3/pppppppp/3n4/8/4N3/8/PPPPPPPP/4K3 w - - 0 1", stones=stones)
    play(r, pos, "e4d6", "duel", "0-0")
    assert pos.pending.kind == "bluff"
    info = Search(r).run(pos, now=time.perf_counter, max_nodes=3000)
    assert info.best.value == choice


def test_the_baselines_answer_their_part_only():
    r, pos = _bids_position()
    rng = random.Random(5)
    assert DuelistPlayer(r, rng).choose_part(pos, 0) == 2
    assert DuelistPlayer(r, rng).choose_part(pos, 1) == 2
    parts = {GreedyPlayer(r, random.Random(k)).choose_part(pos, 1) for k in range(30)}
    assert parts == {0, 1, 2}  # greedy bids at random
    assert RandomPlayer(r, rng).choose_part(pos, 0) in (0, 1, 2)
    # the duelist initiates every duel it may
    pos = pos_of(r, BIDS)
    play(r, pos, "e4d6")
    assert DuelistPlayer(r, rng).choose(pos, now=time.perf_counter).best.value == "duel"


def test_a_computer_game_with_duels_replays_from_its_log():
    r = game("classic", "animals")
    players = {0: ComputerPlayer(r, parse_level("max"), random.Random(1)), 1: DuelistPlayer(r, random.Random(2))}
    res = play_game(r, players, random.Random(3), now=time.perf_counter, budget=None, max_nodes=300,
                    max_plies=40, seats_of_a=frozenset({0}))
    assert any(a.startswith("=") and "-" in a for a in res.actions), "no duel was bid in 40 plies"
    pos = replay_actions(r, res.actions)
    assert r.position_text(pos) == res.final


def test_ai_match_takes_the_armies(capsys):
    lines = []
    score = run_match("chess2", None, "max", "duelist", 1, None, 4, now=time.perf_counter, out=lines.append,
                      max_nodes=200, max_plies=12, options={"armies": "two-kings,nemesis"})
    assert sum(score) == 1 and lines[-1].startswith("score ")
