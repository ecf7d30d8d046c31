"""The tracker benchmark's Dungeon case: a 20x20 four-player board, sensor event to LED frame."""

import pytest

from companion.board.tracker_bench import _dungeon_cycle, _dungeon_four_player, bench_tracker


def test_the_bench_position_has_all_four_armies_out_of_their_zones():
    rules, pos = _dungeon_four_player()
    assert rules.geometry.width == rules.geometry.height == 20
    assert all(len(pos.occ[p]) for p in range(4)) and len(pos.occupied()) == 45
    arena = rules.geometry.tags["arena"]
    assert pos.occupied() & arena  # units reached the centre
    assert len(_dungeon_cycle(rules, pos)) > 20


@pytest.mark.slow
def test_the_tracker_bench_reports_the_four_player_board_and_stays_under_2_ms():
    rows = {name: value for name, value, _ in bench_tracker(quick=True)}
    for stat in ("median", "p99", "p99 (CPU time)", "max"):
        assert f"tracker 20x20 four players: event to LED frame {stat}" in rows
    assert rows["tracker 20x20 four players: event to LED frame p99 (CPU time)"] < 2.0
    assert 0 < rows["tracker 20x20 four players: position_changed median"] < 50
