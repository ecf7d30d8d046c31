"""The account's side of lichess, as a state machine (sans-I/O): the event stream's games and
challenges, and the seek or challenge the board is waiting on.

When the event stream opens, lichess sends every current challenge and game again. The lobby
keeps what it knew until the stream's first keep-alive line (sent every 6 seconds, after that
first burst): what was not sent again by then is gone (a challenge withdrawn while the board
was offline). Events are said once: a challenge sent again after a reconnection is not news.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from . import api
from .events import ChallengeCanceled, ChallengeDeclined, ChallengeReceived, Challenge, GameFinish, GameInfo, \
    GameStart, Unknown
from .ndjson import KeepAlive


@dataclass(frozen=True)
class GameBegan:
    game: GameInfo


@dataclass(frozen=True)
class GameOverOnline:
    game: GameInfo


@dataclass(frozen=True)
class ChallengesChanged:
    incoming: tuple[Challenge, ...]
    outgoing: tuple[Challenge, ...]


@dataclass(frozen=True)
class ChallengeAnswered:
    """Our challenge was declined (``reason``: lichess's words) or withdrawn."""

    challenge: Challenge
    declined: bool
    reason: str


@dataclass(frozen=True)
class SeekEnded:
    """The seek stream closed: taken (a game starts on the event stream) or expired."""

    taken: bool


@dataclass
class Lobby:
    me: str = ""
    connected: bool = False
    games: dict[str, GameInfo] = field(default_factory=dict)
    incoming: dict[str, Challenge] = field(default_factory=dict)
    outgoing: dict[str, Challenge] = field(default_factory=dict)
    seeking: api.Request | None = None
    _before: set[str] | None = None  # ids known before a reconnection, until its burst is over
    _seen_games: set[str] = field(default_factory=set)

    def stream_opened(self) -> list:
        self.connected = True
        self._before = set(self.incoming) | set(self.outgoing)
        return []

    def stream_lost(self) -> list:
        self.connected = False
        return []

    def receive(self, line: Any) -> list:
        if isinstance(line, KeepAlive):
            return self._burst_over()
        if isinstance(line, GameStart):
            g = line.game
            self.games[g.game_id] = g
            self.incoming.pop(g.game_id, None)  # a challenge's game has the challenge's id
            out = self._outgoing_done(g.game_id)
            if g.game_id in self._seen_games:
                return out
            self._seen_games.add(g.game_id)
            self.seeking = None
            return out + [GameBegan(g)]
        if isinstance(line, GameFinish):
            self.games.pop(line.game.game_id, None)
            return [GameOverOnline(line.game)]
        if isinstance(line, ChallengeReceived):
            c = line.challenge
            mine = c.direction == "out" or (c.challenger.id.lower() == self.me.lower() and self.me)
            book = self.outgoing if mine else self.incoming
            if self._before is not None:
                self._before.discard(c.id)
            if c.id in book and book[c.id] == c:
                return []
            book[c.id] = c
            return [self._changed()]
        if isinstance(line, ChallengeCanceled):
            c = line.challenge
            out = []
            if self.incoming.pop(c.id, None) is not None:
                out.append(self._changed())
            if c.id in self.outgoing:
                del self.outgoing[c.id]
                out += [ChallengeAnswered(c, False, ""), self._changed()]
            return out
        if isinstance(line, ChallengeDeclined):
            c = line.challenge
            self.outgoing.pop(c.id, None)
            return [ChallengeAnswered(c, True, c.decline_reason or "declined"), self._changed()]
        if isinstance(line, Unknown):
            return []
        raise TypeError(f"not an event stream value: {line!r}")

    def _outgoing_done(self, challenge_id: str) -> list:
        if self.outgoing.pop(challenge_id, None) is not None:
            return [self._changed()]
        return []

    def _burst_over(self) -> list:
        if not self._before:
            self._before = None
            return []
        gone, self._before = self._before, None
        for cid in gone:
            self.incoming.pop(cid, None)
            self.outgoing.pop(cid, None)
        return [self._changed()]

    def _changed(self) -> ChallengesChanged:
        return ChallengesChanged(tuple(self.incoming.values()), tuple(self.outgoing.values()))

    # ----- what the player asks -----------------------------------------------------------------------
    def seek(self, minutes: float, increment_s: int, rated: bool = False) -> list:
        self.seeking = api.seek(minutes, increment_s, rated)
        return [self.seeking]

    def seek_correspondence(self, days: int, rated: bool = False) -> list:
        return [api.seek_correspondence(days, rated)]

    def seek_answered(self, status: int | None, error: str) -> list:
        """The seek's stream closed (200: taken or expired; otherwise it failed)."""
        self.seeking = None
        return [SeekEnded(taken=status == 200)]

    def accept(self, challenge_id: str) -> list:
        return [api.accept(challenge_id)] if challenge_id in self.incoming else []

    def decline(self, challenge_id: str, reason: str = "generic") -> list:
        if self.incoming.pop(challenge_id, None) is None:
            return []
        return [api.decline(challenge_id, reason), self._changed()]
