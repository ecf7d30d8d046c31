"""The shipped maps match the reference geometry (shared/reference/dungeon-maps.md and the
rulebook's MAPS section). The reference counts rows from 0 at the top and columns from 0 at
the left; ``ref`` turns that into the engine's square index (rank 0 at the bottom)."""

from __future__ import annotations

import pytest

from companion.core.geometry import FLOOR, VOID, WATER
from companion.maps import available_maps, load_map


def ref(board_map, row: int, col: int) -> int:
    g = board_map.geometry
    return (g.height - 1 - row) * g.width + col


def rect(board_map, rows: range, cols: range) -> set[int]:
    return {ref(board_map, r, c) for r in rows for c in cols}


def squares_of(board_map, kind: int) -> set[int]:
    return {sq for sq, t in enumerate(board_map.geometry.terrain) if t == kind}


def test_the_four_maps_are_shipped():
    assert {"standard", "dungeon-compact", "dungeon-two-player", "dungeon-four-player"} <= set(available_maps())


# ---- standard


def test_standard_is_8x8_floor_with_a1_at_the_lower_left_in_white_spawn():
    m = load_map("standard")
    g = m.geometry
    assert (g.width, g.height, m.players) == (8, 8, 2)
    assert squares_of(m, FLOOR) == set(range(64))
    assert g.parse_square("a1") == 0 and 0 in m.spawn_zone(1)
    assert m.spawn_zone(1) == {g.parse_square(f"{f}{r}") for f in "abcdefgh" for r in (1, 2)}
    assert m.spawn_zone(2) == {g.parse_square(f"{f}{r}") for f in "abcdefgh" for r in (7, 8)}
    assert (m.seat(1).home, m.seat(1).colour, m.seat(1).forward) == ("south", "white", (0, 1))
    assert (m.seat(2).home, m.seat(2).colour, m.seat(2).forward) == ("north", "black", (0, -1))


def test_standard_dark_squares_start_at_a1():
    m = load_map("standard")
    g = m.geometry
    dark = g.tagged("dark")
    assert len(dark) == 32
    assert {g.parse_square(s) for s in ("a1", "h8", "c1", "b2")} <= dark
    assert not {g.parse_square(s) for s in ("b1", "a8", "h1", "e4")} & dark


# ---- compact skirmish


def test_compact_skirmish_water_is_rows_3_to_6_cols_3_to_6_from_the_top():
    m = load_map("dungeon-compact")
    assert (m.geometry.width, m.geometry.height) == (10, 10)
    assert squares_of(m, WATER) == rect(m, range(3, 7), range(3, 7))
    assert squares_of(m, VOID) == set()
    assert len(squares_of(m, FLOOR)) == 84
    g = m.geometry
    assert {g.parse_square(s) for s in ("d4", "g7", "d7", "g4")} <= squares_of(m, WATER)
    assert not {g.parse_square(s) for s in ("c4", "h7", "d3", "d8")} & squares_of(m, WATER)


def test_compact_skirmish_spawn_is_bottom_two_rows_for_player_1_and_top_two_for_player_2():
    m = load_map("dungeon-compact")
    assert m.spawn_zone(1) == rect(m, range(8, 10), range(10))
    assert m.spawn_zone(2) == rect(m, range(0, 2), range(10))
    assert len(m.spawn_zone(1)) == len(m.spawn_zone(2)) == 20
    assert (m.seat(1).home, m.seat(2).home) == ("south", "north")


# ---- two player dungeon


def test_two_player_dungeon_is_8_wide_and_20_tall():
    m = load_map("dungeon-two-player")
    assert (m.geometry.width, m.geometry.height, m.players) == (8, 20, 2)


def test_two_player_dungeon_playable_squares_are_exactly_chambers_and_corridors():
    m = load_map("dungeon-two-player")
    top, bottom = rect(m, range(0, 3), range(8)), rect(m, range(17, 20), range(8))
    centre = rect(m, range(6, 14), range(8))
    corridors = rect(m, range(2, 6), range(3, 5)) | rect(m, range(14, 18), range(3, 5))
    assert squares_of(m, VOID) == set(range(160)) - (top | bottom | centre | corridors)
    assert squares_of(m, WATER) == rect(m, range(8, 12), range(2, 6))
    counts = [len(squares_of(m, k)) for k in (FLOOR, WATER, VOID)]
    assert counts == [108, 16, 36]


