"""Review: the serial link and the tracker together through a disconnect (issue 6: "the host
shows 'board disconnected' and resyncs on reconnect, then the tracker guides the players to fix
anything that changed meanwhile"). Real firmware code on a pty, real pyserial; bounded waits."""

from __future__ import annotations

import dataclasses
import queue
import time

from companion.board.firmware_sim import FirmwareSim
from companion.board.ports import BoardConnected, BoardDisconnected, OccupancySnapshot, SquareChanged
from companion.board.serial_board import SerialBoard
from companion.board.tracker import MoveDetected, Tracker
from companion.games import make_rules

CHESS = [sq for sq in range(64) if sq < 16 or sq >= 48]
#: Quick heartbeats and retries; the silence timeout stays long, so that a test process starved of
#: the processor for a moment (a busy machine, a parallel run) is not a board gone quiet.
FAST = {"heartbeat_s": 0.1, "timeout_s": 5.0, "retry_s": 0.05}
#: Seconds a wait for an event may take before the test fails (it ends as soon as the event comes).
WAIT_S = 20.0


class Session:
    """The app's queue drainer in miniature: stamps events with its own clock, feeds the
    tracker, plays detected moves."""

    def __init__(self, sim):
        self.rules = make_rules("chess")
        self.pos = self.rules.start_position()
        self.tracker = Tracker(self.rules, self.pos, sensed=frozenset(CHESS))
        self.events: queue.Queue = queue.Queue()
        self.board = SerialBoard(sim.path, 8, 8, **FAST)
        self.t = 0
        self.moves: list[str] = []
        self.kinds: list[str] = []

    def drain_until(self, kind, timeout=WAIT_S):
        deadline = time.monotonic() + timeout
        while True:
            e = self.events.get(timeout=max(0.01, deadline - time.monotonic()))
            self.kinds.append(type(e).__name__)
            self.t += 40
            e = dataclasses.replace(e, t_ms=self.t)  # every event, connection events too
            self.handle(self.tracker.feed(e))
            if isinstance(e, kind):
                return e

    def settle(self):
        self.t += 2000
        self.handle(self.tracker.tick(self.t))

    def handle(self, outputs):
        for o in outputs:
            if isinstance(o, MoveDetected):
                self.moves.append(self.rules.move_text(self.pos, o.move))
                self.rules.play(self.pos, o.move)
                self.handle(self.tracker.position_changed())


def test_a_move_finished_while_the_cable_was_out_is_read_from_the_resync_snapshot():
    g = make_rules("chess").geometry
    e2, e4 = g.parse_square("e2"), g.parse_square("e4")
    with FirmwareSim(8, 8, occupied=CHESS) as sim:
        s = Session(sim)
        s.board.start(s.events.put)
        try:
            s.drain_until(BoardConnected)
            sim.release(e2)
            s.drain_until(SquareChanged)
            sim.unplug()
            s.drain_until(BoardDisconnected)
            sim.press(e4)  # the player finishes the move meanwhile
            sim.replug()
            s.drain_until(BoardConnected)
            s.settle()
            assert s.moves == ["e2e4"] and s.tracker.in_sync
        finally:
            s.board.stop()


def test_a_piece_put_on_an_impossible_square_while_disconnected_is_flagged_after_the_resync():
    g = make_rules("chess").geometry
    d5 = g.parse_square("d5")
    with FirmwareSim(8, 8, occupied=CHESS) as sim:
        s = Session(sim)
        s.board.start(s.events.put)
        try:
            s.drain_until(BoardConnected)
            sim.unplug()
            s.drain_until(BoardDisconnected)
            sim.press(d5)  # a spare piece lands on d5 while the cable is out
            sim.replug()
            s.drain_until(BoardConnected)
            s.settle()
            assert s.moves == [] and not s.tracker.in_sync
            assert s.tracker.guidance.remove == (d5,)
            sim.release(d5)
            s.drain_until(SquareChanged)
            s.settle()
            assert s.tracker.in_sync
        finally:
            s.board.stop()
