"""What a hall keeps of a board (pure): its server-sent events read from bytes split anywhere,
and each event checked field by field into a :class:`BoardCopy`, a value the hall can serve
without passing on anything a board could not have made (companion.broadcast.hall).

A board's data must agree with its own PGN (companion.broadcast.admission.check_own_pgn): a
board whose data says 0-1 while its PGN says * is refused, not believed.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any, NamedTuple

from ..bounds import load_json
from ..errors import BroadcastError, CompanionError
from ..i18n import _, ngettext
from ..tournament.pgn import RESULTS, parse_pgn
from .admission import check_own_pgn
from .picture import BoardPicture
from .snapshot import FORMAT, STATES
from .svg import board_svg

MAX_EVENT = 2_000_000
MAX_PGN = 1_000_000
MAX_TEXT = 200


class Event(NamedTuple):
    """One server-sent event: its name ("" for a comment line), its data, and the round key's
    signature a board put on it (``sig:``; "" when none)."""

    name: str
    data: str
    sig: str = ""


class SseParser:
    """Server-sent events from bytes, split anywhere (sans-I/O): :meth:`feed` returns the
    complete :class:`Event` values, ``Event("", "")`` for a comment line (a heartbeat).
    An event larger than ``limit`` raises BroadcastError."""

    def __init__(self, limit: int = MAX_EVENT) -> None:
        self.limit = limit
        self._buffer = b""
        self._event, self._data, self._sig = "", [], ""

    def feed(self, chunk: bytes) -> list[Event]:
        self._buffer += chunk
        out = []
        while True:
            end = self._buffer.find(b"\n")
            if end < 0:
                break
            raw, self._buffer = self._buffer[:end], self._buffer[end + 1:]
            line = raw.rstrip(b"\r").decode("utf-8", errors="replace")
            if not line:
                if self._data or self._event:
                    out.append(Event(self._event or "message", "\n".join(self._data), self._sig))
                self._event, self._data, self._sig = "", [], ""
            elif line.startswith(":"):
                out.append(Event("", ""))
            else:
                name, _colon, value = line.partition(":")
                value = value[1:] if value.startswith(" ") else value
                if name == "event":
                    self._event = value
                elif name == "data":
                    self._data.append(value)
                elif name == "sig":
                    self._sig = value[:200]
        if len(self._buffer) + sum(len(d) for d in self._data) > self.limit:
            raise BroadcastError(_("an event of more than {limit} bytes").format(limit=self.limit))
        return out


@dataclass(frozen=True)
class ClockCopy:
    times_ms: tuple[int, ...]
    running: int | None
    counting: bool
    paused: bool
    flagged: int | None
    delay_ms: int = 0


@dataclass(frozen=True)
class BoardCopy:
    """A board's game as the hall keeps it (checked; ``pgn`` is one game)."""

    name: str
    version: int
    state: str
    game: str
    game_id: str
    round: str
    board: str
    event: str
    players: tuple[str, ...]
    ids: tuple[str, ...]
    result: str
    moves: int
    last: str
    clock: ClockCopy | None
    picture: BoardPicture | None
    pgn: str
    received_ms: int

    @cached_property
    def svg(self) -> str:
        return board_svg(self.picture, labels=False, title=" - ".join(self.players)) if self.picture else ""

    @property
    def order(self) -> tuple:
        return (_number(self.round), _number(self.board), self.name)


