"""The app's flow on an RP2040 board over a real serial line (the firmware simulator on a
pseudo-terminal), as `companion --serial PATH` runs it: connection, a move made on the
board reaches the game, the app's lights reach the board's LEDs. Real I/O: bounded waits."""

import contextlib
import time

from companion.app import bootstrap
from companion.board.firmware_sim import FirmwareSim
from companion.journal import JournalStore
from companion.session import Seat

CHESS = [sq for sq in range(64) if sq < 16 or sq >= 48]


def pump_until(flow, condition, seconds=20.0):
    """Pump as the app's loop does until ``condition`` holds (at most ``seconds``: a busy
    machine only makes it come later)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        flow.pump(bootstrap.monotonic_ms())
        if condition():
            return True
        time.sleep(0.01)
    return False


@contextlib.contextmanager
def serial_app(tmp_path):
    """The simulated RP2040 (a chess set-up on it) and the app's flow on it, connected."""
    with FirmwareSim(8, 8, occupied=CHESS) as sim:
        link = bootstrap.open_board(serial=sim.path)
        flow = bootstrap.build_flow(link, JournalStore(tmp_path), make_tracker=bootstrap.default_tracker())
        flow.start()
        try:
            assert pump_until(flow, lambda: flow.board.connected and len(flow.board.sensed) == 32)
            yield sim, flow
        finally:
            flow.stop()


def test_a_move_on_the_serial_board_is_played_and_the_leds_answer(tmp_path):
    with serial_app(tmp_path) as (sim, flow):
        flow.new_game("chess", (Seat("White"), Seat("Black")))
        assert pump_until(flow, lambda: flow.display.screen == "game"), flow.board.guidance  # the pieces stand
        sim.release(12)  # e2 lifted: its moves light up on the board's LEDs
        assert pump_until(flow, lambda: any(sim.leds()[sq] != (0, 0, 0) for sq in (20, 28)))
        sim.press(28)  # ... and put down on e4
        assert pump_until(flow, lambda: flow.game.session.moves and flow.game.session.moves[-1].san == "e4")


def test_a_board_unplugged_in_play_is_on_screen_at_once_and_found_again_by_itself(tmp_path):
    """Pulled out: every screen's strip says so (the start screen's title line too); plugged
    back in, the link comes back by itself and the strip goes."""
    from companion.app.bootstrap import build_presenters

    with serial_app(tmp_path) as (sim, flow):
        assert flow.display.banner == ""
        sim.unplug()  # a read on a gone device fails at once: no heartbeat to wait for
        assert pump_until(flow, lambda: not flow.board.connected)
        assert flow.display.banner == "The board is not connected. Check its cable."
        assert build_presenters(flow).start.view().problem == flow.display.banner
        sim.replug()
        assert pump_until(flow, lambda: flow.board.connected)
        assert flow.display.banner == "" and len(flow.board.sensed) == 32
