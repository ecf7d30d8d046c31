"""``companion replay LOG``: run a recorded sensor log through the real tracker.

A sensor log is JSON Lines, one event per line (docs/tracker.md has the format):

    {"t": 1200, "square": "e2", "occupied": false}     a reed switch changed
    {"t": 1900, "snapshot": ["a1", "b1", ...]}          every occupied square at once
    {"t": 2400, "choose": "q"}                          the screen answered a question (a promotion,
                                                        a Chess 2 duel: "duel", "pass", "1-2", "gain")
    {"t": 3000, "fight": "defender"}                    a Combat Chess fight's result, or
    {"t": 3000, "dice": [[5], [[3]]]}                   one round's faces: attacker, defenders
    {"note": "any text"}                                ignored

Squares are named from the first player's lower left (``a1``). ``t`` is in milliseconds and
never goes back. Between lines the tracker is told that time passed (``tick``); at the end a
little more (the longest settle time) so a last move can settle.

:func:`replay` is the pure part (lines in, a :class:`ReplayResult` out, :class:`RecordError`
naming the line for a malformed log); :func:`run` is the CLI edge: it prints each detected
move in coordinate notation, then ``final <position text>``; exit 0, 1 when the log ends with
the board out of step with the game (which squares, on stderr), 2 for a malformed log.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field
from typing import Iterable

from ..bounds import MAX_SENSOR_LOG_BYTES, load_json, read_text_file
from ..durable import write_output_file
from ..cli_parser import add_armies, add_fights, army_options, fight_options
from ..core.moves import Answer
from ..errors import CompanionError, RecordError
from ..i18n import _, ngettext
from .ports import OccupancySnapshot, SquareChanged

EXIT_OK, EXIT_OUT_OF_STEP, EXIT_BAD_LOG = 0, 1, 2

_KINDS = ("square", "snapshot", "choose", "dice", "fight")
_FIGHT_RESULTS = ("attacker", "defender", "bounce")


@dataclass
class ReplayResult:
    moves: list[str] = field(default_factory=list)
    #: every move, answer and fight result in order (``Move``/``Answer`` values), for a record
    actions: list = field(default_factory=list)
    final: str = ""
    remove: tuple[str, ...] = ()  # squares to empty when the log ends out of step
    place: tuple[str, ...] = ()  # squares to fill
    open_question: str = ""  # a prompt still unanswered at the end

    @property
    def in_step(self) -> bool:
        return not (self.remove or self.place or self.open_question)


def replay(rules, pos, lines: Iterable[str], *, source: str = "log", **tracker_options) -> ReplayResult:
    """Feed every line to a tracker on ``pos``, applying detected moves with ``rules.play``."""
    from .tracker import AnswerDetected, MoveDetected, PromptRequested, Tracker  # here: the parser does without it

    tracker = Tracker(rules, pos, **tracker_options)
    result = ReplayResult()
    geometry = rules.geometry
    last_t = 0

    def handle(outputs) -> None:
        for o in outputs:
            if isinstance(o, MoveDetected):
                result.moves.append(rules.move_text(pos, o.move))
                result.actions.append(o.move)
                rules.play(pos, o.move)
                handle(tracker.position_changed())
            elif isinstance(o, AnswerDetected):  # e.g. a Salamander's extra step made on the board
                result.moves.append(rules.answer_text(o.answer))
                result.actions.append(o.answer)
                rules.play(pos, o.answer)
                handle(tracker.position_changed())

    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        where = _("{path}, line {number}").format(path=source, number=number)
        record = _parse(line, where)
        if record is None:
            continue
        t = record["t"]
        if t < last_t:
            raise RecordError(_("{where}: time {t} ms goes back (the line before was at {last_t} ms)").format(
                where=where, t=t, last_t=last_t))
        last_t = t
        try:
            handle(tracker.tick(t))
            kind = next(k for k in _KINDS if k in record)
            if kind == "square":
                sq = _square(geometry, record["square"], where)
                handle(tracker.feed(SquareChanged(sq, record["occupied"], t)))
            elif kind == "snapshot":
                occ = frozenset(_square(geometry, name, where) for name in record["snapshot"])
                handle(tracker.feed(OccupancySnapshot(occ, t)))
            elif kind == "choose":
                handle(tracker.choose(record["choose"]))
            else:
                answer = _fight_answer(record, kind, where)
                if pos.pending is None or pos.pending.kind != "fight":
                    raise RecordError(_("{where}: a fight result, but no fight is waiting").format(where=where))
                rules.play(pos, answer)
                result.actions.append(answer)
                handle(tracker.position_changed())
        except RecordError:
            raise
        except CompanionError as e:  # an answer nobody asked for, dice out of range, ...
            raise RecordError(_("{where}: {problem}").format(where=where, problem=e)) from None
    longest = max(tracker_options.get(k, d) for k, d in (("settle_ms", 150), ("slow_settle_ms", 600),
                                                          ("castle_settle_ms", 1500)))
    handle(tracker.tick(last_t + longest + 1))
    result.final = rules.position_text(pos)
    name = geometry.name_of
    sensed, expected = tracker.sensed, tracker.expected
    guidance = tracker.guidance
    if not tracker.in_sync:
        result.remove = tuple(name(s) for s in sorted(set(guidance.remove) | (sensed - expected)))
        result.place = tuple(name(s) for s in sorted(set(guidance.place) | (expected - sensed)))
    prompt: PromptRequested | None = tracker.prompt
    if prompt is not None:
        result.open_question = prompt.text
    return result


def _parse(line: str, where: str) -> dict | None:
    record = load_json(line, where)
    if not isinstance(record, dict):
        example = '{"t": 1200, "square": "e2", "occupied": false}'
        raise RecordError(_("{where}: expected a JSON object like {example}").format(where=where, example=example))
    if set(record) == {"note"}:
        return None
    if "t" not in record:
        raise RecordError(_('{where}: missing "t" (the time in milliseconds)').format(where=where))
    t = record["t"]
    if isinstance(t, bool) or not isinstance(t, int) or t < 0:
        raise RecordError(_('{where}: "t" must be a whole number of milliseconds (0 or more), got {t!r}').format(
            where=where, t=t))
    kinds = [k for k in _KINDS if k in record]
    if len(kinds) != 1:
        raise RecordError(_("{where}: expected exactly one of {kinds}; found {found}").format(
            where=where, kinds=', '.join(repr(k) for k in _KINDS), found=', '.join(repr(k) for k in kinds) or _("none")))
    allowed = {"t", kinds[0]} | ({"occupied"} if kinds[0] == "square" else set())
    extra = sorted(set(record) - allowed)
    if extra:
        raise RecordError(ngettext("{where}: unknown key {keys}", "{where}: unknown keys {keys}", len(extra)).format(
            where=where, keys=', '.join(repr(k) for k in extra)))
    if kinds[0] == "square" and not isinstance(record.get("occupied"), bool):
        raise RecordError(_('{where}: "occupied" must be true or false, got {value!r}').format(
            where=where, value=record.get('occupied')))
    if kinds[0] == "snapshot" and not (isinstance(record["snapshot"], list)
                                       and all(isinstance(s, str) for s in record["snapshot"])):
        raise RecordError(_('{where}: "snapshot" must be a list of square names').format(where=where))
    if kinds[0] == "choose" and not isinstance(record["choose"], str):
        raise RecordError(_('{where}: "choose" must be text (a piece letter like "q", or a move like "d1e2")').format(
            where=where))
    return record


def _square(geometry, name, where: str) -> int:
    if not isinstance(name, str):
        raise RecordError(_('{where}: a square is named like "e2", got {name!r}').format(where=where, name=name))
    try:
        return geometry.parse_square(name)
    except ValueError as e:
        raise RecordError(_("{where}: {problem}").format(where=where, problem=e)) from None


def _fight_answer(record: dict, kind: str, where: str) -> Answer:
    if kind == "fight":
        if record["fight"] not in _FIGHT_RESULTS:
            raise RecordError(_('{where}: "fight" must be one of {results}, got {fight!r}').format(
                where=where, results=', '.join(_FIGHT_RESULTS), fight=record['fight']))
        return Answer("fight", record["fight"])
    dice = record["dice"]
    shape = "[[attacker faces...], [[defender faces...], ...]]"
    if not (isinstance(dice, list) and len(dice) == 2 and _faces(dice[0]) and isinstance(dice[1], list)
            and dice[1] and all(_faces(d) for d in dice[1])):
        raise RecordError(_('{where}: "dice" must look like {shape}, e.g. [[5], [[3]]]; got {dice!r}').format(
            where=where, shape=shape, dice=dice))
    return Answer("fight", ("roll", tuple(dice[0]), tuple(tuple(d) for d in dice[1])))


def _faces(value) -> bool:
    return (isinstance(value, list) and bool(value)
            and all(isinstance(f, int) and not isinstance(f, bool) for f in value))


# ----- the command line ------------------------------------------------------------------------------


#: The game a sensor log is read as when --variant is not given (said on stderr).
ASSUMED_VARIANT = "chess"


def add_parser(subparsers) -> argparse.ArgumentParser:
    """Register ``replay`` on the main CLI's subparsers; sets ``func=run``."""
    parser = subparsers.add_parser(
        "replay",
        help=_("run a recorded sensor log through the move tracker"),
        description=(_("Replay a sensor log (JSON Lines; format in docs/tracker.md) through the real "
                     "tracker: print each detected move (UCI), then 'final <position>'. Exit 0, 1 if "
                     "the log ends with the board out of step with the game, 2 for a malformed log.")),
    )
    _arguments(parser)
    parser.set_defaults(func=run)
    return parser


