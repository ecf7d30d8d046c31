"""Acceptance: a real board session (the simulated board, the real tracker, the app's own
wiring) with broadcast on; the moves played on the board are read back from /game.pgn with
python-chess, clocks included; a board that restarts serves its resumed game at once."""

import io
import json

import chess
import chess.pgn

from companion.app.bootstrap import attach_broadcast
from companion.board.ports import OccupancySnapshot
from companion.board.simulated import SimulatedBoard
from companion.board.tracker import Tracker
from companion.broadcast.board_server import BoardServer, FlowBroadcast
from companion.session import GameSetup, Seat
from companion.tournament.clock import format_clk
from companion.tournament.table import Table, TableSetup
from tests.broadcast_helpers import get
from tests.ui_flow_helpers import App

MOVES = ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5c6", "d7c6", "e1g1"]


def read_pgn(port: int) -> chess.pgn.Game:
    status, _, body = get(port, "/game.pgn")
    assert status == 200
    return chess.pgn.read_game(io.StringIO(body.decode()))


def test_moves_made_on_the_board_are_served_as_pgn_that_python_chess_reads_to_the_same_game(tmp_path):
    app = App(tmp_path, computer=False)
    live = attach_broadcast(app.flow, "127.0.0.1:0", name="board 7", announce=False)
    try:
        app.new_game(game="chess")
        reference = chess.Board()
        for uci in MOVES:
            frm, to = uci[:2], uci[2:]
            if uci == "e1g1":
                app.tap("e1", "g1", "h1", "f1")  # castling: the king, then the rook
            else:
                app.tap(frm, to) if reference.piece_at(chess.parse_square(to)) is None else app.tap(to, frm, to)
            reference.push_uci(uci)
            game = read_pgn(live.server.port)  # published with the move: no waiting
            assert [m.uci() for m in game.mainline_moves()] == [m.uci() for m in reference.move_stack]
        assert game.end().board().fen() == reference.fen()
        assert game.headers["White"] == "White" and game.headers["Result"] == "*"
        data = json.loads(get(live.server.port, "/game.json")[2])
        assert data["name"] == "board 7" and data["state"] == "playing" and data["turn"] == 1
        assert data["position"].split()[0] == reference.board_fen()
    finally:
        live.stop()


def test_a_board_that_restarts_serves_its_resumed_game_before_anyone_touches_it(tmp_path):
    app = App(tmp_path, computer=False)
    app.new_game(game="chess")
    app.tap("e2", "e4")
    app.tap("e7", "e5")
    app.flow.game.journal.close()  # the power goes: the journal is all that is left
    again = App(tmp_path, computer=False)
    assert again.flow.display.screen == "resume"
    live = attach_broadcast(again.flow, "127.0.0.1:0", announce=False)
    try:
        game = read_pgn(live.server.port)
        assert [m.uci() for m in game.mainline_moves()] == ["e2e4", "e7e5"]
    finally:
        live.stop()


class TableBoard:
    """A clocked game at the table wired as the app wires a game: the simulated board feeds
    the session's tracker; the clock presses itself when the tracker has seen a legal move;
    every change is announced to the flow's listeners (here: the broadcast)."""

    def __init__(self, control: str) -> None:
        self.t = 10_000
        self.listeners = []
        game = GameSetup("chess", (Seat("Anna"), Seat("Boris")), game_id="clocked")
        setup = TableSetup(time_control=control, auto_press=True, event="Club blitz", round="3", board="7")
        self.table, _ = Table.new(game, setup)
        self.session = self.table.session
        self.sim = SimulatedBoard(8, 8)
        self.sim.start(self.feed)
        s = self.session
        self.sim.set_occupancy(s.rules.expected_occupancy(s.pos), self.t)
        s.attach_tracker(Tracker(s.rules, s.pos, sensed=self.sim.occupied, t_ms=self.t))
        s.feed_board(OccupancySnapshot(self.sim.occupied, self.t))
        self.table.start_clock(self.t)

    def clock_ms(self) -> int:
        return self.t

    def feed(self, event) -> None:
        self.session.feed_board(event)
        self.changed()

    def changed(self) -> None:
        for listener in list(self.listeners):
            listener()

    def move(self, uci: str, think_ms: int) -> None:
        """The player thinks ``think_ms``, then lifts and puts down the piece."""
        g = self.session.rules.geometry
        frm, to = g.parse_square(uci[:2]), g.parse_square(uci[2:4])
        self.t += think_ms
        if to in self.sim.occupied:  # a capture: the victim comes off first
            self.sim.lift(to, self.t)
        self.sim.lift(frm, self.t)
        self.sim.place(to, self.t)
        self.t += 2_000  # long enough for every settle time (a slide may still go on)
        self.session.tick(self.t)
        self.changed()


