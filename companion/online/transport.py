"""What the link to lichess reports, as values (companion.online.link posts them; the state
machines of companion.online.play read them on the UI thread)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .api import Request


@dataclass(frozen=True)
class Answer:
    """What came back: ``status`` (None: no answer at all), the JSON body (or None), lichess's
    ``error`` words, and for a 429 when requests may go again."""

    status: int | None
    body: Any = None
    error: str = ""
    retry_at_ms: int | None = None

    @property
    def ok(self) -> bool:
        return self.status == 200


@dataclass(frozen=True)
class StreamOpened:
    stream: str  # "events" or a game id


@dataclass(frozen=True)
class LineReceived:
    stream: str
    value: Any  # a value of companion.online.events, or KEEP_ALIVE
    at_ms: int


@dataclass(frozen=True)
class LineRefused:
    """A line that is not what lichess's API describes (skipped; the stream goes on)."""

    stream: str
    reason: str


@dataclass(frozen=True)
class StreamLost:
    """The stream broke; ``retry_at_ms`` is when it is opened again (None: given up)."""

    stream: str
    reason: str
    retry_at_ms: int | None
    status: int | None = None


@dataclass(frozen=True)
class StreamEnded:
    """The server closed a game's stream after the game ended."""

    stream: str


@dataclass(frozen=True)
class Answered:
    request: Request
    answer: Answer


# ----- commands for the link ------------------------------------------------------------------------------
@dataclass(frozen=True)
class FollowGame:
    game_id: str


@dataclass(frozen=True)
class Unfollow:
    stream: str


@dataclass(frozen=True)
class CancelSeek:
    pass


EVENTS = "events"
