"""``companion ai-quality``: two players' move choices on the same positions, scored by a deeper
reference: a strength measure without the dice's noise.

    companion ai-quality --variant combat --from combat_11.jsonl --a max --b previous \\
        --movetime 200 --clock cpu --ref max --ref-movetime 2000 --positions 300

A match of a dice game measures mostly the dice (Human Combat Chess: every capture is a fight).
Here each position is given to player A and to player B, each a fresh searcher (in a game the
search's tables carry over from move to move; here every position starts empty). Where both choose
the same action the position's difference is 0 and no reference search is made. Where they differ,
the reference searches the position after each of the two actions to the same depth
(companion.ai.analysis.SearchAnalyser.score_of, as the games archive's review does): fights are
valued by their exact odds, so no dice enter the measure. A choice's regret is the better of the two
values minus its own (from the mover's side, centipawns, each value clipped to +-:data:`CLIP`).

* Positions come from ``ai-match --log`` files (every ``--every``-th choice of the logged actions;
  the logged random opening is skipped; a chance decision is the dice's and a joint decision both
  players', so neither is taken; nor a position with a single legal action) and/or from a cheap
  seeded self-play (``--games``, ``--seed``: level 3 against itself at a node limit after a few
  random moves). ``--positions N`` keeps N of them spread evenly. All deterministic given the seed
  (the players' time limits aside).
* The result: positions, agreement, the mean regret of A and of B, the paired difference B - A
  per position with its 95% interval (Student's t on the per-position differences, zeros
  included) and, among the differing positions, how many each player's choice was the better.

The core (:func:`game_positions`, :func:`judge`, :func:`summarize`) takes the clock and the
positions as values; the command line (:func:`run`) reads the files and the clock.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import random
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Iterable

from ..bounds import MAX_DIGITS, MAX_JOURNAL_BYTES, int_arg, load_json, number_arg, read_text_file
from ..errors import CompanionError
from ..i18n import _
from .actions import action_of, action_text
from .match import (BASELINES, MAX_GAMES, MAX_MOVETIME_MS, MAX_NODES, check_player, make_player, parse_settings,
                    jsonl_log, play_game, random_opening, replay_actions)

if TYPE_CHECKING:  # the search is imported where positions are judged: the parser does without
    from .analysis import SearchAnalyser

#: each reference value is clipped to +-CLIP centipawns (a mate found by one search and not the
#: other would otherwise outweigh every other position)
CLIP = 1000.0
#: the self-play that makes positions: level 3 against itself, this many nodes a move
SELF_PLAY_LEVEL = "3"
SELF_PLAY_NODES = 1500
SELF_PLAY_OPENING = 4
SELF_PLAY_MAX_PLIES = 160
MAX_DEPTH = 20


@dataclass(frozen=True)
class Source:
    """A game to take positions from: where it came from and its actions as texts."""

    name: str                 # the log file's name, or "self-play"
    game: int                 # the game's number in its file (1..)
    rules: object
    opening: tuple[str, ...]
    actions: tuple[str, ...]


@dataclass(frozen=True)
class Spot:
    """One position to judge: the game's ``ply``-th action (0-based in ``actions``) is to come."""

    source: Source
    ply: int
    pos: object


@dataclass(frozen=True)
class Judged:
    spot: Spot
    a_move: str
    b_move: str
    a_value: float | None     # None: the same choice, no reference search
    b_value: float | None
    depth: int = 0            # the reference's depth (0: not searched)

    @property
    def same(self) -> bool:
        return self.a_value is None

    @property
    def regret_a(self) -> float:
        return 0.0 if self.same else max(self.a_value, self.b_value) - self.a_value

    @property
    def regret_b(self) -> float:
        return 0.0 if self.same else max(self.a_value, self.b_value) - self.b_value

    @property
    def difference(self) -> float:
        """B's regret minus A's (positive: A chose better)."""
        return self.regret_b - self.regret_a

    def record(self) -> dict:
        s = self.spot
        return {"source": s.source.name, "game": s.source.game, "ply": s.ply, "a_move": self.a_move,
                "b_move": self.b_move, "a_value": self.a_value, "b_value": self.b_value, "depth": self.depth}


