"""A running chess clock and the app at rest (issues 17 and 20), without Kivy. A clock that the
players press by a tap keeps the main loop at the full rate while it runs (a tap at rest would
be seen, and charged to the mover, up to a rest frame late). A clock that presses itself from
the board (casual play): its time running down is no activity, so the loop rests at REST_FPS
while a player thinks; the clock is redrawn exactly when its face turns (the loop is woken for
that moment); a board event wakes the loop at once, and the press's time is its own. The
loop is simulated the way shell.py runs it: after each pump, the next frame comes after
1 / frame rate, or at the face's turn if that is sooner."""

from companion.app.pacing import ACTIVE_FPS, REST_AFTER_MS, REST_FPS, FlowPacing
from companion.tournament.clock import face_changes_in, format_time
from tests.ui_flow_helpers import App


def clocked_app(tmp_path, tapped: bool = False) -> App:
    """A game at 3+2 whose White clock runs (Black pressed at t = 1000): casual with the clock
    pressing itself from the board, or (``tapped``) a tournament game, pressed by taps."""
    if tapped:
        app = App(tmp_path / "data", computer=False)
        app.start_at_the_table("chess", "blitz", mode="tournament")
    else:
        from tests.test_presenter_tournament import casual_app

        app = casual_app(tmp_path, auto_press=True)
    app.clock.t = 990
    app.clock_screen.tap(1)  # Black starts White's clock (the tap reads clock_ms: 1000)
    app.pump()
    assert app.flow.game.table.clock.running == 0 and app.flow.game.table.clock.since == 1000
    return app


def run_loop(app: App, pacing: FlowPacing, t: int, until: int) -> tuple[list, list, int]:
    """Frames from ``t`` to ``until`` as shell.py paces them: (frame times and rates, redraws, t)."""
    frames, redraws = [], []
    pacing.dirty = False
    while t < until:
        app.flow.pump(t)
        if pacing.dirty:
            pacing.dirty = False
            redraws.append(t)
        rate, face_in = pacing.plan(t)
        frames.append((t, rate))
        step = 1000 // rate
        t += step if face_in is None else max(1, min(step, face_in))
    return frames, redraws, t


def white_ms(app: App, t: int) -> int:
    return app.flow.game.table.clock.view(t).times[0]


def test_the_loop_rests_while_the_clock_runs_and_redraws_at_each_second(tmp_path):
    app = clocked_app(tmp_path)
    pacing = FlowPacing(app.flow)
    pacing.pacer.activity(1000)  # the press
    frames, redraws, t = run_loop(app, pacing, 1001, 31_000)
    resting = [rate for when, rate in frames if when >= 1000 + REST_AFTER_MS]
    assert resting and set(resting) == {REST_FPS}  # the clock runs, the loop rests
    rest_seconds = (31_000 - 1000 - REST_AFTER_MS) / 1000
    assert len(resting) <= rest_seconds * REST_FPS + rest_seconds + 2  # 10 a second, plus each turn
    # a redraw exactly where the face turns (rounded up: 3:00 -> 2:59 at t = 2000), every second
    assert redraws == [2000 + 1000 * k for k in range(29)]
    for when in redraws:
        assert format_time(white_ms(app, when)) != format_time(white_ms(app, when - 1))
    assert app.flow.game.table.clock.running == 0 and white_ms(app, 31_000) == 180_000 - 30_000


def test_a_clock_pressed_by_taps_keeps_the_full_rate_so_a_press_is_stamped_within_a_frame(tmp_path):
    """In a tournament the players tap the clock: while it runs the loop never rests, so a tap
    is seen within a frame (16 ms) and its time is the press's own."""
    app = clocked_app(tmp_path, tapped=True)
    pacing = FlowPacing(app.flow)
    pacing.pacer.activity(1000)
    frames, redraws, t = run_loop(app, pacing, 1001, 12_345)
    assert set(rate for _, rate in frames) == {ACTIVE_FPS}  # 11 s without a touch: still 60
    assert redraws[:3] == [2000, 3000, 4000]  # the face still redraws only as it turns
    app.board.tap(app.sq("e2"))
    app.board.tap(app.sq("e4"))
    app.flow.pump(12_300)
    app.clock.t = 12_340
    app.clock_screen.tap(0)  # White presses at 12_350 (the tap reads clock_ms)
    assert pacing.plan(12_350)[0] == ACTIVE_FPS
    clock = app.flow.game.table.clock
    assert clock.running == 1
    assert clock.view(12_350).times[0] == 180_000 - 11_350 + 2_000  # its own time; increment 2 s


