"""The app at rest (issue 17): the main loop rests at a low frame rate once nothing happens
(companion/app/pacing.py), a board thread's post wakes it at once, and the pump renders an LED
frame only when it would differ from the last one. Pure parts, driven by timestamps; the real
window is measured by ``companion bench --only app`` (companion/app/rest_bench.py)."""

import threading

from companion.app.pacing import ACTIVE_FPS, REST_AFTER_MS, REST_FPS, LoopWaker, Pacer
from companion.board.palette import Meaning, Pattern, blinking, phase, render
from companion.board.ports import SquareChanged
from companion.session import Seat
from tests.ui_flow_helpers import App


def test_the_loop_rests_once_nothing_has_happened_for_a_while():
    p = Pacer()
    p.activity(1000)
    assert p.frame_rate(1000 + REST_AFTER_MS - 1, False) == ACTIVE_FPS
    assert p.frame_rate(1000 + REST_AFTER_MS, False) == REST_FPS
    assert p.frame_rate(1000 + REST_AFTER_MS, True) == ACTIVE_FPS  # something moves on its own
    p.activity(9000)
    assert p.frame_rate(9001, False) == ACTIVE_FPS


def test_the_rest_timer_outlasts_the_trackers_timers():
    """Settling a castling move (1.5 s) and the last move's light (3 s) run at the full rate."""
    from companion.board.tracker import Tracker
    import inspect

    defaults = {k: v.default for k, v in inspect.signature(Tracker).parameters.items()}
    assert REST_AFTER_MS > max(defaults["castle_settle_ms"], defaults["last_move_ms"], defaults["slow_settle_ms"])


class FakeKivyClock:
    """Kivy's default clock as ClockBaseBehavior.idle uses it: ask _check_ready, usleep, repeat."""

    def __init__(self):
        self.slept = []

    def _check_ready(self, fps, min_sleep, undershoot):
        return False, 1 / fps

    def usleep(self, microseconds):
        raise AssertionError("replaced by the waker")

    def idle(self, fps):
        done, sleeptime = self._check_ready(fps, 0.001, 0.0008)
        while not done:
            self.slept.append(sleeptime)
            self.usleep(1e6 * sleeptime)
            done, sleeptime = self._check_ready(fps, 0.001, 0.0008)


def test_a_post_from_another_thread_ends_the_wait_for_the_next_frame():
    clock = FakeKivyClock()
    waker = LoopWaker(clock)
    assert waker.installed
    threading.Timer(0.05, waker.wake).start()
    clock.idle(0.001)  # a frame due in 1000 s: only the wake ends the wait
    assert clock.slept == [1000.0]
    waker.wake()
    clock.idle(0.001)  # woken before the wait: the frame is due at once
    assert clock.slept == [1000.0]


def test_a_clock_without_those_methods_keeps_its_own_pace():
    assert not LoopWaker(object()).installed


def test_the_blink_phase_says_when_a_frame_changes():
    steady = {0: Meaning.LAST_MOVE_TO, 1: Meaning.MOVE}
    assert blinking(steady) == frozenset() and phase(blinking(steady), 123) == ()
    lit = {0: Meaning.CHECK, 1: Meaning.ILLEGAL}
    pats = blinking(lit)
    assert pats == {Pattern.BLINK, Pattern.FLASH}
    for t in range(0, 2000, 25):  # same phase, same frame
        for u in range(t, t + 200, 25):
            if phase(pats, t) == phase(pats, u):
                assert render(lit, 4, t_ms=t) == render(lit, 4, t_ms=u)


def test_at_rest_the_pump_does_not_render_an_unchanged_led_frame(tmp_path, monkeypatch):
    app = App(tmp_path, computer=False)
    app.new_game(game="chess", dice="virtual")
    from companion.app.presenters import board_link as board_module

    rendered = []
    real = board_module.render
    monkeypatch.setattr(board_module, "render", lambda *a, **k: rendered.append(1) or real(*a, **k))
    for _ in range(20):
        app.pump()
    assert rendered == []  # steady lights, nothing new: no render, nothing sent
    app.board.tap(app.sq("e2"))  # a piece lifted: its moves light up
    app.pump()
    assert len(rendered) == 1 and app.flow.board.frame[app.sq("e4")] != (0, 0, 0)


def test_a_post_wakes_the_app_and_animation_keeps_it_awake(tmp_path):
    app = App(tmp_path, computer=False)
    woken = []
    app.flow.wake = lambda: woken.append(1)
    app.flow.board.sink(SquareChanged(app.sq("e2"), False, 5))
    assert woken == [1]
    assert not app.flow.animating
    app.flow.new_game("chess", (Seat("White"), Seat("Black")))
    app.flow.board.toggle_walk()
    assert app.flow.animating  # the board check's LED walk moves on its own
