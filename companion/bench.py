"""``companion bench``: speed measured against a peer in the same run, reported as ratios.

Each benchmark is a function returning rows ``(name, value, unit)``; peers are imported lazily
(python-chess is a test/benchmark dependency only). Timed with perf_counter here, at the edge;
nothing in the core reads the clock.
"""

from __future__ import annotations

import os
import random
import statistics
import subprocess
import time
from pathlib import Path
from typing import Callable, Iterable

from .errors import CompanionError
from .i18n import _

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

Row = tuple[str, float, str]


def _best_of(fn: Callable[[], object], repeat: int) -> tuple[float, object]:
    best, result = float("inf"), None
    for _ in range(repeat):
        t = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - t)
    return best, result


def bench_perft(quick: bool = False) -> list[Row]:
    from .core.rules import iter_perft
    from .games.chess import ChessRules

    rules = ChessRules()
    try:
        import chess  # python-chess, the peer
    except ImportError:
        chess = None

    def peer_perft(board, depth):
        if depth == 1:
            return board.legal_moves.count()
        n = 0
        for m in board.legal_moves:
            board.push(m)
            n += peer_perft(board, depth - 1)
            board.pop()
        return n

    rows: list[Row] = []
    repeat = 1 if quick else 3
    for name, fen, depth in (("start", START, 3 if quick else 4), ("kiwipete", KIWIPETE, 2 if quick else 3)):
        label = f"{name} perft({depth})"
        pos = rules.position_from_fen(fen)
        ours, n = _best_of(lambda: iter_perft(rules, pos, depth), repeat)
        rows.append((f"{label} ours ({n} nodes)", ours * 1000, "ms"))
        if chess is not None:
            board = chess.Board(fen)
            peer, pn = _best_of(lambda: peer_perft(board, depth), repeat)
            assert pn == n, f"node counts differ: ours {n}, python-chess {pn}"
            rows.append((f"{label} python-chess", peer * 1000, "ms"))
            rows.append((f"{label} ratio ours/python-chess", ours / peer, "x"))
            rows.append((f"{label} ours nodes/s", n / ours, "nodes/s"))
    return rows


def _random_positions(rules, count: int, seed: int = 7):
    """Positions from seeded random play (the bench's own randomness, at the edge)."""
    import random

    rng = random.Random(seed)
    out = []
    while len(out) < count:
        pos = rules.start_position()
        for _ in range(rng.randint(4, 60)):
            moves = rules.legal_moves(pos)
            if not moves:
                break
            rules.apply(pos, rng.choice(moves))
        out.append(pos)
    return out


def _lifted_ms(rules, positions) -> list[float]:
    """Milliseconds to list the legal moves of each piece of the side to move, per position."""
    samples = []
    for pos in positions:
        for sq in sorted(pos.occ[pos.turn]):
            t = time.perf_counter()
            rules.moves_from(pos, sq)
            samples.append((time.perf_counter() - t) * 1000)
    return samples


def bench_lifted_piece(quick: bool = False) -> list[Row]:
    """Median and p99 time to list the legal moves of one lifted piece (what lights the LEDs)."""
    from .games.chess import ChessRules

    rules = ChessRules()
    samples = sorted(t / 1000 for t in _lifted_ms(rules, _random_positions(rules, 40 if quick else 200)))
    return [
        ("chess lifted piece legal moves median", statistics.median(samples) * 1e6, "us"),
        ("chess lifted piece legal moves p99", samples[int(len(samples) * 0.99) - 1] * 1e6, "us"),
    ]


def bench_serial(quick: bool = False) -> list[Row]:
    from .board.serial_bench import bench_serial as run

    return run(quick)


def bench_tracker(quick: bool = False) -> list[Row]:
    from .board.tracker_bench import bench_tracker as run

    return run(quick)


def bench_dungeon(quick: bool = False) -> list[Row]:
    from .games.dungeon_bench import bench_dungeon as run

    return run(quick)


def bench_chess2(quick: bool = False) -> list[Row]:
    from .games.chess2_bench import bench_chess2 as run

    return run(quick)


def bench_ai(quick: bool = False) -> list[Row]:
    from .ai.bench import bench_ai as run

    return run(quick)


def bench_coach(quick: bool = False) -> list[Row]:
    from .coach_bench import bench_coach as run

    return run(quick)


