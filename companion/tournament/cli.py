"""``companion pgn JOURNAL...``: any saved game (its journal, current or archived) as PGN.

Every journal is replayed exactly as the app resumes a game (companion.tournament.table.Table.
replay), so the PGN has the game's clocks, penalties, arbiter actions, fights and result.
Exit 0; 1 when a journal was damaged (the PGN holds what could be recovered, and stderr says
what was lost); 2 when a journal cannot be read at all (one line on stderr).
"""

from __future__ import annotations

import argparse
import sys

from ..errors import CompanionError
from ..i18n import _
from .files import journal_pgn

EXIT_OK, EXIT_DAMAGED, EXIT_BAD = 0, 1, 2


def add_parser(subparsers) -> argparse.ArgumentParser:
    p = subparsers.add_parser(
        "pgn", help=_("turn saved games (journals) into PGN"),
        description=(_("Write each saved game (a journal: current.jsonl or games/*.jsonl of the data folder) as "
                     "PGN, on stdout or into FILE. Exit 0; 1 if a journal was damaged (what could be recovered "
                     "is written, stderr says what was lost); 2 if a journal cannot be read.")))
    p.add_argument("journals", metavar="JOURNAL", nargs="+", help=_("a game's journal (JSON Lines)"))
    p.add_argument("-o", "--output", metavar="FILE", default=None, help=_("write the PGN here instead of stdout"))
    p.set_defaults(func=run)
    return p


def run(args: argparse.Namespace, out=None, err=None) -> int:
    out = out or sys.stdout
    err = err or sys.stderr
    texts = []
    status = EXIT_OK
    for path in args.journals:
        try:
            text, loss = journal_pgn(path)
        except OSError as e:
            print("pgn: " + _("cannot read {path}: {reason}").format(path=path, reason=e.strerror or e), file=err)
            return EXIT_BAD
        except CompanionError as e:
            message = " ".join(str(e).split())
            print("pgn: " + (message if message.startswith(f"{path}:") else f"{path}: {message}"), file=err)
            return EXIT_BAD
        if loss is not None:
            print("pgn: " + _("{path} is damaged: {loss}").format(path=path, loss=loss), file=err)
            status = EXIT_DAMAGED
        texts.append(text)
    joined = "".join(texts)
    if args.output:
        from ..durable import write_output_file

        try:
            write_output_file(args.output, joined)
        except CompanionError as e:
            print(f"pgn: {e}", file=err)
            return EXIT_BAD
        except OSError as e:
            print("pgn: " + _("cannot write {path}: {reason}").format(path=args.output, reason=e.strerror or e), file=err)
            return EXIT_BAD
    else:
        out.write(joined)
    return status
