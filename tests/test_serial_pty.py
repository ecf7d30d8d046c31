"""End to end over real pseudo-terminals: SerialBoard (pyserial) <-> the real firmware in the
simulator. Every wait is for an event, bounded (WAIT_S): a passing test never waits longer
than its events take, a failing one fails in seconds, never hangs, and a machine busy with
other work only makes the events come later."""

import os
import threading
import time

import pytest
import serial

from companion.board import protocol as p
from companion.board.firmware_sim import FirmwareSim
from companion.board.ports import (
    BoardConnected,
    BoardDisconnected,
    LedPort,
    OccupancySnapshot,
    SensorPort,
    SquareChanged,
)
from companion.board.serial_board import SerialBoard
from companion.errors import ProtocolError

E2, E4, E7, E5, G1, F3 = 12, 28, 52, 36, 6, 21
CHESS = [sq for sq in range(64) if sq < 16 or sq >= 48]
#: Quick heartbeats and retries. The link's silence timeout stays long: a test process starved
#: of the processor for half a second (a busy machine, a parallel run) must not read as a board
#: gone quiet; only the tests of that timeout itself use SHORT_TIMEOUT.
FAST = {"heartbeat_s": 0.1, "timeout_s": 5.0, "retry_s": 0.05}
SHORT_TIMEOUT = dict(FAST, timeout_s=0.5)
#: Seconds any wait for an event may take before the test fails.
WAIT_S = 20.0


class Log:
    """The app's sink: records events from the reader thread; waits for them (at most WAIT_S)."""

    def __init__(self):
        self.events = []
        self.view = set()  # the occupancy a tracker would believe, built from the events
        self.cond = threading.Condition()

    def __call__(self, event):
        with self.cond:
            self.events.append(event)
            if isinstance(event, OccupancySnapshot):
                self.view = set(event.occupied)
            elif isinstance(event, SquareChanged):
                (self.view.add if event.occupied else self.view.discard)(event.square)
            self.cond.notify_all()

    def wait_view(self, expected, timeout=WAIT_S):
        deadline = time.monotonic() + timeout
        with self.cond:
            while self.view != set(expected):
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"host view {sorted(self.view)} != board {sorted(expected)}")
                self.cond.wait(left)

    def wait(self, predicate, timeout=WAIT_S, what="event"):
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                for i, event in enumerate(self.events):
                    if predicate(event):
                        del self.events[: i + 1]
                        return event
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"no {what} within {timeout}s; got {self.events}")
                self.cond.wait(left)

    def next_of(self, kind, timeout=WAIT_S):
        return self.wait(lambda e: isinstance(e, kind), timeout, kind.__name__)

    def take(self, count, timeout=WAIT_S):
        deadline = time.monotonic() + timeout
        with self.cond:
            while len(self.events) < count:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"{count} events expected within {timeout}s; got {self.events}")
                self.cond.wait(left)
            taken = self.events[:count]
            del self.events[:count]
            return taken


@pytest.fixture
def sim():
    with FirmwareSim(8, 8, occupied=CHESS) as s:
        yield s


@pytest.fixture
def board(sim):
    b = SerialBoard(sim.path, 8, 8, **FAST)
    yield b
    b.stop()


def connected(board):
    log = Log()
    board.start(log)
    first = log.next_of(OccupancySnapshot)
    log.next_of(BoardConnected)
    return log, first


def squares_changed(log, count):
    events = log.take(count)
    assert all(isinstance(e, SquareChanged) for e in events), events
    return [(e.square, e.occupied) for e in events]


def test_the_serial_board_implements_both_ports(board):
    assert isinstance(board, SensorPort) and isinstance(board, LedPort)


def test_moves_on_the_board_arrive_as_events_in_the_order_they_happened(sim, board):
    log, first = connected(board)
    assert first.occupied == frozenset(CHESS)
    for a, b in ((E2, E4), (E7, E5), (G1, F3)):
        sim.release(a)
        sim.press(b)
        assert squares_changed(log, 2) == [(a, False), (b, True)]


def test_the_first_event_after_start_is_the_occupancy_snapshot(sim, board):
    log = Log()
    board.start(log)
    log.next_of(BoardConnected)
    assert board.is_connected and board.info["simulated"] is True


def test_a_frame_shown_by_the_host_lights_the_simulated_squares(sim, board):
    connected(board)
    frame = [(0, 0, 0)] * 64
    frame[E2], frame[E4] = (0, 255, 0), (255, 255, 0)
    board.show(tuple(frame))
    assert board.flush_leds(2.0)
    assert sim.leds() == frame  # the simulator's cap is 255: shown as sent
    frame[E2] = (0, 0, 0)
    board.show(tuple(frame))
    assert board.flush_leds(2.0)
    assert sim.leds() == frame
    assert board.stats()["led_delta"] == 1


