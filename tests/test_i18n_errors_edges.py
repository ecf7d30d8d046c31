"""Issue 31: the errors of the edges speak the player's language (German here): argparse's own
words, the command line, the board profiles and devices, the linked boards, lichess, the
broadcast and the hall, speech and the app's settings. Each bad input is refused in one German
line with its values filled in; the exit codes stay what they are in English."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion.i18n import Language, use

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def german(monkeypatch):
    """The current language is German for the test (and for the CLI's main, which reads
    COMPANION_LANG), English again after it."""
    monkeypatch.setenv("COMPANION_LANG", "de")
    use(Language.load("de"))
    try:
        yield
    finally:
        use(Language.load("en"))


def german_line(text: str, *values: str) -> str:
    """``text`` is one line of German (no English error words) holding every value; returns it."""
    line = text.strip()
    assert "\n" not in line, line
    for english in (" is not ", " must ", " cannot ", " expected ", "unknown ", " give ", "error:", "usage:"):
        assert english not in line, f"English {english!r} in {line!r}"
    for value in values:
        assert value in line, f"{value!r} not in {line!r}"
    return line


def raised(error, call, *args, **kwargs) -> str:
    with pytest.raises(error) as info:
        call(*args, **kwargs)
    return str(info.value)


def run_cli(*argv: str, lang: str = "de") -> subprocess.CompletedProcess:
    env = dict(os.environ, COMPANION_LANG=lang, KIVY_NO_ARGS="1")
    return subprocess.run([sys.executable, "-m", "companion", *argv], capture_output=True, text=True, cwd=ROOT,
                          env=env, timeout=120)


# ----- argparse's own words -------------------------------------------------------------------------
def test_the_help_is_german_from_argparses_headings_to_the_commands():
    done = run_cli("--help")
    assert done.returncode == 0
    assert done.stdout.startswith("Aufruf: companion ")
    assert "Positionsargumente:" in done.stdout and "Optionen:" in done.stdout
    assert "diese Hilfe zeigen und beenden" in done.stdout
    assert "usage:" not in done.stdout and "show this help" not in done.stdout


def test_an_unknown_command_and_option_are_one_german_line_exit_2():
    done = run_cli("play", "--nonsense")
    assert done.returncode == 2 and done.stdout == ""
    line = german_line(done.stderr, "'play'", "'perft'")
    assert line.startswith("companion: Fehler: Argument COMMAND: ungültige Wahl: 'play' (möglich: ")
    done = run_cli("moves", "--nonsense")
    assert done.returncode == 2
    assert german_line(done.stderr, "--nonsense") == "companion: Fehler: unbekannte Argumente: --nonsense"


def test_a_missing_argument_and_a_missing_value_in_german(capsys, german):
    from companion.cli import main

    with pytest.raises(SystemExit) as stop:
        main(["perft"])
    assert stop.value.code == 2
    assert german_line(capsys.readouterr().err, "--depth") == "companion perft: Fehler: diese Argumente fehlen: --depth"
    with pytest.raises(SystemExit) as stop:
        main(["perft", "--depth", "1", "--fen"])
    assert stop.value.code == 2
    assert german_line(capsys.readouterr().err) == "companion perft: Fehler: Argument --fen: ein Wert fehlt"
    with pytest.raises(SystemExit):
        main(["perft", "--depth", "1", "--fights", "many"])
    assert "ungültige Wahl: 'many' (möglich: 'none', 'dice')" in german_line(capsys.readouterr().err)


def test_argparse_speaks_english_to_an_english_player(capsys):
    from companion.cli import main

    with pytest.raises(SystemExit):
        main(["perft"])
    assert capsys.readouterr().err == "companion perft: error: the following arguments are required: --depth\n"


def test_argparses_plural_follows_the_catalog(german):
    import argparse

    import companion.cli_parser  # noqa: F401  (the hook)

    assert argparse.ngettext("expected %s argument", "expected %s arguments", 2) % 2 == "2 Werte erwartet"
    assert argparse._("usage: ") == "Aufruf: "
    assert argparse._(None) is None  # a parser without description


def test_the_d6_only_refusal_in_german(german):
    import argparse

    from companion.cli_parser import fight_options
    from companion.errors import DiceError

    line = raised(DiceError, fight_options, argparse.Namespace(fights=None, d6_only=True, variant="chess"))
    assert german_line(line, "--d6-only", "--fights dice") == "--d6-only ist eine Würfeloption: gib auch --fights dice an"
