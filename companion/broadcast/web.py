"""The HTTP edge both servers share (the board's and the hall's), on aiohttp.

Everything served is read-only and held in memory: the pages are read from the package once
when a server is built, the games come from snapshots. No route takes a file name, so no
request can reach a file; only GET and HEAD are routed (anything else is 405), an unknown path
is 404, a request line or header over :data:`LIMITS` is refused by aiohttp's parser with 400
or 431 before any handler runs, and a request body is never read. Every response carries
headers that keep a browser from doing more with it than showing it (``nosniff``, a strict
Content-Security-Policy for the pages: their own script and style only, no inline script).
Connections come in through a :class:`~companion.broadcast.listener.Door` (at most so many open
within the open-file limit, a request head within seconds, a log that cannot flood).

:class:`Hub` wakes the server-sent-event streams when something new is published, and
:func:`event_stream` writes one: the current value at once, then every change, and a comment
line every ``heartbeat`` seconds so that a hall (or a browser) sees a board that went silent.
"""

from __future__ import annotations

import asyncio
import threading
from importlib import resources
from typing import Awaitable, Callable

from aiohttp import web

from ..errors import BroadcastError
from ..i18n import _
from .listener import HEAD_TIMEOUT_S, RESERVE_FILES, Door, connection_cap, limit_logs, listening_sockets

#: aiohttp's request parser limits (request line, one header, header count), the seconds a
#: request head may take (aiohttp's keep-alive timer, which runs from the connection's start)
#: and the body size.
LIMITS = {"max_line_size": 2048, "max_field_size": 4096, "max_headers": 40, "keepalive_timeout": HEAD_TIMEOUT_S}
MAX_BODY = 1024
PAGE_CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
            "connect-src 'self'; base-uri 'none'; form-action 'none'")
PGN_TYPE = "application/x-chess-pgn"


def page(name: str) -> bytes:
    """A page file shipped with the package (companion/broadcast/pages/)."""
    return resources.files(__package__).joinpath("pages", name).read_bytes()


@web.middleware
async def read_only_headers(request: web.Request, handler):
    try:
        response = await handler(request)
    except web.HTTPException as e:
        response = e
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Referrer-Policy", "no-referrer")
    response.headers.setdefault("Cache-Control", "no-cache")
    response.headers.setdefault("Content-Security-Policy", PAGE_CSP)
    if isinstance(response, web.HTTPException):
        raise response
    return response


def new_app() -> web.Application:
    return web.Application(middlewares=[read_only_headers], client_max_size=MAX_BODY, handler_args=dict(LIMITS))


def static_route(app: web.Application, path: str, body: bytes, content_type: str) -> None:
    async def handler(request: web.Request) -> web.Response:
        return web.Response(body=body, content_type=content_type, charset="utf-8")

    app.router.add_get(path, handler)


def page_routes(app: web.Application, script: str) -> None:
    """A page's files: ``/`` (``<script>`` minus .js, .html), its script, the shared script,
    the style and the texts."""
    from .texts import language_for, texts_js

    static_route(app, "/", page(script.replace(".js", ".html")), "text/html")
    static_route(app, f"/{script}", page(script), "text/javascript")
    static_route(app, "/common.js", page("common.js"), "text/javascript")
    static_route(app, "/style.css", page("style.css"), "text/css")
    async def texts(request: web.Request) -> web.Response:  # in the spectator's language
        language = language_for(request.headers.get("Accept-Language"))
        return web.Response(body=texts_js(language), content_type="text/javascript", charset="utf-8",
                             headers={"Vary": "Accept-Language"})

    app.router.add_get("/texts.js", texts)


def text_response(request: web.Request, text: str, content_type: str, etag: str | None = None,
                  public: bool = False) -> web.StreamResponse:
    """``text`` with an ETag: a poller that sends it back gets 304 and no body."""
    headers = {"Access-Control-Allow-Origin": "*"} if public else {}
    if etag is not None:
        headers["ETag"] = etag
        if etag in request.headers.get("If-None-Match", ""):
            return web.Response(status=304, headers=headers)
    return web.Response(text=text, content_type=content_type, charset="utf-8", headers=headers)


class Hub:
    """Wakes every open event stream when something is published (loop thread only)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.clients = 0
        self.version = 0
        self.closed = False
        self._event = asyncio.Event()

    def close(self) -> None:
        """The server stops: every stream ends now (not after the shutdown timeout)."""
        self.closed = True
        self.notify()

    def notify(self) -> None:
        self.version += 1
        event, self._event = self._event, asyncio.Event()
        event.set()

    async def wait(self, seen: int, timeout: float) -> bool:
        """Wait until something newer than ``seen`` is published (False: the timeout)."""
        if self.version != seen:
            return True
        try:
            await asyncio.wait_for(self._event.wait(), timeout)
        except asyncio.TimeoutError:
            return False
        return True


async def event_stream(request: web.Request, hub: Hub, current: Callable[[], str | None],
                       heartbeat: float, event: str,
                       sign: Callable[[str], str | None] | None = None) -> web.StreamResponse:
    """A server-sent-event stream: ``current()`` (the data line, None: nothing to send) now and
    after every change, a comment every ``heartbeat`` seconds, until the client goes. Each
    stream calls its own ``current``, so it may remember what this client was sent; ``sign``
    gives a data line's signature (a ``sig:`` line, which browsers pass over)."""
    if hub.clients >= hub.limit:
        raise web.HTTPServiceUnavailable(text="too many watchers; try again later\n")
    response = web.StreamResponse(headers={"Content-Type": "text/event-stream", "Cache-Control": "no-cache",
                                           "X-Accel-Buffering": "no"})
    hub.clients += 1
    try:
        await response.prepare(request)
        seen = None
        while not hub.closed:
            if hub.version != seen:
                seen = hub.version
                data = current()
                if data is not None:
                    sig = sign(data) if sign is not None else None
                    signed = f"sig: {sig}\n" if sig else ""
                    await response.write(f"event: {event}\n{signed}data: {data}\n\n".encode())
            elif not await hub.wait(seen, heartbeat):
                await response.write(b": still here\n\n")
    except (ConnectionResetError, asyncio.CancelledError, RuntimeError):
        pass
    finally:
        hub.clients -= 1
    return response


