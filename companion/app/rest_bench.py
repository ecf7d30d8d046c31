"""``companion bench --only app``: the app at rest, measured on a real window.

The app is started in a subprocess the way ``companion`` starts it (the same window settings,
``bootstrap.build`` with the simulated board, its games saved in a temporary folder), on the
caller's X display or, without one, on a private Xvfb. The parent measures from outside:

* **start**: from spawning the process to the first frame of Kivy's main loop (seconds);
* **idle CPU**: processor time of the whole process (every thread, from /proc) over a stretch
  of wall time in which nothing happens, in % of one core, in three places: the start screen, a
  chess game waiting for a move, a four-player Dungeon game (20x20) waiting for a move, and a
  chess game whose clock runs (3 min + 2 s, casual, the clock pressing itself from the board; White
  thinking: the clock shown, its time falling);
* **resident memory** (VmRSS) after the game has been set up (MB);
* **sensor event to LED frame** in the waiting chess game: a board event handed to the app the
  way a board thread hands it over (``Mailbox.post``) until the LED port is given the new frame
  (ms; median and worst of 20, at rest, so any wake-up delay of the main loop is in it), and
  the same for an event handed over at the moment the loop goes to rest (before the rest's
  collection and trim: what a touch or a board event coming then waits; 4 rests);
* **the collector**: the main thread's processor time of the app's garbage collections
  (companion/app/heap.py): the one full collection once the window is drawn, and the one on
  going to rest (in the chess game, its first rest and the one after the probes too).

Linux only (it reads /proc). The child is this module run as a script:
``python -m companion.app.rest_bench SCENE`` (``start``, ``chess``, ``dungeon``, ``clock``).
"""

from __future__ import annotations

import os
import select
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

from .pacing import REST_AFTER_MS

Row = tuple[str, float, str]

#: Seconds to let a scene settle before measuring it (the app rests after REST_AFTER_MS of
#: quiet, companion/app/pacing.py), and to measure it (full / quick run).
SETTLE_S = REST_AFTER_MS / 1000 + 1.5
MEASURE_S = {False: 15.0, True: 5.0}
PROBES = 20
#: Board events handed over at the moment the loop goes to rest (one rest each, 4 s apart).
REST_PROBES = 4
SCENES = ("start", "chess", "dungeon", "clock")
#: Seconds the lichess scene shows its setup screen before the pieces are set up.
SETUP_SHOWN_S = 0.5


# ----- the parent: measuring from outside --------------------------------------------------------

def bench_app_at_rest(quick: bool = False, out: Callable[[str], None] | None = None) -> list[Row]:
    if not Path("/proc/self/stat").exists():
        return [("app at rest: needs Linux (/proc); not measured", 0.0, "")]
    with VirtualDisplay() as display:
        if display is None:
            return [("app at rest: no X display and no Xvfb; not measured", 0.0, "")]
        rows: list[Row] = []
        for scene in SCENES:
            rows += _measure_scene(scene, display, MEASURE_S[quick])
        return rows


