"""Every way a map file can be wrong gives one MapError naming the file, the key (and line),
and what is expected."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.errors import MapError
from companion.maps import find_map, load_map

# Line numbers of BASE, for the assertions below:
#  1 [map]  2 name  3 width  4 height  5 players  6 grid = """  7..11 the five rows  12 """
#  14 [players.1]  15 home  16 colour  18 [players.2]  19 home  20 colour
BASE = '''\
[map]
name = "tiny"
width = 5
height = 5
players = 2
grid = """
22222
.....
..~..
.....
11111
"""

[players.1]
home = "south"
colour = "white"

[players.2]
home = "north"
colour = "black"
'''


def write(tmp_path: Path, text: str, name: str = "tiny") -> Path:
    path = tmp_path / f"{name}.toml"
    path.write_text(text, encoding="utf-8")
    return path


def error_of(tmp_path: Path, text: str, name: str = "tiny") -> str:
    path = write(tmp_path, text, name)
    with pytest.raises(MapError) as caught:
        load_map(path)
    message = str(caught.value)
    assert message.startswith(str(path)), message
    assert "\n" not in message
    return message


def test_base_map_is_valid(tmp_path):
    board_map = load_map(write(tmp_path, BASE))
    assert board_map.name == "tiny" and board_map.players == 2


# ---- unknown keys


def test_unknown_top_level_table_is_named_with_its_line(tmp_path):
    message = error_of(tmp_path, BASE + "\n[extra]\nx = 1\n")
    assert "line 22: extra: unknown key" in message
    assert "expected one of: map, legend, players, tags" in message


def test_unknown_key_in_map_table_suggests_the_close_one(tmp_path):
    message = error_of(tmp_path, BASE.replace("width = 5", "width = 5\nwidht = 5"))
    assert "line 4: map.widht: unknown key (did you mean 'width'?)" in message


def test_american_color_spelling_is_an_unknown_key_with_a_hint(tmp_path):
    message = error_of(tmp_path, BASE.replace('colour = "black"', 'color = "black"'))
    assert "line 20: players.2.color: unknown key (did you mean 'colour'?)" in message


def test_unknown_key_in_legend_entry(tmp_path):
    text = BASE + '\n[legend]\n"w" = { terrain = "water", depth = 2 }\n'
    message = error_of(tmp_path, text)
    assert "legend.w.depth: unknown key" in message
    assert "line 23" in message


# ---- missing keys and tables


def test_missing_grid(tmp_path):
    text = BASE.replace('grid = """\n22222\n.....\n..~..\n.....\n11111\n"""\n', "")
    message = error_of(tmp_path, text)
    assert "map: missing key 'grid' in [map]" in message
    assert "line 1" in message


def test_missing_map_table(tmp_path):
    message = error_of(tmp_path, BASE[BASE.index("[players.1]"):])
    assert message.endswith("tiny.toml: map: missing table [map]; every map has [map] and [players] (docs/maps.md)")


def test_missing_players_table_of_one_player(tmp_path):
    text = BASE.replace('\n[players.2]\nhome = "north"\ncolour = "black"\n', "")
    message = error_of(tmp_path, text)
    assert "missing table [players.2]" in message


def test_missing_home(tmp_path):
    message = error_of(tmp_path, BASE.replace('home = "north"\n', ""))
    assert "line 18: players.2: missing key 'home'" in message


# ---- wrong types and values


@pytest.mark.parametrize(
    "old, new, key, expected",
    [
        ("width = 5", 'width = "5"', "map.width", "expected an integer from 5 to 26, got a string '5'"),
        ("width = 5", "width = true", "map.width", "expected an integer from 5 to 26, got a boolean"),
        ("players = 2", "players = 2.0", "map.players", "expected an integer from 2 to 4"),
        ('name = "tiny"', "name = 7", "map.name", "expected a string"),
        ('home = "south"', "home = 1", "players.1.home", "expected a string"),
        ('home = "south"', 'home = "down"', "players.1.home", "expected one of: south, north, west, east"),
        ('colour = "white"', 'colour = "mauve"', "players.1.colour", "unknown value 'mauve'"),
    ],
)
def test_wrong_type_or_value_names_key_and_expectation(tmp_path, old, new, key, expected):
    message = error_of(tmp_path, BASE.replace(old, new, 1))
    assert f"{key}: " in message and expected in message


def test_grid_must_be_a_string(tmp_path):
    text = BASE.replace('grid = """\n22222\n.....\n..~..\n.....\n11111\n"""', "grid = 5")
    assert "line 6: map.grid: expected a string, got an integer" in error_of(tmp_path, text)


def test_map_key_holding_a_value_instead_of_a_table(tmp_path):
    text = "map = 5\n" + BASE[BASE.index("[players.1]"):]
    assert "line 1: map: expected a table ([map]), got an integer" in error_of(tmp_path, text)


def test_players_table_holding_a_value(tmp_path):
    text = BASE.split("[players.1]")[0] + "[players]\n1 = 3\n"
    assert "players.1: expected a table ([players.1]), got an integer" in error_of(tmp_path, text)


# ---- sizes


@pytest.mark.parametrize("key, value", [("width", 4), ("width", 27), ("height", 30), ("height", 0)])
def test_size_out_of_range(tmp_path, key, value):
    message = error_of(tmp_path, BASE.replace(f"{key} = 5", f"{key} = {value}"))
    assert f"map.{key}: expected an integer from 5 to 26, got {value}" in message


def test_row_of_wrong_length_names_row_and_line(tmp_path):
    message = error_of(tmp_path, BASE.replace("..~..", "..~...", 1))
    assert "line 9: map.grid: row 3 from the top (rank 3) has 6 squares, expected 5 (map.width = 5)" in message


def test_row_count_not_matching_height(tmp_path):
    message = error_of(tmp_path, BASE.replace("height = 5", "height = 6"))
    assert "map.grid: has 5 rows, expected 6 (map.height = 6)" in message


def test_blank_row_inside_the_grid(tmp_path):
    message = error_of(tmp_path, BASE.replace("..~..\n", "..~..\n\n", 1))
    assert "line 10: map.grid: row 4 from the top is blank" in message


def test_grid_on_the_opening_line_counts_lines_from_there(tmp_path):
    text = BASE.replace('grid = """\n22222', 'grid = """22222').replace("..~..", "..~x.")
    message = error_of(tmp_path, text)
    assert "line 8: map.grid: row 3 from the top" in message


# ---- terrain letters


def test_unknown_terrain_letter_names_letter_place_and_known_letters(tmp_path):
    message = error_of(tmp_path, BASE.replace("..~..", ".x~..", 1))
    assert "line 9: map.grid: row 3 from the top (rank 3), column 2 (file b): unknown letter 'x'" in message
    for known in ("'.' floor", "'~' water", "'#' void", "'1' floor in player 1's spawn zone"):
        assert known in message
    assert "'3'" not in message  # a two-player map offers only spawn digits 1 and 2


# ---- players and spawn zones


@pytest.mark.parametrize("count", [1, 5])
def test_player_count_out_of_range(tmp_path, count):
    message = error_of(tmp_path, BASE.replace("players = 2", f"players = {count}"))
    assert f"line 5: map.players: expected an integer from 2 to 4, got {count}" in message


def test_spawn_zone_of_a_player_that_does_not_exist(tmp_path):
    message = error_of(tmp_path, BASE.replace(".....\n11111", "...3.\n11111"))
    assert "line 10: map.grid: square d2 is in the spawn zone of player 3, but map.players = 2" in message


def test_player_without_spawn_zone(tmp_path):
    message = error_of(tmp_path, BASE.replace("22222", "....."))
    assert "line 18: players.2: player 2 has no spawn zone" in message


def test_player_table_for_a_player_that_does_not_exist(tmp_path):
    message = error_of(tmp_path, BASE + '\n[players.3]\nhome = "west"\ncolour = "red"\n')
    assert "line 22: players.3: describes player 3, but map.players = 2" in message


def test_player_table_that_is_not_a_number(tmp_path):
    message = error_of(tmp_path, BASE.replace("[players.2]", "[players.two]"))
    assert "players.two: is not a player number; expected tables [players.1] to [players.2]" in message


def test_duplicated_player_table_names_both_lines(tmp_path):
    message = error_of(tmp_path, BASE + '\n[players.1]\nhome = "south"\ncolour = "white"\n')
    assert "line 22: the table [players.1] is declared twice (first declared on line 14)" in message


def test_home_edge_contradicting_the_spawn_zone(tmp_path):
    message = error_of(tmp_path, BASE.replace('home = "south"', 'home = "west"'))
    assert "line 15: players.1.home: is 'west' but player 1's spawn zone does not lie at the west edge" in message
    assert message.endswith("expected the edge the spawn zone lies at: south")


def test_home_edge_of_a_spawn_zone_touching_no_edge(tmp_path):
    text = BASE.replace("11111", ".....").replace(".....\n.....\n\"\"\"", ".....\n.....\n\"\"\"")
    text = text.replace("..~..", ".1~..", 1)
    message = error_of(tmp_path, text)
    assert "players.1.home" in message and "the spawn zone lies at no edge" in message


def test_two_players_at_the_same_edge(tmp_path):
    text = BASE.replace("22222\n.....\n..~..\n.....\n11111", "2....\n2....\n..~..\n1....\n1....")
    text = text.replace('home = "south"', 'home = "west"').replace('home = "north"', 'home = "west"')
    message = error_of(tmp_path, text)
    assert "line 19: players.2.home: players 1 and 2 both sit at the west edge" in message


def test_two_players_with_the_same_colour(tmp_path):
    message = error_of(tmp_path, BASE.replace('colour = "black"', 'colour = "white"'))
    assert "line 20: players.2.colour: players 1 and 2 are both white" in message


# ---- legend


def test_legend_may_put_a_spawn_zone_on_water(tmp_path):
    text = BASE.replace("11111", "1w111") + '\n[legend]\nw = { terrain = "water", spawn = 1, tags = ["pool"] }\n'
    board_map = load_map(write(tmp_path, text))
    b1 = board_map.geometry.parse_square("b1")
    assert board_map.geometry.is_water(b1)
    assert b1 in board_map.spawn_zone(1)
    assert board_map.geometry.tagged("pool") == {b1}


def test_legend_cannot_redefine_a_built_in_symbol(tmp_path):
    message = error_of(tmp_path, BASE + '\n[legend]\n"~" = { terrain = "floor" }\n')
    assert "legend.~: '~' is built in (water); expected a new character" in message


@pytest.mark.parametrize("symbol", ['"ww"', '" "', "'\"'"])
def test_legend_symbol_must_be_one_visible_character(tmp_path, symbol):
    message = error_of(tmp_path, BASE + f'\n[legend]\n{symbol} = {{ terrain = "floor" }}\n')
    assert "legend symbols must be one visible character" in message


def test_legend_spawn_on_void_is_an_error(tmp_path):
    message = error_of(tmp_path, BASE + '\n[legend]\nv = { terrain = "void", spawn = 1 }\n')
    assert "legend.v.spawn: a void square cannot be in a spawn zone" in message


def test_legend_spawn_for_a_player_that_does_not_exist(tmp_path):
    message = error_of(tmp_path, BASE + '\n[legend]\nv = { terrain = "floor", spawn = 3 }\n')
    assert "legend.v.spawn: player 3 does not exist (map.players = 2)" in message


def test_legend_unknown_terrain_name(tmp_path):
    message = error_of(tmp_path, BASE + '\n[legend]\nl = { terrain = "lava" }\n')
    assert "legend.l.terrain: unknown value 'lava'; expected one of: floor, water, void" in message


def test_legend_entry_without_terrain(tmp_path):
    message = error_of(tmp_path, BASE + "\n[legend]\nl = { spawn = 1 }\n")
    assert "legend.l: missing key 'terrain'" in message


# ---- tags


def test_tag_naming_a_square_off_the_board(tmp_path):
    message = error_of(tmp_path, BASE + '\n[tags]\nzone = ["a1", "f1"]\n')
    assert "line 23: tags.zone: square 'f1' is off this 5x5 board (a1..e5)" in message


def test_tag_naming_something_that_is_not_a_square(tmp_path):
    message = error_of(tmp_path, BASE + '\n[tags]\nzone = ["centre"]\n')
    assert "tags.zone: 'centre' is not a square name" in message


def test_tag_naming_a_square_twice(tmp_path):
    message = error_of(tmp_path, BASE + '\n[tags]\nzone = ["a1", "A1"]\n')
    assert "tags.zone: names a1 twice" in message


@pytest.mark.parametrize("name", ["edge", '"spawn:1"'])
def test_reserved_tag_names(tmp_path, name):
    message = error_of(tmp_path, BASE + f'\n[tags]\n{name} = ["a1"]\n')
    assert "is reserved" in message


def test_tag_name_must_be_a_word(tmp_path):
    message = error_of(tmp_path, BASE + '\n[tags]\n"9lives" = ["a1"]\n')
    assert "'9lives' is not a tag name" in message


def test_tag_grid_with_unknown_letter_names_its_line(tmp_path):
    grid = '\n[tags]\nhill = """\n.....\n.....\n..o..\n.....\n.....\n"""\n'
    message = error_of(tmp_path, BASE + grid)
    assert "line 26: tags.hill: row 3 from the top (rank 3), column 3 (file c): unknown letter 'o'" in message
    assert "'x' in the tag, '.' not" in message


def test_tag_grid_of_wrong_size(tmp_path):
    message = error_of(tmp_path, BASE + '\n[tags]\nhill = """\n.....\n..x..\n"""\n')
    assert "tags.hill: has 2 rows, expected 5" in message


def test_tag_of_wrong_type(tmp_path):
    message = error_of(tmp_path, BASE + "\n[tags]\nhill = 3\n")
    assert "tags.hill: expected a list of square names or a grid string" in message


def test_tag_grid_marks_squares_bottom_row_first(tmp_path):
    grid = '\n[tags]\nhill = """\nx....\n.....\n.....\n.....\n....x\n"""\n'
    board_map = load_map(write(tmp_path, BASE + grid))
    g = board_map.geometry
    assert g.tagged("hill") == {g.parse_square("a5"), g.parse_square("e1")}


# ---- names, files, syntax


def test_name_must_match_the_file_name(tmp_path):
    message = error_of(tmp_path, BASE, name="other")
    assert "line 2: map.name: is 'tiny' but the file is other.toml; expected name = \"other\"" in message


def test_name_must_be_lower_case_words(tmp_path):
    message = error_of(tmp_path, BASE.replace('name = "tiny"', 'name = "Tiny Map"'))
    assert "map.name: 'Tiny Map' is not a map name" in message


def test_toml_syntax_error_names_file_and_line(tmp_path):
    message = error_of(tmp_path, BASE.replace("width = 5", "width = "))
    assert "line 3: TOML syntax error: Invalid value" in message


def test_file_that_is_not_utf8(tmp_path):
    path = tmp_path / "tiny.toml"
    path.write_bytes(BASE.encode() + b"# \xff\n")
    with pytest.raises(MapError, match="not UTF-8"):
        load_map(path)


def test_unknown_map_name_lists_the_known_ones():
    with pytest.raises(MapError) as caught:
        find_map("no-such-map")
    assert "no map named 'no-such-map'" in str(caught.value)
    assert "standard" in str(caught.value) and "dungeon-compact" in str(caught.value)


def test_missing_map_file(tmp_path):
    with pytest.raises(MapError, match="not found"):
        find_map(tmp_path / "nothing.toml")


# ----- maps that load but cannot be played ------------------------------------------------------


def test_players_cut_apart_by_void_rows_are_an_error_naming_a_square_that_cannot_reach_the_other(tmp_path):
    text = BASE.replace("width = 5", "width = 5").replace("height = 5", "height = 11").replace(
        '22222\n.....\n..~..\n.....\n11111\n', "22222\n22222\n" + "#####\n" * 6 + "11111\n11111\n11111\n")
    message = error_of(tmp_path, text)
    assert "line 17: map.grid: square a1 of player 1's spawn zone cannot reach player 2's spawn zone (from a10)" \
        in message
    assert "void cuts the board" in message


def test_a_spawn_square_walled_in_by_void_is_an_error_naming_it(tmp_path):
    text = BASE.replace('22222\n.....\n..~..\n.....\n11111\n', "22222\n.....\n..~..\n##...\n1#111\n")
    message = error_of(tmp_path, text)
    assert "line 11: map.grid: square a1 of player 1's spawn zone cannot reach player 2's" in message


def test_a_diagonal_gap_in_a_void_wall_joins_the_players(tmp_path):
    text = BASE.replace('22222\n.....\n..~..\n.....\n11111\n', "22222\n....#\n####.\n.....\n11111\n")
    assert load_map(write(tmp_path, text)).players == 2


def test_water_joins_the_players_as_floor_does(tmp_path):
    text = BASE.replace('22222\n.....\n..~..\n.....\n11111\n', "22222\n.....\n~~~~~\n.....\n11111\n")
    assert load_map(write(tmp_path, text)).players == 2


@pytest.mark.parametrize("grid,player,squares,floor", [
    ("2####\n.....\n..~..\n.....\n11111\n", 2, "a5", 1),
    ("22222\n.....\n..~..\n.....\n1PPPP\n", 1, "a1, b1, c1, d1, e1", 1),
])
def test_a_spawn_zone_that_cannot_hold_an_army_is_an_error_naming_its_squares(tmp_path, grid, player, squares, floor):
    text = BASE.replace('22222\n.....\n..~..\n.....\n11111\n', grid) + '\n[legend]\nP = { terrain = "water", spawn = 1 }\n'
    message = error_of(tmp_path, text)
    assert f"map.grid: player {player}'s spawn zone ({squares}) has {floor} floor square; expected at least 2" in message


# --- [seatings]: smaller games on a map -------------------------------------------------------

THREE = BASE.replace("players = 2", "players = 3").replace('''.....
..~..
.....
11111''', '''3....
3.~..
3....
11111''') + '''
[players.3]
home = "west"
colour = "red"
'''


def test_a_seating_offers_a_smaller_game_on_the_same_board(tmp_path):
    board_map = load_map(write(tmp_path, THREE + "\n[seatings]\n2 = [1, 3]\n"))
    assert board_map.player_counts == (2, 3) and board_map.for_players(3) is board_map
    two = board_map.for_players(2)
    assert [(s.player, s.home, s.colour) for s in two.seats] == [(1, "south", "white"), (2, "west", "red")]
    assert two.geometry.tags["spawn:2"] == board_map.seats[2].spawn and "spawn:3" not in two.geometry.tags
    assert two.geometry.terrain == board_map.geometry.terrain


@pytest.mark.parametrize("seating, expected", [
    ("3 = [1, 2, 3]", "seatings.3: '3' is not a smaller number of players; expected a number from 2 to 2"),
    ("two = [1, 2]", "seatings.two: 'two' is not a smaller number of players"),
    ("2 = 1", "seatings.2: expected a list of 2 seat numbers, got an integer"),
    ("2 = [1, 1]", "seatings.2: expected 2 different seat numbers (1 to 3), got [1, 1]"),
    ("2 = [1, 2, 3]", "seatings.2: expected 2 different seat numbers"),
    ("2 = [1, 4]", "seatings.2: expected an integer from 1 to 3, got 4"),
])
def test_bad_seatings(tmp_path, seating, expected):
    message = error_of(tmp_path, THREE + f"\n[seatings]\n{seating}\n")
    assert expected in message


def test_a_count_the_map_does_not_offer_is_an_error_that_says_which_it_does(tmp_path):
    board_map = load_map(write(tmp_path, THREE))
    with pytest.raises(MapError, match="map 'tiny' is for 3 players, not 2"):
        board_map.for_players(2)
    with pytest.raises(MapError, match="for 3 or 4 players, not 2"):
        load_map("dungeon-four-player").for_players(2)
