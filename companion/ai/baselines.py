"""Reference opponents for measuring the computer: ``random`` and ``greedy``.

* ``random`` plays a uniformly chosen legal move (or answer).
* ``greedy`` plays the move with the best material balance right after it, looking no further:
  a capture that starts a fight counts the material after each possible fight result,
  weighted by its exact probability. Ties are broken at random.

Both draw only from the seeded ``random.Random`` they are given, so a match replays exactly.
They answer through the same ``choose`` call as :class:`companion.ai.levels.ComputerPlayer`.
"""

from __future__ import annotations

import random
from typing import Callable

from .evaluate import Evaluator
from .search import SearchInfo


def _actions(rules, pos) -> list:
    pend = pos.pending
    if pend is not None:
        return list(rules.answers(pos))
    return rules.legal_moves(pos)


class RandomPlayer:
    name = "random"

    def __init__(self, rules, rng: random.Random):
        self.rules = rules
        self.rng = rng

    def choose(self, pos, *, now: Callable[[], float], budget=None, stop=None, max_nodes=None,
               on_progress=None) -> SearchInfo:
        start = now()
        actions = _actions(self.rules, pos)
        best = self.rng.choice(actions) if actions else None
        return SearchInfo(best, 0.0, 0, len(actions), now() - start, (best,) if best else ())


class GreedyPlayer:
    name = "greedy"

    def __init__(self, rules, rng: random.Random, evaluator: Evaluator | None = None):
        self.rules = rules
        self.rng = rng
        self.ev = evaluator or Evaluator(rules)

    def choose(self, pos, *, now: Callable[[], float], budget=None, stop=None, max_nodes=None,
               on_progress=None) -> SearchInfo:
        start = now()
        me = pos.pending.player if pos.pending is not None and pos.pending.player >= 0 else pos.turn
        actions = _actions(self.rules, pos)
        if not actions:
            return SearchInfo(None, 0.0, 0, 0, now() - start)
        scored = []
        for a in actions:
            self.rules.apply(pos, a)
            try:
                scored.append((self._material_after(pos, me), a))
            finally:
                self.rules.undo(pos)
        top = max(s for s, _ in scored)
        best = self.rng.choice([a for s, a in scored if s >= top - 1e-9])
        return SearchInfo(best, top, 1, len(actions), now() - start, (best,))

    def _material_after(self, pos, me: int, depth: int = 0) -> float:
        """Material once the move's own decisions are settled (expected over chance)."""
        rules = self.rules
        pend = pos.pending
        if pend is None or depth > 6:
            o = rules.outcome(pos)
            if o is not None and o.winners:
                return 1e6 if me in o.winners else -1e6
            return self.ev.material(pos, me)
        if pend.chance:
            total = 0.0
            for out in rules.chance_outcomes(pos):
                rules.apply(pos, out.answer)
                try:
                    total += float(out.probability) * self._material_after(pos, me, depth + 1)
                finally:
                    rules.undo(pos)
            return total
        values = []
        for a in rules.answers(pos):
            rules.apply(pos, a)
            try:
                values.append(self._material_after(pos, me, depth + 1))
            finally:
                rules.undo(pos)
        if not values:
            return self.ev.material(pos, me)
        return max(values) if (pend.player if pend.player >= 0 else pos.turn) == me else min(values)
