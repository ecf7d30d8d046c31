"""``companion ai-match``: games between two players, to measure the computer.

    companion ai-match --variant combat --a max --b greedy --games 40 --movetime 200 --seed 1

Side A and side B alternate colours (game 1: A is player 1; game 2: A is player 2; on a map
with more seats A takes one seat in turn and B all the others). One progress line per game;
the last line is ``score A-B-draws``.

* A player is a level (``1``..``6``, ``max``), ``random``, ``greedy``, ``duelist`` (Chess 2),
  ``previous`` (the strongest level before issue 30: companion/ai/previous.py) or
  ``stockfish:ELO`` (FIDE chess: Stockfish limited to that Elo, companion/ai/stockfish.py).
* Joint decisions (Chess 2's secret duel bids) are asked of each player in turn
  (``choose_part``), neither seeing the other's part, and played as one answer.
* Chance decisions (Combat Chess fights) are settled by drawing from the exact
  ``chance_outcomes`` with a ``random.Random`` seeded from ``--seed`` and the game number, so a
  match replays its dice exactly; each player has its own seeded generator as well.
* A game ends by its own rules; one that reaches ``--max-plies`` moves (600 by default, 300 a
  player with more than two: a safety net) is adjudicated a draw.
* ``--movetime`` is each move's budget in milliseconds of wall-clock time; ``--nodes`` instead
  limits each search by nodes, which makes whole matches reproducible.
* ``--log FILE`` writes every game as one JSON line (players, result, every action: moves in
  coordinate notation, dice outcomes as ``=attacker``, and the final position), so a game lost
  in a timed match can be gone through move by move (:func:`replay_actions`).
* ``--a-set KEY=VALUE`` (repeatable) changes one ``[evaluation]`` key of side A's table for
  this match only (``--a-set gain_scale=800``): how a table change is measured against the
  baselines before it is written into ``companion/ai/tables/``.

The clock is read here, at the edge (``time.perf_counter``), and handed to the search.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

from ..i18n import _
from ..bounds import MAX_DIGITS, int_arg, number_arg
from ..cli_parser import add_armies, add_fights, add_players, army_options, fight_options, player_options
from ..core.moves import Answer, Outcome
from ..errors import CompanionError, IllegalMoveError  # noqa: F401 (replay_actions raises it)
from .actions import action_of, action_text  # noqa: F401 (action_text: the log's notation, used by tests)
from .collector import collector_paused
from .eval_table import table_for
from .score import match_stats

if TYPE_CHECKING:  # the players and the search are imported where a match uses them: the parser does without
    from .evaluate import Evaluator

# chess ends by its own rules (the 75-move rule), so there the cap is a safety net: a game still
# being won at move 100 is played out, not called a draw; Dungeon Chess has no draw rule unless
# asked for (--draw-rules: the rulebook's game ends only when a King is taken), so a game that
# nobody can win ends here
DEFAULT_MAX_PLIES = 600
#: with more players the cap grows with them: 300 moves each (four-player chess: 1200 plies)
PLIES_PER_PLAYER = 300
#: Bounds of the command line's numbers (far past any useful match; they keep out nonsense).
MAX_GAMES = 100_000
MAX_PLIES = 100_000
MAX_NODES = 1_000_000_000
MAX_MOVETIME_MS = 3_600_000.0


@dataclass(frozen=True)
class GameResult:
    outcome: Outcome | None   # None: adjudicated a draw at the ply cap
    plies: int
    seats_of_a: frozenset
    seconds: float
    longest_move: float       # the longest time one search of side A took (seconds, wall clock)
    budget: float | None
    longest_cpu: float = 0.0  # the processor time of that search (shows waits for a busy machine)
    actions: tuple[str, ...] = ()  # every action as action_text wrote it
    final: str = ""           # the final position (rules.position_text; "" for a game without one)
    searches: tuple[int, int, int, int, int] = (0, 0, 0, 0, 0)  # side A's searches, nodes, depths; B's searches, nodes

    @property
    def winner(self) -> str:
        """"A", "B" or "draw"."""
        if self.outcome is None or not self.outcome.winners:
            return "draw"
        return "A" if self.outcome.winners & self.seats_of_a else "B"

    @property
    def reason(self) -> str:
        return self.outcome.reason if self.outcome is not None else f"adjudicated draw after {self.plies} plies"


#: The reference players ai-match knows besides the levels (companion/ai/baselines.py).
BASELINES = ("random", "greedy", "duelist", "previous")


def make_player(spec: str, rules, rng: random.Random, evaluator: Evaluator | None = None):
    """``random``, ``greedy``, ``duelist`` (Chess 2: greedy that always duels and bids its
    most), ``previous`` (the strongest level before issue 30), a level (``1``.., ``max``) or
    ``stockfish:ELO`` (FIDE chess)."""
    from .baselines import DuelistPlayer, GreedyPlayer, RandomPlayer
    from .players import make_computer
    from .previous import previous_player

    s = spec.strip().lower()
    if s == "random":
        return RandomPlayer(rules, rng)
    if s == "greedy":
        return GreedyPlayer(rules, rng, evaluator)
    if s == "duelist":
        return DuelistPlayer(rules, rng, evaluator)
    if s == "previous":
        return previous_player(rules, rng)
    return make_computer(s, rules, rng, evaluator)


def settle_chance(rules, pos, rng: random.Random):
    """Draw an answer to a pending chance decision from its exact outcomes."""
    outs = rules.chance_outcomes(pos)
    if not outs:
        raise CompanionError(_("{name}: a chance decision ({kind}) has no outcomes").format(
                                 name=rules.name, kind=pos.pending.kind))
    x = rng.random()
    acc = 0.0
    for o in outs:
        acc += float(o.probability)
        if x < acc:
            return o.answer
    return outs[-1].answer


def random_opening(rules, plies: int, rng: random.Random) -> tuple[str, ...]:
    """``plies`` seeded random moves from the start (dice drawn from their exact odds, choices and
    secret parts at random), as action texts; tried again until the game is still open."""
    for __ in range(100):
        pos = rules.start_position()
        actions: list[str] = []
        done = 0
        while done < plies and rules.outcome(pos) is None:
            pend = pos.pending
            if pend is not None and pend.chance:
                action = settle_chance(rules, pos, rng)
            elif pend is not None:
                action = rng.choice(list(rules.answers(pos)))
            else:
                action = rng.choice(rules.legal_moves(pos))
                done += 1
            actions.append(action_text(rules, pos, action))
            rules.play(pos, action)
        if rules.outcome(pos) is None and pos.pending is None:
            return tuple(actions)
    raise CompanionError(_("{name}: no open position after {plies} random moves in 100 tries").format(
                             name=rules.name, plies=plies))


def replay_actions(rules, actions, position=None):
    """The position after ``actions`` (as :func:`action_text` wrote them), each played through
    ``rules.play``: a logged game rebuilt move by move. Raises IllegalMoveError on a bad one."""
    pos = position if position is not None else rules.start_position()
    for text in actions:
        rules.play(pos, action_of(rules, pos, text))
    return pos


def play_game(rules, players: dict[int, object], dice: random.Random, *, now: Callable[[], float],
              budget: float | None, max_nodes: int | None = None, max_plies: int = DEFAULT_MAX_PLIES,
              seats_of_a: frozenset = frozenset(), position=None,
              cpu: Callable[[], float] | None = None, a_nodes: int | None = None) -> GameResult:
    """Play one game to its end or the ply cap. Every action goes through ``rules.play``,
    which refuses an illegal one (IllegalMoveError), so an illegal move cannot pass unseen.
    ``a_nodes``: side A searches that many nodes a move (no clock), the others ``budget``."""
    pos = position if position is not None else rules.start_position()
    start = now()
    plies = 0
    longest = longest_cpu = 0.0
    counts = [0, 0, 0, 0, 0]  # side A's searches, their nodes and depths; side B's searches and nodes
    actions: list[str] = []

    def limits(seat: int) -> dict:
        if a_nodes is not None and seat in seats_of_a:
            return {"budget": None, "max_nodes": a_nodes}
        return {"budget": budget, "max_nodes": max_nodes}

    def play(action) -> None:
        actions.append(action_text(rules, pos, action))
        rules.play(pos, action)

    def result(o) -> GameResult:
        text = getattr(rules, "position_text", None)  # every shipped game has one; a toy game may not
        return GameResult(o, plies, seats_of_a, now() - start, longest, budget, longest_cpu,
                          tuple(actions), text(pos) if text is not None else "", tuple(counts))

    while True:
        pend = pos.pending
        if pend is not None and pend.chance:
            play(settle_chance(rules, pos, dice))
            continue
        o = rules.outcome(pos)
        if o is not None:
            return result(o)
        if plies >= max_plies:
            return result(None)
        if pend is not None and pend.get("players"):
            # a joint decision (a duel's secret bids): each player gives its part without
            # seeing the other's; the parts make one answer
            parts = []
            for seat in pend.get("players"):
                t0 = now()
                c0 = cpu() if cpu is not None else 0.0
                with collector_paused():
                    parts.append(players[seat].choose_part(pos, seat, now=now, **limits(seat)))
                    took = now() - t0
                    took_cpu = cpu() - c0 if cpu is not None else 0.0
                if seat in seats_of_a and took > longest:
                    longest, longest_cpu = took, took_cpu
            play(Answer(pend.kind, tuple(parts)))
            continue
        seat = pend.player if pend is not None and pend.player >= 0 else pos.turn
        player = players[seat]
        t0 = now()
        c0 = cpu() if cpu is not None else 0.0
        with collector_paused():  # collections happen between moves, not in the move time
            info = player.choose(pos, now=now, **limits(seat))
            # the move is out: timed here, because leaving the pause lets the collector catch
            # up on everything the search allocated (tens of ms in a long game: the opponent's time)
            took = now() - t0
            took_cpu = cpu() - c0 if cpu is not None else 0.0
        if seat in seats_of_a and took > longest:
            longest, longest_cpu = took, took_cpu
        if seat in seats_of_a:
            counts[0] += 1
            counts[1] += info.nodes
            counts[2] += info.depth
        else:
            counts[3] += 1
            counts[4] += info.nodes
        if info.best is None:
            raise CompanionError(_("{name} found no action in a position that is not over").format(name=player.name))
        play(info.best)
        trim = getattr(player, "trim", None)
        if trim is not None:
            trim()  # in the opponent's time
        if pend is None:
            plies += 1


def parse_settings(items: list[str]) -> dict:
    """``["gain_scale=800", "repetition_is_draw=false"]`` -> ``{"gain_scale": 800.0, ...}``."""
    out: dict = {}
    for item in items:
        key, sep, text = item.partition("=")
        key, text = key.strip(), text.strip()
        if not sep or not key or not text:
            raise CompanionError(_("--a-set {item!r}: expected KEY=VALUE, e.g. gain_scale=800").format(item=item))
        if text.lower() in ("true", "false"):
            out[key] = text.lower() == "true"
            continue
        try:
            out[key] = float(text)
        except ValueError:
            out[key] = [v.strip() for v in text.split(",") if v.strip()]  # a list of names
    return out


def run_match(variant: str, board_map: str | None, a: str, b: str, games: int, movetime_ms: float | None,
              seed: int, *, now: Callable[[], float], cpu: Callable[[], float] | None = None,
              out: Callable[[str], None] = print,
              max_nodes: int | None = None, max_plies: int | None = None,
              a_settings: dict | None = None,
              log: Callable[[dict], None] | None = None, options: dict | None = None,
              opening_plies: int = 0, a_nodes: int | None = None) -> tuple[int, int, int]:
    """``options``: the game's own (``{"players": 3}``, ``{"armies": "animals,reaper"}``).
    ``opening_plies``: each round of games (one per seat of A) starts from the same position
    after that many seeded random moves (:func:`random_opening`), so deterministic players
    (node limits) still meet in different games. ``a_nodes``: side A searches that many nodes
    a move whatever the clock (a fair budget on a shared machine), side B ``movetime_ms``."""
    from ..games import make_rules
    from .evaluate import Evaluator

    if games < 1:
        raise CompanionError(_("--games must be at least 1"))
    rules = make_rules(variant, board_map, **(options or {}))
    evaluator = Evaluator(rules)
    evaluator_a = Evaluator(rules, table_for(rules, a_settings, _("--a-set for {game}").format(game=rules.name))) if a_settings else evaluator
    n = rules.nplayers
    max_plies = max_plies or max(DEFAULT_MAX_PLIES, PLIES_PER_PLAYER * n)
    budget = movetime_ms / 1000.0 if movetime_ms else None
    wa = wb = draws = 0
    opening: tuple[str, ...] = ()
    for g in range(games):
        seat_a = g % n
        if opening_plies and seat_a == 0:
            opening = random_opening(rules, opening_plies, random.Random(f"{seed}:opening:{g // n}"))
        players = {}
        for seat in range(n):
            side = "a" if seat == seat_a else "b"
            players[seat] = make_player(a if side == "a" else b, rules, random.Random(f"{seed}:{side}:{g}:{seat}"),
                                        evaluator_a if side == "a" else evaluator)
        try:
            res = play_game(rules, players, random.Random(f"{seed}:dice:{g}"), now=now, budget=budget,
                            max_nodes=max_nodes, max_plies=max_plies, seats_of_a=frozenset({seat_a}), cpu=cpu,
                            position=replay_actions(rules, opening) if opening else None, a_nodes=a_nodes)
        finally:
            for player in players.values():
                close = getattr(player, "close", None)
                if close is not None:  # an engine in a subprocess (Stockfish)
                    close()
        w = res.winner
        if w == "A":
            wa += 1
        elif w == "B":
            wb += 1
        else:
            draws += 1
        slow = ""
        if budget:
            slow = f", longest A move {res.longest_move * 1000:.0f} ms"
            if cpu is not None:
                slow += f" (processor {res.longest_cpu * 1000:.0f} ms)"
        n_a, nodes_a, depths_a, n_b, nodes_b = res.searches
        if n_a:
            slow += f", A: {nodes_a // n_a:,} nodes and depth {depths_a / n_a:.1f} a move"
        if nodes_b:
            slow += f", B: {nodes_b // n_b:,} nodes a move"
        if log is not None:
            log({"game": g + 1, "variant": variant, "map": board_map, **(options or {}), "seed": seed, "a": a, "b": b,
                 "a_settings": a_settings or {}, "seat_a": seat_a + 1, "result": w, "reason": res.reason,
                 "plies": res.plies, "opening": list(opening), "actions": list(res.actions), "final": res.final, "options": options or {}})
        out(f"game {g + 1}/{games}: A={a} as player {seat_a + 1} vs B={b}: "
            f"{'draw' if w == 'draw' else w + ' wins'} ({res.reason}), {res.plies} plies, "
            f"{res.seconds:.1f} s{slow}; running {wa}-{wb}-{draws}")
    out(match_stats(wa, wb, draws).line())
    out(f"score {wa}-{wb}-{draws}")
    return wa, wb, draws


# ----- command line ---------------------------------------------------------------------------------
def add_parser(subparsers) -> argparse.ArgumentParser:
    p = subparsers.add_parser(
        "ai-match", help=_("play computer players against each other and print the score"),
        description=_("Play N games between A and B (alternating colours). A player is a level "
                    "(1 = beginner .. 6, or max), random, greedy, duelist, previous or stockfish:ELO. "
                    "One line per game; the last "
                    "line is 'score A-B-draws'."))
    add_match_arguments(p, games=10)
    p.add_argument("--log", default=None, metavar="FILE",
                   help=_("write every game (players, result, every move and dice outcome, final position) "
                        "to FILE as one JSON line"))
    p.add_argument("--a-set", action="append", default=[], metavar="KEY=VALUE",
                   help=_("change one [evaluation] key of side A's table for this match (repeatable), "
                        "e.g. --a-set gain_scale=800"))
    p.set_defaults(func=run)
    return p


def add_match_arguments(p: argparse.ArgumentParser, games: int) -> None:
    """The options of a match between two players (ai-match's, and link-match's too)."""
    from ..games import variant_help

    p.add_argument("--variant", default="chess", help=variant_help())
    p.add_argument("--map", default=None, help=_("map name or file (default: the game's own)"))
    add_players(p)
    p.add_argument("--a", required=True, help=_("side A: a level (1 = beginner .. 6, or max), random, greedy, duelist, "
                                              "previous or stockfish:ELO"))
    p.add_argument("--b", required=True, help=_("side B: a level (1 = beginner .. 6, or max), random, greedy, duelist "
                                              "(Chess 2: always duels, bids 2), previous (the strongest level before "
                                              "issue 30) or stockfish:ELO (FIDE chess, e.g. stockfish:1500)"))
    add_armies(p)
    add_fights(p)
    p.add_argument("--mode", choices=("ffa", "teams"), default=None,
                   help=_("four-player chess: free-for-all for points (ffa, the default) or teams"))
    p.add_argument("--games", type=int_arg(1, MAX_GAMES), default=games, help=_("games to play, 1 to {most}").format(most=f"{MAX_GAMES:,}"))
    p.add_argument("--movetime", type=number_arg(0, MAX_MOVETIME_MS, above=True), default=200.0,
                   help=_("milliseconds per move (default 200)"))
    p.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                   help=_("what --movetime measures: wall-clock time (default), or the processor time of the "
                        "searching thread (cpu: a busy machine then costs the search nothing but waiting)"))
    p.add_argument("--nodes", type=int_arg(1, MAX_NODES), default=None,
                   help=_("limit each search by nodes instead (reproducible)"))
    p.add_argument("--seed", type=int_arg(0, 10 ** MAX_DIGITS - 1), default=1,
                   help=_("seeds the dice and the players' choices"))
    p.add_argument("--max-plies", type=int_arg(1, MAX_PLIES), default=None,
                   help=_("adjudicate a draw after this many moves (1 to {most}; default {default}, "
                          "{per_player} a player with more than two)").format(
                       most=f"{MAX_PLIES:,}", default=DEFAULT_MAX_PLIES, per_player=PLIES_PER_PLAYER))
    p.add_argument("--a-nodes", type=int_arg(1, MAX_NODES), default=None,
                   help=_("side A searches this many nodes a move, B keeps --movetime (a machine's load "
                        "then costs A nothing: e.g. our search against Stockfish)"))
    p.add_argument("--opening-plies", type=int_arg(0, 40), default=0,
                   help=_("start each round of games (both colours) after this many seeded random moves (0 to 40)"))
    p.add_argument("--draw-rules", action="store_true",
                   help=_("play with the game's optional draw rules (Dungeon Chess: the same position 3 times, "
                        "50 turns each without a piece removed)"))


def check_player(side: str, spec: str) -> None:
    """A player's name on the command line, refused in one line if it is none."""
    from .levels import LEVELS, parse_level
    from .players import parse_stockfish

    if spec.strip().lower() in BASELINES:
        return
    try:
        if parse_stockfish(spec) is None:
            parse_level(spec)
    except CompanionError as e:
        if spec.strip().lower().startswith("stockfish"):
            raise CompanionError(f"--{side} {e}") from None
        shown = spec if len(spec) <= 20 else spec[:20] + "..."
        raise CompanionError(_("--{side} {shown!r}: no such player; the players are the levels 1 (beginner) to {n} "
                               "and max, {baselines}, and stockfish:ELO (FIDE chess)").format(
                                 side=side, shown=shown, n=len(LEVELS), baselines=', '.join(BASELINES))) from None


