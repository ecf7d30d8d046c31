"""One search for every game, over the engine's public API only (docs/ai.md, "How it searches").

* Iterative deepening principal variation search with aspiration windows, a transposition table
  keyed by ``pos.hash`` (salted by the searching player), move ordering (table move, captures by
  victim and attacker, promotions, killers, history), late-move reductions, a check extension,
  and in games of two players reverse futility, the null move, futility and late-move pruning;
  a capture search with delta pruning.
* Scores are always from the searching ("root") player's side: a max node where the root player
  decides, a min node otherwise: negamax written out for two players, the *paranoid* search for
  three or four (it keeps alpha-beta sound; docs/ai.md explains the choice against max-n).
* Decisions (companion/ai/decisions.py): chance (Combat Chess fights, expectation over the exact
  outcomes), choice (max/min of who answers), joint (Chess 2's bids, a matrix game).
* The clock is a value passed in: ``now()`` returns seconds, ``stop()`` says "stop now"; both
  are read at every node. Nothing here reads the clock, starts a thread or draws a random
  number; with a node or depth limit instead of a time budget the result is deterministic.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Optional

from ..core.moves import Move, Outcome
from ..core.position import Position, splitmix64
from ..core.rules import Rules
from .decisions import (INF, MATE, MATE_BOUND, DecisionNodes, _Abort, _is_quiet,  # noqa: F401 (re-exported)
                        chance_value, score_of_value)
from .checks import QuietChecks
from .evaluate import Evaluator
from .fight_order import FightOrder
from .race import GoalRace, doorsteps

_EXACT, _LOWER, _UPPER = 0, 1, 2


def forced_test(rules, must_attack):
    """``test(pos)``: is the side to move in check or, with dice fights (``must_attack``, the
    rules' compulsory attack), bound to attack a King? The search neither stands pat there (the
    capture search) nor scores a leaf by its best fight (``leaf_fights``). Without fights it is
    ``rules.in_check`` itself (no call more per node)."""
    in_check = rules.in_check
    if must_attack is None:
        return in_check
    return lambda pos: in_check(pos) or must_attack(pos)


@dataclass(frozen=True)
class SearchInfo:
    """What the search knows so far (a progress report and the final answer)."""

    best: Optional[Action]
    score: float
    depth: int
    nodes: int
    elapsed: float
    pv: tuple = ()
    root_scores: tuple = ()  # ((action, score), ...) when every root move got an exact score
    stopped: bool = False    # ended by stop() or the budget before reaching max_depth
    engine_errors: tuple = ()  # messages of engine exceptions met (and skipped) in the tree

    @property
    def is_mate(self) -> bool:
        return abs(self.score) >= MATE_BOUND

    def mate_in(self) -> int | None:
        """Plies to a forced win (positive) or loss (negative), if the score is a mate."""
        if not self.is_mate:
            return None
        plies = int(round(MATE - abs(self.score)))
        return plies if self.score > 0 else -plies


@dataclass
class SearchOptions:
    """Knobs the levels turn (companion.ai.levels)."""

    quiescence: bool = True
    max_qply: int = 8
    chance_qply: int = 2       # capture-search plies after which chance outcomes are judged statically
    lmr: bool = True
    check_extension: bool = True
    tt_limit: int = 300_000
    hard_share: float = 0.93   # of the budget: the search unwinds and answers by then
    soft_share: float = 0.7    # no new iteration starts after this share of the budget (its first
                               # root move searched already counts: the time left is not wasted)
    pruning: bool = True       # two players: reverse futility, null move, futility, late-move pruning
    futility: float = 100.0    # centipawns per ply of depth left (reverse futility; futility 1.5x)
    late_moves: tuple = (0, 8, 12, 20)  # by depth left: quiet moves searched before the rest are pruned
    aspiration: float = 40.0   # half-width of the root's first window from depth 4 (0: full window)
    delta: float = 200.0       # capture search: skip a capture that cannot reach alpha with this margin
    lazy: float = 120.0        # capture search: stand pat without the live evaluation terms when the
                               # rest is this far outside the window (0: always the full evaluation)
    noisy: bool = True         # capture search: ask rules.noisy_moves, not every legal move (the same
                               # tree, faster; False: the old path, for the tests that compare them)
    lazy_legality: bool = True  # test the legality of a move only when it is searched, in a game that
                               # offers it (rules.legal_candidates): the same tree, faster (False: the old path)


class Search(GoalRace, QuietChecks, FightOrder, DecisionNodes):
    """A searcher for one game; keep one per computer seat to reuse its tables between moves."""

    def __init__(self, rules, evaluator: Evaluator | None = None, options: SearchOptions | None = None):
        self.rules = rules
        self.ev = evaluator or Evaluator(rules)
        self.options = options or SearchOptions()
        t = self.ev.table
        self.contempt = float(t.contempt)
        self.repetition = bool(t.repetition_is_draw)
        self.every_node = bool(t.outcome_every_node)
        #: how chance outcomes are averaged: (win, risk_scale, gain_scale, loss), for chance_value
        self.curve = (float(t.win_value), float(t.risk_scale), float(t.gain_scale), float(t.loss_value))
        self.chance_ignore = frozenset(t.chance_key_ignore)
        self._init_chance(t)
        self._init_fight_order(t)
        #: dice fights (``leaf_fights``): a leaf is the evaluation plus the side to move's best
        #: fight by the odds, not a capture search
        self.leaf_fights = bool(t.leaf_fights) and getattr(self.ev, "fights_known", False)
        #: rules.wins_at_once(pos, move), when the game has it: such moves join the capture search
        self.wins_at_once = getattr(rules, "wins_at_once", None)
        #: rules.is_over(pos), a cheap "has the game ended" (Chess 2's Midline Invasion): the
        #: capture search asks it before standing pat, so an ended game is not scored by material
        self.is_over = getattr(rules, "is_over", None)
        #: variables a pass clears (the null move): rights that only the move just made gives
        self.null_clears = tuple(t.null_move_clears)
        #: ``goal_race`` (a table key): an ended game (``is_over``) is scored before any pruning
        #: (reverse futility stood on the material of a position already lost by a Midline
        #: Invasion); and per player the squares next to its goal zone, from which a royal piece
        #: may win at once: the capture search checks the side to move's moves there
        race = bool(t.goal_race) and self.wins_at_once is not None and self.is_over is not None
        self.over_first = self.is_over if race else None
        self._doorstep = doorsteps(rules, self.ev.neighbours) if race else None
        self.null_ok = bool(t.null_move)
        #: a duel's cells judged statically ask rules.outcome (``cell_outcome``; false: only when
        #: the side to move is in check or the game is over)
        self.cell_outcome = bool(t.cell_outcome)
        #: late-move reductions by depth left and moves already searched
        self.reductions = [[0 if d < 3 or c < 2 else int(0.5 + math.log(d) * math.log(c) / 2.0) for c in range(64)]
                           for d in range(64)]
        #: in check, or (dice fights) bound to attack a King it threatens: no standing pat, no
        #: leaf fight (:func:`forced_test`)
        self.forced = forced_test(rules, getattr(rules, "must_attack", None))
        #: the capture search asks rules.noisy_moves (captures, promotions, wins), not legal_moves,
        #: where the game has its own (the default only filters legal_moves: no faster)
        self.noisy = self.options.noisy and getattr(type(rules), "noisy_moves", None) not in (None, Rules.noisy_moves)
        #: rules.legal_candidates(pos, in_check): (pseudo-legal moves, legality test), the test asked
        #: only for the moves the search plays (most of a Dungeon or KoL node's legality tests otherwise
        #: go to moves after a cut-off); None: legal_moves
        self.candidates = getattr(rules, "legal_candidates", None) if self.options.lazy_legality else None
        #: the attack tables when "does this quiet move give check" can be read from them
        #: without playing it (:meth:`_gives_check`): two players, the shared attack test
        #: (no game-specific one), no capture bans, cannons, phasing or piercing rides
        tabs = getattr(rules, "attack_tables", None)
        plain = (rules.nplayers == 2 and tabs is not None and getattr(rules, "capture_bans", None) is None
                 and getattr(type(rules), "is_attacked", None) is Rules.is_attacked
                 and getattr(type(rules), "in_check", None) is Rules.in_check
                 and not any(t.special or any(t.hops) for t in tabs))
        self._check_tables = tabs if plain else None
        self.tt: dict[int, tuple] = {}
        self.history: dict[tuple[int, int], int] = {}
        self._chance_cache: dict[object, list] = {}
        self.nodes = 0
        self._restricted = False

    # ----- the public entry ------------------------------------------------------------------------
    def run(
        self,
        pos: Position,
        *,
        now: Callable[[], float],
        budget: float | None = None,
        stop: Callable[[], bool] | None = None,
        max_depth: int = 64,
        max_nodes: int | None = None,
        exact_root: bool = False,
        on_progress: Callable[[SearchInfo], None] | None = None,
        only: tuple | list | None = None,
    ) -> SearchInfo:
        """Search ``pos`` (left exactly as it was) and return the best action found.

        ``budget``: seconds of ``now()`` time (None: no time limit). ``stop``: polled at
        every node. ``max_nodes``: a deterministic limit. ``exact_root``: give every root
        move an exact score (slower; the levels below the strongest pick among them).
        ``on_progress`` is called after each finished iteration. ``only``: search these root
        actions alone (the coach scores the move that was played).
        """
        rules = self.rules
        start = now()
        pend = pos.pending
        if pend is not None and pend.chance:
            raise ValueError("a chance decision is pending: the dice answer it, not the computer")
        if pend is not None and pend.get("players"):
            raise ValueError("a joint decision is pending: each player answers its part (joint_plan)")
        if pend is not None:
            actions = list(rules.answers(pos))
            root = pend.player if pend.player >= 0 else pos.turn
        else:
            actions = rules.legal_moves(pos)
            root = pos.turn
        if only is not None:
            actions = [a for a in actions if a in only]
        self._restricted = only is not None  # its root score is not the position's: kept out of the table
        self._prepare(pos, root, now, budget, stop, max_nodes, start)
        soft = start + budget * self.options.soft_share if budget is not None else None
        base_depth = pos.depth
        if not actions:
            return SearchInfo(None, 0.0, 0, 0, now() - start)
        ordered = self._order(actions, None, 0)
        best: Action = ordered[0]
        info = SearchInfo(best, 0.0, 0, 0, 0.0, (best,))
        if len(actions) == 1 and not exact_root and only is None:
            return SearchInfo(best, 0.0, 0, 0, now() - start, (best,))
        scores: dict[Action, float] = {}
        stopped = False
        last = None
        for depth in range(1, max_depth + 1):
            self._partial = None
            try:
                it_best, it_score, it_scores = self._root(ordered, depth, exact_root, last)
            except _Abort:
                stopped = True
                while pos.depth > base_depth:
                    rules.undo(pos)
                if self._partial is not None and not exact_root:
                    b, s = self._partial
                    info = SearchInfo(b, s, depth - 1, self.nodes, now() - start,
                                      (b,) + info.pv[1:] if info.pv and info.pv[0] == b else (b,),
                                      info.root_scores, True)
                break
            if it_best is None:  # no root action could be applied (engine errors, reported)
                break
            scores = it_scores
            last = it_score
            pv = self._pv(it_best, depth)
            ordered = [it_best] + [a for a in ordered if a != it_best]
            if exact_root:
                ordered = [it_best] + sorted((a for a in ordered[1:]), key=lambda a: -scores.get(a, -INF))
            info = SearchInfo(it_best, it_score, depth, self.nodes, now() - start, pv,
                              tuple(scores.items()) if exact_root else ())
            if on_progress is not None:
                on_progress(info)
            if abs(it_score) >= MATE_BOUND and MATE - abs(it_score) <= depth:
                break  # a forced result is proven within the searched depth
            if soft is not None and now() >= soft:
                stopped = depth < max_depth
                break
        else:
            stopped = False
        while pos.depth > base_depth:
            rules.undo(pos)
        return SearchInfo(info.best, info.score, info.depth, self.nodes, now() - start, info.pv,
                          info.root_scores, stopped, tuple(self.engine_errors))

    def _prepare(self, pos: Position, root: int, now, budget, stop, max_nodes, start) -> None:
        """Set up a search of ``pos`` for ``root``: clock, limits, tables, the game's history."""
        self.now, self.stop = now, stop
        self.deadline = start + budget * self.options.hard_share if budget is not None else None
        self.max_nodes = max_nodes
        self.nodes = 0
        self.engine_errors: list[str] = []
        self.pos = pos
        self.root = root
        #: the players on the root's side (a team game's partner too): they maximise
        allies = getattr(self.rules, "allies", None)
        self.allies = frozenset(allies(root)) if allies is not None else frozenset({root})
        self.royals = sum(map(len, pos.royals))
        self.salt = splitmix64(0x5EA4C4 + root)
        self.draw = -self.contempt
        self.multi = pos.nplayers > 2
        self.killers: list[list[Action]] = [[] for _ in range(160)]
        #: the moves on the current line by ply (``path[ply - 1]`` led to a node at ``ply``) and
        #: the counter-move table: the quiet move that last refuted a move (from, to)
        self.path: list = []
        self.counters: dict[tuple[int, int], Move] = {}
        self.prunable = self.options.pruning and not self.multi
        self.history = {k: v // 4 for k, v in self.history.items() if v // 4}  # older searches count less
        if len(self.tt) > 2 * self.options.tt_limit or len(self._chance_cache) > 10_000:
            self.trim()  # a caller that never calls trim() between moves
        seen: dict[int, int] = {}
        for h in pos.history:
            seen[h] = seen.get(h, 0) + 1
        self.seen = seen

    def trim(self) -> None:
        """Empty the tables that have grown past their limits. Call it between moves (the
        match driver and the app's worker do, after the move is out): freeing a 300,000-entry
        table takes tens of milliseconds, which must not come out of a move's time."""
        if len(self.tt) > self.options.tt_limit:
            self.tt = {}
        if len(self._chance_cache) > 5_000:  # its answers are objects the GC must walk
            self._chance_cache = {}
        self.ev.trim()

    # ----- root ----------------------------------------------------------------------------------------
    def _root(self, ordered, depth, exact, last=None):
        """One iteration at the root. After depth 4 (not for ``exact``) it first searches a
        window of ``aspiration`` centipawns around the last iteration's score and widens it to
        the full window when the best score falls outside."""
        width = self.options.aspiration
        if exact or not width or last is None or depth < 4 or abs(last) >= MATE_BOUND:
            return self._root_window(ordered, depth, exact, -INF, INF)
        lo, hi = last - width, last + width
        best, score, scores = self._root_window(ordered, depth, exact, lo, hi)
        if lo < score < hi:
            return best, score, scores
        if score >= hi:  # failed high: a better move; its own bound is the start of the full window
            return self._root_window([best] + [a for a in ordered if a != best], depth, exact, -INF, INF)
        return self._root_window(ordered, depth, exact, -INF, INF)

    def _root_window(self, ordered, depth, exact, alpha, beta):
        rules, pos = self.rules, self.pos
        lo = alpha
        best, best_score = None, -INF
        scores: dict[Action, float] = {}
        h = pos.hash
        self.seen[h] = self.seen.get(h, 0) + 1
        try:
            for i, a in enumerate(ordered):
                if not self._apply(a):
                    continue
                self.path[:] = [a]
                try:
                    if exact:
                        v = self._ab(depth - 1, -INF, INF, 1)
                    elif best is None:
                        v = self._ab(depth - 1, alpha, beta, 1)
                    else:
                        v = self._ab(depth - 1, alpha, alpha + 1, 1)  # null window: prove it is worse
                        if alpha < v < beta:
                            v = self._ab(depth - 1, alpha, beta, 1)
                finally:
                    rules.undo(pos)
                scores[a] = v
                if v > best_score:
                    best, best_score = a, v
                    if v > lo:  # not a bound below the window: good enough to answer with
                        self._partial = (a, v)
                    if v > alpha:
                        alpha = v
                if alpha >= beta:
                    break
        finally:
            self.seen[h] -= 1
        if best is not None and lo < best_score < beta and not self._restricted:
            self.tt[h ^ self.salt] = (depth, _EXACT, best_score, hash(best))
        return best, best_score, scores

    # ----- the tree --------------------------------------------------------------------------------------
    def _tick(self) -> None:
        self.nodes += 1
        if self.stop is not None and self.stop():
            raise _Abort
        if self.deadline is not None and self.now() >= self.deadline:
            raise _Abort
        if self.max_nodes is not None and self.nodes >= self.max_nodes:
            raise _Abort

    def _terminal(self, o: Outcome, ply: int) -> float:
        if not o.winners:
            return self.draw
        return MATE - ply if self.root in o.winners else -(MATE - ply)

    def _ab(self, depth: int, alpha: float, beta: float, ply: int, null: bool = True) -> float:
        """Alpha-beta below the root: a max node where the root player moves, a min node
        otherwise. Principal variation search (the moves after the first are searched with a
        null window and again only if they might be better), late-move reductions; in games of
        two players, with no decision pending and not in check: reverse futility, a null move
        (``null``: not twice in a row) and futility pruning of quiet moves near the leaves."""
        self._tick()
        pos, rules = self.pos, self.rules
        pend = pos.vars.get("pending")
        plies = False  # a decision whose answers are plies of their own (a king-turn)
        if pend is not None:
            if pend.chance:
                return self._chance(depth, alpha, beta, ply, False)
            if pend.get("players"):
                return self._joint(pend, depth, ply, False, 0)
            if not pend.get("ply"):
                return self._choice(pend, depth, alpha, beta, ply, False)
            plies = True
        if self.multi and self.root in pos.vars.get("out", ()):
            return -(MATE - ply)
        h = pos.hash
        seen = self.seen
        if self.repetition and h in seen and seen[h] > 0:
            return self.draw
        if depth <= 0:
            if (self.leaf_fights and self.options.quiescence and sum(map(len, pos.royals)) == self.royals
                    and not self.forced(pos)):
                gain = self.ev.fight_gain(pos)
                return self._leaf(ply) + (gain if pos.turn in self.allies else -gain)
            if self.options.quiescence:
                return self._qs(alpha, beta, ply, 0)
            return self._leaf(ply)
        if self.over_first is not None and self.over_first(pos):
            o = rules.outcome(pos)
            if o is not None:
                return self._terminal(o, ply)
        key = h ^ self.salt
        entry = self.tt.get(key)
        tt_move = None
        if entry is not None:
            edepth, flag, escore, tt_move = entry
            if edepth >= depth:
                s = escore
                if s >= MATE_BOUND:
                    s -= ply
                elif s <= -MATE_BOUND:
                    s += ply
                if flag == _EXACT:
                    return s
                if flag == _LOWER and s >= beta:
                    return s
                if flag == _UPPER and s <= alpha:
                    return s
        maxi = (pend.player if plies else pos.turn) in self.allies
        in_check = rules.in_check(pos)
        opts = self.options
        prune = (self.prunable and not plies and not in_check and beta - alpha <= 1.0 and abs(beta) < MATE_BOUND
                 and (self._doorstep is None or not self._threatened(pos)))
        static = None
        if prune:
            static = self._leaf(ply)
            # reverse futility: far enough above beta (below alpha) near the leaves, stop here
            if depth <= 3:
                margin = opts.futility * depth
                if static - margin >= beta if maxi else static + margin <= alpha:
                    return static
            # the null move: even passing, the side to move stays at or beyond the bound
            if (null and self.null_ok and depth >= 3 and (static >= beta if maxi else static <= alpha)
                    and self._has_pieces(pos.turn)):
                r = 3 if depth >= 6 else 2
                self._null_move()
                try:
                    if maxi:
                        v = self._ab(depth - 1 - r, beta - 1.0, beta, ply + 1, False)
                    else:
                        v = self._ab(depth - 1 - r, alpha, alpha + 1.0, ply + 1, False)
                finally:
                    rules.undo(pos)
                if (v >= beta if maxi else v <= alpha) and abs(v) < MATE_BOUND:
                    return v
        legal = None  # a legality test per move: only the moves searched are tested (rules.legal_candidates)
        if plies:
            moves = rules.answers(pos)
        elif self.candidates is not None and not in_check and (got := self.candidates(pos, False)) is not None:
            moves, legal = got
        else:
            moves = rules.legal_moves(pos)
        if not moves or self.every_node:
            o = rules.outcome(pos)
            if o is not None:
                return self._terminal(o, ply)
            if not moves:
                return self._leaf(ply)
        if in_check and opts.check_extension and ply < 40:
            depth += 1
        # futility: near the leaves, quiet moves cannot lift a score this far below alpha
        # (above beta) unless they give check
        futile = (static is not None and depth <= 2
                  and (static + opts.futility * 1.5 * depth <= alpha if maxi else static - opts.futility * 1.5 * depth >= beta))
        late = opts.late_moves[depth] if prune and depth < len(opts.late_moves) else 1_000
        near = self._lines_to_royals(pos) if futile or late < 1_000 or (opts.lmr and depth >= 3) else ()
        prev = self.path[ply - 1] if 0 < ply <= len(self.path) else None
        ckey = (prev.frm, prev.to) if isinstance(prev, Move) else None
        counters = self.counters
        ordered = self._order(moves, tt_move, ply, True, counters.get(ckey) if ckey is not None else None)
        path = self.path
        del path[ply:]
        a0, b0 = alpha, beta
        best = -INF if maxi else INF
        best_move = None
        killers = self.killers[ply] if ply < len(self.killers) else []
        lmr = opts.lmr and depth >= 3 and not in_check
        reductions = self.reductions
        hist = self.history
        seen[h] = seen.get(h, 0) + 1
        apply, undo, ab, check, wins = self._apply, rules.undo, self._ab, rules.in_check, self.wins_at_once
        tried: list = []
        count = 0
        see_here = depth <= self.fight_see_depth and not in_check and not plies
        try:
            for m in ordered:
                quiet = _is_quiet(m)
                if quiet and wins is not None and not plies and (wins(pos, m) or pos.board[m.frm].kind.royal):
                    quiet = False  # a move that wins at once (a Midline Invasion), or a royal's walk
                    # toward its goal (worth more than any futility margin), is never cut short
                if (see_here and not quiet and count and isinstance(m, Move) and m.capture is not None
                        and not m.promotion and (w := self._fight_worth(m)) is not None and w < 0):
                    continue  # a bad gamble by its odds, this near the leaves (fight_see_depth)
                if quiet and count and (futile or count >= late) and m not in killers and hash(m) != tt_move:
                    if not (m.to in near or m.frm in near):  # cannot check: pruned unplayed
                        continue
                    gives = self._gives_check(m)
                    if gives is False:  # read from the attack tables: no check, pruned unplayed
                        continue
                    if (legal is not None and not legal(m)) or not apply(m):
                        continue
                    if gives is None and not check(pos):  # a quiet move that does not check: pruned
                        undo(pos)
                        continue
                elif (legal is not None and not legal(m)) or not apply(m):
                    continue
                path.append(m)
                if plies and not isinstance(m.value, Move):
                    # passing the king-turn is no move: it spends no depth (otherwise a Two
                    # Kings search never sees the reply to its own normal move)
                    v = ab(depth, alpha, beta, ply + 1)
                elif count == 0 or best in (INF, -INF):
                    v = ab(depth - 1, alpha, beta, ply + 1)
                else:
                    r = 0
                    if lmr and quiet and count >= 2 and m not in killers and not (
                            (not isinstance(m, Move) or m.to in near or m.frm in near) and check(pos)):
                        r = min(reductions[min(depth, 63)][min(count, 63)], depth - 2)
                    if maxi:
                        v = ab(depth - 1 - r, alpha, alpha + 1.0, ply + 1)
                        if v > alpha and r:
                            v = ab(depth - 1, alpha, alpha + 1.0, ply + 1)
                        if alpha < v < beta:
                            v = ab(depth - 1, alpha, beta, ply + 1)
                    else:
                        v = ab(depth - 1 - r, beta - 1.0, beta, ply + 1)
                        if v < beta and r:
                            v = ab(depth - 1, beta - 1.0, beta, ply + 1)
                        if alpha < v < beta:
                            v = ab(depth - 1, alpha, beta, ply + 1)
                undo(pos)
                del path[ply:]
                count += 1
                if maxi:
                    if v > best:
                        best, best_move = v, m
                        if v > alpha:
                            alpha = v
                else:
                    if v < best:
                        best, best_move = v, m
                        if v < beta:
                            beta = v
                if alpha >= beta:
                    if quiet and isinstance(m, Move):
                        if m not in killers:
                            killers.insert(0, m)
                            del killers[2:]
                        if ckey is not None:
                            counters[ckey] = m
                        bonus = depth * depth
                        k = (m.frm, m.to)
                        hist[k] = hist.get(k, 0) + bonus
                        for q in tried:  # the quiet moves tried before it did not cut: less likely next time
                            k = (q.frm, q.to)
                            hist[k] = hist.get(k, 0) - bonus
                    break
                if quiet and isinstance(m, Move):
                    tried.append(m)
        finally:
            seen[h] -= 1
        if best_move is None:  # every move failed to apply (an engine error, reported)
            return self._leaf(ply)
        flag = _UPPER if best <= a0 else _LOWER if best >= b0 else _EXACT
        s = best
        if s >= MATE_BOUND:
            s += ply
        elif s <= -MATE_BOUND:
            s -= ply
        self.tt[key] = (depth, flag, s, hash(best_move))
        return best

    def _null_move(self) -> None:
        """The side to move passes (one undo step): the turn goes on; variables that only the
        move just made allows (``null_move_clears``: en passant) are cleared."""
        pos = self.pos
        pos.begin()
        for name in self.null_clears:
            if name in pos.vars:
                pos.set_var(name, None)
        pos.set_turn(self.rules.next_player(pos))

    def _pass_to(self, player: int) -> None:
        """Give ``player`` the move (one undo step), as :meth:`_null_move` passes: the coach asks
        what an opponent could do if it were to move now."""
        pos = self.pos
        pos.begin()
        for name in self.null_clears:
            if name in pos.vars:
                pos.set_var(name, None)
        pos.set_turn(player)

    def _capture_value(self) -> float | None:
        """The capture search's value of the position (root's side) after a capture just
        applied, its decisions (a fight, a duel) included; None if the node limit stopped it
        (the position is then unwound to where it was)."""
        depth = self.pos.depth
        try:
            return self._qs(-INF, INF, 1, 0)
        except _Abort:
            while self.pos.depth > depth:
                self.rules.undo(self.pos)
            return None

    def _has_pieces(self, player: int) -> bool:
        """Pieces besides pawn-like and royal ones (no null move without: zugzwang)."""
        board, role = self.pos.board, self.ev.role
        return any(role[board[s].kid] == 2 for s in self.pos.occ[player])

    def _qs(self, alpha: float, beta: float, ply: int, qply: int, candidates: bool = True) -> float:
        """The capture search: stand pat on the static evaluation (not in check), then captures
        that do not lose material (SEE), promotions and moves that win at once; delta pruning
        skips a capture that cannot lift the score to alpha (beta) even with a margin."""
        self._tick()
        pos, rules = self.pos, self.rules
        pend = pos.vars.get("pending")
        if pend is not None:
            if pend.chance:
                return self._chance(0, alpha, beta, ply, True, qply)
            if pend.get("players"):
                return self._joint(pend, 0, ply, True, qply)
            return self._choice(pend, 0, alpha, beta, ply, True, qply)
        if self.multi and self.root in pos.vars.get("out", ()):
            return -(MATE - ply)
        maxi = pos.turn in self.allies
        moves = own = None  # own: rules.noisy_moves, asked already
        if self._doorstep is not None and any(k in self._doorstep[pos.turn] for k in pos.royals[pos.turn]):
            # a move that wins at once is one of the capture search's own moves (rules.noisy_moves)
            own = rules.noisy_moves(pos) if self.noisy else None
            moves = rules.legal_moves(pos) if own is None else None
            if self._wins_next(pos, own if moves is None else moves):  # standing pat would score a won race
                return MATE - (ply + 1) if maxi else -(MATE - (ply + 1))
        in_check = self.forced(pos)
        stand = legal = None
        asked = False  # rules.outcome asked already (it said the game goes on)
        if not in_check or qply >= self.options.max_qply:
            if self.every_node or sum(map(len, pos.royals)) < self.royals or (
                    self.is_over is not None and self.is_over(pos)):
                # a royal piece fell (a King lost its fight): ended, whatever the material says
                o = rules.outcome(pos)
                if o is not None:
                    return self._terminal(o, ply)
                asked = True
            lazy = self.options.lazy
            stand = self.ev.evaluate_lazy(pos, self.root, alpha, beta, lazy) if lazy else self._leaf(ply)
            if qply >= self.options.max_qply:
                return stand
            if maxi:
                if stand >= beta:
                    return stand
                if stand > alpha:
                    alpha = stand
            else:
                if stand <= alpha:
                    return stand
                if stand < beta:
                    beta = stand
        noisy_list = False  # moves from rules.noisy_moves: captures, promotions and wins only
        if moves is None and stand is not None and self.noisy:
            # only the moves played here (rules.noisy_moves: no quiet move generated or
            # checked); none of them: no move at all may still end the game (stalemate)
            moves, noisy_list = rules.noisy_moves(pos) if own is None else own, True
            if not moves:
                if not asked and not rules.has_legal_move(pos):
                    o = rules.outcome(pos)
                    if o is not None:
                        return self._terminal(o, ply)
                return stand
        elif moves is None and stand is None and candidates and self.candidates is not None and (
                got := self.candidates(pos, True)) is not None:
            moves, legal = got  # in check: each move's legality tested when it is played
        elif moves is None:
            moves = rules.legal_moves(pos)
        if not moves and legal is None:
            o = rules.outcome(pos)
            if o is not None:
                return self._terminal(o, ply)
            return stand if stand is not None else self._leaf(ply)
        if stand is not None:
            wins = self.wins_at_once
            board, values = pos.board, self.ev.order_values
            delta, see = self.options.delta, self.fight_see
            keep = []
            for m in moves:
                if m.capture is not None:
                    victim = board[m.capture]
                    gain = values[victim.kid] if victim is not None else 0.0
                    if delta and not m.promotion and (stand + gain + delta <= alpha if maxi else stand - gain - delta >= beta):
                        continue
                    if see and not m.promotion and (w := self._fight_worth(m)) is not None and w < 0:
                        continue  # a fight worth less than nothing by its odds (fight_see)
                    if not self._losing_capture(m):
                        keep.append(m)
                elif noisy_list or getattr(m, "promotion", None) or (wins is not None and wins(pos, m)):
                    keep.append(m)  # rules.noisy_moves gives only promotions and wins besides captures
            moves = keep
            if not moves:
                return stand
        ordered = self._order(moves, None, ply)
        best = stand if stand is not None else (-INF if maxi else INF)
        apply, undo, qs = self._apply, rules.undo, self._qs
        played = legal is None
        for m in ordered:
            if legal is not None:
                if not legal(m):
                    continue
                played = True
            if not apply(m):
                continue
            v = qs(alpha, beta, ply + 1, qply + 1)
            undo(pos)
            if maxi:
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
            else:
                if v < best:
                    best = v
                    if v < beta:
                        beta = v
            if alpha >= beta:
                break
        if not played:  # no candidate was legal: legal_moves decides (a passed turn, a mate), as before
            self.nodes -= 1
            return self._qs(alpha, beta, ply, qply, False)
        if best in (INF, -INF):
            return self._leaf(ply)
        return best

    def _losing_capture(self, m: Move) -> bool:
        """A capture of a cheaper piece on a square an opponent defends: skipped in the capture
        search (a cheap stand-in for static exchange evaluation)."""
        board = self.pos.board
        victim, attacker = board[m.capture], board[m.frm]
        if victim is None or attacker is None:
            return False
        ov = self.ev.order_values
        if ov[victim.kid] >= ov[attacker.kid]:
            return False
        rules = self.rules
        return any(rules.is_attacked(self.pos, m.to, q) for q in range(self.pos.nplayers)
                   if q != attacker.owner and q not in self.pos.vars.get("out", ()))

    def _apply(self, action) -> bool:
        """Apply a player's action; an engine error skips that action and is reported in
        ``SearchInfo.engine_errors`` (the game goes on; the bug gets logged, not hidden)."""
        try:
            self.rules.apply(self.pos, action)
            return True
        except Exception as e:  # the engine undid its own frame before raising
            if len(self.engine_errors) < 5:
                self.engine_errors.append(f"{type(e).__name__}: {e} (applying {action!r})")
            return False

    def _leaf(self, ply: int) -> float:
        return self.ev.evaluate(self.pos, self.root)

    # ----- ordering and the principal variation ---------------------------------------------------------
    def _order(self, actions, tt_move, ply: int, tree: bool = False, counter=None):
        """Table move, winning and even captures (most valuable victim, least valuable
        attacker), promotions, killers, quiet moves by history, and in the tree (``tree``) the
        captures of a cheaper piece on a defended square last."""
        if not actions or not isinstance(actions[0], Move):
            if tt_move is not None:  # answers (a king-turn): the table's first, the rest as given
                first = [a for a in actions if hash(a) == tt_move]
                return first + [a for a in actions if hash(a) != tt_move]
            return list(actions)
        board = self.pos.board
        ov = self.ev.order_values
        killers = self.killers[ply] if ply < len(self.killers) else ()
        hist = self.history
        index = self.rules.kind_index
        fights = self.fight_order

        def key(m: Move) -> float:
            if tt_move is not None and hash(m) == tt_move:
                return 1e12
            s = 0.0
            if m.capture is not None:
                victim = board[m.capture]
                s = 1e9 + ov[victim.kid] * 64 - ov[board[m.frm].kid] if victim is not None else 1e9
                if fights and (w := self._fight_worth(m)) is not None:  # by the fight's odds (fight_order):
                    s = 1e9 + 64 * w if w >= 0 or not tree else -1e9 + 64 * w  # a bad gamble after quiet moves
                if tree and not m.promotion and self._losing_capture(m):
                    return s - 2e9
            if m.promotion:
                s += 5e8 + ov[index[m.promotion]]
            if s:
                return s
            if m in killers:
                return 1e8 - killers.index(m)
            if m == counter:
                return 9e7
            return hist.get((m.frm, m.to), 0)

        # ties broken by the move itself: the engine's piece sets iterate in an order that can
        # change after apply/undo, and the search must not depend on it (determinism)
        return sorted(actions, key=lambda m: (-key(m), m.frm, m.to, -1 if m.capture is None else m.capture,
                                              m.promotion or "", m.special))

    def _pv(self, first: Action, depth: int) -> tuple:
        rules, pos = self.rules, self.pos
        pv = [first]
        rules.apply(pos, first)
        applied = 1
        try:
            for _ in range(depth - 1):
                if pos.pending is not None:
                    break
                e = self.tt.get(pos.hash ^ self.salt)
                if e is None or e[3] is None:
                    break
                move = next((m for m in rules.legal_moves(pos) if hash(m) == e[3]), None)
                if move is None:
                    break
                pv.append(move)
                rules.apply(pos, move)
                applied += 1
        finally:
            for _ in range(applied):
                rules.undo(pos)
        return tuple(pv)


