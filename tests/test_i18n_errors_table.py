"""Issue 31: every error a player reads from the dice, the session, the tournament table and the
match speaks German when the board does: one line, the values filled in, no English left; and
the command lines of this area (odds, verify-dice, pgn, arbiter) say it on stderr (or stdout)
with the same exit status as in English."""

from __future__ import annotations

import json
import re

import pytest

from companion.errors import CompanionError
from companion.i18n import Language, use
from tests.dice_games import seeded_game
from tests.session_helpers import new_session, setup

#: English words that must not be left in a German error line (the values of placeholders,
#: such as file names and quoted fields, are checked not to hold them in the cases below)
ENGLISH = re.compile(r"\b(must|the|is|got|not|expected|unknown|field|line|cannot|already|only|has|of)\b")


@pytest.fixture
def german():
    use(Language.load("de"))
    yield
    use(Language.load("en"))


def _dice_record_text(change) -> str:
    from companion.dice.record import format_record

    lines = format_record(seeded_game(2)).splitlines()
    value = json.loads(lines[0])
    change(value)
    lines[0] = json.dumps(value)
    return "\n".join(lines) + "\n"


def _bad_version(value):
    value["version"] = 3


def _bad_source(value):
    value["source"] = "dice cup"


def _parse_record(change):
    from companion.dice.record import parse_record

    return lambda: parse_record(_dice_record_text(change), name="game.dice")


def _dice_notation():
    from companion.dice.odds import DiceSpec

    return DiceSpec.from_notation("x7")


def _wrong_faces():
    from companion.dice.odds import DiceSpec

    return DiceSpec.from_notation("2d6kh").check_faces([3])


def _time_control():
    from companion.tournament.timecontrol import parse_time_control

    return parse_time_control("40/abc")


def _csv(text):
    from companion.tournament.pairing import parse_csv

    return lambda: parse_csv(text, "round3.csv")


def _trf_player_line():
    from companion.tournament.pairing import parse_trf

    return parse_trf("001    1      Short Line\n", "open.trf")


def _pgn(text):
    from companion.tournament.pgn import parse_pgn

    return lambda: parse_pgn(text, "game.pgn")


def _unknown_game():
    return setup(game="checkers")


def _undo_at_start():
    from companion.session.actions import Undo

    return new_session().act(Undo(1))


def _draw_not_offered():
    from companion.session.actions import AnswerDraw

    return new_session().act(AnswerDraw(True))


def _empty_journal():
    from companion.session import Session

    return Session.replay([])


def _journal_entry():
    from companion.session import Session

    entries: list[dict] = []
    new_session(recorder=entries.append)
    _, used, problem = Session.replay(entries + [{"type": "undo", "turns": "two"}])
    assert used == 1
    raise CompanionError(problem)  # the replay hands the problem on as a line, as the Load screen shows it


def _match():
    from companion.match import Match

    return Match.from_json({"type": "match"})


def _clock_twice():
    from companion.tournament.clock import Clock
    from companion.tournament.timecontrol import parse_time_control

    clock, _ = Clock.new(parse_time_control("180+2")).start(0, 0)
    clock.start(0, 0)


