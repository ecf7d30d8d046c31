"""``companion check-map``: the drawing on stdout, or one line on stderr and exit status 2."""

from __future__ import annotations

import argparse
import subprocess
import sys

import pytest

from companion import maps_cli
from companion.map_text import draw_map
from companion.maps import MAPS_DIR, load_map, parse_map


def run_check_map(*argv: str) -> int:
    parser = argparse.ArgumentParser(prog="companion")
    maps_cli.add_parser(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["check-map", *argv])
    return args.func(args)


def test_drawing_has_ranks_down_the_left_and_files_along_the_bottom():
    lines = draw_map(load_map("dungeon-compact")).splitlines()
    assert lines[0] == "Compact Skirmish (dungeon-compact)"
    assert lines[1] == "10  2 2 2 2 2 2 2 2 2 2"
    assert lines[4] == " 7  . . . ~ ~ ~ ~ . . ."
    assert lines[10] == " 1  1 1 1 1 1 1 1 1 1 1"
    assert lines[11] == "    a b c d e f g h i j"
    assert lines[12].startswith("legend: . floor  ~ water  # void  1-2 spawn zone")
    assert lines[13] == ("summary: 10 files x 10 ranks, 2 players, 84 floor, 16 water, 0 void; "
                         "player 1 (blue, south): 20 spawn squares; player 2 (red, north): 20 spawn squares")


def test_drawing_puts_a1_at_the_lower_left():
    text = '''[map]
name = "corner"
width = 5
height = 5
players = 2
grid = """
2...~
2....
.....
.....
11..#
"""
[players.1]
home = "south"
colour = "red"
[players.2]
home = "north"
colour = "blue"
'''
    lines = draw_map(parse_map(text)).splitlines()
    assert lines[1] == "5  2 . . . ~"
    assert lines[5] == "1  1 1 . . #"
    assert lines[6] == "   a b c d e"


def test_drawing_of_the_twenty_wide_map_labels_files_a_to_t():
    lines = draw_map(load_map("dungeon-four-player")).splitlines()
    assert lines[21] == "    " + " ".join("abcdefghijklmnopqrst")
    assert lines[1].startswith("20  # # # # # # 3 3")
    assert "tags: arena (64), corridor (24)" in lines[-1]


def test_drawing_notes_spawn_squares_on_water():
    m = parse_map(load_map("standard").source.read_text().replace("11111111\n11111111", "11111111\n1w111111")
                  + '\n[legend]\nw = { terrain = "water", spawn = 1 }\n')
    assert "player 1 (white, south): 16 spawn squares, 1 on water" in draw_map(m)


def test_check_map_prints_the_drawing_and_exits_0(capsys):
    assert run_check_map("dungeon-two-player") == 0
    out, err = capsys.readouterr()
    assert out == draw_map(load_map("dungeon-two-player"))
    assert err == ""


def test_check_map_takes_a_path(tmp_path, capsys):
    path = tmp_path / "standard.toml"
    path.write_text(load_map("standard").source.read_text())
    assert run_check_map(str(path)) == 0
    assert "Standard chessboard (standard)" in capsys.readouterr().out


def test_bad_map_is_one_line_on_stderr_and_exit_2(tmp_path, capsys):
    path = tmp_path / "standard.toml"
    path.write_text(load_map("standard").source.read_text().replace("........\n........\n11", "....X...\n........\n11"))
    assert run_check_map(str(path)) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1
    assert err.startswith(f"check-map: {path}, line 18: map.grid: row 5 from the top (rank 4), column 5")
    assert "unknown letter 'X'" in err


def test_unknown_map_name_is_exit_2(capsys):
    assert run_check_map("atlantis") == 2
    err = capsys.readouterr().err
    assert err.startswith("check-map: no map named 'atlantis'") and err.count("\n") == 1


def test_a_folder_is_named_a_folder_with_the_maps_in_it(tmp_path, capsys):
    assert run_check_map(str(tmp_path)) == 2
    assert capsys.readouterr().err == (f"check-map: {tmp_path} is a folder, not a map file; give one .toml map "
                                       f"file in it (it holds none)\n")
    assert run_check_map("maps") == 2
    inside = ", ".join(sorted(p.name for p in MAPS_DIR.glob("*.toml")))
    assert capsys.readouterr().err == f"check-map: maps is a folder, not a map file; give one .toml map file in it: {inside}\n"


@pytest.mark.parametrize("path, game, what", [
    ("maps/variants/chess.toml", "chess", "a piece roster ([variant] and [pieces])"),
    ("maps/variants/dungeon.toml", "dungeon", "a piece roster ([variant] and [pieces])"),
    ("maps/variants/dungeon-armies.toml", "dungeon", "a list of armies ([armies])"),
])
def test_a_variant_file_is_named_one_with_how_to_check_it(capsys, path, game, what):
    assert run_check_map(path) == 2
    assert capsys.readouterr().err == (
        f"check-map: {path} is {what}, a variant file, not a board map: check-map reads maps (maps/*.toml, "
        f"docs/maps.md). A variant file is checked when its game loads it: companion moves --variant {game} "
        f"reads it and names any mistake\n")


def test_a_copied_map_shows_every_problem_in_one_pass_in_file_order(tmp_path, capsys):
    """The stale name used to hide the real errors; now each problem is a line with its line number."""
    text = load_map("dungeon-compact").source.read_text()
    text = (text.replace('width = 10', 'width = 10\ncolour = "red"', 1)
            .replace("..........\n", "....X.....\n", 1)
            .replace('colour = "blue"', 'colour = "pink"'))
    path = tmp_path / "my-copy.toml"
    path.write_text(text)
    assert run_check_map(str(path)) == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 5 and lines[-1] == "check-map: 4 problems"
    assert "map.name: is 'dungeon-compact' but the file is my-copy.toml" in lines[0]
    assert "map.colour: unknown key" in lines[1]
    assert "map.grid: row" in lines[2] and "unknown letter 'X'" in lines[2]
    assert "players.1.colour: unknown value 'pink'" in lines[3]
    numbers = [int(line.split(", line ")[1].split(":")[0]) for line in lines[:4]]
    assert numbers == sorted(numbers)


def test_a_map_error_in_the_app_is_still_one_line_that_points_to_check_map(tmp_path):
    from companion.maps import MapProblems

    text = load_map("standard").source.read_text().replace('colour = "white"', 'colour = "pink"')
    with pytest.raises(MapProblems) as caught:
        parse_map(text.replace('width = 8', 'width = 8\nfoo = 1'), source=tmp_path / "standard.toml")
    message = str(caught.value)
    assert "\n" not in message and message.endswith("(and 1 more problem: companion check-map lists them all)")
    assert len(caught.value.problems) == 2


def test_help_describes_the_command(capsys):
    with pytest.raises(SystemExit) as done:
        run_check_map("--help")
    assert done.value.code == 0
    assert "Validate a board map" in capsys.readouterr().out


def test_check_map_in_a_fresh_interpreter_prints_no_traceback(tmp_path):
    path = tmp_path / "broken.toml"
    path.write_text("[map\n")
    code = ("import argparse, sys; from companion import maps_cli; p = argparse.ArgumentParser(); "
            "maps_cli.add_parser(p.add_subparsers()); a = p.parse_args(sys.argv[1:]); sys.exit(a.func(a))")
    done = subprocess.run([sys.executable, "-c", code, "check-map", str(path)],
                          capture_output=True, text=True, timeout=30)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines() == [f"check-map: {path}, line 1: TOML syntax error: "
                                                 "Expected ']' at the end of a table declaration"]
