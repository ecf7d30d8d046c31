"""``companion bench --only coach``: the board stays quick while the coach thinks.

Event-to-LED frame (companion/board/tracker_bench.py's measure: ``Tracker.feed`` plus
``palette.render`` on the 8x8 start cycle, events back to back) three times in one run: with
nothing else running (the peer), with a hint search running in the background on the AI worker
(companion.ai.worker.SearchWorker, which shortens the interpreter's thread switch interval to
0.5 ms while it works), and with the same search at Python's default 5 ms interval, to show what
that setting buys. Target: p99 under 1 ms with the hint running (issue 30). Wall clock, so on a
shared machine waits for a core count too; the peer in the same run shows how much of that is
the machine.
"""

from __future__ import annotations

import statistics
import sys
import time

Row = tuple[str, float, str]

#: the position the hint thinks about: an open middlegame (Kiwipete), a long search
HINT_POSITION = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


def _rows(label: str, wall: list[float], cpu: list[float]) -> list[Row]:
    from .board.tracker_bench import _p99

    return [(f"coach {label}: event to LED frame median", statistics.median(wall) * 1000, "ms"),
            (f"coach {label}: event to LED frame p99", _p99(wall) * 1000, "ms"),
            (f"coach {label}: event to LED frame p99 (CPU time)", _p99(cpu) * 1000, "ms")]


def _with_hint(events: int, switch: float | None) -> tuple[list[float], list[float], int]:
    """Measure with a hint search running; ``switch``: force this switch interval instead of
    the worker's own. Returns the samples and the nodes the hint searched meanwhile."""
    from .ai import worker as ai_worker
    from .ai.coach import Coach
    from .board.tracker_bench import START, _measure, _start_cycle
    from .games import make_rules

    rules = make_rules("chess")
    coach = Coach(rules)
    found: list = []
    w = ai_worker.SearchWorker(time.perf_counter, deliver=found.append)
    saved = ai_worker.SWITCH_SECONDS
    if switch is not None:
        ai_worker.SWITCH_SECONDS = switch
    try:
        w.start(coach.hinter(), rules.position_from_text(HINT_POSITION), budget=600.0)
        time.sleep(0.05)  # the search is under way
        wall, cpu = _measure(START, _start_cycle, events)
    finally:
        w.stop(wait=10.0)
        ai_worker.SWITCH_SECONDS = saved
    nodes = max((e.info.nodes for e in found if hasattr(e, "info")), default=0)
    return wall, cpu, nodes


def bench_coach(quick: bool = False) -> list[Row]:
    from .board.tracker_bench import START, _measure, _start_cycle

    events = 2_000 if quick else 10_000
    _measure(START, _start_cycle, 200)  # warm up
    rows = _rows("8x8 start, nothing else running", *_measure(START, _start_cycle, events))
    wall, cpu, nodes = _with_hint(events, None)
    rows += _rows("8x8 start, a hint searching", wall, cpu)
    rows.append(("coach hint: nodes searched meanwhile", float(nodes), "nodes"))
    default = 0.005 if sys.getswitchinterval() == 0.005 else sys.getswitchinterval()
    wall, cpu, _ = _with_hint(events // 2, default)
    rows += _rows(f"8x8 start, a hint searching, switch interval {default * 1000:.0f} ms", wall, cpu)
    return rows


if __name__ == "__main__":  # pragma: no cover
    for name, value, unit in bench_coach(quick="--quick" in sys.argv):
        print(f"{name:<64} {value:10.3f} {unit}")
