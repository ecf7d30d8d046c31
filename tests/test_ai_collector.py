"""The garbage collector is paused while the computer thinks (its full collections took
40-65 ms inside 200 ms moves) and comes back afterwards, also after an error."""

import gc
import threading

import pytest

from companion.ai.collector import collector_paused


def test_paused_inside_and_restored_after():
    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
        with collector_paused():  # nested: still paused when the inner one leaves
            pass
        assert not gc.isenabled()
    assert gc.isenabled()


def test_restored_after_an_error():
    with pytest.raises(RuntimeError):
        with collector_paused():
            raise RuntimeError("search failed")
    assert gc.isenabled()


def test_left_off_if_it_was_off_before():
    gc.disable()
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_two_threads_overlapping():
    """The collector comes back only when the last of two overlapping pausers leaves."""
    inside, release = threading.Event(), threading.Event()

    def other():
        with collector_paused():
            inside.set()
            release.wait(5)

    t = threading.Thread(target=other)
    with collector_paused():
        t.start()
        assert inside.wait(5)
    assert not gc.isenabled()  # the other thread still thinks
    release.set()
    t.join(5)
    assert gc.isenabled()


def test_the_worker_thinks_with_the_collector_paused():
    import time

    from companion.ai.levels import parse_level, ComputerPlayer
    from companion.ai.worker import MoveFound, SearchWorker
    from companion.games import make_rules
    import random

    seen = []

    class Probe(ComputerPlayer):
        def choose(self, pos, **kw):
            seen.append(gc.isenabled())
            return super().choose(pos, **kw)

    rules = make_rules("chess")
    worker = SearchWorker(now=time.perf_counter)
    worker.start(Probe(rules, parse_level("2"), random.Random(1)), rules.start_position(), budget=None, max_nodes=200)
    worker.join(10)
    assert any(isinstance(e, MoveFound) for e in worker.drain())
    assert seen == [False] and gc.isenabled()


def test_tables_are_emptied_between_moves_not_inside_a_search():
    """The search never empties its tables mid-search (freeing 300,000 entries takes tens of
    milliseconds); trim() does it between moves once they outgrow their limits, and the
    evaluator's cache stops growing at its limit instead of being cleared mid-search."""
    import time

    from companion.ai import evaluate
    from companion.ai.search import Search, SearchOptions
    from companion.games import make_rules

    rules = make_rules("chess")
    search = Search(rules, options=SearchOptions(tt_limit=50))
    pos = rules.start_position()
    search.run(pos, now=time.perf_counter, max_nodes=3000)
    assert len(search.tt) > 50  # grown past the limit inside the search: kept until trim()
    search.trim()
    assert search.tt == {}
    ev = search.ev
    old = evaluate._CACHE_LIMIT
    evaluate._CACHE_LIMIT = 10
    try:
        ev._cache = {}
        search.run(pos, now=time.perf_counter, max_nodes=500)
        assert len(ev._cache) == 10  # full: no more entries, nothing cleared
        ev.trim()
        assert ev._cache == {}
    finally:
        evaluate._CACHE_LIMIT = old


def test_leaving_the_pause_costs_a_collection_so_the_move_goes_out_before_it():
    """Leaving the pause lets the collector catch up on what was allocated inside (measured:
    ai-match moves of 270-281 ms for 200 ms late in long games when the clock was read after
    it). The worker delivers the move, and the match reads the clock, while still paused."""
    import random
    import time

    from companion.ai.levels import parse_level, ComputerPlayer
    from companion.ai.match import play_game
    from companion.ai.worker import MoveFound, SearchWorker
    from companion.games import make_rules

    rules = make_rules("chess")
    delivered = []

    def deliver(event):
        if isinstance(event, MoveFound):
            delivered.append(gc.isenabled())

    worker = SearchWorker(now=time.perf_counter, deliver=deliver)
    worker.start(ComputerPlayer(rules, parse_level("2"), random.Random(1)), rules.start_position(),
                 budget=None, max_nodes=200)
    worker.join(10)
    assert delivered == [False] and gc.isenabled()

    readings = []

    def now():
        readings.append(gc.isenabled())
        return time.perf_counter()

    class OwnClock(ComputerPlayer):  # the search reads its own clock: only the match reads `now`
        def choose(self, pos, *, now, **kw):
            return super().choose(pos, now=time.perf_counter, **kw)

    players = {s: OwnClock(rules, parse_level("2"), random.Random(s)) for s in range(2)}
    play_game(rules, players, random.Random(0), now=now, budget=None, max_nodes=100, max_plies=2)
    # per move the match reads the clock before the pause and again inside it, once answered
    assert readings.count(False) == 2
