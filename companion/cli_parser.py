"""The argument parser every ``companion`` command uses: a bad argument is one line on
stderr and exit status 2, never a usage block.

Its own module, below every layer that has a command (the CLI, ``ai-match``), so that each of
them imports it from here and none imports another to get it; the same for the options several
commands share (``--players``).

argparse's own words ("usage:", "options:", "invalid choice: ...", "the following arguments are
required: ...") come from our catalog too: argparse asks the ``gettext`` module's ``gettext`` and
``ngettext`` (domain "messages"), which know nothing of it, so importing this module points its
two names at :mod:`companion.i18n`'s (:func:`speak_argparse_in_our_language`, the one hook), before
any parser is built. Its messages are listed here (:data:`ARGPARSE_WORDS`) so that Babel extracts
them; they keep argparse's ``%``-placeholders exactly (python-format: ``msgfmt --check`` checks
that a translation keeps them).
"""

from __future__ import annotations

import argparse

from .bounds import int_arg
from .errors import DiceError, error_line
from .i18n import N_, P_, _, ngettext

#: The messages argparse (Python 3.11 to 3.13) prints to a player, as its source writes them: the
#: catalog's ids. Its programmer errors (a parser built wrong) are left out: no input reaches them.
ARGPARSE_WORDS = (
    N_("usage: "), N_("positional arguments"), N_("options"), N_("subcommands"),
    N_("show this help message and exit"), N_("show program's version number and exit"),
    N_("%(prog)s: error: %(message)s\n"), N_("argument %(argument_name)s: %(message)s"),
    N_("unrecognized arguments: %s"), N_("the following arguments are required: %s"),
    N_("one of the arguments %s is required"), N_("not allowed with argument %s"),
    N_("ignored explicit argument %r"), N_("expected one argument"), N_("expected at most one argument"),
    N_("expected at least one argument"), P_("expected %s argument", "expected %s arguments"),
    N_("ambiguous option: %(option)s could match %(matches)s"), N_("unexpected option string: %s"),
    N_("invalid %(type)s value: %(value)r"), N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("unknown parser %(parser_name)r (choices: %(choices)s)"), N_("can't open '%(filename)s': %(error)s"),
)


def _argparse_gettext(message):
    return _(message) if message else message  # argparse asks for None (no description); "" is the header


def speak_argparse_in_our_language() -> None:
    """The one hook: argparse's ``_`` and ``ngettext`` (the names it imported from ``gettext``)
    answer from companion's catalog, in the language of the moment. Done once, at this
    module's import, before any parser is built."""
    argparse._ = _argparse_gettext
    argparse.ngettext = ngettext


speak_argparse_in_our_language()


class OneLineParser(argparse.ArgumentParser):
    def error(self, message: str):  # one line, exit 2 (what it quotes cut: companion.errors)
        self.exit(2, _("%(prog)s: error: %(message)s\n") % {"prog": self.prog, "message": error_line(message)})


def add_players(p: argparse.ArgumentParser) -> None:
    p.add_argument("--players", type=int_arg(2, 4), default=None,
                   help=_("number of players (Dungeon Chess: 2-4; default: the map's seats)"))


def player_options(args) -> dict:
    """The game option for ``--players`` (only when given: other games take no such option)."""
    return {} if getattr(args, "players", None) is None else {"players": args.players}


def add_armies(p: argparse.ArgumentParser) -> None:
    p.add_argument("--armies", default=None, metavar="WHITE,BLACK",
                   help=_("Chess 2: the two armies, white's then black's (classic, nemesis, empowered, reaper, "
                        "two-kings, animals); Dungeon Chess: one army per player, in seat order (the presets of "
                        "maps/variants/dungeon-armies.toml: human-balanced, redskin-elite, ...)"))


def army_options(args, text: str | None = None) -> dict:
    """The game option for ``--armies`` (Chess 2's text; Dungeon Chess's presets, one per player,
    as a tuple), or else the ``armies=`` a position text names; nothing when neither is given
    (other games take no such option)."""
    armies = getattr(args, "armies", None)
    if armies is None and text:  # as companion.games.chess2_armies.armies_in_text (this layer is below games)
        armies = next((f[len("armies="):] for f in text.split() if f.startswith("armies=")), None)
    if armies is not None and getattr(args, "variant", None) == "dungeon":
        return {"armies": tuple(a.strip() for a in armies.split(","))}
    return {} if armies is None else {"armies": armies}


def add_fights(p: argparse.ArgumentParser) -> None:
    """``--fights dice`` (every capture a dice fight, for any game that takes them) and
    ``--d6-only`` (the fights' "only d6's")."""
    p.add_argument("--fights", choices=("none", "dice"), default=None,
                   help=_("dice: every capture is a dice fight, as in Human Combat Chess (any game but Chess 2); "
                        "default none"))
    p.add_argument("--d6-only", action="store_true",
                   help=_("with --fights dice (or the combat variant): only six-sided dice (2d6 or 3d6, the highest "
                        "counts, for the d8 and d10 fighters)"))


def fight_options(args) -> dict:
    """The game options for ``--fights`` and ``--d6-only`` (only when given)."""
    out: dict = {}
    fights = getattr(args, "fights", None)
    if fights is not None:
        out["fights"] = fights
    if getattr(args, "d6_only", False):
        if fights != "dice" and getattr(args, "variant", None) != "combat":
            raise DiceError(_("--d6-only is a dice option: give --fights dice too"))
        out["d6_only"] = True
    return out

