"""A small synthetic game for the tracker: FIDE chess plus scripted moves whose effects stand for
the ones Chess 2 and KoL Chess bring, and a table that plays on it.

It is *not* Chess 2 or KoL Chess (those are games of their own, built elsewhere): each special
move below only does to the board what the named rule does, so that the tests can show that
the tracker follows such effects with no code of its own for them. The rules record their
effects in the position variable ``effects`` and define ``describe_effects``, which is what
makes the tracker play every move to learn its forms (docs/tracker.md, "A new game's effects").

Special moves (``Move.special``), added when listed in ``EffectChess(extra=...)``:

``whirlwind``  Move(k, k): the piece stays, every piece next to it is removed (Two Kings)
``pounce``     Move(t, v, v): the victim is removed, the piece stays on t (the Tiger)
``rampage``    Move(e, far, first): every piece on the path is removed, friend and foe, and
               the piece ends on ``far`` (the Elephant); the path is in ``paths``
``boris``      Move(b, far, near): both pieces taken, the piece ends on the farther (Boris)
``swap``       Move(a, b): two pieces of one side change places (Sneaky Pete)
``teleport``   Move(g, x): to any empty square (a Ghost, Jarlsberg)
``own``        Move(h, x, x): captures a piece of its own side (the Wild Horse)
``enter``      Move(p, t): the piece goes inside a piece of its side on t, which stays (the King
               into its Tower); ``exit`` Move(t, x[, x]): it comes out onto x, capturing there
``duel``       Move(a, v, v): a capture after which the defender answers "attacker" or
               "defender"; "defender" removes the attacker too (a duel the attacker lost)

``king_turn=True``: after each of white's moves white may take an extra turn with the king
(a pending choice: answers "skip" or a square for the king to step to), and lifting the king
and putting it back is the gesture that skips it (``rules.gestures``).
"""

from __future__ import annotations

from typing import Sequence

from dungeon_board_table import DungeonTable

from companion.core.moves import Answer, Decision, Move
from companion.core.rules import Rules
from companion.games.chess import ChessRules

WHITE, BLACK = 0, 1


