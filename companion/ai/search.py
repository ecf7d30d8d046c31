"""One search for every game, over the engine's public API only.

``legal_moves``, ``apply``, ``undo``, ``outcome``, ``in_check``, ``is_attacked``, the pending
``Decision``, ``chance_outcomes`` and ``answers`` are all it uses, so a new game needs no
search code.

* Iterative deepening alpha-beta with a transposition table keyed by ``pos.hash`` (salted by
  the searching player), move ordering (table move, captures by most valuable victim / least
  valuable attacker, promotions, two killers per ply, history), late-move reductions, a check
  extension and a quiescence search over captures and promotions.
* Scores are always from the searching ("root") player's side: a node is a max node when
  the root player decides and a min node otherwise. With two players that is negamax written
  out; with three or four it is the *paranoid* search (every opponent is assumed to play
  against the root player), which keeps alpha-beta sound and is what makes a 4-player tree
  searchable at all in Python (docs/ai.md explains the choice against max-n).
* Chance decisions (a Combat Chess fight) are expectation nodes over the exact
  ``chance_outcomes`` (no sampling), pruned with Ballard's Star1 windows. Outcomes are averaged
  in centipawns with a won or lost game counting ``win_value`` (:func:`chance_value`), so a
  long shot at the enemy king is not worth a queen. Choice decisions (promotion pick, a bid)
  are max/min nodes of the player who answers. Answers do not use up depth: they finish a turn.
* The clock is a value passed in: ``now()`` returns seconds, ``stop()`` says "stop now". Both
  are checked at every node, so the search answers within its budget and stops at once; the
  best move of the deepest finished iteration (or of the unfinished one, once its first move
  is searched) is returned. Nothing here reads the clock, starts a thread or draws a random
  number; with a node or depth limit instead of a time budget the result is deterministic.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Optional

from ..core.moves import Answer, Move, Outcome
from ..core.position import Position, splitmix64
from .evaluate import Evaluator

MATE = 1_000_000.0
MATE_BOUND = MATE - 10_000.0
INF = float("inf")
_EXACT, _LOWER, _UPPER = 0, 1, 2
_RARE_CHANCE = 0.02          # rarer chance outcomes are judged statically (still weighted exactly)


def chance_value(score: float, win: float, scale: float = 0.0, gain: float = 0.0, loss: float = 0.0) -> float:
    """What a score counts for when chance outcomes are averaged.

    A won game counts ``win`` plus up to one more the sooner it ends; a lost one ``-loss``
    (``-win`` when ``loss`` is 0) minus up to one more. Any other score counts inside
    (-loss, win):

    * ``scale`` set: on the curve (win - 1) * tanh(score * ln(10) / (2 * scale)) --
      proportional to the win chance a logistic model with ``scale`` centipawns per 10:1 odds
      gives the score;
    * ``gain`` set: a lead counts ``gain * tanh(score / gain)`` (worth less and less the
      larger it is: a side far ahead weighs a fight's risk above its gain, and a long shot at
      the enemy King above the lead it already has), a deficit counts as itself;
    * neither: as itself, clamped.

    Strictly increasing in every case, so it orders scores as they are.
    """
    lose = loss or win
    if score >= MATE_BOUND:
        return win + (min(score, MATE) - MATE_BOUND) / (MATE - MATE_BOUND)
    if score <= -MATE_BOUND:
        return -lose - (min(-score, MATE) - MATE_BOUND) / (MATE - MATE_BOUND)
    if score == INF or score == -INF:
        return score
    if scale:
        return (win - 1.0) * math.tanh(score * _HALF_LN10 / scale)
    if gain and score > 0:
        return min(win - 1.0, gain * math.tanh(score / gain))
    return max(1.0 - lose, min(win - 1.0, score))


def score_of_value(v: float, win: float, scale: float = 0.0, gain: float = 0.0, loss: float = 0.0) -> float:
    """The inverse of :func:`chance_value`: a mate score past ``win`` (``-loss``), centipawns
    between."""
    lose = loss or win
    if v >= win:
        return MATE_BOUND + min(v - win, 1.0) * (MATE - MATE_BOUND)
    if v <= -lose:
        return -MATE_BOUND - min(-lose - v, 1.0) * (MATE - MATE_BOUND)
    if scale:
        x = max(-_ATANH_LIMIT, min(_ATANH_LIMIT, v / (win - 1.0)))
        return math.atanh(x) * scale / _HALF_LN10
    if gain and v > 0:
        return gain * math.atanh(min(_ATANH_LIMIT, v / gain))
    return v


_HALF_LN10 = math.log(10.0) / 2.0
_ATANH_LIMIT = 1.0 - 1e-15


class _Abort(Exception):
    """Raised inside the tree when time is up or a stop was asked; caught at the root."""


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
    soft_share: float = 0.5    # no new iteration starts after this share of the budget


class Search:
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
        #: rules.wins_at_once(pos, move), when the game has it: such moves join the capture search
        self.wins_at_once = getattr(rules, "wins_at_once", None)
        #: rules.is_over(pos), a cheap "has the game ended" (Chess 2's Midline Invasion): the
        #: capture search asks it before standing pat, so an ended game is not scored by material
        self.is_over = getattr(rules, "is_over", None)
        #: dice fights: the side to move must attack a King it threatens (no standing pat then)
        self.must_attack = getattr(rules, "must_attack", None)
        self.tt: dict[int, tuple] = {}
        self.history: dict[tuple[int, int], int] = {}
        self._chance_cache: dict[object, list] = {}
        self.nodes = 0

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
    ) -> SearchInfo:
        """Search ``pos`` (left exactly as it was) and return the best action found.

        ``budget``: seconds of ``now()`` time (None: no time limit). ``stop``: polled at
        every node. ``max_nodes``: a deterministic limit. ``exact_root``: give every root
        move an exact score (slower; the levels below the strongest pick among them).
        ``on_progress`` is called after each finished iteration.
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
        self._prepare(pos, root, now, budget, stop, max_nodes, start)
        soft = start + budget * self.options.soft_share if budget is not None else None
        base_depth = pos.depth
        if not actions:
            return SearchInfo(None, 0.0, 0, 0, now() - start)
        ordered = self._order(actions, None, 0)
        best: Action = ordered[0]
        info = SearchInfo(best, 0.0, 0, 0, 0.0, (best,))
        if len(actions) == 1 and not exact_root:
            return SearchInfo(best, 0.0, 0, 0, now() - start, (best,))
        scores: dict[Action, float] = {}
        stopped = False
        for depth in range(1, max_depth + 1):
            self._partial = None
            try:
                it_best, it_score, it_scores = self._root(ordered, depth, exact_root)
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
        if len(self.tt) > 2 * self.options.tt_limit or len(self._chance_cache) > 10_000:
            self.trim()  # a caller that never calls trim() between moves
        seen: dict[int, int] = {}
        for h in pos.history:
            seen[h] = seen.get(h, 0) + 1
        self.seen = seen

    def joint_plan(self, pos: Position, seat: int, *, now: Callable[[], float], budget: float | None = None,
                   stop: Callable[[], bool] | None = None, max_nodes: int | None = None, max_depth: int = 64):
        """``seat``'s mixed strategy for its part of the pending joint decision (a duel's bids):
        every pair of parts is searched from ``seat``'s side (iterative deepening, the last
        complete matrix kept) and the matrix game solved exactly (companion.ai.duel). ``pos``
        is left as it was."""
        from .duel import JointPlan, solve

        pend = pos.pending
        players = pend.get("players") if pend is not None else None
        if not players or seat not in players:
            raise ValueError(f"no joint decision for player {seat + 1} is pending")
        start = now()
        self._prepare(pos, seat, now, budget, stop, max_nodes, start)
        soft = start + budget * self.options.soft_share if budget is not None else None
        mine = players.index(seat)
        options = pend.get("options")
        base_depth = pos.depth
        matrix, depth_done = None, 0
        for depth in range(1, max_depth + 1):
            try:
                cells = self._joint_cells(pend, depth - 1, 1, False, 0)
            except _Abort:
                while pos.depth > base_depth:
                    self.rules.undo(pos)
                break
            matrix, depth_done = cells, depth
            if soft is not None and now() >= soft:
                break
        if matrix is None:  # stopped before one matrix was complete: judge the cells statically
            self.max_nodes, self.deadline, self.stop = None, None, None
            matrix = self._joint_cells(pend, 0, 1, True, self.options.chance_qply)
        own = matrix if mine == 0 else [list(col) for col in zip(*matrix)]
        sol = solve([[self._payoff(v) for v in row] for row in own])
        return JointPlan(seat, tuple(options[mine]), sol.rows, self._score_of(sol.value),
                         tuple(tuple(row) for row in own), depth_done, self.nodes)

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
    def _root(self, ordered, depth, exact):
        rules, pos = self.rules, self.pos
        alpha, beta = -INF, INF
        best, best_score = None, -INF
        scores: dict[Action, float] = {}
        self._partial = None
        h = pos.hash
        self.seen[h] = self.seen.get(h, 0) + 1
        try:
            for i, a in enumerate(ordered):
                if not self._apply(a):
                    continue
                try:
                    if exact:
                        v = self._ab(depth - 1, -INF, INF, 1)
                    elif i == 0:
                        v = self._ab(depth - 1, alpha, beta, 1)
                    else:
                        v = self._ab(depth - 1, alpha, alpha + 1, 1)  # null window: prove it is worse
                        if v > alpha:
                            v = self._ab(depth - 1, alpha, beta, 1)
                finally:
                    rules.undo(pos)
                scores[a] = v
                if v > best_score:
                    best, best_score = a, v
                    self._partial = (a, v)
                    if v > alpha:
                        alpha = v
        finally:
            self.seen[h] -= 1
        key = h ^ self.salt
        self.tt[key] = (depth, _EXACT, best_score, hash(best))
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

    def _ab(self, depth: int, alpha: float, beta: float, ply: int) -> float:
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
            if self.options.quiescence:
                return self._qs(alpha, beta, ply, 0)
            return self._leaf(ply)
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
        moves = rules.answers(pos) if plies else rules.legal_moves(pos)
        if not moves or self.every_node:
            o = rules.outcome(pos)
            if o is not None:
                return self._terminal(o, ply)
            if not moves:
                return self._leaf(ply)
        maxi = (pend.player if plies else pos.turn) in self.allies
        in_check = rules.in_check(pos)
        if in_check and self.options.check_extension and ply < 40:
            depth += 1
        ordered = self._order(moves, tt_move, ply)
        a0, b0 = alpha, beta
        best = -INF if maxi else INF
        best_move = None
        killers = self.killers[ply] if ply < len(self.killers) else []
        lmr = self.options.lmr and depth >= 3 and not in_check
        seen[h] = seen.get(h, 0) + 1
        apply, undo, ab = self._apply, rules.undo, self._ab
        try:
            for i, m in enumerate(ordered):
                if not apply(m):
                    continue
                quiet = _is_quiet(m)
                if plies and not isinstance(m.value, Move):
                    # passing the king-turn is no move: it spends no depth (otherwise a Two
                    # Kings search never sees the reply to its own normal move)
                    v = ab(depth, alpha, beta, ply + 1)
                elif lmr and i >= 3 and quiet and m not in killers:
                    v = ab(depth - 2, alpha, beta, ply + 1)
                    if (v > alpha) if maxi else (v < beta):
                        v = ab(depth - 1, alpha, beta, ply + 1)
                else:
                    v = ab(depth - 1, alpha, beta, ply + 1)
                undo(pos)
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
                        k = (m.frm, m.to)
                        self.history[k] = self.history.get(k, 0) + depth * depth
                    break
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
        self.tt[key] = (depth, flag, s, hash(best_move) if best_move is not None else None)
        return best

    def _qs(self, alpha: float, beta: float, ply: int, qply: int) -> float:
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
        in_check = rules.in_check(pos) or (self.must_attack is not None and self.must_attack(pos))
        stand = None
        if not in_check or qply >= self.options.max_qply:
            if self.every_node or sum(map(len, pos.royals)) < self.royals or (
                    self.is_over is not None and self.is_over(pos)):
                # a royal piece fell (a King lost its fight): ended, whatever the material says
                o = rules.outcome(pos)
                if o is not None:
                    return self._terminal(o, ply)
            stand = self._leaf(ply)
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
        moves = rules.legal_moves(pos)
        if not moves:
            o = rules.outcome(pos)
            if o is not None:
                return self._terminal(o, ply)
            return stand if stand is not None else self._leaf(ply)
        if stand is not None:
            wins = self.wins_at_once
            moves = [m for m in moves if (m.capture is not None and not self._losing_capture(m))
                     or getattr(m, "promotion", None) or (wins is not None and wins(pos, m))]
            if not moves:
                return stand
        ordered = self._order(moves, None, ply)
        best = stand if stand is not None else (-INF if maxi else INF)
        apply, undo, qs = self._apply, rules.undo, self._qs
        for m in ordered:
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
        if best in (INF, -INF):
            return self._leaf(ply)
        return best

    def _chance(self, depth: int, alpha: float, beta: float, ply: int, quiet: bool, qply: int = 0) -> float:
        """Expectation over the exact outcomes, with Star1 windows.

        Outcomes are averaged as :func:`chance_value`: centipawns, with a won or lost game
        counting ``win_value`` (50 pawns by default) rather than a mate score: a 5% chance of
        taking the enemy king must not outweigh losing the queen (5% of a mate score would).
        Star1 (Ballard 1983): each outcome is searched with the window that, given the outcomes
        already searched and the bounds on the rest, would already decide the node.
        """
        pos, rules = self.pos, self.rules
        key = self._chance_key(pos)
        outs = self._chance_cache.get(key)
        if outs is None:
            outs = [(o.answer, float(o.probability)) for o in rules.chance_outcomes(pos)]
            outs.sort(key=lambda ap: -ap[1])
            self._chance_cache[key] = outs
        curve = self.curve
        win, loss = curve[0], curve[3] or curve[0]
        low, high = -loss - 1.0, win + 1.0
        a_v, b_v = chance_value(alpha, *curve), chance_value(beta, *curve)
        acc = 0.0
        rest = 1.0
        royals = sum(map(len, pos.royals))
        for answer, p in outs:
            rest -= p
            if rest < 1e-12:
                rest = 0.0
            lo = (a_v - acc - high * rest) / p
            hi = (b_v - acc - low * rest) / p
            c_alpha = score_of_value(lo, *curve) if lo > low else -INF
            c_beta = score_of_value(hi, *curve) if hi < high else INF
            rules.apply(pos, answer)
            try:
                if p < _RARE_CHANCE or (quiet and qply >= self.options.chance_qply):
                    # a rare outcome, or deep in the capture search: judged statically, unless
                    # it ended the game (a royal piece fell) or leaves a royal piece open to the
                    # side to move (in Combat Chess that attack is compulsory: one more fight)
                    self._tick()
                    if sum(map(len, pos.royals)) < royals:
                        o = rules.outcome(pos)
                        v = self._terminal(o, ply + 1) if o is not None else self._leaf(ply + 1)
                    elif self._royal_open(pos):
                        v = self._qs(c_alpha, c_beta, ply + 1, qply)
                    else:
                        v = self._leaf(ply + 1)
                elif quiet:
                    v = self._qs(c_alpha, c_beta, ply + 1, qply)
                else:
                    v = self._ab(depth, c_alpha, c_beta, ply + 1)
            finally:
                rules.undo(pos)
            u = chance_value(v, *curve)
            acc += p * u
            if u <= lo:
                return score_of_value(acc + high * rest, *curve)  # the node cannot reach alpha any more
            if u >= hi:
                return score_of_value(acc + low * rest, *curve)  # the node is already at least beta
        return score_of_value(acc, *curve)

    def _royal_open(self, pos: Position) -> bool:
        """Whether the side to move attacks a royal piece of another player."""
        if pos.vars.get("pending") is not None:
            return False
        mover, attacked = pos.turn, self.rules.is_attacked
        for q, squares in enumerate(pos.royals):
            if q != mover:
                for k in squares:
                    if attacked(pos, k, mover):
                        return True
        return False

    def _chance_key(self, pos: Position):
        """What a chance decision's outcomes depend on, to reuse them across positions.

        By default the position itself (its hash). A game's table may list decision details
        that do not change the odds (``chance_key_ignore``, e.g. a fight's serial number); then
        the key is the decision without them plus the pieces (kind, owner, state) on every
        square the decision names: the same fight met again in another position is not worked
        out again (exact fight odds cost about a millisecond each).
        """
        if not self.chance_ignore:
            return pos.hash
        d = pos.vars.get("pending")
        board = pos.board
        parts = [d.kind]
        for name, value in d.info:
            if name in self.chance_ignore:
                continue
            parts.append((name, value))
            squares = value if isinstance(value, tuple) and not isinstance(value, Move) else (value,)
            for v in squares:
                if isinstance(v, Move):
                    sqs = (v.frm, v.to) if v.capture is None else (v.frm, v.to, v.capture)
                elif isinstance(v, int) and not isinstance(v, bool) and 0 <= v < len(board):
                    sqs = (v,)
                else:
                    continue
                for sq in sqs:
                    pc = board[sq]
                    parts.append(None if pc is None else (pc.kid, pc.owner, tuple(sorted(pc.state.items()))))
        return tuple(parts)

    def _choice(self, pend, depth: int, alpha: float, beta: float, ply: int, quiet: bool, qply: int = 0) -> float:
        """A decision a player answers (not dice): max or min over the answers."""
        pos, rules = self.pos, self.rules
        answers = list(rules.answers(pos))
        if quiet and pend.get("ply"):
            # in the capture search a king-turn offers its captures (and a pass: the first
            # answer that is no move); its quiet moves wait for the full search
            answers = [a for a in answers if not isinstance(a.value, Move) or not _is_quiet(a.value)
                       or (self.wins_at_once is not None and self.wins_at_once(pos, a.value))]
        if not answers:
            return self._leaf(ply)
        mover = pend.player if pend.player >= 0 else pos.turn
        maxi = mover in self.allies
        best = -INF if maxi else INF
        for a in answers:
            if not self._apply(a):
                continue
            try:
                v = self._qs(alpha, beta, ply + 1, qply) if quiet else self._ab(depth, alpha, beta, ply + 1)
            finally:
                rules.undo(pos)
            if maxi:
                best = max(best, v)
                alpha = max(alpha, v)
            else:
                best = min(best, v)
                beta = min(beta, v)
            if alpha >= beta:
                break
        if best in (INF, -INF):
            return self._leaf(ply)
        return best

    def _joint(self, pend, depth: int, ply: int, quiet: bool, qply: int) -> float:
        """A joint decision (a duel's secret bids): the value of the matrix game whose cells
        are the positions after each pair of parts, for the root player (the maximiser when it
        is one of the players; otherwise every cell is the opponents' to choose). Each cell is
        searched with a full window (the value of a mixed strategy needs every cell exactly),
        one ply shallower than the decision, and cells that leave the same pieces on the board
        share one search (:meth:`_joint_cells`); in the capture search the cells are judged
        statically. A saddle point (a pure equilibrium) needs no linear program."""
        from .duel import solve

        matrix = self._joint_cells(pend, max(depth - 1, 0), ply, quiet, qply, share=True)
        players = pend.get("players")
        if self.root == players[0]:
            game = matrix
        elif self.root == players[1]:
            game = [list(col) for col in zip(*matrix)]
        else:  # paranoid: both deciders play against the root player
            return min(min(row) for row in matrix)
        maximin = max(min(row) for row in game)
        if maximin == min(max(col) for col in zip(*game)):
            return maximin  # a saddle point (also: one side without a choice)
        return self._score_of(solve([[self._payoff(v) for v in row] for row in game]).value)

    def _joint_cells(self, pend, depth: int, ply: int, static: bool, qply: int, share: bool = False):
        """The scores (root's side) after each pair of parts: rows the first player's options.

        ``share`` (inside the tree): cells that leave the same pieces on the board, the same
        side to move and the same kind of pending decision (a duel's bids differ mostly in the
        stones they cost) share the search of the first such cell; each other one is that
        score plus the difference of the two static evaluations (the stones), unless the score
        is a won or lost game. Three searches where nine were made; the root's own decision
        (:meth:`joint_plan`) searches every cell."""
        pos, rules = self.pos, self.rules
        first, second = pend.get("options")
        searched: dict = {}
        matrix = []
        for a in first:
            row = []
            for b in second:
                answer = Answer(pend.kind, (a, b))
                if not self._apply(answer):
                    row.append(self._leaf(ply))
                    continue
                try:
                    if static:
                        self._tick()
                        o = rules.outcome(pos) if pos.vars.get("pending") is None else None
                        v = self._terminal(o, ply + 1) if o is not None else self._leaf(ply + 1)
                    elif share:
                        after = pos.vars.get("pending")
                        key = (pos.turn, after.kind if after is not None else None,
                               frozenset((sq, pc.kid, pc.owner) for sq, pc in enumerate(pos.board) if pc is not None))
                        base = searched.get(key)
                        if base is None:
                            v = self._ab(depth, -INF, INF, ply + 1)
                            searched[key] = (v, self._leaf(ply + 1))
                        else:
                            self._tick()
                            v0, leaf0 = base
                            v = v0 if abs(v0) >= MATE_BOUND else v0 + self._leaf(ply + 1) - leaf0
                    else:
                        v = self._ab(depth, -INF, INF, ply + 1)
                finally:
                    rules.undo(pos)
                row.append(v)
            matrix.append(row)
        return matrix

    def _payoff(self, score: float):
        """A score as a payoff of a mixed strategy: on the chance curve (a won game counts
        ``win_value``, not a mate score), rounded to a hundredth (exact arithmetic on short
        fractions)."""
        from fractions import Fraction

        return Fraction(round(chance_value(score, *self.curve) * 100), 100)

    def _score_of(self, value) -> float:
        return score_of_value(float(value), *self.curve)

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
    def _order(self, actions, tt_move, ply: int):
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

        def key(m: Move) -> float:
            if tt_move is not None and hash(m) == tt_move:
                return 1e12
            s = 0.0
            if m.capture is not None:
                victim = board[m.capture]
                s = 1e9 + ov[victim.kid] * 64 - ov[board[m.frm].kid] if victim is not None else 1e9
            if m.promotion:
                s += 5e8 + ov[index[m.promotion]]
            if s:
                return s
            if m in killers:
                return 1e8 - killers.index(m)
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


def _is_quiet(action) -> bool:
    """A move (or a king-turn answer) that captures nothing and promotes nothing."""
    m = action.value if isinstance(action, Answer) else action
    if not isinstance(m, Move):
        return True
    return m.capture is None and not m.promotion