def read_board_event(text: str, received_ms: int) -> BoardCopy | None:
    """A board's event data -> its copy (None: the board has no game now); BroadcastError
    names what is wrong."""
    r = _Reader(load_json(text, _("the board's data"), BroadcastError))  # bounded: no nesting 10,000 deep
    if r.value.get("format") != FORMAT:
        raise BroadcastError(_("the board speaks format {theirs!r}; this hall reads {ours}").format(
            theirs=str(r.value.get('format'))[:20], ours=FORMAT))
    name, version, state = r.text("name"), r.integer("version"), r.text("state")
    if state not in STATES:
        raise BroadcastError(_("unknown board state {state!r}").format(state=state))
    if state == "idle":
        return None
    players = r.texts("players", 8)
    result = r.text("result")
    if result not in RESULTS:
        raise BroadcastError(_("unknown result {result!r}").format(result=result))
    moves = r.value.get("moves")
    if not isinstance(moves, list) or len(moves) > 20_000:
        raise BroadcastError(_("'moves' must be a list"))
    last = moves[-1].get("move") if moves and isinstance(moves[-1], dict) else ""
    if not isinstance(last, str) or len(last) > 40:
        raise BroadcastError(_("a move must be short text"))
    pgn = r.value.get("pgn")
    if not isinstance(pgn, str) or len(pgn) > MAX_PGN:
        raise BroadcastError(_("'pgn' must be the game's PGN text"))
    try:
        games = parse_pgn(pgn, f"board {name}")
    except CompanionError as e:
        raise BroadcastError(_("the board's PGN does not read: {problem}").format(problem=e)) from None
    if len(games) != 1:
        raise BroadcastError(ngettext("the board's PGN holds {n} game, not one", "the board's PGN holds {n} games, not one",
                                      len(games)).format(n=len(games)))
    round_, board = r.text("round"), r.text("board")
    check_own_pgn(round_, board, players, result, games[0])
    picture = BoardPicture.from_json(r.value["board_picture"]) if r.value.get("board_picture") is not None else None
    ids = r.value.get("ids", [])
    if not isinstance(ids, list) or len(ids) > 8 or not all(isinstance(i, str) and len(i) <= 40 for i in ids):
        raise BroadcastError(_("'ids' must be the players' ids (short text)"))
    return BoardCopy(name, version, state, r.text("game"), r.text("game_id"), round_, board,
                     r.text("event"), players, tuple(ids), result, len(moves), last,
                     _clock(r.value.get("clock"), len(players)),
                     picture, pgn if pgn.endswith("\n") else pgn + "\n", received_ms)


class _Reader:
    def __init__(self, value: Any) -> None:
        if not isinstance(value, dict):
            raise BroadcastError(_("the board sent JSON that is not an object"))
        self.value = value

    def text(self, key: str) -> str:
        v = self.value.get(key, "")
        if not isinstance(v, str) or len(v) > MAX_TEXT:
            raise BroadcastError(_("{key!r} must be text of at most {max_text} characters").format(
                key=key, max_text=MAX_TEXT))
        return v

    def integer(self, key: str) -> int:
        v = self.value.get(key)
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise BroadcastError(_("{key!r} must be a whole number").format(key=key))
        return v

    def texts(self, key: str, most: int) -> tuple[str, ...]:
        v = self.value.get(key)
        if not isinstance(v, list) or not 1 <= len(v) <= most or not all(isinstance(x, str) and len(x) <= MAX_TEXT
                                                                         for x in v):
            raise BroadcastError(_("{key!r} must be 1 to {most} names").format(key=key, most=most))
        return tuple(v)


def _clock(value: Any, sides: int) -> ClockCopy | None:
    if value is None:
        return None
    if not isinstance(value, dict):
        raise BroadcastError(_("'clock' must be an object or null"))
    times = value.get("times_ms")
    ok = isinstance(times, list) and len(times) == sides and all(
        isinstance(t, int) and not isinstance(t, bool) and 0 <= t < 10**9 for t in times)

    def side(v):
        return v is None or (isinstance(v, int) and not isinstance(v, bool) and 0 <= v < sides)

    delay = value.get("delay_ms", 0)
    if not (ok and side(value.get("running")) and side(value.get("flagged"))
            and isinstance(value.get("counting"), bool) and isinstance(value.get("paused"), bool)
            and isinstance(delay, int) and 0 <= delay < 10**7):
        raise BroadcastError(_("'clock' must hold each side's time, who runs, and the flags"))
    return ClockCopy(tuple(times), value["running"], value["counting"], value["paused"], value["flagged"], delay)


def _whole(text: str) -> int:
    head = text.split(".")[0].strip()
    return int(head) if head.isdigit() else 0


def _number(text: str) -> tuple:
    """Sort key: numbers as numbers ("10" after "9"), then text."""
    head = text.split(".")[0].strip()
    return (0, int(head), text) if head.isdigit() else (1, 0, text)
