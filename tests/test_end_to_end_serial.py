"""End to end: moves played on the simulated RP2040 (the real firmware code on a pty) reach the
host through pyserial, the tracker infers them, the engine plays them, and the tracker's LED
frame comes back to the board's pixels. Every wait is bounded."""

import dataclasses
import queue
import time

from companion.board.firmware_sim import FirmwareSim
from companion.board.palette import render
from companion.board.ports import BoardConnected, OccupancySnapshot, SquareChanged
from companion.board.serial_board import SerialBoard
from companion.board.tracker import LedsChanged, MoveDetected, Tracker
from companion.games import make_rules

CHESS = [sq for sq in range(64) if sq < 16 or sq >= 48]
#: Quick heartbeats and retries; the silence timeout stays long, so that a test process starved of
#: the processor for a moment (a busy machine, a parallel run) is not a board gone quiet.
FAST = {"heartbeat_s": 0.1, "timeout_s": 5.0, "retry_s": 0.05}
#: Seconds a wait for an event may take before the test fails (it ends as soon as the event comes).
WAIT_S = 20.0


def test_a_game_opening_played_on_the_simulated_rp2040_is_followed_move_by_move():
    rules = make_rules("chess")
    pos = rules.start_position()
    events: queue.Queue = queue.Queue()
    with FirmwareSim(8, 8, occupied=CHESS) as sim:
        board = SerialBoard(sim.path, 8, 8, **FAST)
        board.start(events.put)
        try:
            tracker = Tracker(rules, pos, sensed=frozenset(CHESS))
            deadline = time.monotonic() + WAIT_S
            connected = False
            while not connected:
                e = events.get(timeout=max(0.01, deadline - time.monotonic()))
                connected = isinstance(e, BoardConnected)
                if isinstance(e, OccupancySnapshot):
                    tracker.feed(dataclasses.replace(e, t_ms=0))
            detected = []
            g = rules.geometry
            # the tracker runs on its own clock (as the app's queue-drainer would stamp events)
            t = 1000
            for uci in ("e2e4", "e7e5", "g1f3", "b8c6", "f1b5"):
                frm, to = g.parse_square(uci[:2]), g.parse_square(uci[2:])
                sim.release(frm)
                sim.press(to)
                seen = 0
                while seen < 2:
                    e = events.get(timeout=WAIT_S)
                    if isinstance(e, (SquareChanged, OccupancySnapshot)):
                        seen += isinstance(e, SquareChanged)
                        t += 40
                        e = dataclasses.replace(e, t_ms=t)
                    outs = tracker.feed(e)
                    for o in outs:
                        if isinstance(o, LedsChanged):
                            board.show(render(o.meanings, 64))
                t += 2000
                outs = tracker.tick(t)
                moves = [o.move for o in outs if isinstance(o, MoveDetected)]
                assert len(moves) == 1, (uci, outs)
                detected.append(rules.move_text(pos, moves[0]))
                rules.play(pos, moves[0])
                for o in tracker.position_changed():
                    if isinstance(o, LedsChanged):
                        board.show(render(o.meanings, 64))
            assert detected == ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5"]
            assert rules.fen(pos).startswith("r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b")
            # the last move is lit on the real firmware's pixels (from and to squares)
            assert board.flush_leds(2.0)
            lit = {sq for sq, rgb in enumerate(sim.leds()) if any(rgb)}
            assert {g.parse_square("f1"), g.parse_square("b5")} <= lit
        finally:
            board.stop()
