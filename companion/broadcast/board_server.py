"""A board's own broadcast: its game over HTTP, off the UI thread.

:class:`BoardServer` serves the latest :class:`~companion.broadcast.snapshot.BoardSnapshot`:

========================  ===================================================================
``/``                     the spectator page (board as SVG, clocks, moves; updates itself)
``/game.pgn``             the live game as PGN with ``[%clk]`` (ETag: pollers get 304)
``/game.json``            position, clocks as of this request, players, round and board, state
``/board.svg``            the board as drawn on the page
``/live.json``            what the page shows: ``/game.json`` with ``svg`` and ``pgn``
``/events``               server-sent events: ``/live.json`` after every
                          change, a comment line every few seconds
========================  ===================================================================

The game's owner publishes with :meth:`BoardServer.publish` (any thread; it only swaps one
reference and wakes the loop). :class:`FlowBroadcast` does that for the app: it listens to the
flow's changes and publishes a new snapshot when :func:`~.snapshot.change_key` says the game
changed, so blinking LEDs and screen redraws cost one tuple comparison. With broadcast off
none of this exists: no thread, no socket, no listener.
"""

from __future__ import annotations

import secrets
import socket
import time
from pathlib import Path
from typing import Callable

from aiohttp import web

from .admission import is_nonce, key_bytes, sign
from .snapshot import BoardSnapshot, change_key, live_json, take_snapshot
from .web import PGN_TYPE, Hub, ServerThread, ThreadedServer, event_stream, new_app, page_routes, text_response

HEARTBEAT_S = 5.0
MAX_WATCHERS = 64
MAX_PAIRING_BYTES = 1_000_000


def monotonic_ms() -> int:
    return int(time.monotonic() * 1000)


class BoardServer(ThreadedServer):
    """The HTTP side of one board. ``clock_ms`` must be the clock the snapshots are taken
    with (the app's monotonic milliseconds) so that served clocks run on from them."""

    def __init__(self, name: str, host: str = "", port: int = 0, *, clock_ms: Callable[[], int] = monotonic_ms,
                 heartbeat: float = HEARTBEAT_S, max_watchers: int = MAX_WATCHERS, announce: bool = False,
                 announce_interfaces: list[str] | None = None) -> None:
        self.name = name
        self.clock_ms = clock_ms
        self.heartbeat = heartbeat
        self.boot = secrets.token_hex(4)  # ETags of a restarted board never match the old ones
        self._published: tuple[BoardSnapshot, bytes | None] = (BoardSnapshot(0, name), None)
        self.hub: Hub | None = None
        self.announce = announce
        self.announce_interfaces = announce_interfaces
        self._announcer = None
        self._max_watchers = max_watchers
        self.thread = ServerThread(self.build_app, host, port, f"board broadcast {name}",
                                   setup=self._setup, cleanup=self._cleanup,
                                   hubs=lambda: [self.hub] if self.hub else [])

    # ----- from the game's thread ------------------------------------------------------------------
    def publish(self, snapshot: BoardSnapshot, key: bytes | None = None) -> None:
        """Serve ``snapshot`` from now on (thread-safe, never waits); ``key``: the round key the
        events a hall asks for are signed with (companion.broadcast.admission), None: unsigned."""
        self._published = (snapshot, key)
        if self.hub is not None:
            self.thread.call(self.hub.notify)

    @property
    def current(self) -> BoardSnapshot:
        return self._published[0]

    # ----- on the server's loop ---------------------------------------------------------------------
    def build_app(self) -> web.Application:
        self.hub = Hub(self._max_watchers)
        app = new_app()
        page_routes(app, "board.js")
        app.router.add_get("/game.pgn", self._pgn)
        app.router.add_get("/live.json", self._live)
        app.router.add_get("/game.json", self._json)
        app.router.add_get("/board.svg", self._svg)
        app.router.add_get("/events", self._events)
        return app

    def _etag(self, snap: BoardSnapshot) -> str:
        return f'"{self.boot}-{snap.version}"'

    async def _pgn(self, request: web.Request) -> web.StreamResponse:
        snap = self.current
        if not snap.has_game:
            raise web.HTTPNotFound(text="no game on this board yet\n")
        return text_response(request, snap.pgn_text, PGN_TYPE, self._etag(snap), public=True)

    async def _json(self, request: web.Request) -> web.StreamResponse:
        return text_response(request, self.current.json_text(self.clock_ms()), "application/json", public=True)

    async def _svg(self, request: web.Request) -> web.StreamResponse:
        snap = self.current
        if not snap.has_game:
            raise web.HTTPNotFound(text="no game on this board yet\n")
        return text_response(request, snap.svg, "image/svg+xml", self._etag(snap), public=True)

    async def _live(self, request: web.Request) -> web.StreamResponse:
        return text_response(request, self._event_data(), "application/json")

    async def _events(self, request: web.Request) -> web.StreamResponse:
        """The event stream; a hall's (``?nonce=``, 32 hex digits) has each event signed with
        the round key, when the board has one."""
        nonce = request.query.get("nonce", "")
        if nonce and not is_nonce(nonce):
            raise web.HTTPBadRequest(text="nonce: 32 hexadecimal digits\n")
        latest: list = [None]

        def data() -> str:
            latest[0] = self._published
            return live_json(latest[0][0], self.clock_ms())

        def signed(text: str) -> str | None:
            key = latest[0][1]
            return sign(key, nonce, text) if key is not None and nonce else None

        return await event_stream(request, self.hub, data, self.heartbeat, "game", signed)

    def _event_data(self) -> str:
        return live_json(self.current, self.clock_ms())

    async def _setup(self) -> None:
        if self.announce:
            from .discovery import Announcer

            self._announcer = Announcer(self.name, self.thread.host, self.thread.port, self.announce_interfaces)
            await self._announcer.start()

    async def _cleanup(self) -> None:
        if self._announcer is not None:
            await self._announcer.stop()


