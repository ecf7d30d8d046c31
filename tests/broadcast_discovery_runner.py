"""Run inside a network namespace of its own (tests/test_broadcast_discovery.py starts it with
``unshare -n``, loopback up with multicast on): a board announces itself with zeroconf on
127.0.0.1, a hall browses for boards there and follows the one it finds; prints one JSON line
per step. Nothing leaves the namespace: it has no interface but its own loopback."""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.broadcast.board_server import BoardServer  # noqa: E402
from companion.broadcast.hall import HallServer  # noqa: E402
from companion.broadcast.snapshot import take_snapshot  # noqa: E402
from tests.broadcast_helpers import HallWatch, chess_session  # noqa: E402


def say(**kw) -> None:
    print(json.dumps(kw), flush=True)


def main() -> int:
    session = chess_session("e2e4", "c7c5")
    board = BoardServer("Board 12 at the window", "127.0.0.1", 0, announce=True, announce_interfaces=["127.0.0.1"])
    board.start()
    board.publish(take_snapshot(session, 1, 0, board.name))
    hall = HallServer("127.0.0.1", 0, discover=True, discover_interfaces=["127.0.0.1"])
    hall.start()
    watch = HallWatch(hall.port)
    try:
        took = watch.until(lambda b: any(x.get("last") == "c5" for x in b.values()), 15)
        (key,) = watch.boards
        say(step="found", seconds=round(took, 3), key=key, name=watch.boards[key]["name"],
            port=board.port, players=watch.boards[key]["players"])
        board.stop()  # unregisters (an mDNS goodbye) and closes its streams
        took = watch.until(lambda b: b[key]["status"] == "off", 15)
        say(step="gone", seconds=round(took, 3), status=watch.boards[key]["status"])
    finally:
        watch.close()
        hall.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
