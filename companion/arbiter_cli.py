"""``companion arbiter``: the arbiter's PIN on the board's computer.

``companion arbiter`` says whether a PIN is set, not set, or its file is damaged (exit 0, 0, 1).
``companion arbiter --reset-pin`` asks for a new PIN twice (not shown as it is typed; two lines
on stdin when it is not a terminal) and writes it, keeping whatever was there (a damaged file, a
folder) as ``arbiter.json.old-N`` beside it. This is how an arbiter unlocks arbiter mode after
the PIN file was damaged, or sets a PIN they forgot: it needs the board's computer (a keyboard
or SSH), which a player at the table does not have (docs/tournament.md, "The arbiter").
"""

from __future__ import annotations

import argparse
import getpass
import secrets
import sys
from pathlib import Path

from .i18n import _
from .tournament.arbiter import MAX_PIN, MIN_PIN, make_pin, valid_pin
from .tournament.pin_file import NAME, read_pin, reset_pin

EXIT_OK, EXIT_DAMAGED, EXIT_BAD = 0, 1, 2


def add_parser(subparsers) -> argparse.ArgumentParser:
    p = subparsers.add_parser(
        "arbiter", help=_("the arbiter's PIN: is it set, is its file damaged; set a new one"),
        description=_("Without options: whether the arbiter's PIN is set (exit 0), not set (0) or its file damaged "
                      "(1: arbiter mode is locked on the board). --reset-pin: type a new PIN twice; whatever "
                      "was in {name} is kept beside it as {name}.old-N.").format(name=NAME))
    p.add_argument("--reset-pin", action="store_true", help=_("set a new PIN (typed twice, not shown)"))
    p.add_argument("--data", metavar="DIR", default=None,
                   help=_("the app's data folder (default: $COMPANION_DATA, else ~/.local/share/companion)"))
    p.set_defaults(func=run)
    return p


def run(args: argparse.Namespace, out=None, err=None, stdin=None) -> int:
    out, err, stdin = out or sys.stdout, err or sys.stderr, stdin or sys.stdin
    if args.data is not None:
        folder = Path(args.data)
    else:
        from .app.bootstrap import data_dir

        folder = data_dir()
    path = folder / NAME
    if not args.reset_pin:
        state = read_pin(path)
        if state.locked:
            print(_("The arbiter's PIN file {path} is damaged: {damage}. Arbiter mode is locked on the board; "
                    "set a new PIN with: companion arbiter --reset-pin").format(path=path, damage=state.damage), file=out)
            return EXIT_DAMAGED
        if state.record is None:
            print(_("No arbiter PIN is set ({path} is not there): the first arbiter to open arbiter mode on the "
                    "board chooses it.").format(path=path), file=out)
        else:
            print(_("The arbiter's PIN is set ({path}).").format(path=path), file=out)
        return EXIT_OK
    pin = _ask(_("New arbiter PIN ({least} to {most} digits): ").format(least=MIN_PIN, most=MAX_PIN), stdin, err)
    if not valid_pin(pin):
        print("arbiter: " + _("a PIN is {least} to {most} digits; nothing was changed").format(least=MIN_PIN, most=MAX_PIN), file=err)
        return EXIT_BAD
    if _ask(_("The same PIN again: "), stdin, err) != pin:
        print("arbiter: " + _("the two PINs differ; nothing was changed"), file=err)
        return EXIT_BAD
    try:
        kept = reset_pin(path, make_pin(pin, secrets.token_bytes(16)))
    except OSError as e:
        print("arbiter: " + _("cannot write {path}: {reason}; nothing was changed").format(path=path, reason=e.strerror or e), file=err)
        return EXIT_BAD
    done = (_("The arbiter's PIN is set ({path}); what was there is kept as {kept}. Arbiter mode opens with it on the board.")
            if kept is not None else _("The arbiter's PIN is set ({path}). Arbiter mode opens with it on the board."))
    print(done.format(path=path, kept=kept.name if kept is not None else ""), file=out)
    return EXIT_OK


def _ask(prompt: str, stdin, err) -> str:
    """A PIN from the terminal (not shown), or one line of stdin when it is not a terminal (no
    question asked then: a script gives both lines)."""
    if stdin.isatty():
        return getpass.getpass(prompt).strip()
    return stdin.readline(64).strip()


__all__ = ["add_parser", "run"]
