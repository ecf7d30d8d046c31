"""``companion bench --only app`` measures the real app in a real window (Xvfb): it runs, and
reports what the issue asks for. The figures themselves are the bench's, not a test's."""

import os

import pytest

from companion.app import rest_bench

pytestmark = pytest.mark.ui


def test_the_app_at_rest_is_measured_in_a_window_start_idle_cpu_memory_and_the_led_path():
    display = os.environ.get("DISPLAY")
    assert display, "the window tests run under Xvfb (xvfb-run)"
    rows = dict((label, (value, unit)) for label, value, unit in rest_bench._measure_scene("chess", display, 1.0))
    assert rows["app idle CPU, chess game at rest"][1] == "% core"
    assert rows["app resident memory, chess game at rest"][0] > 10
    median, worst = rows["app sensor event to LED frame, median"][0], rows["app sensor event to LED frame, worst"][0]
    assert 0 < median <= worst


def test_the_app_with_a_lichess_game_open_is_measured_in_a_window_memory_and_the_renderers_share():
    """``companion bench --only lichess``'s memory: the app in a window, a lichess game open
    against the bench's scripted peer, once it has settled (the figure is the bench's)."""
    from companion.online.bench import bench_online_memory

    rows = dict((label, (value, unit)) for label, value, unit in bench_online_memory())
    words = "lichess game (streams open)"
    total = rows[f"app resident memory, {words}"]
    assert total[1] == "MB" and total[0] > 10, rows
    if "  of it the software OpenGL renderer's code" in rows:
        without = rows[f"app resident memory without the renderer, {words}"][0]
        assert 10 < without < total[0]
