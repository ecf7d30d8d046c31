"""``companion hall``: follow the boards of a round and serve it (docs/broadcast.md).

    companion hall --pairings round4.trf            the round's boards: those that sign with the
                                                    round key in its pairing file, found with mDNS
    companion hall --board 192.168.1.21:8080 ...    boards given by hand (with --pairings they
                                                    must sign too; without it, mDNS stays off)
    companion hall --boards boards.txt --out round  addresses from a file; keep round.pgn and
                                                    results.csv up to date in a folder

The round key: ``--pairings FILE`` reads the pairing file the boards load from their USB stick;
a file without a key gets one (a line ``XXK`` and 64 hex digits, the file made readable by its
user only) and the hall says to copy it to the stick. The key is never printed.
"""

from __future__ import annotations

import argparse
import signal
import threading
from pathlib import Path

from ..errors import BroadcastError
from ..i18n import _, ngettext

DEFAULT_HALL = "8000"
MAX_BOARDS = 1000
MAX_PAIRING_BYTES = 1_000_000


def add_parser(sub) -> argparse.ArgumentParser:
    p = sub.add_parser("hall", help=_("gather the boards of a round: one PGN, results, a page with every board"),
                       description=_("Follow the boards of a round and serve it: /round.pgn, /results, /results.csv "
                                   "and the hall page; stops with Ctrl-C."))
    p.add_argument("--listen", default=DEFAULT_HALL, metavar="[HOST:]PORT",
                   help=_("where the hall serves (default {default}, every interface)").format(default=DEFAULT_HALL))
    p.add_argument("--board", action="append", default=[], metavar="HOST:PORT",
                   help=_("a board's broadcast address (repeat for more boards)"))
    p.add_argument("--boards", default=None, metavar="FILE",
                   help=_("a file of board addresses, one per line (# comments)"))
    p.add_argument("--pairings", default=None, metavar="FILE",
                   help=_("the round's pairing file (TRF or CSV) the boards load: the hall takes results only from "
                        "boards that sign with its round key (added to the file if it has none) and play a board "
                        "of the round, and finds them with mDNS"))
    p.add_argument("--no-discovery", action="store_true", help=_("with --pairings: do not look for boards with mDNS"))
    p.add_argument("--interface", action="append", default=None, metavar="ADDRESS",
                   help=_("look for boards only on the network interface with this address (repeatable)"))
    p.add_argument("--out", default=None, metavar="DIR", help=_("keep round.pgn and results.csv up to date in DIR"))
    p.add_argument("--lichess-round", default=None, metavar="ID",
                   help=_("push the round's PGN to this lichess broadcast round (its id, or its address) as boards "
                          "change; needs --lichess-token-file with a token allowed study:write (docs/online.md)"))
    p.add_argument("--lichess-token-file", default=None, metavar="FILE",
                   help=_("the file holding the lichess token (readable by you only)"))
    p.add_argument("--lichess-server", default=None, metavar="URL",
                   help=_("the lichess server (default: $COMPANION_LICHESS_URL, else https://lichess.org)"))
    p.set_defaults(func=run)
    return p


def read_board_list(path: str) -> list[str]:
    """Board addresses from a file, one per line; BroadcastError names the file and line."""
    from .hall import board_url

    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read(1_000_000).splitlines()
    except (OSError, UnicodeDecodeError) as e:
        raise BroadcastError(_("{path}: cannot read the board list ({reason})").format(
            path=path, reason=getattr(e, 'strerror', None) or e)) from None
    out = []
    for number, line in enumerate(lines, start=1):
        text = line.split("#", 1)[0].strip()
        if not text:
            continue
        try:
            out.append(board_url(text))
        except BroadcastError as e:
            raise BroadcastError(_("{path}, line {number}: {problem}").format(path=path, number=number, problem=e)) from None
    if len(out) > MAX_BOARDS:
        raise BroadcastError(_("{path}: more than {most} boards").format(path=path, most=MAX_BOARDS))
    return out


