"""Issue 30's search: the null move as one undo step, pruning that finds what the full-width
search finds, the levels below the strongest left full width, the check shortcut exact in chess."""

import random
import time

import pytest

from companion.ai.eval_table import table_with
from companion.ai.evaluate import Evaluator
from companion.ai.levels import LEVELS, STRONGEST
from companion.ai.search import Search, SearchOptions
from companion.games import make_rules
from tests.test_ai_search import random_positions

TACTICS = [
    ("7k/8/5K2/8/8/8/8/6R1 w - - 0 1", "f6f7", 5),                 # the only mate in two
    ("r3k3/8/8/1N6/8/8/8/4K3 w - - 0 1", "b5c7", 4),               # a knight fork wins the rook
    ("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4", "h5f7", 3),  # mate
    ("4k3/8/8/3q4/8/8/1n1R4/4K3 w - - 0 1", "d2d5", 4),            # the queen, not the knight
]


@pytest.fixture(scope="module")
def chess():
    return make_rules("chess")


def test_the_null_move_is_one_undo_step_and_clears_en_passant(chess):
    pos = chess.position_from_text("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1")
    assert pos.var("ep") is not None
    before = pos.snapshot()
    search = Search(chess)
    search._prepare(pos, pos.turn, time.perf_counter, None, None, None, 0.0)
    search._null_move()
    assert pos.turn == 0 and pos.var("ep") is None and pos.depth == 1
    assert all(m.special != "ep" for m in chess.legal_moves(pos))
    chess.undo(pos)
    assert pos.snapshot() == before


@pytest.mark.parametrize("fen,best,depth", TACTICS)
def test_the_pruned_search_finds_what_the_full_width_search_finds(chess, fen, best, depth):
    for options in (SearchOptions(), SearchOptions(pruning=False, aspiration=0.0)):
        pos = chess.position_from_text(fen)
        info = Search(chess, options=options).run(pos, now=time.perf_counter, max_depth=depth)
        assert chess.move_text(pos, info.best) == best, options


def test_pruning_searches_fewer_nodes_to_the_same_depth(chess):
    pos = chess.position_from_text("r2q1rk1/pp2bppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R2Q1RK1 w - - 0 10")
    # depth 4 (4,030 nodes against 13,447) says it as well as depth 5 did (12,037 against 29,371)
    pruned = Search(chess).run(pos, now=time.perf_counter, max_depth=4)
    full = Search(chess, options=SearchOptions(pruning=False, aspiration=0.0)).run(pos, now=time.perf_counter,
                                                                                   max_depth=4)
    assert pruned.depth == full.depth == 4 and pruned.nodes < full.nodes / 2


def test_a_table_without_the_null_move_never_passes(chess, monkeypatch):
    passes = []
    monkeypatch.setattr(Search, "_null_move", lambda self: passes.append(1) or Search._pass_to(self, 1 - self.pos.turn))
    pos = chess.position_from_text("r2q1rk1/pp2bppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R2Q1RK1 w - - 0 10")
    Search(chess).run(pos, now=time.perf_counter, max_depth=4)  # (25 passes at depth 4, 58 at 5)
    assert passes
    passes.clear()
    ev = Evaluator(chess, table_with("chess", {"null_move": False}))
    Search(chess, ev).run(pos, now=time.perf_counter, max_depth=4)
    assert not passes


def test_the_levels_below_the_strongest_keep_their_full_width_search():
    assert STRONGEST.search_options().pruning
    assert not any(lv.search_options().pruning for lv in LEVELS if not lv.is_strongest)


def test_a_quiet_move_off_every_line_to_the_enemy_king_never_checks_in_chess(chess):
    """The pruning asks the engine whether a quiet move checks only for moves to or from a
    square on a line or a knight's jump from the enemy King (Evaluator.lines): exact in chess
    but for castling and en passant (a rook's or a discovered check), checked here over random
    positions."""
    ev = Evaluator(chess)
    checked = 0
    for pos in random_positions(chess, 40, seed=4, plies=(6, 50)):
        (king,) = pos.royals[1 - pos.turn]
        near = ev.lines[king]
        for m in chess.legal_moves(pos):
            if m.capture is not None or m.promotion or m.special in ("castle", "ep"):
                continue
            chess.apply(pos, m)
            gives = chess.in_check(pos)
            chess.undo(pos)
            if gives:
                checked += 1
                assert m.to in near or m.frm in near, chess.move_text(pos, m)
    assert checked > 10


