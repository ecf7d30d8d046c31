"""The app's heap: the memory glibc keeps after it is freed, handed back to the system.

glibc's allocator keeps freed memory in the process (its trim threshold grows with the largest
block freed), so what a burst of work allocated and freed stays resident until
``malloc_trim`` returns it. Two bursts leave most of it in this app (docs/performance.md,
"Memory"): the first frames of a screen, where Mesa's software renderer (llvmpipe, under Xvfb)
compiles its shaders on the main thread, and building a screen with its ``.kv`` rules. So the
heap is trimmed :data:`TRIM_AFTER_TICKS` pump ticks after the window or a screen is first built
(its first frames drawn by then), and again, after a garbage collection, whenever the main
loop goes to rest (companion/app/pacing.py). A trim alone takes under half a millisecond here
and runs only after a screen is built for the first time; the collection (about 0.1 s of
processor time here) only at rest, where nobody is waiting for a frame.

Where there is no glibc (no ``malloc_trim``) the trims do nothing and the rest only collects;
the app says so once in its log. :class:`HeapTrim` is plain Python: the shell (shell.py) tells
it what happened, a test hands it a fake libc.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import logging
from typing import Callable

log = logging.getLogger("companion.heap")

#: Pump ticks (30 a second, shell.PUMP_HZ) from a screen built to the trim: the screen's first
#: frames (and the textures its labels make on their first frame) are drawn by then.
TRIM_AFTER_TICKS = 3


def glibc():
    """The C library if it is glibc (it has ``malloc_trim``), else None with one line in the log."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
    except OSError:
        libc = None
    if libc is None or not hasattr(libc, "malloc_trim"):
        log.info("no glibc malloc_trim here: freed memory is left to the C library")
        return None
    return libc


class HeapTrim:
    """When the heap's free memory goes back to the system: ``built()`` when the window or a
    screen has been built for the first time (trimmed ``after_ticks`` pumps later), ``pumped()``
    after every pump (on going to rest: collect, then trim). ``libc`` None: only the collection."""

    def __init__(self, libc=None, collect: Callable[[], object] = gc.collect,
                 after_ticks: int = TRIM_AFTER_TICKS) -> None:
        self.libc = libc
        self.collect = collect
        self.after_ticks = after_ticks
        self._ticks_left: int | None = None
        self.trims = 0

    def built(self) -> None:
        self._ticks_left = self.after_ticks  # a second build before the trim moves it on

    def pumped(self, went_to_rest: bool) -> None:
        """After every pump; ``went_to_rest``: the main loop has just dropped to its rest rate."""
        if went_to_rest:
            self.collect()
            self._ticks_left = None
            self.trim()
        elif self._ticks_left is not None:
            self._ticks_left -= 1
            if self._ticks_left <= 0:
                self._ticks_left = None
                self.trim()

    def trim(self) -> None:
        if self.libc is not None:
            self.libc.malloc_trim(0)
            self.trims += 1