CASES = [
    # (what goes wrong, how, German words the line must hold)
    ("dice record version", _parse_record(_bad_version),
     ["game.dice, Zeile 1: Feld 'version' ist 3; dieser Companion liest die Versionen 1 und 2"]),
    ("dice record source", _parse_record(_bad_source),
     ["game.dice, Zeile 1: Feld 'source' muss eines von", "nicht 'dice cup'"]),
    ("dice notation", _dice_notation, ["'x7' ist keine Würfelschreibweise", "höchsten behalten"]),
    ("too few dice", _wrong_faces, ["2W6, den höchsten behalten braucht 2 Würfel; 1 Zahl wurde angegeben"]),
    ("time control", _time_control, ["Bedenkzeit '40/abc'", "ist nicht Züge/Sekunden"]),
    ("csv round", _csv("round,board,white,black\nx,1,A,B\n"),
     ["round3.csv, Zeile 2: die Runde muss eine ganze Zahl sein, nicht 'x'"]),
    ("csv rating", _csv("round,board,white,black,white_rating\n1,1,A,B,9999\n"),
     ["round3.csv, Zeile 2: die Wertung von Weiß 9999 liegt nicht zwischen 0 und 4000"]),
    ("csv name", _csv("round,board,white,black\n1,1,A,\n"),
     ["round3.csv, Zeile 2: der Name des Schwarzspielers muss 1 bis"]),
    ("csv column", _csv("round,board,white,black,colour\n1,1,A,B,w\n"),
     ["round3.csv, Zeile 1: unbekannte Spalte 'colour' (bekannt: round, board"]),
    ("trf player line", _trf_player_line, ["open.trf, Zeile 1: eine Spielerzeile (001) braucht mindestens 84 Spalten"]),
    ("pgn comment", _pgn('[Event "x"]\n\n1. e4 { never closed\n'),
     ["game.pgn, Zeile 3: ein mit { geöffneter Kommentar wird nie geschlossen"]),
    ("pgn tag", _pgn('[Event x\n'), ['game.pgn, Zeile 1: ein Tag-Paar sieht so aus: [Event "name"]']),
    ("unknown game", _unknown_game, ["unbekanntes Spiel 'checkers'; bekannt: "]),
    ("undo at the start", _undo_at_start, ["1 Zug kann nicht zurückgenommen werden; 0 wurden gespielt"]),
    ("draw not offered", _draw_not_offered, ["es wurde kein Remis angeboten"]),
    ("empty journal", _empty_journal, ["das Journal ist leer: es hat keinen Starteintrag"]),
    ("journal entry", _journal_entry, ["Journal-Eintrag 2: Feld 'turns' muss eine ganze Zahl ab 1 sein, nicht 'two'"]),
    ("match file", _match, ["match.json: unbekanntes Feld|match.json: Feld"]),
    ("clock started twice", _clock_twice, ["die Uhr läuft schon"]),
]


@pytest.mark.parametrize("name, make, words", CASES, ids=[c[0] for c in CASES])
def test_a_bad_input_is_refused_in_german_on_one_line_with_its_values(german, name, make, words):
    with pytest.raises(CompanionError) as caught:
        make()
    line = str(caught.value)
    assert "\n" not in line and "{" not in line.replace("{ ", "").replace("{{", "") or "{ never" in line
    for w in words:
        assert any(alt in line for alt in w.split("|")), line
    # what is left once the values (quoted, file names) are taken out is German
    words_only = re.sub(r"'[^']*'|\"[^\"]*\"|\S+\.(csv|trf|pgn|dice|json)\b", "", line)
    assert not ENGLISH.search(words_only), line


@pytest.mark.parametrize("name, make, words", CASES[:6], ids=[c[0] for c in CASES[:6]])
def test_the_same_inputs_are_refused_in_english_by_default(name, make, words):
    with pytest.raises(CompanionError) as caught:
        make()
    assert not any(w.split("|")[0] in str(caught.value) for w in words)
    assert re.search(r"\b(must|is|not|needs|expected|unknown)\b", str(caught.value))


def test_the_dice_verification_report_speaks_german(german):
    from companion.dice.verify import verify_record

    record = seeded_game(3)
    summary = verify_record(record).summary()
    assert re.fullmatch(r"geprüft: \d+ Runden in \d+ Kämpfen aus dem offengelegten Seed nachgerechnet, .*", summary), summary
    assert not ENGLISH.search(summary), summary


def _run(monkeypatch, capsys, lang, argv, stdin=None):
    from companion.cli import main

    monkeypatch.setenv("COMPANION_LANG", lang)
    if stdin is not None:
        monkeypatch.setattr("sys.stdin", stdin)
    try:
        code = main(argv)
    except SystemExit as e:
        code = e.code
    finally:
        use(Language.load("en"))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_verify_dice_of_a_missing_file_says_it_in_german_with_the_same_exit_status(monkeypatch, capsys, tmp_path):
    missing = str(tmp_path / "none.dice")
    en = _run(monkeypatch, capsys, "en", ["verify-dice", missing])
    de = _run(monkeypatch, capsys, "de", ["verify-dice", missing])
    assert en[0] == de[0] != 0
    assert en[2] == f"companion verify-dice: {missing}: no such file\n"
    assert de[2] == f"companion verify-dice: {missing}: diese Datei gibt es nicht\n"