def test_lazy_evaluation_is_the_full_one_inside_the_window_and_near_it_outside(chess):
    # White a queen up: the score without the live terms is far above a window around 0, and
    # the lazy value is then that score (within the live terms' reach of the full one); in a
    # window around the position's own score it is the full evaluation, exactly
    pos = chess.position_from_text("r1b1kb1r/pppp1ppp/2n2n2/4p3/4P3/2N2N2/PPPPQPPP/R1B1KB1R w KQkq - 0 5")
    full = Evaluator(chess).evaluate(pos, 0)
    assert full > 700
    lazy = Evaluator(chess)
    outside = lazy.evaluate_lazy(pos, 0, -50.0, 50.0, 120.0)
    assert outside != full and abs(outside - full) < 120
    assert pos.hash not in lazy._cache  # a lazy value is never cached as the position's score
    assert lazy.evaluate_lazy(pos, 0, full - 50, full + 50, 120.0) == full
    assert lazy.evaluate_lazy(pos, 0, -50.0, 50.0, 0.0) == full  # margin 0: always the full one
    assert Evaluator(chess).evaluate_lazy(pos, 1, -50.0, 50.0, 120.0) == -outside


@pytest.mark.parametrize("fen,best,depth", TACTICS)
def test_the_lazy_capture_search_finds_what_the_full_evaluation_finds(chess, fen, best, depth):
    pos = chess.position_from_text(fen)
    info = Search(chess, options=SearchOptions(lazy=0.0)).run(pos, now=time.perf_counter, max_depth=depth)
    lazy = Search(chess).run(pos, now=time.perf_counter, max_depth=depth)
    assert chess.move_text(pos, info.best) == chess.move_text(pos, lazy.best) == best


def test_a_quiet_move_that_refuted_a_move_is_tried_early_after_that_move_again(chess):
    pos = chess.position_from_text("r2q1rk1/pp2bppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R2Q1RK1 w - - 0 10")
    search = Search(chess)
    search.run(pos, now=time.perf_counter, max_depth=4)
    assert search.counters  # refutations were recorded by the move they answered
    (frm, to), reply = next(iter(search.counters.items()))
    assert reply.frm != reply.to and frm != to
    moves = chess.legal_moves(pos)
    quiet = [m for m in moves if m.capture is None and not m.promotion]
    search.killers = [[] for _ in range(160)]
    search.history = {}
    ordered = search._order(quiet, None, 3, True, quiet[-1])
    assert ordered[0] == quiet[-1]  # the counter move first among quiet moves (no killers, no history)


@pytest.mark.parametrize("game", ["chess", "combat"])
def test_reading_a_check_from_the_attack_tables_agrees_with_playing_the_move(game):
    rules = make_rules(game)
    search = Search(rules)
    assert search._check_tables is not None
    rng = random.Random(5)
    checks = answered = 0
    for _ in range(12):
        pos = rules.start_position()
        for _ in range(60):
            if pos.pending is not None:
                if pos.pending.chance:
                    rules.apply(pos, rng.choice(rules.chance_outcomes(pos)).answer)
                else:
                    rules.apply(pos, rng.choice(list(rules.answers(pos))))
                continue
            moves = rules.legal_moves(pos)
            if not moves or rules.outcome(pos) is not None:
                break
            search.pos = pos
            for m in moves:
                if m.capture is not None or m.promotion:
                    continue
                said = search._gives_check(m)
                rules.apply(pos, m)
                played = rules.in_check(pos)
                rules.undo(pos)
                if said is not None:
                    answered += 1
                    checks += played
                    assert said == played, (rules.position_text(pos) if hasattr(rules, "position_text") else pos, m)
            rules.apply(pos, rng.choice(moves))
    assert answered > 1000 and checks > 20  # discovered and direct checks among them


def test_a_game_with_its_own_attack_test_plays_the_move_to_see_a_check():
    assert Search(make_rules("dungeon"))._check_tables is None