def spawn_scene(scene: str, display: str, extra_env: dict | None = None,
                prepare: Callable[[str], None] | None = None) -> tuple[subprocess.Popen, str]:
    """The app started the way ``companion`` starts it, playing ``scene``, with its games in a
    temporary folder (``prepare(folder)`` first); :func:`end_scene` stops it and removes the folder."""
    data = tempfile.mkdtemp(prefix="companion-bench-")
    if prepare is not None:
        prepare(data)
    env = dict(os.environ, DISPLAY=display, COMPANION_DATA=data, KIVY_NO_ARGS="1", KIVY_NO_CONSOLELOG="1",
               COMPANION_WINDOW="800x480", COMPANION_FULLSCREEN="0", **(extra_env or {}))
    root = str(Path(__file__).resolve().parent.parent.parent)
    env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")
    child = subprocess.Popen([sys.executable, "-m", "companion.app.rest_bench", scene], env=env,
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    return child, data


def end_scene(child: subprocess.Popen, data: str, wait_s: float = 10) -> None:
    child.terminate()
    try:
        child.wait(wait_s)
    except subprocess.TimeoutExpired:
        child.kill()
        child.wait()
    shutil.rmtree(data, ignore_errors=True)


def _measure_scene(scene: str, display: str, seconds: float) -> list[Row]:
    t0 = time.perf_counter()
    child, data = spawn_scene(scene, display)
    rows: list[Row] = []
    try:
        _wait_for(child, "READY", 60)
        started = time.perf_counter() - t0
        if scene == "start":
            rows.append(("app start to main loop", started, "s"))
        else:
            _wait_for(child, "SCENE", 60)
        time.sleep(SETTLE_S)
        cpu0, wall0 = _cpu_seconds(child.pid), time.perf_counter()
        time.sleep(seconds)
        cpu1, wall1 = _cpu_seconds(child.pid), time.perf_counter()
        rows.append((f"app idle CPU, {_SCENE_WORDS[scene]}", 100 * (cpu1 - cpu0) / (wall1 - wall0), "% core"))
        rss, renderer = _rss_mb(child.pid)
        rows.append((f"app resident memory, {_SCENE_WORDS[scene]}", rss, "MB"))
        if renderer:
            rows.append((f"  of it the software OpenGL renderer's code", renderer, "MB"))
        words = _SCENE_WORDS[scene]
        first, rests = _collections(child)
        rows.append((f"app collection once the window is drawn, {words}", first, "ms CPU"))
        rows.append((f"app rest collection, {words}", rests[-1], "ms CPU"))
        if scene == "chess":
            child.stdin.write("probe\n")
            child.stdin.flush()
            line = _wait_for(child, "PROBE", 60)
            samples = [float(x) for x in line.split()[1:]]
            rows.append(("app sensor event to LED frame, median", statistics.median(samples), "ms"))
            rows.append(("app sensor event to LED frame, worst", max(samples), "ms"))
            child.stdin.write("restprobe\n")  # then at each of the next rests
            child.stdin.flush()
            samples = [float(x) for x in _wait_for(child, "RESTPROBE", 60 * REST_PROBES).split()[1:]] or [float("nan")]
            rows.append(("app sensor event as the loop goes to rest to LED frame, median", statistics.median(samples), "ms"))
            rows.append(("app sensor event as the loop goes to rest to LED frame, worst", max(samples), "ms"))
            rows.append((f"app rest collection, {words}, the next rest", _rest_collections(child)[-1], "ms CPU"))
    finally:
        end_scene(child, data)
    return rows


_SCENE_WORDS = {"start": "start screen", "chess": "chess game at rest", "dungeon": "Dungeon 20x20 4p at rest",
                "clock": "chess game, clock running", "lichess": "lichess game (streams open)"}


def measure_memory(scene: str, extra_env: dict | None = None,
                   prepare: Callable[[str], None] | None = None) -> list[Row]:
    """Resident memory of the app playing ``scene`` once it has settled, and of it the software
    renderer's code (a lichess game: companion.online.bench)."""
    if not Path("/proc/self/stat").exists():
        return [(f"app memory, {scene}: needs Linux (/proc); not measured", 0.0, "")]
    with VirtualDisplay() as display:
        if display is None:
            return [(f"app memory, {scene}: no X display and no Xvfb; not measured", 0.0, "")]
        child, data = spawn_scene(scene, display, extra_env, prepare)
        try:
            _wait_for(child, "READY", 60)
            _wait_for(child, "SCENE", 60)
            time.sleep(SETTLE_S)
            rss, renderer = _rss_mb(child.pid)
            collected = _rest_collections(child)
        finally:
            end_scene(child, data)
    words = _SCENE_WORDS.get(scene, scene)
    rows = [(f"app rest collection, {words}", collected[-1], "ms CPU"),
            (f"app resident memory, {words}", rss, "MB")]
    if renderer:
        rows += [("  of it the software OpenGL renderer's code", renderer, "MB"),
                 (f"app resident memory without the renderer, {words}", rss - renderer, "MB")]
    return rows


def _rest_collections(child: subprocess.Popen) -> list[float]:
    """The main thread's processor time of each collection the app has run on going to rest so
    far (ms, companion/app/heap.py); [nan] if it has not rested yet."""
    return _collections(child)[1]


def _collections(child: subprocess.Popen) -> tuple[float, list[float]]:
    """The app's collections so far (ms of the main thread's processor time, heap.py): the full
    one once the window is drawn (nan: not yet), and each on going to rest ([nan]: none yet)."""
    child.stdin.write("heap\n")
    child.stdin.flush()
    first, *rests = (float(x) for x in _wait_for(child, "HEAP", 60).split()[1:])
    return first, rests or [float("nan")]


def _wait_for(child: subprocess.Popen, word: str, timeout: float) -> str:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        ready, _, _ = select.select([child.stdout], [], [], max(0.0, end - time.monotonic()))
        if not ready:
            break
        line = child.stdout.readline()
        if not line:
            raise RuntimeError(f"the app exited (status {child.poll()}) before {word}")
        if line.startswith(word):
            return line
    raise RuntimeError(f"the app did not report {word} within {timeout:.0f} s")


def _cpu_seconds(pid: int) -> float:
    """Processor time of every thread of ``pid``, in seconds (ns resolution where the kernel
    keeps schedstat; clock ticks otherwise)."""
    total = 0
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/schedstat") as f:
                total += int(f.read().split()[0])
        return total / 1e9
    except (OSError, ValueError, IndexError):
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _rss_mb(pid: int) -> tuple[float, float]:
    """Resident memory (VmRSS), and how much of it is the pages of a software OpenGL renderer
    (Mesa's llvmpipe under Xvfb: libLLVM and the DRI driver; a Pi's GPU driver has no LLVM)."""
    rss = renderer = 0
    where = ""
    for line in Path(f"/proc/{pid}/smaps").read_text().splitlines():
        parts = line.split()
        if parts and "-" in parts[0] and len(parts) >= 5:
            where = parts[5] if len(parts) > 5 else ""
        elif parts and parts[0] == "Rss:":
            rss += int(parts[1])
            if "libLLVM" in where or "/dri/" in where:
                renderer += int(parts[1])
    return rss / 1024, renderer / 1024


class VirtualDisplay:
    """An X display for windows, for the length of a ``with`` block: the caller's DISPLAY
    (``reuse``), or else a private Xvfb that picks a free display number itself (-displayfd),
    so that several can run side by side (the bench, each worker of a parallel test run).
    ``with`` gives ":N", or None when there is no display and no Xvfb."""

    def __init__(self, reuse: bool = True, screen: str = "1280x800x24") -> None:
        self.reuse, self.screen = reuse, screen
        self.server: subprocess.Popen | None = None

    def __enter__(self) -> str | None:
        self.server = None
        if self.reuse and os.environ.get("DISPLAY"):
            return os.environ["DISPLAY"]
        xvfb = shutil.which("Xvfb")
        if xvfb is None:
            return None
        read, write = os.pipe()
        self.server = subprocess.Popen([xvfb, "-displayfd", str(write), "-screen", "0", self.screen, "-nolisten", "tcp"],
                                       pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                       preexec_fn=_ends_with_parent)
        os.close(write)
        number = b""
        while not number.endswith(b"\n"):
            chunk = os.read(read, 16)
            if not chunk:
                break
            number += chunk
        os.close(read)
        return f":{number.decode().strip()}" if number.strip() else None

    def __exit__(self, *exc) -> None:
        if self.server is not None:
            self.server.terminate()
            self.server.wait()


def _ends_with_parent() -> None:
    """(In the Xvfb child, before it starts.) Linux ends it when the process that started it
    dies, killed or not: no X server is left behind by a test worker or a bench that crashed."""
    import ctypes
    import signal

    PR_SET_PDEATHSIG = 1
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


# ----- the child: the app, as shipped ------------------------------------------------------------

def _child(scene: str) -> int:
    from .main import configure_window

    configure_window()
    import threading

    from kivy.clock import Clock

    from ..board.ports import SquareChanged
    from ..session import Seat
    from . import bootstrap

    app = bootstrap.build()
    flow = app.flow
    shown: list[float] = []
    leds = flow.board.link.leds
    original_show = leds.show

    def show(frame) -> None:  # the LED port's write, timed
        original_show(frame)
        shown.append(time.perf_counter())

    leds.show = show

    def say(text: str) -> None:
        sys.stdout.write(text + "\n")
        sys.stdout.flush()

    def ready(_dt) -> None:
        say("READY")
        if scene == "chess":
            flow.new_game("chess", (Seat("White"), Seat("Black")))
        elif scene == "clock":
            from ..tournament.table import TableSetup

            flow.new_game("chess", (Seat("White"), Seat("Black")), table=TableSetup("casual", "180+2", auto_press=True))
        elif scene == "lichess":  # the account's token is in the data folder; the server's first game starts
            flow.online.open()
            Clock.schedule_once(lambda _dt: wait_for_setup(), 0.2)
            return
        elif scene == "dungeon":
            flow.new_game("dungeon", tuple(Seat(n) for n in ("Blue", "Red", "Green", "Yellow")),
                          board_map="dungeon-four-player")
        if scene != "start":
            flow.game.fill_simulated_board()
            Clock.schedule_once(lambda _dt: wait_for_game(), 0.2)

    def wait_for_setup() -> None:
        if flow.display.screen != "setup":
            Clock.schedule_once(lambda _dt: wait_for_setup(), 0.1)
            return
        # the setup screen drawn first, as a player sees it (its first frames are part of the
        # memory: the renderer compiles their shaders), then the pieces set up
        Clock.schedule_once(lambda _dt: set_up(), SETUP_SHOWN_S)

    def set_up() -> None:
        flow.game.fill_simulated_board()
        Clock.schedule_once(lambda _dt: wait_for_game(), 0.2)

    def wait_for_game() -> None:
        if flow.display.screen != "game":
            Clock.schedule_once(lambda _dt: wait_for_game(), 0.1)
            return
        if scene == "clock" and flow.game.table.clock.running is None:
            flow.clock.tap(1)  # Black starts White's clock
        say("SCENE")

    def probe() -> None:
        """Hand board events over as a board thread does and time them to the LED frame."""
        square = flow.game.session.rules.geometry.parse_square("e2")
        samples = []
        for i in range(PROBES):
            time.sleep(0.3)
            before = len(shown)
            t0 = time.perf_counter()
            flow.mailbox.post("board", SquareChanged(square, i % 2 == 1, flow.clock_ms()))
            while len(shown) == before:
                time.sleep(0.0002)
            samples.append((shown[before] - t0) * 1000)
        say("PROBE " + " ".join(f"{s:.3f}" for s in samples))

    heap = app._heap
    at_rest: list = []  # the event to hand over the next time the loop goes to rest
    arrived: list[float] = []  # when each was handed over
    original_pumped = heap.pumped

    def pumped(went_to_rest: bool) -> None:
        if went_to_rest and at_rest:  # a board event that comes as the loop goes to rest
            event = at_rest.pop()
            arrived.append(time.perf_counter())
            flow.mailbox.post("board", event)
        original_pumped(went_to_rest)

    heap.pumped = pumped

    def rest_probe() -> None:
        """A board event handed over at the moment the loop goes to rest (before its collection
        and trim), timed to the LED frame; the event is activity, so the next one comes at the
        next rest."""
        square = flow.game.session.rules.geometry.parse_square("e2")
        samples = []
        for i in range(REST_PROBES):
            before, sent = len(shown), len(arrived)
            at_rest.append(SquareChanged(square, i % 2 == 1, flow.clock_ms()))
            end = time.monotonic() + 30
            while (len(arrived) == sent or len(shown) == before) and time.monotonic() < end:
                time.sleep(0.0002)
            if len(arrived) > sent and len(shown) > before:
                samples.append((shown[before] - arrived[sent]) * 1000)
        say("RESTPROBE " + " ".join(f"{s:.3f}" for s in samples))

    def commands() -> None:
        for line in sys.stdin:
            if line.strip() == "probe":
                probe()
            elif line.strip() == "restprobe":
                rest_probe()
            elif line.strip() == "heap":
                first = getattr(app._heap, "first_collection", None)  # one line: the parent reads a line at a time
                say(" ".join(["HEAP", "nan" if first is None else f"{first * 1000:.3f}"]
                             + [f"{s * 1000:.3f}" for s in list(app._heap.rest_collections)]))

    threading.Thread(target=commands, daemon=True).start()
    Clock.schedule_once(ready, 0)
    app.run()
    return 0


if __name__ == "__main__":
    sys.exit(_child(sys.argv[1] if len(sys.argv) > 1 else "start"))
