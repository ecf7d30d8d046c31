"""Many simulated boards on one computer, each with its game, its journal and its own
broadcast server: what the hall is tested and benchmarked against (``python -m
companion.broadcast.fleet``), as a room of boards would be.

Each board plays a clocked game (casual mode, Fischer 90 min + 30 s, round and board set) at a
:class:`~companion.tournament.table.Table` journaled under ``DIR/board-N/`` exactly as the app
journals a game, and publishes a snapshot after every change. Started again on the same folder
(after a kill), each board resumes its game from its journal, as the app does after a power
cut, and serves it again.

Commands, one per line on standard input (answers on standard output, one line each):
``move N UCI`` plays a move on board N (and presses its clock), ``quit`` stops. The first
line written is ``ready`` and the boards' ports as JSON.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..errors import CompanionError
from ..i18n import _
from ..journal import JournalStore, resume
from ..session import GameSetup, Seat
from ..tournament.table import Table, TableSetup
from .board_server import BoardServer, monotonic_ms
from .snapshot import take_snapshot

TIME_CONTROL = "5400+30"


class FleetBoard:
    """One simulated board: a table, its journal, its server."""

    def __init__(self, number: int, folder: Path, port: int = 0, host: str = "127.0.0.1", heartbeat: float = 5.0,
                 key: bytes | None = None, round_: str = "1"):
        self.number, self.key = number, key
        self.store = JournalStore(folder)
        t = monotonic_ms()
        back = resume(self.store, Table.replay)
        if back is not None and back.game is not None:
            self.table, self.journal = back.game, back.journal
            self.table.attach(self.journal.append)
            self.table.after_power_cut(None, t)
        else:
            self.journal = self.store.create()
            seats = (Seat(f"White {number}"), Seat(f"Black {number}"))
            game = GameSetup("chess", seats, game_id=f"fleet-board-{number}")
            setup = TableSetup(time_control=TIME_CONTROL, event="Fleet", round=round_, board=str(number))
            self.table, _ = Table.new(game, setup, recorder=self.journal.append)
            self.table.start_clock(t)
        self.version = 0
        self.server = BoardServer(f"fleet board {number}", host, port, heartbeat=heartbeat)

    def start(self) -> int:
        port = self.server.start()
        self.publish()
        return port

    def publish(self) -> None:
        self.version += 1
        self.server.publish(take_snapshot(self.table, self.version, monotonic_ms(), self.server.name), self.key)

    def move(self, uci: str) -> None:
        """Play ``uci`` for the side to move and press its clock, as the players would."""
        t = monotonic_ms()
        if self.table.clock is not None and self.table.clock.paused:
            self.table.resume(t)
        side = self.table.session.turn
        self.table.session.play(uci)
        self.table.press(side, t)
        self.publish()

    def stop(self) -> None:
        self.server.stop()
        self.journal.close()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m companion.broadcast.fleet", description=__doc__.split("\n\n")[0])
    p.add_argument("--boards", type=int, default=10)
    p.add_argument("--dir", required=True, help=_("folder for the boards' journals"))
    p.add_argument("--ports", default="", help=_("comma-separated ports (default: chosen by the system)"))
    p.add_argument("--first", type=int, default=1, help=_("number of the first board"))
    p.add_argument("--heartbeat", type=float, default=5.0)
    args = p.parse_args(argv)
    ports = [int(x) for x in args.ports.split(",") if x] or [0] * args.boards
    boards = [FleetBoard(args.first + i, Path(args.dir) / f"board-{args.first + i}", ports[i], heartbeat=args.heartbeat)
              for i in range(args.boards)]
    bound = [b.start() for b in boards]
    print("ready " + json.dumps(bound), flush=True)
    by_number = {b.number: b for b in boards}
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "quit":
            break
        try:
            if words[0] != "move" or len(words) != 3 or int(words[1]) not in by_number:
                raise CompanionError(_("unknown command {command!r} (move N UCI, quit)").format(command=line.strip()))
            by_number[int(words[1])].move(words[2])
            print("ok", flush=True)
        except (CompanionError, ValueError) as e:
            print(f"error {e}", flush=True)
    for b in boards:
        b.server.thread.request_stop()
    for b in boards:
        b.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