def jsonl_log(stack: contextlib.ExitStack, path: str | None) -> Callable[[dict], None] | None:
    """``--log FILE``: a function that appends one JSON line to FILE (flushed: a long run can be
    read as it goes), the file closed with ``stack``; None without a path. A file that cannot be
    written is one line."""
    if path is None:
        return None
    try:
        log_file = stack.enter_context(open(path, "a", encoding="utf-8"))
    except OSError as e:
        raise CompanionError(_("--log {log}: cannot write there ({strerror})").format(
                                 log=path, strerror=e.strerror)) from None

    def log(entry: dict) -> None:
        log_file.write(json.dumps(entry) + "\n")
        log_file.flush()

    return log


def run(args) -> int:
    from .players import parse_stockfish

    movetime = None if args.nodes else args.movetime
    for side, spec in (("a", args.a), ("b", args.b)):
        check_player(side, spec)
    settings = parse_settings(args.a_set)
    if settings and (args.a.strip().lower() in BASELINES or parse_stockfish(args.a) is not None):
        raise CompanionError(_("--a-set changes the computer's evaluation: side A must be a level"))
    with contextlib.ExitStack() as stack:
        log = jsonl_log(stack, args.log)
        run_match(args.variant, args.map, args.a, args.b, args.games, movetime, args.seed,
                  now=time.thread_time if args.clock == "cpu" else time.perf_counter, cpu=time.thread_time,
                  out=lambda line: print(line, flush=True), max_nodes=args.nodes, max_plies=args.max_plies,
                  a_settings=settings, log=log,
                  options={**player_options(args), **army_options(args), **fight_options(args),
                           **({"mode": args.mode} if args.mode else {}),
                           **({"draw_rules": True} if args.draw_rules else {})},
                  opening_plies=args.opening_plies, a_nodes=args.a_nodes)
    return 0


def main(argv: list[str] | None = None) -> int:
    """``python -m companion.ai.match ...`` until ``companion ai-match`` is wired into the CLI."""
    import sys

    from ..cli_parser import OneLineParser

    parser = OneLineParser(prog="companion")
    add_parser(parser.add_subparsers(dest="command", parser_class=OneLineParser))
    args = parser.parse_args(["ai-match", *(sys.argv[1:] if argv is None else argv)])
    try:
        return args.func(args)
    except CompanionError as e:
        print(f"companion: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
