"""The GPIO reed-switch scanners against gpiozero's MockFactory.

A small electrical model stands in for the board: column pins whose level is computed from the
row pins and the closed switches (with or without the diodes), and a 74HC165 chain that latches
on its load pin and shifts on its clock pin.
"""

from __future__ import annotations

import queue
import subprocess
import sys
from pathlib import Path

import pytest
from gpiozero import Device, DigitalOutputDevice
from gpiozero.pins.mock import MockFactory, MockPin

from companion.board.gpio_matrix import Debouncer, GpioMatrix, ShiftRegisterChain
from companion.board.ports import BoardDisconnected, OccupancySnapshot, SensorPort, SquareChanged
from companion.errors import HardwareError

#: Seconds a wait for the scan thread's next event may take (it ends when the event comes).
WAIT_S = 20.0

ROWS = [5, 6, 13, 19, 26, 16, 20, 21]  # rank 1 .. rank 8
COLUMNS = [4, 17, 27, 22, 23, 24, 25, 12]  # file a .. file h


def sq(name: str, width: int = 8) -> int:
    return (int(name[1:]) - 1) * width + "abcdefghijklmnopqrst".index(name[0])


START = frozenset(range(16)) | frozenset(range(48, 64))


# --- a model of the switch matrix --------------------------------------------------------------


class MatrixColumnPin(MockPin):
    """A column input whose level is whatever the switch matrix makes it."""

    def __init__(self, factory, info, model=None, file=0):
        super().__init__(factory, info)
        self.model = model
        self.file = file

    def _get_state(self):
        if self.model is None:
            return super()._get_state()
        return self.model.column_level(self.file)


class SwitchMatrixModel:
    """Reed switches (closed where a piece stands) between column and row lines, pull-ups on
    the columns. With ``diodes`` each switch conducts only column -> row; without them current
    finds paths through other closed switches and squares appear that are empty (ghosts)."""

    def __init__(self, factory, rows, columns, *, diodes=True):
        self.factory = factory
        self.rows = [factory.pin(p) for p in rows]
        self.columns = [factory.pin(p, pin_class=MatrixColumnPin, model=self, file=f) for f, p in enumerate(columns)]
        self.width, self.height = len(columns), len(rows)
        self.closed: set[int] = set()
        self.diodes = diodes
        self.rows_low_at_read: list[int] = []

    def set(self, squares):
        self.closed = set(squares)

    def _row_driven_low(self, rank):
        pin = self.rows[rank]
        return pin.function == "output" and not pin.state

    def column_level(self, file):
        low_rows = [r for r in range(self.height) if self._row_driven_low(r)]
        self.rows_low_at_read.append(len(low_rows))
        if self.diodes:
            pulled_low = any(r * self.width + file in self.closed for r in low_rows)
        else:
            pulled_low = self._connected_to_low_row(file, set(low_rows))
        return not pulled_low

    def _connected_to_low_row(self, file, low_rows):
        seen_cols, seen_rows, todo = {file}, set(), [("c", file)]
        while todo:
            kind, i = todo.pop()
            if kind == "c":
                for r in range(self.height):
                    if r * self.width + i in self.closed and r not in seen_rows:
                        seen_rows.add(r)
                        todo.append(("r", r))
            else:
                for f in range(self.width):
                    if i * self.width + f in self.closed and f not in seen_cols:
                        seen_cols.add(f)
                        todo.append(("c", f))
        return bool(seen_rows & low_rows)


@pytest.fixture
def board(mock_factory):
    return SwitchMatrixModel(mock_factory, ROWS, COLUMNS)


def make_matrix(factory, **kw):
    kw.setdefault("debounce_scans", 3)
    return GpioMatrix(8, 8, ROWS, COLUMNS, pin_factory=factory, **kw)


def scans(matrix, board, script, t0=0, step=10):
    """Run one scan per entry of ``script`` (a set of closed squares); collect the events."""
    events = []
    for i, closed in enumerate(script):
        board.set(closed)
        events += matrix.scan_once(t0 + i * step)
    return events


# --- first scan, many pieces ------------------------------------------------------------------


def test_the_first_scan_is_a_snapshot_of_all_32_pieces_without_ghosts(board, mock_factory):
    board.set(START)
    matrix = make_matrix(mock_factory)
    assert matrix.scan_once(0) == [OccupancySnapshot(START, 0)]


