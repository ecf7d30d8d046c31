"""The coach's pure core, for any game: a hint, the threats to a player's pieces, a blunder check.

Nothing here reads a clock, starts a thread or draws a random number: the clock, the budget
and the stop flag are values the caller passes, as for the search (companion.ai.search). The
app runs :class:`Coach` through the AI worker (companion.ai.worker.SearchWorker: ``start(coach.
hinter(), pos, budget)``), so a hint never blocks the UI thread; threats cost one bounded capture
search per capture (tens of milliseconds in a busy middlegame on a PC): run them off the UI
thread too.

* :meth:`Coach.hint` -- the best action the search finds within a budget (time or nodes).
* :meth:`Coach.threats` -- the player's pieces the opponents can take for free, each with the
  material it would lose and the capture that takes it. "Free" is what a capture search says
  after the capture (recaptures, a better capture in return), through the search's own decision
  nodes: in Combat Chess the capture is a fight weighed by its exact odds (a knight attacking a
  queen still "takes" it at the odds of the fight); in Chess 2 the defender may call a duel (a
  duel that may save the piece lowers the threat by what it is worth).
* :meth:`Coach.check_move` -- after a move: its score against the best alternative's at the
  same depth, how much it dropped (centipawns, from the mover's side) and its class
  (:func:`classify`: inaccuracy, mistake, blunder; thresholds below).

Classes follow the loss of winning chances, as lichess does (its published thresholds): a
score s (centipawns, from the mover's side) is the winning chance ``2 / (1 + exp(-0.00368208
s)) - 1`` in [-1, 1]; a move that loses at least 0.3 of it is a blunder, 0.2 a mistake, 0.1 an
inaccuracy. A drop from +900 to +700 is then nothing, from +100 to -100 a mistake: what a
player feels. A mate score counts as a chance of 1.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

from ..core.moves import Answer, Move
from .decisions import MATE_BOUND
from .levels import STRONGEST, ComputerPlayer
from .search import Search, SearchInfo

#: seconds a hint may think (the app's budget; a Pi searches 5-10x fewer nodes in it)
HINT_SECONDS = 3.0
#: a threat must lose at least this much (centipawns): half a pawn, so an even trade is none
THREAT_MARGIN = 50.0
#: winning-chance losses that make an inaccuracy, a mistake, a blunder
INACCURACY, MISTAKE, BLUNDER = 0.1, 0.2, 0.3
_K = 0.00368208


def winning_chance(score: float) -> float:
    """A score (centipawns from a player's side) as a winning chance in [-1, 1]."""
    if score >= MATE_BOUND:
        return 1.0
    if score <= -MATE_BOUND:
        return -1.0
    return 2.0 / (1.0 + math.exp(-_K * max(-5000.0, min(5000.0, score)))) - 1.0


def classify(before: float, after: float) -> str | None:
    """``"blunder"``, ``"mistake"``, ``"inaccuracy"`` or None for a move that turned the
    mover's best score ``before`` into ``after`` (both centipawns from the mover's side)."""
    loss = winning_chance(before) - winning_chance(after)
    if loss >= BLUNDER:
        return "blunder"
    if loss >= MISTAKE:
        return "mistake"
    if loss >= INACCURACY:
        return "inaccuracy"
    return None


@dataclass(frozen=True)
class Hint:
    action: Move | Answer | None   # None: nothing to play (the game is over)
    score: float                   # centipawns (or a mate score) from the player's side
    depth: int
    nodes: int
    pv: tuple = ()


@dataclass(frozen=True)
class Threat:
    square: int        # where the threatened piece stands
    loss: float        # what the player loses if it is taken (centipawns; fights and duels weighed)
    capture: Move      # the capture that takes it (the most damaging)
    by: int            # the player who would take it


@dataclass(frozen=True)
class MoveCheck:
    action: Move | Answer
    played: float      # the move's score at the searched depth (centipawns, mover's side)
    best: float        # the best alternative's score
    best_action: Move | Answer
    depth: int
    kind: str | None   # "blunder", "mistake", "inaccuracy" or None (classify)

    @property
    def drop(self) -> float:
        """Centipawns the move gave away against the best alternative (0 if it was the best)."""
        return max(0.0, self.best - self.played)


class Coach:
    """The coach for one game: one searcher (its tables kept between questions)."""

    def __init__(self, rules, search: Search | None = None):
        self.rules = rules
        self.search = search or Search(rules)

    def hinter(self) -> ComputerPlayer:
        """A player for companion.ai.worker.SearchWorker whose move is the hint (the strongest
        level, sharing this coach's searcher)."""
        import random

        player = ComputerPlayer(self.rules, STRONGEST, random.Random(0), self.search.ev)
        player.search = self.search
        return player

    def hint(self, pos, *, now: Callable[[], float], budget: float | None = None, max_nodes: int | None = None,
             stop: Callable[[], bool] | None = None) -> Hint:
        """The best action for whoever acts in ``pos`` (left unchanged)."""
        info = self.search.run(pos, now=now, budget=budget, max_nodes=max_nodes, stop=stop)
        return Hint(info.best, info.score, info.depth, info.nodes, info.pv)

    def threats(self, pos, player: int, *, now: Callable[[], float] = lambda: 0.0,
                max_nodes: int = 4000) -> list[Threat]:
        """``player``'s pieces that an opponent could take for free, as things stand: for each
        opponent in turn, as if it were to move now, every capture of one of ``player``'s
        pieces is followed by the capture search; a piece is threatened when that costs
        ``player`` at least :data:`THREAT_MARGIN`. Largest loss first, one entry per square.
        ``max_nodes`` bounds each capture's search."""
        if pos.pending is not None or self.rules.outcome(pos) is not None:
            return []
        s = self.search
        found: dict[int, Threat] = {}
        for foe in range(pos.nplayers):
            if foe == player or foe in pos.vars.get("out", ()) or not pos.occ[foe]:
                continue
            work = pos.copy()
            s._prepare(work, player, now, None, None, None, now())
            base_depth = work.depth
            s._pass_to(foe)
            try:
                captures = [m for m in self.rules.legal_moves(work)
                            if m.capture is not None and m.capture in work.occ[player]]
                if not captures:
                    continue
                before = s._leaf(0)
                for m in captures:
                    s.nodes, s.max_nodes = 0, max_nodes
                    if not s._apply(m):
                        continue
                    try:
                        after = s._capture_value()
                    finally:
                        while work.depth > base_depth + 1:
                            self.rules.undo(work)
                    if after is None:  # too deep a sequence to judge within the node limit
                        continue
                    loss = before - after
                    old = found.get(m.capture)
                    if loss >= THREAT_MARGIN and (old is None or loss > old.loss):
                        found[m.capture] = Threat(m.capture, round(loss, 1), m, foe)
            finally:
                while work.depth > base_depth:
                    self.rules.undo(work)
        return sorted(found.values(), key=lambda t: (-t.loss, t.square))

    def check_move(self, pos, action, *, now: Callable[[], float], budget: float | None = None,
                   max_nodes: int | None = None, stop: Callable[[], bool] | None = None,
                   best: SearchInfo | None = None) -> MoveCheck:
        """How ``action`` (about to be played, or just taken back to be judged) compares with the
        best alternative in ``pos``: the best is searched within the budget (or given: a hint
        already searched), then the played action alone to the same depth."""
        if best is None:
            best = self.search.run(pos, now=now, budget=budget, max_nodes=max_nodes, stop=stop)
        if best.best is None:
            raise ValueError("no action to compare with: the game is over")
        if best.best == action:
            return MoveCheck(action, best.score, best.score, action, best.depth, None)
        depth = max(1, best.depth)
        played = self.search.run(pos, now=now, max_depth=depth, only=(action,), stop=stop,
                                 max_nodes=None if max_nodes is None else max_nodes * 2)
        if played.best is None:
            raise ValueError(f"{action!r} is not a legal action here")
        if played.depth == 0:  # stopped before it was searched at all: no verdict
            return MoveCheck(action, best.score, best.score, best.best, 0, None)
        return MoveCheck(action, played.score, best.score, best.best, played.depth,
                         classify(best.score, played.score))
