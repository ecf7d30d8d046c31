"""``companion bench`` rows for Chess 2: how fast the legal moves of a lifted piece are found
(what lights the LEDs when a piece is lifted; the goal is under 0.5 ms at the 99th percentile
on the development machine, the bar the other games meet), over all 21 match-ups.

Positions come from seeded random play from each match-up's start (answers to duels and
king-turns drawn too; the same generator as Dungeon Chess's bench); timing uses perf_counter
here, never in the core.
"""

from __future__ import annotations

import itertools
import statistics
import time

from .dungeon_bench import _positions

Row = tuple[str, float, str]


def bench_chess2(quick: bool = False) -> list[Row]:
    """Median, p99 and worst time of ``rules.moves_from`` for every piece of the side to move,
    in positions of every match-up; and of the whole legal move list."""
    from .chess2 import ARMIES, rules_for

    per = 3 if quick else 12
    lifted, full = [], []
    for i, (white, black) in enumerate(itertools.combinations_with_replacement(ARMIES, 2)):
        rules = rules_for((white, black))
        for pos in _positions(rules, per, seed=7 + i):
            t = time.perf_counter()
            rules.legal_moves(pos)
            full.append(time.perf_counter() - t)
            for sq in sorted(pos.occ[pos.turn]):
                t = time.perf_counter()
                rules.moves_from(pos, sq)
                lifted.append(time.perf_counter() - t)
    lifted.sort()
    full.sort()
    p99 = lifted[max(0, int(len(lifted) * 0.99) - 1)]
    return [
        ("chess2 lifted piece legal moves median", statistics.median(lifted) * 1e6, "us"),
        ("chess2 lifted piece legal moves p99", p99 * 1e6, "us"),
        ("chess2 lifted piece legal moves max", lifted[-1] * 1e6, "us"),
        ("chess2 lifted piece samples", float(len(lifted)), "pieces"),
        ("chess2 all legal moves median", statistics.median(full) * 1e6, "us"),
        ("chess2 all legal moves p99", full[max(0, int(len(full) * 0.99) - 1)] * 1e6, "us"),
    ]
