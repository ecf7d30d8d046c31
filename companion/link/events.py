"""What the link tells the board's screen (and the headless match): values, past tense."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class ProposalReceived:
    """The guest: the host proposes this game (a companion.link.lobby.Proposal)."""

    proposal: Any


@dataclass(frozen=True)
class ProposalAccepted:
    """The host: the guest accepted; each board now seals its own choices."""


@dataclass(frozen=True)
class ChoicesSealed:
    """``board`` has sealed its choices (an army, a deployment, a duel's bid): what, nobody sees."""

    board: int
    label: str


@dataclass(frozen=True)
class ChoicesOpened:
    """Both boards' sealed choices for ``label`` are open and check out."""

    label: str


@dataclass(frozen=True)
class GameReady:
    """Both boards have the same set-up; the game's session exists (``setup``)."""

    setup: Any


@dataclass(frozen=True)
class Acted:
    """An action is in the game (``entry``, its journal JSON) with what the session said
    (``events``); ``remote``: it came from the other board (light and guide it)."""

    entry: dict
    events: tuple
    remote: bool


@dataclass(frozen=True)
class WaitingForSecret:
    """A fight waits for the other board's secret (its dice follow at once)."""

    index: int


@dataclass(frozen=True)
class RequestAnswered:
    """Something this board asked the other to write was refused (``why``) or done."""

    kind: str
    done: bool
    why: str = ""


@dataclass(frozen=True)
class TakebackAsked:
    """The other board asks to take back ``turns`` turns: Accept or Decline."""

    turns: int


@dataclass(frozen=True)
class Mismatch:
    """The boards disagree after action ``n``: play stops. ``mine`` and ``theirs`` are the
    position texts (``theirs`` is None until the other board's view arrives)."""

    n: int
    mine: str
    theirs: str | None


@dataclass(frozen=True)
class MismatchFixed:
    position: str


@dataclass(frozen=True)
class PeerAway:
    """Nothing heard from the other board since ``since_ms``: wait, adjourn, or (after the
    agreed time) claim the game."""

    since_ms: int


@dataclass(frozen=True)
class PeerBack:
    pass


@dataclass(frozen=True)
class PeerAdjourned:
    pass


@dataclass(frozen=True)
class Refused:
    """A message from the other board that the link does not accept (``why``); nothing of it
    was applied."""

    why: str


@dataclass(frozen=True)
class OtherGame:
    """A message of game ``number`` on this link, not this one: the board goes on to that game
    (after this one ended) and hands the message to it, or drops an old one."""

    number: int


@dataclass(frozen=True)
class ClaimedWhileAway:
    """The other board claimed the game while this one was away; ``lost`` actions this board
    made meanwhile never reached it (they stay in this board's record, before the claim)."""

    lost: int