def test_unplug_mid_move_then_replug_repairs_the_position_from_the_snapshot(sim, board):
    log, _ = connected(board)
    frame = tuple((9, 9, 9) if sq == E4 else (0, 0, 0) for sq in range(64))
    board.show(frame)
    assert board.flush_leds(2.0)
    sim.release(E2)
    assert squares_changed(log, 1) == [(E2, False)]
    sim.unplug()
    assert log.next_of(BoardDisconnected).reason == "board disconnected"
    sim.press(E4)  # the player finishes the move while the cable is out
    sim.replug()
    snap = log.next_of(OccupancySnapshot)
    assert snap.occupied == (frozenset(CHESS) - {E2}) | {E4}
    assert log.next_of(BoardConnected).info["restarted"] is True
    assert board.flush_leds(2.0) and sim.leds()[E4] == (9, 9, 9)  # the lights come back
    sim.release(E7)
    sim.press(E5)
    assert squares_changed(log, 2) == [(E7, False), (E5, True)]
    assert log.view == sim.occupied()


def test_a_firmware_reset_mid_game_loses_nothing(sim, board):
    log, _ = connected(board)
    board.show(tuple((5, 0, 0) if sq == E2 else (0, 0, 0) for sq in range(64)))
    assert board.flush_leds(2.0)
    sim.release(E2)
    sim.press(E4)
    squares_changed(log, 2)
    sim.restart(p.RESET_WATCHDOG)
    log.next_of(BoardDisconnected)
    snap = log.next_of(OccupancySnapshot)
    assert snap.occupied == (frozenset(CHESS) - {E2}) | {E4}
    info = log.next_of(BoardConnected).info
    assert info["restarted"] and info["reset_reason"] == p.RESET_WATCHDOG
    assert board.flush_leds(2.0) and sim.leds()[E2] == (5, 0, 0)
    assert log.view == sim.occupied()


def test_a_soft_reload_without_reenumeration_is_noticed_and_resynced(sim, board):
    log, _ = connected(board)
    sim.restart(p.RESET_SOFTWARE, reenumerate=False)
    sim.press(40)
    assert log.next_of(BoardDisconnected).reason.startswith("board restarted")
    assert 40 in log.next_of(OccupancySnapshot).occupied
    log.next_of(BoardConnected)


@pytest.mark.slow
def test_a_hung_firmware_is_reset_by_its_watchdog_and_the_host_recovers():
    with FirmwareSim(8, 8, occupied=CHESS, config={"WATCHDOG_S": 1}) as sim:
        board = SerialBoard(sim.path, 8, 8, **SHORT_TIMEOUT)
        try:
            log, _ = connected(board)
            sim.hang()
            sim.release(E2)
            log.next_of(BoardDisconnected)
            snap = log.next_of(OccupancySnapshot)
            assert E2 not in snap.occupied
            assert log.next_of(BoardConnected).info["reset_reason"] == p.RESET_WATCHDOG
        finally:
            board.stop()


def test_a_burst_of_line_noise_between_frames_loses_no_event(sim, board):
    log, _ = connected(board)
    sim.release(E2)
    assert squares_changed(log, 1) == [(E2, False)]
    sim.inject(bytes((i * 73 + 5) % 256 for i in range(3000)) + b"\x00")
    sim.press(E4)
    assert squares_changed(log, 1) == [(E4, True)]
    assert board.is_connected
    assert board.stats()["rx_crc_errors"] + board.stats()["rx_cobs_errors"] >= 1


def test_noise_that_swallows_an_event_is_repaired_within_a_heartbeat(sim, board):
    log, _ = connected(board)
    sim.inject(b"\x05\x11\x22")  # a half frame: the next real frame is lost with it
    sim.press(40)
    log.wait_view(sim.occupied())
    # repaired by the heartbeat's sequence number, not by a reconnection
    assert board.is_connected and not [e for e in log.events if isinstance(e, BoardDisconnected)]
    assert board.stats()["sequence_gaps"] + board.stats()["snapshots_repaired"] >= 1


