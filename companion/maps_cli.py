"""``companion check-map FILE``: validate a map and draw it as text.

A thin edge over ``companion.maps``: the drawing goes to stdout (exit 0); a bad map is every
problem found in one pass, one line each on stderr (file, line, key, what was expected), and
exit status 2, never a traceback, so a person editing a map file sees everything to fix at once.
"""

from __future__ import annotations

import argparse
import sys

from .errors import CompanionError
from .i18n import _, ngettext
from .map_text import draw_map
from .maps import MAPS_DIR, MapProblems, load_map

EXIT_OK = 0
EXIT_BAD_INPUT = 2


def add_parser(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> argparse.ArgumentParser:
    """Register ``check-map`` on the main CLI's subparsers; sets ``func=run``."""
    parser = subparsers.add_parser(
        "check-map",
        help=_("validate a map file and draw it as text"),
        description=(
            _("Validate a board map (TOML, format in docs/maps.md) and draw it: ranks down the "
            "left, files along the bottom, '.' floor, '~' water, '#' void, digits for spawn "
            "zones. Exit status 0 if the map is valid, 2 if not, with every problem on stderr, one "
            "line each.")
        ),
    )
    parser.add_argument(
        "map",
        metavar="FILE",
        help=_("a map file path, or the name of a map in {folder} (e.g. standard, dungeon-compact)").format(folder=MAPS_DIR),
    )
    from .games import variant_help

    parser.add_argument(
        "--variant", default=None,
        help="also check the map against this game's needs and draw its start position; "
             + variant_help("the game the map names in map.game, if any"),
    )
    parser.set_defaults(func=run)
    return parser


def run(args: argparse.Namespace) -> int:
    try:
        board_map = load_map(args.map)
        game = getattr(args, "variant", None) or board_map.game
        extra = game_check(game, args.map) if game else ""
    except MapProblems as exc:
        for problem in exc.problems:
            print(f"check-map: {' '.join(str(problem).split())}", file=sys.stderr)
        if len(exc.problems) > 1:
            n = len(exc.problems)
            print(ngettext("check-map: {n} problem", "check-map: {n} problems", n).format(n=n), file=sys.stderr)
        return EXIT_BAD_INPUT
    except CompanionError as exc:
        print(f"check-map: {' '.join(str(exc).split())}", file=sys.stderr)
        return EXIT_BAD_INPUT
    sys.stdout.write(draw_map(board_map) + extra)
    return EXIT_OK


def game_check(game: str, map_name: str) -> str:
    """Build ``game``'s rules on the map (which runs the game's own checks of it: KoL Chess's
    colour tags, say) and set up its start position: the position drawn as text, or the
    CompanionError that says what does not fit."""
    from .core.setup import format_setup
    from .games import make_rules

    rules = make_rules(game, map_name)
    pos = rules.start_position()
    title = getattr(rules, "title", game)
    picture = rules.board_picture() if hasattr(rules, "board_picture") else ""
    return (picture + f"{title}: the map suits the game; start position (upper case: player 1):\n"
            + format_setup(pos))
