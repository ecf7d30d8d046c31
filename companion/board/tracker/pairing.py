"""Pairing pieces to take away with squares to fill, and saying it.

After a change the board does not show (a lost fight, a takeback, an explosion), some squares
must be emptied and others filled. A person moves a piece rather than taking one off and
putting another on, so the tracker pairs them: the same kind and colour only, least total
distance (king steps, then the straighter route), by the Hungarian method (greedy beyond 40
squares). :func:`say_pairs` turns the pairs into instructions: moves first, then removals,
then placements, each with the reason of an effect where one is known.
"""

from __future__ import annotations

from typing import Mapping, Sequence

from .. import texts
from . import effects as fx
from .outputs import Look


def say_pairs(words, sources: dict[int, Look | None], targets: dict[int, Look | None], back: bool,
              reasons: Mapping[int, fx.Reason] | None = None) -> tuple[tuple[tuple[int, int], ...], str]:
    """Pair pieces to take away (``sources``: square -> the piece there, if known) with squares
    to fill (``targets``: square -> the piece that belongs there), and say it in ``words``
    (words.py): "Move the white knight from d5 to e3. Put the black pawn back on d5."; with
    the reason of an effect where one is known ("Remove the red Skeleton from c5 (destroyed by
    the explosion)."). ``back``: a piece to put on a square is put *back* there."""
    reasons = reasons or {}
    src = sorted(sources)
    dst = sorted(targets)
    width = words.geometry.width
    pairs = assign_pairs(src, dst, lambda a, b: _compatible(sources[a], targets[b]) and a != b,
                         lambda a, b: route_cost(width, a, b))
    paired_src = {a for a, _ in pairs}
    paired_dst = {b for _, b in pairs}
    sentences = []
    for a, b in pairs:
        look = sources[a] if sources[a] is not None else targets[b]
        sentences.append(fx.sentence("move", reasons.get(b, reasons.get(a)), piece=words.piece(look),
                                     frm=words.name(a), to=words.name(b)))
    for a in src:
        if a not in paired_src:
            sentences.append(fx.sentence("take off", reasons.get(a), piece=words.piece(sources[a]),
                                         square=words.name(a)))
    for b in dst:
        if b not in paired_dst:
            key = "put back" if back else "put"
            sentences.append(fx.sentence(key, reasons.get(b), piece=words.piece(targets[b]), square=words.name(b)))
    if len(sentences) > 4:
        sentences = sentences[:3] + [texts.more_lit(len(sentences) - 3)]
    return tuple(pairs), " ".join(sentences)


def route_cost(width: int, a: int, b: int) -> int:
    """King-step distance first, then the straighter route (Manhattan distance, < 64)."""
    dx, dy = abs(a % width - b % width), abs(a // width - b // width)
    return max(dx, dy) * 64 + dx + dy


def _compatible(a: Look | None, b: Look | None) -> bool:
    return a is None or b is None or a == b


_UNPAIRED = 10_000
_FORBIDDEN = 10_000_000


def assign_pairs(sources: Sequence[int], targets: Sequence[int], allowed, cost) -> list[tuple[int, int]]:
    """Pair sources with targets to minimise the total ``cost(a, b)`` (the Hungarian method).

    Pairs that ``allowed(a, b)`` rejects are never made; anything left over stays unpaired.
    Leaving a square unpaired costs more than any move, so the result pairs as many as it can
    and then prefers short moves. Sizes are small (a handful of squares after a fight or a
    takeback); beyond 40 squares a greedy nearest-first pairing keeps it fast."""
    if not sources or not targets:
        return []
    if len(sources) + len(targets) > 40:
        return _greedy_pairs(sources, targets, allowed, cost)
    n = len(sources) + len(targets)
    matrix = [[0] * n for _ in range(n)]
    for i in range(n):
        for j in range(n):
            if i < len(sources) and j < len(targets):
                a, b = sources[i], targets[j]
                matrix[i][j] = cost(a, b) if allowed(a, b) else _FORBIDDEN
            elif i < len(sources) or j < len(targets):
                matrix[i][j] = _UNPAIRED
    match = _hungarian(matrix)
    out = []
    for i, j in enumerate(match):
        if i < len(sources) and j < len(targets) and matrix[i][j] < _UNPAIRED:
            out.append((sources[i], targets[j]))
    return sorted(out)


def _greedy_pairs(sources, targets, allowed, cost):
    options = sorted((cost(a, b), a, b) for a in sources for b in targets if allowed(a, b))
    used_a, used_b, out = set(), set(), []
    for _, a, b in options:
        if a not in used_a and b not in used_b:
            used_a.add(a)
            used_b.add(b)
            out.append((a, b))
    return sorted(out)


def _hungarian(cost: list[list[int]]) -> list[int]:
    """Minimum-cost perfect matching on a square matrix; returns the column of each row."""
    n = len(cost)
    inf = float("inf")
    u = [0] * (n + 1)
    v = [0] * (n + 1)
    p = [0] * (n + 1)
    way = [0] * (n + 1)
    for i in range(1, n + 1):
        p[0] = i
        j0 = 0
        minv = [inf] * (n + 1)
        used = [False] * (n + 1)
        while True:
            used[j0] = True
            i0 = p[j0]
            delta = inf
            j1 = 0
            row = cost[i0 - 1]
            for j in range(1, n + 1):
                if not used[j]:
                    cur = row[j - 1] - u[i0] - v[j]
                    if cur < minv[j]:
                        minv[j] = cur
                        way[j] = j0
                    if minv[j] < delta:
                        delta = minv[j]
                        j1 = j
            for j in range(n + 1):
                if used[j]:
                    u[p[j]] += delta
                    v[j] -= delta
                else:
                    minv[j] -= delta
            j0 = j1
            if p[j0] == 0:
                break
        while True:
            j1 = way[j0]
            p[j0] = p[j1]
            j0 = j1
            if j0 == 0:
                break
    match = [0] * n
    for j in range(1, n + 1):
        if p[j]:
            match[p[j] - 1] = j - 1
    return match
