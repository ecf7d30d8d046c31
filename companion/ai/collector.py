"""Keep Python's cyclic garbage collector out of the computer's thinking time (an edge helper).

A full collection walks every tracked object the process holds: with the search's tables
grown, one took 40-65 ms in a Combat Chess match, inside a 200 ms move (measured with
``gc.callbacks``: searches of 240 ms of processor time for a 200 ms budget). Callers that run
a timed search (the app's worker thread, ``ai-match``, the Stockfish match) wrap it in
:func:`collector_paused`: automatic collections wait until the search has answered and
happen in the opponent's time. Reference counting still frees almost everything at once; only
cyclic garbage waits, and a search creates little of it.

Leaving the pause has a cost of its own: the allocation counters kept counting, so the first
allocation after it starts a collection of everything the search allocated and still holds
(its table entries: 30 ms for 400,000 young objects measured here, more with a full collection
late in a long game). So callers hand the move on *inside* the pause: the worker delivers it
and the match drivers read the clock before leaving (ai-match measured 270-281 ms for 200 ms
moves in games of 241 and 477 plies while timing after it).
"""

from __future__ import annotations

import gc
import threading
from contextlib import contextmanager

_lock = threading.Lock()
_paused = 0                 # pausers inside collector_paused() right now
_was_enabled = True         # whether the collector was on when the first of them came in


@contextmanager
def collector_paused():
    """Pause automatic collections for the duration (nested and thread-safe: the collector
    comes back on when the last pauser leaves, if it was on before the first)."""
    global _paused, _was_enabled
    with _lock:
        if _paused == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _paused += 1
    try:
        yield
    finally:
        with _lock:
            _paused -= 1
            if _paused == 0 and _was_enabled:
                gc.enable()
