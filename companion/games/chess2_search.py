"""What the computer's capture search asks of Chess 2, answered without generating and checking
every move (docs/ai.md, "How it searches"): its moves (``noisy_moves``: the legal captures,
promotions and Midline Invasions) and whether any move is legal (``has_legal_move``). Each gives
what the plain lists give (tests/test_noisy_chess2.py, tests/test_noisy_moves.py).

:class:`Chess2SearchHooks` is a part of :class:`~companion.games.chess2.Chess2Rules` (a mixin
before ``Rules``); it reads the game's ``pw`` (the ability tables), ``lines`` (the squares on
the lines through each square), ``across`` (each side's half beyond the midline), ``compiled``
and its move generation and legality (``pseudo_moves``, ``_legal``, ``is_legal``,
``is_attacked``, ``is_over``, ``wins_at_once``).
"""

from __future__ import annotations

from functools import cached_property

from ..core.moves import Move
from ..core.noisy import noisy_pseudo_moves
from ..core.position import Position
from . import chess2_abilities as ab
from .chess import en_passant_moves


class Chess2SearchHooks:
    """The capture search's lists of Chess 2."""

    def noisy_moves(self, pos: Position) -> list[Move]:
        """The legal captures (the abilities' too), promotions and moves that win at once, with
        the legality of those alone tested (``_legal``, with its pin shortcut). A piece gives the
        captures and promotions of its movement vocabulary (core/noisy.py), passed through
        ``pseudo_moves``' capture rules (``_capture_rules``), and: a Reaper its teleport's
        captures (a Ghost's teleport captures nothing), a Nemesis pawn next to its promotion
        squares its steps there;
        a piece with another ability's moves (a rampage, a Whirlwind, borrowed patterns, friendly
        fire) and a King that could complete a Midline Invasion give all their moves, filtered.
        En passant is added as ``extra_moves`` does (castling is neither)."""
        if pos.pending is not None or self.is_over(pos):
            return []
        player = pos.turn
        board, pw = pos.board, self.pw
        across, kings = self.across[player], pos.royals[player]
        full_kinds, compiled = self._full_kinds, self.compiled
        full, reapers = [], []
        plain = sorted(pos.occ[player])
        for sq in plain:
            k = board[sq].kid
            if k in full_kinds or (sq in kings and all(s in across for s in kings if s != sq)) or (
                    k in pw.nemesis_pawns and any(n in compiled[k][player].promo_squares for n in pw.neighbours[sq])):
                full.append(sq)
            elif k in pw.reapers:
                reapers.append(sq)
        if full:
            plain = [sq for sq in plain if sq not in full]
        pseudo = noisy_pseudo_moves(self, pos, player, plain)
        en_passant_moves(pos, player, pw.en_passant, pseudo)
        out = self._capture_rules(board, pseudo)  # as pseudo_moves plays the vocabulary's moves
        for sq in reapers:  # ab.teleport_moves, its captures
            reaper, banned = board[sq], pw.enemy_back_row[player]
            out += [Move(sq, t, t) for t in sorted(pos.occ[1 - player])
                    if t not in banned and ab.may_capture(pw, reaper, sq, board[t], t)]
        if full:
            wins = self.wins_at_once
            out += [m for m in self.pseudo_moves(pos, player, full)
                    if m.capture is not None or m.promotion or wins(pos, m)]
        return self._legal(pos, out)

    @cached_property
    def _full_kinds(self) -> frozenset:
        """Kinds whose every move ``noisy_moves`` generates and filters: an ability adds moves
        that capture (or count their captures) in its own way."""
        pw = self.pw
        return pw.hooked - ((pw.ghosts | pw.reapers | pw.nemesis_pawns)
                            - (pw.empowered | pw.wild | pw.elephants | pw.whirlers))

    def has_legal_move(self, pos: Position) -> bool:
        """``bool(legal_moves(pos))``, answered at the first legal move: no King of the side to
        move attacked, the first move of a piece other than a King, off the lines through its
        Kings, that ``_legal`` takes without playing it out (a plain move whose squares are off
        those lines); otherwise the pseudo-legal moves played out until one is legal."""
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
        is_legal = self.is_legal
        return any(is_legal(pos, m) for m in self.pseudo_moves(pos, player))
