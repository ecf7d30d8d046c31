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


def test_an_unknown_command_and_option_are_one_german_line_exit_2(cli_main):
    done = cli_main("play", "--nonsense", lang="de")
    assert done.returncode == 2 and done.stdout == ""
    line = german_line(done.stderr, "'play'", "'perft'")
    assert line.startswith("companion: Fehler: Argument COMMAND: ungültige Wahl: 'play' (möglich: ")
    done = cli_main("moves", "--nonsense", lang="de")
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


def test_a_bad_profile_on_the_command_line_is_german_exit_2(tmp_path, cli_main):
    bad = tmp_path / "bad.toml"
    bad.write_text(GPIO_PROFILE.replace("width = 8", "width = 99"))
    done = cli_main("--profile", str(bad), lang="de")
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


# ----- linked boards ----------------------------------------------------------------------------------
@pytest.mark.parametrize("call, args, said", [
    ("code", ("12-34",), "ein Kopplungscode hat 8 Ziffern; getippt wurden 4"),
    ("code", ("1",), "ein Kopplungscode hat 8 Ziffern; getippt wurde 1"),
    ("code", ("12ab5678",), "ein Kopplungscode hat nur Ziffern (8 Stück), nicht '12ab5678'"),
    ("broker", ("http://x",), "--broker 'http://x': ein Broker ist mqtt://host:port oder mqtts://host:port"),
    ("broker", ("mqtt://h:1883/p",), "--broker 'mqtt://h:1883/p': eine Broker-Adresse hat keinen Pfad"),
])
def test_a_pairing_code_or_broker_that_cannot_be_used_in_german(german, call, args, said):
    from companion.errors import LinkError
    from companion.link.code import PairingCode
    from companion.link.transport import parse_broker

    function = {"code": PairingCode.parse, "broker": parse_broker}[call]
    assert german_line(raised(LinkError, function, *args)) == said


def test_the_links_requests_refuse_in_german(german):
    from companion.errors import LinkError
    from companion.link.lobby import LinkSeat, Proposal

    seats = (LinkSeat("Ann", 0), LinkSeat("Bob", 1))
    line = raised(LinkError, Proposal, "chess", seats, "g1", first=5)
    assert german_line(line, "5") == "der erste Spieler ist ein Platz von 0 bis 1 oder gelost, nicht 5"
    line = raised(LinkError, Proposal, "chess", (LinkSeat("Ann", 0), LinkSeat("Bob", 0)), "g1")
    assert german_line(line) == "jedes Brett braucht mindestens einen Platz der Partie"
    line = raised(LinkError, Proposal, "go", seats, "g1")
    assert german_line(line) == "unbekanntes Spiel 'go'"


# ----- lichess ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("call, args, kwargs, said", [
    ("seek", (3, 0), {}, "3+0 ist blitz: lichess lässt ein Brett nur rapid- oder classical-Partien suchen "
                         "(oder Fernschach)"),
    ("seek_correspondence", (4,), {}, "4 Tage: Fernpartien auf lichess geben 1, 2, 3, 5, 7, 10, 14 Tage pro Zug"),
    ("challenge", ("someone",), {"limit_s": 17, "increment_s": 0},
     "17 s: die Uhr einer Herausforderung beginnt bei 0, 15, 30, 45, 60, 90 s oder ganzen Minuten bis 3 Stunden"),
    ("decline", ("AbCd1234", "bored"), {}, "'bored' ist kein Ablehnungsgrund, den lichess kennt"),
    ("move", ("AbCd1234", "e2e9x"), {}, "'e2e9x' ist nicht gültig als lichess-Zug (UCI)"),
])
def test_a_request_lichess_would_refuse_is_refused_in_german(german, call, args, kwargs, said):
    from companion.errors import OnlineError
    from companion.online import api

    assert german_line(raised(OnlineError, getattr(api, call), *args, **kwargs)) == said