def bench_broadcast(quick: bool = False) -> list[Row]:
    from .broadcast.bench import bench_broadcast as run

    return run(quick)


def bench_lichess(quick: bool = False) -> list[Row]:
    from .online.bench import bench_online

    return bench_online(quick)


def bench_app(quick: bool = False) -> list[Row]:
    from .app.rest_bench import bench_app_at_rest

    return bench_app_at_rest(quick)


def bench_speech(quick: bool = False) -> list[Row]:
    from .speech.bench import bench_speech as run

    return run(quick)


def bench_checkpoint(quick: bool = False) -> list[Row]:
    """The running clock's checkpoint, as the UI thread pays for it: written there with fsync
    (CheckpointFile.write, as before issue 20's follow-up) and handed to the writer thread
    (CheckpointWriter.put, as the app does now), in a temporary folder on the disk of the
    system's temporary directory (ms, median and worst)."""
    import shutil
    import statistics
    import tempfile
    import time
    from pathlib import Path

    from .tournament.checkpoint import NAME, CheckpointFile, CheckpointWriter

    n = 40 if quick else 200
    folder = Path(tempfile.mkdtemp(prefix="companion-checkpoint-"))
    try:
        direct, handed = [], []
        file = CheckpointFile(folder / NAME)
        for i in range(n):
            t0 = time.perf_counter()
            file.write(5, 0, (20, 20), 500 * i)
            direct.append((time.perf_counter() - t0) * 1000)
        file.close()
        writer = CheckpointWriter(CheckpointFile(folder / NAME))
        for i in range(n):
            t0 = time.perf_counter()
            writer.put(5, 0, (20, 20), 500 * i)
            handed.append((time.perf_counter() - t0) * 1000)
            writer.flush()  # the app hands one over every 500 ms: the writer is idle by then
        writer.close()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return [
        ("clock checkpoint on the UI thread, written+fsync, median", statistics.median(direct), "ms"),
        ("clock checkpoint on the UI thread, written+fsync, worst", max(direct), "ms"),
        ("clock checkpoint on the UI thread, handed over, median", statistics.median(handed), "ms"),
        ("clock checkpoint on the UI thread, handed over, worst", max(handed), "ms"),
    ]


def bench_link(quick: bool = False) -> list[Row]:
    from .app.link_bench import bench_link_boards
    from .link.bench import bench_link as run

    return run(quick) + bench_link_boards(quick)


def bench_dead_position(quick: bool = False) -> list[Row]:
    """What a flag fall costs to judge "cannot checkmate by any series of legal moves" (FIDE
    6.9): the locked-Pawn proof, and the bounded search at its bound (the worst case, a closed
    position it cannot decide), against python-chess's material test (the peer, which judges
    the material only) in the same run (ms)."""
    from .games.chess import ChessRules
    from .games.dead_position import MAX_POSITIONS

    rules = ChessRules()
    locked = rules.position_from_fen("8/8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8 w - - 0 1")
    closed = rules.position_from_fen("8/8/8/4k3/1p1p1p1p/1P1P1P1P/4KNB1/8 w - - 0 1")
    repeat = 3 if quick else 10
    rows: list[Row] = []
    ours_locked, verdict = _best_of(lambda: rules.can_win(locked, 1), repeat)
    assert verdict is False
    rows.append(("dead position: locked pawns, can_win", ours_locked * 1000, "ms"))
    ours_closed, verdict = _best_of(lambda: rules.can_win(closed, 1), repeat)
    assert verdict is True
    rows.append((f"dead position: search to its bound ({MAX_POSITIONS} positions)", ours_closed * 1000, "ms"))
    try:
        import chess
    except ImportError:
        return rows
    board = chess.Board(rules.fen(locked))
    peer, _ = _best_of(lambda: board.has_insufficient_material(chess.BLACK), max(repeat, 100))
    rows.append(("dead position: python-chess material test", peer * 1000, "ms"))
    rows.append(("dead position: locked pawns ratio ours/python-chess", ours_locked / peer, "x"))
    return rows


# ----- the board's budgets at Pi speed ------------------------------------------------------------

#: One frame at 60 Hz, the budget of a sensor event and of a lifted piece's moves.
FRAME_MS = 16.0
#: Process spawned to the first frame of the app's main loop.
APP_START_S = 10.0


def _p99(samples: list[float]) -> float:
    samples = sorted(samples)
    return samples[min(len(samples) - 1, int(len(samples) * 0.99))]


