"""The computer thinks in a worker thread; the UI thread only drains events.

This is an edge adapter (the search itself knows nothing about threads): it copies the
position, runs a player's ``choose`` in a daemon thread with a stop flag, and hands back
events, each tagged with the request number so a late answer to a cancelled request can be
ignored:

* :class:`SearchStarted` when the thread begins (show the "thinking" indicator),
* :class:`SearchProgressed` after each finished iteration (depth, score, principal variation),
* :class:`MoveFound` with the chosen action (hide the indicator, light the move),
* :class:`SearchFailed` if the search raised (a bug: the message is shown and logged).

Events go to ``deliver`` if given (called from the worker thread: it must only enqueue), or
else to :attr:`SearchWorker.events`, a ``queue.Queue`` the UI drains on its clock
(``Clock.schedule_interval(lambda dt: handle(worker.drain()), 1/30)`` in Kivy).
"""

from __future__ import annotations

import queue
import sys
import threading
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Callable

from .collector import collector_paused
from .search import SearchInfo


@dataclass(frozen=True)
class SearchStarted:
    request: int


@dataclass(frozen=True)
class SearchProgressed:
    request: int
    info: SearchInfo


@dataclass(frozen=True)
class MoveFound:
    request: int
    info: SearchInfo

    @property
    def action(self):
        return self.info.best


@dataclass(frozen=True)
class SearchFailed:
    request: int
    error: str


#: the interpreter's thread switch interval while a background job runs (seconds). Python's
#: default, 5 ms, lets a searching thread hold the interpreter that long before the UI thread
#: gets it back: a sensor event then waits up to 5 ms for its LEDs. At 0.5 ms the UI thread
#: waits at most that (``companion bench --only coach`` measures it).
SWITCH_SECONDS = 0.0005
_switch_lock = threading.Lock()
_switch_users = 0
_switch_before = 0.005


@contextmanager
def quick_switching():
    """A short thread switch interval while the block runs (nested and thread-safe: the old
    interval comes back when the last user leaves)."""
    global _switch_users, _switch_before
    with _switch_lock:
        if _switch_users == 0:
            _switch_before = sys.getswitchinterval()
            sys.setswitchinterval(min(_switch_before, SWITCH_SECONDS))
        _switch_users += 1
    try:
        yield
    finally:
        with _switch_lock:
            _switch_users -= 1
            if _switch_users == 0:
                sys.setswitchinterval(_switch_before)


class _Background:
    """One job at a time in a daemon thread, its events tagged with a request number."""

    def __init__(self, now: Callable[[], float], deliver: Callable[[object], None] | None = None):
        self.now = now
        self.events: "queue.Queue[object]" = queue.Queue()
        self._deliver = deliver or self.events.put
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._request = 0

    @property
    def busy(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def _begin(self, name: str, job: Callable[[int, threading.Event], None], wait: float) -> int:
        """Stop a running job (waiting up to ``wait`` s), then run ``job(request, stop)``."""
        if self.busy:
            self.stop(wait=wait)
        self._request += 1
        request = self._request
        self._stop = stop = threading.Event()

        def run() -> None:
            with quick_switching():
                job(request, stop)

        self._thread = threading.Thread(target=run, name=f"{name}-{request}", daemon=True)
        self._thread.start()
        return request

    def stop(self, wait: float | None = None) -> None:
        """Ask the job to end now (a search answers with its best move so far)."""
        self._stop.set()
        if wait is not None and self._thread is not None:
            self._thread.join(wait)

    def join(self, timeout: float | None = None) -> None:
        if self._thread is not None:
            self._thread.join(timeout)

    def drain(self) -> list[object]:
        """Every event waiting, without blocking (for the UI's clock callback)."""
        out = []
        while True:
            try:
                out.append(self.events.get_nowait())
            except queue.Empty:
                return out


class SearchWorker(_Background):
    """One background search at a time for one seat (or one per seat), or the coach's hint."""

    def start(self, player, pos, budget: float | None, max_nodes: int | None = None) -> int:
        """Begin thinking about ``pos`` (copied now, so the caller may go on using it).
        A search still running is stopped first. Returns the request number."""
        snapshot = pos.copy()

        def work(request: int, stop: threading.Event) -> None:
            self._deliver(SearchStarted(request))
            try:
                with collector_paused():  # no 50 ms full collection inside the move time
                    info = player.choose(
                        snapshot, now=self.now, budget=budget, stop=stop.is_set, max_nodes=max_nodes,
                        on_progress=lambda i: self._deliver(SearchProgressed(request, i)),
                    )
                    # delivered before the pause ends: leaving it lets the collector catch up on
                    # what the search allocated (tens of ms late in a long game), after the move
                    self._deliver(MoveFound(request, info))
            except Exception as e:  # reported to the UI, never swallowed
                self._deliver(SearchFailed(request, f"{type(e).__name__}: {e}"))
                return
            trim = getattr(player, "trim", None)
            if trim is not None:  # the move is out: tidy the tables now, not in the next move's time
                trim()

        return self._begin("ai-search", work, 5.0)


@dataclass(frozen=True)
class ReviewProgressed:
    request: int
    done: int
    total: int
    move: object              # the companion.ai.analysis.MoveReview just finished


@dataclass(frozen=True)
class ReviewFinished:
    request: int
    review: object            # the companion.ai.analysis.GameReview


class ReviewWorker(_Background):
    """A finished game's review (companion.ai.analysis.review_game) in a daemon thread: events
    ``SearchStarted``, ``ReviewProgressed`` after each move, then ``ReviewFinished`` (or
    ``SearchFailed``), each with its request number, to ``deliver`` or the :attr:`events` queue.
    ``stop()`` ends the review early: ``ReviewFinished`` then carries what was reviewed
    (``complete`` False). The analyser is closed at the end when it has ``close`` (Stockfish's
    process)."""

    def start(self, rules, actions, analyser, *, position=None, budget: float | None = 1.0,
              max_nodes: int | None = None) -> int:
        from .analysis import review_game

        start = position.copy() if position is not None else None
        actions = list(actions)

        def work(request: int, stop: threading.Event) -> None:
            self._deliver(SearchStarted(request))
            try:
                with collector_paused():
                    review = review_game(rules, actions, analyser=analyser, now=self.now, position=start,
                                         budget=budget, max_nodes=max_nodes, stop=stop.is_set,
                                         on_progress=lambda d, t, m: self._deliver(ReviewProgressed(request, d, t, m)))
                self._deliver(ReviewFinished(request, review))
            except Exception as e:  # reported to the UI, never swallowed
                self._deliver(SearchFailed(request, f"{type(e).__name__}: {e}"))
            finally:
                close = getattr(analyser, "close", None)
                if close is not None:
                    close()

        return self._begin("ai-review", work, 10.0)
