"""What the table tells the screen (past tense, like the session's events), and the values its
record keeps: the clock after each move, the notes for the record, the penalties given."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PressNeedsChoice:
    """The board shows a move the sensors cannot finish: the promotion piece, or which of two
    captures. ``options`` are move texts; the press completes with :meth:`Table.complete_press`."""

    side: int
    kind: str  # "promotion" or "which-move"
    options: tuple[str, ...]


@dataclass(frozen=True)
class IllegalMoveCaught:
    side: int
    what: str
    count: int
    penalty_ms: int  # time given to the opponent (0 when the game ended)


@dataclass(frozen=True)
class ClaimJudged:
    player: int
    kind: str
    correct: bool
    penalty_ms: int


@dataclass(frozen=True)
class DrawOfferMade:
    player: int


@dataclass(frozen=True)
class ResultTapped:
    player: int
    result: str | None


@dataclass(frozen=True)
class ArbiterActed:
    text: str


@dataclass(frozen=True)
class PowerRestored:
    """The game came back after a power cut with the clock paused at ``times``."""

    times: tuple[int, ...]


@dataclass(frozen=True)
class PlyClock:
    """The clock after a move: what the mover had left, and what the move took."""

    left_ms: int
    spent_ms: int


@dataclass(frozen=True)
class Note:
    """A sentence for the record after ``ply`` moves (0: before the first)."""

    ply: int
    text: str


@dataclass
class Penalty:
    """A penalty given (an illegal move, a wrong claim, the arbiter's): who got how much."""

    offender: int
    beneficiary: int
    ms: int
    illegal: bool
    cancelled: bool = False

