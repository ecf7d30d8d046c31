"""Chess 2's decisions in the middle of a turn: duels and the king-turn.

A capture the defender may duel (companion.games.chess2.Chess2Rules.may_initiate) stops the
turn on a ``"duel"`` Decision: the defender passes or initiates, paying its fee. The duel
itself is a *joint* ``"bids"`` Decision both players answer at once (each bids 0 to 2 stones,
neither sees the other's); a called bluff (0-0) lets the attacker choose its reward
(``"bluff"``: gain a stone or destroy one of the defender's). A Two Kings player's turn is
followed by an optional ``"king-turn"``. docs/rules/chess2.md has every reading.

:class:`Chess2Decisions` is a part of :class:`~companion.games.chess2.Chess2Rules` (a mixin
before ``Rules``): it builds the decisions and answers them through the turn's steps the game
module defines (``_capture``, ``_advance``, ``_finish``, ``_pass_turn``, ``_act``,
``_add_stones``, ``stones``, ``fee``, ``king_actions``, ``pawns``).
"""

from __future__ import annotations

from ..core.moves import Answer, Decision, Move
from ..core.position import Position
from ..errors import IllegalMoveError
from .chess2_armies import KING_TURN, MAX_BID, MAX_STONES, SKIP
from ..i18n import _


