"""What the computer's search asks of KoL Chess, answered without generating and checking every
move (docs/ai.md, "How it searches"): the capture search's moves (``noisy_moves``), whether any
move is legal (``has_legal_move``), and the moves with a legality test the search applies only to
the moves it plays (``legal_candidates``). Each gives what the plain lists give
(tests/test_noisy_moves.py)."""

from __future__ import annotations

from ..core.moves import Move
from ..core.noisy import is_noisy, noisy_pseudo_moves
from ..core.position import Position


class KolSearchHooks:
    """Mixed into ``KolRules``: it reads the rules' tables (``lines_through``, ``KING``) and
    methods (``held_king``, ``_legal``, ``special_moves``)."""

    def noisy_moves(self, pos: Position) -> list[Move]:
        """The legal captures (the abilities' too) without the quiet moves (core/noisy.py); with
        the King in his Tower, whose timing decides over the whole list, ``legal_moves`` filtered."""
        player = pos.turn
        if pos.pending is not None or self._legends_lost(pos) is not None or self.held_king(pos, player) is not None:
            return super().noisy_moves(pos)
        special: list[Move] = []
        self.special_moves(pos, player, sorted(pos.occ[player]), special)
        return self._legal(pos, noisy_pseudo_moves(self, pos, player) + [m for m in special if is_noisy(m)])

    def has_legal_move(self, pos: Position) -> bool:
        """Not in check, the King outside his Tower: the first plain move of another piece off
        the lines through the King is legal (``KolRules._legal``); otherwise all are generated."""
        lines = self._free_lines(pos, None)
        if lines is not None:
            for sq in sorted(pos.occ[pos.turn] - lines):
                if pos.board[sq].kid != self.KING and any(m.capture is None and not m.special and m.to not in lines
                                                          for m in self.pseudo_moves(pos, pos.turn, (sq,))):
                    return True
        return bool(self.legal_moves(pos))

    def legal_candidates(self, pos: Position, in_check: bool | None = None):
        """``(pseudo-legal moves, legality test)``: the moves passing the test are ``legal_moves``,
        for a search that tests only the moves it plays. Not in check a plain move off the lines
        through the King (legal without a look) is among them, else None; in check none may pass
        (``legal_moves`` is then empty: mate). None with the King in his Tower, whose timing
        decides over the whole list, while a decision waits or once the game is over."""
        player, ksq = pos.turn, self._lone_king(pos)
        if ksq is None:
            return None
        pseudo = self.pseudo_moves(pos, player)
        if self.in_check(pos, player) if in_check is None else in_check:
            return pseudo, lambda m: self.is_legal(pos, m)
        lines, board, king = self.lines_through[ksq], pos.board, self.KING

        def free(m: Move) -> bool:
            return (m.capture is None and not m.special and m.frm not in lines and m.to not in lines
                    and board[m.frm].kid != king)

        return (pseudo, lambda m: free(m) or self.is_legal(pos, m)) if any(map(free, pseudo)) else None

    def _free_lines(self, pos: Position, in_check: bool | None):
        """The squares on lines through the side to move's King when a plain move off them needs
        no look (one King, outside his Tower, not in check, the game on); None otherwise."""
        ksq = self._lone_king(pos)
        if ksq is None or (in_check if in_check is not None else self.in_check(pos, pos.turn)):
            return None
        return self.lines_through[ksq]

    def _lone_king(self, pos: Position) -> int | None:
        """The side to move's King's square where the shortcuts above may apply (one King,
        outside his Tower, nothing pending, the game on); None otherwise."""
        kings = pos.royals[pos.turn]
        if (pos.pending is not None or len(kings) != 1 or self._legends_lost(pos) is not None
                or self.held_king(pos, pos.turn) is not None):
            return None
        return next(iter(kings))
