"""``companion bench`` rows for the computer: search speed in nodes per second.

For every registered game: its start position and a position reached by seeded random play,
each searched to a fixed number of nodes (so every run does the same work) by the strongest
search, and by the strongest search before issue 30 (companion/ai/previous.py) in the same run:
the peer. A node is one call of the search (a move, an answer, a quiescence position); the
depth each reaches in those nodes is in the row's name. Timed with perf_counter here, at the
edge.
"""

from __future__ import annotations

import random
import time

Row = tuple[str, float, str]


def _positions(rules, seed: int = 11):
    out = [("start", rules.start_position())]
    rng = random.Random(seed)
    pos = rules.start_position()
    plies = 0
    while plies < 16:
        if pos.pending is not None and pos.pending.chance:
            outs = rules.chance_outcomes(pos)
            rules.apply(pos, outs[0].answer)
            continue
        moves = rules.legal_moves(pos) if pos.pending is None else list(rules.answers(pos))
        if not moves:
            break
        rules.apply(pos, rng.choice(moves))
        plies += 1
    if pos.pending is None and rules.outcome(pos) is None:
        out.append(("after 16 random plies", pos))
    return out


#: games benched again with options (Chess 2's match-ups besides Classic against Classic)
VARIANTS = (("chess2", {"armies": "animals,reaper"}), ("chess2", {"armies": "two-kings,nemesis"}))


def bench_ai(quick: bool = False) -> list[Row]:
    from ..games import make_rules, names
    from .search import Search

    budget_nodes = 3_000 if quick else 20_000
    rows: list[Row] = []
    for game, options in [(g, {}) for g in names()] + list(VARIANTS):
        label = game + "".join(f" {v}" for v in options.values())
        try:
            rules = make_rules(game, **options)
            positions = _positions(rules)
        except Exception as e:  # a game that needs setup first (a draft): say so, go on
            rows.append((f"ai {label}: skipped ({type(e).__name__})", 0.0, "nodes/s"))
            continue
        for where, pos in positions:
            for name, search in (("", Search(rules)), (" previous", _previous(rules))):
                t = time.perf_counter()
                info = search.run(pos, now=time.perf_counter, max_nodes=budget_nodes)
                dt = time.perf_counter() - t
                rows.append((f"ai{name} {label} {where} (depth {info.depth})", info.nodes / dt if dt else 0.0,
                             "nodes/s"))
    return rows


def _previous(rules):
    """The search before issue 30 with its evaluation (companion/ai/previous.py), the peer."""
    from .evaluate import Evaluator
    from .previous import PreviousSearch, previous_table

    return PreviousSearch(rules, Evaluator(rules, previous_table(rules)))
