"""Lichess's stream lines as values, read as its OpenAPI description has them.

Two streams feed the board (docs/online.md lists the spec files these follow):

* the **event stream** (``GET /api/stream/event``): :class:`GameStart`, :class:`GameFinish`
  (a :class:`GameInfo` each), :class:`ChallengeReceived`, :class:`ChallengeCanceled`,
  :class:`ChallengeDeclined` (a :class:`Challenge` each);
* the **game stream** (``GET /api/board/game/stream/{id}``): :class:`GameFull` (first,
  always), :class:`GameState`, :class:`ChatLine`, :class:`OpponentGone`.

A line is read field by field: what the schema requires must be there with its type
(:class:`~companion.errors.OnlineError` names the stream, the line type and the field), what
it does not know is left out, and a line of a type the description does not list is
:class:`Unknown` (lichess adds types; the board goes on). Times stay in milliseconds.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from ..errors import OnlineError
from ..i18n import _

#: Statuses of a game that is still played (GameStatusName.yaml); any other ends it.
PLAYING = ("created", "started")
COLOURS = ("white", "black")


class _Fields:
    """Reads one JSON object's fields with the place named in every error."""

    def __init__(self, value: Any, where: str) -> None:
        if not isinstance(value, dict):
            raise OnlineError(_("{where}: an object was expected, got {kind}").format(
                where=where, kind=type(value).__name__))
        self.value, self.where = value, where

    def _get(self, name: str, kinds: tuple[type, ...], required: bool, default: Any) -> Any:
        if name not in self.value or self.value[name] is None:
            if required:
                raise OnlineError(_("{where}: no {name!r}").format(where=self.where, name=name))
            return default
        v = self.value[name]
        if isinstance(v, bool) and bool not in kinds:
            raise OnlineError(_("{where}: {name!r} is {v!r}, not a {kind}").format(
                where=self.where, name=name, v=v, kind=kinds[0].__name__))
        if not isinstance(v, kinds):
            raise OnlineError(_("{where}: {name!r} is {v!r}, not a {kind}").format(
                where=self.where, name=name, v=str(v)[:40], kind=kinds[0].__name__))
        return v

    def text(self, name: str, required: bool = False, default: str = "") -> str:
        return self._get(name, (str,), required, default)

    def int(self, name: str, required: bool = False, default: int | None = None) -> int | None:
        v = self._get(name, (int, float), required, default)
        return int(v) if v is not None else None

    def flag(self, name: str, required: bool = False) -> bool:
        return bool(self._get(name, (bool,), required, False))

    def obj(self, name: str, required: bool = False) -> _Fields | None:
        v = self._get(name, (dict,), required, None)
        return _Fields(v, f"{self.where}.{name}") if v is not None else None

    def colour(self, name: str, required: bool = False) -> str:
        v = self.text(name, required)
        if v and v not in COLOURS:
            raise OnlineError(_("{where}: {name!r} is {v!r}, not white or black").format(
                where=self.where, name=name, v=v[:20]))
        return v


# ----- the game stream ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Player:
    """A side of a game (GameEventPlayer.yaml): a lichess user, or lichess's AI at a level."""

    id: str = ""
    name: str = ""
    rating: int | None = None
    title: str = ""
    ai_level: int | None = None

    @property
    def shown(self) -> str:
        if self.ai_level is not None:
            return f"Stockfish level {self.ai_level}"
        return " ".join(p for p in (self.title, self.name or self.id) if p) or "?"


@dataclass(frozen=True)
class Expiration:
    idle_ms: int
    to_move_ms: int


@dataclass(frozen=True)
class GameState:
    """GameStateEvent.yaml: the moves (UCI, space-separated), both clocks, the status and
    the offers standing now."""

    moves: tuple[str, ...]
    wtime_ms: int
    btime_ms: int
    winc_ms: int
    binc_ms: int
    status: str
    winner: str = ""
    wdraw: bool = False
    bdraw: bool = False
    wtakeback: bool = False
    btakeback: bool = False
    expiration: Expiration | None = None

    @property
    def is_playing(self) -> bool:
        return self.status in PLAYING

    def draw_offered_by(self) -> str:
        return "white" if self.wdraw else "black" if self.bdraw else ""

    def takeback_proposed_by(self) -> str:
        return "white" if self.wtakeback else "black" if self.btakeback else ""


