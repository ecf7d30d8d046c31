"""``companion bench``: speed measured against a peer in the same run, reported as ratios.

Each benchmark is a function returning rows ``(name, value, unit)``; peers are imported lazily
(python-chess is a test/benchmark dependency only). Timed with perf_counter here, at the edge;
nothing in the core reads the clock.
"""

from __future__ import annotations

import statistics
import time
from typing import Callable, Iterable

from .errors import CompanionError

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


def bench_lifted_piece(quick: bool = False) -> list[Row]:
    """Median and p99 time to list the legal moves of one lifted piece (what lights the LEDs)."""
    from .games.chess import ChessRules

    rules = ChessRules()
    samples = []
    for pos in _random_positions(rules, 40 if quick else 200):
        for sq in sorted(pos.occ[pos.turn]):
            t = time.perf_counter()
            rules.moves_from(pos, sq)
            samples.append(time.perf_counter() - t)
    samples.sort()
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


def bench_app(quick: bool = False) -> list[Row]:
    from .app.rest_bench import bench_app_at_rest

    return bench_app_at_rest(quick)


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
    ("app", bench_app),
    ("checkpoint", bench_checkpoint),
]


def run_bench(quick: bool = False, only: str | None = None, out=print) -> int:
    import platform

    if not _selected(only):
        raise CompanionError(f"bench --only {only!r}: no figure's name contains it; "
                             f"the figures are {', '.join(n for n, _ in BENCHES)}")
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
