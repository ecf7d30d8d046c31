"""The ``companion`` command line. Every command has --help; a bad input exits 2 with one line
on stderr, never a traceback."""

from __future__ import annotations

import argparse
import os
import sys

from .bounds import int_arg
from .cli_parser import OneLineParser as _Parser
from .cli_parser import add_armies, add_fights, add_players, army_options, fight_options, player_options
from .errors import CompanionError, OutputError, error_line
from .i18n import _, current, use_system_language
from .speech.words import and_list, capital, colour

#: The deepest perft the command line runs (perft recurses once per ply; past about 10 plies a
#: count takes longer than anyone waits, so 20 is no real limit, only a guard).
MAX_PERFT_DEPTH = 20


def _add_variant(p: argparse.ArgumentParser, fen: bool = True) -> None:
    from .games import variant_help

    p.add_argument("--variant", default="chess", help=variant_help())
    p.add_argument("--map", default=None, help=_("map name or file (default: the game's own)"))
    add_players(p)
    if fen:
        p.add_argument("--fen", default=None, help=_("start position (FEN for chess; the extended format otherwise)"))
    add_armies(p)
    add_fights(p)


def _rules_and_position(args):
    from .games import make_rules

    fen = getattr(args, "fen", None)
    if fen is not None and not fen.strip():
        raise CompanionError(_("--fen is empty; leave it out to start from the start position"))
    rules = make_rules(args.variant, args.map, **player_options(args), **army_options(args, fen),
                       **fight_options(args))
    pos = rules.position_from_text(fen) if fen is not None else rules.start_position()
    return rules, pos


def _action_text(rules, pos, action) -> str:
    from .core.moves import Answer

    return rules.answer_text(action) if isinstance(action, Answer) else rules.move_text(pos, action)


def cmd_perft(args) -> int:
    from .core.rules import iter_perft, perft_divide

    rules, pos = _rules_and_position(args)
    if args.divide and args.depth >= 1:
        total = 0
        for move, n in perft_divide(rules, pos, args.depth):
            print(f"{_action_text(rules, pos, move)}: {n}")
            total += n
        print()
        print(total)
    else:
        print(iter_perft(rules, pos, args.depth))
    return 0


def cmd_moves(args) -> int:
    rules, pos = _rules_and_position(args)
    pend = pos.pending
    if pend is not None and not pend.chance:
        # a choice the position waits for (a duel, a king-turn): its answers
        for text in sorted(rules.answer_text(a) for a in rules.answers(pos)):
            print(text)
        return 0
    for text in sorted(rules.move_text(pos, m) for m in rules.legal_moves(pos)):
        print(text)
    over = rules.outcome(pos, claim_draw=False) if pend is None else None
    if over is not None:  # said on stderr: stdout stays one move a line
        print(_("companion: the game is over in this position: {outcome}").format(outcome=_outcome_words(rules, over)),
              file=sys.stderr)
    return 0


def _outcome_words(rules, outcome) -> str:
    """``White won (checkmate)``, ``a draw (stalemate)``: the sides by the colours of the game's
    map (Blue, Orange; FIDE chess and Chess 2: White, Black)."""
    board_map = getattr(rules, "board_map", None)

    def side(p: int) -> str:
        word = board_map.seat(p + 1).colour if board_map is not None else ("white", "black")[p]
        return capital(colour(current(), word))

    reason = outcome.reason  # the rules' own term ("insufficient material"), as the engine's tests name it
    if not outcome.winners:
        return _("a draw ({reason})").format(reason=reason)
    return _("{sides} won ({reason})").format(sides=and_list(current(), [side(p) for p in sorted(outcome.winners)]),
                                              reason=reason)


def cmd_bench(args) -> int:
    if args.emulated:
        from .bench import run_emulated

        return run_emulated((["--quick"] if args.quick else []) + ["--only", args.only or "budgets"])
    from .bench import run_bench

    return run_bench(quick=args.quick, only=args.only)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="companion", description=_("Companion: a sensing, lighting board for chess variants."))
    parser.add_argument("--profile", help=_("board profile (hardware/profiles/*.toml) to run the app on real hardware"))
    parser.add_argument("--serial", help=_("serial device of an RP2040 board, or auto to find it by its USB name "
                                         "(see docs/serial-protocol.md)"))
    parser.add_argument("--wait-for-board", action="store_true",
                        help=_("with --serial: start even when the board is not there yet and wait for it, saying so "
                             "on screen (for a start at boot, docs/deploy.md)"))
    parser.add_argument("--verbose", action="store_true",
                        help=_("the app: show Kivy's start-up log (also KIVY_LOG_LEVEL=info)"))
    parser.add_argument("--broadcast", metavar="[HOST:]PORT", default=None,
                        help=_("serve the game live over HTTP on this port and announce the board with mDNS "
                             "(docs/broadcast.md; default: $COMPANION_BROADCAST, else off)"))
    sub = parser.add_subparsers(dest="command", parser_class=_Parser, metavar="COMMAND")

    p = sub.add_parser("perft", help=_("count leaf nodes of the move tree (engine check)"),
                       description=_("Count the positions reached after DEPTH moves. The last line is the count."))
    _add_variant(p)
    p.add_argument("--depth", type=int_arg(0, MAX_PERFT_DEPTH), required=True,
                   help=_("plies to count, 0 to {most}").format(most=MAX_PERFT_DEPTH))
    p.add_argument("--divide", action="store_true", help=_("also print the count below each first move"))
    p.set_defaults(func=cmd_perft)

    p = sub.add_parser("moves", help=_("list the legal moves of a position, one per line (UCI)"),
                       description=_("Every legal move, one per line, in coordinate notation (e2e4, e7e8q, e1g1); "
                                   "while the position waits for a choice (a Chess 2 duel or king-turn), its answers."))
    _add_variant(p)
    p.set_defaults(func=cmd_moves)

    p = sub.add_parser("bench", help=_("measure speed against peers (python-chess) in one run"),
                       description=_("Benchmarks; needs the test extra (python-chess) for the peer figures."))
    p.add_argument("--quick", action="store_true", help=_("smaller workloads (seconds, not minutes)"))
    from .bench import BENCHES

    p.add_argument("--only", default=None, metavar="NAME",
                   help=_("run only the figures whose name contains NAME: {names}").format(
                       names=", ".join(n for n, _b in BENCHES)))
    p.add_argument("--emulated", action="store_true",
                   help=_("run it (default: --only budgets) inside the emulated Debian arm64 root that "
                          "'bash companion/install.sh arm64-check' builds: the board's budgets at Pi speed"))
    p.set_defaults(func=cmd_bench)

    for register in _extra_commands():
        register(sub)
    return parser


