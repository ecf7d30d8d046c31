"""One clear line for every hostile input (issue 23): numbers past Python's 4,300-digit limit,
deep nesting, depths and counts out of range, options in the wrong place, maps that load but
cannot be played. Each case: exit status 2, nothing on stdout, exactly one line on stderr
naming the problem. A few run as real processes to show there is no traceback either."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import main
from tests.conftest import ROOT

DIGITS = "9" * 5000
GOOD_MAP = (ROOT / "maps" / "dungeon-compact.toml").read_text()


def one_line(capsys, argv) -> str:
    try:
        code = main([str(a) for a in argv])
    except SystemExit as e:  # refused by the argument parser
        code = e.code
    out = capsys.readouterr()
    assert code == 2, (code, out.err)
    assert out.out == ""
    lines = out.err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in out.err, out.err
    return lines[0]


def file(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def cut_map(tmp_path):
    start = GOOD_MAP.index('grid = """')
    end = GOOD_MAP.index('"""\n', start + 10)
    rows = "2222222222\n2222222222\n" + "##########\n" * 6 + "1111111111\n1111111111\n"
    return file(tmp_path, "dungeon-compact.toml", GOOD_MAP[:start] + 'grid = """\n' + rows + GOOD_MAP[end:])


def small_zone_map(tmp_path):
    text = GOOD_MAP.replace("2222222222\n2222222222\n", "2.........\n..........\n")
    return file(tmp_path, "dungeon-compact.toml", text)


