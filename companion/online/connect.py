"""Connecting an account without a keyboard (pure: randomness and addresses are given).

Two ways, both shown as a QR code for the player's phone:

* **A personal token**: lichess's token page with the scopes ticked
  (``/account/oauth/token/create?scopes[]=board:play&description=...``); the player creates it
  and brings it back through the board's own page on the local network, the on-screen
  keyboard or a file on a USB stick.
* **OAuth2 with PKCE** (lichess's ``/oauth``, method S256, any client id, no client secret): the
  redirect is the board's own page (``http://<board>:<port>/lichess/callback``), so the phone
  lands there after "Authorize" and the board exchanges the code for a token
  (``POST /api/token``). It works where the phone can reach the board (the same network);
  lichess's tokens from this flow last a year.

Scopes: ``board:play`` to play (it also reads and answers challenges), and ``study:write``
only for pushing a round to a broadcast.
"""

from __future__ import annotations

import base64
import hashlib
import re
from dataclasses import dataclass
from urllib.parse import urlencode

from ..errors import OnlineError
from ..i18n import _

PLAY_SCOPES = ("board:play",)
BROADCAST_SCOPES = ("board:play", "study:write")
CLIENT_ID = "companion-board"
TOKEN_DESCRIPTION = "Companion board"
#: lichess: tokens and codes match this; they may grow, so at least 512 characters are kept.
TOKEN = re.compile(r"^[A-Za-z0-9_]{8,1024}$")
CALLBACK_PATH = "/lichess/callback"


def check_token_text(text: str, where: str | None = None) -> str:
    """A token as typed or read from a file: spaces and line ends around it are dropped."""
    where = where or _("the token")
    t = (text or "").strip()
    if not t:
        raise OnlineError(_("{where} is empty").format(where=where))
    if not TOKEN.match(t):
        raise OnlineError(_("{where} is not a lichess token (letters, digits and _ only, like lip_AbC123...)").format(
            where=where))
    return t


def token_page(base_url: str, scopes: tuple[str, ...] = PLAY_SCOPES, description: str = TOKEN_DESCRIPTION) -> str:
    """The address of lichess's page that creates a personal token with ``scopes`` ticked."""
    query = [("scopes[]", s) for s in scopes] + [("description", description)]
    return f"{base_url.rstrip('/')}/account/oauth/token/create?{urlencode(query)}"


def code_challenge(verifier: str) -> str:
    """BASE64URL(SHA256(verifier)) without padding (RFC 7636, S256)."""
    digest = hashlib.sha256(verifier.encode("ascii")).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")


@dataclass(frozen=True)
class Authorization:
    """One PKCE authorization: what the phone opens, and what the board keeps to finish it."""

    url: str
    verifier: str
    state: str
    redirect_uri: str

    def token_form(self, code: str) -> tuple[tuple[str, str], ...]:
        """The body of ``POST /api/token`` for the ``code`` the redirect brought."""
        return (("grant_type", "authorization_code"), ("code", code), ("code_verifier", self.verifier),
                ("redirect_uri", self.redirect_uri), ("client_id", CLIENT_ID))

    def code_from(self, query: dict[str, str]) -> str:
        """The code of the redirect's query; OnlineError when lichess said no or the state
        is not ours (another page's redirect)."""
        if query.get("state") != self.state:
            raise OnlineError(_("this answer is not for the board's request (state differs); start again"))
        if query.get("error"):
            reason = query.get("error_description") or query["error"]
            raise OnlineError(_("lichess was not allowed to connect the board") if query["error"] == "access_denied"
                              else _("lichess said: {reason}").format(reason=reason[:120]))
        code = query.get("code", "")
        if not TOKEN.match(code):
            raise OnlineError(_("the answer from lichess carries no code; start again"))
        return code


def authorization(base_url: str, redirect_uri: str, verifier: str, state: str,
                  scopes: tuple[str, ...] = PLAY_SCOPES) -> Authorization:
    """Start an authorization: ``verifier`` (43 to 128 URL-safe characters) and ``state`` are
    random strings made by the caller (``secrets.token_urlsafe``)."""
    if not (43 <= len(verifier) <= 128 and re.fullmatch(r"[A-Za-z0-9._~-]+", verifier)):
        raise OnlineError(_("a PKCE verifier is 43 to 128 URL-safe characters"))
    query = {"response_type": "code", "client_id": CLIENT_ID, "redirect_uri": redirect_uri,
             "code_challenge_method": "S256", "code_challenge": code_challenge(verifier),
             "scope": " ".join(scopes), "state": state}
    return Authorization(f"{base_url.rstrip('/')}/oauth?{urlencode(query)}", verifier, state, redirect_uri)
