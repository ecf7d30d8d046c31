"""``companion odds`` and ``companion verify-dice``, called through their argv entry point."""

from __future__ import annotations

import argparse
import json
from fractions import Fraction

import pytest

from companion.dice.cli import add_parser_odds, six_decimals
from companion.verify_dice import add_parser_verify, main  # the command moved above the dice and the games
from companion.dice.odds import DiceSpec, Fighter, fight_odds
from companion.dice.record import format_record, start_record
from companion.dice.sources import EnteredDice, SeededDice

from tests.dice_games import FIGHTS, play_fight, seeded_game


def run(capsys, *argv: str) -> tuple[int, list[str], list[str]]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out.splitlines(), err.splitlines()


def expected_lines(attacker: Fighter, defender: Fighter) -> list[str]:
    odds = fight_odds(attacker, defender)
    return [f"attacker {six_decimals(odds.attacker)}", f"defender {six_decimals(odds.defender)}",
            f"bounce {six_decimals(odds.bounce)}"]


# --- odds --------------------------------------------------------------------------------


def test_odds_prints_exactly_three_lines_with_six_decimals(capsys):
    """Issue: "prints the three probabilities, one per line as `attacker 0.xxxxxx`"."""
    code, out, err = run(capsys, "odds", "--attacker", "Q", "--defender", "P")
    assert code == 0 and err == []
    assert out == expected_lines(Fighter(DiceSpec(10), 0, True), Fighter(DiceSpec(6)))
    assert [line.split()[0] for line in out] == ["attacker", "defender", "bounce"]
    assert all(len(line.split()[1]) == 8 and line.split()[1][1] == "." for line in out)


def test_odds_gives_weapon_choice_to_a_defending_king_and_to_the_attacking_king(capsys):
    """Seed: "the Kings always get weapon choice if/when they fight"."""
    _, out, _ = run(capsys, "odds", "--attacker", "N", "--defender", "K")
    assert out == expected_lines(Fighter(DiceSpec(8)), Fighter(DiceSpec(10), 0, True))
    _, out, _ = run(capsys, "odds", "--attacker", "king", "--defender", "k")
    assert out == expected_lines(Fighter(DiceSpec(10), 0, True), Fighter(DiceSpec(10)))


def test_odds_applies_fatigue_and_only_d6s(capsys):
    code, out, _ = run(capsys, "odds", "--attacker", "R", "--defender", "B", "--attacker-fatigue", "2",
                       "--defender-fatigue", "1", "--d6-only")
    assert code == 0
    assert out == expected_lines(Fighter(DiceSpec(6, 2), 2, True), Fighter(DiceSpec(6, 2), 1))


def test_six_decimals_rounds_the_exact_fraction():
    assert six_decimals(Fraction(1, 3)) == "0.333333"
    assert six_decimals(Fraction(2, 3)) == "0.666667"
    assert six_decimals(Fraction(1)) == "1.000000"
    assert six_decimals(Fraction(0)) == "0.000000"
    assert six_decimals(Fraction(3, 2_000_000)) == "0.000002"  # half to even


@pytest.mark.parametrize(
    "argv, words",
    [
        (["odds", "--attacker", "X", "--defender", "P"], "'X' is not a chess piece; use one of P N B R Q K"),
        (["odds", "--attacker", "Q"], "the following arguments are required: --defender"),
        (["odds", "--attacker", "Q", "--defender", "P", "--attacker-fatigue", "-1"], "fatigue is a count of tokens"),
        (["odds", "--attacker", "Q", "--defender", "P", "--defender-fatigue", "two"], "fatigue is a count of tokens"),
        (["odds", "--attacker", "Q", "--defender", "P", "--defender-fatigue"], "expected one argument"),
        (["odds", "--attacker", "Q", "--defender", "P", "--weapon"], "unrecognized arguments: --weapon"),
        (["verify-dice"], "the following arguments are required: RECORD"),
        ([], "required: COMMAND"),
    ],
)
def test_bad_arguments_exit_2_with_one_clear_line(capsys, argv, words):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == []
    assert len(err) == 1 and words in err[0]


