"""The search: finds mates and wins material, never plays an illegal move, answers within its
budget (measured by its own clock), stops at once, is deterministic with a node limit, and
leaves the position exactly as it found it."""

import gc
import random
import time

import pytest

from companion.ai.search import MATE_BOUND, Search, SearchOptions
from companion.games import make_rules


@pytest.fixture(scope="module")
def chess():
    return make_rules("chess")


@pytest.fixture(scope="module")
def combat():
    return make_rules("combat")


class TickingClock:
    """A clock that advances a fixed step at every reading: time passes as the search works."""

    def __init__(self, step: float):
        self.t = 0.0
        self.step = step

    def __call__(self) -> float:
        self.t += self.step
        return self.t


def best_text(rules, fen, **kw):
    pos = rules.position_from_text(fen)
    info = Search(rules).run(pos, now=time.perf_counter, **kw)
    return rules.move_text(pos, info.best), info


def random_positions(rules, count, seed, plies=(0, 70)):
    """Positions from seeded random play: any fight settled by a seeded draw, any choice a
    player makes (a Dungeon Chess push-back ...) answered at random."""
    rng = random.Random(seed)
    out = []

    def settle(pos, pick):
        pend = pos.pending
        if pend.chance:
            rules.apply(pos, pick(rules.chance_outcomes(pos)).answer)
        else:
            rules.apply(pos, pick(list(rules.answers(pos))))

    while len(out) < count:
        pos = rules.start_position()
        for _ in range(rng.randint(*plies)):
            if pos.pending is not None:
                settle(pos, rng.choice)
                continue
            moves = rules.legal_moves(pos)
            if not moves:
                break
            rules.apply(pos, rng.choice(moves))
        while pos.pending is not None:
            settle(pos, lambda options: options[0])
        if rules.outcome(pos) is None:
            out.append(pos)
    return out


#: every game and map the computer plays: (game, map); Dungeon Chess on each of its maps (the
#: four-player map with four players, the board at its largest, 20x20)
GAMES_AND_MAPS = [("chess", None), ("combat", None), ("dungeon", "dungeon-compact"),
                  ("dungeon", "dungeon-two-player"), ("dungeon", "dungeon-four-player")]


# ----- tactics -------------------------------------------------------------------------------------
def test_finds_mate_in_one_back_rank(chess):
    move, info = best_text(chess, "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", max_depth=3)
    assert move == "a1a8"
    assert info.mate_in() == 1


def test_finds_scholars_mate(chess):
    move, info = best_text(chess, "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4", max_depth=3)
    assert move == "h5f7" and info.mate_in() == 1


def test_finds_the_only_mate_in_two(chess):
    # checked with python-chess by brute force: Kf7 is the only move that mates in two
    move, info = best_text(chess, "7k/8/5K2/8/8/8/8/6R1 w - - 0 1", max_depth=5)
    assert move == "f6f7"
    assert info.mate_in() == 3  # plies: Kf7, Kh7, Rh1#


def test_sees_being_mated_as_a_loss(chess):
    # black's only move is Kh7, then Rh1 mates (exact_root: search even a single move)
    pos = chess.position_from_text("7k/5K2/8/8/8/8/8/6R1 b - - 0 1")
    info = Search(chess).run(pos, now=time.perf_counter, max_depth=4, exact_root=True)
    assert info.score <= -MATE_BOUND


def test_knight_fork_wins_the_rook(chess):
    move, _ = best_text(chess, "r3k3/8/8/1N6/8/8/8/4K3 w - - 0 1", max_depth=4)
    assert move == "b5c7"


def test_takes_a_hanging_queen(chess):
    move, _ = best_text(chess, "4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1", max_depth=2)
    assert move == "d2d5"


def test_quiescence_refuses_a_poisoned_pawn(chess):
    # Qxd5 wins a pawn and loses the queen to cxd5: only the capture search sees it at depth 1
    pos = chess.position_from_text("4k3/8/2p5/3p4/8/8/8/3QK3 w - - 0 1")
    info = Search(chess).run(pos, now=time.perf_counter, max_depth=1)
    assert chess.move_text(pos, info.best) != "d1d5"
    blind = Search(chess, options=SearchOptions(quiescence=False)).run(pos, now=time.perf_counter, max_depth=1)
    assert chess.move_text(pos, blind.best) == "d1d5"  # without it, the beginner's mistake


def test_avoids_stalemating_when_winning(chess):
    # Qc7?? or Qb6?? stalemate; the search must keep the win (score stays far above a draw)
    pos = chess.position_from_text("k7/8/1K6/8/8/8/2Q5/8 w - - 0 1")
    info = Search(chess).run(pos, now=time.perf_counter, max_depth=4)
    chess.apply(pos, info.best)
    assert chess.outcome(pos) is None or chess.outcome(pos).winners == frozenset({0})
    assert info.score > 500


# ----- legality, position left intact, determinism ---------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("game, board_map", GAMES_AND_MAPS)
def test_never_an_illegal_move_on_random_positions(game, board_map):
    rules = make_rules(game, board_map)
    search = Search(rules)
    for pos in random_positions(rules, 25, seed=sum(map(ord, f"{game}{board_map}"))):
        before = pos.snapshot()
        info = search.run(pos, now=time.perf_counter, max_nodes=300)
        assert info.best in rules.legal_moves(pos)
        assert pos.snapshot() == before


