"""docs/maps.md stays true: its example loads, its drawings are what check-map prints, and it
documents every key the loader accepts."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion import maps
from companion.map_text import draw_map
from companion.maps import load_map, parse_map

DOC = (Path(__file__).resolve().parent.parent / "docs" / "maps.md").read_text(encoding="utf-8")


def test_the_complete_example_loads_and_is_drawn_as_shown():
    example = re.findall(r"```toml\n(.*?)```", DOC, re.S)[0]
    board_map = parse_map(example)
    assert board_map.name == "river-duel"
    assert draw_map(board_map) in DOC


@pytest.mark.parametrize("name", ["dungeon-compact", "dungeon-two-player", "dungeon-four-player"])
def test_the_dungeon_maps_are_drawn_as_check_map_draws_them(name):
    assert draw_map(load_map(name)) in DOC


def test_every_accepted_key_and_word_is_documented():
    for table in maps._TOP_KEYS:
        assert f"`[{table}" in DOC, table
    words = (*maps._MAP_KEYS, *maps._SEAT_KEYS, *maps._LEGEND_KEYS, *maps.HOMES,
             *maps.COLOURS, "spawn:1", "edge")
    for word in words:
        assert f"`{word}`" in DOC or f'"{word}"' in DOC, word
