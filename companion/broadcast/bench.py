"""``companion bench --only broadcast``: what serving a game costs the board, and how fast the
hall follows a room of boards.

* **Event to LED frame with broadcast off, then on with 20 clients polling.** The app's own
  flow (simulated board, real tracker, journal on disk) plays a 40-ply game by sensor events;
  each event is timed from the sensor change to the LED frame shown (``AppFlow.pump``); the
  move's commit (the pump after it settles: the journal's fsync, and with broadcast on the
  snapshot) is timed apart, since the disk dominates it. The 20
  clients run in another process, as spectators' browsers would, each asking for /game.json
  and /game.pgn ten times a second (400 requests a second in all): the server thread shares
  the board's interpreter, the clients do not.
* **Hall latency for 100 boards**: 100 simulated boards (companion.broadcast.fleet) in one
  process, the hall in this one; a move is made on a board chosen in turn and timed until the
  hall's /round.pgn holds it (median and p99).
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

Row = tuple[str, float, str]

GAME = ("e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6 b1c3 a7a6 c1e3 e7e5 d4b3 c8e6 f2f3 f8e7 d1d2 e8g8 e1c1 b8d7 "
        "g2g4 b7b5 g4g5 b5b4 c3e2 f6e8 f3f4 a6a5 f4f5 a5a4 b3d4 e5d4 e2d4 b4b3 c1b1 b3c2 d4c2 e6b3 a2b3 a4b3").split()

#: The rook's move of each castling (the king's move first).
CASTLING_ROOK = {"e1g1": "h1f1", "e1c1": "a1d1", "e8g8": "h8f8", "e8c8": "a8d8"}


POLLER = textwrap.dedent("""
    import http.client, sys, threading, time
    port, clients, stop_after = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
    count = [0]
    def poll():
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        end = time.monotonic() + stop_after
        while time.monotonic() < end:
            for path in ("/game.json", "/game.pgn"):
                conn.request("GET", path)
                conn.getresponse().read()
                count[0] += 1
            time.sleep(0.1)
    threads = [threading.Thread(target=poll) for _ in range(clients)]
    for t in threads: t.start()
    for t in threads: t.join()
    print(count[0])
