"""Chess 2 position text (FEN letters read through each side's army, armies=, stones=,
pending=) and the command line: round trips, and one clear line for every bad input."""

import pytest

from companion.cli import main
from companion.errors import CompanionError, PositionError, VariantError
from companion.games import make_rules
from companion.games.chess2 import army_name, parse_armies, rules_for
from companion.games.chess2_text import armies_in_text, start_text
from tests.chess2_helpers import game, play, pos_of

ALL = ("classic", "nemesis", "empowered", "reaper", "two-kings", "animals")


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_start_positions_of_every_army():
    assert start_text(("classic", "two-kings")) == (
        "rnbkkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1 armies=classic,two-kings stones=3,3")
    for w in ALL:
        for b in ALL:
            r = rules_for((w, b))
            pos = r.start_position()
            text = r.position_text(pos)
            assert r.position_text(r.position_from_text(text)) == text
            assert r.position_from_text(text).hash == pos.hash


def test_army_names_are_read_forgivingly_and_refused_clearly():
    assert army_name("Two Kings") == army_name("two_kings") == army_name("twokings") == "two-kings"
    assert parse_armies("Classic, animals".replace(" ", "")) == ("classic", "animals")
    with pytest.raises(VariantError, match="unknown Chess 2 army 'queens'"):
        army_name("queens")
    with pytest.raises(VariantError, match="expected two armies"):
        parse_armies("classic,animals,reaper")


def test_pending_decisions_round_trip():
    """A position waiting for a duel, bids, a bluff call or a king-turn is written and read back
    with the same hash (a journal can stop in the middle of a duel)."""
    r = game("classic")
    for steps, want in ((("e4d6",), "pending=duel:e4d6"), (("e4d6", "duel"), "pending=bids:e4d6"),
                        (("e4d6", "duel", "0-0"), "pending=bluff:e4d6")):
        pos = pos_of(r, "4k3/8/3p4/8/4N3/8/8/4K3 w - - 0 1")
        play(r, pos, *steps)
        text = r.position_text(pos)
        assert text.endswith(want)
        back = r.position_from_text(text)
        assert back.hash == pos.hash and back.pending == pos.pending
    tk = game("two-kings", "classic")
    pos = tk.start_position()
    play(tk, pos, "e2e4")
    text = tk.position_text(pos)
    assert text == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBKKBNR w kq e3 0 1 armies=two-kings,classic stones=3,3 pending=king-turn"
    assert tk.position_from_text(text).hash == pos.hash


def test_a_rampage_waiting_for_its_second_duel_round_trips():
    r = game("animals", "classic")
    pos = pos_of(r, "4k3/8/3n4/3p4/3R4/8/8/K7 w - - 0 1")
    play(r, pos, "d4d7", "pass")
    text = r.position_text(pos)
    assert text.endswith("pending=duel:d4d7") and "3n4/8/3R4" in text
    back = r.position_from_text(text)
    assert back.hash == pos.hash and back.pending.get("victim") == r.geometry.parse_square("d6")


@pytest.mark.parametrize("text,words", [
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq", "has 3 FEN fields"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1 armies=classic,classic stones=7,3", "from 0 to 6, got 7"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1 armies=classic,classic stones=²,3", "whole number"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1 armies=classic,classic stones=3", "stones=3"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1 armies=classic,classic color=w", "unknown field 'color'"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1 armies=classic,classic pending=wait", "pending=wait"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1 armies=classic,classic pending=king-turn", "only Two Kings"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1 armies=classic,classic pending=duel:e2e4", "not a capture"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w - - 0 1 armies=classic,classic", "must have 1 King, found 2"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 armies=two-kings,classic", "not a piece of white's army"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1 armies=classic,nobody", "unknown Chess 2 army"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1 armies=reaper,classic force=classic", "the game is classic,classic"),
    ("4k3/8/8/8/8/8/8/P3K3 w - - 0 1 armies=classic,classic", "a pawn on rank 1"),
    ("4k3/8/8/4K3/8/8/8/8 w - - 0 1 armies=classic,classic stones=3,3 stones=3,3", "given twice"),
    ("8/8/8/3K4/3k4/8/8/8 w - - 0 1 armies=classic,classic", "both sides have invaded"),
    ("4k3/8/8/8/8/8/8/4K3 w - e6 0 1 armies=classic,classic", "no pawn just passed it"),
    ("4k3/8/8/8/8/8/8/4K3 w Kq - 0 1 armies=classic,classic", "castling right 'K' needs"),
])
def test_bad_position_text_is_one_clear_error(text, words):
    with pytest.raises(CompanionError) as e:
        CLASSIC_OR_ARMY(text)
    assert words in str(e.value) and "\n" not in str(e.value)


