"""Loading maps: names and paths, the orientation of the grid, the values produced."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.core.geometry import FLOOR, VOID, WATER
from companion.errors import MapError
from companion.maps import MAPS_DIR, BoardMap, find_map, load_map, parse_map

ASYMMETRIC = '''\
[map]
name = "corner"
title = "Corner test"
width = 6
height = 5
players = 2
grid = """
~....2
.....2
......
#.....
11....
"""
[players.1]
home = "south"
colour = "red"
[players.2]
home = "east"
colour = "blue"
'''


def test_bare_name_resolves_to_the_repository_maps_folder():
    assert find_map("standard") == MAPS_DIR / "standard.toml"
    assert MAPS_DIR == Path(__file__).resolve().parent.parent / "maps"


def test_path_is_used_as_it_is(tmp_path):
    path = tmp_path / "corner.toml"
    path.write_text(ASYMMETRIC)
    assert find_map(str(path)) == path
    assert find_map(path) == path
    assert load_map(str(path)).source == path


def test_relative_path_with_toml_suffix_is_a_path_not_a_name(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "corner.toml").write_text(ASYMMETRIC)
    assert load_map("corner.toml").name == "corner"
    with pytest.raises(MapError, match="no map named 'corner'"):
        find_map("corner")


def test_top_text_row_is_the_highest_rank_and_left_column_is_file_a():
    m = parse_map(ASYMMETRIC)
    g = m.geometry
    assert (g.width, g.height) == (6, 5)
    assert g.terrain[g.parse_square("a5")] == WATER
    assert g.terrain[g.parse_square("a2")] == VOID
    assert g.terrain[g.parse_square("f5")] == FLOOR
    assert m.spawn_zone(1) == {0, 1}
    assert m.spawn_zone(2) == {g.parse_square("f5"), g.parse_square("f4")}


def test_board_map_fields():
    m = parse_map(ASYMMETRIC)
    assert isinstance(m, BoardMap)
    assert (m.name, m.title, m.description) == ("corner", "Corner test", "")
    assert m.geometry.name == "corner"
    assert m.players == 2
    assert m.seat(2).home == "east" and m.seat(2).forward == (-1, 0)
    assert m.geometry.tagged("spawn:1") == m.spawn_zone(1)
    assert m.geometry.tagged("spawn:2") == m.spawn_zone(2)
    assert set(m.geometry.tags) == {"spawn:1", "spawn:2", "edge"}
    assert m.user_tags() == {}
    assert m.source is None


def test_title_defaults_to_the_name():
    m = parse_map(ASYMMETRIC.replace('title = "Corner test"\n', ""))
    assert m.title == "corner"


def test_seat_of_a_missing_player_is_a_value_error():
    with pytest.raises(ValueError, match="player 3 does not exist"):
        parse_map(ASYMMETRIC).seat(3)


def test_edge_tag_leaves_out_void_squares():
    m = parse_map(ASYMMETRIC)
    g = m.geometry
    assert g.parse_square("a2") not in g.tagged("edge")
    assert g.parse_square("a1") in g.tagged("edge")
    assert g.parse_square("c3") not in g.tagged("edge")
    assert len(g.tagged("edge")) == 2 * 6 + 2 * 3 - 1


def test_grid_rows_may_be_indented():
    indented = ASYMMETRIC.replace("\n~....2", "\n    ~....2").replace("\n11....", "\n    11....")
    assert parse_map(indented) == parse_map(ASYMMETRIC)


def test_parse_errors_name_the_given_source():
    with pytest.raises(MapError, match=r"^<mine>, line 4: map.width"):
        parse_map(ASYMMETRIC.replace("width = 6", "width = 3"), source="<mine>")


def test_loaded_maps_compare_equal_regardless_of_source(tmp_path):
    path = tmp_path / "corner.toml"
    path.write_text(ASYMMETRIC)
    assert load_map(path) == parse_map(ASYMMETRIC)