def test_two_player_dungeon_spawn_zones_are_the_8x3_chambers():
    m = load_map("dungeon-two-player")
    g = m.geometry
    assert m.spawn_zone(1) == rect(m, range(17, 20), range(8))
    assert m.spawn_zone(2) == rect(m, range(0, 3), range(8))
    assert g.parse_square("a1") in m.spawn_zone(1) and g.parse_square("h20") in m.spawn_zone(2)
    assert len(m.spawn_zone(1)) == len(m.spawn_zone(2)) == 24


def test_two_player_dungeon_corridors_are_two_wide_on_files_d_and_e():
    m = load_map("dungeon-two-player")
    g = m.geometry
    for rank in (4, 5, 6, 15, 16, 17):
        row = [g.terrain[g.parse_square(f"{f}{rank}")] for f in "abcdefgh"]
        assert row == [VOID, VOID, VOID, FLOOR, FLOOR, VOID, VOID, VOID], rank
    assert g.tagged("corridor") == {g.parse_square(f"{f}{r}") for f in "de" for r in (4, 5, 6, 15, 16, 17)}
    assert g.tagged("arena") == rect(m, range(6, 14), range(8))


# ---- four player dungeon


def four_player_reference(m):
    centre = rect(m, range(6, 14), range(6, 14))
    chambers = {
        "south": rect(m, range(17, 20), range(6, 14)),
        "north": rect(m, range(0, 3), range(6, 14)),
        "west": rect(m, range(6, 14), range(0, 3)),
        "east": rect(m, range(6, 14), range(17, 20)),
    }
    corridors = (rect(m, range(2, 6), range(9, 11)) | rect(m, range(14, 18), range(9, 11))
                 | rect(m, range(9, 11), range(2, 6)) | rect(m, range(9, 11), range(14, 18)))
    return centre, chambers, corridors


def test_four_player_dungeon_is_the_symmetric_cross_of_the_reference():
    m = load_map("dungeon-four-player")
    assert (m.geometry.width, m.geometry.height, m.players) == (20, 20, 4)
    centre, chambers, corridors = four_player_reference(m)
    playable = centre | corridors | set().union(*chambers.values())
    assert squares_of(m, VOID) == set(range(400)) - playable
    assert squares_of(m, WATER) == rect(m, range(8, 12), range(8, 12))
    assert [len(squares_of(m, k)) for k in (FLOOR, WATER, VOID)] == [168, 16, 216]
    assert m.geometry.tagged("arena") == centre
    assert m.geometry.tagged("corridor") == corridors - set().union(*chambers.values())


def test_four_player_dungeon_is_symmetric_under_quarter_turns():
    m = load_map("dungeon-four-player")
    g = m.geometry
    for sq in range(g.size):
        f, r = g.file_of(sq), g.rank_of(sq)
        turned = g.square(r, 19 - f)
        assert g.terrain[sq] == g.terrain[turned]


def test_four_player_seats_go_clockwise_from_south_each_in_its_chamber():
    m = load_map("dungeon-four-player")
    _, chambers, _ = four_player_reference(m)
    assert [s.home for s in m.seats] == ["south", "west", "north", "east"]
    assert [s.colour for s in m.seats] == ["blue", "red", "green", "yellow"]
    for seat in m.seats:
        assert seat.spawn == chambers[seat.home], seat
        assert len(seat.spawn) == 24
    assert [s.forward for s in m.seats] == [(0, 1), (1, 0), (0, -1), (-1, 0)]


@pytest.mark.parametrize("name", ["standard", "dungeon-compact", "dungeon-two-player", "dungeon-four-player"])
def test_shipped_map_edge_tag_is_the_playable_outer_ring(name):
    m = load_map(name)
    g = m.geometry
    ring = {sq for sq in range(g.size)
            if g.file_of(sq) in (0, g.width - 1) or g.rank_of(sq) in (0, g.height - 1)}
    assert g.tagged("edge") == ring - squares_of(m, VOID)
    assert m.source is not None and m.source.name == f"{name}.toml"
