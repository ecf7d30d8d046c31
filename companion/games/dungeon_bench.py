"""``companion bench`` rows for Dungeon Chess: how fast the legal moves of a lifted piece are
found on the four-player map with full armies (what lights the LEDs when a piece is lifted;
the target is under 1 ms at the 99th percentile).

Positions come from seeded random play from the default start position (the bench's own
randomness, at the edge); timing uses perf_counter here, never in the core.
"""

from __future__ import annotations

import random
import statistics
import time

Row = tuple[str, float, str]


def _positions(rules, count: int, seed: int = 7):
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        pos = rules.start_position()
        for _ in range(rng.randint(4, 80)):
            if rules.outcome(pos) is not None:
                break
            if pos.pending is not None:
                rules.apply(pos, rng.choice(rules.answers(pos)))
                continue
            rules.apply(pos, rng.choice(rules.legal_moves(pos)))
        if pos.pending is None and rules.outcome(pos) is None:
            out.append(pos)
    return out


def bench_dungeon(quick: bool = False) -> list[Row]:
    """Median and p99 time of ``rules.moves_from`` for every piece of the side to move."""
    from .dungeon import make

    rules = make("dungeon-four-player")
    samples = []
    for pos in _positions(rules, 20 if quick else 120):
        for sq in sorted(pos.occ[pos.turn]):
            t = time.perf_counter()
            rules.moves_from(pos, sq)
            samples.append(time.perf_counter() - t)
    samples.sort()
    p99 = samples[max(0, int(len(samples) * 0.99) - 1)]
    return [
        ("dungeon 4p lifted piece legal moves median", statistics.median(samples) * 1e6, "us"),
        ("dungeon 4p lifted piece legal moves p99", p99 * 1e6, "us"),
        ("dungeon 4p lifted piece legal moves max", samples[-1] * 1e6, "us"),
        ("dungeon 4p lifted piece samples", float(len(samples)), "pieces"),
    ]