def test_a_token_file_that_cannot_be_used_in_german(german, tmp_path):
    from companion.errors import OnlineError
    from companion.online.token import read_token

    missing = tmp_path / "none.token"
    assert german_line(raised(OnlineError, read_token, missing)).startswith(f"{missing}: keine solche Token-Datei (")
    shared = tmp_path / "shared.token"
    shared.write_text("lip_abc\n")
    shared.chmod(0o644)
    assert german_line(raised(OnlineError, read_token, shared)) == \
        f"{shared}: andere Benutzer können diese Token-Datei lesen (Modus 644); mach sie nur für dich lesbar: " \
        f"chmod 600 {shared}"
    empty = tmp_path / "empty.token"
    empty.write_text("")
    empty.chmod(0o600)
    assert german_line(raised(OnlineError, read_token, empty)) == f"{empty}: leer; eine Token-Datei enthält ein Token"
    two = tmp_path / "two.token"
    two.write_text("lip_a\nlip_b\n")
    two.chmod(0o600)
    assert german_line(raised(OnlineError, read_token, two)) == \
        f"{two}: mehr als eine Zeile; eine Token-Datei enthält ein Token"


def test_lichess_check_with_a_shared_token_file_is_german_on_stderr_exit_2(tmp_path, cli_main):
    shared = tmp_path / "shared.token"
    shared.write_text("lip_abc\n")
    shared.chmod(0o644)
    done = cli_main("lichess", "check", "--token-file", str(shared), lang="de")
    assert done.returncode == 2 and done.stdout == ""
    assert german_line(done.stderr, str(shared)).startswith(f"companion: {shared}: andere Benutzer können ")


# ----- broadcast and the hall -----------------------------------------------------------------------
@pytest.mark.parametrize("text, said", [
    ("host:99999", "'host:99999': der Port muss eine Zahl von 0 bis 65535 sein ([HOST:]PORT, z. B. 8080)"),
    ("", "eine Adresse ist [HOST:]PORT, z. B. 8080 oder 192.168.1.20:8080"),
    ("a b:80", "'a b:80': 'a b' ist kein Rechnername und keine Adresse"),
])
def test_a_broadcast_address_that_cannot_be_served_in_german(german, text, said):
    from companion.broadcast.web import parse_address
    from companion.errors import BroadcastError

    assert german_line(raised(BroadcastError, parse_address, text)) == said


def test_a_hall_board_address_and_a_bad_broadcast_option_in_german(cli_main):
    done = cli_main("hall", "--board", "ftp://x", lang="de")
    assert done.returncode == 2
    assert german_line(done.stderr) == "companion: 'ftp://x': Bretter werden über http:// erreicht"
    done = cli_main("--broadcast", "99999", lang="de")
    assert done.returncode == 2
    assert german_line(done.stderr, "'99999'").startswith("companion: '99999': der Port muss eine Zahl")


def test_what_a_board_sends_the_hall_is_refused_in_german(german):
    import json

    from companion.broadcast.board_copy import read_board_event
    from companion.errors import BroadcastError

    line = raised(BroadcastError, read_board_event, json.dumps({"format": 99}), 0)
    assert german_line(line, "'99'").startswith("das Brett spricht Format '99'; dieser Saal liest ")
    assert german_line(raised(BroadcastError, read_board_event, "[1]", 0)) == \
        "das Brett hat JSON geschickt, das kein Objekt ist"


# ----- speech, the board's settings, the app's environment -----------------------------------------
def test_speech_settings_and_the_board_settings_refuse_in_german(german):
    from companion.board_settings import BoardSettings
    from companion.errors import CompanionError
    from companion.speech.announcements import SpeechSettings

    assert german_line(raised(CompanionError, SpeechSettings, True, 101)) == \
        "Sprache: die Lautstärke ist eine ganze Zahl von 0 bis 100, nicht 101"
    assert german_line(raised(CompanionError, SpeechSettings.from_json, {"loud": 1})) == \
        "Spracheinstellungen: unbekannter Schlüssel loud"
    assert german_line(raised(CompanionError, SpeechSettings.from_json, {"loud": 1, "pitch": 2})) == \
        "Spracheinstellungen: unbekannte Schlüssel loud, pitch"
    line = raised(CompanionError, BoardSettings.from_json, {"language": "xx", "speech": {}})
    assert german_line(line, "'xx'").endswith(": keine Sprache 'xx'")