class _Pixels:
    """A NeoPixel buffer whose write is free (the wire's time is the same on any host)."""

    def __init__(self, n: int) -> None:
        self.buf = [(0, 0, 0)] * n

    def __setitem__(self, i, value) -> None:
        self.buf[i] = value

    def show(self) -> None:
        pass


def _event_to_frame(game, make_cycle, events: int) -> tuple[list[float], list[float]]:
    """Milliseconds per sensor event (tracker feed, render, the LED adapter's show): wall clock,
    and this thread's processor time (on a shared machine the wall clock also counts the time
    the process waited for a core; on the Pi the app has the machine)."""
    from .board.neopixel_leds import NeoPixelLeds
    from .board.palette import render
    from .board.ports import SquareChanged
    from .board.tracker import LedsChanged, Tracker

    rules, pos = game
    g = rules.geometry
    tracker = Tracker(rules, pos)
    leds = NeoPixelLeds(_Pixels(g.size), g.width, g.height, brightness_cap=48, supply_amps=10.0)
    cycle = make_cycle(rules, pos)
    meanings: dict = {}
    out, cpu = [], []
    for i in range(events):
        sq, occupied = cycle[i % len(cycle)]
        t0, c0 = time.perf_counter(), time.thread_time()
        for o in tracker.feed(SquareChanged(sq, occupied, i + 1)):
            if isinstance(o, LedsChanged):
                meanings = o.meanings
        leds.show(render(meanings, g.size, t_ms=i + 1))
        cpu.append((time.thread_time() - c0) * 1000)
        out.append((time.perf_counter() - t0) * 1000)
    return out, cpu


def _chess_start():
    from .games import make_rules

    rules = make_rules("chess")
    return rules, rules.start_position()


def _chess_cycle(rules, pos):
    from .board.tracker_bench import _start_cycle

    return _start_cycle(rules.geometry)


def bench_events(quick: bool) -> list[Row]:
    from .board.tracker_bench import _dungeon_cycle, _dungeon_four_player

    events = 1000 if quick else 3000
    rows: list[Row] = []
    for label, game, cycle in (("8x8 chess", _chess_start(), _chess_cycle),
                               ("20x20 four players", _dungeon_four_player(), _dungeon_cycle)):
        _event_to_frame(game, cycle, 50)  # warm up
        samples, cpu = _event_to_frame(game, cycle, events)
        rows.append((f"budget event to LED frame {label}, median", statistics.median(samples), "ms"))
        rows.append((f"budget event to LED frame {label}, p99 (< {FRAME_MS:.0f})", _p99(samples), "ms"))
        rows.append((f"budget event to LED frame {label}, p99 CPU time", _p99(cpu), "ms"))
    return rows


def bench_lifted(quick: bool) -> list[Row]:
    """A lifted piece's legal moves: every piece of the side to move, chess positions from
    seeded play and the 20x20 four-player position with its next plies."""
    from .board.tracker_bench import _dungeon_four_player
    from .games import make_rules

    rows: list[Row] = []
    chess = make_rules("chess")
    samples = _lifted_ms(chess, _random_positions(chess, 15 if quick else 60))
    rows.append((f"budget lifted piece's moves chess, p99 (< {FRAME_MS:.0f})", _p99(samples), "ms"))
    rules, pos = _dungeon_four_player()
    rng = random.Random(5)
    samples = []
    for _ in range(4 if quick else 12):
        samples += _lifted_ms(rules, [pos])
        moves = rules.legal_moves(pos)
        if not moves:
            break
        rules.play(pos, rng.choice(moves))
        while pos.pending is not None:
            answers = rules.answers(pos) if not pos.pending.chance else [o for o, _ in rules.chance_outcomes(pos)]
            rules.play(pos, answers[0])
    rows.append((f"budget lifted piece's moves 20x20 four players, p99 (< {FRAME_MS:.0f})", _p99(samples), "ms"))
    return rows


def bench_app_start(quick: bool) -> list[Row]:
    """Spawned to the first frame of the main loop (median of 3, 1 quick), a simulated board."""
    from .app import rest_bench

    if not Path("/proc/self/stat").exists():
        return [("budget app start: needs Linux; not measured", 0.0, "")]
    times = []
    with rest_bench.VirtualDisplay() as display:
        if display is None:
            return [("budget app start: no X display and no Xvfb; not measured", 0.0, "")]
        for _ in range(1 if quick else 3):
            t0 = time.perf_counter()
            child, data = rest_bench.spawn_scene("start", display)
            try:
                rest_bench._wait_for(child, "READY", 300)
                times.append(time.perf_counter() - t0)
            finally:
                rest_bench.end_scene(child, data, wait_s=30)
    return [(f"budget app start to main loop, median (< {APP_START_S:.0f})", statistics.median(times), "s")]


