"""One lichess game played from the board, as a state machine (sans-I/O, in the h11 manner).

:class:`OnlineGame` is fed what the game stream said (the values of companion.online.events),
what became of the requests it asked for, and the player's moves from the board; it returns
what the board must do (events, past tense) and what must be sent (:class:`~.api.Request`,
and :class:`Reopen` to read the game afresh). It never sends, sleeps or reads a clock: every
call takes the time.

**The moves.** The server's move list is the truth. After every state the machine compares it
with the board's (the moves it confirmed, and the player's move not yet confirmed) and says
what to change: :class:`MovesUndone` (a takeback, or a line that differs), then
:class:`MovePlayed` for each move the board lacks (the opponent's, or ours confirmed from
another device). The app plays these through its engine, and the tracker guides the pieces.

**Our move is sent once, never twice.** A move read from the board becomes the *pending* move:

==============  ===============================================================================
``held``        not sent: the board is offline, or lichess asked it to wait (429): it is sent
                when a fresh game state (a new stream's ``gameFull``) shows the same position
                and our turn, or when the wait ends and the position is still the same
``sent``        the request is on its way
``accepted``    lichess answered 200; the stream will show it
``uncertain``   the request got no answer (the network, a 5xx): it may have been played. The
                game is read afresh (:class:`Reopen`); the move is confirmed if the server has
                it, and sent again only if the server's moves are still those before it
``checking``    a move sent again was refused: was the first one played after all? The fresh
                state decides (confirmed, or refused with lichess's words)
==============  ===============================================================================

A move lichess refuses (400) is :class:`MoveRefused` with its words; the board takes it back.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..i18n import _
from . import api
from .events import ChatLine, GameFull, GameState, OpponentGone, Unknown

HELD, SENT, ACCEPTED, UNCERTAIN, CHECKING = "held", "sent", "accepted", "uncertain", "checking"
MAX_CHAT = 50


# ----- what the machine says -----------------------------------------------------------------------------


@dataclass(frozen=True)
class GameLoaded:
    """The first ``gameFull``: who plays what, the clock, the moves so far (all to play)."""

    full: GameFull
    color: str


@dataclass(frozen=True)
class MovesUndone:
    count: int


@dataclass(frozen=True)
class MovePlayed:
    uci: str
    ply: int
    by_opponent: bool


@dataclass(frozen=True)
class MoveConfirmed:
    uci: str
    ply: int


@dataclass(frozen=True)
class MoveWaiting:
    """Our move is not sent yet: ``why`` is ``offline``, ``rate-limited`` or ``checking``."""

    uci: str
    why: str
    until_ms: int | None = None


@dataclass(frozen=True)
class MoveRefused:
    uci: str
    reason: str


@dataclass(frozen=True)
class ClocksChanged:
    white_ms: int
    black_ms: int
    running: str  # the colour whose clock runs, "" when none does
    at_ms: int


@dataclass(frozen=True)
class OffersChanged:
    draw_by: str  # "white", "black" or ""
    takeback_by: str


@dataclass(frozen=True)
class ChatReceived:
    line: ChatLine


@dataclass(frozen=True)
class OpponentLeft:
    gone: bool
    claim_at_ms: int | None


@dataclass(frozen=True)
class GameEnded:
    status: str
    winner: str  # "white", "black" or "" (a draw, an abort)


@dataclass(frozen=True)
class ActionRefused:
    kind: str  # draw, takeback, resign, abort, claim-victory
    reason: str


@dataclass(frozen=True)
class Reopen:
    """Command: read the game afresh (open its stream again; the first line is gameFull)."""

    game_id: str


@dataclass
class Pending:
    uci: str
    ply: int
    state: str
    attempts: int = 0
    moved_at_ms: int = 0
    until_ms: int = 0
    reason: str = ""


# ----- the machine ------------------------------------------------------------------------------------


@dataclass
class OnlineGame:
    game_id: str
    me: str  # our lichess user id (lower case)
    full: GameFull | None = None
    color: str = ""
    moves: tuple[str, ...] = ()  # the server's moves the board has
    state: GameState | None = None
    state_at_ms: int = 0
    pending: Pending | None = None
    connected: bool = False
    fresh: bool = False  # the next gameFull follows a reconnection
    offers: tuple[str, str] = ("", "")
    chat: list[ChatLine] = field(default_factory=list)
    opponent_gone: bool = False
    claim_at_ms: int | None = None
    ended: GameEnded | None = None

    # ----- queries ------------------------------------------------------------------------------------
    @property
    def first_mover(self) -> str:
        fen = self.full.initial_fen if self.full else "startpos"
        parts = fen.split()
        return "black" if fen != "startpos" and len(parts) > 1 and parts[1] == "b" else "white"

    def colour_of_ply(self, ply: int) -> str:
        first = self.first_mover
        return first if ply % 2 == 0 else ("black" if first == "white" else "white")

    @property
    def local_moves(self) -> tuple[str, ...]:
        """The moves on the board: the server's, and ours not yet confirmed."""
        return self.moves + ((self.pending.uci,) if self.pending else ())

    @property
    def is_playing(self) -> bool:
        return self.state is not None and self.state.is_playing

    @property
    def is_my_turn(self) -> bool:
        return self.is_playing and self.pending is None and self.colour_of_ply(len(self.moves)) == self.color

    @property
    def opponent(self):
        if self.full is None:
            return None
        return self.full.black if self.color == "white" else self.full.white

    def has_clock(self) -> bool:
        return self.full is not None and self.full.clock_initial_ms is not None

    def clocks(self, now_ms: int) -> tuple[int, int, str]:
        """(white ms, black ms, the colour whose clock runs) at ``now_ms``."""
        if self.state is None:
            return 0, 0, ""
        times = {"white": self.state.wtime_ms, "black": self.state.btime_ms}
        running = self._running()
        if running and self.pending is not None:
            # we moved: our clock stopped then, and the opponent's starts when lichess says so
            since = max(0, self.pending.moved_at_ms - self.state_at_ms) if running == self.color else 0
            times[running] = max(0, times[running] - since)
            running = ""
        elif running:
            times[running] = max(0, times[running] - max(0, now_ms - self.state_at_ms))
        return times["white"], times["black"], running

    def _running(self) -> str:
        # lichess starts the clocks once both sides have made their first move
        if not self.is_playing or not self.has_clock() or len(self.moves) < 2:
            return ""
        return self.colour_of_ply(len(self.moves))

    def first_move_deadline_ms(self) -> int | None:
        e = self.state.expiration if self.state else None
        if e is None or not self.is_playing:
            return None
        return self.state_at_ms + max(0, e.to_move_ms - e.idle_ms)

    def can_abort(self) -> bool:
        """Lichess lets a game be aborted before each side has moved."""
        return self.is_playing and len(self.local_moves) < 2

    def can_claim_victory(self, now_ms: int) -> bool:
        return self.is_playing and self.opponent_gone and self.claim_at_ms is not None and now_ms >= self.claim_at_ms

    # ----- the stream -------------------------------------------------------------------------------
    def stream_opened(self, now_ms: int) -> list:
        self.connected = True
        return []

    def stream_lost(self, now_ms: int) -> list:
        """The game stream ended or broke: the next gameFull is a fresh look at the game."""
        self.connected, self.fresh = False, True
        return []

    def receive(self, line: Any, now_ms: int) -> list:
        if isinstance(line, GameFull):
            return self._game_full(line, now_ms)
        if isinstance(line, GameState):
            return self._state(line, now_ms, fresh=False) if self.full is not None else []
        if isinstance(line, ChatLine):
            self.chat.append(line)
            del self.chat[:-MAX_CHAT]
            return [ChatReceived(line)]
        if isinstance(line, OpponentGone):
            self.opponent_gone = line.gone
            self.claim_at_ms = now_ms + 1000 * line.claim_win_in_s if line.gone and line.claim_win_in_s is not None \
                else (now_ms if line.gone else None)
            return [OpponentLeft(line.gone, self.claim_at_ms)]
        if isinstance(line, Unknown):
            return []
        raise TypeError(f"not a game stream value: {line!r}")

    def _game_full(self, full: GameFull, now_ms: int) -> list:
        out: list = []
        first = self.full is None
        self.full = full
        self.connected = True
        if first:
            me = self.me.lower()
            self.color = "black" if full.black.id.lower() == me and full.white.id.lower() != me else "white"
            out.append(GameLoaded(full, self.color))
        fresh, self.fresh = self.fresh or first, False
        return out + self._state(full.state, now_ms, fresh=fresh)

    def _state(self, state: GameState, now_ms: int, fresh: bool) -> list:
        out: list = []
        self.state, self.state_at_ms = state, now_ms
        out += self._moves(state.moves, now_ms, fresh)
        w, b, running = self.clocks(now_ms)
        out.append(ClocksChanged(w, b, running, now_ms))
        offers = (state.draw_offered_by(), state.takeback_proposed_by())
        if offers != self.offers:
            self.offers = offers
            out.append(OffersChanged(*offers))
        if not state.is_playing and self.ended is None:
            self.ended = GameEnded(state.status, state.winner)
            self.pending = None
            self.opponent_gone = False
            out.append(self.ended)
        return out

    def _moves(self, server: tuple[str, ...], now_ms: int, fresh: bool) -> list:
        out: list = []
        board = self.local_moves  # what the board shows now
        p = self.pending
        if p is not None:
            if len(server) > p.ply and server[:p.ply] == self.moves and server[p.ply] == p.uci:
                out.append(MoveConfirmed(p.uci, p.ply))
                self.pending = None
            elif server == self.moves:
                return self._still_missing(p, now_ms, fresh)
            else:
                self.pending = None  # the game went on without it (a takeback): the diff takes it back
        common = 0
        while common < min(len(board), len(server)) and board[common] == server[common]:
            common += 1
        if len(board) > common:
            out.append(MovesUndone(len(board) - common))
        for ply in range(common, len(server)):
            out.append(MovePlayed(server[ply], ply, self.colour_of_ply(ply) != self.color))
        self.moves = server
        return out

    def _still_missing(self, p: Pending, now_ms: int, fresh: bool) -> list:
        """The server's moves are those before our pending move: send it, or wait."""
        if not fresh or not self.is_playing:
            return []
        if p.state == CHECKING:
            self.pending = None
            return [MovesUndone(1), MoveRefused(p.uci, p.reason)]
        if p.state in (UNCERTAIN, HELD) and now_ms >= p.until_ms:
            return self._send(p)
        return []

    # ----- the player's move ----------------------------------------------------------------------------
    def play(self, uci: str, now_ms: int) -> list:
        """The player made ``uci`` on the board. Returns the request to send (or MoveWaiting);
        a move that cannot be played now is MoveRefused at once."""
        if not self.is_playing:
            return [MoveRefused(uci, _("the game is over"))]
        if self.pending is not None or self.colour_of_ply(len(self.moves)) != self.color:
            return [MoveRefused(uci, _("it is not your turn"))]
        self.pending = Pending(uci, len(self.moves), HELD, moved_at_ms=now_ms)
        if not self.connected:
            return [MoveWaiting(uci, "offline")]
        return self._send(self.pending)

    def _send(self, p: Pending) -> list:
        p.state, p.attempts = SENT, p.attempts + 1
        return [api.move(self.game_id, p.uci)]

    def answered(self, request: api.Request, status: int | None, error: str, now_ms: int,
                 retry_at_ms: int | None = None) -> list:
        """What became of ``request``: an HTTP ``status`` (None: no answer at all), lichess's
        ``error`` text, and for a 429 when requests may go again."""
        if request.kind == "move":
            return self._move_answered(request, status, error, now_ms, retry_at_ms)
        if status == 200 or request.kind in ("game", "chat"):
            return []
        if status == 429:
            return [ActionRefused(request.kind, _("lichess asked the board to wait a minute; try again then"))]
        return [ActionRefused(request.kind, error or (_("no answer from lichess") if status is None
                                                      else _("lichess answered {status}").format(status=status)))]

    def _move_answered(self, request: api.Request, status: int | None, error: str, now_ms: int,
                       retry_at_ms: int | None) -> list:
        p = self.pending
        if p is None or p.uci != request.tag or p.state != SENT:
            return []  # an answer about a move that is no longer pending: the stream has spoken
        if status == 200:
            p.state = ACCEPTED
            return []
        if status == 429:
            p.state, p.until_ms = HELD, retry_at_ms or now_ms
            return [MoveWaiting(p.uci, "rate-limited", p.until_ms)]
        if status == 401:  # the token refused (revoked): not played; held until a token is back
            p.state, p.until_ms = HELD, 0
            self.connected, self.fresh = False, True
            return [MoveWaiting(p.uci, "offline")]
        if status is not None and 400 <= status < 500:
            if p.attempts > 1:  # sent again after no answer: the first may have been played
                p.state, p.reason = CHECKING, error or _("lichess answered {status}").format(status=status)
                return [MoveWaiting(p.uci, "checking"), Reopen(self.game_id)]
            self.pending = None
            return [MovesUndone(1), MoveRefused(p.uci, error or _("lichess answered {status}").format(status=status))]
        p.state = UNCERTAIN
        return [MoveWaiting(p.uci, "checking"), Reopen(self.game_id)]

    def tick(self, now_ms: int) -> list:
        """Time passed: a move held by a 429 is sent when the wait is over (the stream's state
        is current: nothing changed, or the move would have been dropped)."""
        p = self.pending
        if p is not None and p.state == HELD and p.until_ms and now_ms >= p.until_ms and self.connected \
                and self.is_playing:
            p.until_ms = 0
            return self._send(p)
        return []

    # ----- the other actions ----------------------------------------------------------------------------
    def offer_draw(self) -> list:
        return [api.draw(self.game_id, True)] if self.is_playing else []

    def answer_draw(self, accept: bool) -> list:
        return [api.draw(self.game_id, accept)] if self.is_playing else []

    def propose_takeback(self) -> list:
        return [api.takeback(self.game_id, True)] if self.is_playing and self.local_moves else []

    def answer_takeback(self, accept: bool) -> list:
        return [api.takeback(self.game_id, accept)] if self.is_playing else []

    def resign(self) -> list:
        return [api.resign(self.game_id)] if self.is_playing else []

    def abort(self) -> list:
        return [api.abort(self.game_id)] if self.can_abort() else []

    def claim_victory(self, now_ms: int) -> list:
        return [api.claim_victory(self.game_id)] if self.can_claim_victory(now_ms) else []

    def claim_draw(self, now_ms: int) -> list:
        """The same moment as the win (the opponent gone long enough), for a draw instead."""
        return [api.claim_draw(self.game_id)] if self.can_claim_victory(now_ms) else []