def admission_from(path: str, out=print):
    """The round's :class:`~.admission.Admission` from its pairing file; a file without a round
    key gets one, written into the file (mode 0600), and ``out`` says so (never the key)."""
    import os
    import secrets

    from ..tournament.files import write_private
    from ..tournament.pairing import parse_pairings, with_round_key
    from .admission import Admission

    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_PAIRING_BYTES + 1)
        if len(raw) > MAX_PAIRING_BYTES:
            raise BroadcastError(_("{path}: more than {most:,} bytes; is it a pairing file?").format(
                path=path, most=MAX_PAIRING_BYTES))
        text = raw.decode("utf-8-sig")
    except (OSError, UnicodeDecodeError) as e:
        raise BroadcastError(_("{path}: cannot read the pairing file ({reason})").format(
            path=path, reason=getattr(e, 'strerror', None) or e)) from None
    pairings = parse_pairings(text, os.path.basename(path))
    try:
        if not pairings.round_key:
            write_private(path, with_round_key(text, secrets.token_hex(32)))
            pairings = parse_pairings(Path(path).read_text(encoding="utf-8-sig"), os.path.basename(path))
            out(f"{path}: a round key was added to this file (readable by you only); copy the file to the "
                f"boards' USB stick and load it on every board (Table, From a pairing file)")
        elif os.stat(path).st_mode & 0o077:
            os.chmod(path, 0o600)
            out(f"{path}: made readable by you only (it holds the round key)")
    except OSError as e:
        raise BroadcastError(_("{path}: cannot write the round key into it ({reason})").format(
            path=path, reason=e.strerror or e)) from None
    return Admission.of(pairings)


def run(args, out=print, wait=None) -> int:
    from .hall import HallServer, board_url
    from .web import parse_address

    host, port = parse_address(args.listen)
    boards = [board_url(b) for b in args.board]
    if args.boards:
        boards += read_board_list(args.boards)
    pairings = getattr(args, "pairings", None)
    discover = pairings is not None and not args.no_discovery
    if not discover and not boards:
        raise BroadcastError(_("no boards to follow: give the round's pairing file (--pairings) to find them with "
                               "mDNS, or --board or --boards"))
    lichess = lichess_round(args)
    admission = admission_from(pairings, out) if pairings is not None else None
    hall = HallServer(host, port, boards=list(dict.fromkeys(boards)), discover=discover,
                      discover_interfaces=args.interface, out=Path(args.out) if args.out else None,
                      admission=admission, lichess=lichess, say=out)
    bound = hall.start()
    shown = host if host not in ("", "0.0.0.0", "::") else "localhost"
    out(_("hall: http://{host}:{port}/  (round: /round.pgn, results: /results)").format(host=shown, port=bound))
    if admission is not None:
        p = admission.pairings
        out((ngettext("round {round} of {event}: {n} board; the hall takes results only from boards that sign with the "
                      "round key in {path}",
                      "round {round} of {event}: {n} boards; the hall takes results only from boards that sign with the "
                      "round key in {path}", len(p.games)) if p.event else
             ngettext("round {round}: {n} board; the hall takes results only from boards that sign with the round key "
                      "in {path}",
                      "round {round}: {n} boards; the hall takes results only from boards that sign with the round key "
                      "in {path}", len(p.games))).format(round=p.round, event=p.event, n=len(p.games), path=pairings))
    else:
        out(_("no pairing file: every board given is believed (give --pairings FILE to admit boards by the round key)"))
    out((ngettext("following {n} board given and every board found with mDNS",
                  "following {n} boards given and every board found with mDNS", len(boards)) if discover else
         ngettext("following {n} board given", "following {n} boards given", len(boards))).format(n=len(boards)))
    if lichess is not None:
        out(_("pushing the round to lichess broadcast round {round} on {server} as boards change").format(
            round=lichess.round_id, server=lichess.server))
    try:
        (wait or _wait_for_signal)()
    finally:
        hall.stop()
    return 0


def lichess_round(args):
    """The lichess round to push to (None without --lichess-round); one line if the options or
    the token file are wrong, before the hall starts."""
    round_text = getattr(args, "lichess_round", None)
    token_file = getattr(args, "lichess_token_file", None)
    if round_text is None:
        if token_file or getattr(args, "lichess_server", None):
            raise BroadcastError(_("--lichess-token-file and --lichess-server go with --lichess-round ID"))
        return None
    from ..online.api import round_id
    from ..online.client import server_url
    from ..online.token import read_token
    from .hall import LichessRound

    if not token_file:
        raise BroadcastError(_("--lichess-round needs --lichess-token-file FILE: a lichess token allowed study:write"))
    return LichessRound(round_id(round_text), server_url(args.lichess_server), read_token(token_file))


def _wait_for_signal() -> None:
    done = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: done.set())
    while not done.wait(3600):
        pass