def bench_computer(quick: bool) -> list[Row]:
    """The computer's move at every level with the app's move time, in the start position and
    a middlegame (Kiwipete): the worst of them against the level's time."""
    from .ai.levels import LEVELS, ComputerPlayer
    from .app.computer import MOVE_SECONDS
    from .games import make_rules

    rules = make_rules("chess")
    positions = [rules.start_position(), rules.position_from_text(KIWIPETE)]
    if quick:
        positions = positions[1:]
    rows: list[Row] = []
    for level in LEVELS:
        budget = MOVE_SECONDS * level.time_share
        worst = 0.0
        for pos in positions:
            player = ComputerPlayer(rules, level, random.Random(3))
            t0 = time.monotonic()
            player.choose(pos, now=time.monotonic, budget=MOVE_SECONDS)
            worst = max(worst, time.monotonic() - t0)
        rows.append((f"budget computer level {level.number}, worst move (< {budget:.1f})", worst, "s"))
    return rows


def bench_budgets(quick: bool = False) -> list[Row]:
    """The board's hot paths against their budgets (docs/performance.md, "At Pi speed"):
    a sensor event to its LED frame (tracker feed, render, the NeoPixel adapter's show into a
    buffer: the wire's 30 us per LED is the same on any host) under 16 ms p99 on 8x8 and on the
    20x20 map with four players; a lifted piece's moves under 16 ms; the app started in under
    10 s; the computer's move within its time at every level. ``--emulated`` runs it in the
    arm64 root (slower than a Pi 4 under qemu, so a budget met there holds on the Pi)."""
    return bench_events(quick) + bench_lifted(quick) + bench_app_start(quick) + bench_computer(quick)


def run_emulated(args: list[str], out=print) -> int:
    """``companion bench --emulated ...``: the bench inside the arm64 root the arm64 check
    built (companion/arm64_check.sh bench), its output passed through."""
    script = Path(__file__).resolve().parent / "arm64_check.sh"
    root = os.environ.get("COMPANION_ARM64_ROOT", "/var/tmp/companion-arm64")
    if not Path(root, "home/pi/companion/.venv/bin/companion").exists():
        raise CompanionError(_("bench --emulated: no installed arm64 root at {root}; build it first: bash "
                               "companion/install.sh arm64-check (about an hour)").format(root=root))
    return subprocess.call(["bash", str(script), "bench", *args])


BENCHES: list[tuple[str, Callable[[bool], list[Row]]]] = [
    ("perft", bench_perft),
    ("lifted", bench_lifted_piece),
    ("serial", bench_serial),
    ("tracker", bench_tracker),
    ("dungeon", bench_dungeon),
    ("chess2", bench_chess2),
    ("ai", bench_ai),
    ("coach", bench_coach),
    ("broadcast", bench_broadcast),
    ("lichess", bench_lichess),
    ("app", bench_app),
    ("checkpoint", bench_checkpoint),
    ("link", bench_link),
    ("dead position", bench_dead_position),
    ("speech", bench_speech),
    ("budgets", bench_budgets),
]


def run_bench(quick: bool = False, only: str | None = None, out=print) -> int:
    import platform

    if not _selected(only):
        raise CompanionError(_("bench --only {only!r}: no figure's name contains it; the figures are {benches}").format(
            only=only, benches=', '.join(n for n, _ in BENCHES)))
    out(f"companion bench  python {platform.python_version()}  {platform.machine()}  {'quick' if quick else 'full'}")
    for name, fn in _selected(only):
        for label, value, unit in fn(quick):
            out(f"{label:<52} {_fmt(value)} {unit}")
    return 0


def _selected(only: str | None) -> Iterable[tuple[str, Callable]]:
    return [(n, f) for n, f in BENCHES if only is None or only in n]


def _fmt(v: float) -> str:
    if v >= 1000:
        return f"{v:12,.0f}"
    if v >= 10:
        return f"{v:12.1f}"
    return f"{v:12.3f}"
