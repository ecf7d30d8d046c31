"""Lichess over HTTP: the one place that sends a :class:`~.api.Request` (aiohttp, asyncio).

Why our own small client and not berserk (lichess's Python client): berserk is synchronous
(requests), its streams are blocking iterators that hide where a line was cut, and it leaves
429s and reconnections to the caller anyway. The board needs the stream's bytes fed to the
sans-I/O readers (companion.online.ndjson), one request at a time as lichess asks, a pause
of a full minute for every request after a 429, and nothing new to install: aiohttp already
serves the broadcast. docs/online.md has the reasoning.

:class:`LichessClient` adds the token (``Authorization: Bearer``), sends requests one at a
time (streams run beside them), holds every request for :data:`~.backoff.RATE_LIMIT_MS` after
a 429 (answering at once with 429 and the time requests may go again, without sending), and
reads lichess's ``{"error": ...}`` words from a refusal. A stream's lines go to a callback as
they come, through :class:`~.ndjson.NdjsonReader`.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
from typing import Any, Callable

from aiohttp import ClientError, ClientSession, ClientTimeout, TCPConnector

from ..errors import OnlineError
from ..i18n import _, ngettext
from .api import DEFAULT_SERVER, SERVER_ENV, Request  # noqa: F401 (the server's names, also said here)
from .backoff import RATE_LIMIT_MS, Backoff
from .ndjson import NdjsonReader
from .token import Token
from .transport import Answer

#: Seconds to connect, to wait for an answer, and to hear nothing on a stream before it is
#: taken as lost (lichess sends an empty line every 6 s on its streams).
CONNECT_S = 10.0
ANSWER_S = 20.0
STREAM_SILENCE_S = 20.0
MAX_ERROR_BYTES = 16 * 1024
USER_AGENT = "companion-board"
_URL = re.compile(r"^https?://[A-Za-z0-9.\-\[\]:]+(/[^\s?#]*)?$")


def server_url(given: str | None = None) -> str:
    """The server's base URL: ``given`` (``--server``), else $COMPANION_LICHESS_URL, else
    lichess.org; OnlineError if it is not an http(s) address."""
    url = (given or os.environ.get(SERVER_ENV) or DEFAULT_SERVER).strip().rstrip("/")
    if not _URL.match(url):
        raise OnlineError(_("{url!r} is not a server address (http:// or https://, e.g. {example})").format(
            url=url[:60], example=DEFAULT_SERVER))
    return url


def network_words(e: BaseException) -> str:
    """A failure to reach the server, in the player's words."""
    if isinstance(e, asyncio.TimeoutError):
        return _("lichess did not answer in time")
    text = str(e)
    if "Name or service not known" in text or "Temporary failure in name resolution" in text \
            or "nodename nor servname" in text:
        return _("no network (the server's name cannot be looked up)")
    if "Connect call failed" in text or "Cannot connect" in text or isinstance(e, ConnectionRefusedError):
        return _("lichess cannot be reached")
    return _("the connection to lichess was lost")


