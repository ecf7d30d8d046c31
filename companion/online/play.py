"""Lichess from the board, as one sans-I/O object: the lobby and the game being played.

:class:`OnlinePlay` reads what the link reports (companion.online.transport) and returns, in
order, what the board must know (the events of companion.online.game and .lobby, and
:class:`ConnectionChanged`) and what the link must do (a :class:`~.api.Request`,
:class:`~.game.Reopen`, :class:`~.transport.FollowGame`, :class:`~.transport.CancelSeek`).
The app's online room holds one, hands its commands to the link and its events to the
screen and the engine; tests drive the same object against the fake lichess.

The board plays one game at a time: a game that starts while another is on is left to the
player's other devices (:class:`GameNotTaken` says so), as is a game the board cannot play
(a variant other than standard chess, or one lichess marks as not for boards).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..i18n import _
from . import api
from .game import OnlineGame, Reopen
from .lobby import GameBegan, Lobby
from .ndjson import KEEP_ALIVE
from .transport import (EVENTS, Answered, CancelSeek, FollowGame, LineReceived, LineRefused, StreamEnded, StreamLost,
                        StreamOpened, Unfollow)

GAME_KINDS = ("move", "draw", "takeback", "resign", "abort", "claim-victory", "claim-draw", "chat")
#: The variants the board plays with lichess: FIDE chess from the start or from a position.
VARIANTS = ("standard", "fromPosition")


@dataclass(frozen=True)
class Connection:
    """How the board is linked to lichess, for the screen: ``state`` is ``connected``,
    ``connecting``, ``offline`` (retrying) or ``lost`` (given up: ``reason`` says why);
    ``retry_at_ms`` when it tries next; ``held_until_ms`` after a 429."""

    state: str
    reason: str = ""
    retry_at_ms: int | None = None
    held_until_ms: int | None = None

    @property
    def is_connected(self) -> bool:
        return self.state == "connected"


@dataclass(frozen=True)
class ConnectionChanged:
    connection: Connection


@dataclass(frozen=True)
class GameNotTaken:
    game_id: str
    reason: str


@dataclass(frozen=True)
class RequestFailed:
    """A lobby request refused (a challenge to an unknown name, a seek lichess did not take)."""

    kind: str
    reason: str
    status: int | None = None  # lichess's answer (429: asked to wait, nothing was done)


@dataclass(frozen=True)
class LineSkipped:
    reason: str


class OnlinePlay:
    def __init__(self, me: str) -> None:
        self.me = me.lower()
        self.lobby = Lobby(me=self.me)
        self.game: OnlineGame | None = None
        self.streams: dict[str, Connection] = {EVENTS: Connection("connecting")}
        self.held_until_ms: int | None = None

    # ----- the connection ------------------------------------------------------------------------------
    def connection(self) -> Connection:
        """The worst of the open streams (the event stream, and the game's while it is on)."""
        names = [EVENTS] + ([self.game.game_id] if self.game is not None and self.game.is_playing else [])
        order = {"lost": 0, "offline": 1, "connecting": 2, "connected": 3}
        worst = min((self.streams.get(n, Connection("connecting")) for n in names), key=lambda c: order[c.state])
        if self.held_until_ms is not None and worst.held_until_ms is None:
            worst = Connection(worst.state, worst.reason, worst.retry_at_ms, self.held_until_ms)
        return worst

    def _stream(self, name: str, conn: Connection) -> list:
        before = self.connection()
        self.streams[name] = conn
        after = self.connection()
        return [ConnectionChanged(after)] if after != before else []

    # ----- what the link reports ----------------------------------------------------------------------
    def handle(self, event: Any, now_ms: int) -> list:
        if self.held_until_ms is not None and now_ms >= self.held_until_ms:
            self.held_until_ms = None
        if isinstance(event, LineReceived):
            return self._line(event, now_ms)
        if isinstance(event, Answered):
            return self._answered(event, now_ms)
        if isinstance(event, StreamOpened):
            out = self._stream(event.stream, Connection("connected"))
            if event.stream == EVENTS:
                return out + self.lobby.stream_opened()
            if self.game is not None and event.stream == self.game.game_id:
                return out + self.game.stream_opened(now_ms)
            return out
        if isinstance(event, StreamLost):
            state = "lost" if event.retry_at_ms is None else "offline"
            held = event.retry_at_ms if event.status == 429 else None
            if held is not None:
                self.held_until_ms = held
            out = self._stream(event.stream, Connection(state, event.reason, event.retry_at_ms, held))
            if event.stream == EVENTS:
                return out + self.lobby.stream_lost()
            if self.game is not None and event.stream == self.game.game_id:
                return out + self.game.stream_lost(now_ms)
            return out
        if isinstance(event, StreamEnded):
            self.streams.pop(event.stream, None)
            return [ConnectionChanged(self.connection())]
        if isinstance(event, LineRefused):
            return [LineSkipped(event.reason)]
        raise TypeError(f"not a link event: {event!r}")

    def _line(self, event: LineReceived, now_ms: int) -> list:
        if event.stream == EVENTS:
            out = []
            for item in self.lobby.receive(event.value):
                out.append(item)
                if isinstance(item, GameBegan):
                    out += self._game_began(item)
            return out
        if self.game is not None and event.stream == self.game.game_id and event.value is not KEEP_ALIVE:
            return self.game.receive(event.value, now_ms)
        return []

    def _game_began(self, began: GameBegan) -> list:
        info = began.game
        if self.game is not None and self.game.is_playing and self.game.game_id != info.game_id:
            return [GameNotTaken(info.game_id, _("the board is playing another game; play this one on lichess"))]
        if self.game is not None and self.game.game_id == info.game_id:
            return []
        if info.variant not in VARIANTS or not info.board_compatible:
            return [GameNotTaken(info.game_id, _("the board plays standard chess on lichess, not {variant}").format(
                variant=info.variant) if info.variant not in VARIANTS else _("lichess does not allow this game on a board"))]
        self.game = OnlineGame(info.game_id, self.me)
        self.streams[info.game_id] = Connection("connecting")
        return [FollowGame(info.game_id)]

    def _answered(self, event: Answered, now_ms: int) -> list:
        req, ans = event.request, event.answer
        out: list = []
        if ans.status == 429 and ans.retry_at_ms is not None:
            self.held_until_ms = ans.retry_at_ms
            out.append(ConnectionChanged(self.connection()))
        if req.kind in GAME_KINDS:
            if self.game is not None and (req.tag == self.game.game_id or req.kind == "move"):
                out += self.game.answered(req, ans.status, ans.error, now_ms, ans.retry_at_ms)
            return out
        if req.kind == "seek":
            if req.stream:
                return out + self.lobby.seek_answered(ans.status, ans.error) + (
                    [] if ans.status == 200 else [RequestFailed("seek", ans.error or _("the seek failed"), ans.status)])
            return out + ([] if ans.ok else [RequestFailed("seek", ans.error, ans.status)])
        if not ans.ok and req.kind in ("challenge", "accept", "decline", "cancel"):
            out.append(RequestFailed(req.kind, ans.error or _("no answer from lichess"), ans.status))
        return out

    # ----- what the player asks ------------------------------------------------------------------------
    def seek(self, minutes: float, increment_s: int, rated: bool = False) -> list:
        return self.lobby.seek(minutes, increment_s, rated)

    def seek_correspondence(self, days: int, rated: bool = False) -> list:
        return self.lobby.seek_correspondence(days, rated)

    def cancel_seek(self) -> list:
        self.lobby.seeking = None
        return [CancelSeek()]

    def challenge(self, username: str, **clock: Any) -> list:
        return [api.challenge(username, **clock)]

    def accept(self, challenge_id: str) -> list:
        return self.lobby.accept(challenge_id)

    def decline(self, challenge_id: str, reason: str = "generic") -> list:
        return self.lobby.decline(challenge_id, reason)

    def follow(self, game_id: str) -> list:
        """Play on the board a lichess game going on (one the board left, or started elsewhere)."""
        info = self.lobby.games.get(game_id)
        if info is None:
            return []
        self.game = None
        return self._game_began(GameBegan(info))

    def take_up(self, game_id: str, moves: tuple[str, ...]) -> list:
        """Follow a game the board was playing (after a restart): ``moves`` are on the board;
        lichess's first line says what changed since."""
        self.game = OnlineGame(game_id, self.me, moves=tuple(moves), fresh=True)
        self.streams[game_id] = Connection("connecting")
        return [FollowGame(game_id)]

    def carry_on(self, game: OnlineGame) -> list:
        """Go on with ``game`` from an earlier link of the same account (a new token after one
        was refused): its moves and a move of ours not yet played stay; lichess's first line
        says what changed meanwhile."""
        if game.me != self.me or not game.is_playing:
            return []
        game.connected, game.fresh = False, True
        self.game = game
        self.streams[game.game_id] = Connection("connecting")
        return [FollowGame(game.game_id)]

    def leave(self, game_id: str) -> list:
        """The board stops following ``game_id`` (it goes on on lichess)."""
        if self.game is None or self.game.game_id != game_id:
            return []
        self.streams.pop(game_id, None)
        self.game = None
        return [Unfollow(game_id)]

    def play(self, uci: str, now_ms: int) -> list:
        return self.game.play(uci, now_ms) if self.game is not None else []

    def tick(self, now_ms: int) -> list:
        out = []
        if self.held_until_ms is not None and now_ms >= self.held_until_ms:
            self.held_until_ms = None
            out.append(ConnectionChanged(self.connection()))
        return out + (self.game.tick(now_ms) if self.game is not None else [])


__all__ = ["OnlinePlay", "Connection", "ConnectionChanged", "GameNotTaken", "RequestFailed", "LineSkipped", "Reopen"]
