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
