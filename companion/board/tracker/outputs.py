"""What the tracker reports: frozen values in the past tense (h11's events).

Every call of the tracker returns a list of these, in the order they happened. They report
*changes*; the tracker's properties give the whole current state.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Union

from ...core.moves import Answer, Move
from ..palette import Meaning

#: What a person sees standing on a square: (owner, piece code).
Look = tuple[int, str]

#: What the tracker reports as done: a move, or an answer to a pending decision.
Action = Union[Move, Answer]


@dataclass(frozen=True)
class MoveDetected:
    """The board shows ``move``; ``t_ms`` is when its last piece landed (for clocks)."""

    move: Move
    t_ms: int


@dataclass(frozen=True)
class AnswerDetected:
    """The board (or the screen) answered the choice the engine waits for (``pos.pending``):
    the session plays ``answer`` with ``rules.play`` and calls ``position_changed``."""

    answer: Answer
    t_ms: int


@dataclass(frozen=True)
class ScreenMovesChanged:
    """Moves that move no piece (a Shaman's hex) and so can only be made on the screen:
    offer them as buttons; :meth:`Tracker.choose` takes an option. Empty: offer none."""

    options: tuple[str, ...]
    labels: tuple[str, ...] = ()


@dataclass(frozen=True)
class LedsChanged:
    """The meaning of every lit square (unlisted squares are off). Sent only on change."""

    meanings: Mapping[int, Meaning]


@dataclass(frozen=True)
class GuidanceChanged:
    """What the players should do, in words and as squares. Empty text when nothing is to do."""

    text: str
    remove: tuple[int, ...] = ()
    place: tuple[int, ...] = ()
    pairs: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True)
class PromptRequested:
    """Ask the screen. ``options`` are what :meth:`Tracker.choose` accepts (piece codes for
    "promotion", move texts for "which-move", answer texts for a choice the engine waits for
    such as "step", "pass" for "pass"); ``labels`` say them in words."""

    kind: str
    options: tuple[str, ...]
    text: str
    labels: tuple[str, ...] = ()


@dataclass(frozen=True)
class PromptWithdrawn:
    """The question no longer applies (the pieces moved on); close it."""

    kind: str


@dataclass(frozen=True)
class IllegalMoveShown:
    """Pieces stand on ``squares`` where they may not go; ``origins`` light the way back."""

    squares: tuple[int, ...]
    origins: tuple[int, ...]
    text: str


@dataclass(frozen=True)
class OutOfSync:
    """The board needs fixing before play goes on (guidance says how)."""

    remove: tuple[int, ...]
    place: tuple[int, ...]
    t_ms: int


@dataclass(frozen=True)
class InSync:
    """The board shows the game again."""

    t_ms: int


@dataclass(frozen=True)
class SetupCompleted:
    t_ms: int


Output = Union[MoveDetected, AnswerDetected, ScreenMovesChanged, LedsChanged, GuidanceChanged,
               PromptRequested, PromptWithdrawn, IllegalMoveShown, OutOfSync, InSync, SetupCompleted]
