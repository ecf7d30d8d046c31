"""The app's heap: the memory glibc keeps after it is freed, handed back to the system.

glibc's allocator keeps freed memory in the process (its trim threshold grows with the largest
block freed), so what a burst of work allocated and freed stays resident until
``malloc_trim`` returns it. Two bursts leave most of it in this app (docs/performance.md,
"Memory"): the first frames of a screen, where Mesa's software renderer (llvmpipe, under Xvfb)
compiles its shaders on the main thread, and building a screen with its ``.kv`` rules. So the
heap is trimmed :data:`TRIM_AFTER_TICKS` pump ticks after the window or a screen is first built
(its first frames drawn by then), and again, after a garbage collection, whenever the main
loop goes to rest (companion/app/pacing.py). A trim alone takes under half a millisecond here
and runs only after a screen is built for the first time; the collection at rest. A full
collection walks every object the app is made of (50-100 ms of processor time here, 0.5-1 s on
a Pi, and a touch or a board event that comes in that moment waits for it), so what the app is
made of is frozen (``gc.freeze``) once the window's first frames are drawn, and the rests
collect only what was made since (docs/performance.md, "The collection at rest").

Where there is no glibc (no ``malloc_trim``) the trims do nothing and the rest only collects;
the app says so once in its log. :class:`HeapTrim` is plain Python: the shell (shell.py) tells
it what happened, a test hands it a fake libc and a fake ``gc``.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import logging
import time
from collections import deque
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
    """When the heap's free memory goes back to the system, and when Python's collector sets
    aside what lives for the whole run: ``built()`` when the window or a screen has been built
    for the first time (trimmed ``after_ticks`` pumps later), ``replaced()`` when built screens
    were dropped (a change of language builds them again), ``pumped()`` after every pump (on
    going to rest: collect, then trim). ``libc`` None: only the collection. ``collector`` is the
    ``gc`` module (a test hands it a fake): ``collect()``, ``freeze()``, ``unfreeze()``.

    What the collector walks is mostly long-lived (Kivy, the modules, the screens built once
    and kept), so it is frozen (``gc.freeze``: later collections, at rest or the collector's
    own, skip it), always right after a collection (frozen garbage is never freed):

    * everything, once the window's first frames are drawn (the trim after the first build);
    * what is not frozen yet, at the first rest after a screen was built for the first time;
    * at rest otherwise only what is not frozen is collected.

    What was frozen and has died since in a reference cycle stays until ``replaced()``: its
    rest unfreezes and collects everything. The freezes are few (each follows a screen's first
    build, and there are ``shell.SCREENS`` of them), but what one catches is whatever lives at
    that moment: an object alive then that later dies in a cycle waits for ``replaced()``
    (measured after a chess game: 7 such of 152,481 frozen; docs/performance.md)."""

    def __init__(self, libc=None, collector=gc, after_ticks: int = TRIM_AFTER_TICKS,
                 cpu: Callable[[], float] = time.thread_time) -> None:
        self.libc = libc
        self.collector = collector
        self.after_ticks = after_ticks
        self.cpu = cpu
        self._ticks_left: int | None = None
        self._freeze_due = False
        self._renew_due = True  # nothing frozen yet: the first freeze takes everything
        self.trims = 0
        self.freezes = 0
        #: The main thread's processor time of the last rest collections (seconds; the bench's
        #: figure: a touch that comes in that moment waits for it).
        self.rest_collections: deque[float] = deque(maxlen=32)
        self.first_collection: float | None = None  # the window's, the one full walk (seconds)

    def built(self) -> None:
        self._ticks_left = self.after_ticks  # a second build before the trim moves it on
        self._freeze_due = True

    def replaced(self) -> None:
        self._renew_due = True

    def pumped(self, went_to_rest: bool) -> None:
        """After every pump; ``went_to_rest``: the main loop has just dropped to its rest rate."""
        if went_to_rest:
            t0 = self.cpu()
            self.collect(freeze=self._freeze_due or self._renew_due)
            self.rest_collections.append(self.cpu() - t0)
            self._ticks_left = None
            self.trim()
        elif self._ticks_left is not None:
            self._ticks_left -= 1
            if self._ticks_left <= 0:
                self._ticks_left = None
                if self._renew_due and not self.freezes:  # the window's first frames drawn
                    t0 = self.cpu()
                    self.collect(freeze=True)
                    self.first_collection = self.cpu() - t0
                self.trim()

    def collect(self, freeze: bool) -> None:
        c = self.collector
        if self._renew_due:
            c.unfreeze()
        c.collect()
        if freeze:
            c.freeze()
            self.freezes += 1
            self._freeze_due = self._renew_due = False

    def trim(self) -> None:
        if self.libc is not None:
            self.libc.malloc_trim(0)
            self.trims += 1