CASES = {
    # numbers past the 4,300-digit limit, and deep nesting, in every reader of files
    "check-map: a 5,000-digit width": (
        lambda t: ["check-map", file(t, "dungeon-compact.toml", GOOD_MAP.replace("width = 10", f"width = {DIGITS}"))],
        "line 11: a number of thousands of digits; numbers here have at most 18 digits"),
    "check-map: a 30-digit width": (
        lambda t: ["check-map", file(t, "dungeon-compact.toml", GOOD_MAP.replace("width = 10", "width = " + "9" * 30))],
        "map.width: a number of 30 digits; numbers here have at most 18 digits"),
    "replay: a 5,000-digit time": (
        lambda t: ["replay", file(t, "log.jsonl", f'{{"t": {DIGITS}, "square": "e2", "occupied": false}}\n')],
        "log.jsonl, line 1: a number of 5000 digits; numbers here have at most 18 digits"),
    "replay: a deeply nested line": (
        lambda t: ["replay", file(t, "log.jsonl", '{"t": 1, "square": ' + "[" * 5000 + "\n")],
        "log.jsonl, line 1: values nested more than 16 levels deep"),
    "verify-dice: a 5,000-digit number": (
        lambda t: ["verify-dice", file(t, "dice.jsonl", f'{{"type": "header", "version": {DIGITS}}}\n')],
        "dice.jsonl line 1: a number of 5000 digits"),
    "verify-dice: NaN": (
        lambda t: ["verify-dice", file(t, "dice.jsonl", '{"type": "header", "version": NaN}\n')],
        "dice.jsonl line 1: NaN is not a JSON number"),
    "moves: a 5,000-digit FEN move number": (
        lambda t: ["moves", "--fen", f"4k3/8/8/8/8/8/8/4K3 w - - 0 {DIGITS}"],
        "FEN move counters: the move number: expected a whole number from 1 to 1000000"),
    "perft: a 5,000-digit halfmove count": (
        lambda t: ["perft", "--depth", "1", "--fen", f"4k3/8/8/8/8/8/8/4K3 w - - {DIGITS} 1"],
        "FEN move counters: the halfmove count: expected a whole number from 0 to 1000000"),
    "moves: a non-ASCII digit in a FEN": (
        lambda t: ["moves", "--fen", "4k3/8/8/8/8/8/8/4K2\u00b2 w - - 0 1"],
        "is not a piece letter"),
    "moves: a 5,000-digit empty-square count (extended format)": (
        lambda t: ["moves", "--variant", "dungeon", "--fen", f"{DIGITS}/10/10/10/10/10/10/10/10/10 1"],
        "row 1 (rank 10): empty squares: expected a whole number from 0 to 10"),
    "moves: a 5,000-digit piece state": (
        lambda t: ["moves", "--variant", "dungeon", "--fen", f"(2KN:hex={DIGITS})9/10/10/10/10/10/10/10/10/(1KN)9 1"],
        "piece state hex: expected a whole number"),
    "moves: a deeply nested position variable": (
        lambda t: ["moves", "--variant", "dungeon", "--fen",
                   "(2KN)9/10/10/10/10/10/10/10/10/(1KN)9 1 out=" + "[" * 5000],
        "variable out: values nested more than 16 levels deep"),
    "moves: 5,000-digit fatigue": (
        lambda t: ["moves", "--variant", "combat", "--fen", f"4k3/8/8/8/8/8/8/4K3 w - - 0 1 fatigue=e1:{DIGITS}"],
        "expected a whole number from 0 to 999"),
    "moves: a 5,000-digit square": (
        lambda t: ["moves", "--variant", "combat", "--fen", f"4k3/8/8/8/8/8/8/4K3 w - - 0 1 fatigue=e{DIGITS}:1"],
        "is not a square name"),
    "odds: 5,000-digit fatigue": (
        lambda t: ["odds", "--attacker", "Q", "--defender", "P", "--attacker-fatigue", DIGITS],
        "fatigue is a count of tokens: expected a whole number from 0 to 999"),
    # depths and counts out of range, options in the wrong place
    "perft --depth past the limit": (lambda t: ["perft", "--depth", "100000"],
                                     "--depth: expected a whole number from 0 to 20, got 100000"),
    "perft --depth of 5,000 digits": (lambda t: ["perft", "--depth", DIGITS],
                                      "--depth: expected a whole number from 0 to 20"),
    "ai-match --max-plies -4": (lambda t: ["ai-match", "--a", "1", "--b", "random", "--max-plies", "-4"],
                                "--max-plies: expected a whole number from 1 to 100,000, got -4"),
    "ai-match --games of 5,000 digits": (lambda t: ["ai-match", "--a", "1", "--b", "random", "--games", DIGITS],
                                         "--games: expected a whole number from 1 to 100,000"),
    "ai-match --movetime inf": (lambda t: ["ai-match", "--a", "1", "--b", "random", "--movetime", "inf"],
                                "--movetime: expected a number more than 0"),
    "firmware-sim --seconds -1": (lambda t: ["firmware-sim", "--seconds", "-1"],
                                  "--seconds: expected a number from 0 to 604800, got '-1'"),
    "--profile before a command": (lambda t: ["--profile", "gpio-8x8", "moves"],
                                   "--profile opens the app on a board and does not go with the 'moves' command"),
    "--serial before a command": (lambda t: ["--serial", "/dev/ttyACM0", "perft", "--depth", "1"],
                                  "--serial opens the app on a board and does not go with the 'perft' command"),
    "--profile with a 5,000-digit number": (
        lambda t: ["--profile", file(t, "board.toml", f"[board]\nwidth = {DIGITS}\n")],
        "board.toml, line 2: a number of thousands of digits"),
    # maps that load but cannot be played
    "check-map: void rows across the middle": (
        lambda t: ["check-map", cut_map(t)],
        "square a1 of player 1's spawn zone cannot reach player 2's spawn zone (from a9)"),
    "check-map: a spawn zone that cannot hold an army": (
        lambda t: ["check-map", small_zone_map(t)],
        "player 2's spawn zone (a10) has 1 floor square; expected at least 2"),
    "ai-match on a map whose players cannot meet": (
        lambda t: ["ai-match", "--variant", "dungeon", "--map", cut_map(t), "--a", "1", "--b", "random",
                   "--nodes", "10"],
        "cannot reach player 2's spawn zone"),
    # inputs that never end (issue 26): each file read stops at its bound, with one line
    "verify-dice /dev/zero": (lambda t: ["verify-dice", "/dev/zero"],
                              "/dev/zero: longer than 16 MB; a dice record is at most 16 MB"),
    "replay /dev/zero": (lambda t: ["replay", "--variant", "chess", "/dev/zero"],
                         "/dev/zero: longer than 32 MB; a sensor log is at most 32 MB"),
    "pgn /dev/zero": (lambda t: ["pgn", "/dev/zero"],
                      "pgn: /dev/zero: no game in it (line 1: a line of more than 1 MB"),
    "check-map on a map past its bound": (lambda t: ["check-map", file(t, "big.toml", GOOD_MAP + "#" * 1024 ** 2)],
                                          "big.toml: longer than 1 MB; a map is at most 1 MB"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_every_hostile_input_is_one_clear_line(tmp_path, capsys, case):
    argv, words = CASES[case]
    line = one_line(capsys, argv(tmp_path))
    assert words in line, line
    assert len(line) < 400, line  # not the 5,000 digits echoed back


@pytest.mark.parametrize("argv", [
    # each case is in CASES above, in process; a process each costs Python and the package's
    # start: the quick loop keeps the one that read on forever, the whole suite all four
    pytest.param(["moves", "--fen", f"4k3/8/8/8/8/8/8/4K3 w - - 0 {DIGITS}"], marks=pytest.mark.slow),
    pytest.param(["perft", "--depth", "100000"], marks=pytest.mark.slow),
    pytest.param(["--profile", "gpio-8x8", "moves"], marks=pytest.mark.slow),
    ["pgn", "/dev/zero"],  # it read on forever past its 64 MB
])
def test_a_real_process_prints_no_traceback_either(argv):
    done = subprocess.run([sys.executable, "-m", "companion", *argv], cwd=ROOT, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr, done.stderr
