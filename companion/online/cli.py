"""``companion lichess check``: is this token good for the board? (docs/online.md)

    companion lichess check --token-file ~/.local/share/companion/lichess.token
    companion lichess check --server http://127.0.0.1:8080 --token-file t.token

Prints ``connected as NAME (scopes: board:play, study:write)``, or one line saying what is
wrong: no file, not readable, readable by other users, not a token, revoked, no network. The
server is ``--server``, else $COMPANION_LICHESS_URL, else https://lichess.org. The token is
never printed.
"""

from __future__ import annotations

import argparse
import time

from ..errors import OnlineError
from ..i18n import _
from . import api
from .api import SERVER_ENV


def add_parser(sub) -> argparse.ArgumentParser:
    p = sub.add_parser("lichess", help=_("lichess from the board: check an account's token (docs/online.md)"),
                       description=_("Lichess from the board (docs/online.md)."))
    inner = p.add_subparsers(dest="lichess_command", metavar="ACTION", parser_class=type(p))
    inner.required = True
    c = inner.add_parser("check", help=_("say whose token a file holds and what it allows"),
                         description=_("Say whose token FILE holds and what it allows, or in one line what is wrong."))
    c.add_argument("--token-file", required=True, metavar="FILE", help=_("the file that holds the token (mode 0600)"))
    c.add_argument("--server", default=None, metavar="URL",
                   help=_("the server (default: ${variable}, else https://lichess.org)").format(variable=SERVER_ENV))
    c.set_defaults(func=run_check)
    return p


def run_check(args, out=print) -> int:
    import asyncio  # the command's own (aiohttp with it): only when it runs, not for the parser

    from .client import server_url
    from .token import read_token

    base = server_url(args.server)
    token = read_token(args.token_file)
    out(asyncio.run(check(base, token)))
    return 0


async def check(base: str, token) -> str:
    """``connected as NAME (scopes: ...)``; OnlineError in one line otherwise."""
    from .client import LichessClient

    clock = lambda: int(time.monotonic() * 1000)  # noqa: E731
    async with LichessClient(base, token, clock) as client:
        account = await client.call(api.account())
        if account.status is None:
            raise OnlineError(_("no network: {error} ({base})").format(error=account.error, base=base))
        if account.status == 401:
            raise OnlineError(_("the token was revoked or is not valid ({base} answered 401)").format(base=base))
        if account.status == 429:
            raise OnlineError(_("{base} asks to wait a minute (too many requests); try again then").format(base=base))
        if account.status != 200 or not isinstance(account.body, dict):
            raise OnlineError(_("{base} answered {status}: {error}").format(
                base=base, status=account.status, error=account.error or _("not an account")))
        name = account.body.get("username") or account.body.get("id")
        if not isinstance(name, str) or not name:
            raise OnlineError(_("{base} answered without a user name; is it a lichess server?").format(base=base))
        tested = await client.call(api.token_test())
        scopes = None
        if tested.ok and isinstance(tested.body, dict) and len(tested.body) == 1:
            info = next(iter(tested.body.values()))
            if isinstance(info, dict) and isinstance(info.get("scopes"), str):
                scopes = ", ".join(s for s in info["scopes"].split(",") if s) or _("none")
    if scopes is None:
        return _("connected as {name} (scopes: unknown)").format(name=name[:40])
    if "board:play" not in scopes:
        return _("connected as {name} (scopes: {scopes}); board:play is missing, so the board cannot play with this "
                 "token").format(name=name[:40], scopes=scopes)
    return _("connected as {name} (scopes: {scopes})").format(name=name[:40], scopes=scopes)