class ServerThread:
    """An aiohttp server in its own thread with its own asyncio loop, so that serving never
    runs on (or waits for) the thread that owns the game. ``setup`` and ``cleanup`` run on
    the loop; :meth:`call` hands a function to the loop from any thread. It holds at most
    ``most`` connections, fewer when the open-file limit leaves less after ``reserve`` files
    for the rest of the program (companion.broadcast.listener)."""

    def __init__(self, app_factory: Callable[[], web.Application], host: str, port: int, name: str,
                 setup: Callable[[], Awaitable[None]] | None = None,
                 cleanup: Callable[[], Awaitable[None]] | None = None, hubs: Callable[[], list] = list,
                 most: int = 256, reserve: int = RESERVE_FILES) -> None:
        self.app_factory, self.host, self.port, self.name = app_factory, host, port, name
        self.setup, self.cleanup, self.hubs = setup, cleanup, hubs
        self.most, self.reserve = most, reserve
        self.door: Door | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._error: BaseException | None = None
        self._stop: asyncio.Event | None = None

    def start(self, timeout: float = 10.0) -> int:
        """Start serving; returns the port (the one chosen by the system for port 0). A port
        that cannot be used raises BroadcastError here, in the caller's thread."""
        self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)
        self._thread.start()
        if not self._ready.wait(timeout):
            raise BroadcastError(_("the server ({name}) did not start within {timeout:.0f} s").format(
                name=self.name, timeout=timeout))
        if self._error is not None:
            error, self._error = self._error, None
            raise BroadcastError(_("cannot serve on {host}:{port} ({reason})").format(
                host=self.host or '*', port=self.port, reason=_reason(error))) from None
        return self.port

    def call(self, fn: Callable[[], None]) -> None:
        loop = self.loop
        if loop is not None and not loop.is_closed():
            try:
                loop.call_soon_threadsafe(fn)
            except RuntimeError:  # the loop closed meanwhile: nothing to wake
                pass

    def stop(self, timeout: float = 5.0) -> None:
        self.request_stop()
        self.join(timeout)

    def request_stop(self) -> None:
        """Ask the server to stop without waiting (several can then stop at once)."""
        if self.loop is not None and self._stop is not None:
            self.call(self._stop.set)

    def join(self, timeout: float = 5.0) -> None:
        if self._thread is not None:
            self._thread.join(timeout)

    def _run(self) -> None:
        loop = asyncio.new_event_loop()
        self.loop = loop
        try:
            loop.run_until_complete(self._serve())
        except BaseException as e:  # noqa: BLE001 - reported to start() in the caller's thread
            self._error = e
            self._ready.set()
        finally:
            loop.close()

    async def _serve(self) -> None:
        self._stop = asyncio.Event()
        limit_logs()
        runner = web.AppRunner(self.app_factory(), access_log=None, handle_signals=False, shutdown_timeout=1.0)
        await runner.setup()
        try:
            sockets = listening_sockets(self.host, self.port)
            self.port = sockets[0].getsockname()[1]
            self.door = Door(asyncio.get_running_loop(), runner.server, sockets,
                             connection_cap(self.most, self.reserve), name=self.name)
            self.door.start()
            if self.setup is not None:
                await self.setup()
            self._ready.set()
            await self._stop.wait()
        finally:
            if self.door is not None:
                self.door.close()
            for hub in self.hubs():
                hub.close()
            if self.cleanup is not None:
                try:
                    await self.cleanup()
                except Exception:  # noqa: BLE001 - shutting down
                    pass
            await runner.cleanup()


class ThreadedServer:
    """What the board's and the hall's servers have in common: their :class:`ServerThread`."""

    thread: ServerThread

    def start(self) -> int:
        return self.thread.start()

    def stop(self) -> None:
        self.thread.stop()

    @property
    def port(self) -> int:
        return self.thread.port


def _reason(error: BaseException) -> str:
    if isinstance(error, OSError):
        return error.strerror or str(error)
    return str(error) or type(error).__name__


def parse_address(text: str, default_host: str = "") -> tuple[str, int]:
    """``[HOST:]PORT`` (``8080``, ``:8080``, ``0.0.0.0:8080``, ``[::1]:8080``) -> (host, port);
    BroadcastError says what is wrong."""
    if not isinstance(text, str) or not text.strip():
        raise BroadcastError(_("an address is [HOST:]PORT, e.g. 8080 or 192.168.1.20:8080"))
    t = text.strip()
    host, sep, port = t.rpartition(":")
    if not sep:
        host, port = default_host, t
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    if not (port.isascii() and port.isdigit() and len(port) <= 5 and int(port) <= 65535):
        raise BroadcastError(_("{text!r}: the port must be a number from 0 to 65535 ([HOST:]PORT, e.g. 8080)").format(
            text=text))
    if any(c.isspace() or c in "/?#@" for c in host):
        raise BroadcastError(_("{text!r}: {host!r} is not a host name or address").format(text=text, host=host))
    return host or default_host, int(port)
