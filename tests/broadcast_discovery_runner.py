"""Run inside a network namespace of its own (tests/test_broadcast_discovery.py starts it with
``unshare -n``, loopback up with multicast on): a board announces itself with zeroconf on
127.0.0.1, a hall browses for boards there and follows the one it finds; prints one JSON line
per step. Nothing leaves the namespace: it has no interface but its own loopback."""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.broadcast.admission import Admission  # noqa: E402
from companion.broadcast.board_server import BoardServer  # noqa: E402
from companion.broadcast.hall import HallServer  # noqa: E402
from companion.broadcast.snapshot import take_snapshot  # noqa: E402
from companion.session import GameSetup, Seat  # noqa: E402
from companion.tournament.pairing import parse_pairings  # noqa: E402
from companion.tournament.table import Table, TableSetup  # noqa: E402

from tests.broadcast_helpers import HallWatch  # noqa: E402

KEY = "3c" * 32
PAIRINGS = f"round,board,white,black\n3,12,White,Black\nXXK {KEY}\n"


def say(**kw) -> None:
    print(json.dumps(kw), flush=True)


def table_game() -> Table:
    table, _ = Table.new(GameSetup("chess", (Seat("White"), Seat("Black")), game_id="disc"),
                         TableSetup(round="3", board="12"))
    for m in ("e2e4", "c7c5"):
        table.session.play(m)
    return table


def main() -> int:
    board = BoardServer("Board 12 at the window", "127.0.0.1", 0, announce=True, announce_interfaces=["127.0.0.1"])
    board.start()
    board.publish(take_snapshot(table_game(), 1, 0, board.name), bytes.fromhex(KEY))
    impostor = BoardServer("Board 12 by the door", "127.0.0.1", 0, announce=True, announce_interfaces=["127.0.0.1"])
    impostor.start()
    impostor.publish(take_snapshot(table_game(), 1, 0, impostor.name))  # the same claim, without the key
    hall = HallServer("127.0.0.1", 0, discover=True, discover_interfaces=["127.0.0.1"],
                      admission=Admission.of(parse_pairings(PAIRINGS, "round3.csv")))
    hall.start()
    watch = HallWatch(hall.port)
    key, other = f"http://127.0.0.1:{board.port}", f"http://127.0.0.1:{impostor.port}"
    try:
        took = watch.until(lambda b: b.get(key, {}).get("last") == "c5"
                           and b.get(other, {}).get("status") == "refused", 15)
        say(step="found", seconds=round(took, 3), key=key, name=watch.boards[key]["name"],
            port=board.port, players=watch.boards[key]["players"], boards=len(watch.boards),
            impostor=watch.boards[other]["problem"])
        board.stop()  # unregisters (an mDNS goodbye) and closes its streams
        took = watch.until(lambda b: b[key]["status"] == "off", 15)
        say(step="gone", seconds=round(took, 3), status=watch.boards[key]["status"])
    finally:
        watch.close()
        hall.stop()
        impostor.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
