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

The hall believes only the boards the arbiter admitted (companion.broadcast.admission): with
the round's pairing file, those that sign their events with its round key and play a board of
the round; without it, those given by hand. What a board sends is read by
companion.broadcast.board_copy (checked, and held to its own PGN); one board number is shown
from one board; a refused board is shown on the page with the reason.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Any, Callable

from aiohttp import ClientError, ClientSession, ClientTimeout, TCPConnector, web

from ..errors import BroadcastError
from ..i18n import _
from ..tournament.files import write_pgn
from .admission import Admission
from .board_copy import BoardCopy, SseParser, _whole, read_board_event
from .listener import RESERVE_FILES
from .web import PGN_TYPE, Hub, ServerThread, ThreadedServer, event_stream, new_app, page_routes, text_response

#: A board silent this long (no event, no comment line) is marked stale; its stream is
#: dropped (and retried) after READ_TIMEOUT_S.
STALE_MS = 8000
READ_TIMEOUT_S = 12.0
RETRY_S = (0.25, 0.5, 1.0, 2.0)
MAX_HALL_WATCHERS = 256
#: Connections the hall's server holds at most (its watchers and their page loads); it keeps
#: files for its own connections to the boards besides.
MAX_HALL_CONNECTIONS = 512


# ----- the hall's state (pure) ------------------------------------------------------------------------


@dataclass
class BoardEntry:
    key: str  # the board's URL
    source: str  # "given" or "found"
    copy: BoardCopy | None = None
    connected: bool = False
    heard_ms: int | None = None
    problem: str = ""
    refused: bool = False  # its last event was refused (``problem`` says why)
    rev: int = 0
    shown: str = "waiting"

    def status(self, now_ms: int) -> str:
        """``live``; ``stale`` (connected, silent); ``off`` (unreachable); ``waiting``
        (never heard yet); ``no game`` (answers, has no game); ``refused`` (what it sent last
        was refused: ``problem`` says why)."""
        if not self.connected:
            return "off" if self.heard_ms is not None or self.problem else "waiting"
        if self.refused:
            return "refused"
        if self.heard_ms is not None and now_ms - self.heard_ms > STALE_MS:
            return "stale"
        return "live" if self.copy is not None else "no game"


