"""The chess clock as a value: every time-control kind, at its boundaries, driven by timestamps."""

from __future__ import annotations

import pytest

from companion.errors import ClockError
from companion.tournament.clock import (
    Clock, ClockPressed, FlagFell, PeriodReached, format_clk, format_emt, format_time, parse_clk,
)
from companion.tournament.timecontrol import PRESETS, Period, TimeControl, parse_time_control, preset

S = 1000
MIN = 60 * S


def clock(text: str, sides: int = 2) -> Clock:
    c, _ = Clock.new(parse_time_control(text), sides).start(0, 0)
    return c


# ----- notation ----------------------------------------------------------------------------------


@pytest.mark.parametrize("text", [
    "40/5400+30:1800+30", "40/7200:3600", "900+10", "180+2", "300", "3600B10", "3600S5", "*180",
    "40/7200:20/3600:900+30", "60+0.5", "0S5",
])
def test_time_control_notation_round_trips(text):
    control = parse_time_control(text)
    assert control.pgn() == text
    assert parse_time_control(control.pgn()) == control


def test_fide_standard_rate_reads_as_two_periods_with_the_increment_from_move_1():
    control = preset("fide-standard")
    assert control.periods == (Period(40, 90 * MIN, 30 * S), Period(None, 30 * MIN, 30 * S))
    assert control.pgn() == "40/5400+30:1800+30"


def test_no_time_control_is_a_dash():
    assert parse_time_control("-") is None


@pytest.mark.parametrize("text, words", [
    ("?", "unknown"), ("", "unknown"), ("40/", "not moves/seconds"), ("abc", "not moves/seconds"),
    ("300:40/5400", "only the last"), ("0/300", "1 move or more"), ("300+", "not moves/seconds"),
    ("99999999999", "out of range"), ("0", "needs some time"), ("*180:300", "hourglass"),
    ("1001/300", "more than 1000"),
])
def test_a_bad_time_control_is_one_clear_error(text, words):
    with pytest.raises(ClockError) as e:
        parse_time_control(text)
    assert words in str(e.value) and "\n" not in str(e.value)


def test_every_preset_is_valid_and_written_back_the_same():
    for p in PRESETS:
        assert parse_time_control(p.control.pgn()) == p.control


@pytest.mark.parametrize("text, category", [
    ("40/5400+30:1800+30", "standard"), ("3600", "standard"), ("3599", "rapid"), ("900+10", "rapid"),
    ("600", "blitz"), ("601", "rapid"), ("180+2", "blitz"), ("300+5", "blitz"), ("420+3", "blitz"), ("420+4", "rapid"),
    ("3000+10", "standard"),
])
def test_fide_categories_count_the_time_plus_60_increments(text, category):
    """FIDE Laws A.1/B.1: time plus 60 times the increment; 10 minutes or less is blitz,
    60 minutes or more standard."""
    assert parse_time_control(text).category == category


# ----- Fischer increment -------------------------------------------------------------------------


def test_fischer_increment_is_added_after_every_move_from_move_1():
    c = clock("180+2")
    c, events = c.press(0, 5 * S)
    assert events == [ClockPressed(0, 5 * S, 180 * S - 5 * S + 2 * S)]
    assert c.view(5 * S).times == (177 * S, 180 * S)
    c, _ = c.press(1, 5 * S + 1)  # black answers in 1 ms: still gets the full increment
    assert c.view(5 * S + 1).times == (177 * S, 180 * S + 2 * S - 1)


def test_fischer_increment_does_not_save_a_flag():
    c = clock("10+5")
    with_flag, events = c.press(0, 10 * S)
    assert events == [FlagFell(0, 10 * S)] and with_flag.flagged == 0
    ok, events = c.press(0, 10 * S - 1)
    assert isinstance(events[0], ClockPressed) and ok.view(10 * S).times[0] == 5 * S + 1


# ----- Bronstein ---------------------------------------------------------------------------------


@pytest.mark.parametrize("used, back", [(0, 0), (4 * S, 4 * S), (10 * S, 10 * S), (10 * S + 1, 10 * S), (60 * S, 10 * S)])
def test_bronstein_gives_back_the_time_used_at_most_the_delay(used, back):
    c = clock("3600B10")
    c, _ = c.press(0, used)
    assert c.left[0] == 3600 * S - used + back


