"""``companion perft`` and ``companion moves`` for Dungeon Chess (the game is in the registry)."""

from pathlib import Path

import pytest

from companion.cli import main
from tests.test_dungeon_perft import CASES, cli_map_args


def test_perft_command_on_each_map_default_position(capsys):
    for ident, map_name, armies, text, depth, count, slow in CASES:
        if armies != "-" or depth != 2:
            continue
        assert main(["perft", "--variant", "dungeon", *cli_map_args(map_name), "--depth", "2"]) == 0
        assert capsys.readouterr().out.strip().splitlines()[-1] == str(count), ident


def test_perft_command_with_a_position_text(capsys):
    ident, map_name, armies, text, depth, count, _ = next(c for c in CASES if c[0] == "compact-redskin-greenskin" and c[4] == 2)
    assert main(["perft", "--variant", "dungeon", "--map", map_name, "--fen", text, "--depth", "2", "--divide"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert out[-1] == str(count) and len(out) > 3


def test_moves_command_lists_hexes_and_a_bad_position_is_one_line(capsys):
    text = "(2WD)4(2SM)4/10/10/10/10/10/10/10/10/(1PR)4(1HE)4 2"  # the Shaman sees f1 across the water
    assert main(["moves", "--variant", "dungeon", "--map", "dungeon-compact", "--fen", text]) == 0
    moves = capsys.readouterr().out.split()
    assert "f10f1hex" in moves and "a10a9" in moves
    assert main(["moves", "--variant", "dungeon", "--map", "dungeon-compact", "--fen", "10/10 1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "rows" in err


def test_a_map_file_of_ones_own_works(tmp_path, capsys):
    src = Path("maps/dungeon-compact.toml").read_text().replace('name = "dungeon-compact"', 'name = "mine"')
    path = tmp_path / "mine.toml"
    path.write_text(src)
    assert main(["perft", "--variant", "dungeon", "--map", str(path), "--depth", "1"]) == 0
    assert capsys.readouterr().out.strip() == "24"


def test_three_players_on_the_four_player_map_for_moves_perft_and_ai_match(capsys):
    """"2-4 PLAYERS": ``--players 3`` plays on the four-player map's three-player seating (the
    default map for three); a map without one, or a count out of range, is one line."""
    assert main(["moves", "--variant", "dungeon", "--players", "3"]) == 0
    first = capsys.readouterr().out.split()
    assert main(["moves", "--variant", "dungeon", "--map", "dungeon-four-player", "--players", "3"]) == 0
    assert capsys.readouterr().out.split() == first and first
    assert main(["ai-match", "--variant", "dungeon", "--players", "3", "--a", "1", "--b", "random",
                 "--games", "3", "--nodes", "50", "--max-plies", "30"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [line.split(" vs ")[0].split()[-1] for line in out[:3]] == ["1", "2", "3"]  # A sits in each seat
    assert out[-1].startswith("score ")
    assert main(["moves", "--variant", "dungeon", "--map", "dungeon-compact", "--players", "3"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is for 2 players, not 3" in err
    with pytest.raises(SystemExit) as done:
        main(["moves", "--variant", "dungeon", "--players", "5"])
    err = capsys.readouterr().err
    assert done.value.code == 2 and err.count("\n") == 1 and "expected a whole number from 2 to 4, got 5" in err