class Hall:
    """Every board the hall follows and what it serves; every method takes the time.

    With an :class:`~companion.broadcast.admission.Admission` (the round's pairings and key),
    a board's events count only when they are signed with the round key and match a board of
    the round; without one, only boards given by hand count (the arbiter named them). Either
    way a board's data must agree with its own PGN, and one round's board number is shown
    from one board only: a second board that claims it is refused while the first is on the
    network (a board that comes back at a new address takes its number over from its old one,
    which is off)."""

    def __init__(self, admission: Admission | None = None) -> None:
        self.boards: dict[str, BoardEntry] = {}
        self.version = 0
        self.problem = ""  # the hall's own trouble (its round files cannot be written)
        self.admission = admission
        self.numbers: dict[tuple[str, str], str] = {}  # (round, board) -> the URL shown for it

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

    def received(self, url: str, data: str, now_ms: int, sig: str = "", nonce: str = "") -> None:
        """An event from a board (``sig``: its signature on the stream opened with ``nonce``):
        a good game replaces the copy; no game keeps it; anything else is refused (the copy
        stays) and said."""
        entry = self.add(url)
        entry.connected, entry.heard_ms = True, now_ms
        try:
            if self.admission is not None:
                self.admission.check_signature(nonce, data, sig)
            elif entry.source != "given":
                raise BroadcastError(_("found on the network, not admitted: give the hall the round's pairing file "
                                       "(--pairings) or this board's address (--board)"))
            copy = read_board_event(data, now_ms)
            if copy is not None:
                if self.admission is not None:
                    self.admission.check_pairing(copy.round, copy.board, copy.players)
                self._claim(entry, copy)
        except BroadcastError as e:
            entry.problem, entry.refused = str(e), True
            entry.shown = entry.status(now_ms)
            self._bump(entry)
            return
        entry.problem, entry.refused = "", False
        if copy is not None:
            entry.copy = copy
        entry.shown = entry.status(now_ms)
        self._bump(entry)

    def _claim(self, entry: BoardEntry, copy: BoardCopy) -> None:
        """``entry`` shows ``copy``'s board number from now on, unless another board on the
        network shows it (BroadcastError)."""
        number = (copy.round, copy.board)
        holder = self.numbers.get(number) if copy.board else None
        if holder is not None and holder != entry.key:
            other = self.boards[holder]
            if other.copy is not None and (other.copy.round, other.copy.board) == number:
                if other.connected:
                    raise BroadcastError(_("round {round} board {board} is shown from {holder}; one board number is "
                                           "shown from one board").format(
                        round=copy.round or '-', board=copy.board, holder=holder))
                other.copy, other.problem = None, _("its board number is now shown from {holder}").format(holder=entry.key)
                self._bump(other)
        if entry.copy is not None:
            mine = (entry.copy.round, entry.copy.board)
            if mine != number and self.numbers.get(mine) == entry.key:
                del self.numbers[mine]
        if copy.board:
            self.numbers[number] = entry.key

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
        its header and one line per finished two-player game, in board order; with the
        round's pairings, each line as the board itself writes it (the pairing's ids)."""
        from ..tournament.pairing import RESULT_HEADER, RESULT_TRF, Pairing, Player, result_line

        lines = [RESULT_HEADER + "\n"]
        for e in self.ordered():
            c = e.copy
            if c is None or len(c.players) != 2 or c.result not in RESULT_TRF:
                continue
            pairing = self.admission.pairing(c.round, c.board) if self.admission is not None else None
            if pairing is None:
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
            nonce = secrets.token_hex(16)  # this stream's: a board signs its events with it (admission.py)
            try:
                async with self.session.get(f"{url}/events", params={"nonce": nonce},
                                            headers={"Accept": "text/event-stream"}) as resp:
                    if resp.status != 200:
                        raise BroadcastError(_("the board answered {status}").format(status=resp.status))
                    failures = 0
                    parser = SseParser()
                    async for chunk in resp.content.iter_any():
                        for event, data, sig in parser.feed(chunk):
                            now = self.clock_ms()
                            if event == "game":
                                self.hall.received(url, data, now, sig, nonce)
                            else:
                                self.hall.heard(url, now)
                            self.changed()
                    raise BroadcastError(_("the board closed the stream"))
            except asyncio.CancelledError:
                raise
            except (ClientError, OSError, asyncio.TimeoutError, BroadcastError) as e:
                self.hall.lost(url, _why(e), self.clock_ms())
                self.changed()
            await asyncio.sleep(RETRY_S[min(failures, len(RETRY_S) - 1)])
            failures += 1


def _why(e: BaseException) -> str:
    if isinstance(e, asyncio.TimeoutError):
        return _("silent for too long")
    if isinstance(e, BroadcastError):
        return str(e)
    text = str(e)
    if "Connect call failed" in text or "Cannot connect" in text:
        return _("unreachable")
    return text[:120] or type(e).__name__


# ----- the hall's server ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class LichessRound:
    """A lichess broadcast round the hall pushes to: its id, the server, the token."""

    round_id: str
    server: str
    token: Any  # companion.online.token.Token: it never shows itself



class HallServer(ThreadedServer):
    """The hall: follows ``boards`` (URLs) and those found with mDNS (``discover``: only with
    an ``admission``, the round's pairings and key), serves the round; ``out`` is a folder where
    round.pgn and results.csv are kept up to date."""

    def __init__(self, host: str = "", port: int = 0, *, boards: list[str] = (), discover: bool = False,
                 discover_interfaces: list[str] | None = None, out: Path | None = None,
                 clock_ms: Callable[[], int] | None = None, admission: Admission | None = None,
                 lichess: LichessRound | None = None, say: Callable[[str], None] = lambda line: None) -> None:
        from .board_server import monotonic_ms

        if discover and admission is None:
            raise BroadcastError(_("finding boards with mDNS needs the round's pairing file with its key "
                                   "(--pairings): anyone on the network could announce a board"))
        self.clock_ms = clock_ms or monotonic_ms
        self.hall = Hall(admission)
        self.hub: Hub | None = None
        self.follower: Follower | None = None
        self.boards = [board_url(b) for b in boards]
        self.discover, self.discover_interfaces, self.out = discover, discover_interfaces, out
        self._browser = None
        self._ticker: asyncio.Task | None = None
        self._written = -1
        self.lichess, self.say = lichess, say
        self.pusher = None
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
        if self.lichess is not None:
            from .lichess_push import LichessPusher

            self.pusher = LichessPusher(self.hall.round_pgn, lambda: self.hall.version, self.lichess.round_id,
                                        self.lichess.server, self.lichess.token, self.clock_ms, self.say)
            await self.pusher.start()

    async def _cleanup(self) -> None:
        if self._ticker is not None:
            self._ticker.cancel()
        if self.pusher is not None:
            await self.pusher.stop()
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
            self.hall.problem = _("cannot write {path}: {reason}").format(path=self.out, reason=e.strerror or e)

    def _etag(self) -> str:
        return f'"hall-{id(self.hall):x}-{self.hall.version}"'

    async def _round(self, request: web.Request) -> web.StreamResponse:
        return text_response(request, self.hall.round_pgn(), PGN_TYPE, self._etag(), public=True)

    async def _results_csv(self, request: web.Request) -> web.StreamResponse:
        return text_response(request, self.hall.results_csv(), "text/csv", self._etag(), public=True)

    async def _results_page(self, request: web.Request) -> web.StreamResponse:
        from .texts import language_for

        language = language_for(request.headers.get("Accept-Language"))
        return text_response(request, results_html(self.hall.results(), language), "text/html",
                             self._etag()[:-1] + f'-{language.code}"')

    async def _hall_json(self, request: web.Request) -> web.StreamResponse:
        now = self.clock_ms()
        data = {"boards": self.hall.changed_since(0, now), "version": self.hall.version, "problem": self.hall.problem}
        if self.pusher is not None:
            data["lichess"] = self.pusher.status()
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
        raise BroadcastError(_("{text!r}: boards are reached over http://").format(text=text))
    host, port = parse_address(t)
    if not host or port == 0:
        raise BroadcastError(_("{text!r}: a board's address is HOST:PORT, e.g. 192.168.1.21:8080").format(text=text))
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def results_html(rows: list[dict[str, str]], language=None) -> str:
    """The results table as a page, in ``language`` (a companion.i18n.Language; else the board's)."""
    from .texts import results_words

    W = results_words(language)
    head = "".join(f"<th>{escape(h)}</th>" for h in W["columns"])
    body = "".join(
        "<tr>" + "".join(f"<td>{escape(r[k])}</td>" for k in ("round", "board", "players", "result", "moves", "status"))
        + "</tr>" for r in rows)
    return (f'<!doctype html><html lang="{W["lang"]}"><head><meta charset="utf-8"><title>{escape(W["title"])}</title>'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<link rel="stylesheet" href="/style.css"></head><body><h1>{escape(W["title"])}</h1>'
            f'<table class="results"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'
            f'<p><a href="/results.csv">{escape(W["file"])}</a> · <a href="/round.pgn">{escape(W["round_pgn"])}</a>'
            f' · <a href="/">{escape(W["hall"])}</a></p></body></html>')


__all__ = ["Hall", "HallServer", "BoardCopy", "BoardEntry", "SseParser", "read_board_event", "board_url", "Admission"]
