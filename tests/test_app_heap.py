"""The app's heap (companion/app/heap.py): glibc's free memory handed back after the window or a
screen is first built (its first frames drawn) and on going to rest, with a fake libc. The
figures are the bench's (``companion bench --only lichess``, docs/performance.md)."""

import logging

from companion.app import heap
from companion.app.heap import TRIM_AFTER_TICKS, HeapTrim


class FakeLibc:
    def __init__(self) -> None:
        self.trims: list[int] = []

    def malloc_trim(self, pad: int) -> int:
        self.trims.append(pad)
        return 1


def trimmer():
    libc, collected = FakeLibc(), []
    return HeapTrim(libc, collect=lambda: collected.append(len(libc.trims))), libc, collected


def test_a_built_screen_is_trimmed_after_its_first_frames_not_before():
    h, libc, collected = trimmer()
    h.built()
    for _ in range(TRIM_AFTER_TICKS - 1):
        h.pumped(went_to_rest=False)
    assert libc.trims == []
    h.pumped(went_to_rest=False)
    assert libc.trims == [0] and collected == [], "a trim alone: no collection while a player may wait"
    for _ in range(10):
        h.pumped(went_to_rest=False)
    assert libc.trims == [0], "once per build"


def test_a_second_build_before_the_trim_moves_it_on():
    h, libc, _ = trimmer()
    h.built()
    h.pumped(went_to_rest=False)
    h.built()  # the setup screen, then the game screen at once
    for _ in range(TRIM_AFTER_TICKS - 1):
        h.pumped(went_to_rest=False)
    assert libc.trims == []
    h.pumped(went_to_rest=False)
    assert libc.trims == [0]


def test_going_to_rest_collects_then_trims_and_takes_a_pending_trim_with_it():
    h, libc, collected = trimmer()
    h.built()
    h.pumped(went_to_rest=True)
    assert collected == [0] and libc.trims == [0], "collected first, then trimmed"
    for _ in range(TRIM_AFTER_TICKS + 2):
        h.pumped(went_to_rest=False)
    assert libc.trims == [0]
    h.pumped(went_to_rest=True)  # the next rest
    assert libc.trims == [0, 0] and collected == [0, 1]


def test_without_glibc_only_the_collection_runs():
    collected = []
    h = HeapTrim(None, collect=lambda: collected.append(1))
    h.built()
    for _ in range(TRIM_AFTER_TICKS):
        h.pumped(went_to_rest=False)
    h.pumped(went_to_rest=True)
    assert collected == [1] and h.trims == 0


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