def test_bronstein_flag_falls_while_counting_even_if_time_would_come_back():
    c = clock("5B10")
    assert c.deadline() == 5 * S
    _, events = c.press(0, 5 * S)
    assert events == [FlagFell(0, 5 * S)]


# ----- simple (US) delay -------------------------------------------------------------------------


@pytest.mark.parametrize("used, lost", [(0, 0), (5 * S, 0), (5 * S + 1, 1), (65 * S, 60 * S)])
def test_simple_delay_counts_down_only_after_the_delay(used, lost):
    c = clock("3600S5")
    view = c.view(used)
    assert view.times[0] == 3600 * S - lost
    assert view.delay_left == max(0, 5 * S - used)
    c, _ = c.press(0, used)
    assert c.left[0] == 3600 * S - lost


def test_simple_delay_flag_comes_after_the_time_and_the_delay():
    c = clock("10S5")
    assert c.deadline() == 15 * S
    _, events = c.press(0, 15 * S)
    assert events == [FlagFell(0, 15 * S)]
    c, events = c.press(0, 15 * S - 1)
    assert c.left[0] == 1


def test_a_pause_inside_the_delay_keeps_what_was_used():
    c = clock("60S5")
    c, _ = c.pause(3 * S)
    assert c.view(100 * S).times[0] == 60 * S and c.view(100 * S).delay_left == 2 * S
    c, _ = c.resume(100 * S)
    assert c.view(103 * S).times[0] == 60 * S - 1 * S
    assert c.deadline() == 100 * S + 62 * S


# ----- periods -----------------------------------------------------------------------------------


def play_moves(c: Clock, moves: int, each: int, t: int = 0) -> tuple[Clock, int, list]:
    events = []
    for _ in range(moves):
        for side in (0, 1):
            t += each
            c, ev = c.press(side, t)
            events += ev
    return c, t, events


def test_the_next_period_is_added_at_move_40_exactly():
    c = clock("40/5400+30:1800+30")
    c, t, events = play_moves(c, 39, 60 * S)
    assert not [e for e in events if isinstance(e, PeriodReached)]
    assert c.left == (5400 * S - 39 * 30 * S,) * 2
    t += 60 * S
    c, events = c.press(0, t)  # white's 40th move
    assert events[1:] == [PeriodReached(0, 1, 1800 * S)]
    assert c.left[0] == 5400 * S - 40 * 30 * S + 1800 * S
    assert c.left[1] == 5400 * S - 39 * 30 * S  # black has not completed move 40 yet
    assert c.view(t).periods == (1, 0)
    t += 60 * S
    c, events = c.press(1, t)
    assert events[1:] == [PeriodReached(1, 1, 1800 * S)]


def test_each_move_gets_the_increment_of_the_period_it_belongs_to():
    c = clock("2/600+10:300+1")
    c, t, _ = play_moves(c, 3, 0)
    # white: moves 1 and 2 in period 1 (+10 each, +300 after move 2), move 3 in period 2 (+1)
    assert c.left[0] == 600 * S + 10 * S + 10 * S + 300 * S + 1 * S


def test_a_last_period_with_a_move_count_repeats():
    c = clock("40/7200")
    c, t, events = play_moves(c, 80, 10 * S)
    reached = [e for e in events if isinstance(e, PeriodReached) and e.side == 0]
    assert [(e.index, e.added) for e in reached] == [(1, 7200 * S), (2, 7200 * S)]
    assert c.left[0] == 3 * 7200 * S - 80 * 10 * S


def test_the_move_counter_can_be_corrected_and_the_period_follows():
    c = clock("40/5400+30:1800+30")
    c, _ = c.set_moves(0, 39)
    c, events = c.press(0, S)
    assert any(isinstance(e, PeriodReached) for e in events)


# ----- flag ------------------------------------------------------------------------------------


def test_a_flag_exactly_at_a_press_falls_and_the_move_does_not_count():
    c = clock("60")
    assert c.fallen(60 * S - 1) is None and c.fallen(60 * S) == 0
    late, events = c.press(0, 60 * S)
    assert events == [FlagFell(0, 60 * S)]
    assert late.flagged == 0 and late.moves == (0, 0) and late.view(99 * S).times[0] == 0
    assert late.view(99 * S).counting is False
    in_time, events = c.press(0, 60 * S - 1)
    assert isinstance(events[0], ClockPressed) and in_time.running == 1 and in_time.left[0] == 1


def test_a_late_press_reports_the_flag_at_the_moment_it_fell():
    c = clock("60")
    _, events = c.press(0, 75 * S)
    assert events == [FlagFell(0, 60 * S)]