def test_without_diodes_the_model_shows_ghosts(mock_factory):
    # The model is a real test of the wiring: three closed corners of a rectangle make the
    # fourth corner read as occupied when there are no diodes.
    board = SwitchMatrixModel(mock_factory, ROWS, COLUMNS, diodes=False)
    board.set({sq("a1"), sq("b1"), sq("b2")})
    (snapshot,) = make_matrix(mock_factory).scan_once(0)
    assert sq("a2") in snapshot.occupied


def test_every_square_closed_at_once_reads_as_64(board, mock_factory):
    board.set(range(64))
    assert make_matrix(mock_factory).scan_once(0)[0].occupied == frozenset(range(64))


def test_rows_are_driven_low_one_at_a_time_and_left_high(board, mock_factory):
    matrix = make_matrix(mock_factory)
    board.set(START)
    matrix.scan_once(0)
    assert board.rows_low_at_read and set(board.rows_low_at_read) == {1}
    assert all(pin.state for pin in board.rows)  # no row left selected between scans


# --- debounce ---------------------------------------------------------------------------------


def test_a_change_is_reported_after_n_equal_scans_stamped_with_the_confirming_scan(board, mock_factory):
    matrix = make_matrix(mock_factory, debounce_scans=3)
    board.set(START)
    matrix.scan_once(0)
    lifted = START - {sq("e2")}
    assert scans(matrix, board, [lifted, lifted], t0=10) == []
    assert scans(matrix, board, [lifted], t0=30) == [SquareChanged(sq("e2"), False, 30)]
    assert scans(matrix, board, [lifted] * 5, t0=40) == []  # reported once


def test_contact_bounce_gives_one_event(board, mock_factory):
    matrix = make_matrix(mock_factory, debounce_scans=3)
    board.set(START - {sq("e2")})
    matrix.scan_once(0)
    placed = START - {sq("e2")} | {sq("e4")}
    before = START - {sq("e2")}
    # the switch flaps for a few scans as the piece lands, then stays closed
    events = scans(matrix, board, [placed, before, placed, before, placed, placed, placed, placed], t0=10)
    assert events == [SquareChanged(sq("e4"), True, 70)]


def test_a_slid_piece_brushing_neighbours_reports_only_where_it_left_and_landed(board, mock_factory):
    matrix = make_matrix(mock_factory, debounce_scans=3)
    board.set(START)
    matrix.scan_once(0)
    # a pawn slides e2 -> e4: its magnet closes e3 for two scans and d3 for one on the way
    others = START - {sq("e2")}
    path = [
        START | {sq("e3")},  # still on e2, already closing e3
        others | {sq("e3"), sq("d3")},
        others | {sq("e4")},
        others | {sq("e4")},
        others | {sq("e4")},
    ]
    events = scans(matrix, board, path, t0=10)
    assert events == [SquareChanged(sq("e2"), False, 40), SquareChanged(sq("e4"), True, 50)]
    assert matrix.occupied == others | {sq("e4")}


def test_debounce_of_one_scan_reports_at_once(board, mock_factory):
    matrix = make_matrix(mock_factory, debounce_scans=1)
    board.set(set())
    matrix.scan_once(0)
    assert scans(matrix, board, [{7}], t0=10) == [SquareChanged(7, True, 10)]


def test_events_come_in_square_order_within_a_scan(board, mock_factory):
    matrix = make_matrix(mock_factory, debounce_scans=2)
    developed = START - {sq("f1"), sq("g1")}
    board.set(developed)
    matrix.scan_once(0)
    castled = developed - {sq("e1"), sq("h1")} | {sq("f1"), sq("g1")}
    events = scans(matrix, board, [castled, castled], t0=10)
    assert [(e.square, e.occupied) for e in events] == [
        (sq("e1"), False), (sq("f1"), True), (sq("g1"), True), (sq("h1"), False)
    ]
    assert {e.t_ms for e in events} == {20}


def test_debouncer_rejects_wrong_scan_sizes_and_zero_scans():
    with pytest.raises(ValueError, match="at least 1 scan"):
        Debouncer(64, 0)
    d = Debouncer(4, 2)
    with pytest.raises(ValueError, match="gave 3 squares, expected 4"):
        d.prime([False] * 3)


