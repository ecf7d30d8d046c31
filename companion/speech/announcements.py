"""What the board says, as values, and how a board is set to say it."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from ..errors import CompanionError
from ..i18n import _, ngettext


class Priority(IntEnum):
    """How much an announcement matters: a higher one cuts a lower one short (schedule.py)."""

    CHATTER = 0   # whose turn, what a lifted piece can do
    INFO = 1      # guidance, fights, duels, abilities, prompts
    MOVE = 2      # a move
    URGENT = 3    # clock warnings, the result


class Kind:
    """What an announcement is about (``moves only`` keeps :data:`MOVES_ONLY`)."""

    MOVE = "move"
    TURN = "turn"
    FIGHT = "fight"
    DICE = "dice"
    DUEL = "duel"
    ABILITY = "ability"
    GUIDANCE = "guidance"
    PROMPT = "prompt"
    CLOCK = "clock"
    RESULT = "result"
    PIECE = "piece"      # a lifted piece, a piece held up
    NOTICE = "notice"    # a draw offer, a resignation, a refused move, moves taken back


#: What "moves only" still says: the moves and how the game ended.
MOVES_ONLY = frozenset({Kind.MOVE, Kind.RESULT})


@dataclass(frozen=True)
class Announcement:
    """One thing to say: ``text`` in ``language`` (a code of companion.i18n.LANGUAGES)."""

    text: str
    language: str
    priority: Priority
    kind: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "priority", Priority(self.priority))


#: The volume's steps (percent); the menu steps through them.
VOLUMES = (20, 40, 60, 80, 100)


@dataclass(frozen=True)
class SpeechSettings:
    """A board's speech settings (saved with the board's settings). Off unless turned on; a
    tournament game keeps it off (:meth:`for_tournament`)."""

    on: bool = False
    volume: int = 80
    moves_only: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.on, bool) or not isinstance(self.moves_only, bool):
            raise CompanionError(_("speech: 'on' and 'moves_only' are true or false"))
        if isinstance(self.volume, bool) or not isinstance(self.volume, int) or not 0 <= self.volume <= 100:
            raise CompanionError(_("speech: the volume is a whole number from 0 to 100, got {volume!r}").format(
                volume=self.volume))

    def says(self, announcement: Announcement) -> bool:
        """Whether a board set like this says ``announcement``."""
        return self.on and self.volume > 0 and (not self.moves_only or announcement.kind in MOVES_ONLY)

    def to_json(self) -> dict:
        return {"on": self.on, "volume": self.volume, "moves_only": self.moves_only}

    @classmethod
    def from_json(cls, data: object) -> "SpeechSettings":
        if not isinstance(data, dict):
            raise CompanionError(_("speech settings are an object, got {data!r}").format(data=data))
        unknown = set(data) - {"on", "volume", "moves_only"}
        if unknown:
            raise CompanionError(ngettext("speech settings: unknown key {keys}", "speech settings: unknown keys {keys}",
                                          len(unknown)).format(keys=', '.join(sorted(unknown))))
        return cls(**data)

    def louder(self) -> "SpeechSettings":
        """The next volume step (after the loudest, the softest)."""
        higher = [v for v in VOLUMES if v > self.volume]
        return SpeechSettings(self.on, higher[0] if higher else VOLUMES[0], self.moves_only)
