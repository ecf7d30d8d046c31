"""The Chess 2 bench rows (companion bench): shape only; the numbers are machine-bound."""

import pytest

from companion.bench import BENCHES
from companion.games.chess2_bench import bench_chess2


@pytest.mark.slow  # a bench run
def test_bench_chess2_reports_median_and_p99_of_the_lifted_piece_moves():
    rows = bench_chess2(quick=True)
    values = {label: value for label, value, _ in rows}
    assert 0 < values["chess2 lifted piece legal moves median"] <= values["chess2 lifted piece legal moves p99"]
    assert values["chess2 lifted piece samples"] >= 21 * 3 * 8
    assert "chess2" in dict(BENCHES)
