"""A board under a flood of idle connections, as tests/test_broadcast_load.py drives it: a
clocked game at a table journaled in a data folder (companion.broadcast.fleet.FleetBoard, as
the hall's tests build a board), its broadcast server, and the process held to the Pi's
default of open files (``resource.setrlimit``, as ``ulimit -n 1024`` would). Python's logging
goes to stderr at INFO, as the app's log takes it, so whatever the server logs is counted.

Commands on stdin, one answer line each on stdout: ``move UCI`` (played and journaled:
``ok <ms>``), ``finish`` (the game resigned, its journal archived into games/, its PGN saved
there and the games copied to a folder standing in for a USB stick: ``ok <ms>``, or ``error
<why>``), ``fds`` (open files now), ``quit``. The first line is ``ready <port> <soft limit>``.
"""

from __future__ import annotations

import logging
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def main() -> int:
    folder, limit = Path(sys.argv[1]), int(sys.argv[2])
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (limit, hard))
    logging.basicConfig(stream=sys.stderr, level=logging.INFO)

    from companion.broadcast.fleet import FleetBoard
    from companion.broadcast.listener import open_files
    from companion.tournament.files import copy_to_stick, save_game_pgn
    from companion.tournament.record import pgn_game

    board = FleetBoard(1, folder / "board", host="127.0.0.1")
    port = board.start()
    print(f"ready {port} {resource.getrlimit(resource.RLIMIT_NOFILE)[0]}", flush=True)
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        start = time.monotonic()
        try:
            if words[0] == "move":
                board.move(words[1])
            elif words[0] == "finish":
                table = board.table
                table.session.resign(table.session.turn)
                board.publish()
                board.journal.close()
                game_id = table.game.game_id
                board.store.archive(game_id)
                save_game_pgn(board.store.directory / "games", game_id, pgn_game(table))
                copy_to_stick(board.store.directory / "games", folder / "stick")
            elif words[0] == "fds":
                print(f"ok {open_files()}", flush=True)
                continue
            elif words[0] == "quit":
                break
            else:
                raise ValueError(f"unknown command {words[0]!r}")
        except Exception as e:  # noqa: BLE001 - said to the test, which decides
            print(f"error {type(e).__name__}: {e}"[:300], flush=True)
            continue
        print(f"ok {(time.monotonic() - start) * 1000:.1f}", flush=True)
    board.server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
