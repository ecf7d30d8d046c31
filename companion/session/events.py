"""Events: what the session tells the presenters happened (past tense), and the values they
carry (a move list's line, a fight as the fight screen shows it, the game's result)."""

from __future__ import annotations

from dataclasses import dataclass

from ..core.moves import Answer
from ..dice.odds import DiceSpec, FightOdds
from ..dice.record import RoundRecord
from .setup import GameSetup



@dataclass(frozen=True)
class FighterInfo:
    """One fighter as the fight screen shows it."""

    player: int
    kind: str  # piece kind name: "pawn", "knight", ...
    square: int
    uid: int
    dice: DiceSpec
    fatigue: int
    weapon_choice: bool

    @property
    def modifier(self) -> int:
        return (1 if self.weapon_choice else 0) - self.fatigue


@dataclass(frozen=True)
class FightInfo:
    """A pending fight: who, with which dice and modifiers, the exact odds from this round on,
    and the rounds rolled so far (ties)."""

    number: int
    round: int
    move: str
    san: str
    attacker: FighterInfo
    defenders: tuple[FighterInfo, ...]
    odds: FightOdds
    rounds: tuple[RoundRecord, ...]
    prerogative: bool = False


@dataclass(frozen=True)
class MoveEntry:
    """One line of the move list. ``fight`` is the fight's result, if the move started one;
    ``effects``: what the turn did, in order, as the game records it (the position variable
    ``effects`` of each of its steps: the move, the answers to its questions)."""

    player: int
    san: str
    move: str
    frm: int
    to: int
    fight: str | None = None
    effects: tuple = ()


@dataclass(frozen=True)
class GameResult:
    """How the game ended: ``winners`` is empty for a draw; ``reason`` is a key of
    companion.app.texts.RESULT_REASONS ("checkmate", "resigned", "draw agreed", ...)."""

    winners: frozenset[int]
    reason: str

    @property
    def is_draw(self) -> bool:
        return not self.winners


@dataclass(frozen=True)
class GameStarted:
    setup: GameSetup
    commitment: str | None


@dataclass(frozen=True)
class MovePlayed:
    entry: MoveEntry
    ply: int


@dataclass(frozen=True)
class AnswerPlayed:
    """A choice in the middle of a turn was answered (``text``: ``stay``, ``i8``)."""

    answer: Answer
    text: str


@dataclass(frozen=True)
class PartSealed:
    """A player's part of a joint decision is in (its value is not told: it stays sealed until
    every part is in, then the answer is played)."""

    player: int


@dataclass(frozen=True)
class FightStarted:
    fight: FightInfo


@dataclass(frozen=True)
class DiceRolled:
    """One round was rolled; ``fight`` is the fight after it (None when it ended)."""

    round: RoundRecord
    fight: FightInfo | None


@dataclass(frozen=True)
class FightEnded:
    number: int
    result: str  # "attacker", "defender" or "bounce"
    rounds: tuple[RoundRecord, ...]
    attacker: FighterInfo
    defenders: tuple[FighterInfo, ...]


@dataclass(frozen=True)
class TurnsUndone:
    entries: tuple[MoveEntry, ...]


@dataclass(frozen=True)
class PlayerResigned:
    """A player left a game of three or more (their pieces leave the board); play goes on."""

    player: int


@dataclass(frozen=True)
class PositionSet:
    """The position was corrected (an arbiter's SetPosition); the board is guided to it."""

    position: str


@dataclass(frozen=True)
class DrawOffered:
    player: int


@dataclass(frozen=True)
class DrawDeclined:
    player: int


@dataclass(frozen=True)
class GameOver:
    result: GameResult
    revealed_seed: str | None


@dataclass(frozen=True)
class ActionRefused:
    """The board reported a move the game cannot take (the tracker is told to guide back)."""

    reason: str