class EffectChess(ChessRules):
    name = "effect-chess"
    unhashed_vars = ChessRules.unhashed_vars | {"effects"}

    def __init__(self, extra: Sequence[Move] = (), paths: dict | None = None, king_turn: bool = False):
        super().__init__()
        self.extra = list(extra)
        self.paths = dict(paths or {})
        self.king_turn = king_turn

    # ----- moves --------------------------------------------------------------------------------
    def legal_moves(self, pos):
        # the generic apply-and-test judges every special; a capture that may become a duel is
        # made only as one (as every capture is in Chess 2)
        moves = Rules.legal_moves(self, pos)
        duels = {(m.frm, m.to) for m in moves if m.special == "duel"}
        return [m for m in moves if m.special == "duel" or (m.frm, m.to) not in duels]

    def extra_moves(self, pos, player, out):
        super().extra_moves(pos, player, out)
        board = pos.board
        for m in self.extra:
            piece = board[m.frm]
            if piece is None or piece.owner != player:
                continue
            target = board[m.to]
            victim = board[m.capture] if m.capture is not None else None
            ok = {
                "whirlwind": True,
                "pounce": victim is not None and victim.owner != player,
                "rampage": target is None or m.capture == m.to,
                "boris": victim is not None and target is not None and target.owner != player,
                "swap": target is not None and target.owner == player,
                "teleport": target is None,
                "own": victim is not None and victim.owner == player,
                "enter": target is not None and target.owner == player and "inside" not in target.state,
                "exit": "inside" in piece.state and (target is None or (victim is not None and victim.owner != player)),
                "duel": victim is not None and victim.owner != player,
            }[m.special]
            if ok:
                out.append(m)

    def perform(self, pos, move):
        special = move.special
        if special not in ("whirlwind", "pounce", "rampage", "boris", "swap", "enter", "exit", "duel"):
            player = pos.board[move.frm].owner
            super().perform(pos, move)  # teleport and own capture are plain moves to the engine
            self._after_turn(pos, player, ())
            return
        board = pos.board
        player = board[move.frm].owner
        effects: list[tuple] = []

        def remove(sq: int, why: str) -> None:
            piece = pos.take(sq)
            effects.append((why, sq, piece.kind.title, piece.owner))

        if special == "whirlwind":
            for s in self._around(move.frm):
                if board[s] is not None:
                    remove(s, "whirled")
        elif special == "pounce":
            remove(move.capture, "captured")
        elif special == "rampage":
            for s in self.paths[(move.frm, move.to)]:
                if board[s] is not None:
                    remove(s, "trampled")
            pos.move_piece(move.frm, move.to)
        elif special == "boris":
            remove(move.capture, "captured")
            remove(move.to, "captured")
            pos.move_piece(move.frm, move.to)
        elif special == "swap":
            a, b = pos.take(move.frm), pos.take(move.to)
            pos.put(move.frm, b)
            pos.put(move.to, a)
        elif special == "enter":
            inner = pos.take(move.frm)
            pos.set_state(move.to, "inside", (inner.kind.code, inner.uid))
        elif special == "exit":
            code, uid = board[move.frm].state["inside"]
            pos.set_state(move.frm, "inside", None)
            if move.capture is not None:
                remove(move.capture, "captured")
            piece = pos.new_piece(code, player)
            piece.uid = uid
            pos.put(move.to, piece)
        elif special == "duel":
            victim = board[move.capture]
            remove(move.capture, "captured")
            pos.move_piece(move.frm, move.to)
            pos.set_var("effects", tuple(effects))
            pos.set_var("pending", Decision("duel", victim.owner, False, (("square", move.to), ("player", player))))
            return
        pos.set_var("effects", tuple(effects))
        self.close_turn(pos, player, (move.frm, move.to), 0)
        self._after_turn(pos, player, effects)

    def _after_turn(self, pos, player: int, effects) -> None:
        if self.king_turn and player == WHITE and pos.royals[WHITE]:
            (k,) = pos.royals[WHITE]
            pos.set_turn(WHITE)
            pos.set_var("pending", Decision("king-turn", WHITE, False, (("square", k),)))

    def _around(self, sq: int) -> list[int]:
        f, r = sq % 8, sq // 8
        return [(r + dr) * 8 + f + df for dr in (-1, 0, 1) for df in (-1, 0, 1)
                if (dr or df) and 0 <= f + df < 8 and 0 <= r + dr < 8]

    # ----- the pending choices -----------------------------------------------------------------
    def answers(self, pos):
        d = pos.pending
        if d is None:
            return []
        if d.kind == "duel":
            return [Answer("duel", "attacker", d.player), Answer("duel", "defender", d.player)]
        k = d.get("square")
        steps = [s for s in self._around(k) if pos.board[s] is None]
        return [Answer("king-turn", "skip", WHITE)] + [Answer("king-turn", s, WHITE) for s in steps]

    def answer(self, pos, answer):
        d = pos.pending
        pos.set_var("pending", None)
        if d.kind == "duel":
            if answer.value == "defender":
                attacker = pos.take(d.get("square"))
                pos.set_var("effects", pos.var("effects", ()) + (("duel lost", d.get("square"),
                                                                  attacker.kind.title, attacker.owner),))
            self.close_turn(pos, d.get("player"), (), 0)
            return
        if answer.value != "skip":
            pos.move_piece(d.get("square"), answer.value)
        self.end_turn(pos)

    def gestures(self, pos):
        d = pos.pending
        if d is not None and d.kind == "king-turn":
            return [(Answer("king-turn", "skip", WHITE), frozenset({d.get("square")}))]
        return []

    def answer_text(self, answer):
        return self.geometry.name_of(answer.value) if isinstance(answer.value, int) else str(answer.value)

    def describe_effects(self, pos):
        return [repr(e) for e in pos.var("effects", ())]


class EffectTable(DungeonTable):
    """The session around a tracker on :class:`EffectChess` (tests/dungeon_board_table.py's,
    which plays what it detects), with hands written as "-e2" (lift), "+e4" (put)."""

    def __init__(self, rules: EffectChess, fen: str, gap: int = 40, **options):
        super().__init__(rules, rules.position_from_fen(fen), gap, **options)

    def do(self, *steps: str, settle: int = 2000) -> "EffectTable":
        """Lift ("-e2") and put ("+e4") in this order, then wait ``settle`` ms."""
        return self.run([("lift" if step[0] == "-" else "put", step[1:]) for step in steps], settle)
