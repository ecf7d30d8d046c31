"""The command line: outputs in the documented shapes, bad input -> exit 2 and one line."""

import subprocess
import sys

import pytest

from companion.cli import main
from tests.conftest import ROOT

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_perft_last_line_is_the_bare_count(capsys):
    code, out, _ = run(capsys, "perft", "--variant", "chess", "--depth", "3")
    assert code == 0 and out.strip().splitlines()[-1] == "8902"


def test_perft_divide_sums_to_the_count(capsys):
    code, out, _ = run(capsys, "perft", "--variant", "chess", "--fen", KIWIPETE, "--depth", "2", "--divide")
    lines = out.strip().splitlines()
    assert lines[-1] == "2039"
    parts = [line.split(": ") for line in lines[:-1] if line]
    assert len(parts) == 48 and sum(int(n) for _, n in parts) == 2039


def test_moves_are_uci_one_per_line_with_promotions_and_castling(capsys):
    code, out, _ = run(capsys, "moves", "--variant", "chess", "--fen", "r3k3/1P6/8/8/8/8/8/R3K2R w KQq - 0 1")
    moves = out.split()
    assert code == 0
    assert {"e1g1", "e1c1", "b7b8q", "b7b8n", "b7a8r"} <= set(moves)
    assert all(len(m) in (4, 5) for m in moves)


@pytest.mark.parametrize("variant,fen,words", [
    ("chess2", "k7/8/8/4K3/8/8/8/8 b - - 0 1", "White won (Midline Invasion)"),
    ("chess", "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", "White won (checkmate)"),
    ("chess", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "a draw (stalemate)"),
    ("kol", "9B2/8k3/12/12/12/12/12/12/12/12/2K9/12 2", "Blue won (all three Legends captured)"),
])
def test_moves_of_a_position_whose_game_is_over_say_so_in_one_line(capsys, variant, fen, words):
    """It used to print nothing and exit 0. stdout stays one move a line (none here)."""
    code, out, err = run(capsys, "moves", "--variant", variant, "--fen", fen)
    assert (code, out) == (0, "")
    assert err == f"companion: the game is over in this position: {words}\n"


def test_moves_of_a_dead_position_list_the_moves_and_say_the_game_is_over(capsys):
    code, out, err = run(capsys, "moves", "--fen", "7k/8/6K1/8/8/8/8/8 b - - 0 1")
    assert (code, out.split()) == (0, ["h8g8"])
    assert err == "companion: the game is over in this position: a draw (insufficient material)\n"


@pytest.mark.parametrize("argv,words", [
    (["moves", "--fen", "not a fen"], "FEN has 3 fields"),
    (["moves", "--variant", "nope"], "unknown variant 'nope'"),
    (["perft", "--depth", "x"], "--depth: expected a whole number from 0 to 20, got 'x'"),
    (["perft", "--depth", "-1"], "--depth: expected a whole number from 0 to 20, got -1"),
    (["moves", "--fen", "8/8/8/8/8/8/8/8 w - - 0 1"], "white must have exactly one king"),
    (["perft", "--variant", "x", "--depth", "1"], "unknown variant 'x'"),
    (["nope"], "invalid choice: 'nope'"),
])
def test_bad_input_exits_2_with_one_line(capsys, argv, words):
    code, out, err = run_or_exit(capsys, *argv)
    assert code == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1 and words in err


def run_or_exit(capsys, *argv):
    """``run``, counting an exit of the argument parser as a return."""
    try:
        code = main(list(argv))
    except SystemExit as e:
        code = e.code
    out = capsys.readouterr()
    return code, out.out, out.err


# a process each (Python and the package started): the quick loop keeps the first, the whole suite
# runs all three; test_bad_input_exits_2_with_one_line says such lines in process
@pytest.mark.parametrize("argv", [["moves", "--fen", "garbage"],
                                  pytest.param(["perft", "--variant", "x", "--depth", "1"], marks=pytest.mark.slow),
                                  pytest.param(["nope"], marks=pytest.mark.slow)])
def test_real_process_never_prints_a_traceback(argv):
    r = subprocess.run([sys.executable, "-m", "companion", *argv], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 2, argv
    assert "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr


#: What no command line needs to be read: the network (aiohttp, the link's sockets and crypto), the
#: hardware and the window, the session, the tracker, the announcer and the search. Each command
#: imports its own when it runs (docs/architecture.md, "The command line starts light").
HEAVY = ("aiohttp", "asyncio", "serial", "kivy", "gpiozero", "numpy", "spake2", "cryptography",
         "companion.online.client", "companion.link.transport", "companion.speech.announcer", "companion.session",
         "companion.board.tracker", "companion.ai.search", "companion.ai.evaluate", "companion.app")


def test_the_parser_and_moves_import_nothing_heavy():
    """A fresh process (what is imported there is the point): the whole parser built, then
    ``companion moves`` run, and none of HEAVY loaded."""
    code = ("import contextlib, io, sys\n"
            "import companion.cli as cli\n"
            "cli.build_parser()\n"
            "with contextlib.redirect_stdout(io.StringIO()) as out:\n"
            "    assert cli.main(['moves']) == 0\n"
            "assert len(out.getvalue().split()) == 20, out.getvalue()\n"
            f"print(' '.join(m for m in {HEAVY!r} if m in sys.modules))\n")
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == [], f"imported to build the parser or by moves: {r.stdout.strip()}"


def test_every_command_has_help(capsys):
    """In this process (the real process is test_real_process_never_prints_a_traceback's)."""
    code, out, _ = run_or_exit(capsys, "--help")
    assert code == 0
    for cmd in ("perft", "moves", "bench"):
        assert cmd in out
        code, h, _ = run_or_exit(capsys, cmd, "--help")
        assert code == 0 and "usage:" in h


def test_bench_quick_reports_ratio_against_python_chess(capsys):
    code, out, _ = run(capsys, "bench", "--quick", "--only", "perft")
    assert code == 0
    ratios = [line for line in out.splitlines() if "ratio ours/python-chess" in line]
    assert len(ratios) == 2
    assert all(float(line.split()[-2]) > 0 for line in ratios)


def test_an_empty_fen_is_an_error_not_the_start_position(capsys):
    code, out, err = run(capsys, "moves", "--fen", "")
    assert code == 2 and "--fen is empty" in err and out == ""
