"""``companion verify-dice RECORD``: check a finished game's dice record, its game included.

Above both the dice and the games: a version 2 record's game is replayed with the rules
(companion.games.combat_verify), so the command can live in neither layer. companion/cli.py
adds it with ``add_parser_verify``; ``main`` runs it with ``companion odds`` alone
(``python -m companion.verify_dice``).

Exit status: 0 verified (or, for system/entered dice, consistent: such dice cannot be
re-derived and the output says so), 1 the record does not verify (every problem is printed,
the first one first), 2 the file cannot be read or is not a dice record. For a version 1
record a ``note:`` line says that the modifiers could not be checked against the game.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, Sequence

from .bounds import MAX_DICE_RECORD_BYTES, read_text_file
from .dice.cli import add_parser_odds, fail, use_one_line_errors
from .errors import CompanionError
from .i18n import _


def add_parser_verify(subparsers: Any) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "verify-dice",
        help=_("check a finished game's dice record"),
        description=_("Re-derive every roll of a seeded game from its revealed seed, check the "
        "seed against the published commitment, recompute totals and results, and replay the "
        "game (version 2 records) to check every fight's fighters, dice, fatigue and weapon "
        "choice against it."),
    )
    parser.add_argument("record", metavar="RECORD", help=_("the game's dice record (JSON Lines)"))
    parser.set_defaults(func=run_verify)
    use_one_line_errors(parser)
    return parser


def run_verify(args: argparse.Namespace) -> int:
    from .dice.record import parse_record  # the record's hashes and sources: only when it runs

    path = Path(args.record)
    try:
        record = parse_record(read_text_file(path, MAX_DICE_RECORD_BYTES, _("a dice record")), name=str(path))
    except FileNotFoundError:
        return fail("companion verify-dice: " + _("{path}: no such file").format(path=path))
    except UnicodeDecodeError:
        return fail("companion verify-dice: " + _("{path}: not a text file (not UTF-8)").format(path=path))
    except OSError as error:
        return fail("companion verify-dice: " + _("{path}: cannot read ({reason})").format(path=path, reason=error.strerror))
    except CompanionError as error:
        return fail(f"companion verify-dice: {error}")
    from .games.combat_verify import verify_game_record  # the rules load only here

    result = verify_game_record(record)
    print(result.summary())
    for problem in result.problems:
        print(f"  {problem}")
    for note in result.notes:
        print(_("note: {note}").format(note=_(note)))
    return 0 if result.ok else 1


def main(argv: Sequence[str] | None = None) -> int:
    """The two dice commands on their own, for tests and ``python -m companion.verify_dice``."""
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
