"""``companion hall``: one place that follows every board of a round and serves the round.

The hall subscribes to each board's event stream (``/events``: the board pushes its game after
every change and a comment line every few seconds), so a move shows in the hall as soon as the
board has published it, and a board that stops talking is noticed within seconds. Boards are
found with mDNS (companion.broadcast.discovery) or given by hand.

:class:`Hall` is the state, driven by values and timestamps (no I/O): what each board last
sent that was a valid game (:class:`BoardCopy`, checked field by field: a hall never passes on
what a board could not have made), each board's status, and everything served made from that:

=================  ==========================================================================
``/round.pgn``     every board's game, one multi-game PGN (what online broadcasts poll)
``/results``       the results table (``/results.csv``: the tournament's round results file,
                   a line per finished game)
``/``              the hall page: every board small, clocks, results, boards off the network
``/hall.json``     the same as data; ``/events`` streams changed boards to the hall page
=================  ==========================================================================

A board that goes off the network keeps its last good copy, marked ``off`` (``stale`` when its
connection is open but silent); the hall retries it every few seconds, and it comes back by
itself with the game it serves after its restart. A board that restarts with no game yet never
replaces the copy the hall has.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from functools import cached_property
from html import escape
from pathlib import Path
from typing import Any, Callable

from aiohttp import ClientError, ClientSession, ClientTimeout, TCPConnector, web

from ..errors import BroadcastError, CompanionError
from ..tournament.files import write_pgn
from ..tournament.pgn import RESULTS, parse_pgn
from .picture import BoardPicture
from .snapshot import FORMAT, STATES
from .listener import RESERVE_FILES
from .svg import board_svg
from .web import PGN_TYPE, Hub, ServerThread, ThreadedServer, event_stream, new_app, page_routes, text_response

#: A board silent this long (no event, no comment line) is marked stale; its stream is
#: dropped (and retried) after READ_TIMEOUT_S.
STALE_MS = 8000
READ_TIMEOUT_S = 12.0
RETRY_S = (0.25, 0.5, 1.0, 2.0)
MAX_EVENT = 2_000_000
MAX_PGN = 1_000_000
MAX_TEXT = 200
MAX_HALL_WATCHERS = 256
#: Connections the hall's server holds at most (its watchers and their page loads); it keeps
#: files for its own connections to the boards besides.
MAX_HALL_CONNECTIONS = 512


# ----- reading what a board sends (pure) ----------------------------------------------------------


class SseParser:
    """Server-sent events from bytes, split anywhere (sans-I/O): :meth:`feed` returns the
    complete events as ``(event, data)``, ``("", "")`` for a comment line (a heartbeat).
    An event larger than ``limit`` raises BroadcastError."""

    def __init__(self, limit: int = MAX_EVENT) -> None:
        self.limit = limit
        self._buffer = b""
        self._event, self._data = "", []

    def feed(self, chunk: bytes) -> list[tuple[str, str]]:
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
                    out.append((self._event or "message", "\n".join(self._data)))
                self._event, self._data = "", []
            elif line.startswith(":"):
                out.append(("", ""))
            else:
                name, _, value = line.partition(":")
                value = value[1:] if value.startswith(" ") else value
                if name == "event":
                    self._event = value
                elif name == "data":
                    self._data.append(value)
        if len(self._buffer) + sum(len(d) for d in self._data) > self.limit:
            raise BroadcastError(f"an event of more than {self.limit} bytes")
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
    try:
        value = json.loads(text)
    except ValueError:
        raise BroadcastError("the board sent something that is not JSON") from None
    r = _Reader(value)
    if r.value.get("format") != FORMAT:
        raise BroadcastError(f"the board speaks format {r.value.get('format')!r}; this hall reads {FORMAT}")
    name, version, state = r.text("name"), r.integer("version"), r.text("state")
    if state not in STATES:
        raise BroadcastError(f"unknown board state {state!r}")
    if state == "idle":
        return None
    players = r.texts("players", 8)
    result = r.text("result")
    if result not in RESULTS:
        raise BroadcastError(f"unknown result {result!r}")
    moves = r.value.get("moves")
    if not isinstance(moves, list) or len(moves) > 20_000:
        raise BroadcastError("'moves' must be a list")
    last = moves[-1].get("move") if moves and isinstance(moves[-1], dict) else ""
    if not isinstance(last, str) or len(last) > 40:
        raise BroadcastError("a move must be short text")
    pgn = r.value.get("pgn")
    if not isinstance(pgn, str) or len(pgn) > MAX_PGN:
        raise BroadcastError("'pgn' must be the game's PGN text")
    try:
        games = parse_pgn(pgn, f"board {name}")
    except CompanionError as e:
        raise BroadcastError(f"the board's PGN does not read: {e}") from None
    if len(games) != 1:
        raise BroadcastError(f"the board's PGN holds {len(games)} games, not one")
    picture = BoardPicture.from_json(r.value["board_picture"]) if r.value.get("board_picture") is not None else None
    ids = r.value.get("ids", [])
    if not isinstance(ids, list) or len(ids) > 8 or not all(isinstance(i, str) and len(i) <= 40 for i in ids):
        raise BroadcastError("'ids' must be the players' ids (short text)")
    return BoardCopy(name, version, state, r.text("game"), r.text("game_id"), r.text("round"), r.text("board"),
                     r.text("event"), players, tuple(ids), result, len(moves), last,
                     _clock(r.value.get("clock"), len(players)),
                     picture, pgn if pgn.endswith("\n") else pgn + "\n", received_ms)


class _Reader:
    def __init__(self, value: Any) -> None:
        if not isinstance(value, dict):
            raise BroadcastError("the board sent JSON that is not an object")
        self.value = value

    def text(self, key: str) -> str:
        v = self.value.get(key, "")
        if not isinstance(v, str) or len(v) > MAX_TEXT:
            raise BroadcastError(f"{key!r} must be text of at most {MAX_TEXT} characters")
        return v

    def integer(self, key: str) -> int:
        v = self.value.get(key)
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise BroadcastError(f"{key!r} must be a whole number")
        return v

    def texts(self, key: str, most: int) -> tuple[str, ...]:
        v = self.value.get(key)
        if not isinstance(v, list) or not 1 <= len(v) <= most or not all(isinstance(x, str) and len(x) <= MAX_TEXT
                                                                         for x in v):
            raise BroadcastError(f"{key!r} must be 1 to {most} names")
        return tuple(v)


def _clock(value: Any, sides: int) -> ClockCopy | None:
    if value is None:
        return None
    if not isinstance(value, dict):
        raise BroadcastError("'clock' must be an object or null")
    times = value.get("times_ms")
    ok = isinstance(times, list) and len(times) == sides and all(
        isinstance(t, int) and not isinstance(t, bool) and 0 <= t < 10**9 for t in times)

    def side(v):
        return v is None or (isinstance(v, int) and not isinstance(v, bool) and 0 <= v < sides)

    delay = value.get("delay_ms", 0)
    if not (ok and side(value.get("running")) and side(value.get("flagged"))
            and isinstance(value.get("counting"), bool) and isinstance(value.get("paused"), bool)
            and isinstance(delay, int) and 0 <= delay < 10**7):
        raise BroadcastError("'clock' must hold each side's time, who runs, and the flags")
    return ClockCopy(tuple(times), value["running"], value["counting"], value["paused"], value["flagged"], delay)


def _whole(text: str) -> int:
    head = text.split(".")[0].strip()
    return int(head) if head.isdigit() else 0


def _number(text: str) -> tuple:
    """Sort key: numbers as numbers ("10" after "9"), then text."""
    head = text.split(".")[0].strip()
    return (0, int(head), text) if head.isdigit() else (1, 0, text)


# ----- the hall's state (pure) ------------------------------------------------------------------------


@dataclass
class BoardEntry:
    key: str  # the board's URL
    source: str  # "given" or "found"
    copy: BoardCopy | None = None
    connected: bool = False
    heard_ms: int | None = None
    problem: str = ""
    rev: int = 0
    shown: str = "waiting"

    def status(self, now_ms: int) -> str:
        """``live``; ``stale`` (connected, silent); ``off`` (unreachable); ``waiting``
        (never heard yet); ``no game`` (answers, has no game)."""
        if not self.connected:
            return "off" if self.heard_ms is not None or self.problem else "waiting"
        if self.heard_ms is not None and now_ms - self.heard_ms > STALE_MS:
            return "stale"
        return "live" if self.copy is not None else "no game"


class Hall:
    """Every board the hall follows and what it serves; every method takes the time."""

    def __init__(self) -> None:
        self.boards: dict[str, BoardEntry] = {}
        self.version = 0
        self.problem = ""  # the hall's own trouble (its round files cannot be written)

    def _bump(self, entry: BoardEntry | None = None) -> None:
        self.version += 1
        if entry is not None:
            entry.rev = self.version

    def add(self, url: str, source: str = "given") -> BoardEntry:
        entry = self.boards.get(url)
        if entry is None:
            entry = self.boards[url] = BoardEntry(url, source)
            self._bump(entry)
        return entry

    def received(self, url: str, data: str, now_ms: int) -> None:
        """An event from a board: a good game replaces the copy; no game keeps it; anything
        else is refused (the copy stays) and said."""
        entry = self.add(url)
        entry.connected, entry.heard_ms = True, now_ms
        try:
            copy = read_board_event(data, now_ms)
        except BroadcastError as e:
            entry.problem = str(e)
            self._bump(entry)
            return
        entry.problem = ""
        if copy is not None:
            entry.copy = copy
        entry.shown = entry.status(now_ms)
        self._bump(entry)

    def heard(self, url: str, now_ms: int) -> None:
        entry = self.boards.get(url)
        if entry is not None:
            entry.connected, entry.heard_ms = True, now_ms
            self.refresh(now_ms, [entry])

    def lost(self, url: str, reason: str, now_ms: int) -> None:
        entry = self.boards.get(url)
        if entry is not None and (entry.connected or entry.problem != reason):
            entry.connected, entry.problem = False, reason
            entry.shown = entry.status(now_ms)
            self._bump(entry)

    def refresh(self, now_ms: int, entries=None) -> None:
        """Boards whose status changed with time alone (gone silent) are marked changed."""
        for entry in entries if entries is not None else self.boards.values():
            status = entry.status(now_ms)
            if status != entry.shown:
                entry.shown = status
                self._bump(entry)

    def ordered(self) -> list[BoardEntry]:
        return sorted(self.boards.values(), key=lambda e: (e.copy.order if e.copy else ((2,), (2,), ""), e.key))

    # ----- what is served ---------------------------------------------------------------------------
    def round_pgn(self) -> str:
        return "".join(e.copy.pgn + ("\n" if not e.copy.pgn.endswith("\n\n") else "")
                       for e in self.ordered() if e.copy is not None)

    def results(self) -> list[dict[str, str]]:
        rows = []
        for e in self.ordered():
            c = e.copy
            if c is None:
                continue
            white, black = c.players[0], c.players[1] if len(c.players) > 1 else ""
            rows.append({"round": c.round, "board": c.board, "white": white, "black": black,
                         "players": " - ".join(c.players), "result": c.result, "moves": str(c.moves),
                         "status": e.shown, "name": c.name})
        return rows

    def results_csv(self) -> str:
        """The round results file of the tournament records (companion.tournament.pairing):
        its header and one line per finished two-player game, in board order."""
        from ..tournament.pairing import RESULT_HEADER, RESULT_TRF, Pairing, Player, result_line

        lines = [RESULT_HEADER + "\n"]
        for e in self.ordered():
            c = e.copy
            if c is None or len(c.players) != 2 or c.result not in RESULT_TRF:
                continue
            ids = c.ids if len(c.ids) == 2 else ("", "")
            pairing = Pairing(_whole(c.round), _whole(c.board), Player(0, c.players[0], fide_id=ids[0]),
                              Player(0, c.players[1], fide_id=ids[1]))
            lines.append(result_line(pairing, c.result))
        return "".join(lines)

    def entry_json(self, e: BoardEntry, now_ms: int) -> dict[str, Any]:
        c = e.copy
        out: dict[str, Any] = {"key": e.key, "status": e.status(now_ms), "problem": e.problem, "rev": e.rev}
        if c is not None:
            clock = None
            if c.clock is not None:
                k = c.clock
                clock = {"times_ms": list(k.times_ms), "running": k.running, "counting": k.counting,
                         "paused": k.paused, "flagged": k.flagged, "delay_ms": k.delay_ms,
                         "age_ms": max(0, now_ms - c.received_ms) if e.connected else 0}
            out.update({"name": c.name, "round": c.round, "board": c.board, "game": c.game, "players": list(c.players),
                        "result": c.result, "moves": c.moves, "last": c.last, "state": c.state, "clock": clock,
                        "svg": c.svg})
        return out

    def changed_since(self, rev: int, now_ms: int) -> list[dict[str, Any]]:
        return [self.entry_json(e, now_ms) for e in self.ordered() if e.rev > rev]


# ----- following the boards (asyncio) ----------------------------------------------------------------


class Follower:
    """Subscribes to every board's stream and keeps the hall's state; retries forever."""

    def __init__(self, hall: Hall, clock_ms: Callable[[], int], changed: Callable[[], None]) -> None:
        self.hall, self.clock_ms, self.changed = hall, clock_ms, changed
        self.session: ClientSession | None = None
        self.tasks: dict[str, asyncio.Task] = {}

    async def start(self) -> None:
        self.session = ClientSession(connector=TCPConnector(limit=0, force_close=True),
                                     timeout=ClientTimeout(total=None, connect=3.0, sock_read=READ_TIMEOUT_S))

    def follow(self, url: str, source: str = "given") -> None:
        self.hall.add(url, source)
        if url not in self.tasks:
            self.tasks[url] = asyncio.ensure_future(self._follow(url))
        self.changed()

    def found(self, name: str, url: str) -> None:
        self.follow(url, "found")

    def gone(self, name: str) -> None:
        """mDNS says a board left: its stream will fail and be retried; nothing to drop."""

    async def stop(self) -> None:
        for task in self.tasks.values():
            task.cancel()
        await asyncio.gather(*self.tasks.values(), return_exceptions=True)
        if self.session is not None:
            await self.session.close()

    async def _follow(self, url: str) -> None:
        failures = 0
        while True:
            try:
                async with self.session.get(f"{url}/events", headers={"Accept": "text/event-stream"}) as resp:
                    if resp.status != 200:
                        raise BroadcastError(f"the board answered {resp.status}")
                    failures = 0
                    parser = SseParser()
                    async for chunk in resp.content.iter_any():
                        for event, data in parser.feed(chunk):
                            now = self.clock_ms()
                            if event == "game":
                                self.hall.received(url, data, now)
                            else:
                                self.hall.heard(url, now)
                            self.changed()
                    raise BroadcastError("the board closed the stream")
            except asyncio.CancelledError:
                raise
            except (ClientError, OSError, asyncio.TimeoutError, BroadcastError) as e:
                self.hall.lost(url, _why(e), self.clock_ms())
                self.changed()
            await asyncio.sleep(RETRY_S[min(failures, len(RETRY_S) - 1)])
            failures += 1


def _why(e: BaseException) -> str:
    if isinstance(e, asyncio.TimeoutError):
        return "silent for too long"
    if isinstance(e, BroadcastError):
        return str(e)
    text = str(e)
    if "Connect call failed" in text or "Cannot connect" in text:
        return "unreachable"
    return text[:120] or type(e).__name__


# ----- the hall's server ---------------------------------------------------------------------------------


class HallServer(ThreadedServer):
    """The hall: follows ``boards`` (URLs) and those found with mDNS (``discover``), serves the
    round; ``out`` is a folder where round.pgn and results.csv are kept up to date."""

    def __init__(self, host: str = "", port: int = 0, *, boards: list[str] = (), discover: bool = True,
                 discover_interfaces: list[str] | None = None, out: Path | None = None,
                 clock_ms: Callable[[], int] | None = None) -> None:
        from .board_server import monotonic_ms

        self.clock_ms = clock_ms or monotonic_ms
        self.hall = Hall()
        self.hub: Hub | None = None
        self.follower: Follower | None = None
        self.boards = [board_url(b) for b in boards]
        self.discover, self.discover_interfaces, self.out = discover, discover_interfaces, out
        self._browser = None
        self._ticker: asyncio.Task | None = None
        self._written = -1
        self.thread = ServerThread(self.build_app, host, port, "hall", setup=self._setup, cleanup=self._cleanup,
                                   hubs=lambda: [self.hub] if self.hub else [], most=MAX_HALL_CONNECTIONS,
                                   reserve=RESERVE_FILES + len(self.boards))

    def add_board(self, url: str) -> None:
        """Follow one more board (any thread)."""
        self.thread.call(lambda: self.follower.follow(board_url(url)))

    # ----- loop side -------------------------------------------------------------------------------------
    def build_app(self) -> web.Application:
        self.hub = Hub(MAX_HALL_WATCHERS)
        app = new_app()
        page_routes(app, "hall.js")
        app.router.add_get("/round.pgn", self._round)
        app.router.add_get("/results", self._results_page)
        app.router.add_get("/results.csv", self._results_csv)
        app.router.add_get("/hall.json", self._hall_json)
        app.router.add_get("/events", self._events)
        return app

    def _changed(self) -> None:
        if self.hub is not None:
            self.hub.notify()

    async def _setup(self) -> None:
        self.follower = Follower(self.hall, self.clock_ms, self._changed)
        await self.follower.start()
        for url in self.boards:
            self.follower.follow(url)
        if self.discover:
            from .discovery import Browser

            self._browser = Browser(self.follower.found, self.follower.gone, self.discover_interfaces)
            await self._browser.start()
        self._ticker = asyncio.ensure_future(self._tick())

    async def _cleanup(self) -> None:
        if self._ticker is not None:
            self._ticker.cancel()
        if self._browser is not None:
            await self._browser.stop()
        if self.follower is not None:
            await self.follower.stop()
        self._write_files()

    async def _tick(self) -> None:
        """Once a second: boards gone silent are marked, the round files are written."""
        while True:
            await asyncio.sleep(1.0)
            before = self.hall.version
            self.hall.refresh(self.clock_ms())
            if self.hall.version != before:
                self._changed()
            self._write_files()

    def _write_files(self) -> None:
        if self.out is None or self._written == self.hall.version:
            return
        self._written = self.hall.version
        try:
            self.out.mkdir(parents=True, exist_ok=True)
            write_pgn(self.out / "round.pgn", self.hall.round_pgn())
            write_pgn(self.out / "results.csv", self.hall.results_csv())  # any text, written durably
        except OSError as e:  # a full disk: the hall goes on serving; the page says it
            self.hall.problem = f"cannot write {self.out}: {e.strerror or e}"

    def _etag(self) -> str:
        return f'"hall-{id(self.hall):x}-{self.hall.version}"'

    async def _round(self, request: web.Request) -> web.StreamResponse:
        return text_response(request, self.hall.round_pgn(), PGN_TYPE, self._etag(), public=True)

    async def _results_csv(self, request: web.Request) -> web.StreamResponse:
        return text_response(request, self.hall.results_csv(), "text/csv", self._etag(), public=True)

    async def _results_page(self, request: web.Request) -> web.StreamResponse:
        return text_response(request, results_html(self.hall.results()), "text/html", self._etag())

    async def _hall_json(self, request: web.Request) -> web.StreamResponse:
        now = self.clock_ms()
        data = {"boards": self.hall.changed_since(0, now), "version": self.hall.version, "problem": self.hall.problem}
        return text_response(request, json.dumps(data, separators=(",", ":")), "application/json", public=True)

    async def _events(self, request: web.Request) -> web.StreamResponse:
        """The hall page's stream: every board at first, then the boards that changed."""
        sent = [0]

        def changed() -> str | None:
            boards = self.hall.changed_since(sent[0], self.clock_ms())
            sent[0] = self.hall.version
            return json.dumps({"boards": boards}, separators=(",", ":")) if boards else None

        return await event_stream(request, self.hub, changed, 5.0, "boards")