# --- snapshots --------------------------------------------------------------------------------


def test_request_snapshot_gives_the_debounced_state_after_the_next_scan(board, mock_factory):
    matrix = make_matrix(mock_factory, debounce_scans=3)
    board.set(START)
    matrix.scan_once(0)
    matrix.request_snapshot()
    lifted = START - {sq("d1")}
    # the snapshot is the debounced picture: d1 is not yet accepted as empty
    assert scans(matrix, board, [lifted], t0=10) == [OccupancySnapshot(START, 10)]
    assert scans(matrix, board, [lifted], t0=20) == []


# --- pins, errors -----------------------------------------------------------------------------


def test_construction_touches_no_pin(mock_factory):
    make_matrix(mock_factory)
    assert mock_factory.pins == {}


def test_importing_the_adapters_creates_no_pin_factory():
    code = (
        "import companion.board.gpio_matrix, companion.board.neopixel_leds, companion.board.hardware\n"
        "from gpiozero import Device\n"
        "assert Device.pin_factory is None, Device.pin_factory\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=Path(__file__).parents[1]
    )
    assert result.returncode == 0, result.stderr


def test_a_pin_in_use_is_a_hardware_error_naming_the_pin_and_its_role(mock_factory):
    busy = DigitalOutputDevice(17, pin_factory=mock_factory)  # noqa: F841 (held open)
    matrix = make_matrix(mock_factory)
    with pytest.raises(HardwareError, match=r"GPIO pin 17 as matrix column 2"):
        matrix.scan_once(0)
    # everything opened before the failure was released again
    DigitalOutputDevice(ROWS[0], pin_factory=mock_factory).close()


def test_an_unknown_pin_name_is_a_hardware_error(mock_factory):
    matrix = GpioMatrix(8, 8, ROWS[:7] + ["GPIO99"], COLUMNS, pin_factory=mock_factory)
    with pytest.raises(HardwareError, match="GPIO99 as matrix row 8"):
        matrix.scan_once(0)


def test_pin_counts_must_match_the_board(mock_factory):
    with pytest.raises(ValueError, match="7 row pins given for a board 8 ranks high"):
        GpioMatrix(8, 8, ROWS[:7], COLUMNS, pin_factory=mock_factory)
    with pytest.raises(ValueError, match="9 column pins given for a board 8 files wide"):
        GpioMatrix(8, 8, ROWS, COLUMNS + [2], pin_factory=mock_factory)


def test_the_matrix_is_a_sensor_port(mock_factory):
    assert isinstance(make_matrix(mock_factory), SensorPort)


# --- the thread -------------------------------------------------------------------------------


class Clock:
    def __init__(self):
        self.t = 0

    def __call__(self):
        self.t += 1
        return self.t


def test_the_scan_thread_delivers_a_snapshot_then_changes_and_stop_releases_the_pins(board, mock_factory):
    board.set(START)
    matrix = make_matrix(mock_factory, scan_interval_ms=1, debounce_scans=2, clock=Clock())
    events: queue.Queue = queue.Queue()
    matrix.start(events.put)
    try:
        first = events.get(timeout=WAIT_S)
        assert isinstance(first, OccupancySnapshot) and first.occupied == START
        board.set(START - {sq("g1")})
        changed = events.get(timeout=WAIT_S)
        assert (changed.square, changed.occupied) == (sq("g1"), False)
        with pytest.raises(HardwareError, match="already running"):
            matrix.start(events.put)
    finally:
        matrix.stop()
    assert not matrix.is_running
    DigitalOutputDevice(ROWS[0], pin_factory=mock_factory).close()  # the pins are free again


def test_a_restart_begins_with_a_fresh_snapshot(board, mock_factory):
    board.set({1, 2})
    matrix = make_matrix(mock_factory, scan_interval_ms=1, clock=Clock())
    matrix.scan_once(0)
    events: queue.Queue = queue.Queue()
    matrix.start(events.put)
    try:
        assert events.get(timeout=WAIT_S).occupied == frozenset({1, 2})
    finally:
        matrix.stop()


