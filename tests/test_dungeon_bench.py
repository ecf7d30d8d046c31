"""The Dungeon Chess bench rows (companion bench): shape only; the numbers are machine-bound."""

from companion.games.dungeon_bench import bench_dungeon


def test_bench_dungeon_reports_median_and_p99_of_the_lifted_piece_moves():
    rows = bench_dungeon(quick=True)
    labels = [r[0] for r in rows]
    assert "dungeon 4p lifted piece legal moves median" in labels
    assert "dungeon 4p lifted piece legal moves p99" in labels
    values = dict((r[0], r[1]) for r in rows)
    assert 0 < values["dungeon 4p lifted piece legal moves median"] <= values["dungeon 4p lifted piece legal moves p99"]
    assert all(unit in ("us", "pieces") for _, _, unit in rows)
