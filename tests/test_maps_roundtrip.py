"""format_map writes TOML text that parse_map reads back to an equal map."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.map_text import format_map
from companion.maps import COLOURS, HOMES, available_maps, load_map, parse_map


@pytest.mark.parametrize("name", available_maps())
def test_shipped_maps_round_trip(name):
    board_map = load_map(name)
    assert parse_map(format_map(board_map)) == board_map


def test_water_spawn_squares_round_trip_through_a_generated_legend():
    text = '''\
[map]
name = "pools"
width = 5
height = 5
players = 2
grid = """
2w222
.....
..~..
.....
1v111
"""
[legend]
w = { terrain = "water", spawn = 2 }
v = { terrain = "water", spawn = 1, tags = ["pond"] }
[players.1]
home = "south"
colour = "white"
[players.2]
home = "north"
colour = "black"
[tags]
pond = ["c3"]
'''
    board_map = parse_map(text)
    written = format_map(board_map)
    assert "[legend]" in written
    again = parse_map(written)
    assert again == board_map
    assert again.geometry.tagged("pond") == {board_map.geometry.parse_square(s) for s in ("b1", "c3")}


def test_text_needing_escapes_round_trips():
    board_map = load_map("standard")
    odd = parse_map(format_map(board_map).replace(
        'description = "The 8x8 FIDE board."', 'description = "quote \\" back\\\\slash\\nnew\\tline \\u0001 é"'))
    assert odd.description == 'quote " back\\slash\nnew\tline \x01 é'
    assert parse_map(format_map(odd)) == odd


EDGE_SQUARES = {
    "south": lambda w, h: [f for f in range(w)],
    "north": lambda w, h: [(h - 1) * w + f for f in range(w)],
    "west": lambda w, h: [r * w for r in range(h)],
    "east": lambda w, h: [r * w + w - 1 for r in range(h)],
}


@st.composite
def map_texts(draw):
    """Valid map files of every shape: sizes 5..26, 2-4 players on distinct edges, any terrain
    (a ring of floor and water round the edge joins the players), spawn zones of at least two
    floor squares and maybe some on water (through a legend), tags as lists and as grids."""
    width, height = draw(st.integers(5, 26)), draw(st.integers(5, 26))
    players = draw(st.integers(2, 4))
    homes = draw(st.permutations(list(HOMES)))[:players]
    colours = draw(st.permutations(list(COLOURS)))[:players]
    chars = draw(st.lists(st.sampled_from(".~#"), min_size=width * height, max_size=width * height))
    for sq in set().union(*(EDGE_SQUARES[h](width, height) for h in HOMES)):
        chars[sq] = chars[sq] if chars[sq] != "#" else "."
    taken: set[int] = set()
    for player, home in enumerate(homes, start=1):
        edge = [sq for sq in EDGE_SQUARES[home](width, height) if sq not in taken]
        spawn = draw(st.lists(st.sampled_from(edge), min_size=2, max_size=6, unique=True))
        for i, sq in enumerate(spawn):
            taken.add(sq)
            on_water = i >= 2 and draw(st.booleans()) and chars[sq] == "~"
            chars[sq] = "WXYZ"[player - 1] if on_water else str(player)
    rows = ["".join(chars[r * width:(r + 1) * width]) for r in reversed(range(height))]
    title = draw(st.text(st.characters(blacklist_categories=("Cs",)), max_size=20))
    lines = ["[map]", 'name = "random-map"', f"width = {width}", f"height = {height}", f"players = {players}",
             'grid = """', *rows, '"""', "[legend]"]
    lines += [f'{"WXYZ"[p - 1]} = {{ terrain = "water", spawn = {p} }}' for p in range(1, players + 1)]
    for player, (home, colour) in enumerate(zip(homes, colours), start=1):
        lines += [f"[players.{player}]", f'home = "{home}"', f'colour = "{colour}"']
    lines.append("[tags]")
    for n in range(draw(st.integers(0, 3))):
        squares = draw(st.lists(st.integers(0, width * height - 1), max_size=8, unique=True))
        files = "abcdefghijklmnopqrstuvwxyz"
        names = ", ".join(f'"{files[sq % width]}{sq // width + 1}"' for sq in squares)
        lines.append(f"list{n} = [{names}]")
    if draw(st.booleans()):
        marks = draw(st.lists(st.sampled_from("x."), min_size=width * height, max_size=width * height))
        lines += ['shape = """', *("".join(marks[r * width:(r + 1) * width]) for r in range(height)), '"""']
    return "\n".join(lines) + "\n", title


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(map_texts())
def test_any_valid_map_round_trips(case):
    text, title = case
    board_map = parse_map(text)
    board_map = type(board_map)(board_map.name, title, "a\nb", board_map.geometry, board_map.seats)
    written = format_map(board_map)
    again = parse_map(written)
    assert again == board_map
    assert format_map(again) == written