class Chess2Decisions:
    """The duel, bids, bluff and king-turn decisions of Chess 2: made, listed, answered, named."""

    def _offer_duel(self, pos: Position, move: Move, v: int, effects: list) -> None:
        pos.set_var("effects", tuple(effects))
        pos.set_var("pending", self.duel_decision(pos, move, v))

    def duel_decision(self, pos: Position, move: Move, v: int) -> Decision:
        """The defender's choice (``"pass"`` or ``"duel"``) for the capture of ``v`` by ``move``:
        who decides (the victim's owner), what initiating costs (``fee``)."""
        att, q = pos.board[move.frm], pos.board[v]
        return Decision("duel", q.owner, False, (
            ("move", Move(move.frm, move.to, v, move.promotion, move.special)),
            ("attacker", move.frm), ("victim", v), ("fee", self.fee(att, q)),
        ))

    def bids_decision(self, pos: Position, move: Move, v: int) -> Decision:
        """The joint decision both players answer at once: ``players`` (attacker, defender),
        ``options`` the bids each may make (0..2, no more than the stones owned)."""
        attacker, defender = pos.board[move.frm].owner, pos.board[v].owner
        st = self.stones(pos)
        options = tuple(tuple(range(min(MAX_BID, st[p]) + 1)) for p in (attacker, defender))
        return Decision("bids", -1, False, (
            ("move", move), ("attacker", move.frm), ("victim", v),
            ("players", (attacker, defender)), ("options", options),
        ))

    def bluff_options(self, pos: Position, attacker: int) -> tuple[str, ...]:
        """What a called bluff may give the attacker: a stone (not past 6), or one of the
        defender's destroyed (if any is left)."""
        st = self.stones(pos)
        return tuple(o for o, ok in (("gain", st[attacker] < MAX_STONES), ("destroy", st[1 - attacker] > 0)) if ok)

    def bluff_decision(self, pos: Position, move: Move, v: int) -> Decision:
        attacker = pos.board[move.frm].owner
        return Decision("bluff", attacker, False, (
            ("move", move), ("attacker", move.frm), ("victim", v), ("options", self.bluff_options(pos, attacker))))

    def king_turn_decision(self, player: int) -> Decision:
        return Decision(KING_TURN, player, False, (("ply", True),))

    def answers(self, pos: Position) -> list[Answer]:
        d = pos.pending
        if d is None:
            return []
        if d.kind == "duel":
            return [Answer("duel", "pass"), Answer("duel", "duel")]
        if d.kind == "bids":
            a_opts, d_opts = d.get("options")
            return [Answer("bids", (a, b)) for a in a_opts for b in d_opts]
        if d.kind == "bluff":
            return [Answer("bluff", v) for v in d.get("options")]
        if d.kind == KING_TURN:
            return [Answer(KING_TURN, SKIP)] + [Answer(KING_TURN, m) for m in self.king_actions(pos, d.player)]
        return []

    def perft_answers(self, pos: Position) -> list[Answer]:
        """Perft counts moves: a duel is not a ply and branches nowhere (the defender passes),
        so a capture counts once, as in chess."""
        d = pos.pending
        if d is not None and d.kind == "duel":
            return [Answer("duel", "pass")]
        return self.answers(pos)

    def answer(self, pos: Position, answer: Answer) -> None:
        d = pos.pending
        if d is None or answer.decision != d.kind:
            raise IllegalMoveError(_("{name}: no {decision!r} decision is waiting for an answer").format(
                                       name=self.name, decision=answer.decision))
        value = answer.value
        player = pos.turn
        effects: list = []
        if d.kind == KING_TURN:
            if value != SKIP and (not isinstance(value, Move) or value not in self.king_actions(pos, d.player)):
                raise IllegalMoveError(_("{value!r} is not a king-turn choice (skip, or a legal Warrior King move "
                                         "or Whirlwind)").format(value=value))
            pos.set_var("pending", None)
            if value == SKIP:
                effects.append(("skip", player))
                pos.set_var("effects", tuple(effects))
                self._pass_turn(pos)
            else:
                self._act(pos, value, player, effects, king_turn=True)
            return
        move: Move = d.get("move")
        v = d.get("victim")
        attacker, defender = player, 1 - player
        if d.kind == "duel":
            if value not in ("pass", "duel"):
                raise IllegalMoveError(_("{value!r}: the defender answers 'pass' or 'duel'").format(value=value))
            pos.set_var("pending", None)
            if value == "pass":
                self._capture(pos, v, player, effects)
                self._advance(pos, move, player, effects)
                return
            fee = d.get("fee")
            effects.append(("duel", defender, fee))
            if fee:
                self._add_stones(pos, defender, -fee, "fee", effects)
            if self.stones(pos)[attacker] == 0:
                # "When you duel against a player with 0 stones, you must bid 1 and you automatically win"
                self._add_stones(pos, defender, -1, "bid", effects)
                effects.append(("bids", 0, 1, "defender"))
                self._defender_wins(pos, move, v, player, effects)
                return
            if self.stones(pos)[defender] == 0:
                # the fee took the defender's last stone: the attacker, dueling "a player with
                # 0 stones", "must bid 1 and automatically win" (a stone for a stone)
                self._add_stones(pos, attacker, -1, "bid", effects)
                effects.append(("bids", 1, 0, "attacker"))
                self._capture(pos, v, player, effects)
                self._advance(pos, move, player, effects)
                return
            pos.set_var("effects", tuple(effects))
            pos.set_var("pending", self.bids_decision(pos, move, v))
            return
        if d.kind == "bids":
            a_opts, d_opts = d.get("options")
            if not (isinstance(value, tuple) and len(value) == 2 and value[0] in a_opts and value[1] in d_opts):
                raise IllegalMoveError(_("bids {value!r}: expected (attacker's bid, defender's bid), attacker "
                                         "{a_opts}, defender {d_opts}").format(
                                           value=value, a_opts=list(a_opts), d_opts=list(d_opts)))
            a, b = value
            pos.set_var("pending", None)
            # "All stones revealed are destroyed."
            self._add_stones(pos, attacker, -a, "bid", effects)
            self._add_stones(pos, defender, -b, "bid", effects)
            if a < b:
                effects.append(("bids", a, b, "defender"))
                self._defender_wins(pos, move, v, player, effects)
                return
            effects.append(("bids", a, b, "attacker"))
            if a == 0 and b == 0:
                options = self.bluff_options(pos, attacker)
                if len(options) == 2:
                    pos.set_var("effects", tuple(effects))
                    pos.set_var("pending", self.bluff_decision(pos, move, v))
                    return
                if options:
                    self._bluff_reward(pos, options[0], attacker, effects)
            self._capture(pos, v, player, effects)
            self._advance(pos, move, player, effects)
            return
        if d.kind == "bluff":
            if value not in d.get("options"):
                raise IllegalMoveError(_("{value!r}: a called bluff lets the attacker 'gain' a stone or 'destroy' "
                                         "one").format(value=value))
            pos.set_var("pending", None)
            self._bluff_reward(pos, value, attacker, effects)
            self._capture(pos, v, player, effects)
            self._advance(pos, move, player, effects)
            return
        raise IllegalMoveError(_("{name}: cannot answer a {kind!r} decision").format(name=self.name, kind=d.kind))

    def _bluff_reward(self, pos: Position, choice: str, attacker: int, effects: list) -> None:
        """"the attacker can choose to gain 1 stone or cause the defender to lose 1 stone"."""
        if choice == "gain":
            self._add_stones(pos, attacker, 1, "bluff", effects)
        else:
            self._add_stones(pos, 1 - attacker, -1, "bluff", effects)

    def _defender_wins(self, pos: Position, move: Move, v: int, player: int, effects: list) -> None:
        """"If the defender wins, he still loses his piece, but the attacker ALSO loses the piece
        he attacked with." (A rampage stops there: the rest of its path is spared.) A pawn lost
        in a duel gives its owner's opponent a stone, whichever side it was on."""
        self._capture(pos, v, player, effects)
        att = pos.take(move.frm)
        # where it stands on the board: on the square it took (a Tiger on its own)
        on_board = move.frm if move.special == "pounce" else move.to
        effects.append(("duel_lost", on_board, att.kind.title, att.owner))
        if att.kid in self.pawns:
            self._add_stones(pos, 1 - player, 1, "pawn", effects)
        self._finish(pos, move, player, effects, False, att.kid in self.pawns)

    def validate_answer(self, pos: Position, answer: Answer) -> None:
        if answer not in self.answers(pos):
            raise IllegalMoveError(_("{answer_text!r} is not one of the choices for the pending {kind}").format(
                                       answer_text=self.answer_text(answer), kind=pos.pending.kind))

    def answer_text(self, answer: Answer) -> str:
        v = answer.value
        if answer.decision == "bids" and isinstance(v, tuple) and len(v) == 2:
            return f"{v[0]}-{v[1]}"
        if isinstance(v, Move):
            return self.move_text(None, v)
        return str(v)

    def parse_answer(self, pos: Position, text: str) -> Answer:
        """An answer to the pending decision as :meth:`answer_text` writes it (``duel``,
        ``1-2``, ``gain``, ``skip``, ``e1f2``)."""
        t = text.strip().lower()
        for a in self.answers(pos):
            if self.answer_text(a) == t:
                return a
        d = pos.pending
        if d is None:
            raise IllegalMoveError(_("{text!r} is not an answer: nothing is pending").format(text=text))
        raise IllegalMoveError(_("{text!r} is not an answer to the pending {kind}").format(text=text, kind=d.kind))
