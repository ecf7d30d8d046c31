"""Playing strength, from 1 (a beginner who makes human mistakes on purpose) to ``max``.

A level limits the search (depth, no quiescence at level 1: it does not see the recapture)
and, below the strongest, picks among the root moves with every move scored exactly, after
adding seeded noise to each score and sometimes overlooking a capture it could make. All
randomness comes from the ``random.Random`` handed in, so a seat replays identically from its
seed (tests, bug reports); the strongest level uses no randomness at all.

Levels are chosen per seat: each :class:`ComputerPlayer` has its own level, searcher (with
its tables) and random generator.

Every level finishes a won ending. Against nothing but royal pieces (a bare King) the
mistakes stop: the position is searched as the strongest level would, in the level's share
of the time. Level 1 (depth 1, no capture search) used to stalemate such positions or drop its
Queen to a random reply: a beginner's mistakes belong to the fight, not to a game already won
(docs/ai.md, "Levels").
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable

from ..errors import LevelError
from .duel import JointPlan
from .evaluate import Evaluator
from .search import Search, SearchInfo, SearchOptions
from ..i18n import _



@dataclass(frozen=True)
class Level:
    number: int
    title: str
    max_depth: int | None     # None: as deep as the time allows
    quiescence: bool = True   # False: misses the recapture after a capture
    noise: float = 0.0        # standard deviation (centipawns) added to each root move's score
    miss: float = 0.0         # chance of overlooking each capture it could make
    time_share: float = 1.0   # share of the move time it uses

    @property
    def is_strongest(self) -> bool:
        return self.max_depth is None and not self.noise and not self.miss

    def search_options(self) -> SearchOptions:
        # the levels below the strongest keep their full-width search at their depth (a depth-3
        # player sees what three plies show): pruning is the strongest level's speed
        return SearchOptions(quiescence=self.quiescence, pruning=self.max_depth is None)


LEVELS: tuple[Level, ...] = (
    Level(1, "beginner", 1, quiescence=False, noise=120.0, miss=0.35, time_share=0.5),
    Level(2, "novice", 1, noise=70.0, miss=0.15, time_share=0.5),
    Level(3, "club player", 2, noise=40.0, miss=0.05, time_share=0.7),
    Level(4, "strong club player", 3, noise=20.0),
    Level(5, "expert", 4, noise=8.0),
    Level(6, "strongest", None),
)
STRONGEST = LEVELS[-1]


def parse_level(text: str | int) -> Level:
    """``"1"``..``"6"`` or ``"max"``; LevelError says what is allowed."""
    t = str(text).strip().lower()
    if t == "max":
        return STRONGEST
    if t in {str(n) for n in range(1, len(LEVELS) + 1)}:
        return LEVELS[int(t) - 1]
    raise LevelError(_("level {text!r} does not exist; use 1 (beginner) to {n}, or max").format(
                         text=text, n=len(LEVELS)))


class ComputerPlayer:
    """A computer seat: a level, its own searcher and its own seeded random generator."""

    def __init__(self, rules, level: Level, rng: random.Random, evaluator: Evaluator | None = None):
        self.rules = rules
        self.level = level
        self.rng = rng
        self.search = Search(rules, evaluator, level.search_options())
        self.name = f"level {level.number}" if not level.is_strongest else "max"
        self._evaluator = evaluator
        self._finisher: Search | None = None  # the strongest search, for a won ending

    def finisher(self) -> Search:
        """The search that finishes a won ending (made the first time one is reached)."""
        if self._finisher is None:
            self._finisher = Search(self.rules, self._evaluator or self.search.ev)
        return self._finisher

    def choose(
        self,
        pos,
        *,
        now: Callable[[], float],
        budget: float | None,
        stop: Callable[[], bool] | None = None,
        max_nodes: int | None = None,
        on_progress: Callable[[SearchInfo], None] | None = None,
    ) -> SearchInfo:
        """Search ``pos`` (left unchanged) and return the chosen action in ``info.best``."""
        lv = self.level
        if budget is not None:
            budget *= lv.time_share
        if lv.is_strongest or against_bare_royals(pos):
            search = self.search if lv.is_strongest else self.finisher()
            return search.run(pos, now=now, budget=budget, stop=stop, max_nodes=max_nodes,
                              on_progress=on_progress)
        info = self.search.run(pos, now=now, budget=budget, stop=stop, max_nodes=max_nodes,
                               max_depth=lv.max_depth, exact_root=True, on_progress=on_progress)
        if not info.root_scores:
            return info
        return pick_with_mistakes(info, lv, self.rng)

    def choose_part(self, pos, seat: int, *, now: Callable[[], float], budget: float | None,
                    stop: Callable[[], bool] | None = None, max_nodes: int | None = None):
        """This seat's part of a pending joint decision (a duel bid): drawn from the exact
        mixed-strategy equilibrium of the searched payoff matrix with the seat's own random
        generator. Below the strongest level the search is as shallow as the level's."""
        lv = self.level
        if budget is not None:
            budget *= lv.time_share
        plan = self.search.joint_plan(pos, seat, now=now, budget=budget, stop=stop, max_nodes=max_nodes,
                                      max_depth=lv.max_depth or 64)
        self.last_plan = plan
        return plan.choose(self.rng.random())

    def trim(self) -> None:
        """Between moves: empty the search's tables that have outgrown their limits."""
        self.search.trim()
        if self._finisher is not None:
            self._finisher.trim()


