"""``companion speak``: what the board would say for a game's moves, as a WAV file (or text).

The moves are played through a session, as on the board (a capture in Combat Chess starts a
fight and its dice are rolled from a fixed seed), and every event goes through the same
:class:`~companion.speech.Announcer` the app uses, so the file is what a player would hear.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from ..durable import write_output_file
from ..errors import CompanionError
from ..i18n import LANGUAGES, Language, _
from .announcements import Announcement

if TYPE_CHECKING:  # the announcer brings the session and the tracker's events: imported where it runs
    from .announcer import TurnView

#: The seed of the dice when a move starts a fight (the same file every time).
SEED_HEX = "5eed" * 16


def add_parser(sub) -> None:
    p = sub.add_parser("speak", help=_("write what the board would say for some moves to a WAV file"),
                       description=_("Play the moves as on the board and write what it says, in the "
                                     "language given, to a WAV file (espeak-ng)."))
    p.add_argument("--lang", default="en", help=_("language: {languages}").format(languages=", ".join(LANGUAGES)))
    from ..games import variant_help

    p.add_argument("--variant", default="chess", help=variant_help())
    p.add_argument("--voice", default=None, help=_("an espeak-ng voice (e.g. de+f3); default: the language's"))
    p.add_argument("--volume", type=int, default=80, help=_("volume, 0 to 100 (default 80)"))
    p.add_argument("--moves", nargs="+", default=[], metavar="MOVE",
                   help=_("moves in coordinates (e2e4) or standard notation (Nf3)"))
    p.add_argument("-o", "--output", default=None, metavar="FILE.wav", help=_("the WAV file to write"))
    p.add_argument("--text", action="store_true", help=_("print the sentences instead of (or as well as) speaking"))
    p.set_defaults(func=cmd_speak)


def sentences(language: Language, variant: str, moves: list[str]) -> list[Announcement]:
    """Everything the board says while ``moves`` are played from the start, in order."""
    from ..session import GameSetup, Seat, Session
    from .announcer import Announcer

    names = ("White", "Black")
    setup = GameSetup(variant, (Seat(names[0]), Seat(names[1])), "seeded", False, "speak", SEED_HEX)
    session, started = Session.new(setup)
    rules = session.rules
    board_map = getattr(rules, "board_map", None)
    colours = [board_map.seat(p + 1).colour for p in range(len(setup.seats))] if board_map is not None \
        else ["white", "black"]
    announcer = Announcer(language, colours, rules, lambda: session.pos)
    out = announcer.hear(started, 0)
    out += announcer.turn(_view(session))
    for text in moves:
        events = _play(session, rules, text)
        while session.pending_fight() is not None:  # the fight's dice, rolled as the board would
            events += session.roll()
        out += announcer.hear(events, 0)
        out += announcer.turn(_view(session))
    return out


def _view(session) -> TurnView:
    from .announcer import TurnView

    pending = session.pos.pending
    decision = pending.kind if pending is not None and not pending.chance else None
    deciders = tuple(session.parts_missing()) if session.joint_decision() is not None else (
        (pending.player,) if decision is not None and pending.player >= 0 else ())
    return TurnView(session.turn, decision, deciders, session.is_over)


def _play(session, rules, text: str) -> list:
    """A move in coordinates or standard notation (or an answer to a choice the game waits for)."""
    pos = session.pos
    if pos.pending is not None and not pos.pending.chance:
        return session.play_answer(text)
    for m in rules.legal_moves(pos):
        if rules.move_text(pos, m) == text:
            return session.play(m)
    san = getattr(rules, "san", None)
    if san is not None:
        for m in rules.legal_moves(pos):
            if san(pos, m).rstrip("+#") == text.rstrip("+#"):
                return session.play(m)
    raise CompanionError(_("{move!r} is not a legal move here").format(move=text))


def cmd_speak(args: argparse.Namespace) -> int:
    from .espeak import render_wav

    language = Language.load(args.lang)
    if language.missing:
        print(_("companion: the {language} catalog is not compiled (run companion/install.sh); "
                "speaking English words").format(language=language.name), file=sys.stderr)
    if not 0 <= args.volume <= 100:
        raise CompanionError(_("--volume is 0 to 100, got {volume}").format(volume=args.volume))
    if args.output is None and not args.text:
        raise CompanionError(_("give -o FILE.wav to write the sound, or --text to print the sentences"))
    said = sentences(language, args.variant, args.moves)
    if args.text:
        for a in said:
            print(a.text)
    if args.output is not None:
        with tempfile.TemporaryDirectory() as tmp:
            wav = render_wav([a.text for a in said], language.code, Path(tmp) / "speech.wav", volume=args.volume,
                             voice=args.voice)
            write_output_file(args.output, wav.read_bytes())
    return 0


__all__ = ["add_parser", "cmd_speak", "sentences"]