def test_the_commands_plug_into_another_parser():
    """companion/cli.py adds them to its own subparsers and calls ``args.func(args)``."""
    parser = argparse.ArgumentParser(prog="companion")
    commands = parser.add_subparsers(dest="command")
    assert add_parser_odds(commands).prog == "companion odds"
    assert add_parser_verify(commands).prog == "companion verify-dice"
    args = parser.parse_args(["odds", "--attacker", "pawn", "--defender", "Q"])
    assert (args.attacker, args.defender, args.attacker_fatigue, args.d6_only) == ("pawn", "queen", 0, False)
    assert args.func.__name__ == "run_odds"


# --- verify-dice -------------------------------------------------------------------------


def test_verify_dice_accepts_an_untouched_seeded_game(capsys, tmp_path):
    path = tmp_path / "game.dice"
    path.write_text(format_record(seeded_game()), encoding="utf-8")
    code, out, err = run(capsys, "verify-dice", str(path))
    assert code == 0 and err == []
    assert out[0].startswith("verified: ") and len(out) == 2
    assert out[1].startswith("note: this is a version 1 record")  # no game to check modifiers against


def test_verify_dice_names_the_tampered_roll_and_exits_1(capsys, tmp_path):
    """Issue: "checks a finished game's record and says which roll, if any, does not match"."""
    lines = format_record(seeded_game()).splitlines()
    number = next(i for i, line in enumerate(lines) if json.loads(line).get("fight") == 4)
    entry = json.loads(lines[number])
    honest = entry["attacker"]["fighters"][0]["faces"][0]
    entry["attacker"]["fighters"][0]["faces"] = [honest % 10 + 1]
    entry["attacker"]["total"] += honest % 10 + 1 - honest  # a careful forger fixes the total
    lines[number] = json.dumps(entry)
    path = tmp_path / "forged.dice"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, err = run(capsys, "verify-dice", str(path))
    assert code == 1 and err == []
    assert out[0].startswith("mismatch: ")
    assert (f"  fight 4, round 1, attacker: black king e8 (d10) shows [{honest % 10 + 1}] in the record, "
            f"but the seed gives [{honest}]") == out[1]


def test_verify_dice_says_entered_dice_cannot_be_rederived(capsys, tmp_path):
    answers = iter([[5], [2]])
    dice = EnteredDice(lambda request: next(answers))
    move, attacker, defender = FIGHTS[0]
    record = play_fight(dice, start_record("g", "combat", dice), 1, move, attacker, defender)
    path = tmp_path / "entered.dice"
    path.write_text(format_record(record), encoding="utf-8")
    code, out, _ = run(capsys, "verify-dice", str(path))
    assert code == 0 and "cannot be re-derived" in out[0]


def test_verify_dice_refuses_an_unrevealed_seeded_record_with_exit_1(capsys, tmp_path):
    dice = SeededDice(b"still secret")
    move, attacker, defender = FIGHTS[1]
    record = play_fight(dice, start_record("g", "combat", dice), 1, move, attacker, defender)
    path = tmp_path / "open.dice"
    path.write_text(format_record(record), encoding="utf-8")
    code, out, _ = run(capsys, "verify-dice", str(path))
    assert code == 1 and "never revealed" in out[0]


@pytest.mark.parametrize(
    "content, words",
    [
        (None, "no such file"),
        (b"\xff\xfe\x00garbage", "not a text file"),
        (b"hello\n", "line 1: not valid JSON"),
        (b'{"type": "header"}\n', "line 1: field 'format' is missing"),
        ("directory", "cannot read"),
    ],
)
def test_verify_dice_on_a_bad_file_exits_2_with_one_line_and_no_traceback(capsys, tmp_path, content, words):
    path = tmp_path / "bad.dice"
    if content == "directory":
        path.mkdir()
    elif content is not None:
        path.write_bytes(content)
    code, out, err = run(capsys, "verify-dice", str(path))
    assert code == 2 and out == []
    assert len(err) == 1 and words in err[0] and "Traceback" not in err[0]
    assert err[0].startswith("companion verify-dice: ")