def test_a_board_event_wakes_the_loop_and_a_move_it_completes_presses_the_clock_at_once(tmp_path):
    """Casual play with the clock pressing itself: the board's events wake the resting loop
    (a post), and the move they complete presses the clock at the event's own time."""
    from tests.test_presenter_tournament import casual_app

    app = casual_app(tmp_path, auto_press=True)
    app.clock.t = 990
    app.clock_screen.tap(1)  # Black starts White's clock at 1000
    app.pump()
    pacing = FlowPacing(app.flow)
    pacing.pacer.activity(1000)
    woken = []
    app.flow.wake = lambda: woken.append(True)
    _, _, t = run_loop(app, pacing, 1001, 9000)
    assert pacing.plan(t)[0] == REST_FPS
    app.clock.t = 9000
    app.board.tap(app.sq("e2"))  # stamped 9010, as a board thread stamps its events
    assert len(woken) == 1  # the post wakes the loop at once
    app.flow.pump(9011)
    assert pacing.plan(9011)[0] == ACTIVE_FPS  # the lifted piece is activity: the full rate
    app.clock.t = 9500
    app.board.tap(app.sq("e4"))  # 9510
    frames, _, t = run_loop(app, pacing, 9511, 12_000)
    assert [m.san for m in app.flow.game.session.moves] == ["e4"] and set(r for _, r in frames) == {ACTIVE_FPS}
    clock = app.flow.game.table.clock
    assert clock.running == 1
    spent = 180_000 + 2_000 - clock.view(t).times[0]
    assert 9510 - 1000 <= spent <= 9510 - 1000 + 1600  # the tracker settles the move, then presses


def test_under_ten_seconds_the_clock_shows_tenths_at_the_full_rate(tmp_path):
    app = clocked_app(tmp_path)
    pacing = FlowPacing(app.flow)
    pacing.pacer.activity(1000)
    start = 1000 + 180_000 - 12_000  # White has 12 s left
    frames, redraws, _ = run_loop(app, pacing, start, start + 4_000)
    assert set(rate for when, rate in frames if white_ms(app, when) >= 10_000) == {REST_FPS}
    assert set(rate for when, rate in frames if white_ms(app, when) < 10_000) == {ACTIVE_FPS}
    tenths = [w for w in redraws if white_ms(app, w) < 10_000]
    assert white_ms(app, tenths[0]) == 9_999  # "0:10" becomes "10.0" ...
    assert tenths[1:] == list(range(tenths[0] + 99, start + 4_000, 100))  # ... then each tenth as it turns


def test_the_next_face_change_is_exactly_where_the_shown_text_turns():
    from companion.tournament.clock import ClockView

    def view(ms, delay=0):
        return ClockView((ms, 60_000), 0, True, False, None, delay, (3, 3), (0, 0))

    for ms in [*range(1, 12_500, 7), *range(3_599_000, 3_601_500, 13)]:
        d = face_changes_in(view(ms))
        assert format_time(ms - d) != format_time(ms) and format_time(ms - d + 1) == format_time(ms), ms
    for delay in range(1, 2_500, 3):  # a simple delay: its tenths turn, the time stands
        d = face_changes_in(view(60_000, delay))
        assert delay < 100 and d == delay or (delay - d) // 100 != delay // 100 == (delay - d + 1) // 100, delay
    assert face_changes_in(ClockView((5000, 5000), 0, False, True, None, 0, (0, 0), (0, 0))) is None  # paused
