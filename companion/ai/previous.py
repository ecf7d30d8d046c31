"""The strongest search as it was before issue 30 (commit 1de24dc), kept unchanged to measure
the current one against: ``companion ai-match --b previous``.

A frozen copy by design of the parts issue 30 changed (``duplicates`` lists them beside
companion/ai/search.py): a baseline that followed every change of the search would measure
nothing. It shares the decision nodes (chance, choice, joint: companion/ai/decisions.py,
unchanged by issue 30), the search's unchanged helpers and the engine; its
evaluation is the current one with the terms issue 30 added switched off and the keys it
changed set back (:data:`PREVIOUS_TABLE`), so the player it makes (:func:`previous_player`)
plays as the strongest level did then, only as fast as the engine is today.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from ..core.moves import Move
from ..core.position import Position, splitmix64
from .decisions import INF, MATE, MATE_BOUND, _Abort, _is_quiet
from .evaluate import Evaluator
from .search import Search, SearchInfo, SearchOptions

_EXACT, _LOWER, _UPPER = 0, 1, 2


class PreviousSearch(Search):
    """The strongest search before issue 30, frozen (see the module's text): its own iterative
    deepening, alpha-beta, capture search and move ordering; the helpers that did not change
    (the clock's tick, game ends, applying an action, the leaf, the principal variation) and
    the decision nodes are the current search's."""

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
        actions alone, as the current search does (added after the freeze so that the previous
        level can be the reference of ``companion ai-quality``: it changes nothing when absent).
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
        allies = getattr(self.rules, "allies", None)  # main's team games (merged after the freeze)
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
        if not self._restricted:
            self.tt[h ^ self.salt] = (depth, _EXACT, best_score, hash(best))
        return best, best_score, scores

    # ----- the tree --------------------------------------------------------------------------------------
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
        maxi = (pend.player if plies else pos.turn) == self.root
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
        maxi = pos.turn == self.root
        in_check = rules.in_check(pos)
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

#: [evaluation] keys issue 30 added or changed, as the previous strongest level had them (per
#: game; "*" for every game): the previous player's table is the game's table with these.
PREVIOUS_TABLE: dict[str, dict[str, object]] = {"*": {"piece_mobility": 0.0, "king_attack": 0.0}}


#: The previous level's own copies of the tables (frozen, tables/previous/README.md): today's
#: tables can change without changing the baseline.
PREVIOUS_TABLE_DIR = Path(__file__).resolve().parent / "tables" / "previous"


def previous_table(rules):
    """The game's evaluation table as the previous strongest level judged positions."""
    from .eval_table import table_for

    settings = {**PREVIOUS_TABLE["*"], **PREVIOUS_TABLE.get(rules.name, {})}
    return table_for(rules, settings, f"the previous table of {rules.name}", PREVIOUS_TABLE_DIR)


def previous_player(rules, rng):
    """The strongest level as it played before issue 30: its search and its evaluation."""
    from .levels import STRONGEST, ComputerPlayer

    player = ComputerPlayer(rules, STRONGEST, rng, Evaluator(rules, previous_table(rules)))
    # as it was: no new iteration after half the budget (issue 30 made it 70%)
    options = SearchOptions(soft_share=0.5)
    player.search = PreviousSearch(rules, player.search.ev, options)
    player.name = "previous"
    return player
