"""Command line for the dice: ``companion odds ...`` (the exact odds of a fight).

companion/cli.py adds it with ``add_parser_odds`` and calls the ``func`` it sets. It keeps
stdout for results and says what went wrong in one line on stderr with exit status 2.
``companion verify-dice`` replays a game with its rules, so it lives above both the dice and
the games (companion/verify_dice.py); it uses the one-line errors of this module.
"""

from __future__ import annotations

from ..i18n import _
import argparse
import sys
from fractions import Fraction
from typing import Any, NoReturn

from companion.bounds import whole_number
from companion.dice.odds import MAX_FATIGUE, Fighter, chess_kind, fight_odds, fighter_dice, weapon_choice_side
from companion.errors import CompanionError, DiceError


def use_one_line_errors(parser: argparse.ArgumentParser) -> None:
    """Make argparse's own complaints one line on stderr (it still exits with status 2).

    companion/cli.py may apply it to its top-level parser too, so that unrecognized arguments
    (reported by the top-level parser) are one line as well.
    """

    def error(message: str) -> NoReturn:
        sys.stderr.write(_("{prog}: {problem} (see {prog} --help)").format(prog=parser.prog, problem=message) + "\n")
        sys.exit(2)

    parser.error = error  # type: ignore[method-assign]


def _piece(text: str) -> str:
    try:
        return chess_kind(text)
    except DiceError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _fatigue(text: str) -> int:
    try:
        return whole_number(text.strip(), _("fatigue is a count of tokens"), DiceError, 0, MAX_FATIGUE)
    except DiceError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def add_parser_odds(subparsers: Any) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "odds",
        help=_("exact odds of a Combat Chess fight"),
        description=_("Probability that the attacker wins, the defender wins, or the fight "
        "bounces after three ties. Weapon choice goes to the attacker, or to the King if one "
        "fights (King against King: the attacking King)."),
    )
    parser.add_argument("--attacker", required=True, type=_piece, metavar="PIECE",
                        help=_("P N B R Q K (or pawn ... king)"))
    parser.add_argument("--defender", required=True, type=_piece, metavar="PIECE",
                        help=_("P N B R Q K (or pawn ... king)"))
    parser.add_argument("--attacker-fatigue", type=_fatigue, default=0, metavar="N",
                        help=_("the attacker's fatigue tokens (default 0)"))
    parser.add_argument("--defender-fatigue", type=_fatigue, default=0, metavar="N",
                        help=_("the defender's fatigue tokens (default 0)"))
    parser.add_argument("--d6-only", action="store_true",
                        help=_("'only d6's' mode: d8 fighters roll 2d6, d10 fighters 3d6, keep the highest"))
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
        return fail(f"companion odds: {error}")
    print(f"attacker {six_decimals(odds.attacker)}")
    print(f"defender {six_decimals(odds.defender)}")
    print(f"bounce {six_decimals(odds.bounce)}")
    return 0


def fail(line: str) -> int:
    """Say ``line`` on stderr as one line; the exit status 2."""
    sys.stderr.write(line.replace("\n", " ") + "\n")
    return 2