""")


def _p99(samples: list[float]) -> float:
    s = sorted(samples)
    return s[max(0, int(len(s) * 0.99) - 1)]


def _flow(folder: Path):
    from ..app.presenters.flow import AppFlow, BoardLink
    from ..board.simulated import SimulatedBoard
    from ..board.tracker import Tracker
    from ..journal import JournalStore
    from ..session import Seat

    sim = SimulatedBoard(8, 8)
    clock = [0]
    flow = AppFlow(BoardLink(sim, sim, 8, 8, simulated=sim), JournalStore(folder), make_tracker=Tracker,
                   clock_ms=lambda: clock[0], new_game_id=lambda: "bench", new_seed=lambda: b"\x01" * 32,
                   run_in_worker=lambda work: work())
    flow.start()
    flow.new_game("chess", (Seat("White"), Seat("Black")))
    flow.game.fill_simulated_board()
    flow.pump(0)
    return flow, sim, clock


def hand_move(flow, sim, clock, uci: str, samples: list[float]) -> None:
    """Make ``uci`` on the simulated board by hand (a capture lifts the victim first, castling
    moves the rook too), each sensor event timed from the change to the LED frame shown."""
    s = flow.game.session
    g = s.rules.geometry
    frm, to = g.parse_square(uci[:2]), g.parse_square(uci[2:4])
    castle = s.rules.parse_move(s.pos, uci).special == "castle"

    def event(square: int, occupied: bool) -> None:
        clock[0] += 40
        t = time.perf_counter()
        (sim.place if occupied else sim.lift)(square, clock[0])
        flow.pump(clock[0])
        samples.append(time.perf_counter() - t)

    if to in sim.occupied:
        event(to, False)
    event(frm, False)
    event(to, True)
    if castle:  # the rook too
        rook = CASTLING_ROOK[uci]
        event(g.parse_square(rook[:2]), False)
        event(g.parse_square(rook[2:]), True)


def _play(flow, sim, clock) -> tuple[list[float], list[float]]:
    """Each sensor event of the game timed from the change to the LED frame shown, and
    separately each move's commit (the journal's fsync, the snapshot when broadcasting)."""
    samples, commits = [], []
    for uci in GAME:
        hand_move(flow, sim, clock, uci, samples)
        clock[0] += 2000  # the move settles
        t = time.perf_counter()
        flow.pump(clock[0])
        commits.append(time.perf_counter() - t)
    assert len(flow.game.session.moves) == len(GAME), "the bench game was not played through"
    return samples, commits


def bench_led_frames(quick: bool = False) -> list[Row]:
    from .board_server import BoardServer, FlowBroadcast

    rounds = 2 if quick else 6
    off, on, off_commit, on_commit = [], [], [], []
    with tempfile.TemporaryDirectory() as folder:
        for r in range(rounds):
            flow, sim, clock = _flow(Path(folder) / f"off-{r}")
            events, commits = _play(flow, sim, clock)
            off += events
            off_commit += commits
            flow.stop()
            flow, sim, clock = _flow(Path(folder) / f"on-{r}")
            server = BoardServer("bench", "127.0.0.1", 0, clock_ms=lambda: clock[0])
            server.start()
            live = FlowBroadcast(flow, server)
            pollers = subprocess.Popen([sys.executable, "-c", POLLER, str(server.port), "20", "60"],
                                       stdout=subprocess.DEVNULL)
            time.sleep(1.0)  # the clients are polling before the game starts
            events, commits = _play(flow, sim, clock)
            on += events
            on_commit += commits
            pollers.kill()
            pollers.wait()
            live.stop()
            flow.stop()
    rows = []
    for label, off_s, on_s in (("event to LED frame", off, on), ("move commit", off_commit, on_commit)):
        rows += [(f"{label}, broadcast off, median", statistics.median(off_s) * 1000, "ms"),
                 (f"{label}, broadcast off, p99", _p99(off_s) * 1000, "ms"),
                 (f"{label}, on, 20 polling, median", statistics.median(on_s) * 1000, "ms"),
                 (f"{label}, on, 20 polling, p99", _p99(on_s) * 1000, "ms")]
    return rows + [("events + commits timed each way", float(len(off) + len(off_commit)), "")]


def bench_hall(quick: bool = False) -> list[Row]:
    from .hall import HallServer

    boards = 20 if quick else 100
    moves = 20 if quick else 60
    samples = []
    with tempfile.TemporaryDirectory() as folder:
        fleet = subprocess.Popen([sys.executable, "-m", "companion.broadcast.fleet", "--boards", str(boards),
                                  "--dir", folder], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        hall = None
        try:
            ports = json.loads(fleet.stdout.readline().split(" ", 1)[1])
            hall = HallServer("127.0.0.1", 0, boards=[f"127.0.0.1:{p}" for p in ports], discover=False)
            hall.start()
            _wait(lambda: sum(1 for e in hall.hall.boards.values() if e.copy is not None) == boards, 120)
            import http.client

            conn = http.client.HTTPConnection("127.0.0.1", hall.port, timeout=10)
            played = {}
            for i in range(moves):
                board = 1 + (i * 37) % boards
                ply = played.get(board, 0)
                uci = GAME[ply]
                played[board] = ply + 1
                key = f"http://127.0.0.1:{ports[board - 1]}"
                t = time.perf_counter()
                fleet.stdin.write(f"move {board} {uci}\n")
                fleet.stdin.flush()
                fleet.stdout.readline()
                want = ply + 1
                while True:
                    entry = hall.hall.boards[key]
                    if entry.copy is not None and entry.copy.moves == want:
                        conn.request("GET", "/round.pgn")
                        conn.getresponse().read()
                        break
                    time.sleep(0.001)
                samples.append(time.perf_counter() - t)
            conn.close()
        finally:
            if hall is not None:
                hall.stop()
            fleet.stdin.write("quit\n")
            fleet.stdin.flush()
            fleet.wait(60)
    return [
        (f"hall {boards} boards: move to /round.pgn, median", statistics.median(samples) * 1000, "ms"),
        (f"hall {boards} boards: move to /round.pgn, p99", _p99(samples) * 1000, "ms"),
    ]


def _wait(done, seconds: float) -> None:
    end = time.monotonic() + seconds
    while not done():
        if time.monotonic() > end:
            raise RuntimeError(f"the hall did not see every board within {seconds:.0f} s")
        time.sleep(0.05)


def bench_broadcast(quick: bool = False) -> list[Row]:
    return bench_led_frames(quick) + bench_hall(quick)
