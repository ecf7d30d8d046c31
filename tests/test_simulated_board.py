"""The simulated board: the ports in memory, reporting like reed switches."""

from __future__ import annotations

import pytest

from companion.board.palette import Meaning, render
from companion.board.ports import LedPort, OccupancySnapshot, SensorPort, SquareChanged, blank_frame
from companion.board.simulated import SimulatedBoard

START = frozenset(range(16)) | frozenset(range(48, 64))


@pytest.fixture
def board():
    b = SimulatedBoard(8, 8, START)
    b.events = []
    b.start(b.events.append)
    return b


def test_start_sends_a_snapshot_first(board):
    assert board.events == [OccupancySnapshot(START, 0)]


def test_lift_and_place_report_like_a_reed_switch(board):
    assert board.lift(12, 100) is True
    assert board.place(28, 450) is True
    assert board.events[1:] == [SquareChanged(12, False, 100), SquareChanged(28, True, 450)]
    assert board.occupied == START - {12} | {28}


def test_no_event_when_the_switch_does_not_change(board):
    assert board.place(0, 10) is False  # a piece on an occupied square: the switch stays closed
    assert board.lift(30, 20) is False  # nothing to lift
    assert board.events == [OccupancySnapshot(START, 0)]


def test_press_closes_the_switch_like_place(board):
    assert board.press(30, 5) is True
    assert board.events[-1] == SquareChanged(30, True, 5)


def test_toggle_flips_a_square_for_the_on_screen_board(board):
    assert board.toggle(12, 100) is False
    assert board.toggle(12, 200) is True
    assert board.events[1:] == [SquareChanged(12, False, 100), SquareChanged(12, True, 200)]


def test_set_occupancy_sends_one_snapshot(board):
    board.set_occupancy({1, 2, 3}, t_ms=900)
    assert board.events[-1] == OccupancySnapshot(frozenset({1, 2, 3}), 900)
    assert board.occupied == {1, 2, 3}


def test_request_snapshot_reports_the_current_board_at_the_last_time(board):
    board.lift(8, 300)
    board.request_snapshot()
    assert board.events[-1] == OccupancySnapshot(START - {8}, 300)


def test_changes_before_start_show_up_in_the_first_snapshot():
    b = SimulatedBoard(8, 8)
    b.place(5, 10)
    got = []
    b.start(got.append)
    assert got == [OccupancySnapshot(frozenset({5}), 10)]


def test_after_stop_no_events_are_sent_and_the_lights_go_out(board):
    board.show(render({3: Meaning.MOVE}, 64))
    board.stop()
    board.lift(0, 50)
    assert board.events == [OccupancySnapshot(START, 0)]
    assert board.last_frame == blank_frame(64)


def test_last_frame_keeps_the_design_colours_for_the_screen(board):
    frame = render({12: Meaning.LIFTED, 20: Meaning.MOVE, 28: Meaning.CAPTURE}, 64)
    board.show(frame)
    board.show(frame)
    assert board.last_frame == frame
    assert board.frames_shown == 1


@pytest.mark.parametrize("square", [-1, 64, "e2", True])
def test_squares_off_the_board_are_refused(board, square):
    with pytest.raises(ValueError, match=r"off the 8x8 board \(0..63\)"):
        board.toggle(square, 10)


def test_a_frame_of_the_wrong_size_is_refused(board):
    with pytest.raises(ValueError, match="63 squares, the 8x8 board has 64"):
        board.show(blank_frame(63))


def test_time_may_not_go_backwards(board):
    board.lift(0, 100)
    with pytest.raises(ValueError, match="time went backwards: 50 ms after 100 ms"):
        board.place(0, 50)


def test_it_is_both_ports():
    b = SimulatedBoard(20, 20)
    assert isinstance(b, SensorPort) and isinstance(b, LedPort)
    assert (b.width, b.height, len(b.last_frame)) == (20, 20, 400)