def source_of(flow):
    """What the app's flow is showing: its table (every game the app plays has one), else its
    session, else a game found at start-up and waiting to be resumed (so a restarted board serves
    it at once)."""
    game = flow.game
    if game.table is not None:
        return game.table
    if game.session is not None:
        return game.session
    resumed = flow.resume.resumed
    return getattr(resumed, "game", None) if resumed is not None else None


def round_key_of(source, data_dir) -> bytes | None:
    """The round key of the pairing file ``source``'s game came from (a table's
    ``setup.source``, "trf:<name>" or "csv:<name>"), read from the copy the board keeps in
    ``data_dir``/pairings/ (mode 0600); None when there is none or it cannot be read."""
    from ..errors import PairingError
    from ..tournament.pairing import parse_pairings

    setup = getattr(source, "setup", None) if getattr(source, "session", None) is not None else None
    kind, _, name = (getattr(setup, "source", "") or "").partition(":")
    if not name or data_dir is None:
        return None
    path = Path(data_dir) / "pairings" / Path(name).name
    try:
        if path.stat().st_size > MAX_PAIRING_BYTES:
            return None
        return key_bytes(parse_pairings(path.read_text(encoding="utf-8-sig"), path.name).round_key)
    except (OSError, UnicodeDecodeError, PairingError):
        return None  # then its events go unsigned, and a hall with the key says so on its page


class FlowBroadcast:
    """Publishes the flow's game to ``server`` after every change (a flow listener), signed
    with the round key of the pairing file the game came from, if it carries one."""

    def __init__(self, flow, server: BoardServer, source: Callable = source_of, data_dir=None) -> None:
        """``data_dir``: the app's data folder, where the board keeps its copy of the pairing file
        (and so the round key); None: the game is not signed."""
        self.flow, self.server, self.source, self.data_dir = flow, server, source, data_dir
        self.version = 0
        self._key: tuple | None = None
        self._round_key: tuple[str, bytes | None] = ("", None)
        flow.listeners.append(self.changed)
        self.changed()

    def changed(self) -> None:
        source = self.source(self.flow)
        key = change_key(source)
        if key == self._key:
            return
        self._key = key
        self.version += 1
        self.server.publish(take_snapshot(source, self.version, self.flow.clock_ms(), self.server.name),
                            self._round_key_for(source))

    def _round_key_for(self, source) -> bytes | None:
        """Read once per game (the pairing file's name is in its set-up), not at every move."""
        setup = getattr(source, "setup", None) if getattr(source, "session", None) is not None else None
        which = f"{id(source)}:{getattr(setup, 'source', '')}"
        if self._round_key[0] != which:
            self._round_key = (which, round_key_of(source, self.data_dir))
        return self._round_key[1]

    def stop(self) -> None:
        if self.changed in self.flow.listeners:
            self.flow.listeners.remove(self.changed)
        self.server.stop()


def board_name() -> str:
    """The name a board announces: $COMPANION_BOARD_NAME, else the computer's host name."""
    import os

    return (os.environ.get("COMPANION_BOARD_NAME") or socket.gethostname() or "companion").strip()[:60]


def start_broadcast(flow, address: str, *, name: str | None = None, announce: bool = True) -> FlowBroadcast:
    """Serve ``flow``'s game on ``address`` ([HOST:]PORT) and announce it (BroadcastError if
    the address cannot be used)."""
    from .web import parse_address

    host, port = parse_address(address)
    server = BoardServer(name or board_name(), host, port, clock_ms=flow.clock_ms, announce=announce)
    server.start()
    return FlowBroadcast(flow, server, data_dir=flow.storage.directory)
