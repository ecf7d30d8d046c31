"""The board's own page for connecting a lichess account from a phone (docs/online.md).

While the board's "Connect to lichess" screen is open, :class:`ConnectPage` serves one small
page on the local network; the screen shows its address as a QR code, with a one-time code in
it (``/lichess?k=...``). On the phone the page offers two ways:

* **Log in with lichess** (OAuth2 with PKCE, companion.online.connect): the phone goes to
  lichess, the player allows the board, lichess sends the phone back to
  ``/lichess/callback`` here, and the board exchanges the code for a token (``POST
  /api/token``, no secret: the verifier never leaves the board).
* **Paste a token**: a link to lichess's token page with the scopes ticked, and a field to
  paste the token into (``POST /lichess/token``).

Either way the token goes to ``on_token`` (the app saves it, 0600, and connects); the page
never shows it, never puts it in an address, and answers with the account's name only. A
request without the page's code is refused (403): a phone must have scanned the screen. The
code is used once; the server stops when the screen closes.
"""

from __future__ import annotations

import secrets
import time
from html import escape
from typing import Callable

from aiohttp import web

from ..broadcast.web import ServerThread, read_only_headers
from ..errors import OnlineError
from ..i18n import _, current
from . import connect
from .client import LichessClient
from .api import Request
from .token import Token

PAGE_CSP = ("default-src 'none'; style-src 'unsafe-inline'; form-action 'self' https: http:; base-uri 'none'; "
            "frame-ancestors 'none'")
MAX_FORM = 4096
STYLE = ("body{font:18px/1.5 sans-serif;max-width:34em;margin:1em auto;padding:0 1em;color:#111}"
         "a.button,button{display:block;font-size:20px;padding:.7em;margin:.6em 0;border-radius:.4em;"
         "border:2px solid #1a5fb4;background:#1a5fb4;color:#fff;text-align:center;text-decoration:none}"
         "input{font-size:18px;width:100%;padding:.5em;box-sizing:border-box}.note{color:#444}")


def _page(title: str, body: str, status: int = 200) -> web.Response:
    html = (f'<!doctype html><html lang="{current().code}"><head><meta charset="utf-8"><meta name="viewport" '
            f'content="width=device-width, initial-scale=1"><title>{escape(title)}</title><style>{STYLE}</style>'
            f'</head><body><h1>{escape(title)}</h1>{body}</body></html>')
    return web.Response(text=html, content_type="text/html", status=status,
                        headers={"Content-Security-Policy": PAGE_CSP, "Cache-Control": "no-store"})