class LichessClient:
    """Requests to one server with one token (None: requests that need none)."""

    def __init__(self, base_url: str, token: Token | None, clock_ms: Callable[[], int],
                 rate_limit_ms: int = RATE_LIMIT_MS) -> None:
        self.base_url = base_url.rstrip("/")
        self._token = token
        self.clock_ms = clock_ms
        self.backoff = Backoff(rate_limit_ms=rate_limit_ms)
        self._session: ClientSession | None = None
        self._one_at_a_time = asyncio.Lock()

    def set_token(self, token: Token | None) -> None:
        self._token = token

    async def __aenter__(self) -> LichessClient:
        self._session = ClientSession(connector=TCPConnector(limit=8, enable_cleanup_closed=True),
                                      timeout=ClientTimeout(total=None, connect=CONNECT_S),
                                      headers={"User-Agent": USER_AGENT})
        return self

    async def __aexit__(self, *exc) -> None:
        await self.close()

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None

    def _headers(self, request: Request) -> dict[str, str]:
        h = {"Accept": "application/x-ndjson" if request.stream else "application/json"}
        if self._token is not None and not request.body_is_token:
            h["Authorization"] = f"Bearer {self._token.reveal()}"
        return h

    def _body(self, request: Request):
        if request.body_is_token:
            return {"data": self._token.reveal() if self._token else ""}
        if request.text is not None:
            return {"data": request.text.encode("utf-8"), "headers_extra": {"Content-Type": "text/plain"}}
        if request.form:
            return {"data": dict(request.form)}
        return {}

    def _open(self, request: Request, timeout: ClientTimeout):
        body = self._body(request)
        headers = self._headers(request)
        headers.update(body.pop("headers_extra", {}))
        return self._session.request(request.method, self.base_url + request.path, params=dict(request.query),
                                     headers=headers, timeout=timeout, allow_redirects=False, **body)

    def _held(self) -> Answer | None:
        now = self.clock_ms()
        if not self.backoff.may_send(now):
            return Answer(429, error=_("lichess asked to wait"), retry_at_ms=self.backoff.hold_until_ms)
        return None

    def _rate_limited(self) -> Answer:
        until = self.backoff.failed("rate-limited", self.clock_ms())
        return Answer(429, error=_("lichess asked to wait a minute (too many requests)"), retry_at_ms=until)

    async def call(self, request: Request) -> Answer:
        """Send ``request`` (not a stream) and read its answer; never raises for the network."""
        async with self._one_at_a_time:
            held = self._held()
            if held is not None:
                return held
            try:
                async with self._open(request, ClientTimeout(total=ANSWER_S, connect=CONNECT_S)) as resp:
                    raw = await resp.content.read(MAX_ERROR_BYTES * 64)
                    if resp.status == 429:
                        return self._rate_limited()
                    body = _json_or_none(raw)
                    if resp.status == 200:
                        self.backoff.succeeded()
                        return Answer(200, body)
                    return Answer(resp.status, body, error_words(resp.status, body, raw))
            except (ClientError, OSError, asyncio.TimeoutError) as e:
                return Answer(None, error=network_words(e))

    async def stream(self, request: Request, on_line: Callable[[Any], None],
                     on_open: Callable[[], None] = lambda: None, where: str = "") -> Answer:
        """Open a stream and hand each line (a dict, or KEEP_ALIVE) to ``on_line`` until the
        server closes it (Answer 200) or it fails (the reason). Lines of a cut line are lost."""
        held = self._held()
        if held is not None:
            return held
        reader = NdjsonReader(where or request.path)
        try:
            async with self._open(request, ClientTimeout(total=None, connect=CONNECT_S,
                                                         sock_read=STREAM_SILENCE_S)) as resp:
                if resp.status == 429:
                    return self._rate_limited()
                if resp.status != 200:
                    raw = await resp.content.read(MAX_ERROR_BYTES)
                    return Answer(resp.status, _json_or_none(raw), error_words(resp.status, _json_or_none(raw), raw))
                self.backoff.succeeded()
                on_open()
                async for chunk in resp.content.iter_any():
                    for line in reader.feed(chunk):
                        on_line(line)
            lost = reader.close()
            return Answer(200, error=ngettext("the stream was cut in a line ({n} byte lost)",
                                              "the stream was cut in a line ({n} bytes lost)", lost).format(n=lost)
                          if lost else "")
        except OnlineError as e:
            return Answer(None, error=str(e))
        except (ClientError, OSError, asyncio.TimeoutError) as e:
            return Answer(None, error=network_words(e))


def _json_or_none(raw: bytes) -> Any:
    try:
        return json.loads(raw.decode("utf-8", errors="replace")) if raw.strip() else None
    except ValueError:
        return None


def error_words(status: int, body: Any, raw: bytes = b"") -> str:
    """Lichess's own words for a refusal (its ``error`` field), else a sentence for the status."""
    if isinstance(body, dict) and isinstance(body.get("error"), str) and body["error"].strip():
        return " ".join(body["error"].split())[:300]
    if status == 401:
        return _("the token is not valid (revoked, or not a lichess token)")
    if status == 403:
        return _("the token does not allow this (a scope is missing)")
    if status == 404:
        return _("not found")
    if status >= 500:
        return _("lichess has a problem ({status}); the board tries again").format(status=status)
    return _("lichess answered {status}").format(status=status)
