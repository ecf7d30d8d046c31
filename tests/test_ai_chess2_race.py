"""Chess 2's Midline race in the search (the table key ``goal_race``, on in tables/chess2.toml):
a game already won by a Midline Invasion is scored as won before any pruning, and the capture
search sees a King that can cross on its next move. Node- and depth-limited, deterministic."""

import time

import pytest

from companion.ai.eval_table import table_for
from companion.ai.evaluate import Evaluator
from companion.ai.search import INF, MATE_BOUND, Search
from companion.core.moves import Move
from tests.chess2_helpers import game, pos_of

# From a timed match against the previous level (seed 100, game 1, ply 35): the Reaper's King
# on h5 steps to h4 and wins unless white covers h4 (Qh1 does); e2f3, the Tiger's check,
# leaves h4 free.
RACE = "2b2b2/ppppp1pp/2n1r3/1N5k/3PP3/3rB3/PP1KBP2/R2Q4 w - - 6 15"


def searcher(rules, race: bool) -> Search:
    return Search(rules, Evaluator(rules, table_for(rules, {"goal_race": race})))


def test_the_chess2_table_turns_the_goal_race_on_and_other_games_keep_it_off():
    assert table_for(game("classic")).goal_race is True
    from companion.games import make_rules
    for variant in ("chess", "combat", "kol"):
        assert table_for(make_rules(variant)).goal_race is False


def test_a_move_that_lets_the_enemy_king_cross_is_not_played_with_the_goal_race():
    r = game("animals", "reaper")
    pos = pos_of(r, RACE, stones="2,1")
    lets_it_cross = Move(r.geometry.parse_square("e2"), r.geometry.parse_square("f3"))
    assert lets_it_cross in r.legal_moves(pos)
    # without the key (the search before it): reverse futility stood on the material of the
    # position after Kh4, a game already lost, and e2f3 looked best
    old = searcher(r, False).run(pos, now=time.process_time, max_depth=2)
    assert old.best == lets_it_cross
    new = searcher(r, True).run(pos, now=time.process_time, max_depth=2)
    assert new.best != lets_it_cross and new.best is not None


def _capture_search(rules, pos, race: bool, alpha: float, beta: float) -> float:
    s = searcher(rules, race)
    s._prepare(pos, 0, time.process_time, None, None, None, 0.0)  # white is the root player
    return s._qs(alpha, beta, 1, 0)


def test_the_capture_search_sees_a_king_that_crosses_next_move():
    r = game("classic")
    # black to move, its King on d5 next to its fifth rank (rank 4) with c4, d4, e4 free; white a
    # rook up. Standing pat (white's window far above) scored it a rook up for white
    pos = pos_of(r, "8/8/8/3k4/8/8/8/R3K3 b - - 0 1", stones="3,3")
    old = _capture_search(r, pos, False, 10_000.0, INF)
    assert -MATE_BOUND < old
    new = _capture_search(r, pos, True, 10_000.0, INF)
    assert new <= -MATE_BOUND


def test_a_king_whose_way_across_is_held_is_scored_as_before():
    r = game("classic")
    # the rook on the fourth rank holds c4, d4 and e4: no move wins at once, nothing changes
    pos = pos_of(r, "8/8/8/3k4/R7/8/8/4K3 b - - 0 1", stones="3,3")
    for window in ((-INF, INF), (10_000.0, INF)):
        assert _capture_search(r, pos, True, *window) == _capture_search(r, pos, False, *window)
        assert -MATE_BOUND < _capture_search(r, pos, True, *window) < MATE_BOUND


def _random_positions(rules, rng, count: int):
    """Positions after 8 to 30 seeded random actions (duel bids drawn at random too)."""
    from companion.core.moves import Answer
    out = []
    while len(out) < count:
        pos = rules.start_position()
        for _ in range(rng.randint(8, 30)):
            if rules.outcome(pos) is not None:
                break
            pend = pos.pending
            if pend is not None and pend.get("players"):
                first, second = pend.get("options")
                acts = [Answer(pend.kind, (rng.choice(first), rng.choice(second)))]
            else:
                acts = list(rules.answers(pos)) if pend is not None else rules.legal_moves(pos)
            if not acts:
                break
            rules.play(pos, rng.choice(acts))
        if pos.pending is None and rules.outcome(pos) is None:
            out.append(pos)
    return out


def test_the_goal_term_skips_kings_three_steps_away_with_the_same_value():
    """The goal term's step table (a King three or more steps from its zone scores 0 without
    looking at its squares) changes no evaluation."""
    import random

    rng = random.Random(31)
    for white, black in (("classic", "classic"), ("two-kings", "reaper"), ("animals", "two-kings")):
        r = game(white, black)
        ev = Evaluator(r)
        size = r.geometry.size
        crafted = [pos_of(r, fen) for fen in ("4k3/8/8/8/4K3/8/8/8 b - - 0 1", "8/8/3k4/8/8/4K3/8/8 w - - 0 1",
                                              "8/3k4/8/8/8/8/4K3/8 w - - 0 1")] if white == black else []
        for pos in crafted + _random_positions(r, rng, 6):
            royals = [sorted(pos.royals[0]), sorted(pos.royals[1])]
            fast = [0.0, 0.0]
            ev._goal(pos, royals, fast)
            steps = ev._goal_steps
            ev._goal_steps = [[0] * size, [0] * size]  # every King "near": the full computation
            slow = [0.0, 0.0]
            ev._goal(pos, royals, slow)
            ev._goal_steps = steps
            assert fast == slow


def test_the_search_prunes_nothing_where_an_enemy_king_stands_next_to_its_goal():
    """Where the opponent of the side to move has a King next to its fifth rank the goal term
    cannot tell whether it can be stopped (a blocking move is quiet): no pruning there. A King
    two steps away, or the mover's own King next to its goal, leaves the pruning on."""
    r = game("classic")
    s = searcher(r, True)
    assert s._threatened(pos_of(r, "8/8/8/3k4/8/8/8/R3K3 w - - 0 1"))      # black's King on d5
    assert not s._threatened(pos_of(r, "8/8/3k4/8/8/8/8/R3K3 w - - 0 1"))  # two steps away
    assert not s._threatened(pos_of(r, "8/8/8/3k4/8/8/8/R3K3 b - - 0 1"))  # its own move
    assert searcher(r, False)._doorstep is None  # without the key the search is as before
    # the search with the key and pruning everywhere else still finds the same move here, with
    # the threatened nodes searched in full (more nodes than with the pruning)
    pos = pos_of(r, "8/8/3k4/8/1P6/8/6PP/R2Q2K1 w - - 0 1", stones="3,3")
    old = searcher(r, False).run(pos, now=time.process_time, max_depth=3)
    new = searcher(r, True).run(pos, now=time.process_time, max_depth=3)
    assert new.best == old.best and new.nodes > old.nodes

