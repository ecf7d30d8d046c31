import gc
import os
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import settings

ROOT = Path(__file__).resolve().parent.parent
os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
os.environ.setdefault("KIVY_NO_FILELOG", "1")
# the tests read English unless one asks for a language (a developer's German locale does not leak in)
os.environ.setdefault("COMPANION_LANG", "en")
# Kivy writes its settings file where KIVY_HOME says (else ~/.kivy) when first imported: each
# test process (each worker of a parallel run) has its own, so that two never write one file at
# once and the user's own is left alone; removed when the process ends
_KIVY_HOME = tempfile.TemporaryDirectory(prefix="companion-kivy-")
os.environ.setdefault("KIVY_HOME", _KIVY_HOME.name)
# Compiled bytecode, and pytest's rewritten test modules, are kept under .venv/pycache (the tree
# stays clean) also where the environment says not to write them (PYTHONDONTWRITEBYTECODE), as
# `bash companion/install.sh test` does: else every run, and every worker of a parallel run,
# rewrites all 200 test modules again (7 s of processor time each); the processes the tests
# start inherit it. Also where PYTHONPYCACHEPREFIX is set already: with PYTHONDONTWRITEBYTECODE
# beside it, pytest rewrote every test module again in every process (13 s of processor time
# for a collection instead of 4.5 s)
if (ROOT / ".venv").is_dir():
    if sys.pycache_prefix is None:
        sys.pycache_prefix = str(ROOT / ".venv" / "pycache")
        os.environ["PYTHONPYCACHEPREFIX"] = sys.pycache_prefix
    sys.dont_write_bytecode = False
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
# the app dims the screen's backlight at rest (companion/app/backlight.py): never a real one in tests
os.environ.setdefault("COMPANION_BACKLIGHT", str(ROOT / "tests" / "no-backlight-here"))

# Hypothesis keeps no example database (nothing is written into the repository or CI's
# checkout); a failure prints the blob that reproduces it (@reproduce_failure).
settings.register_profile("companion", database=None, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "companion"))


@pytest.fixture
def chess_rules():
    from companion.games.chess import ChessRules

    return ChessRules()


@pytest.fixture
def mock_factory():
    """gpiozero's MockFactory as the pin factory for one test, reset afterwards (pins free)."""
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory

    factory = MockFactory()
    previous = Device.pin_factory
    Device.pin_factory = factory
    yield factory
    factory.reset()
    Device.pin_factory = previous


@pytest.fixture
def cli_main(monkeypatch, capsys):
    """``companion ARGS`` through the CLI's ``main`` in this process, as a CompletedProcess (its
    exit status, stdout, stderr): what a real process says, without starting Python and the
    package again for each bad input (a test per kind keeps the real process). ``lang`` is
    COMPANION_LANG for the call, English again after it; the app itself is never started."""
    import subprocess

    from companion.app import main as app_main
    from companion.cli import main
    from companion.i18n import Language, use

    def no_app(**_options):
        raise AssertionError("the mistake was not refused: the app was started")

    monkeypatch.setattr(app_main, "run", no_app)

    def run(*argv: str, lang: str = "en") -> subprocess.CompletedProcess:
        monkeypatch.setenv("COMPANION_LANG", lang)
        try:
            code = main(list(argv))
        except SystemExit as e:  # the argument parser's refusal
            code = e.code
        finally:
            use(Language.load("en"))
        out = capsys.readouterr()
        return subprocess.CompletedProcess(argv, code, out.out, out.err)

    return run


def pytest_collection_modifyitems(config, items):
    """A test that opens a window (``ui``) is slow as well: ``-m "not slow"`` is the quick loop
    (under a minute on the development machine), the full suite runs both.

    The window tests run first, then the other slow ones, then the rest (each group in its
    own order): in a parallel run (pytest-xdist, ``-n``) the longest tests start at once and
    the short ones fill the workers up at the end, instead of one worker finishing a
    screen walk alone while the other waits."""
    for item in items:
        if item.get_closest_marker("ui") is not None and item.get_closest_marker("slow") is None:
            item.add_marker(pytest.mark.slow)

    def group(item) -> int:
        return 0 if item.get_closest_marker("ui") else 1 if item.get_closest_marker("slow") else 2

    items.sort(key=group)


def pytest_collection_finish(session):
    """Where no window test runs (the quick loop), Python's cyclic garbage collector keeps out of
    the way of the tests: what the collection built (every test item, the modules, the rules
    they made) lives to the end of the run, so it is frozen out of the collector's walks, and an
    automatic collection starts after 10,000 new container objects instead of 700. With the
    defaults the collector took 16% of the processor time of a run of search, rules, link and
    tracker tests. Collected first, so no garbage is frozen. Tests that time a search collect
    first (gc.collect()); the app sets its own freezes (companion/app/heap.py) in its own process.
    The window tests (Kivy frees its graphics in __del__) keep the defaults."""
    if not any(item.get_closest_marker("ui") is not None for item in session.items):
        gc.collect()
        gc.freeze()
        gc.set_threshold(10_000, 10, 10)


@pytest.fixture(scope="session")
def window_display():
    """The X display the window tests open their windows on: in a parallel run, each worker's
    own Xvfb (two workers' windows never share a screen); in a run of one process, the
    caller's DISPLAY (xvfb-run's, say), or a private Xvfb when there is none."""
    from companion.app.rest_bench import VirtualDisplay

    worker = os.environ.get("PYTEST_XDIST_WORKER")
    with VirtualDisplay(reuse=worker is None) as display:
        assert display, "the window tests need an X display or Xvfb (apt-get install xvfb)"
        before = os.environ.get("DISPLAY")
        os.environ["DISPLAY"] = display
        try:
            yield display
        finally:
            if before is None:
                os.environ.pop("DISPLAY", None)
            else:
                os.environ["DISPLAY"] = before


@pytest.fixture(autouse=True)
def _window_tests_get_a_display(request):
    """Every ``ui`` test runs with ``window_display`` (started the first time one needs it)."""
    if request.node.get_closest_marker("ui") is not None:
        request.getfixturevalue("window_display")