def CLASSIC_OR_ARMY(text):
    """Parse with the rules of the armies the text names (Classic if none; ``force=classic``:
    with Classic rules whatever it names)."""
    if text.endswith(" force=classic"):
        return rules_for(("classic", "classic")).position_from_text(text[: -len(" force=classic")])
    try:
        armies = armies_in_text(text) or ("classic", "classic")
    except VariantError:
        armies = ("classic", "classic")
    return rules_for(armies).position_from_text(text)


def test_make_rules_takes_the_armies_option():
    r = make_rules("chess2", armies="reaper,animals")
    assert r.armies == ("reaper", "animals")
    assert make_rules("chess2").armies == ("classic", "classic")
    with pytest.raises(VariantError, match="only"):
        make_rules("chess2", armies="classic,classic", depth=3)
    with pytest.raises(VariantError, match="8x8"):
        make_rules("chess2", "dungeon-compact")


# ------------------------------------------------------------------------------ command line

def test_cli_moves_and_perft_for_any_matchup(capsys):
    code, out, _ = run(capsys, "perft", "--variant", "chess2", "--armies", "animals,classic", "--depth", "2")
    assert code == 0 and out.strip() == "540"
    code, out, _ = run(capsys, "moves", "--variant", "chess2", "--armies", "animals,reaper")
    assert code == 0 and "b1d2" in out.split() and len(out.split()) == 27
    # the armies may come from the position text alone
    code, out, _ = run(capsys, "perft", "--variant", "chess2", "--depth", "1", "--fen",
                       "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1 armies=reaper,classic")
    assert code == 0 and out.strip() == "124"


def test_cli_lists_the_answers_of_a_pending_choice(capsys):
    fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBKKBNR w kq e3 0 1 armies=two-kings,classic pending=king-turn"
    code, out, _ = run(capsys, "moves", "--variant", "chess2", "--fen", fen)
    assert code == 0 and out.split() == ["d1e2", "e1e2", "skip"]
    code, out, _ = run(capsys, "perft", "--variant", "chess2", "--fen", fen, "--depth", "2", "--divide")
    lines = out.strip().splitlines()
    assert lines[-1] == "60" and "skip: 20" in lines
    fen = "4k3/8/3p4/8/4N3/8/8/4K3 w - - 0 1 armies=classic,classic pending=bids:e4d6 stones=3,2"
    code, out, _ = run(capsys, "moves", "--variant", "chess2", "--fen", fen)
    assert out.split() == ["0-0", "0-1", "0-2", "1-0", "1-1", "1-2", "2-0", "2-1", "2-2"]


def test_perft_divide_of_a_pending_duel_sums_to_the_count(capsys):
    fen = "4k3/8/3p4/8/4N3/8/8/4K3 w - - 0 1 armies=classic,classic pending=duel:e4d6"
    code, out, _ = run(capsys, "perft", "--variant", "chess2", "--fen", fen, "--depth", "1", "--divide")
    lines = out.strip().splitlines()
    assert lines == ["pass: 4", "", "4"]
    code, out, _ = run(capsys, "perft", "--variant", "chess2", "--fen", fen, "--depth", "1")
    assert out.strip() == "4"


def test_perft_counts_no_move_after_an_invasion(capsys):
    code, out, _ = run(capsys, "perft", "--variant", "chess2", "--depth", "2", "--fen",
                       "4k3/8/8/8/4K3/8/8/8 w - - 0 1 armies=classic,classic")
    assert out.strip() == "25"


@pytest.mark.parametrize("argv,words", [
    (["moves", "--variant", "chess2", "--armies", "classic"], "expected two armies"),
    (["moves", "--variant", "chess2", "--armies", "classic,pirates"], "unknown Chess 2 army 'pirates'"),
    (["moves", "--variant", "chess", "--armies", "classic,classic"], "chess takes no options"),
    (["perft", "--variant", "chess2", "--depth", "1", "--armies", "classic,classic", "--fen",
      "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1 armies=reaper,classic"], "the game is classic,classic"),
    (["moves", "--variant", "chess2", "--fen", "rnbqkbnr/pppppppp/8/8 w - - 0 1"], "4 ranks"),
])
def test_cli_bad_armies_or_position_exit_2_with_one_line(capsys, argv, words):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and words in err


def test_parse_errors_are_position_errors():
    with pytest.raises(PositionError):
        CLASSIC_OR_ARMY("8/8/8/8/8/8/8/8 w - - 0 1 armies=classic,classic")
