"""Moves, decisions and outcomes as small immutable values.

A :class:`Move` names the mover's square, the destination, the square of the piece it
captures (``None`` for a quiet move; differs from ``to`` for en passant), the promotion
piece code, and a ``special`` tag that tells the game's rules which side effects to apply
("castle", "ep", "double", or a variant's own named step). Moves are created by the rules'
generators; compare them by value.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import NamedTuple, Optional


class Move(NamedTuple):
    frm: int
    to: int
    capture: Optional[int] = None
    promotion: Optional[str] = None
    special: str = ""

    @property
    def is_capture(self) -> bool:
        return self.capture is not None

    def __repr__(self) -> str:
        parts = [str(self.frm), str(self.to)]
        if self.capture is not None or self.promotion or self.special:
            parts.append(repr(self.capture))
        if self.promotion or self.special:
            parts.append(repr(self.promotion))
        if self.special:
            parts.append(repr(self.special))
        return f"Move({', '.join(parts)})"


@dataclass(frozen=True)
class Answer:
    """An answer to a pending :class:`Decision` (a chosen option, dice faces, a bid...).

    ``value`` is what was chosen: an option's key for choices, a tuple of die faces for
    dice, an outcome name ("attacker", "defender", "bounce") for a resolved chance event.
    """

    decision: str
    value: object
    player: int = -1


@dataclass(frozen=True)
class Decision:
    """The engine stopped mid-turn and needs something before it can go on.

    ``kind`` names the question ("fight", "promotion", "duel-bid", "extra-step", ...).
    ``player`` is who answers (-1: nobody in particular, e.g. dice). ``chance`` is true when
    the answer comes from dice rather than a person: the AI then weighs the outcomes by
    probability instead of choosing. ``info`` carries what a screen needs to show.

    Two marks in ``info`` change how a decision is answered:

    * ``("players", (p, q))`` with ``("options", (p's, q's))``: a **joint** decision, answered
      once by both players at the same time (Chess 2's secret bids). Its answers carry one part
      per player, in that order: ``Answer(kind, (p's part, q's part))``; no answer holds one
      part alone, so neither is known before the other.
    * ``("ply", True)``: each answer is a ply of its own (Two Kings' king-turn: "skip" or a
      King's move), counted by perft like a move and searched with depth.
    """

    kind: str
    player: int = -1
    chance: bool = False
    info: tuple = ()

    def get(self, key: str, default=None):
        for k, v in self.info:
            if k == key:
                return v
        return default


@dataclass(frozen=True)
class ChanceOutcome:
    answer: Answer
    probability: Fraction


@dataclass(frozen=True)
class Outcome:
    """How a game ended. ``winners`` is empty for a draw."""

    winners: frozenset = field(default_factory=frozenset)
    reason: str = ""

    @property
    def is_draw(self) -> bool:
        return not self.winners

    def result_for(self, player: int) -> str:
        if not self.winners:
            return "draw"
        return "win" if player in self.winners else "loss"

    def describe(self, player_names) -> str:
        if not self.winners:
            return f"Draw ({self.reason})"
        who = " and ".join(player_names[p] for p in sorted(self.winners))
        return f"{who} wins ({self.reason})"
