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


def test_a_built_screen_is_trimmed_after_its_first_frames_not_before():
    h, log = trimmer()
    h.built()
    settle(h, TRIM_AFTER_TICKS - 1)
    assert log == []
    h.pumped(went_to_rest=False)
    assert log == ["trim"], "a trim alone: no collection while a player may wait"
    settle(h, 10)
    assert log == ["trim"], "once per build"


def test_a_second_build_before_the_trim_moves_it_on():
    h, log = trimmer()
    h.built()
    h.pumped(went_to_rest=False)
    h.built()  # the setup screen, then the game screen at once
    settle(h, TRIM_AFTER_TICKS - 1)
    assert log == []
    h.pumped(went_to_rest=False)
    assert log == ["trim"]


def test_the_first_rest_after_a_build_collects_everything_then_freezes_then_trims():
    """What is left after a full collection lives for the run (Kivy, the modules, the screens
    built once): frozen, the collector's later runs skip it. Collected before it is frozen
    (frozen garbage is never freed), and unfrozen first, so what was frozen and has died since
    is freed too; the trim last, once the garbage has been freed."""
    h, log = trimmer()
    h.built()
    h.pumped(went_to_rest=True)
    assert log == ["unfreeze", "collect", "freeze", "trim"], "and the pending trim taken with it"
    settle(h)
    assert log == ["unfreeze", "collect", "freeze", "trim"]
    assert h.freezes == 1 and len(h.rest_collections) == 1


def test_the_rests_after_it_collect_only_what_is_not_frozen():
    h, log = trimmer()
    h.built()
    h.pumped(went_to_rest=True)
    log.clear()
    for _ in range(3):  # a game played: active, then at rest, again and again
        settle(h)
        h.pumped(went_to_rest=True)
    assert log == ["collect", "trim"] * 3, "no unfreeze: the full walk is not repeated"
    assert h.freezes == 1 and len(h.rest_collections) == 4


def test_a_screen_built_for_the_first_time_is_frozen_at_the_next_rest():
    """The game screen, built when the first game starts, lives for the run too; a change of
    language builds every screen again (the old ones garbage, frozen: unfreezing frees them)."""
    h, log = trimmer()
    h.pumped(went_to_rest=True)  # the window and the start screen
    settle(h)
    h.pumped(went_to_rest=True)
    log.clear()
    h.built()
    settle(h)
    assert log == ["trim"], "nothing frozen or collected before the rest"
    h.pumped(went_to_rest=True)
    assert log == ["trim", "unfreeze", "collect", "freeze", "trim"]
    assert h.freezes == 2


def test_the_window_is_frozen_at_the_first_rest_without_being_told():
    h, log = trimmer()
    h.pumped(went_to_rest=True)
    assert log == ["unfreeze", "collect", "freeze", "trim"]


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
    settle(h, TRIM_AFTER_TICKS)
    h.pumped(went_to_rest=True)
    assert log == ["unfreeze", "collect", "freeze"] and h.trims == 0


def test_with_the_real_collector_frozen_garbage_is_freed_at_the_next_freezing_rest():
    """gc itself: a cycle alive at the first rest is frozen; once dropped, the plain rests
    leave it (it is frozen), and the rest after the next build frees it (unfrozen first)."""
    import gc
    import weakref

    class Node:
        pass

    h = HeapTrim(None)
    try:
        node = Node()
        node.me = node  # a cycle: only the collector frees it
        gone = weakref.ref(node)
        h.pumped(went_to_rest=True)
        assert gc.get_freeze_count() > 0
        del node
        h.pumped(went_to_rest=True)
        assert gone() is not None, "frozen: the plain rest does not walk it"
        h.built()
        h.pumped(went_to_rest=True)
        assert gone() is None, "unfrozen and collected before the next freeze"
    finally:
        gc.unfreeze()


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
