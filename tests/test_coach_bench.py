"""The coach bench runs and reports what `companion bench --only coach` prints: event to LED
with nothing else running, with a hint searching on the AI worker, and at Python's default
switch interval; the worker sets the short interval only while it works."""

import sys
import time

import pytest

from companion.ai import worker as ai_worker
from companion.coach_bench import bench_coach


@pytest.mark.slow
def test_the_coach_bench_reports_the_board_with_and_without_a_hint_searching():
    before = sys.getswitchinterval()
    rows = bench_coach(quick=True)
    names = {name: (value, unit) for name, value, unit in rows}
    for label in ("8x8 start, nothing else running", "8x8 start, a hint searching"):
        for stat in ("median", "p99", "p99 (CPU time)"):
            value, unit = names[f"coach {label}: event to LED frame {stat}"]
            assert unit == "ms" and value > 0
    assert names["coach hint: nodes searched meanwhile"][0] > 0  # the hint really was searching
    assert sys.getswitchinterval() == before


def test_the_worker_shortens_the_switch_interval_only_while_it_works():
    before = sys.getswitchinterval()
    seen = []
    with ai_worker.quick_switching():
        seen.append(sys.getswitchinterval())
        with ai_worker.quick_switching():  # nested: still short, restored only at the end
            seen.append(sys.getswitchinterval())
        seen.append(sys.getswitchinterval())
    assert seen == [min(before, ai_worker.SWITCH_SECONDS)] * 3 and sys.getswitchinterval() == before

    class Slow:
        def choose(self, pos, *, now, budget, stop, max_nodes, on_progress):
            seen.append(sys.getswitchinterval())
            return None

    from companion.games import make_rules

    w = ai_worker.SearchWorker(time.perf_counter)
    w.start(Slow(), make_rules("chess").start_position(), budget=None)
    w.join(10)
    assert seen[-1] == min(before, ai_worker.SWITCH_SECONDS) and sys.getswitchinterval() == before