def board_url(text: str) -> str:
    """A board's address as given (``HOST:PORT``, ``http://HOST:PORT``) -> its base URL."""
    from .web import parse_address

    t = text.strip().rstrip("/")
    if t.startswith("http://"):
        t = t[len("http://"):]
    elif "://" in t:
        raise BroadcastError(f"{text!r}: boards are reached over http://")
    host, port = parse_address(t)
    if not host or port == 0:
        raise BroadcastError(f"{text!r}: a board's address is HOST:PORT, e.g. 192.168.1.21:8080")
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def results_html(rows: list[dict[str, str]]) -> str:
    from . import texts as W

    head = "".join(f"<th>{escape(h)}</th>" for h in W.RESULT_COLUMNS)
    body = "".join(
        "<tr>" + "".join(f"<td>{escape(r[k])}</td>" for k in ("round", "board", "players", "result", "moves", "status"))
        + "</tr>" for r in rows)
    return (f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{escape(W.RESULTS_TITLE)}</title>'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<link rel="stylesheet" href="/style.css"></head><body><h1>{escape(W.RESULTS_TITLE)}</h1>'
            f'<table class="results"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'
            f'<p><a href="/results.csv">{escape(W.RESULTS_FILE)}</a> · <a href="/round.pgn">{escape(W.ROUND_PGN)}</a>'
            f' · <a href="/">{escape(W.HALL_LINK)}</a></p></body></html>')


__all__ = ["Hall", "HallServer", "BoardCopy", "BoardEntry", "SseParser", "read_board_event", "board_url"]
