"""``companion firmware-sim``: the parser, the stdin commands and the run loop."""

import argparse
import io
import os

import pytest

from companion.board import firmware_sim
from companion.board.firmware_sim import FirmwareSim, _command, add_parser, run


def parse(*argv):
    parser = argparse.ArgumentParser(prog="companion")
    add_parser(parser.add_subparsers(dest="command"))
    return parser.parse_args(["firmware-sim", *argv])


def test_defaults_are_an_8x8_chess_setup_until_quit():
    args = parse()
    assert (args.size, args.seconds, args.setup, args.func) == ((8, 8), 0, "chess", run)


def test_size_is_width_by_height():
    assert parse("--size", "20x12").size == (20, 12)


@pytest.mark.parametrize("size, problem", [("20", "not WIDTHxHEIGHT"), ("30x30", "5..26")])
def test_a_bad_size_is_refused_with_the_expected_form(size, problem, capsys):
    with pytest.raises(SystemExit):
        parse("--size", size)
    assert problem in capsys.readouterr().err


def test_run_prints_the_device_path_and_obeys_commands_on_stdin():
    read_fd, write_fd = os.pipe()
    os.write(write_fd, b"e2\nmove e2 e4\nquit\n")
    os.close(write_fd)
    out = io.StringIO()
    with os.fdopen(read_fd) as stdin:
        assert run(parse("--setup", "empty", "--seconds", "5"), stdin=stdin, out=out) == 0
    text = out.getvalue()
    assert "start the app with: companion --serial " in text
    assert "occupied: e2" in text and "occupied: e4" in text


def test_run_stops_after_the_given_seconds_when_stdin_is_closed():
    read_fd, write_fd = os.pipe()
    os.close(write_fd)
    out = io.StringIO()
    with os.fdopen(read_fd) as stdin:
        assert run(parse("--seconds", "0.2"), stdin=stdin, out=out) == 0
    assert "simulated 8x8 board on" in out.getvalue()


def test_stdin_commands_report_errors_without_stopping():
    with FirmwareSim(8, 8) as sim:
        out = io.StringIO()
        assert _command(sim, "z9", out) is True
        assert "not a square name" in out.getvalue() or "off this" in out.getvalue()
        assert _command(sim, "dance now please", out) is True
        assert "commands:" in out.getvalue()
        assert _command(sim, "leds", out) is True
        assert "no square is lit" in out.getvalue()
        assert _command(sim, "quit", out) is False


def test_the_chess_setup_fills_two_ranks_per_side():
    assert firmware_sim._initial_squares("chess", 8, 8) == list(range(16)) + list(range(48, 64))
    assert firmware_sim._initial_squares("empty", 8, 8) == []


@pytest.mark.parametrize("signal_name", ["SIGTERM", pytest.param("SIGHUP", marks=pytest.mark.slow)])
def test_a_stop_signal_removes_the_temporary_folder(signal_name):
    """`companion firmware-sim` stopped with SIGTERM used to leave /tmp/companion-sim-* behind."""
    import signal
    import subprocess
    import sys
    from pathlib import Path

    process = subprocess.Popen([sys.executable, "-m", "companion", "firmware-sim"], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, text=True, env=dict(os.environ))
    try:
        first = process.stdout.readline()
        assert first.startswith("simulated 8x8 board on "), first
        folder = Path(first.split(" on ")[1].split(" (pty")[0]).parent
        assert folder.is_dir() and process.stdout.readline().startswith("start the app with")
        process.send_signal(getattr(signal, signal_name))
        assert process.wait(timeout=10) == 0
        assert not folder.exists()
    finally:
        if process.poll() is None:
            process.kill()
        process.stdin.close()
        process.stdout.close()
