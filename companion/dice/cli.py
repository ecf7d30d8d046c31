"""Command line for the dice: ``companion verify-dice RECORD`` and ``companion odds ...``.

companion/cli.py adds these with ``add_parser_verify``/``add_parser_odds`` and calls the
``func`` they set. Each keeps stdout for results and says what went wrong in one line on
stderr with exit status 2. ``main`` runs the two alone (``python -m companion.dice.cli``).

Exit status of verify-dice: 0 verified (or, for system/entered dice, consistent: such dice
cannot be re-derived and the output says so), 1 the record does not verify (every problem is
printed, the first one first), 2 the file cannot be read or is not a dice record. A version 2
record's game is replayed with the rules (companion.games.combat_verify); for a version 1
record a ``note:`` line says that the modifiers could not be checked against the game.
"""

from __future__ import annotations

import argparse
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any, NoReturn, Sequence

from companion.bounds import whole_number
from companion.dice.odds import MAX_FATIGUE, Fighter, chess_kind, fight_odds, fighter_dice, weapon_choice_side
from companion.dice.record import parse_record
from companion.errors import CompanionError, DiceError


def use_one_line_errors(parser: argparse.ArgumentParser) -> None:
    """Make argparse's own complaints one line on stderr (it still exits with status 2).

    companion/cli.py may apply it to its top-level parser too, so that unrecognized arguments
    (reported by the top-level parser) are one line as well.
    """

    def error(message: str) -> NoReturn:
        sys.stderr.write(f"{parser.prog}: {message} (see {parser.prog} --help)\n")
        sys.exit(2)

    parser.error = error  # type: ignore[method-assign]


def _piece(text: str) -> str:
    try:
        return chess_kind(text)
    except DiceError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _fatigue(text: str) -> int:
    try:
        return whole_number(text.strip(), "fatigue is a count of tokens", DiceError, 0, MAX_FATIGUE)
    except DiceError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def add_parser_verify(subparsers: Any) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "verify-dice",
        help="check a finished game's dice record",
        description="Re-derive every roll of a seeded game from its revealed seed, check the "
        "seed against the published commitment, recompute totals and results, and replay the "
        "game (version 2 records) to check every fight's fighters, dice, fatigue and weapon "
        "choice against it.",
    )
    parser.add_argument("record", metavar="RECORD", help="the game's dice record (JSON Lines)")
    parser.set_defaults(func=run_verify)
    use_one_line_errors(parser)
    return parser


def run_verify(args: argparse.Namespace) -> int:
    path = Path(args.record)
    try:
        record = parse_record(path.read_text(encoding="utf-8"), name=str(path))
    except FileNotFoundError:
        return _fail(f"companion verify-dice: {path}: no such file")
    except UnicodeDecodeError:
        return _fail(f"companion verify-dice: {path}: not a text file (not UTF-8)")
    except OSError as error:
        return _fail(f"companion verify-dice: {path}: cannot read ({error.strerror})")
    except CompanionError as error:
        return _fail(f"companion verify-dice: {error}")
    from companion.games.combat_verify import verify_game_record  # the rules load only here

    result = verify_game_record(record)
    print(result.summary())
    for problem in result.problems:
        print(f"  {problem}")
    for note in result.notes:
        print(f"note: {note}")
    return 0 if result.ok else 1


def add_parser_odds(subparsers: Any) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "odds",
        help="exact odds of a Combat Chess fight",
        description="Probability that the attacker wins, the defender wins, or the fight "
        "bounces after three ties. Weapon choice goes to the attacker, or to the King if one "
        "fights (King against King: the attacking King).",
    )
    parser.add_argument("--attacker", required=True, type=_piece, metavar="PIECE",
                        help="P N B R Q K (or pawn ... king)")
    parser.add_argument("--defender", required=True, type=_piece, metavar="PIECE",
                        help="P N B R Q K (or pawn ... king)")
    parser.add_argument("--attacker-fatigue", type=_fatigue, default=0, metavar="N",
                        help="the attacker's fatigue tokens (default 0)")
    parser.add_argument("--defender-fatigue", type=_fatigue, default=0, metavar="N",
                        help="the defender's fatigue tokens (default 0)")
    parser.add_argument("--d6-only", action="store_true",
                        help="'only d6's' mode: d8 fighters roll 2d6, d10 fighters 3d6, keep the highest")
    parser.set_defaults(func=run_odds)
    use_one_line_errors(parser)
    return parser


def six_decimals(p: Fraction) -> str:
    """An exact fraction in [0, 1] rounded (half to even) to six decimals, e.g. 0.123457."""
    millionths = round(p * 1_000_000)
    return f"{millionths // 1_000_000}.{millionths % 1_000_000:06d}"


def run_odds(args: argparse.Namespace) -> int:
    try:
        plus_one = weapon_choice_side(args.attacker, args.defender)
        attacker = Fighter(fighter_dice(args.attacker, args.d6_only), args.attacker_fatigue,
                           plus_one == "attacker")
        defender = Fighter(fighter_dice(args.defender, args.d6_only), args.defender_fatigue,
                           plus_one == "defender")
        odds = fight_odds(attacker, defender)
    except CompanionError as error:
        return _fail(f"companion odds: {error}")
    print(f"attacker {six_decimals(odds.attacker)}")
    print(f"defender {six_decimals(odds.defender)}")
    print(f"bounce {six_decimals(odds.bounce)}")
    return 0


def _fail(line: str) -> int:
    sys.stderr.write(line.replace("\n", " ") + "\n")
    return 2


def main(argv: Sequence[str] | None = None) -> int:
    """The two dice commands on their own, for tests and ``python -m companion.dice.cli``."""
    parser = argparse.ArgumentParser(prog="companion")
    use_one_line_errors(parser)
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    add_parser_verify(commands)
    add_parser_odds(commands)
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:
        return stop.code if isinstance(stop.code, int) else 2
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
