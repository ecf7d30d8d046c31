"""Benchmark: sensor event to LED frame (``Tracker.feed`` plus ``palette.render``).

This is the latency a player feels between touching a piece and the squares lighting up.
Target: under 2 ms at the 99th percentile on a development machine (the Pi is 5-10x slower;
writing the LEDs themselves takes about 2 ms for 64 and 12 ms for 400 of them).

Scenarios:

* ``start``: the 8x8 start position; pieces lifted, put on destinations (the move state) and
  put back, never left long enough to commit, so the position stays the same.
* ``busiest``: the 218-legal-move position (the most moves known in a legal chess position,
  eight queens and two rooks), one and then up to eight pieces in the air at once, pieces
  put on destinations and illegal squares.
* ``20x20 four players``: Dungeon Chess on the Four Player Dungeon with the four default
  armies (45 units), after 24 plies that bring units out into the corridors and the arena;
  every piece of the side to move lifted and put on a destination and back, two in the air,
  one put on water (illegal), enemy pieces touched. Also the cost of ``position_changed``
  there (once per move: the tracker plays and takes back every legal move to find its
  effects).

Timed with ``perf_counter`` here, at the edge; the tracker itself never reads the clock.
"""

from __future__ import annotations

import statistics
import time

Row = tuple[str, float, str]

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
#: 218 legal moves for white (Nenad Petrovic's record position).
BUSIEST = "R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1"


def _start_cycle(g):
    n = g.parse_square
    return [
        (n("e2"), False), (n("e4"), True), (n("e4"), False), (n("e2"), True),  # a move made and taken back
        (n("g1"), False), (n("f3"), True), (n("f3"), False), (n("g1"), True),
        (n("d7"), False), (n("d7"), True),  # an enemy piece touched
        (n("b1"), False), (n("e5"), True), (n("e5"), False), (n("b1"), True),  # an illegal square
        (n("e1"), False), (n("d1"), False), (n("d1"), True), (n("e1"), True),  # two pieces in the air
    ]


def _busiest_cycle(g):
    n = g.parse_square
    queens = ["d7", "b6", "g6", "e5", "c4", "h4", "a3", "f3"]
    cycle = []
    for q in queens:  # one queen at a time: lift, put on a destination, back
        cycle += [(n(q), False), (n("d5"), True), (n("d5"), False), (n(q), True)]
    for q in queens:  # all eight in the air at once
        cycle.append((n(q), False))
    cycle += [(n("e4"), True), (n("e4"), False)]  # one put down somewhere meanwhile
    for q in reversed(queens):
        cycle.append((n(q), True))
    cycle += [(n("a8"), False), (n("a6"), True), (n("a6"), False), (n("a8"), True),  # a rook
              (n("b1"), False), (n("b5"), True), (n("b5"), False), (n("b1"), True)]  # a bishop, illegal
    return cycle