def test_the_arbiter_lifts_a_flag_by_setting_a_time():
    c, _ = clock("60").flag(61 * S)
    assert c.flagged == 0
    c, events = c.set_time(0, 30 * S, 70 * S)
    assert c.flagged is None and c.paused and c.view(999 * S).times[0] == 30 * S
    c, _ = c.resume(100 * S)
    assert c.deadline() == 130 * S


# ----- pause, stop, arbiter -------------------------------------------------------------------------


def test_pause_freezes_the_running_clock():
    c = clock("300")
    c, events = c.pause(10 * S)
    assert c.paused and c.view(500 * S).times == (290 * S, 300 * S) and c.deadline() is None
    with pytest.raises(ClockError):
        c.press(0, 600 * S)
    c, _ = c.resume(600 * S)
    assert c.view(610 * S).times[0] == 280 * S


def test_stop_keeps_the_times_and_refuses_presses():
    c = clock("300")
    c, _ = c.stop(12 * S)
    assert c.stopped and c.view(99 * S).times == (288 * S, 300 * S)
    with pytest.raises(ClockError):
        c.press(0, 99 * S)


def test_set_and_add_time_on_running_and_waiting_clocks():
    c = clock("300+2")
    c, _ = c.set_time(0, 100 * S, 50 * S)  # running: it reads 100 s now and counts on
    assert c.view(50 * S).times[0] == 100 * S and c.view(60 * S).times[0] == 90 * S
    c, _ = c.add_time(1, 120 * S, 60 * S)  # the opponent gets 2 minutes (a penalty)
    assert c.view(60 * S).times[1] == 420 * S


def test_a_press_by_the_side_not_running_is_refused():
    c = clock("300")
    with pytest.raises(ClockError):
        c.press(1, S)


def test_start_twice_is_refused():
    with pytest.raises(ClockError):
        clock("300").start(1, 5)


# ----- hourglass, several players ---------------------------------------------------------------------


def test_hourglass_moves_time_to_the_other_side():
    c = clock("*60")
    assert c.view(10 * S).times == (50 * S, 70 * S)
    c, _ = c.press(0, 10 * S)
    assert c.left == (50 * S, 70 * S)
    assert c.view(15 * S).times == (55 * S, 65 * S)


def test_four_players_take_turns_in_the_games_order():
    c = clock("600+5", sides=4)
    c, _ = c.press(0, 10 * S, next_side=2)  # seat 1 is out
    assert c.running == 2
    c, _ = c.press(2, 12 * S)
    assert c.running == 3 and c.left == (595 * S, 600 * S, 603 * S, 600 * S)
    with pytest.raises(ClockError):
        Clock.new(parse_time_control("*60"), 3)


def test_time_controls_are_checked_when_built():
    with pytest.raises(ClockError):
        TimeControl((Period(None, 60 * S), Period(None, 60 * S)))
    with pytest.raises(ClockError):
        Period(40, -1)
    with pytest.raises(ClockError):
        Period(None, 60 * S, 5 * S, "hourglass")


# ----- faces -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("ms, face", [
    (5400 * S, "1:30:00"), (5399 * S + 1, "1:30:00"), (3599 * S, "59:59"), (61 * S, "1:01"), (10 * S, "0:10"),
    (10 * S - 1, "10.0"), (9800, "9.8"), (9801, "9.9"), (100, "0.1"), (1, "0.1"), (0, "0.0"), (-50, "0.0"),
])
def test_the_face_shows_tenths_under_ten_seconds_and_rounds_up(ms, face):
    assert format_time(ms) == face


@pytest.mark.parametrize("ms, clk", [(5398 * S, "1:29:58"), (59 * S + 1, "0:01:00"), (9800, "0:00:09.8"), (0, "0:00:00.0")])
def test_clk_comments_are_written_as_the_clock_showed_them(ms, clk):
    assert format_clk(ms) == clk
    assert abs(parse_clk(clk) - ms) < 1000


def test_emt_is_rounded_down():
    assert format_emt(5 * S + 999) == "0:00:05.9" and format_emt(75 * S + 400) == "0:01:15"


@pytest.mark.parametrize("bad", ["1:2", "a:00:00", "0:61:00", "-1:00:00"])
def test_parse_clk_refuses_what_is_not_a_time(bad):
    with pytest.raises(ClockError):
        parse_clk(bad)
