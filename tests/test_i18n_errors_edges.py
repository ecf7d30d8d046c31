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



# ----- board profiles and devices ---------------------------------------------------------------------
GPIO_PROFILE = (ROOT / "hardware" / "profiles" / "gpio-8x8.toml").read_text()


@pytest.mark.parametrize("old, new, words", [
    ("rotation = 0", "rotation = 0\ncolour = 1", ("unbekannter Schlüssel 'colour' in [leds]", "hier erlaubt")),
    ("count = 64", "count = 3", ("[leds] count: erwartet wird eine ganze Zahl von 64 bis 4096",
                                 "(mindestens eine LED pro Feld: 64), nicht 3")),
    ("columns = [4, 17, 27, 22, 23, 24, 25, 12]", "columns = [4, 17, 27, 22, 23, 24, 25, 5]",
     ("GPIO5 wird doppelt benutzt, von [matrix] rows (Reihe 1) und von [matrix] columns (Linie 8)",)),
    ('link = "gpio"', 'link = "gpio"\n[serial]\nport = "x"',
     ('[serial] gehört nicht in dieses Profil: es ist für Bretter mit link = "serial"',)),
    ("[matrix]", "[matrixx]", ("ein gpio-Brett braucht genau eines von [matrix]",)),
    ("width = 8", "width = true", ("[board] width: erwartet wird eine ganze Zahl von 5 bis 26, nicht true",)),
    ("rows = [5, 6, 13, 19, 26, 16, 20, 21]", "rows = [5, 6]",
     ("[matrix] rows: erwartet wird eine Liste mit 8 GPIO-Nummern", "Reihe 1 zuerst; das Brett ist 8 hoch")),
])
def test_a_bad_board_profile_is_one_german_line_naming_file_key_and_value(german, old, new, words):
    from companion.board.profiles import parse_profile
    from companion.errors import ProfileError

    assert old in GPIO_PROFILE
    line = german_line(raised(ProfileError, parse_profile, GPIO_PROFILE.replace(old, new, 1), "p.toml"), "p.toml", *words)
    assert line.startswith("p.toml")


def test_a_profile_that_is_not_there_in_german(german, tmp_path):
    from companion.board.profiles import load_profile
    from companion.errors import ProfileError

    line = german_line(raised(ProfileError, load_profile, "nope"), "'nope'", "gpio-8x8")
    assert line.startswith("kein Brettprofil namens 'nope' (mitgeliefert: ")
    bad = tmp_path / "bad.toml"
    bad.write_bytes(b"name = \"\xff\"\n")
    assert german_line(raised(ProfileError, load_profile, bad), str(bad)) == \
        f"{bad}: kein UTF-8-Text (Byte 8); speichere das Profil als UTF-8"


def test_a_bad_profile_on_the_command_line_is_german_exit_2(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text(GPIO_PROFILE.replace("width = 8", "width = 99"))
    done = run_cli("--profile", str(bad))
    assert done.returncode == 2 and done.stdout == ""
    assert german_line(done.stderr, str(bad), "99") == \
        f"companion: {bad}: [board] width: erwartet wird eine ganze Zahl von 5 bis 26, nicht 99"


def test_a_serial_port_that_cannot_be_a_board_in_german(german, tmp_path):
    from companion.board.serial_ports import check_port
    from companion.errors import HardwareError

    none = lambda: []  # noqa: E731  (a machine without serial ports)
    line = german_line(raised(HardwareError, check_port, "/dev/ttyNOPE", none, exists=lambda p: False),
                       "--serial /dev/ttyNOPE")
    assert "kein solches serielles Gerät; dieser Rechner hat keinen seriellen Port" in line
    line = german_line(raised(HardwareError, check_port, str(tmp_path), none), str(tmp_path))
    assert "das ist ein Ordner, kein serieller Port" in line
    line = german_line(raised(HardwareError, check_port, "auto", none), "--serial auto")
    assert line.startswith("--serial auto: kein Brett gefunden")


@pytest.mark.parametrize("lines, code, said", [
    ('{"t": 10, "square": "e2", "occupied": false, "speed": 3}', 2, "{log}, Zeile 1: unbekannter Schlüssel 'speed'"),
    ('{"t": 10, "square": "e2", "occupied": false}\n{"t": 5, "square": "e2", "occupied": true}', 2,
     "{log}, Zeile 2: die Zeit 5 ms geht zurück (die Zeile davor war bei 10 ms)"),
    ('{"t": 10, "choose": "q"}', 2, "{log}, Zeile 1: keine Frage wartet auf eine Antwort"),
    ('{"t": 10, "square": 5, "occupied": false}', 2, '{log}, Zeile 1: ein Feld heißt wie "e2", nicht 5'),
    ('{"t": 10, "square": "e2", "occupied": false}', 1,
     "am Ende von {log} weicht das Brett von der Partie ab: besetze e2"),
])
def test_a_sensor_log_that_cannot_be_replayed_is_one_german_line(german, tmp_path, capsys, lines, code, said):
    from companion.cli import main

    log = tmp_path / "s.jsonl"
    log.write_text(lines + "\n")
    assert main(["replay", "--variant", "chess", str(log)]) == code
    assert german_line(capsys.readouterr().err) == "replay: " + said.format(log=log)


def test_replay_says_in_german_which_game_it_assumed(german, tmp_path, capsys):
    from companion.cli import main

    log = tmp_path / "s.jsonl"
    log.write_text('{"t": 10, "square": "e2", "occupied": false, "speed": 3}\n')
    assert main(["replay", str(log)]) == 2
    line = german_line(capsys.readouterr().err, str(log), "(chess)")
    assert "(kein --variant angegeben: " in line and "gib --variant chess | " in line
