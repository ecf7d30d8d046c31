"""The app's heap (companion/app/heap.py): glibc's free memory handed back after the window or a
screen is first built (its first frames drawn) and on going to rest, and what lives for the run
frozen out of the collector's walk, with a fake libc and a fake gc. The figures are the bench's
(``companion bench --only app`` and ``--only lichess``, docs/performance.md)."""

import logging

from companion.app import heap
from companion.app.heap import TRIM_AFTER_TICKS, HeapTrim


class FakeLibc:
    def __init__(self, log: list[str]) -> None:
        self.log = log
        self.trims: list[int] = []

    def malloc_trim(self, pad: int) -> int:
        self.trims.append(pad)
        self.log.append("trim")
        return 1


class FakeGC:
    """The gc module's three calls the heap uses, in one log with the trims."""

    def __init__(self, log: list[str]) -> None:
        self.log = log

    def collect(self) -> int:
        self.log.append("collect")
        return 0

    def freeze(self) -> None:
        self.log.append("freeze")

    def unfreeze(self) -> None:
        self.log.append("unfreeze")


def trimmer(libc: bool = True):
    log: list[str] = []
    return HeapTrim(FakeLibc(log) if libc else None, collector=FakeGC(log)), log


def settle(h: HeapTrim, ticks: int = TRIM_AFTER_TICKS + 2) -> None:
    for _ in range(ticks):
        h.pumped(went_to_rest=False)


def started(h: HeapTrim, log: list[str]) -> None:
    """The window built and drawn: frozen whole (tested below); the log cleared."""
    h.built()
    settle(h)
    log.clear()


def test_the_window_is_collected_whole_and_frozen_once_its_first_frames_are_drawn():
    """What is left after a full collection then lives for the run (Kivy, the modules, the
    window): frozen, the collector's later runs skip it. Collected before it is frozen (frozen
    garbage is never freed); the trim last, once the garbage has been freed."""
    h, log = trimmer()
    h.built()
    settle(h, TRIM_AFTER_TICKS - 1)
    assert log == []
    h.pumped(went_to_rest=False)
    assert log == ["unfreeze", "collect", "freeze", "trim"]
    settle(h, 10)
    assert log == ["unfreeze", "collect", "freeze", "trim"] and h.freezes == 1


def test_a_built_screen_is_trimmed_after_its_first_frames_not_collected():
    h, log = trimmer()
    started(h, log)
    h.built()
    settle(h, TRIM_AFTER_TICKS - 1)
    assert log == []
    h.pumped(went_to_rest=False)
    assert log == ["trim"], "a trim alone: no collection while a player may wait"
    settle(h, 10)
    assert log == ["trim"], "once per build"


def test_a_second_build_before_the_trim_moves_it_on():
    h, log = trimmer()
    started(h, log)
    h.built()
    h.pumped(went_to_rest=False)
    h.built()  # the setup screen, then the game screen at once
    settle(h, TRIM_AFTER_TICKS - 1)
    assert log == []
    h.pumped(went_to_rest=False)
    assert log == ["trim"]


def test_the_first_rest_after_a_screen_is_built_collects_what_is_not_frozen_then_freezes_it():
    """The game screen, built when the first game starts, lives for the run too: frozen at the
    next rest, collected first; no unfreeze: the full walk is not repeated."""
    h, log = trimmer()
    started(h, log)
    h.built()
    h.pumped(went_to_rest=True)
    assert log == ["collect", "freeze", "trim"], "and the pending trim taken with it"
    settle(h)
    assert log == ["collect", "freeze", "trim"]
    assert h.freezes == 2 and len(h.rest_collections) == 1


def test_the_other_rests_only_collect_what_is_not_frozen():
    h, log = trimmer()
    started(h, log)
    for _ in range(3):  # a game played: active, then at rest, again and again
        h.pumped(went_to_rest=True)
        settle(h)
    assert log == ["collect", "trim"] * 3
    assert h.freezes == 1 and len(h.rest_collections) == 3