def test_position_is_left_exactly_as_found_after_a_timeout(combat):
    pos = random_positions(combat, 1, seed=5, plies=(20, 20))[0]
    before = pos.snapshot()
    Search(combat).run(pos, now=TickingClock(0.001), budget=0.05)
    assert pos.snapshot() == before


@pytest.mark.parametrize("game", ["chess", "combat"])
def test_same_limits_same_answer(game):
    rules = make_rules(game)
    pos = random_positions(rules, 1, seed=9, plies=(12, 12))[0]
    a = Search(rules).run(pos, now=time.perf_counter, max_nodes=1500)
    b = Search(rules).run(pos, now=time.perf_counter, max_nodes=1500)
    assert (a.best, a.score, a.depth, a.nodes, a.pv) == (b.best, b.score, b.depth, b.nodes, b.pv)


# ----- the clock -----------------------------------------------------------------------------------------
def test_answers_within_budget_on_a_clock_that_ticks_per_reading(chess):
    pos = chess.start_position()
    clock = TickingClock(0.0007)
    info = Search(chess).run(pos, now=clock, budget=0.2)
    assert info.best in chess.legal_moves(pos)
    assert info.elapsed <= 0.2
    assert info.stopped


@pytest.mark.slow
@pytest.mark.parametrize("game, board_map", GAMES_AND_MAPS)
def test_real_clock_budget_overrun_below_ten_percent_on_many_positions(game, board_map):
    """Measured with the search's own clock (processor time of this process, so a busy
    machine that pauses the test does not count against the search)."""
    rules = make_rules(game, board_map)
    search = Search(rules)
    budget = 0.02
    worst = 0.0
    for pos in random_positions(rules, 20, seed=31):
        gc.collect()  # garbage left by other tests is not this search's: collect it outside the timing
        info = search.run(pos, now=time.process_time, budget=budget)
        assert info.best in rules.legal_moves(pos)
        worst = max(worst, info.elapsed)
    assert worst <= budget * 1.10, f"worst {worst * 1000:.1f} ms for {budget * 1000:.0f} ms"


def test_stop_ends_the_search_at_once_with_a_legal_move(chess):
    pos = chess.position_from_text("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
    calls = []

    def stop():
        calls.append(1)
        return len(calls) > 50

    info = Search(chess).run(pos, now=time.perf_counter, stop=stop)
    assert info.stopped and info.nodes <= 51
    assert info.best in chess.legal_moves(pos)


def test_stopped_before_it_starts_still_answers_a_legal_move(chess):
    pos = chess.start_position()
    info = Search(chess).run(pos, now=time.perf_counter, stop=lambda: True)
    assert info.best in chess.legal_moves(pos)


def test_single_legal_move_is_played_without_searching(chess):
    pos = chess.position_from_text("k7/8/8/8/8/8/6r1/7K w - - 0 1")  # Kxg2 is the only move
    info = Search(chess).run(pos, now=time.perf_counter, budget=1.0)
    assert chess.move_text(pos, info.best) == "h1g2" and info.nodes == 0


def test_no_legal_move_gives_no_action(chess):
    pos = chess.position_from_text("k7/1Q6/1K6/8/8/8/8/8 b - - 0 1")  # checkmated
    assert Search(chess).run(pos, now=time.perf_counter, budget=0.1).best is None


def test_progress_is_reported_after_each_iteration(chess):
    seen = []
    Search(chess).run(chess.start_position(), now=time.perf_counter, max_depth=3, on_progress=seen.append)
    assert [i.depth for i in seen] == [1, 2, 3]
    assert all(i.best in chess.legal_moves(chess.start_position()) for i in seen)


def test_a_pending_chance_decision_is_not_the_computers_to_answer(combat):
    pos = combat.position_from_text("4k3/8/8/3b4/8/2N5/8/4K3 w - - 0 1")
    combat.apply(pos, combat.parse_move(pos, "c3d5"))
    with pytest.raises(ValueError, match="dice"):
        Search(combat).run(pos, now=time.perf_counter, max_depth=2)


class _BrokenMove:
    """A game whose engine raises when one particular move is applied (as a bug in some
    far-off line would), undoing its own frame first as the engine does."""

    def __init__(self, rules, bad: str):
        self._rules, self._bad = rules, bad

    def __getattr__(self, name):
        return getattr(self._rules, name)

    def apply(self, pos, action):
        if getattr(action, "frm", None) is not None and self._rules.move_text(pos, action) == self._bad:
            raise AssertionError(f"take from empty square (a made-up engine bug on {self._bad})")
        return self._rules.apply(pos, action)


def test_an_engine_error_skips_that_action_and_is_reported(chess):
    """An action whose apply raises is skipped (the game goes on with another move) and its
    message is returned in SearchInfo.engine_errors, so the bug is logged, not hidden."""
    rules = _BrokenMove(chess, "d1h5")
    pos = chess.position_from_text("6k1/8/8/7r/8/8/8/3QK3 w - - 0 1")  # Qxh5 wins the rook
    before = pos.snapshot()
    info = Search(rules).run(pos, now=time.perf_counter, max_depth=3)
    assert info.best in chess.legal_moves(pos) and chess.move_text(pos, info.best) != "d1h5"
    assert info.engine_errors and "made-up engine bug on d1h5" in info.engine_errors[0]
    assert pos.snapshot() == before
    clean = Search(chess).run(pos, now=time.perf_counter, max_depth=3)
    assert chess.move_text(pos, clean.best) == "d1h5" and clean.engine_errors == ()