def test_the_apps_environment_is_checked_in_german(german, monkeypatch):
    from companion.app.backlight import dim_after_ms
    from companion.errors import CompanionError
    from companion.i18n import Language

    assert german_line(raised(CompanionError, dim_after_ms, {"COMPANION_DIM_AFTER": "soon"})) == \
        "COMPANION_DIM_AFTER muss eine Sekundenzahl von 0 (nie dimmen) bis 86400 sein, nicht 'soon'"
    assert german_line(raised(CompanionError, Language.load, "xx")) == "keine Sprache 'xx'; das Brett spricht: de, en"
    from companion.app.main import window_size

    monkeypatch.setenv("COMPANION_WINDOW", "9x9")
    assert german_line(raised(CompanionError, window_size)) == \
        "COMPANION_WINDOW '9x9': jede Seite muss 100 bis 10000 Pixel haben, z. B. 800x480"
    monkeypatch.setenv("COMPANION_WINDOW", "big")
    assert german_line(raised(CompanionError, window_size)) == "COMPANION_WINDOW muss wie 800x480 aussehen, nicht 'big'"


# ----- why the board's link went down (shown on the screen) -----------------------------------------
def test_why_the_serial_board_went_away_is_said_in_german(german):
    from companion.board.host_link import HostLink

    link = HostLink(8, 8, where="/dev/test", heartbeat_ms=500, timeout_ms=2000)
    link.opened(0)
    link.poll(0)
    (event,) = link.receive(b"soft reboot\r\n\r\nAuto-reload is on. Simply save files", 10)
    assert german_line(event.reason, "/dev/test", "'CircuitPython CDC2 data'").startswith(
        "/dev/test ist die CircuitPython-Konsole (REPL), nicht der Datenport: nimm den Port namens ")
    link = HostLink(8, 8, where="/dev/test", heartbeat_ms=500, timeout_ms=2000)
    link.opened(0)
    _out, events, _reopen = link.poll(2001)
    assert [german_line(e.reason, "/dev/test") for e in events] == [
        "keine Antwort vom Brett an /dev/test: ist das der CircuitPython-Datenport mit der companion-Firmware "
        "(hardware/FIRMWARE.md)?"]
    link = HostLink(8, 8, where="/dev/test")
    link.opened(0)
    assert [e.reason for e in link.closed(5)] == ["Brett getrennt"]


def test_the_halls_lichess_push_says_its_trouble_in_german(german):
    from companion.online.push import PushSchedule

    s = PushSchedule()
    s.changed('[Event "x"]\n\n1. e4 *\n')
    s.due(0)
    s.answered(429, "", 100)
    assert german_line(s.problem) == "lichess bittet, eine Minute zu warten (429)"
    s.due(60_100)
    s.answered(400, "", 60_200)
    assert german_line(s.problem) == "lichess hat die Runde abgelehnt (400): ohne Angabe von Gründen"
    s.changed('[Event "y"]\n\n1. d4 *\n')
    s.due(100_000)
    s.answered(None, "", 100_100)
    assert german_line(s.problem) == "lichess ist nicht erreichbar"


def test_what_lichess_answered_is_said_in_german(german):
    import asyncio

    from companion.online.client import error_words, network_words

    assert error_words(401, None) == "das Token ist ungültig (widerrufen oder kein lichess-Token)"
    assert error_words(503, None) == "lichess hat ein Problem (503); das Brett versucht es wieder"
    assert error_words(418, None) == "lichess antwortete 418"
    assert error_words(400, {"error": "Not your turn"}) == "Not your turn"  # lichess's own words, as it sent them
    assert network_words(asyncio.TimeoutError()) == "lichess hat nicht rechtzeitig geantwortet"
    assert network_words(ConnectionRefusedError("Connect call failed")) == "lichess ist nicht erreichbar"


