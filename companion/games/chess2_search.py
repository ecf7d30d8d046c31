"""What the computer's capture search asks of Chess 2, answered without generating and checking
every move (docs/ai.md, "How it searches"): its moves (``noisy_moves``: the legal captures,
promotions and Midline Invasions) and whether any move is legal (``has_legal_move``). Each gives
what the plain lists give (tests/test_noisy_moves.py).

:class:`Chess2SearchHooks` is a part of :class:`~companion.games.chess2.Chess2Rules` (a mixin
before ``Rules``); it reads the game's ``pw`` (the ability tables), ``lines`` (the squares on
the lines through each square) and its move generation and legality (``pseudo_moves``,
``_legal``, ``is_over``, ``wins_at_once``).
"""

from __future__ import annotations

from ..core.moves import Move
from ..core.noisy import noisy_pseudo_moves
from ..core.position import Position
from . import chess2_abilities as ab
from .chess import en_passant_moves


class Chess2SearchHooks:
    """The capture search's lists of Chess 2."""

    def noisy_moves(self, pos: Position) -> list[Move]:
        """The legal captures (the abilities' too), promotions and moves that win at once, with
        the legality of those alone tested (``_legal``, with its pin shortcut). Pieces whose moves
        come from the movement vocabulary give only their captures and promotions
        (core/noisy.py), passed through the same capture rules as ``pseudo_moves``; a piece with
        an ability's moves (a teleport, a rampage, a Whirlwind, borrowed patterns, a Nemesis
        pawn's step) and a King that could complete a Midline Invasion give all their moves,
        filtered; en passant is added as ``extra_moves`` does."""
        if pos.pending is not None or self.is_over(pos):
            return []
        player = pos.turn
        board, pw = pos.board, self.pw
        hooked, across = pw.hooked, self.across[player]
        kings = pos.royals[player]
        plain, full = [], []
        for sq in sorted(pos.occ[player]):
            k = board[sq].kid
            if k in hooked or (sq in kings and all(s in across for s in kings if s != sq)):
                full.append(sq)
            else:
                plain.append(sq)
        pseudo = noisy_pseudo_moves(self, pos, player, plain)
        en_passant_moves(pos, player, pw.en_passant, pseudo)
        out = []
        for m in pseudo:  # the capture rules of pseudo_moves
            if m.capture is not None:
                att = board[m.frm]
                if not ab.may_capture(pw, att, m.frm, board[m.capture], m.capture):
                    continue
                if att.kid in pw.pouncers:
                    m = Move(m.frm, m.to, m.capture, m.promotion, "pounce")
            out.append(m)
        if full:
            wins = self.wins_at_once
            out += [m for m in self.pseudo_moves(pos, player, full)
                    if m.capture is not None or m.promotion or wins(pos, m)]
        return self._legal(pos, out)

    def has_legal_move(self, pos: Position) -> bool:
        """No King of the side to move attacked: the first move of a piece other than a King,
        off the lines through its Kings, that ``_legal`` takes without playing it out (a quiet
        or plain move whose squares are off those lines) answers; otherwise every move is
        generated."""
        if pos.pending is not None or self.is_over(pos):
            return False
        player = pos.turn
        kings = pos.royals[player]
        if not any(self.is_attacked(pos, k, 1 - player) for k in kings):
            lines: frozenset = frozenset().union(*(self.lines[k] for k in kings))
            board = pos.board
            for sq in sorted(pos.occ[player] - lines):
                if board[sq].kind.royal:
                    continue
                for m in self.pseudo_moves(pos, player, (sq,)):
                    if m.special in ("", "pounce") and (m.capture is None or (m.to not in lines
                                                                              and m.capture not in lines)):
                        return True
        return bool(self.legal_moves(pos))