def test_garbage_to_the_board_is_counted_and_the_board_keeps_serving(sim):
    port = serial.Serial(sim.path, timeout=0.05)
    try:
        port.write(bytes(range(256)) * 4 + b"\x00" + p.encode(p.Hello(p.PROTOCOL_VERSION, 500, 3000)))
        decoder = p.Decoder()
        got = []
        deadline = time.monotonic() + WAIT_S
        while len(got) < 2 and time.monotonic() < deadline:
            got += decoder.feed(port.read(512))
        assert [type(m) for m in got[:2]] == [p.Welcome, p.Snapshot]
        port.write(p.encode(p.StatsRequest()))
        stats = None
        while stats is None and time.monotonic() < deadline:
            stats = next((m for m in decoder.feed(port.read(512)) if isinstance(m, p.Stats)), None)
        counters = stats.as_dict()
        assert counters["rx_crc_errors"] + counters["rx_cobs_errors"] + counters["rx_oversize"] >= 1
        assert counters["rx_frames"] == 2
    finally:
        port.close()


def test_a_port_that_echoes_never_counts_as_a_board():
    board = SerialBoard("loop://", 8, 8, **SHORT_TIMEOUT)  # the handshake's timeout is the test
    log = Log()
    board.start(log)
    try:
        event = log.next_of(BoardDisconnected)
        assert "no answer from the board at loop://" in event.reason
        assert board.stats()["unexpected_messages"] >= 1 and not board.is_connected
    finally:
        board.stop()


def test_a_board_that_is_not_there_yet_is_reported_once_then_found(tmp_path):
    path = str(tmp_path / "board")
    tries = []
    retried = threading.Event()

    def open_port(port, timeout, write_timeout):
        """pyserial's open, counted: the board is looked for again and again."""
        tries.append(port)
        if len(tries) >= 4:
            retried.set()
        return serial.serial_for_url(port, timeout=timeout, write_timeout=write_timeout)

    board = SerialBoard(path, 8, 8, open_port=open_port, **FAST)
    log = Log()
    board.start(log)
    try:
        assert log.next_of(BoardDisconnected).reason.startswith(f"board not found at {path}")
        assert retried.wait(WAIT_S)  # three more tries after the first
        assert not [e for e in log.events if isinstance(e, BoardDisconnected)]  # said once
        with FirmwareSim(8, 8, occupied=[1], link_dir=str(tmp_path)):
            assert log.next_of(OccupancySnapshot).occupied == frozenset({1})
    finally:
        board.stop()


def test_auto_finds_the_port_on_each_connection(sim):
    board = SerialBoard("auto", 8, 8, find_port=lambda: sim.path, **FAST)
    try:
        log, _ = connected(board)
        assert board.info["port"] == sim.path
    finally:
        board.stop()


def test_stop_returns_promptly_and_releases_the_port(sim):
    board = SerialBoard(sim.path, 8, 8, **FAST)
    connected(board)
    reader = board._thread
    board.stop()  # waits for the reader thread for up to 3 s, no longer
    assert not reader.is_alive()  # it was woken and ended: not left reading
    assert board._port is None


@pytest.mark.parametrize(
    "frame, problem",
    [
        (((0, 0, 0),) * 63, "63 squares, the 8x8 board has 64"),
        (((0, 0, 0),) * 63 + ((256, 0, 0),), r"square 63: \(256, 0, 0\)"),
        (((0, 0, 0),) * 63 + ((1, 2),), r"square 63: \(1, 2\)"),
    ],
)
def test_show_rejects_a_malformed_frame_in_the_callers_thread(frame, problem):
    board = SerialBoard("loop://", 8, 8)
    with pytest.raises(ProtocolError, match=problem):
        board.show(frame)


def test_starting_twice_is_an_error(sim, board):
    board.start(Log())
    with pytest.raises(RuntimeError, match="twice"):
        board.start(Log())


def test_the_simulator_removes_its_device_path_when_stopped():
    sim = FirmwareSim(8, 8)
    path = sim.start()
    assert os.path.islink(path)
    sim.stop()
    assert not os.path.exists(path)


def test_a_serial_profile_opens_the_real_serial_board(sim):
    """The profile path (hardware.open_board) builds the real SerialBoard, baud included."""
    from companion.board.hardware import open_board
    from companion.board.profiles import parse_profile

    text = f"""
name = "sim"
link = "serial"
[board]
width = 8
height = 8
[serial]
port = "{sim.path}"
baud = 230400
[leds]
count = 64
brightness_cap = 32
supply_amps = 4
"""
    sensor, leds = open_board(parse_profile(text, "sim.toml"))
    log = Log()
    sensor.start(log)
    try:
        assert log.next_of(OccupancySnapshot).occupied == frozenset(CHESS)
    finally:
        sensor.stop()
        leds.stop()
