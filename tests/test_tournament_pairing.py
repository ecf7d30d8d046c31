"""Pairings from a TRF-16 or CSV file, results written back; every malformed line is one clear
message naming the file and the line."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.errors import PairingError
from companion.tournament.pairing import (
    RESULT_HEADER, merge_results, parse_csv, parse_pairings, parse_trf, result_line, trf_with_result,
)

DATA = Path(__file__).parent / "data" / "pairings"
TRF = (DATA / "leiden-rapid.trf").read_text(encoding="utf-8")
CSV = (DATA / "club-round2.csv").read_text(encoding="utf-8")


def test_a_trf_file_gives_the_round_to_play_with_boards_names_and_ratings():
    p = parse_trf(TRF, "leiden-rapid.trf")
    assert p.kind == "trf" and p.round == 4 and p.rounds == 5 and p.event == "Leiden Rapid Open 2026"
    assert p.site == "Leiden" and p.time_control_words == "15 minutes + 10 seconds per move"
    assert [(g.board, g.white.name, g.black.name) for g in p.games] == [
        (1, "Ortiz, Dan", "Petrov, Ivan"), (2, "Okafor, Ada", "Lindqvist, Per")]
    first = p.board(1)
    assert first.black.label() == "GM Petrov, Ivan (2610)" and first.black.fide_id == "2900012"
    assert (first.white_no, first.black_no) == (6, 1)
    with pytest.raises(PairingError, match="round 4 has no board 3"):
        p.board(3)


def test_boards_are_ordered_by_score_as_pairing_programs_list_them():
    """Petrov (2.5 points) plays on board 1, the 2.0 pair on board 2; a bye is no board."""
    p = parse_trf(TRF, "x")
    assert [g.board for g in p.games] == [1, 2] and all(g.white_no != 4 for g in p.games)


def test_a_result_is_written_back_into_the_trf_with_the_points():
    p = parse_trf(TRF, "x")
    once = trf_with_result(TRF, p.board(1), "0-1")
    rows = {int(line[4:8]): line for line in once.splitlines() if line.startswith("001")}
    assert rows[6][128] == "0" and rows[1][128] == "1"
    assert rows[1][80:84] == " 3.5" and rows[6][80:84] == " 1.0"
    assert once.count("\r\n") == TRF.count("\r\n")  # line ends kept as they were
    assert parse_trf(once, "x").round == 4  # board 2 still to play
    both = trf_with_result(once, p.board(2), "1/2-1/2")
    with pytest.raises(PairingError, match="no round is waiting"):
        parse_trf(both, "x")


@pytest.mark.parametrize("result, codes", [("1-0", "10"), ("+-", "+-"), ("--", "--"), ("0-0", "00")])
def test_every_result_has_its_trf_codes(result, codes):
    p = parse_trf(TRF, "x").board(2)
    rows = {int(line[4:8]): line for line in trf_with_result(TRF, p, result).splitlines() if line.startswith("001")}
    assert rows[2][128] + rows[3][128] == codes


def test_a_csv_file_gives_the_round_with_its_clock():
    p = parse_csv(CSV, "club-round2.csv")
    assert p.kind == "csv" and p.round == 2 and p.event == "Club Rapid"
    first = p.board(1)
    assert first.white.name == "Berg, Anna" and first.white.rating == 1850 and first.time_control == "900+10"
    assert p.board(2).black.rating is None


def test_the_file_kind_is_told_by_its_content():
    assert parse_pairings(TRF, "a.txt").kind == "trf" and parse_pairings(CSV, "b.txt").kind == "csv"


def test_comma_separated_csv_works_as_well():
    p = parse_csv("Round,Board,White,Black\n1,1,A,B\n1,2,C,D\n", "c.csv")
    assert [(g.white.name, g.black.name) for g in p.games] == [("A", "B"), ("C", "D")]


# ----- malformed input ------------------------------------------------------------------------------------


def trf_line(number: int) -> tuple[int, str]:
    lines = TRF.splitlines()
    index = next(i for i, line in enumerate(lines) if line.startswith(f"001 {number:4d}"))
    return index, lines[index]


def with_line(index: int, line: str) -> str:
    lines = TRF.splitlines()
    lines[index] = line
    return "\n".join(lines) + "\n"


def bad_trf_cases():
    i, line = trf_line(3)
    yield "short", with_line(i, line[:60]), f"line {i + 1}: a player line (001) needs at least 84 columns"
    yield "rank", with_line(i, line[:4] + "  x3" + line[8:]), f"line {i + 1}: the starting rank (columns 5-8)"
    yield "rating", with_line(i, line[:48] + "23x0" + line[52:]), f"line {i + 1}: the rating (columns 49-52)"
    yield "points", with_line(i, line[:80] + " 2,0" + line[84:]), f"line {i + 1}: the points (columns 81-84)"
    yield "colour", with_line(i, line[:96] + "x" + line[97:]), f"line {i + 1}: round 1's colour (column 97)"
    yield "result", with_line(i, line[:98] + "?" + line[99:]), f"line {i + 1}: round 1's result (column 99)"
    yield "opponent", with_line(i, line[:91] + "  77" + line[95:]), f"line {i + 1}: round 1's opponent 77 has no player line"
    yield "one-sided", with_line(i, line[:121] + "   4" + line[125:]), "round 4 pairs"
    yield "twice", with_line(i, line[:4] + "   1" + line[8:]), "starting rank 1 is given twice"
    yield "no-name", with_line(i, line[:14] + " " * 33 + line[47:]), f"line {i + 1}: the name (columns 15-47) is empty"
    yield "empty", "012 nothing here\n", "no player lines (001)"


@pytest.mark.parametrize("name, text, words", list(bad_trf_cases()), ids=[c[0] for c in bad_trf_cases()])
def test_a_malformed_trf_line_is_one_message_naming_the_file_and_line(name, text, words):
    with pytest.raises(PairingError) as e:
        parse_trf(text, "round4.trf")
    message = str(e.value)
    assert message.startswith("round4.trf") and words in message and "\n" not in message


@pytest.mark.parametrize("text, words", [
    ("round,board,white\n1,1,A\n", "line 1: the header needs the columns round, board, white, black; 'black' is missing"),
    ("round,board,white,black,colour\n1,1,A,B,w\n", "line 1: unknown column 'colour'"),
    ("round,board,white,black\n1,1,A\n", "line 2: 3 fields where the header has 4"),
    ("round,board,white,black\nx,1,A,B\n", "line 2: the round must be a whole number, got 'x'"),
    ("round,board,white,black\n1,0,A,B\n", "line 2: round and board are counted from 1"),
    ("round,board,white,black\n1,1,A,B\n1,1,C,D\n", "line 3: round 1 board 1 is listed twice (also line 2)"),
    ("round,board,white,black,white_rating\n1,1,A,B,strong\n", "line 2: the white rating must be a whole number"),
    ("round,board,white,black,white_rating\n1,1,A,B,9999\n", "line 2: the white rating 9999 is not between"),
    ("round,board,white,black,time_control\n1,1,A,B,fast\n", "line 2: time control 'fast'"),
    ("round,board,white,black\n1,1,,B\n", "line 2: the white player's name must be 1 to 80 characters"),
    ("round,board,white,black\n", "no games under the header"),
    ("", "the file is empty"),
])
def test_a_malformed_csv_line_is_one_message_naming_the_file_and_line(text, words):
    with pytest.raises(PairingError) as e:
        parse_csv(text, "pairs.csv")
    assert str(e.value).startswith("pairs.csv") and words in str(e.value) and "\n" not in str(e.value)


# ----- results for the director ---------------------------------------------------------------------------


def test_results_are_one_csv_line_per_game_and_a_correction_replaces_it():
    p = parse_trf(TRF, "x")
    line = result_line(p.board(1), "0-1")
    assert line == "4,1,2200999,\"Ortiz, Dan\",2900012,\"Petrov, Ivan\",0-1\n"
    text = merge_results("", line)
    text = merge_results(text, result_line(p.board(2), "1/2-1/2"))
    text = merge_results(text, result_line(p.board(1), "1-0"))
    assert text.splitlines() == [RESULT_HEADER, "4,2,8500123,\"Okafor, Ada\",1700456,\"Lindqvist, Per\",1/2-1/2",
                                 "4,1,2200999,\"Ortiz, Dan\",2900012,\"Petrov, Ivan\",1-0"]
    with pytest.raises(PairingError):
        result_line(p.board(1), "2-0")


@pytest.mark.parametrize("name", ["=HYPERLINK(\"http://x\",\"win\")", "+1+1", "-2+3", "@SUM(A1)", "\tTab", "\rCR"])
def test_a_name_that_starts_like_a_formula_goes_into_the_results_file_as_text(name):
    """OWASP's CSV injection advice: a cell a spreadsheet would run as a formula gets a ' first."""
    import csv
    import io
    from dataclasses import replace

    p = parse_trf(TRF, "x").board(1)
    pairing = replace(p, white=replace(p.white, name=name, fide_id="=1+1"))
    row = next(csv.reader(io.StringIO(result_line(pairing, "-+"), newline="")))
    assert row[2] == "'=1+1" and row[3] == ("'" + name).replace("\r", " ") and row[4:] == ["2900012", "Petrov, Ivan", "-+"]
    plain = next(csv.reader([result_line(p, "1-0")]))
    assert plain[3] == "Ortiz, Dan"  # an ordinary name is left as it is


def test_a_trf_whose_trailing_blanks_an_editor_stripped_takes_its_results_back():
    """The reader pads a short round block with blanks; the writer pads the same way (it used
    to say "player 1 has no round 4")."""
    stripped = "\n".join(line.rstrip() for line in TRF.splitlines()) + "\n"
    p = parse_trf(stripped, "x")
    assert p.round == 4 and p.board(1).black_no == 1
    once = trf_with_result(stripped, p.board(1), "0-1")
    rows = {int(line[4:8]): line for line in once.splitlines() if line.startswith("001")}
    assert rows[6][128] == "0" and rows[1][128] == "1" and rows[1][80:84] == " 3.5"
    assert parse_trf(once, "x").games == parse_trf(trf_with_result(TRF, p.board(1), "0-1"), "x").games
    cut = "\n".join(line[:101] if line.startswith("001    1") else line for line in stripped.splitlines())
    with pytest.raises(PairingError, match="player 1 has no round 4"):  # round 4 not in the line at all
        trf_with_result(cut, p.board(1), "0-1")