def test_a_pin_failing_during_scans_reports_a_disconnect(board, mock_factory):
    matrix = make_matrix(mock_factory, scan_interval_ms=1, clock=Clock())
    events: queue.Queue = queue.Queue()
    matrix.start(events.put)
    try:
        assert isinstance(events.get(timeout=WAIT_S), OccupancySnapshot)
        for column in board.columns:
            column.model = None

        def broken():
            raise OSError("GPIO chip went away")

        board.columns[0]._get_state = broken
        while True:
            event = events.get(timeout=WAIT_S)
            if isinstance(event, BoardDisconnected):
                break
        assert "GPIO chip went away" in event.reason
    finally:
        matrix.stop()


def test_stop_from_inside_the_sink_does_not_deadlock(board, mock_factory):
    matrix = make_matrix(mock_factory, scan_interval_ms=1, clock=Clock())
    got: queue.Queue = queue.Queue()

    def sink(event):
        matrix.stop()
        got.put(event)

    matrix.start(sink)
    assert isinstance(got.get(timeout=WAIT_S), OccupancySnapshot)
    matrix.stop()
    assert not matrix.is_running


# --- 74HC165 chain ----------------------------------------------------------------------------


class ShiftChainModel:
    """A chain of 74HC165s: inputs low where a switch is closed; SH/LD low latches them;
    each rising clock edge shifts the next bit onto QH."""

    def __init__(self, factory, *, load, clock, data, chips):
        model = self

        class LoadPin(MockPin):
            def _change_state(self, value):
                changed = super()._change_state(value)
                if changed and not value:
                    model.latch()
                return changed

        class ClockPin(MockPin):
            def _change_state(self, value):
                changed = super()._change_state(value)
                if changed and value:
                    model.shift()
                return changed

        self.load = factory.pin(load, pin_class=LoadPin)
        self.clock = factory.pin(clock, pin_class=ClockPin)
        self.data = factory.pin(data)
        self.chips = chips
        self.closed: set[int] = set()
        self.register: list[bool] = []
        self.latches = 0

    def latch(self):
        self.latches += 1
        # bit k (k-th out) is input k; the level is low where the switch is closed
        self.register = [k not in self.closed for k in range(self.chips * 8)]
        self._present()

    def shift(self):
        if self.register:
            self.register.pop(0)
        self._present()

    def _present(self):
        level = self.register[0] if self.register else True  # SER of the last chip pulled up
        if level:
            self.data.drive_high()
        else:
            self.data.drive_low()


def test_a_74hc165_chain_reads_each_square_in_chain_order(mock_factory):
    model = ShiftChainModel(mock_factory, load=22, clock=27, data=17, chips=4)  # 5x5 -> 25 bits
    chain = ShiftRegisterChain(5, 5, load_pin=22, clock_pin=27, data_pin=17, debounce_scans=2, pin_factory=mock_factory)
    model.closed = {0, 7, 8, 24, 30}  # bit 30 is padding in the last chip, not a square
    assert chain.scan_once(0) == [OccupancySnapshot(frozenset({0, 7, 8, 24}), 0)]
    model.closed = {0, 7, 8, 12}
    assert chain.scan_once(10) == []
    assert chain.scan_once(20) == [SquareChanged(12, True, 20), SquareChanged(24, False, 20)]
    assert model.latches == 3
    assert chain.chips == 4


def test_a_74hc165_chain_with_clock_inhibit_enables_the_clock_only_while_shifting(mock_factory):
    model = ShiftChainModel(mock_factory, load=22, clock=27, data=17, chips=8)
    chain = ShiftRegisterChain(
        8, 8, load_pin=22, clock_pin=27, data_pin=17, clock_enable_pin=18, pin_factory=mock_factory
    )
    model.closed = set(START)
    assert chain.scan_once(0)[0].occupied == START
    assert mock_factory.pin(18).state  # CLK INH back high (inhibited) after the read


def test_a_74hc165_pin_in_use_is_a_hardware_error(mock_factory):
    busy = DigitalOutputDevice(27, pin_factory=mock_factory)  # noqa: F841 (held open)
    chain = ShiftRegisterChain(8, 8, load_pin=22, clock_pin=27, data_pin=17, pin_factory=mock_factory)
    with pytest.raises(HardwareError, match=r"GPIO pin 27 as 74HC165 clock"):
        chain.scan_once(0)
