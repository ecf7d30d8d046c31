"""A German player reads the errors of the rules, the game data and Load/Save in German (issue 31;
docs/i18n.md, "Errors too"): for typical bad inputs of each kind, the message is German, one line,
with its values filled in; on the command line the same on stderr, with the exit status unchanged.

The tests switch the language (as tests/test_i18n.py does) and switch it back; the rest of the suite
runs in English and matches the English texts."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from companion.errors import CompanionError
from companion.i18n import Language, use

ROOT = Path(__file__).resolve().parents[1]
#: English words that give away an untranslated message (German ones never contain them)
ENGLISH = re.compile(r"\b(the|is|not|expected|got|must|cannot|line|player|square|piece|found|has)\b")


@pytest.fixture
def german():
    use(Language.load("de"))
    try:
        yield
    finally:
        use(Language.load("en"))


def german_line(error: BaseException | str, *words: str) -> str:
    """``error``'s message, checked: one line, no placeholder left, no English word, and every
    one of ``words`` (German words and the values it must name) in it."""
    text = str(error)
    assert "\n" not in text, text
    assert not re.search(r"\{\w*[!:}]", text), f"a placeholder is left: {text}"
    words_only = re.sub(r"'[^']*'|\S*[-/._]\S*", "", text)  # quoted values, names and paths are not words
    assert not ENGLISH.search(words_only), f"English in: {text}"
    for word in words:
        assert word in text, f"{word!r} not in: {text}"
    return text


def raised(call, *args, **kw) -> CompanionError:
    with pytest.raises(CompanionError) as caught:
        call(*args, **kw)
    return caught.value


# ----- the rules: positions, moves, variants ---------------------------------------------------------
def test_a_bad_position_or_move_is_refused_in_german(german):
    from companion.games import make_rules

    chess = make_rules("chess")
    german_line(raised(chess.position_from_text, "rnbqkbnr/pppppppp/8/8 w"), "FEN", "Felder")
    german_line(raised(chess.position_from_text, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1"),
                "'X'", "kein Figurenbuchstabe")
    german_line(raised(chess.position_from_text, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1"),
                "'x'", "erwartet")
    pos = chess.start_position()
    german_line(raised(chess.parse_move, pos, "e2e5"), "'e2e5'", "kein legaler Zug")
    german_line(raised(chess.geometry.parse_square, "9z"), "'9z'", "kein Feldname")
    german_line(raised(chess.geometry.parse_square, "z9"), "'z9'", "außerhalb", "8x8")
    german_line(raised(make_rules, "nochess"), "'nochess'", "unbekannte Variante", "chess")
    german_line(raised(make_rules, "chess2", fights="dice"), "Chess 2", "Würfelkämpfe")


def test_the_extended_position_format_and_the_games_own_fields_speak_german(german):
    from companion.games import make_rules

    dungeon = make_rules("dungeon")
    german_line(raised(dungeon.position_from_text, "10/10 1"), "Zeilen", "2")
    chess2 = make_rules("chess2")
    german_line(raised(chess2.position_from_text,
                       "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w - - 0 1 armies=classic,classic"),
                "Weiß (classic)", "König", "gefunden: 2")
    german_line(raised(chess2.position_from_text,
                       "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 armies=classic,classic nope=1"),
                "'nope'", "unbekanntes Feld")


def test_an_army_and_a_deployment_that_break_the_rules_are_refused_in_german(german):
    from companion.errors import DraftError
    from companion.games.draft import Army, load_armies_file, validate_army
    from companion.games import make_rules

    rules = make_rules("dungeon")
    with pytest.raises(DraftError) as caught:
        validate_army(rules.roster, Army("human", ("princess", "peasant")))
    german_line(caught.value, "unbekannte Einheit", "'peasant'")
    draft_rules, armies = load_armies_file()
    german_line(raised(load_armies_file, ROOT / "no-such-armies.toml"), "no-such-armies.toml", "gibt es nicht")


# ----- the game data: maps, rosters, evaluation tables, levels ----------------------------------------
def test_a_bad_map_is_described_in_german_with_the_count_of_more_problems(german):
    from companion.maps import MapProblems, parse_map

    text = '[map]\nname = "x"\nwidth = 3\nheight = 8\nplayers = 2\ngrid = """\n...\n"""\n'
    with pytest.raises(MapProblems) as caught:
        parse_map(text)
    more = len(caught.value.problems) - 1
    assert more == 1
    german_line(caught.value, "die Tabelle [players] fehlt", "(und 1 weiteres Problem")
    for problem in caught.value.problems:
        german_line(problem)
    text = text.replace("width = 3", "width = 99").replace("[map]", "[map]\ncolour = 1")
    with pytest.raises(MapProblems) as caught:
        parse_map(text)
    german_line(caught.value, "(und 2 weitere Probleme")
    assert any(", Zeile 2: map.colour: unbekannter Schlüssel" in german_line(p) for p in caught.value.problems)


def test_a_missing_map_roster_table_or_level_is_named_in_german(german):
    from companion.ai.eval_table import load_table
    from companion.ai.levels import parse_level
    from companion.ai.stockfish import missing_message
    from companion.core.roster import load_roster
    from companion.maps import load_map

    german_line(raised(load_map, "no-such-map"), "'no-such-map'", "kein Spielplan", "bekannte Spielpläne")
    german_line(raised(load_roster, ROOT / "nothing.toml"), "nothing.toml", "Figurenliste")
    german_line(raised(load_table, ROOT / "nothing.toml"), "nothing.toml", "Bewertungstabelle")
    german_line(raised(parse_level, "99"), "'99'", "Stufe", "Anfänger")
    german_line(missing_message("/opt/sf"), "/opt/sf", "nicht installiert", "apt-get install stockfish")


def test_a_damaged_toml_file_names_its_line_in_german(german, tmp_path):
    from companion.core.roster import load_roster

    path = tmp_path / "broken.toml"
    path.write_text('[variant]\nname = "x"\n[variant]\nname = "y"\n')
    german_line(raised(load_roster, path), "broken.toml", "zweimal angelegt", "Zeile")
    path.write_text('[variant]\nname = "x"\n[pieces.king]\ncode = "K"\nmove = ["step 1,0"]\n')
    german_line(raised(load_roster, path), "'step 1,0'", "kein Zugmuster")


# ----- Load/Save: game texts, journals, saved games ---------------------------------------------------
def game_text() -> str:
    from companion.gametext import format_game
    from companion.session import GameSetup, Seat, Session

    session, _ = Session.new(GameSetup("chess", (Seat("Alice"), Seat("Bob")), "virtual", game_id="g1"))
    for move in ("e2e4", "e7e5"):
        session.play(move)
    return format_game(session)


def test_a_damaged_game_text_is_refused_in_german(german):
    from companion.gametext import load_game

    text = game_text()
    german_line(raised(load_game, ""), "leer", "'companion game 1'")
    german_line(raised(load_game, text.replace("e7e5", "e7e4")), "Zeile", "Prüfzeile")
    unchecked = "\n".join(line for line in text.splitlines() if not line.startswith("check")) + "\n"
    german_line(raised(load_game, unchecked.replace("e7e5", "e7e4")), "Zeile", "'e7e4'")
    german_line(raised(load_game, "companion game 7\n"), "Zeile 1", "Version", "unbekannt")


def test_a_damaged_journal_says_in_german_what_was_lost(german, tmp_path):
    from companion.journal import Journal, read_journal

    path = tmp_path / "current.jsonl"
    journal = Journal(path)
    for n in range(3):
        journal.append({"type": "note", "n": n})
    journal.close()
    lines = path.read_text().splitlines(keepends=True)
    path.write_text(lines[0] + lines[1].replace('"n":1', '"n":7') + lines[2])
    damage = read_journal(path).damage
    german_line(damage.describe(), "Zeile 2", "Prüfsumme", "2 Einträge")


def test_a_saved_game_that_cannot_be_opened_says_so_in_german(german, tmp_path):
    from companion.durable import write_output_file

    german_line(raised(write_output_file, tmp_path / "no" / "out.txt", "x"), "gibt es nicht", "Ordner")


# ----- the command line: German on stderr, the exit status unchanged ----------------------------------
def run_companion(*args: str, lang: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, COMPANION_LANG=lang)
    return subprocess.run([sys.executable, "-m", "companion", *args], capture_output=True, text=True,
                          timeout=60, env=env, cwd=ROOT)


GERMAN_LINES = [
    (("moves", "--fen", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1"), ("kein Figurenbuchstabe",)),
    (("moves", "--variant", "dungeon", "--map", "no-such-map"), ("kein Spielplan", "'no-such-map'")),
]


def _is_the_german_line(english, german, words):
    assert english.returncode == german.returncode == 2, (english.stderr, german.stderr)
    assert german.stdout == english.stdout == ""
    [line] = german.stderr.splitlines()
    german_line(line.removeprefix("companion: "), *words)
    assert line != english.stderr.strip()


@pytest.mark.parametrize("args, words", [
    pytest.param(*case, marks=[] if n == 0 else [pytest.mark.slow]) for n, case in enumerate(GERMAN_LINES)])
def test_a_german_player_reads_german_on_the_command_line(args, words):
    """Real processes (the quick loop keeps the first; the test below has both in process)."""
    _is_the_german_line(run_companion(*args, lang="en"), run_companion(*args, lang="de"), words)


@pytest.mark.parametrize("args, words", GERMAN_LINES)
def test_a_german_player_reads_german_from_main(args, words, cli_main):
    english = cli_main(*args, lang="en")
    german = cli_main(*args, lang="de")
    _is_the_german_line(english, german, words)


def test_check_map_lists_a_bad_maps_problems_in_german(tmp_path, cli_main):
    path = tmp_path / "bad.toml"
    path.write_text('[map]\nname = "bad"\ncolour = 1\nwidth = 99\nheight = 8\nplayers = 2\ngrid = """\n...\n"""\n')
    english = cli_main("check-map", str(path), lang="en")
    german = cli_main("check-map", str(path), lang="de")
    assert english.returncode == german.returncode == 2, (english.stderr, german.stderr)
    lines = german.stderr.splitlines()
    assert len(lines) == len(english.stderr.splitlines()) >= 3
    for line in lines:
        german_line(line.removeprefix("companion: "))
    assert any("Zeile 3: map.colour: unbekannter Schlüssel" in line for line in lines)