def _dungeon_four_player():
    """The four default armies on the 20x20 map, advanced 24 plies deterministically: each
    player moves the unit that gets closest to the centre of the board (no captures chosen,
    so all 45 units stay)."""
    from ..games import make_rules

    rules = make_rules("dungeon", "dungeon-four-player")
    pos = rules.start_position()
    g = rules.geometry
    cx, cy = (g.width - 1) / 2, (g.height - 1) / 2

    def centre_gain(m):
        d = lambda s: abs(s % g.width - cx) + abs(s // g.width - cy)  # noqa: E731
        return (d(m.frm) - d(m.to), -m.frm, -m.to)

    for _ in range(24):
        quiet = [m for m in rules.legal_moves(pos) if m.capture is None and m.frm >= 0 and not m.special]
        if not quiet:
            break
        rules.play(pos, max(quiet, key=centre_gain))
    return rules, pos


def _dungeon_cycle(rules, pos):
    g = rules.geometry
    water = next(s for s in range(g.size) if g.is_water(s))
    cycle = []
    movers = sorted(pos.occ[pos.turn])
    for sq in movers:  # each piece of the side to move: lift, put on a destination, back
        moves = [m for m in rules.moves_from(pos, sq) if m.capture is None and m.frm != m.to and not m.special]
        if moves:
            to = moves[len(moves) // 2].to
            cycle += [(sq, False), (to, True), (to, False), (sq, True)]
    a, b = movers[0], movers[-1]
    cycle += [(a, False), (b, False), (water, True), (water, False), (b, True), (a, True)]  # two in the air, water
    for p in range(pos.nplayers):  # an enemy piece of each other player touched
        if p != pos.turn and pos.occ[p]:
            e = min(pos.occ[p])
            cycle += [(e, False), (e, True)]
    return cycle


def _measure(fen, make_cycle, events: int) -> tuple[list[float], list[float]]:
    """Wall-clock and this thread's CPU seconds per event. On a shared machine the wall
    clock includes time the process waited for a core; the CPU time is the tracker's own.
    ``fen``: a chess position, or a (rules, position) pair."""
    from ..games import make_rules
    from .palette import render
    from .ports import SquareChanged
    from .tracker import LedsChanged, MoveDetected, Tracker

    if isinstance(fen, str):
        rules = make_rules("chess")
        pos = rules.position_from_text(fen)
        cycle = make_cycle(rules.geometry)
    else:
        rules, pos = fen
        cycle = make_cycle(rules, pos)
    tracker = Tracker(rules, pos)
    size = rules.geometry.size
    meanings: dict = {}
    wall: list[float] = []
    cpu: list[float] = []
    t_ms = 0
    for i in range(events):
        sq, occupied = cycle[i % len(cycle)]
        t_ms += 1  # events 1 ms apart: nothing settles, the position never changes
        event = SquareChanged(sq, occupied, t_ms)
        start = time.perf_counter()
        start_cpu = time.thread_time()
        outputs = tracker.feed(event)
        for o in outputs:
            if isinstance(o, LedsChanged):
                meanings = o.meanings
            elif isinstance(o, MoveDetected):  # pragma: no cover - the cycle never settles
                raise AssertionError("the benchmark cycle committed a move")
        render(meanings, size, t_ms=t_ms)
        cpu.append(time.thread_time() - start_cpu)
        wall.append(time.perf_counter() - start)
    return wall, cpu


def _p99(samples: list[float]) -> float:
    samples = sorted(samples)
    return samples[min(len(samples) - 1, int(len(samples) * 0.99))]


def _rows(label: str, wall: list[float], cpu: list[float]) -> list[Row]:
    return [
        (f"tracker {label}: event to LED frame median", statistics.median(wall) * 1000, "ms"),
        (f"tracker {label}: event to LED frame p99", _p99(wall) * 1000, "ms"),
        (f"tracker {label}: event to LED frame p99 (CPU time)", _p99(cpu) * 1000, "ms"),
        (f"tracker {label}: event to LED frame max", max(wall) * 1000, "ms"),
    ]


def _measure_position_changed(game, times: int) -> list[float]:
    """Seconds per ``position_changed`` (the game is not changed: the cost is the tracker
    working out every legal move's physical forms again)."""
    from .tracker import Tracker

    rules, pos = game
    tracker = Tracker(rules, pos)
    out = []
    for _ in range(times):
        start = time.perf_counter()
        tracker.position_changed()
        out.append(time.perf_counter() - start)
    return out


def bench_tracker(quick: bool = False) -> list[Row]:
    """Median, p99 and max milliseconds from a sensor event to its LED frame."""
    events = 2_000 if quick else 20_000
    rows: list[Row] = []
    four = _dungeon_four_player()
    for label, fen, cycle in (("8x8 start", START, _start_cycle), ("busiest (218 moves)", BUSIEST, _busiest_cycle),
                              ("20x20 four players", four, _dungeon_cycle)):
        _measure(fen, cycle, 200)  # warm up
        rows += _rows(label, *_measure(fen, cycle, events))
    samples = _measure_position_changed(four, 20 if quick else 200)
    rows.append(("tracker 20x20 four players: position_changed median", statistics.median(samples) * 1000, "ms"))
    return rows


if __name__ == "__main__":  # pragma: no cover
    for name, value, unit in bench_tracker(quick="--quick" in __import__("sys").argv):
        print(f"{name:<56} {value:8.3f} {unit}")