def against_bare_royals(pos) -> bool:
    """Is the player to act ahead against nothing but royal pieces (a bare King)? Every other
    player still in the game has only royals left, and this one has more than royals."""
    pend = pos.pending
    me = pend.player if pend is not None and pend.player >= 0 else pos.turn
    if len(pos.occ[me]) <= len(pos.royals[me]):
        return False
    out = pos.vars.get("out", ())
    return all(len(pos.occ[p]) == len(pos.royals[p]) for p in range(pos.nplayers) if p != me and p not in out)


def pick_with_mistakes(info: SearchInfo, level: Level, rng: random.Random) -> SearchInfo:
    """Choose among exactly scored root moves the way a weaker player would.

    Each capture is overlooked with probability ``level.miss`` (never all moves); each
    remaining score gets Gaussian noise of ``level.noise`` centipawns; the best noisy score
    wins. Draws from ``rng`` in the root moves' order, so a seed replays the same choice.
    """
    seen = []
    for action, score in info.root_scores:
        captures = getattr(action, "capture", None) is not None
        if captures and level.miss and rng.random() < level.miss:
            continue
        seen.append((action, score))
    if not seen:
        seen = list(info.root_scores)
    best, best_noisy = None, None
    for action, score in seen:
        noisy = score + (rng.gauss(0.0, level.noise) if level.noise else 0.0)
        if best_noisy is None or noisy > best_noisy:
            best, best_noisy = action, noisy
    score = dict(info.root_scores)[best]
    return SearchInfo(best, score, info.depth, info.nodes, info.elapsed, (best,), info.root_scores, info.stopped)


def plan_part(rules, pos, seat: int, *, evaluator=None, max_nodes: int = 6000, max_depth: int = 64,
              search=None) -> JointPlan:
    """The computer's mixed strategy for its part of the pending joint decision (its bid),
    searched to ``max_nodes`` nodes: the same position and limits give the same plan."""
    s = search or Search(rules, evaluator)
    return s.joint_plan(pos, seat, now=lambda: 0.0, max_nodes=max_nodes, max_depth=max_depth)


def computer_part(rules, pos, seat: int, u: float, **kw):
    """The computer's bid (its part of the pending joint decision) for random number ``u`` in
    [0, 1): what a screen fixes (and journals) before the person bids."""
    return plan_part(rules, pos, seat, **kw).choose(u)