def _extra_commands():
    """Commands that live with their feature (maps, dice, tracker, firmware, AI)."""
    from . import arbiter_cli, maps_cli, verify_dice, words_cli
    from .ai import match, quality
    from .board import board_check, firmware_sim, replay
    from .broadcast import cli as broadcast_cli
    from .dice import cli as dice_cli
    from .link import match as link_match
    from .online import cli as online_cli
    from .speech import cli as speech_cli
    from .tournament import cli as tournament_cli

    return [maps_cli.add_parser, dice_cli.add_parser_odds, verify_dice.add_parser_verify,
            firmware_sim.add_parser, board_check.add_parser, replay.add_parser, match.add_parser, quality.add_parser,
            link_match.add_parser, tournament_cli.add_parser, broadcast_cli.add_parser, arbiter_cli.add_parser,
            online_cli.add_parser, speech_cli.add_parser, words_cli.add_parser]


def main(argv: list[str] | None = None) -> int:
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    use_system_language()
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is not None:
        for option, what in (("profile", _("opens the app on a board")), ("serial", _("opens the app on a board")),
                             ("wait_for_board", _("is for the app")), ("verbose", _("is for the app")),
                             ("broadcast", _("serves the app's game"))):
            if getattr(args, option) not in (None, False):
                flag = "--" + option.replace("_", "-")
                parser.error(_("{flag} {what} and does not go with the '{command}' command; leave it out, "
                               "or give it alone: companion {flag} ...").format(flag=flag, what=what,
                                                                                command=args.command))
    elif args.wait_for_board and not (args.serial or args.profile):
        parser.error(_("--wait-for-board waits for the board of --serial (or of a --profile): give one of them too"))
    if args.command is None:
        try:
            return run_app(args)
        except CompanionError as e:
            print(f"companion: {e}", file=sys.stderr)
            return 2
        except KeyboardInterrupt:
            return 130
    stdout = sys.stdout
    sys.stdout = _Output(stdout)
    try:
        code = args.func(args)
        sys.stdout.flush()  # what the output refuses is said here, not as a traceback at exit
        return code
    except OutputError as e:
        print(f"companion {args.command}: {e}", file=sys.stderr)
        _silence(stdout)
        return 1
    except CompanionError as e:
        print(f"companion: {error_line(str(e))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # the reader went away (| head): not an error
        _silence(stdout)
        return 0
    finally:
        sys.stdout = stdout


class _Output:
    """``sys.stdout`` while a command runs: a write the output refuses (``> /dev/full``, an I/O
    error) becomes :class:`OutputError`, one line from :func:`main`; everything else is the
    stream's own."""

    def __init__(self, stream) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            raise
        except OSError as e:
            raise OutputError(_("cannot write the output: {reason}").format(reason=e.strerror or e)) from None

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError:
            raise
        except OSError as e:
            raise OutputError(_("cannot write the output: {reason}").format(reason=e.strerror or e)) from None

    def __getattr__(self, name: str):
        return getattr(self._stream, name)


def _silence(stream) -> None:
    """Point the real standard output at /dev/null, so that Python's last flush at exit finds
    nothing to complain about (what is left in the buffer cannot be written anyway)."""
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, ValueError):
        return  # not a real file (a test's capture)
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, fd)
        os.close(null)
    except OSError:
        pass


def run_app(args) -> int:
    if args.profile is not None:  # a bad profile is one line, before Kivy starts (and logs)
        from .board.profiles import load_profile

        load_profile(args.profile)
    broadcast = args.broadcast if args.broadcast is not None else (os.environ.get("COMPANION_BROADCAST") or None)
    if broadcast is not None:
        from .broadcast.web import parse_address

        parse_address(broadcast)  # a wrong address is said before any window opens
    try:
        from .app.main import run
    except ImportError:
        print(_("companion: the touchscreen app is not installed in this build; try 'companion --help'"), file=sys.stderr)
        return 2
    return run(profile=args.profile, serial=args.serial, verbose=args.verbose, wait=args.wait_for_board,
               broadcast=broadcast)


if __name__ == "__main__":
    sys.exit(main())
