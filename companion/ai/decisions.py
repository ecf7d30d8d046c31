"""The nodes where a turn waits for a decision, shared by every search (companion.ai.search).

* **Chance** (a Combat Chess fight): an expectation node over the exact ``chance_outcomes`` (no
  sampling), pruned with Ballard's Star1 windows. Outcomes are averaged in centipawns with a
  won or lost game counting ``win_value`` (:func:`chance_value`), so a long shot at the enemy
  king is not worth a queen.
* **Choice** (a promotion pick, a duel's "pass or duel"): a max or min node of the player who
  answers.
* **Joint** (Chess 2's secret bids): the value of the matrix game whose cells are the
  positions after each pair of parts (companion.ai.duel solves it exactly).

Answers do not use up depth: they finish a turn. The mixin needs from its search ``_ab``,
``_qs``, ``_leaf``, ``_terminal``, ``_tick``, ``_apply`` and ``_prepare``; docs/ai.md has the
details and the measurements behind them.
"""

from __future__ import annotations

import math
from typing import Callable

from ..core.moves import Answer, Move
from ..core.position import Position

MATE = 1_000_000.0
MATE_BOUND = MATE - 10_000.0
INF = float("inf")
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


class DecisionNodes:
    """Chance, choice and joint nodes, and the root of a joint decision (:meth:`joint_plan`)."""

    def _init_chance(self, table) -> None:
        """The table's keys for chance nodes: ``chance_qply`` (capture-search plies after which
        outcomes are judged statically; -1: the search option's) and ``chance_reduce`` (in the
        main search an outcome less likely than this is searched one ply shallower), ``chance_static``
        (in the capture search an outcome less likely than this is judged statically)."""
        q = int(table.chance_qply)
        self.chance_qply = q if q >= 0 else self.options.chance_qply
        self.chance_reduce = float(table.chance_reduce)
        self.chance_static = float(table.chance_static)
        self.chance_probe = bool(table.chance_probe)

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
            matrix = self._joint_cells(pend, 0, 1, True, self.chance_qply)
        own = matrix if mine == 0 else [list(col) for col in zip(*matrix)]
        sol = solve([[self._payoff(v) for v in row] for row in own])
        return JointPlan(seat, tuple(options[mine]), sol.rows, self._score_of(sol.value),
                         tuple(tuple(row) for row in own), depth_done, self.nodes)


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
        ups = downs = None  # per outcome: bounds on its value (Star2 probes), else high and low
        if self.chance_probe and not quiet and depth >= 1:
            got = self._probe(outs, depth, a_v, b_v, ply, low, high)
            if not isinstance(got, tuple):
                return got  # the probes alone decide the node
            ups, downs = got
        for i, (answer, p) in enumerate(outs):
            rest -= p
            if rest < 1e-12:
                rest = 0.0
            if ups is None:
                r_up, r_down = high * rest, low * rest
            else:
                r_up = sum(q * u for (_, q), u in zip(outs[i + 1:], ups[i + 1:]))
                r_down = sum(q * d for (_, q), d in zip(outs[i + 1:], downs[i + 1:]))
            lo = (a_v - acc - r_up) / p
            hi = (b_v - acc - r_down) / p
            c_alpha = score_of_value(lo, *curve) if lo > low else -INF
            c_beta = score_of_value(hi, *curve) if hi < high else INF
            rules.apply(pos, answer)
            try:
                if p < _RARE_CHANCE or (quiet and (qply >= self.chance_qply or p < self.chance_static)):
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
                elif p < self.chance_reduce:  # an unlikely outcome: one ply shallower
                    v = self._ab(depth - 1, c_alpha, c_beta, ply + 1)
                else:
                    v = self._ab(depth, c_alpha, c_beta, ply + 1)
            finally:
                rules.undo(pos)
            u = chance_value(v, *curve)
            acc += p * u
            if u <= lo:
                return score_of_value(acc + r_up, *curve)  # the node cannot reach alpha any more
            if u >= hi:
                return score_of_value(acc + r_down, *curve)  # the node is already at least beta
        return score_of_value(acc, *curve)

    def _probe(self, outs, depth: int, a_v: float, b_v: float, ply: int, low: float, high: float):
        """Star2's probing phase (``chance_probe``; Ballard 1983): after each outcome, only the
        first move of the side to move (the table's, or the first in order) is searched, with a
        null window at what that outcome must stay under (over) for the node to fail low (high)
        if each later outcome stays under alpha (over beta), which their own probes then check.
        A move of the opponent bounds the outcome from above, one of the root's side from below.
        When every probe holds and the bounds' average is under alpha (over beta), it decides the
        node (returned as a score); otherwise the bounds found, in value units, per outcome:
        ``(ups, downs)`` for the Star1 pass (unprobed outcomes keep ``high`` and ``low``)."""
        pos, rules, curve = self.pos, self.rules, self.curve
        n = len(outs)
        ups, downs = [high] * n, [low] * n
        fail_low, fail_high = a_v > -INF, b_v < INF
        royals = sum(map(len, pos.royals))
        for i, (answer, p) in enumerate(outs):
            d = depth - 1 if p < self.chance_reduce else depth
            if p < _RARE_CHANCE or d < 1 or not (fail_low or fail_high):
                fail_low = fail_high = False
                break
            rules.apply(pos, answer)
            try:
                moves = [] if pos.vars.get("pending") is not None or sum(map(len, pos.royals)) < royals \
                    else rules.legal_moves(pos)
                mine = pos.turn in self.allies
                if not moves or (mine and not fail_high) or (not mine and not fail_low):
                    fail_low = fail_high = False
                    break
                done = sum(q * u for (_, q), u in zip(outs[:i], ups[:i])) if not mine else \
                    sum(q * u for (_, q), u in zip(outs[:i], downs[:i]))
                later = sum(q for _, q in outs[i + 1:])
                # what this outcome must stay under (over) if each later one stays under alpha (over
                # beta): their own probes check that, and the sum is checked at the end
                need = ((a_v - done - a_v * later) / p) if not mine else ((b_v - done - b_v * later) / p)
                if (need >= high) if not mine else (need <= low):
                    continue  # decided whatever this outcome is: no probe
                if (need <= low) if not mine else (need >= high):
                    fail_low = fail_high = False
                    break
                t = score_of_value(need, *curve)
                e = self.tt.get(pos.hash ^ self.salt)
                first = self._order(moves, e[3] if e is not None else None, ply + 1, True)[0]
                if not self._apply(first):
                    fail_low = fail_high = False
                    break
                try:
                    v = self._ab(d - 1, t - 1.0, t, ply + 2) if mine else self._ab(d - 1, t, t + 1.0, ply + 2)
                finally:
                    rules.undo(pos)
            finally:
                rules.undo(pos)
            u = chance_value(v, *curve)
            if mine:  # the root's side moves: the outcome is at least v
                fail_low = False
                if u >= need:
                    downs[i] = u
                else:
                    fail_high = False
            else:  # the opponent moves: the outcome is at most v
                fail_high = False
                if u <= need:
                    ups[i] = u
                else:
                    fail_low = False
        if fail_low and sum(q * u for (_, q), u in zip(outs, ups)) <= a_v:
            return score_of_value(sum(q * u for (_, q), u in zip(outs, ups)), *curve)
        if fail_high and sum(q * d for (_, q), d in zip(outs, downs)) >= b_v:
            return score_of_value(sum(q * d for (_, q), d in zip(outs, downs)), *curve)
        return ups, downs

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
                        o = rules.outcome(pos) if pos.vars.get("pending") is None and (
                            self.cell_outcome or self._may_be_over(pos)) else None
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

    def _may_be_over(self, pos: Position) -> bool:
        """Whether a position judged statically may have ended (``cell_outcome`` false: the side
        to move is in check, or ``is_over`` says so), as the capture search asks before it
        stands pat: ``rules.outcome`` plays out every legal move to find a lost "no legal
        move", a third of a Chess 2 search's time when every cell of every duel asked it."""
        return self.rules.in_check(pos) or (self.is_over is not None and self.is_over(pos))

    def _payoff(self, score: float):
        """A score as a payoff of a mixed strategy: on the chance curve (a won game counts
        ``win_value``, not a mate score), rounded to a hundredth (exact arithmetic on short
        fractions)."""
        from fractions import Fraction

        return Fraction(round(chance_value(score, *self.curve) * 100), 100)

    def _score_of(self, value) -> float:
        return score_of_value(float(value), *self.curve)



def _is_quiet(action) -> bool:
    """A move (or a king-turn answer) that captures nothing and promotes nothing."""
    m = action.value if isinstance(action, Answer) else action
    if not isinstance(m, Move):
        return True
    return m.capture is None and not m.promotion
