"""Reference opponents for measuring the computer: ``random`` and ``greedy``.

* ``random`` plays a uniformly chosen legal move (or answer).
* ``greedy`` plays the move with the best material balance right after it, looking no further:
  a capture that starts a fight counts the material after each possible fight result,
  weighted by its exact probability. Ties are broken at random. Its part of a joint decision
  (a Chess 2 duel bid) is chosen at random, and when it weighs a duel it expects the
  opponent's bid to be random too.
* ``duelist`` (Chess 2) is greedy, but initiates every duel it may and always bids as much as
  it can (2, or its last stone): the "always bid 2" opponent.

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


def joint_options(pos, seat: int) -> tuple:
    """``seat``'s options in the pending joint decision."""
    pend = pos.pending
    return tuple(pend.get("options")[pend.get("players").index(seat)])


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

    def choose_part(self, pos, seat: int, **_) -> object:
        return self.rng.choice(joint_options(pos, seat))


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

    def choose_part(self, pos, seat: int, **_) -> object:
        """A random part (bid)."""
        return self.rng.choice(joint_options(pos, seat))

    def _material_after(self, pos, me: int, depth: int = 0) -> float:
        """Material once the move's own decisions are settled (expected over chance)."""
        rules = self.rules
        pend = pos.pending
        if pend is None or depth > 6:
            o = rules.outcome(pos)
            if o is not None and o.winners:
                return 1e6 if me in o.winners else -1e6
            return self.ev.material(pos, me)
        if pend.get("players"):  # a joint decision: every pair of parts equally likely
            answers = list(rules.answers(pos))
            total = 0.0
            for a in answers:
                rules.apply(pos, a)
                try:
                    total += self._material_after(pos, me, depth + 1)
                finally:
                    rules.undo(pos)
            return total / len(answers) if answers else self.ev.material(pos, me)
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


class DuelistPlayer(GreedyPlayer):
    """Greedy, except in Chess 2's duels: it initiates every duel it may and always bids its
    most (2, or all it has left). The opponent that "always bids 2"."""

    name = "duelist"

    def choose(self, pos, *, now: Callable[[], float], budget=None, stop=None, max_nodes=None,
               on_progress=None) -> SearchInfo:
        pend = pos.pending
        if pend is not None and pend.kind == "duel":
            duel = [a for a in self.rules.answers(pos) if a.value == "duel"]
            if duel:
                return SearchInfo(duel[0], 0.0, 0, 1, 0.0, (duel[0],))
        return super().choose(pos, now=now, budget=budget, stop=stop, max_nodes=max_nodes, on_progress=on_progress)

    def choose_part(self, pos, seat: int, **_) -> object:
        return max(joint_options(pos, seat))