# ----- positions -------------------------------------------------------------------------------------
def sources_from_log(variant: str, name: str, lines: Iterable[str], rules_for: Callable[[str | None, dict], object]):
    """The games of one ``ai-match --log`` file (its lines as text). A line that is not a game of
    ``variant`` is refused in one line naming the file and the line."""
    out = []
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        entry = load_json(line, _("{name} line {n}").format(name=name, n=n))
        if not isinstance(entry, dict) or not isinstance(entry.get("actions"), list) \
                or not isinstance(entry.get("opening") or [], list) \
                or not all(isinstance(a, str) for a in entry["actions"] + (entry.get("opening") or [])):
            raise CompanionError(_("{name} line {n}: not a game of ai-match --log (no list of actions)").format(
                                     name=name, n=n))
        if entry.get("variant") != variant:
            raise CompanionError(_("{name} line {n}: a game of {found}, not of {variant}").format(
                                     name=name, n=n, found=entry.get("variant"), variant=variant))
        options = entry.get("options") or {}
        if not isinstance(options, dict):
            raise CompanionError(_("{name} line {n}: its options are not a table").format(name=name, n=n))
        board_map, where = entry.get("map"), _("{name} line {n}").format(name=name, n=n)
        if board_map is not None and not isinstance(board_map, str):
            raise CompanionError(_("{where}: its map is not a name").format(where=where))
        try:  # a map or an option the game refuses: said with the line it came from
            rules = rules_for(board_map, options)
        except CompanionError as e:
            raise CompanionError(_("{where}: {problem}").format(where=where, problem=e)) from None
        game = entry.get("game")
        out.append(Source(name, game if isinstance(game, int) else n, rules, tuple(entry.get("opening") or ()),
                          tuple(entry["actions"])))
    return out


def self_play_sources(rules, games: int, seed: int, max_plies: int = SELF_PLAY_MAX_PLIES) -> list[Source]:
    """``games`` cheap games (level 3 against itself at a node limit, after a few seeded random
    moves, dice from their exact odds): positions of every phase, the same for the same seed."""
    out = []
    for g in range(games):
        opening = random_opening(rules, SELF_PLAY_OPENING, random.Random(f"{seed}:quality-opening:{g}"))
        players = {s: make_player(SELF_PLAY_LEVEL, rules, random.Random(f"{seed}:quality-player:{g}:{s}"))
                   for s in range(rules.nplayers)}
        res = play_game(rules, players, random.Random(f"{seed}:quality-dice:{g}"), now=lambda: 0.0, budget=None,
                        max_nodes=SELF_PLAY_NODES, max_plies=max_plies,
                        position=replay_actions(rules, opening))
        out.append(Source("self-play", g + 1, rules, opening, res.actions))
    return out


def game_positions(sources: Iterable[Source], every: int = 1, keep: int | None = None) -> list[Spot]:
    """Every ``every``-th position of the logged actions (the opening's random moves skipped) where
    a player chooses among two actions or more: not a chance decision (the dice's), not a joint
    one (both players' at once), not an ended game; ``keep`` of them spread evenly (:func:`spread`).
    An action the rules refuse is one line naming the game and the ply."""
    sources = list(sources)
    chosen = set(spread([(i, ply) for i, src in enumerate(sources) for ply, __ in _walk(src, every)], keep))
    return [Spot(src, ply, pos.copy()) for i, src in enumerate(sources) if any(k[0] == i for k in chosen)
            for ply, pos in _walk(src, every) if (i, ply) in chosen]


def _walk(src: Source, every: int):
    """(ply, position) of each position :func:`game_positions` may take from ``src`` (the
    position is the walk's own: copy it to keep it)."""
    from .analysis import reviewable

    rules = src.rules
    try:
        pos = replay_actions(rules, src.opening)
    except CompanionError as e:
        raise CompanionError(_("{name} game {game}: its opening does not replay ({problem})").format(
                                 name=src.name, game=src.game, problem=e)) from None
    choices = 0
    for ply, text in enumerate(src.actions):
        if reviewable(pos) and rules.outcome(pos) is None:
            if choices % every == 0 and _choices(rules, pos) >= 2:
                yield ply, pos
            choices += 1
        try:
            rules.play(pos, action_of(rules, pos, text))
        except CompanionError as e:
            raise CompanionError(_("{name} game {game} ply {ply}: {problem}").format(
                                     name=src.name, game=src.game, ply=ply + 1, problem=e)) from None


def _choices(rules, pos) -> int:
    return len(list(rules.answers(pos))) if pos.pending is not None else len(rules.legal_moves(pos))


