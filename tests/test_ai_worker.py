"""The computer thinks in a worker thread: progress and the chosen move arrive as events on a
queue (or a callback) the UI drains; a stop answers at once. No Kivy needed."""

import random
import time

from companion.ai.levels import STRONGEST, ComputerPlayer, parse_level
from companion.ai.worker import MoveFound, SearchFailed, SearchProgressed, SearchStarted, SearchWorker
from companion.games import make_rules


def wait_for(worker, kind, timeout=60.0):
    """Read events until one of ``kind`` (bounded: a hung worker fails the test, not the run;
    the bound is long, for a machine under load: a passing test returns at the event)."""
    got = []
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        got.extend(worker.drain())
        if any(isinstance(e, kind) for e in got):
            return got
        worker.join(0.01)
    raise AssertionError(f"no {kind.__name__} within {timeout} s; got {got}")


def test_worker_reports_start_progress_and_the_move():
    rules = make_rules("chess")
    pos = rules.start_position()
    worker = SearchWorker(now=time.perf_counter)
    req = worker.start(ComputerPlayer(rules, STRONGEST, random.Random(1)), pos, budget=0.3)
    events = wait_for(worker, MoveFound)
    assert isinstance(events[0], SearchStarted) and events[0].request == req
    assert any(isinstance(e, SearchProgressed) for e in events)
    found = [e for e in events if isinstance(e, MoveFound)][0]
    assert found.request == req and found.action in rules.legal_moves(pos)


def test_caller_keeps_using_its_position_while_the_worker_thinks():
    rules = make_rules("chess")
    pos = rules.start_position()
    before = pos.snapshot()
    worker = SearchWorker(now=time.perf_counter)
    worker.start(ComputerPlayer(rules, STRONGEST, random.Random(1)), pos, budget=0.2)
    for _ in range(50):  # the UI thread reads its own position meanwhile
        rules.legal_moves(pos)
    wait_for(worker, MoveFound)
    assert pos.snapshot() == before


def test_stop_answers_at_once_with_the_best_move_so_far():
    rules = make_rules("chess")
    pos = rules.position_from_text("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
    worker = SearchWorker(now=time.perf_counter)
    worker.start(ComputerPlayer(rules, STRONGEST, random.Random(1)), pos, budget=None)  # no limit
    wait_for(worker, SearchProgressed)
    t = time.perf_counter()
    worker.stop(wait=5.0)
    stopped_in = time.perf_counter() - t
    events = wait_for(worker, MoveFound)
    found = [e for e in events if isinstance(e, MoveFound)][0]
    assert found.info.stopped and found.action in rules.legal_moves(pos)
    assert stopped_in < 0.5  # "at once": one node's work, with a wide margin for a busy machine


def test_a_new_request_stops_the_old_one_and_is_numbered():
    rules = make_rules("chess")
    pos = rules.start_position()
    worker = SearchWorker(now=time.perf_counter)
    player = ComputerPlayer(rules, STRONGEST, random.Random(1))
    first = worker.start(player, pos, budget=None)
    second = worker.start(player, pos, budget=0.1)
    assert second == first + 1
    events = []
    while not any(isinstance(e, MoveFound) and e.request == second for e in events):
        events.extend(wait_for(worker, MoveFound))
    assert any(isinstance(e, MoveFound) and e.request == first for e in events)


def test_events_can_go_to_a_callback_instead_of_the_queue():
    rules = make_rules("chess")
    got = []
    worker = SearchWorker(now=time.perf_counter, deliver=got.append)
    worker.start(ComputerPlayer(rules, parse_level("2"), random.Random(3)), rules.start_position(), budget=0.2)
    worker.join(10.0)
    assert isinstance(got[0], SearchStarted) and isinstance(got[-1], MoveFound)
    assert worker.drain() == []


def test_a_failing_search_is_reported_not_swallowed():
    class Broken:
        def choose(self, pos, **kw):
            raise RuntimeError("evaluation table missing")

    rules = make_rules("chess")
    worker = SearchWorker(now=time.perf_counter)
    worker.start(Broken(), rules.start_position(), budget=0.1)
    events = wait_for(worker, SearchFailed)
    assert "evaluation table missing" in events[-1].error