# ----- board-check: what it asks and what it found ---------------------------------------------------
def test_board_checks_questions_and_findings_are_german(german):
    from companion.board import bring_up as B

    seen = {sq: frozenset({sq}) for sq in range(64)}
    seen[9] = frozenset()
    seen[10], seen[11] = frozenset({11}), frozenset({10})
    lines = B.read_switches(8, 8, seen, stuck=frozenset({0}), ghost=True, matrix=True).lines()
    assert [german_line(line) for line in lines[:3]] == [
        "geschlossen ohne Figur darauf (ein klemmender Reed-Kontakt oder ein Kurzschluss zur Reihe): a1",
        "nichts gespürt (ein toter Reed-Schalter, ein gebrochener Draht oder eine defekte Diode, oder der Magnet zu "
        "schwach): b2",
        "Schalter vertauscht: c2 und d2 (im Profil behoben: [fixes] swap_switches)"]
    assert lines[3].startswith("Geisterfelder: ")
    steps = B.led_steps(list(range(64)))
    assert B.read_leds(steps, [B.LedSeen("green", s.square) for s in steps], "GRB", 8).lines() == [
        "der Streifen ist RGB, nicht GRB: Rot erschien als Grün"]
    assert B.switch_question(0, 8, True) == "Stelle eine Figur auf a1 (s und Enter, wenn das Brett es nicht bemerkt)"
    assert B.led_question(steps[3], 64, 8) == "LED 4 von 64: rot unter d1?"
    with pytest.raises(ValueError) as info:
        B.parse_led_answer("r g", steps[0], 8, 8)
    assert german_line(str(info.value)) == "'r g': gib eine Farbe (r, g, b) und/oder ein Feld an, oder n"
    with pytest.raises(ValueError) as info:
        B.parse_led_answer("x", steps[0], 8, 8)
    assert german_line(str(info.value)) == "'x' ist kein Feld dieses 8x8-Bretts (a1 bis h8)"


def test_why_a_link_connection_ended_is_said_in_german(german):
    import socket
    import struct

    from companion.link.transport import MAX_FRAME, _serve

    a, b = socket.socketpair()
    with a, b:
        a.sendall(struct.pack(">I", MAX_FRAME + 1))
        assert german_line(_serve(b, lambda body: None)) == \
            f"ein Paket mit {MAX_FRAME + 1} Bytes (höchstens {MAX_FRAME})"
    a, b = socket.socketpair()
    with b:
        a.sendall(struct.pack(">I", 10) + b"abc")
        a.close()
        assert german_line(_serve(b, lambda body: None)) == "die Verbindung wurde mitten in einem Paket geschlossen"


def test_the_phones_lichess_page_speaks_the_boards_language(german):
    import urllib.error
    import urllib.parse
    import urllib.request

    from fake_lichess import FakeLichess

    from companion.online.page import ConnectPage

    def fetch(url, form=None):
        data = urllib.parse.urlencode(form).encode() if form is not None else None
        try:
            with urllib.request.urlopen(url, data=data, timeout=10) as r:
                return r.status, r.read().decode()
        except urllib.error.HTTPError as e:
            return e.code, e.read().decode()

    with FakeLichess() as fake:
        fake.add_token("lip_board0001", "bobby", "board:play")
        page = ConnectPage(fake.url, lambda token, name: None, host="127.0.0.1", address="127.0.0.1")
        page.start()
        try:
            status, text = fetch(page.url.split("?")[0])
            assert status == 403 and "scanne den QR-Code auf dem Bildschirm des Bretts noch einmal" in text
            status, text = fetch(page.url)
            assert status == 200 and '<html lang="de">' in text and "Oder: <a href=" in text
            assert ">erstelle ein Token auf lichess</a>" in text and ">Mit lichess anmelden</a>" in text
            status, text = fetch(f"{page.base}/lichess/token", {"k": page.code, "token": "lip_revoked99"})
            assert status == 400 and "<h1>Nicht verbunden</h1>" in text and "lichess hat dieses Token nicht " \
                "angenommen: " in text
            status, text = fetch(f"{page.base}/lichess/token", {"k": page.code, "token": "lip_board0001"})
            assert status == 200 and "Das Brett ist mit lichess verbunden als <b>Bobby</b>." in text
        finally:
            page.stop()