def test_a_rest_before_the_window_was_frozen_collects_everything_and_freezes():
    h, log = trimmer()
    h.pumped(went_to_rest=True)
    assert log == ["unfreeze", "collect", "freeze", "trim"]
    h.pumped(went_to_rest=True)
    assert log[4:] == ["collect", "trim"]


def test_screens_replaced_are_freed_at_the_next_rest_unfrozen_then_frozen_again():
    """A change of language drops every built screen (frozen: garbage only the collector frees,
    once unfrozen) and builds them again."""
    h, log = trimmer()
    started(h, log)
    h.replaced()
    h.built()
    settle(h)
    assert log == ["trim"], "nothing collected while the player chooses"
    h.pumped(went_to_rest=True)
    assert log == ["trim", "unfreeze", "collect", "freeze", "trim"]
    h.pumped(went_to_rest=True)
    assert log[5:] == ["collect", "trim"]


def test_each_rest_collection_is_timed_in_processor_time():
    log: list[str] = []
    ticks = iter([1.0, 1.25, 2.0, 2.01])
    h = HeapTrim(None, collector=FakeGC(log), cpu=lambda: next(ticks))
    h.pumped(went_to_rest=True)
    settle(h)
    h.pumped(went_to_rest=True)
    assert list(h.rest_collections) == [0.25, 2.01 - 2.0]


def test_without_glibc_only_the_collection_runs():
    h, log = trimmer(libc=False)
    h.built()
    settle(h)
    h.built()
    h.pumped(went_to_rest=True)
    assert log == ["unfreeze", "collect", "freeze", "collect", "freeze"] and h.trims == 0


def test_with_the_real_collector_frozen_garbage_is_freed_once_screens_are_replaced():
    """gc itself: a cycle alive when the window is frozen; once dropped, the rests leave it
    (frozen), and the rest after screens were replaced frees it (unfrozen first)."""
    import gc
    import weakref

    class Node:
        pass

    quiet = gc.get_freeze_count() > 0  # the quick loop's own freeze (conftest.py): put back after
    h = HeapTrim(None)
    try:
        node = Node()
        node.me = node  # a cycle: only the collector frees it
        gone = weakref.ref(node)
        started(h, [])
        assert gc.get_freeze_count() > 0
        del node
        h.built()
        h.pumped(went_to_rest=True)
        assert gone() is not None, "frozen: neither the rests nor a new screen's freeze walk it"
        h.replaced()
        h.pumped(went_to_rest=True)
        assert gone() is None, "unfrozen and collected before the next freeze"
    finally:
        gc.unfreeze()
        if quiet:
            gc.collect()
            gc.freeze()


def test_a_c_library_without_malloc_trim_is_said_once_in_the_log(monkeypatch, caplog):
    monkeypatch.setattr(heap.ctypes, "CDLL", lambda name: object())  # musl, say: no malloc_trim
    with caplog.at_level(logging.INFO, logger="companion.heap"):
        assert heap.glibc() is None
    assert [r.getMessage() for r in caplog.records] == ["no glibc malloc_trim here: freed memory is left to the C library"]


def test_glibc_here_has_malloc_trim():
    assert heap.glibc() is not None  # the development machine and the Pi's Debian are glibc


def test_the_app_without_a_link_loads_no_cryptography():
    """The link room imports its channel when a link starts: cryptography's Rust library and
    SPAKE2 (8 MB resident) are not in a game without one. A fresh process: what it imports is
    the point; the presenters built as the app builds them."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    code = ("import sys, tempfile\n"
            "from pathlib import Path\n"
            "from companion.app import bootstrap\n"
            "flow = bootstrap.build_flow_for(data=Path(tempfile.mkdtemp()))\n"
            "bootstrap.build_presenters(flow)\n"
            "print(' '.join(m for m in ('cryptography', 'spake2', 'companion.link.channel') if m in sys.modules))\n")
    r = subprocess.run([sys.executable, "-c", code], cwd=Path(__file__).resolve().parent.parent,
                       capture_output=True, text=True, env={**os.environ, "KIVY_NO_ARGS": "1"})
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.split() == [], f"loaded without a link: {r.stdout.strip()}"
