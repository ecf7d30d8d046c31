"""The serial bench runs for real (quick mode) and reports sane rows."""

import math

from companion.board.serial_bench import bench_serial


def test_the_quick_serial_bench_measures_throughput_and_latency():
    rows = bench_serial(quick=True)
    names = [name for name, _, _ in rows]
    assert len(names) == len(set(names)) == 6
    for name, value, unit in rows:
        assert math.isfinite(value) and value > 0, name
        assert unit in ("snapshots/s", "frames/s", "ms"), unit
    by_name = {name: value for name, value, _ in rows}
    median = by_name["serial: switch change to host event, median"]
    assert by_name["serial: switch change to host event, p99"] >= median
    assert median < 1000  # a switch change reaches the host well within a second