def test_verify_dice_of_a_damaged_record_names_line_and_field_in_german(monkeypatch, capsys, tmp_path):
    path = tmp_path / "game.dice"
    path.write_text(_dice_record_text(_bad_version))
    en = _run(monkeypatch, capsys, "en", ["verify-dice", str(path)])
    de = _run(monkeypatch, capsys, "de", ["verify-dice", str(path)])
    assert en[0] == de[0] != 0
    assert "field 'version' is 3" in en[2]
    assert de[2].count("\n") == 1 and f"{path}, Zeile 1: Feld 'version' ist 3" in de[2], de[2]


def test_verify_dice_reports_a_good_record_in_german(monkeypatch, capsys, tmp_path):
    from companion.dice.record import format_record

    path = tmp_path / "game.dice"
    path.write_text(format_record(seeded_game(2)))
    code, out, err = _run(monkeypatch, capsys, "de", ["verify-dice", str(path)])
    assert code == 0 and out.startswith("geprüft: ") and "Hinweis: dies ist ein Protokoll der Version 1" in out, out


def test_odds_of_a_piece_that_is_not_one_is_refused_in_german(monkeypatch, capsys):
    argv = ["odds", "--attacker", "dragon", "--defender", "pawn"]
    en = _run(monkeypatch, capsys, "en", argv)
    de = _run(monkeypatch, capsys, "de", argv)
    assert en[0] == de[0] == 2
    assert "'dragon' is not a chess piece" in en[2]
    assert de[2].count("\n") == 1 and "'dragon' ist keine Schachfigur" in de[2] and "(siehe companion odds --help)" in de[2], de[2]


def test_pgn_of_a_file_that_is_no_journal_is_refused_in_german(monkeypatch, capsys, tmp_path):
    path = tmp_path / "game.jsonl"
    path.write_text("")
    en = _run(monkeypatch, capsys, "en", ["pgn", str(path)])
    de = _run(monkeypatch, capsys, "de", ["pgn", str(path)])
    assert en[0] == de[0] != 0
    assert de[2] == f"pgn: {path}: keine Partie darin (das Journal ist leer)\n", de[2]


def test_the_arbiter_hears_of_a_damaged_pin_file_in_german(monkeypatch, capsys, tmp_path):
    (tmp_path / "arbiter.json").write_text("")
    en = _run(monkeypatch, capsys, "en", ["arbiter", "--data", str(tmp_path)])
    de = _run(monkeypatch, capsys, "de", ["arbiter", "--data", str(tmp_path)])
    assert en[0] == de[0] == 1
    assert de[1].startswith("Die PIN-Datei des Schiedsrichters") and "ist beschädigt: sie ist leer." in de[1], de[1]


def test_a_new_pin_too_short_is_refused_in_german(monkeypatch, capsys, tmp_path):
    import io

    code, out, err = _run(monkeypatch, capsys, "de", ["arbiter", "--data", str(tmp_path), "--reset-pin"],
                          stdin=io.StringIO("12\n12\n"))
    assert code != 0 and err.startswith("arbiter: eine PIN hat ") and "nichts wurde geändert" in err, err


def test_a_duels_part_and_a_dice_prompt_speak_german(german):
    from companion.dice.odds import DiceSpec
    from companion.dice.sources import DiceRequest
    from companion.errors import IllegalMoveError
    from companion.session import Session
    from tests.test_chess2_session import chess2, to_bids

    s = to_bids(Session.new(chess2())[0])
    with pytest.raises(IllegalMoveError) as caught:
        s.play_part(2, "1")
    assert str(caught.value) == "Spieler 3 ist an dieser Entscheidung (Gebote) nicht beteiligt"
    s.play_part(0, "1")
    with pytest.raises(IllegalMoveError) as caught:
        s.play_part(0, "2")
    assert str(caught.value) == "der Teil von Spieler 1 (Gebote) ist schon abgegeben"
    ask = DiceRequest(DiceSpec(6, 2), "4", 2, "defender", 1, 1)
    assert ask.describe() == "Kampf 4, Runde 2, Verteidiger #2: 2W6, den höchsten behalten"