def spread(items: list, n: int | None) -> list:
    """``n`` of ``items`` spread evenly from first to last (all of them if there are not more)."""
    if n is None or len(items) <= n:
        return list(items)
    return [items[i * len(items) // n] for i in range(n)]


# ----- judging ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Limits:
    """A search's limits: ``budget`` seconds of ``now`` time, or ``nodes``, or (the reference)
    a fixed ``depth``."""

    budget: float | None = None
    nodes: int | None = None
    depth: int | None = None


def reference_analyser(spec: str, rules, rng: random.Random) -> SearchAnalyser:
    """The reference: a searching player (a level or ``previous``) as an analyser."""
    from .analysis import SearchAnalyser

    player = make_player(spec, rules, rng)
    search = getattr(player, "search", None)
    if search is None:
        raise CompanionError(_("--ref {spec!r}: the reference must search: a level (1 to 6, max) or previous").format(
                                 spec=spec))
    analyser = SearchAnalyser(rules, search)
    analyser.name = spec
    return analyser


def judge(spot: Spot, index: int, a, b, reference: SearchAnalyser, *, now: Callable[[], float],
          players: Limits, ref: Limits) -> Judged:
    """A's and B's choices in ``spot`` (``a``, ``b``: fresh players) and, if they differ, the
    reference's value of each, searched to the same depth: ``ref.depth``, or the depth the
    reference's own search of the position reaches in ``ref.budget``. The two are scored in an
    order that alternates with ``index``, so that the table the first search leaves cannot favour
    one side."""
    rules, pos = spot.source.rules, spot.pos
    moves = []
    for player in (a, b):
        info = player.choose(pos.copy(), now=now, budget=players.budget, max_nodes=players.nodes)
        if info.best is None:
            raise CompanionError(_("{name} found no action in a position that is not over").format(name=player.name))
        moves.append(info.best)
    texts = [action_text(rules, pos, m) for m in moves]
    if moves[0] == moves[1]:
        return Judged(spot, texts[0], texts[1], None, None)
    work = pos.copy()
    if ref.depth is not None:
        depth = ref.depth
    else:
        __, __, depth = reference.best(work, now=now, budget=ref.budget, max_nodes=ref.nodes, stop=None)
        depth = max(1, depth)
    values: dict[int, float] = {}
    for side in ((0, 1) if index % 2 == 0 else (1, 0)):
        v = reference.score_of(work, moves[side], depth, now=now, budget=None, stop=None)
        values[side] = max(-CLIP, min(CLIP, v))
    return Judged(spot, texts[0], texts[1], values[0], values[1], depth)


# ----- the numbers -----------------------------------------------------------------------------------
def t_quantile(p: float, df: int) -> float:
    """Student's t quantile (``p`` in (0.5, 1)) for ``df`` degrees of freedom, to 1e-9."""
    lo, hi = 0.0, 1.0
    while _t_cdf(hi, df) < p:
        hi *= 2.0
    for __ in range(200):
        mid = 0.5 * (lo + hi)
        if _t_cdf(mid, df) < p:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-12:
            break
    return 0.5 * (lo + hi)


def _t_cdf(t: float, df: int) -> float:
    """P(T <= t) for t >= 0: 1 - I_x(df/2, 1/2) / 2 with x = df / (df + t^2)."""
    return 1.0 - 0.5 * _incomplete_beta(df / (df + t * t), df / 2.0, 0.5)


def _incomplete_beta(x: float, a: float, b: float) -> float:
    """The regularized incomplete beta function I_x(a, b) (Lentz's continued fraction)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
    if x > (a + 1.0) / (a + b + 2.0):
        return 1.0 - _incomplete_beta(1.0 - x, b, a)
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    f = d
    for m in range(1, 500):
        for num in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                    -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1.0 + num * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + num / c
            c = c if abs(c) > tiny else tiny
            f *= c * d
        if abs(c * d - 1.0) < 1e-15:
            break
    return front * f / a


def paired_interval(diffs: list[float], level: float = 0.95) -> tuple[float, float, float]:
    """(mean, low, high): the mean of paired differences with Student's t interval (n - 1 degrees
    of freedom). One difference has no spread: its interval is infinite."""
    n = len(diffs)
    if n == 0:
        raise ValueError("no differences")
    mean = sum(diffs) / n
    if n == 1:
        return mean, -math.inf, math.inf
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1))
    half = t_quantile(0.5 + level / 2.0, n - 1) * sd / math.sqrt(n)
    return mean, mean - half, mean + half


@dataclass(frozen=True)
class Quality:
    positions: int
    agreed: int
    regret_a: float           # mean over all positions (centipawns)
    regret_b: float
    difference: float         # B - A, mean over all positions
    low: float
    high: float
    a_better: int             # differing positions where A's choice was the better by the reference
    b_better: int
    equal: int                # differing positions valued the same

    def lines(self, a: str, b: str) -> list[str]:
        differing = self.positions - self.agreed
        share = (lambda k: f"{k / differing:.1%}") if differing else (lambda k: "-")
        return [f"positions {self.positions}: the same choice in {self.agreed} ({self.agreed / self.positions:.1%})",
                f"mean regret: A={a} {self.regret_a:.1f} cp, B={b} {self.regret_b:.1f} cp",
                f"difference B-A {self.difference:+.1f} cp a position, 95% interval {self.low:+.1f} to {self.high:+.1f} "
                f"(paired t, {self.positions - 1} degrees of freedom; positive: A chose better)",
                f"of the {differing} differing positions: A's choice better in {self.a_better} ({share(self.a_better)}), "
                f"B's in {self.b_better} ({share(self.b_better)}), equal in {self.equal}"]


def summarize(judged: list[Judged]) -> Quality:
    if not judged:
        raise CompanionError(_("no positions to judge"))
    n = len(judged)
    diffs = [j.difference for j in judged]
    mean, low, high = paired_interval(diffs)
    differing = [j for j in judged if not j.same]
    return Quality(n, n - len(differing), sum(j.regret_a for j in judged) / n, sum(j.regret_b for j in judged) / n,
                   mean, low, high, sum(1 for j in differing if j.a_value > j.b_value),
                   sum(1 for j in differing if j.b_value > j.a_value), sum(1 for j in differing if j.a_value == j.b_value))


def run_quality(spots: list[Spot], a: str, b: str, ref: str, seed: int, *, now: Callable[[], float],
                players: Limits, ref_limits: Limits, a_settings: dict | None = None,
                out: Callable[[str], None] = print, progress: int = 10,
                log: Callable[[dict], None] | None = None) -> Quality:
    """Judge every spot (fresh players and a fresh reference for each) and print the result."""
    from .eval_table import table_for
    from .evaluate import Evaluator

    if not spots:
        raise CompanionError(_("no positions to judge: the games hold no choice of two actions or more"))
    judged: list[Judged] = []
    evaluators: dict[int, object] = {}
    for i, spot in enumerate(spots):
        rules = spot.source.rules
        ev_a = None
        if a_settings:
            if id(rules) not in evaluators:
                evaluators[id(rules)] = Evaluator(rules, table_for(rules, a_settings, _("--a-set for {game}").format(
                                                                      game=rules.name)))
            ev_a = evaluators[id(rules)]
        pa = make_player(a, rules, random.Random(f"{seed}:quality-a:{i}"), ev_a)
        pb = make_player(b, rules, random.Random(f"{seed}:quality-b:{i}"))
        reference = reference_analyser(ref, rules, random.Random(f"{seed}:quality-ref:{i}"))
        try:
            j = judge(spot, i, pa, pb, reference, now=now, players=players, ref=ref_limits)
        finally:
            for p in (pa, pb):
                close = getattr(p, "close", None)
                if close is not None:
                    close()
        judged.append(j)
        if log is not None:
            log(j.record())
        if progress and ((i + 1) % progress == 0 or i + 1 == len(spots)):
            q = summarize(judged)
            out(f"position {i + 1}/{len(spots)}: same choice {q.agreed}/{q.positions}, "
                f"regret A {q.regret_a:.1f} cp, B {q.regret_b:.1f} cp, B-A {q.difference:+.1f}")
    q = summarize(judged)
    for line in q.lines(a, b):
        out(line)
    return q


# ----- command line ----------------------------------------------------------------------------------
def add_parser(subparsers) -> argparse.ArgumentParser:
    from ..cli_parser import add_players
    from ..games import variant_help

    p = subparsers.add_parser(
        "ai-quality", help=_("compare two computer players' choices on the same positions, scored by a deeper search"),
        description=_("Give each position to A and to B; where they choose differently, a deeper reference search "
                      "values both choices. Prints the agreement, each side's mean regret in centipawns and the "
                      "difference B-A with its 95-percent interval: a strength measure without the dice's noise."))
    p.add_argument("--variant", default="chess", help=variant_help())
    p.add_argument("--map", default=None, help=_("map name or file for --games (default: the game's own)"))
    add_players(p)
    p.add_argument("--from", dest="logs", action="append", default=[], metavar="FILE",
                   help=_("take positions from an ai-match --log file (repeatable)"))
    p.add_argument("--games", type=int_arg(1, MAX_GAMES), default=None,
                   help=_("make positions by a cheap seeded self-play of this many games"))
    p.add_argument("--every", type=int_arg(1, 10_000), default=1,
                   help=_("take every K-th choice of each game (default 1)"))
    p.add_argument("--positions", type=int_arg(1, 1_000_000), default=None,
                   help=_("keep this many positions, spread evenly over the games"))
    p.add_argument("--a", required=True, help=_("side A: a level (1 = beginner .. 6, or max), random, greedy, "
                                              "duelist or previous"))
    p.add_argument("--b", required=True, help=_("side B, as side A"))
    p.add_argument("--a-set", action="append", default=[], metavar="KEY=VALUE",
                   help=_("change one [evaluation] key of side A's table (repeatable), e.g. --a-set gain_scale=800"))
    p.add_argument("--movetime", type=number_arg(0, MAX_MOVETIME_MS, above=True), default=200.0,
                   help=_("milliseconds per move for A and B (default 200)"))
    p.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                   help=_("what the times measure: wall-clock time (default) or the processor time of the "
                          "searching thread (cpu)"))
    p.add_argument("--nodes", type=int_arg(1, MAX_NODES), default=None,
                   help=_("limit A's and B's searches by nodes instead (reproducible)"))
    p.add_argument("--ref", default="max", help=_("the reference: a level or previous (default max)"))
    group = p.add_mutually_exclusive_group()
    group.add_argument("--ref-movetime", type=number_arg(0, MAX_MOVETIME_MS, above=True), default=None,
                       help=_("the reference searches each position this many milliseconds, then values both "
                              "choices to the depth it reached (default 2000)"))
    group.add_argument("--ref-depth", type=int_arg(1, MAX_DEPTH), default=None,
                       help=_("the reference values both choices to this depth (reproducible)"))
    p.add_argument("--seed", type=int_arg(0, 10 ** MAX_DIGITS - 1), default=1,
                   help=_("seeds the self-play, its dice and the players' choices"))
    p.add_argument("--progress", type=int_arg(0, 1_000_000), default=10,
                   help=_("one progress line every N positions (0: none)"))
    p.add_argument("--log", default=None, metavar="FILE",
                   help=_("write each position (its game and ply, both choices, both values) to FILE as one JSON line"))
    p.set_defaults(func=run)
    return p


def run(args) -> int:
    from ..cli_parser import player_options
    from ..games import make_rules

    for side, spec in (("a", args.a), ("b", args.b), ("ref", args.ref)):
        check_player(side, spec)
        if spec.strip().lower().startswith("stockfish"):
            raise CompanionError(_("--{side} {spec!r}: ai-quality compares our own players").format(side=side, spec=spec))
    if args.ref.strip().lower() in BASELINES and args.ref.strip().lower() != "previous":
        raise CompanionError(_("--ref {spec!r}: the reference must search: a level (1 to 6, max) or previous").format(
                                 spec=args.ref))
    settings = parse_settings(args.a_set)
    if settings and args.a.strip().lower() in BASELINES:
        raise CompanionError(_("--a-set changes the computer's evaluation: side A must be a level"))
    if not args.logs and args.games is None:
        raise CompanionError(_("no positions: give --from FILE (an ai-match --log) or --games N"))
    extra = player_options(args)
    made: dict[str, object] = {}

    def rules_for(board_map, options: dict):
        key = json.dumps([board_map, options], sort_keys=True)
        if key not in made:
            made[key] = make_rules(args.variant, board_map, **options)
        return made[key]

    sources: list[Source] = []
    for name in args.logs:
        try:
            lines = read_text_file(name, MAX_JOURNAL_BYTES, _("a match log")).splitlines()
        except (OSError, UnicodeDecodeError) as e:
            raise CompanionError(_("--from {name}: cannot read it ({problem})").format(
                                     name=name, problem=getattr(e, "strerror", None) or e)) from None
        sources += sources_from_log(args.variant, name, lines, rules_for)
    if args.games is not None:
        sources += self_play_sources(rules_for(args.map, extra), args.games, args.seed)
    spots = game_positions(sources, args.every, args.positions)
    print(f"{len(spots)} positions from {len(sources)} games; A={args.a}, B={args.b}, reference {args.ref}", flush=True)
    ref_limits = Limits(depth=args.ref_depth) if args.ref_depth else Limits(budget=(args.ref_movetime or 2000.0) / 1000.0)
    players = Limits(nodes=args.nodes) if args.nodes else Limits(budget=args.movetime / 1000.0)
    with contextlib.ExitStack() as stack:
        log = jsonl_log(stack, args.log)
        run_quality(spots, args.a, args.b, args.ref, args.seed,
                    now=time.thread_time if args.clock == "cpu" else time.perf_counter,
                    players=players, ref_limits=ref_limits, a_settings=settings,
                    out=lambda line: print(line, flush=True), progress=args.progress, log=log)
    return 0