class ConnectPage:
    """The page, on ``host:port`` (0: any free port); ``on_token(token, name)`` is called on the
    page's loop thread (the app only posts it to its queue)."""

    def __init__(self, server: str, on_token: Callable[[Token, str], None], host: str = "", port: int = 0,
                 scopes: tuple[str, ...] = connect.PLAY_SCOPES, address: str | None = None,
                 clock_ms: Callable[[], int] | None = None) -> None:
        self.server, self.on_token, self.scopes = server, on_token, scopes
        self.code = secrets.token_urlsafe(12)
        self._address = address
        self.clock_ms = clock_ms or (lambda: int(time.monotonic() * 1000))
        self._auth: connect.Authorization | None = None
        self.done = False
        self.thread = ServerThread(self._app, host, port, "lichess connect page", most=32)

    def start(self) -> str:
        port = self.thread.start()
        if self._address is None:
            from ..broadcast.discovery import announce_addresses

            self._address = announce_addresses(self.thread.host)[0]
        host = f"[{self._address}]" if ":" in self._address else self._address
        self.base = f"http://{host}:{port}"
        return self.url

    def stop(self) -> None:
        self.thread.stop()

    @property
    def url(self) -> str:
        """What the QR code on the screen holds."""
        return f"{self.base}/lichess?k={self.code}"

    def _app(self) -> web.Application:
        app = web.Application(middlewares=[read_only_headers], client_max_size=MAX_FORM)
        app.router.add_get("/lichess", self._home)
        app.router.add_get("/lichess/login", self._login)
        app.router.add_get(connect.CALLBACK_PATH, self._callback)
        app.router.add_post("/lichess/token", self._pasted)
        return app

    def _check(self, code: str | None) -> None:
        if self.done:
            raise web.HTTPGone(text=_("The board is connected already. You can close this page.") + "\n")
        if not code or not secrets.compare_digest(code, self.code):
            raise web.HTTPForbidden(text=_("This page's code is not the board's: scan the QR code on the board's "
                                           "screen again.") + "\n")

    async def _home(self, request: web.Request) -> web.Response:
        self._check(request.query.get("k"))
        k = escape(self.code)
        token_page = escape(connect.token_page(self.server, self.scopes))
        # the words outside the f-strings: Babel does not look inside one
        create, connect_words, log_in, send = (escape(_("create a token on lichess")),
                                               escape(_("Connect this board to your lichess account.")),
                                               escape(_("Log in with lichess")), escape(_("Send the token to the board")))
        link = f'<a href="{token_page}" target="_blank" rel="noopener">{create}</a>'
        body = (f'<p>{connect_words}</p><a class="button" href="/lichess/login?k={k}">{log_in}</a><p class="note">'
                + escape(_("Or: {link} (the needed permissions are ticked), copy it, and paste it here:")).format(link=link)
                + f'</p><form method="post" action="/lichess/token"><input type="hidden" name="k" value="{k}">'
                f'<input name="token" autocomplete="off" autocapitalize="off" spellcheck="false" '
                f'placeholder="lip_..."><button type="submit">{send}</button></form>'
                '<p class="note">' + escape(_('The token stays on the board, readable by it only. "Disconnect" on the '
                                              'board deletes it; you can also revoke it on lichess at any time.'))
                + '</p>')
        return _page(_("Companion board: lichess"), body)

    async def _login(self, request: web.Request) -> web.Response:
        self._check(request.query.get("k"))
        self._auth = connect.authorization(self.server, self.base + connect.CALLBACK_PATH,
                                           secrets.token_urlsafe(48)[:64], secrets.token_urlsafe(16), self.scopes)
        raise web.HTTPFound(self._auth.url)

    async def _callback(self, request: web.Request) -> web.Response:
        if self._auth is None:
            raise web.HTTPForbidden(text=_("No login was started from this board's page: scan the QR code again.") + "\n")
        try:
            code = self._auth.code_from(dict(request.query))
        except OnlineError as e:
            return _page(_("Not connected"), f"<p>{escape(str(e))}.</p>", 400)
        auth, self._auth = self._auth, None
        async with LichessClient(self.server, None, self.clock_ms) as client:
            answer = await client.call(Request("oauth", "POST", "/api/token", form=auth.token_form(code)))
        body = answer.body if isinstance(answer.body, dict) else {}
        if not answer.ok or not isinstance(body.get("access_token"), str):
            words = answer.error or body.get("error_description") or _("no token came back")
            return _page(_("Not connected"), "<p>" + escape(_("lichess did not give the board a token: {reason}.").format(
                reason=words)) + "</p>", 502)
        return await self._received(Token(body["access_token"]))

    async def _pasted(self, request: web.Request) -> web.Response:
        form = await request.post()
        self._check(form.get("k") if isinstance(form.get("k"), str) else None)
        text = form.get("token")
        try:
            token = Token(text if isinstance(text, str) else "")
        except OnlineError as e:
            return _page(_("Not connected"), "<p>" + escape(_("{problem}. Go back and paste it again.").format(problem=e))
                         + "</p>", 400)
        return await self._received(token)

    async def _received(self, token: Token) -> web.Response:
        async with LichessClient(self.server, token, self.clock_ms) as client:
            from . import api

            answer = await client.call(api.account())
        if answer.status is None:
            return _page(_("Not connected"), "<p>" + escape(_("The board cannot reach lichess: {reason}.").format(
                reason=answer.error)) + "</p>", 502)
        if not answer.ok or not isinstance(answer.body, dict):
            return _page(_("Not connected"), "<p>" + escape(_("lichess did not take this token: {reason}.").format(
                reason=answer.error)) + "</p>", 400)
        name = str(answer.body.get("username") or answer.body.get("id") or "?")[:40]
        self.done = True
        self.on_token(token, name)
        return _page(_("Connected"), "<p>" + escape(_("The board is connected to lichess as {name}. You can close this "
                                                      "page.")).format(name=f"<b>{escape(name)}</b>") + "</p>")
