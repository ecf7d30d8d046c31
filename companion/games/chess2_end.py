"""How a game of Chess 2 ends: Midline Invasion (all of the mover's Kings on its fifth rank or
beyond after its move), checkmate, no legal move (no stalemate: the side without a move loses),
impossible checkmate, the fifty-move rule and threefold repetition (chess's), and what the
computer asks of them (``wins_at_once``, ``goal_zone``, ``is_over``).

:class:`Chess2End` is a part of :class:`~companion.games.chess2.Chess2Rules` (a mixin before
``Rules``); it reads the game's ``across`` (each side's half beyond the midline), ``pawns`` and
``pw`` (the ability tables). ``outcome`` asks every legal move for "no legal move", not
``has_legal_move`` (which stops at the first): the previous level asks ``outcome`` at every
duel cell, so that speed-up would make it 1.47x faster in Chess 2 and the reported match
against it would no longer hold (docs/ai.md, "Chess 2's Midline race").
"""

from __future__ import annotations

from ..core.moves import Move, Outcome
from ..core.position import Position
from .chess import ChessRules
from .chess2_armies import BLACK, KING_TURN, WHITE


class Chess2End:
    """The end of a game of Chess 2."""

    # the fifty-move rule's clock and the repetition count are chess's
    draw_clock = ChessRules.draw_clock
    repetitions = ChessRules.repetitions

    def is_over(self, pos: Position) -> bool:
        return self.invader(pos) is not None

    def _invaded(self, pos: Position, player: int) -> bool:
        kings = pos.royals[player]
        across = self.across[player]
        return bool(kings) and all(k in across for k in kings)

    def wins_at_once(self, pos: Position, move) -> bool:
        """Does this (legal) move complete a Midline Invasion? (The search looks at such moves
        in its capture search too.)"""
        if not isinstance(move, Move) or move.special:
            return False
        p = pos.board[move.frm]
        if p is None or not p.kind.royal:
            return False
        across = self.across[p.owner]
        return move.to in across and all(k in across for k in pos.royals[p.owner] if k != move.frm)

    def goal_zone(self, player: int) -> frozenset:
        """Where ``player``'s Kings win: its fifth rank and beyond (the computer's evaluation)."""
        return self.across[player]

    def invader(self, pos: Position) -> int | None:
        """The player who has won by Midline Invasion, if any."""
        for p in (WHITE, BLACK):
            if self._invaded(pos, p):
                return p
        return None

    def outcome(self, pos: Position, claim_draw: bool = True) -> Outcome | None:
        d = pos.pending
        if d is not None and d.kind != KING_TURN:
            return None
        w = self.invader(pos)
        if w is not None:
            return Outcome(frozenset({w}), "Midline Invasion")
        player = pos.turn
        if d is None and not self.legal_moves(pos):
            if self.in_check(pos, player):
                return Outcome(frozenset({1 - player}), "checkmate")
            return Outcome(frozenset({1 - player}), "no legal move")
        if self.impossible_checkmate(pos):
            return Outcome(frozenset(), "impossible checkmate")
        if pos.var("halfmove", 0) >= 100:
            return Outcome(frozenset(), "fifty-move rule")
        if self.repetitions(pos) >= 3:
            return Outcome(frozenset(), "threefold repetition")
        return None

    def can_checkmate(self, pos: Position, player: int) -> bool:
        """Whether ``player``'s material could ever checkmate (or leave the enemy no legal
        move). Not: King(s) alone, or with one knight, bishop, Wild Horse or Tiger, and no
        pawn. Two Warrior Kings always can (a King helps a King mate); so can anything else."""
        board = pos.board
        if len(pos.royals[player]) > 1:
            return True
        others = [board[s] for s in pos.occ[player] if not board[s].kind.royal]
        if not others:
            return False
        if len(others) == 1 and others[0].kind.role in ("knight", "bishop"):
            return False
        return True

    def invasion_possible(self, pos: Position, player: int) -> bool:
        """Whether each of ``player``'s Kings has a path of King steps to its fifth rank that
        no pawn blocks (pawns are walls: they may be locked for good; every other piece can
        move away or be taken). A bounded flood fill, nothing more (docs/rules/chess2.md)."""
        board = pos.board
        across = self.across[player]
        for k in pos.royals[player]:
            seen, todo, found = {k}, [k], k in across
            while todo and not found:
                s = todo.pop()
                for n in self.pw.neighbours[s]:
                    if n in seen:
                        continue
                    q = board[n]
                    if q is not None and q.kid in self.pawns:
                        continue
                    if n in across:
                        found = True
                        break
                    seen.add(n)
                    todo.append(n)
            if not found:
                return False
        return bool(pos.royals[player])

    def impossible_checkmate(self, pos: Position) -> bool:
        """"impossible checkmate (when neither player has sufficient material to checkmate, and
        Midline Invasion is not possible)"."""
        if any(self.can_checkmate(pos, p) for p in (WHITE, BLACK)):
            return False
        return not any(self.invasion_possible(pos, p) for p in (WHITE, BLACK))
