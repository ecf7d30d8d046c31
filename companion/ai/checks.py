"""Whether a quiet move gives check, read from the attack tables without playing it: the
search's pruning of quiet moves spares the checks (issue 30); a mixin of
:class:`companion.ai.search.Search`, which builds ``_check_tables`` for games whose attacks the
tables describe exactly (chess, Combat Chess)."""

from __future__ import annotations

from ..core.moves import Move
from ..core.position import Position


class QuietChecks:
    """Needs from its search ``pos``, ``ev`` (its ``lines``) and ``_check_tables``."""

    def _lines_to_royals(self, pos: Position) -> frozenset:
        """Squares on a line or a knight's jump from the enemy royals (``Evaluator.lines``): a
        quiet move neither to nor from one gives no check in chess, rarely in other games."""
        lines, out = self.ev.lines, None
        for q, squares in enumerate(pos.royals):
            if q != pos.turn:
                for k in squares:
                    out = lines[k] if out is None else out | lines[k]
        return frozenset() if out is None else out

    def _gives_check(self, m) -> bool | None:
        """Whether the quiet move ``m`` checks the enemy royal, read from the attack tables
        without playing it (the piece on its new square, or a line it opens: a discovered
        check); None when the tables cannot tell (a special move, a game with its own attack
        test: see ``_check_tables``): the move is then played to find out. Exact where it
        answers (``tests/test_ai_pruning.py`` compares it with playing the move)."""
        tabs = self._check_tables
        if tabs is None or not isinstance(m, Move) or m.special:
            return None
        board = self.pos.board
        pc = board[m.frm]
        if pc is None:
            return None
        p, kid, frm, to = pc.owner, pc.kid, m.frm, m.to
        tab = tabs[p]
        for k in self.pos.royals[1 - p]:
            for s, kids in tab.leap[k]:
                if s == to and kid in kids:
                    return True
            for ray, kids in tab.rays[k]:
                for s in ray:
                    if s == to:
                        if kid in kids:
                            return True
                        break
                    if s == frm:
                        continue  # the square it leaves: a line through it opens
                    q = board[s]
                    if q is not None:
                        if q.owner == p and q.kid in kids:
                            return True
                        break
        return False
