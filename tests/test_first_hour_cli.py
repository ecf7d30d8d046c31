"""A newcomer's first hour on the command line: every mistake is one clear line, said before
any window opens; every option explains itself."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tomllib
import types

import pytest

from companion.board.serial_ports import check_port, data_ports, describe_ports
from companion.cli import build_parser, main
from companion.errors import HardwareError
from companion.games import GAMES
from tests.conftest import ROOT


def ports(*pairs):
    return lambda: [types.SimpleNamespace(device=d, interface=i, description="n/a") for d, i in pairs]


# ----- the serial port --------------------------------------------------------------------------


def test_a_serial_device_that_does_not_exist_is_refused_naming_the_ports_that_do():
    here = ports(("/dev/ttyS0", None), ("/dev/ttyACM0", "CircuitPython CDC control"))
    with pytest.raises(HardwareError) as caught:
        check_port("/dev/nonexistent", here, exists=lambda p: False)
    assert str(caught.value) == ("--serial /dev/nonexistent: no such serial device; serial ports here: /dev/ttyACM0 "
                                 "(CircuitPython CDC control), /dev/ttyS0; give one of them, or --serial auto to find "
                                 "the board by its USB name")


def test_serial_auto_without_a_board_is_refused_and_says_there_is_no_port():
    with pytest.raises(HardwareError) as caught:
        check_port("auto", ports(), exists=lambda p: False)
    assert str(caught.value) == ("--serial auto: no board found (no port is a CircuitPython data port, USB interface "
                                 "'CircuitPython CDC2 data', hardware/FIRMWARE.md); this machine has no serial port "
                                 "(is the board plugged in by USB?)")


def test_a_port_that_may_not_be_opened_says_how_to_be_allowed():
    with pytest.raises(HardwareError, match=r"not allowed to open it \(add yourself to the 'dialout' group"):
        check_port("/dev/ttyACM0", ports(), exists=lambda p: True, usable=lambda p: False)


def test_a_path_that_is_not_a_serial_port_is_refused_in_one_line(tmp_path):
    """Issue 26: ``--serial <a folder>`` and ``--serial /dev/null`` started the app without a
    word. A folder, a file and a device that is no terminal are refused, also when the app
    would wait for the board (they can never become one); a real terminal (a pty) passes."""
    here = ports(("/dev/ttyACM0", "CircuitPython CDC2 data"))
    afile = tmp_path / "notes.txt"
    afile.write_text("x")
    for path, what in ((tmp_path, "a folder"), (afile, "a file"), ("/dev/null", "a device of another kind")):
        for wait in (False, True):
            with pytest.raises(HardwareError) as caught:
                check_port(str(path), here, wait=wait)
            assert str(caught.value) == (f"--serial {path}: this is {what}, not a serial port; serial ports here: "
                                         f"/dev/ttyACM0 (CircuitPython CDC2 data); give one of them, or --serial auto "
                                         f"to find the board by its USB name")
    controller, terminal = os.openpty()
    try:
        check_port(os.ttyname(terminal), here)
    finally:
        os.close(controller)
        os.close(terminal)
    check_port("/dev/nonexistent", here, wait=True)  # waiting for it: it may come


def test_a_board_that_is_there_passes():
    board = ports(("/dev/ttyACM1", "CircuitPython CDC2 data"))
    check_port("auto", board)
    check_port("/dev/ttyACM1", board, exists=lambda p: True, usable=lambda p: True)
    check_port("loop://", ports())  # a pyserial URL is the caller's business
    assert data_ports(board) == ["/dev/ttyACM1"]
    assert describe_ports(board) == "serial ports here: /dev/ttyACM1 (CircuitPython CDC2 data)"


def app_run(*argv: str, **env: str) -> subprocess.CompletedProcess:
    """``companion`` as a person starts it (no display: nothing may get as far as a window)."""
    environment = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    environment.update(env, PYTHONPATH=str(ROOT), COMPANION_DATA=env.get("COMPANION_DATA", "/nonexistent/data"))
    environment.pop("KIVY_NO_CONSOLELOG", None)
    return subprocess.run([sys.executable, "-m", "companion", *argv], capture_output=True, text=True, timeout=60,
                          env=environment, cwd=ROOT)


APP_ERRORS = [
    (["--serial", "/dev/nonexistent"], {}, "companion: --serial /dev/nonexistent: no such serial device; "),
    (["--serial", "/dev/null"], {}, "companion: --serial /dev/null: this is a device of another kind, not a serial "
                                    "port; "),
    (["--serial", "/tmp"], {}, "companion: --serial /tmp: this is a folder, not a serial port; "),
    (["--profile", "nosuch"], {}, "companion: no board profile named 'nosuch' (shipped: "),
    ([], {"COMPANION_WINDOW": "abc"}, "companion: COMPANION_WINDOW must look like 800x480, got 'abc'"),
    ([], {"COMPANION_WINDOW": "8x4"}, "companion: COMPANION_WINDOW '8x4': each side must be 100 to 10000 pixels"),
    ([], {"KIVY_LOG_LEVEL": "loud"}, "companion: KIVY_LOG_LEVEL must be one of trace, debug, info, warning, error, "
                                     "critical, got 'loud'"),
]


@pytest.mark.parametrize("argv, env, line", [
    pytest.param(*case, marks=[] if n == 0 else [pytest.mark.slow]) for n, case in enumerate(APP_ERRORS)])
def test_app_errors_are_the_first_and_only_line_before_kivy_starts(argv, env, line):
    """A real process (each one starts Python and the package: the quick loop keeps the first,
    the test below says every line in process)."""
    done = app_run(*argv, **env)
    assert done.returncode == 2 and done.stdout == ""
    assert len(done.stderr.splitlines()) == 1 and done.stderr.startswith(line), done.stderr


@pytest.mark.parametrize("argv, env, line", APP_ERRORS)
def test_app_errors_are_one_line_and_exit_2_before_any_window(argv, env, line, capsys, monkeypatch, tmp_path):
    """The same mistakes through ``main`` in this process: exit 2, nothing on stdout, the one
    line on stderr; the app never gets as far as its presenters or a window."""
    from companion.app import bootstrap
    from companion.app import main as app_main

    def no_further(*_args, **_kwargs):
        raise AssertionError("the mistake was not refused: the app went on to build its presenters")

    monkeypatch.setattr(bootstrap, "build_presenters", no_further)
    monkeypatch.setattr(app_main, "configure_window", no_further)
    monkeypatch.setenv("KIVY_HOME", str(tmp_path))  # (logging's set-up prunes Kivy's log folder)
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "KIVY_LOG_LEVEL", "KCFG_KIVY_LOG_LEVEL", "KCFG_KIVY_LOG_MAXFILES",
                 "COMPANION_WINDOW"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("COMPANION_DATA", "/nonexistent/data")
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    code = main(argv)
    out = capsys.readouterr()
    assert code == 2 and out.out == ""
    assert len(out.err.splitlines()) == 1 and out.err.startswith(line), out.err


def test_kivy_logs_warnings_only_unless_asked(monkeypatch, tmp_path):
    from companion.app.main import configure_logging

    monkeypatch.setenv("KIVY_HOME", str(tmp_path))  # (it prunes Kivy's log folder: not the user's)
    monkeypatch.delenv("KIVY_LOG_LEVEL", raising=False)
    for name in ("KCFG_KIVY_LOG_LEVEL", "KCFG_KIVY_LOG_MAXFILES"):  # what it sets: restored after the test
        monkeypatch.delenv(name, raising=False)
    configure_logging()
    assert os.environ["KCFG_KIVY_LOG_LEVEL"] == "warning"
    configure_logging(verbose=True)
    assert os.environ["KCFG_KIVY_LOG_LEVEL"] == "info"
    monkeypatch.setenv("KIVY_LOG_LEVEL", "debug")
    configure_logging()
    assert os.environ["KCFG_KIVY_LOG_LEVEL"] == "debug"


# ----- every option explains itself ---------------------------------------------------------------


def _options(parser: argparse.ArgumentParser, path: str):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _options(sub, f"{path} {name}")
        elif not isinstance(action, argparse._HelpAction):
            yield path, action


def test_every_option_of_every_command_has_a_help_line():
    missing = [f"{path} {'/'.join(a.option_strings) or a.dest}" for path, a in _options(build_parser(), "companion")
               if not (a.help or "").strip()]
    assert not missing


def test_every_variant_option_lists_every_game():
    variants = [(path, a) for path, a in _options(build_parser(), "companion") if "--variant" in a.option_strings]
    assert {path for path, _ in variants} >= {"companion perft", "companion moves", "companion replay",
                                              "companion ai-match"}
    for path, action in variants:
        for game in GAMES.values():
            assert f"{game.name} ({game.title})" in action.help, (path, game.name)


def test_bench_only_with_no_match_says_so_and_lists_the_figures(capsys):
    assert main(["bench", "--only", "nomatch"]) == 2
    err = capsys.readouterr().err
    from companion.bench import BENCHES

    names = ", ".join(name for name, _ in BENCHES)
    assert "ai" in names and err == f"companion: bench --only 'nomatch': no figure's name contains it; the figures are {names}\n"


def test_the_license_is_an_spdx_expression_not_the_deprecated_table():
    """setuptools 77+ warns at every install about `license = { text = ... }`."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert project["project"]["license"] == "MIT"
    assert "setuptools>=77" in project["build-system"]["requires"]


def test_at_boot_the_app_may_wait_for_its_board_instead_of_refusing(tmp_path, monkeypatch):
    """The service starts the app before the board may be there: --wait-for-board skips the
    refusal; the screen says the board is not connected until it comes."""
    from companion.app import bootstrap

    monkeypatch.setenv("COMPANION_DATA", str(tmp_path))
    with pytest.raises(HardwareError, match="no such serial device"):
        bootstrap.build_flow_for(serial=str(tmp_path / "ttyACM9"))
    flow = bootstrap.build_flow_for(serial=str(tmp_path / "ttyACM9"), wait=True)
    flow.board.link.sensors.stop()


@pytest.mark.parametrize("argv, words", [
    (["--wait-for-board"], "--wait-for-board waits for the board of --serial (or of a --profile): give one of them too"),
    (["--verbose", "perft", "--depth", "1"], "--verbose is for the app and does not go with the 'perft' command"),
])
def test_app_options_out_of_place_are_one_line(capsys, argv, words):
    with pytest.raises(SystemExit):
        main(argv)
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1