@dataclass(frozen=True)
class GameFull:
    """GameFullEvent.yaml: the game's fixed facts and its :class:`GameState` now."""

    id: str
    variant: str
    speed: str
    rated: bool
    white: Player
    black: Player
    initial_fen: str
    state: GameState
    clock_initial_ms: int | None = None
    clock_increment_ms: int | None = None
    days_per_turn: int | None = None
    created_at: int = 0
    perf: str = ""


@dataclass(frozen=True)
class ChatLine:
    room: str
    username: str
    text: str


@dataclass(frozen=True)
class OpponentGone:
    gone: bool
    claim_win_in_s: int | None = None


# ----- the event stream ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class GameInfo:
    """GameEventInfo.yaml: a game of ours as the event stream names it."""

    game_id: str
    color: str
    fen: str = ""
    last_move: str = ""
    source: str = ""
    status: str = ""
    variant: str = "standard"
    speed: str = ""
    rated: bool = False
    has_moved: bool = False
    opponent: Player = field(default_factory=Player)
    is_my_turn: bool = False
    seconds_left: int | None = None
    board_compatible: bool = True
    winner: str = ""


@dataclass(frozen=True)
class Challenge:
    """ChallengeJson.yaml (and ChallengeCanceledJson.yaml for a declined one)."""

    id: str
    url: str
    status: str
    challenger: Player
    dest_user: Player | None
    variant: str
    rated: bool
    speed: str
    time_control: str  # "10+5", "3 days", "unlimited"
    limit_s: int | None
    increment_s: int | None
    days: int | None
    color: str
    direction: str = ""
    final_color: str = ""
    decline_reason: str = ""
    board_compatible: bool = True


@dataclass(frozen=True)
class GameStart:
    game: GameInfo


@dataclass(frozen=True)
class GameFinish:
    game: GameInfo


@dataclass(frozen=True)
class ChallengeReceived:
    """``challenge``: one sent to us, or one we sent (``challenge.direction``)."""

    challenge: Challenge


@dataclass(frozen=True)
class ChallengeCanceled:
    challenge: Challenge


@dataclass(frozen=True)
class ChallengeDeclined:
    challenge: Challenge


@dataclass(frozen=True)
class Unknown:
    """A line of a type the API description does not list for this stream."""

    type: str


# ----- reading ------------------------------------------------------------------------------------------


def _player(f: _Fields | None) -> Player:
    if f is None:
        return Player()
    return Player(id=f.text("id"), name=f.text("name") or f.text("username"), rating=f.int("rating"),
                  title=f.text("title"), ai_level=f.int("aiLevel"))


def read_state(f: _Fields) -> GameState:
    moves = f.text("moves", required=True)
    exp = f.obj("expiration")
    for name in ("wtime", "btime", "winc", "binc"):
        if f.int(name, required=True) < 0:
            raise OnlineError(_("{where}: {name!r} is negative").format(where=f.where, name=name))
    return GameState(moves=tuple(moves.split()), wtime_ms=f.int("wtime", True), btime_ms=f.int("btime", True),
                     winc_ms=f.int("winc", True), binc_ms=f.int("binc", True), status=f.text("status", True),
                     winner=f.colour("winner"), wdraw=f.flag("wdraw"), bdraw=f.flag("bdraw"),
                     wtakeback=f.flag("wtakeback"), btakeback=f.flag("btakeback"),
                     expiration=Expiration(exp.int("idleMillis", True), exp.int("millisToMove", True)) if exp else None)


def _game_full(f: _Fields) -> GameFull:
    clock = f.obj("clock")
    variant = f.obj("variant", required=True)
    perf = f.obj("perf")
    state = f.obj("state", required=True)
    if state.text("type") not in ("", "gameState"):
        raise OnlineError(_("{where}: type is {type!r}, not gameState").format(
            where=state.where, type=state.text('type')[:20]))
    return GameFull(id=f.text("id", True), variant=variant.text("key", True), speed=f.text("speed", True),
                    rated=f.flag("rated", True), white=_player(f.obj("white", True)),
                    black=_player(f.obj("black", True)), initial_fen=f.text("initialFen", default="startpos"),
                    state=read_state(state),
                    clock_initial_ms=clock.int("initial") if clock else None,
                    clock_increment_ms=clock.int("increment") if clock else None,
                    days_per_turn=f.int("daysPerTurn"), created_at=f.int("createdAt", default=0),
                    perf=perf.text("name") if perf else "")


