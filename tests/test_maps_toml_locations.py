"""Finding the line of a key in TOML text, for error messages."""

from __future__ import annotations

import pytest

from companion.errors import ProfileError
from companion.toml_locations import TomlLocations, parse_toml

TEXT = '''\
# comment
top = 1
[map]
name = "x"
grid = """
abc
def
"""
inline = """same line
next"""
[players."1"]
home = "south"
[legend]
"*" = { terrain = "water" }
a.b = 3
lit = \'\'\'
fake = 1
[fake]
\'\'\'
'''


def test_key_and_header_lines():
    found = TomlLocations.scan(TEXT)
    assert found.line_of("top") == 2
    assert found.line_of("map") == 3
    assert found.line_of("map", "name") == 4
    assert found.line_of("players", "1", "home") == 12
    assert found.line_of("legend", "*") == 14
    assert found.line_of("legend", "a", "b") == 15


def test_unseen_key_falls_back_to_its_nearest_parent():
    found = TomlLocations.scan(TEXT)
    assert found.line_of("legend", "*", "terrain") == 14
    assert found.line_of("nothing", "here") is None


def test_multi_line_string_rows():
    found = TomlLocations.scan(TEXT)
    assert found.value_line("map", "grid", row=0) == 6
    assert found.value_line("map", "grid", row=1) == 7
    assert found.value_line("map", "inline", row=0) == 9
    assert found.value_line("map", "inline", row=1) == 10
    assert found.value_line("map", "name") is None


def test_text_inside_multi_line_strings_is_not_read_as_keys():
    found = TomlLocations.scan(TEXT)
    assert found.line_of("legend", "fake") == 13  # the [legend] header, not line 17
    assert ("fake",) not in found.header_lines


def test_syntax_error_becomes_the_callers_error_with_file_and_line():
    with pytest.raises(ProfileError, match=r"^board\.toml, line 2: TOML syntax error: Invalid value$"):
        parse_toml("a = 1\nb =\n", "board.toml", ProfileError)


def test_duplicate_table_names_both_declarations():
    with pytest.raises(ProfileError) as caught:
        parse_toml("[x.y]\na = 1\n\n[x.y]\n", "f.toml", ProfileError)
    assert str(caught.value) == ("f.toml, line 4: the table [x.y] is declared twice (first declared on line 1); "
                                 "expected each table once, merge the two")