def _arguments(parser: argparse.ArgumentParser) -> None:
    from ..games import variant_help

    parser.add_argument("--variant", default=None, help=variant_help())
    parser.add_argument("--map", default=None, help=_("map name or file (default: the game's own)"))
    parser.add_argument("--fen", default=None, help=_("start position (FEN for chess; the extended format otherwise)"))
    add_armies(parser)
    add_fights(parser)
    parser.add_argument("--pgn", metavar="FILE", default=None,
                        help=_("also write the replayed game as PGN to FILE (docs/tournament.md)"))
    parser.add_argument("log", metavar="LOG", help=_("the sensor log (JSON Lines)"))


def run(args: argparse.Namespace, out=None, err=None) -> int:
    out = out or sys.stdout
    err = err or sys.stderr
    from ..games import GAMES, make_rules

    variant, assumed = args.variant, ""
    if variant is None:
        variant = ASSUMED_VARIANT
        assumed = _("no --variant given: {log} was read as {game} ({variant}); for another game give --variant "
                    "{variants}").format(log=args.log, game=GAMES[variant].title, variant=variant,
                                         variants=" | ".join(GAMES))
    try:
        rules = make_rules(variant, args.map, **army_options(args, args.fen), **fight_options(args))
        pos = rules.position_from_text(args.fen) if args.fen else rules.start_position()
        lines = read_text_file(args.log, MAX_SENSOR_LOG_BYTES, _("a sensor log")).splitlines()
        result = replay(rules, pos, lines, source=args.log)
    except OSError as e:
        print(_("replay: cannot read {path}: {reason}").format(path=args.log, reason=e.strerror or e), file=err)
        return EXIT_BAD_LOG
    except UnicodeDecodeError as e:
        print(_("replay: {path}: not UTF-8 text (byte {byte}); a sensor log is JSON Lines").format(path=args.log,
                                                                                                  byte=e.start), file=err)
        return EXIT_BAD_LOG
    except CompanionError as e:
        line = " ".join(str(e).split())
        print("replay: " + (_("{problem} ({assumed})").format(problem=line, assumed=assumed) if assumed else line),
              file=err)
        return EXIT_BAD_LOG
    if assumed:
        print(f"replay: {assumed}", file=err)
    for move in result.moves:
        print(move, file=out)
    print(f"final {result.final}", file=out)
    if getattr(args, "pgn", None):
        from ..tournament.pgn import format_pgn
        from ..tournament.record import pgn_from_actions

        try:
            start = rules.position_from_text(args.fen) if args.fen else rules.start_position()
            pgn = pgn_from_actions(variant, rules, start, result.actions, event=f"Replay of {args.log}",
                                   board_map=args.map, fen=args.fen)
            write_output_file(args.pgn, format_pgn(pgn))
        except CompanionError as e:
            print(f"replay: {e}", file=err)
            return EXIT_BAD_LOG
        except OSError as e:
            print(_("replay: cannot write {path}: {reason}").format(path=args.pgn, reason=e.strerror or e), file=err)
            return EXIT_BAD_LOG
    if not result.in_step:
        parts = []
        if result.remove:
            parts.append(_("empty {squares}").format(squares=" ".join(result.remove)))
        if result.place:
            parts.append(_("fill {squares}").format(squares=" ".join(result.place)))
        if result.open_question:
            parts.append(_("unanswered: {question}").format(question=result.open_question))
        print(_("replay: the board is out of step with the game at the end of {path}: {parts}").format(
            path=args.log, parts="; ".join(parts)), file=err)
        return EXIT_OUT_OF_STEP
    return EXIT_OK


def main(argv: list[str] | None = None) -> int:
    """``python -m companion.board.replay`` (the same as ``companion replay``)."""
    parser = argparse.ArgumentParser(prog="companion replay")
    _arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