def _game_info(f: _Fields) -> GameInfo:
    g = f.obj("game", required=True)
    status = g.obj("status")
    variant = g.obj("variant")
    compat = g.obj("compat")
    game_id = g.text("gameId") or g.text("id")
    if not game_id:
        raise OnlineError(_("{where}: no 'gameId'").format(where=g.where))
    return GameInfo(game_id=game_id, color=g.colour("color", True), fen=g.text("fen"), last_move=g.text("lastMove"),
                     source=g.text("source"), status=status.text("name") if status else "",
                     variant=variant.text("key", default="standard") if variant else "standard",
                     speed=g.text("speed"), rated=g.flag("rated"), has_moved=g.flag("hasMoved"),
                     opponent=_player(g.obj("opponent")), is_my_turn=g.flag("isMyTurn"),
                     seconds_left=g.int("secondsLeft"),
                     board_compatible=compat.flag("board") if compat and "board" in compat.value else True,
                     winner=g.colour("winner"))


def _challenge(f: _Fields) -> Challenge:
    c = f.obj("challenge", required=True)
    tc = c.obj("timeControl", required=True)
    variant = c.obj("variant", required=True)
    compat = c.obj("compat") or f.obj("compat")
    kind = tc.text("type", True)
    limit, inc, days = tc.int("limit"), tc.int("increment"), tc.int("daysPerTurn")
    if kind == "clock":
        shown = tc.text("show") or f"{(limit or 0) // 60}+{inc or 0}"
    elif kind == "correspondence":
        shown = f"{days} days" if days else "correspondence"
    else:
        shown = "unlimited"
    return Challenge(id=c.text("id", True), url=c.text("url", True), status=c.text("status", True),
                     challenger=_player(c.obj("challenger", True)), dest_user=_player(c.obj("destUser"))
                     if c.value.get("destUser") is not None else None,
                     variant=variant.text("key", True), rated=c.flag("rated", True), speed=c.text("speed", True),
                     time_control=shown, limit_s=limit, increment_s=inc, days=days, color=c.text("color", True),
                     direction=c.text("direction"), final_color=c.text("finalColor"),
                     decline_reason=c.text("declineReason"),
                     board_compatible=compat.flag("board") if compat and "board" in compat.value else True)


_GAME_LINES: dict[str, Callable[[_Fields], Any]] = {
    "gameFull": _game_full,
    "gameState": read_state,
    "chatLine": lambda f: ChatLine(room=f.text("room", True), username=f.text("username", True),
                                   text=f.text("text", True)),
    "opponentGone": lambda f: OpponentGone(gone=f.flag("gone", True), claim_win_in_s=f.int("claimWinInSeconds")),
}

_EVENT_LINES: dict[str, Callable[[_Fields], Any]] = {
    "gameStart": lambda f: GameStart(_game_info(f)),
    "gameFinish": lambda f: GameFinish(_game_info(f)),
    "challenge": lambda f: ChallengeReceived(_challenge(f)),
    "challengeCanceled": lambda f: ChallengeCanceled(_challenge(f)),
    # ChallengeCanceledEvent.yaml has spelled its type both ways; the stream's own description
    # (api-stream-event.yaml) and its example say challengeCanceled
    "challengeCancelled": lambda f: ChallengeCanceled(_challenge(f)),
    "challengeDeclined": lambda f: ChallengeDeclined(_challenge(f)),
}


def _read(line: dict[str, Any], table: dict[str, Callable[[_Fields], Any]], where: str):
    kind = line.get("type")
    if not isinstance(kind, str):
        raise OnlineError(_("{where}: a line without a type").format(where=where))
    reader = table.get(kind)
    if reader is None:
        return Unknown(kind[:40])
    return reader(_Fields(line, f"{where} {kind}"))


def read_game_line(line: dict[str, Any], where: str | None = None):
    """A game stream line -> GameFull | GameState | ChatLine | OpponentGone | Unknown."""
    return _read(line, _GAME_LINES, where or _("the game stream"))


def read_event_line(line: dict[str, Any], where: str | None = None):
    """An event stream line -> GameStart | GameFinish | ChallengeReceived | ChallengeCanceled
    | ChallengeDeclined | Unknown."""
    return _read(line, _EVENT_LINES, where or _("the event stream"))