def test_the_served_pgn_carries_each_moves_clock_and_the_json_the_clocks_as_they_run():
    board = TableBoard("180+2")
    server = BoardServer("clocked", "127.0.0.1", 0, clock_ms=board.clock_ms)
    server.start()
    live = FlowBroadcast(board, server, source=lambda flow: flow.table)
    try:
        thinking = [4_000, 7_000, 1_500, 12_000, 3_300]
        for uci, ms in zip(["e2e4", "e7e5", "g1f3", "b8c6", "f1c4"], thinking):
            board.move(uci, ms)
        game = read_pgn(server.port)
        nodes = list(game.mainline())
        assert [n.move.uci() for n in nodes] == ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4"]
        plies = board.table.plies
        assert [n.clock() for n in nodes] == [_seconds(format_clk(plies[i].left_ms)) for i in range(5)]
        # each side used its thinking time plus the 2 s the other side's move took to settle on
        # the board (the clock runs from the press); 2 s come back with each move; [%clk]
        # shows whole seconds rounded up, as the clock's face does
        assert [plies[i].spent_ms for i in range(5)] == [4_000, 9_000, 3_500, 14_000, 5_300]
        assert [n.clock() for n in nodes] == [178, 173, 177, 161, 174]
        assert game.headers["TimeControl"] == "180+2" and game.headers["Round"] == "3" and game.headers["Board"] == "7"
        before = json.loads(get(server.port, "/game.json")[2])["clock"]
        board.t += 1_500  # Black thinks: its clock runs down in what is served, with no new move
        after = json.loads(get(server.port, "/game.json")[2])["clock"]
        assert after["running"] == 1 and after["counting"]
        assert before["times_ms"][1] - after["times_ms"][1] == 1_500 and before["times_ms"][0] == after["times_ms"][0]
    finally:
        live.stop()


def _seconds(clk: str) -> float:
    h, m, s = clk.split(":")
    return int(h) * 3600 + int(m) * 60 + float(s)


def test_the_apps_own_clocked_game_is_served_with_each_moves_clock(tmp_path):
    """The app's flow with a chess clock (casual, 3 min + 2 s, the clock tapped after each
    move as players do): /game.pgn carries every move's [%clk] as the table recorded it."""
    from companion.session import Seat as S

    app = App(tmp_path, computer=False)
    live = attach_broadcast(app.flow, "127.0.0.1:0", name="board 3", announce=False)
    try:
        app.flow.new_game("chess", (S("Anna"), S("Boris")), table=TableSetup(time_control="180+2", round="4",
                                                                               board="3"))
        app.pump()
        app.setup.fill()
        app.pump()
        app.flow.clock.tap(1)  # Black's half starts White's clock
        for uci in ["e2e4", "c7c5", "g1f3"]:
            side = app.flow.game.session.turn
            app.clock.t += 3_000
            app.tap(uci[:2], uci[2:])
            app.flow.clock.tap(side)
            app.pump()
        game = read_pgn(live.server.port)
        table = app.flow.game.table
        assert [m.uci() for m in game.mainline_moves()] == ["e2e4", "c7c5", "g1f3"]
        assert [n.clock() for n in game.mainline()] == [_seconds(format_clk(table.plies[i].left_ms)) for i in range(3)]
        assert all(table.plies[i].spent_ms >= 3_000 for i in range(3))
        assert game.headers["TimeControl"] == "180+2" and game.headers["Board"] == "3"
        data = json.loads(get(live.server.port, "/game.json")[2])
        assert data["clock"]["running"] == 1 and data["round"] == "4"
    finally:
        live.stop()

