"""``companion hall``: follow the boards of a round and serve it (docs/broadcast.md).

    companion hall                                  find the boards with mDNS, serve on port 8000
    companion hall --board 192.168.1.21:8080 ...    boards given by hand (with or without mDNS)
    companion hall --boards boards.txt --out round  addresses from a file; keep round.pgn and
                                                    results.csv up to date in a folder
"""

from __future__ import annotations

import argparse
import signal
import threading
from pathlib import Path

from ..errors import BroadcastError

DEFAULT_HALL = "8000"
MAX_BOARDS = 1000


def add_parser(sub) -> argparse.ArgumentParser:
    p = sub.add_parser("hall", help="gather the boards of a round: one PGN, results, a page with every board",
                       description="Follow the boards of a round and serve it: /round.pgn, /results, /results.csv "
                                   "and the hall page; stops with Ctrl-C.")
    p.add_argument("--listen", default=DEFAULT_HALL, metavar="[HOST:]PORT",
                   help=f"where the hall serves (default {DEFAULT_HALL}, every interface)")
    p.add_argument("--board", action="append", default=[], metavar="HOST:PORT",
                   help="a board's broadcast address (repeat for more boards)")
    p.add_argument("--boards", default=None, metavar="FILE",
                   help="a file of board addresses, one per line (# comments)")
    p.add_argument("--no-discovery", action="store_true", help="do not look for boards with mDNS")
    p.add_argument("--interface", action="append", default=None, metavar="ADDRESS",
                   help="look for boards only on the network interface with this address (repeatable)")
    p.add_argument("--out", default=None, metavar="DIR", help="keep round.pgn and results.csv up to date in DIR")
    p.set_defaults(func=run)
    return p


def read_board_list(path: str) -> list[str]:
    """Board addresses from a file, one per line; BroadcastError names the file and line."""
    from .hall import board_url

    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read(1_000_000).splitlines()
    except (OSError, UnicodeDecodeError) as e:
        raise BroadcastError(f"{path}: cannot read the board list ({getattr(e, 'strerror', None) or e})") from None
    out = []
    for number, line in enumerate(lines, start=1):
        text = line.split("#", 1)[0].strip()
        if not text:
            continue
        try:
            out.append(board_url(text))
        except BroadcastError as e:
            raise BroadcastError(f"{path}, line {number}: {e}") from None
    if len(out) > MAX_BOARDS:
        raise BroadcastError(f"{path}: more than {MAX_BOARDS} boards")
    return out


def run(args, out=print, wait=None) -> int:
    from .hall import HallServer, board_url
    from .web import parse_address

    host, port = parse_address(args.listen)
    boards = [board_url(b) for b in args.board]
    if args.boards:
        boards += read_board_list(args.boards)
    if args.no_discovery and not boards:
        raise BroadcastError("no boards to follow: give --board or --boards, or leave mDNS discovery on")
    hall = HallServer(host, port, boards=list(dict.fromkeys(boards)), discover=not args.no_discovery,
                      discover_interfaces=args.interface, out=Path(args.out) if args.out else None)
    bound = hall.start()
    shown = host if host not in ("", "0.0.0.0", "::") else "localhost"
    out(f"hall: http://{shown}:{bound}/  (round: /round.pgn, results: /results)")
    out(f"following {len(boards)} board(s) given" + ("" if args.no_discovery else " and every board found with mDNS"))
    try:
        (wait or _wait_for_signal)()
    finally:
        hall.stop()
    return 0


def _wait_for_signal() -> None:
    done = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: done.set())
    while not done.wait(3600):
        pass
