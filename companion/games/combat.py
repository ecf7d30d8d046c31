"""Human Combat Chess (``combat``): FIDE chess where every capture is a dice fight.

The seed: ../shared/seeds/003 ("Human Combat Chess - Tabletop Edition"); every decision is in
docs/rules/combat.md. What this module adds to FIDE chess:

* A move onto an enemy piece does not capture: it stops the turn on a chance Decision
  ("fight"). The answer is either the dice faces of one round (a tie re-rolls: the decision
  stays pending with the next round number; the third tie bounces) or, for the AI and perft,
  a resolved outcome name ("attacker", "defender", "bounce") weighted by the exact odds.
* Fatigue is piece state (``fatigue``): -1 per earlier fight; the survivor gains one token;
  after a bounce both do. It stays with the piece, also through promotion.
* Compulsory moves: whoever threatens the enemy King at the start of their turn must attack it.
* A King that loses a fight loses the game.
* King's Prerogative: a checkmated King may attack an adjacent checking piece whose square is
  defended, fighting it and its supporters at once (one King die against the sum of theirs).
* "Only d6's" mode (option ``d6_only``).

The dice arithmetic is companion.dice.odds (a layer other games can use as well).
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from ..bounds import whole_number
from ..core.moves import Answer, ChanceOutcome, Decision, Move, Outcome
from ..core.position import Position
from ..core.rules import waiting_decision
from ..dice.odds import (
    MAX_FATIGUE, Fighter, FightOdds, fight_odds, fighter_dice, round_outcome, side_total, weapon_choice_side,
)
from ..errors import DiceError, IllegalMoveError, PositionError
from .chess import BLACK, WHITE, ChessRules

MAX_TIES = 3
RESULTS = ("attacker", "defender", "bounce")


@lru_cache(maxsize=4096)
def _cached_odds(attacker: Fighter, defenders: tuple, max_ties: int) -> FightOdds:
    """Exact odds depend only on the fighters (dice, fatigue, weapon choice): computed once."""
    return fight_odds(attacker, defenders, max_ties)


class CombatRules(ChessRules):
    name = "combat"
    title = "Human Combat Chess"
    unhashed_vars = ChessRules.unhashed_vars | {"fights"}
    #: after a lost fight the enemy King can stand attacked on our turn (compulsory attack)
    opponent_may_be_in_check = True
    #: a finished game's position text has the losing King off the board
    king_may_have_fallen = True

    def __init__(self, geometry=None, d6_only: bool = False):
        super().__init__(geometry)
        self.d6_only = bool(d6_only)

    # ----- moves ----------------------------------------------------------------------------------
    def legal_moves(self, pos: Position) -> list[Move]:
        if pos.pending is not None:
            return []
        me = pos.turn
        foe = 1 - me
        if not pos.royals[foe] or not pos.royals[me]:
            return []  # a King has fallen: the game is over
        (enemy_king,) = pos.royals[foe]
        if self.is_attacked(pos, enemy_king, me):
            # "If a piece is threatening the opposing King at the start of their own turn,
            # they must attack the King."
            return [m for m in self.pseudo_moves(pos, me) if m.capture == enemy_king]
        moves = super().legal_moves(pos)
        if not moves and self.in_check(pos, me):
            return self.prerogative_moves(pos)
        return moves

    def prerogative_moves(self, pos: Position) -> list[Move]:
        """King's Prerogative: only for a checkmated King, only against an adjacent checking
        piece whose square is defended (:meth:`supporters`). The King fights that piece and
        all its supporters, so if it wins, nothing attacks the square it has taken."""
        me, foe = pos.turn, 1 - pos.turn
        (ksq,) = pos.royals[me]
        out = []
        for c in self.attackers(pos, ksq, foe):
            if self.geometry.distance(c, ksq) == 1 and self.supporters(pos, ksq, c):
                out.append(Move(ksq, c, c, None, "prerogative"))
        return out

    def supporters(self, pos: Position, king: int, target: int) -> tuple[int, ...]:
        """The enemy pieces supporting ``target`` against the King on ``king``: every piece
        that could capture on ``target`` once the King stands there, directly, through the
        King's own square (an x-ray the King's move opens), or from behind another supporter
        (a battery): the pieces that threaten the square and would otherwise take the King
        one after another (docs/rules/combat.md). Empty: the square is not defended."""
        foe = 1 - pos.board[king].owner
        found: list[int] = []
        pos.begin()
        try:
            pos.take(target)
            pos.move_piece(king, target)
            while True:
                more = self.attackers(pos, target, foe)
                if not more:
                    break
                for s in more:
                    pos.take(s)
                found += more
        finally:
            pos.undo_frame()
        return tuple(sorted(found))

    def is_legal(self, pos: Position, move: Move) -> bool:
        """A capture is legal when the chess move it attempts is: judged on the board after the
        attacker wins, as FIDE judges it.

        ``perform`` only opens a fight (the board does not change yet), so the engine's
        default apply-and-test would judge an en passant capture on the unchanged board: it
        would forbid the e.p. capture of a checking pawn and allow one that exposes the King.
        """
        if move.capture is None or move.special == "prerogative":
            return super().is_legal(pos, move)
        player = pos.turn
        pos.begin()
        try:
            ChessRules.perform(self, pos, move)
            (king,) = pos.royals[player]
            return not self.is_attacked(pos, king, 1 - player)
        finally:
            pos.undo_frame()

    # ----- fights ---------------------------------------------------------------------------------
    def perform(self, pos: Position, move: Move) -> None:
        if move.capture is None:
            super().perform(pos, move)
            return
        defenders = (move.capture,)
        if move.special == "prerogative":
            defenders += self.supporters(pos, move.frm, move.capture)
        number = len(pos.var("fights", ())) + 1
        pos.set_var("pending", Decision("fight", -1, True, (
            ("move", move), ("attacker", move.frm), ("defenders", defenders),
            ("round", 1), ("number", number), ("rounds", ()),
        )))

    def fighters(self, pos: Position, decision: Decision | None = None) -> tuple[Fighter, tuple[Fighter, ...]]:
        """The two sides of the pending fight, with dice and every modifier."""
        d = decision or pos.pending
        att = pos.board[d.get("attacker")]
        defs = [pos.board[s] for s in d.get("defenders")]
        choice = weapon_choice_side(att.kind.name, defs[0].kind.name)
        if d.get("move").special == "prerogative":
            choice = "attacker"  # the King always has weapon choice
        attacker = Fighter(fighter_dice(att.kind.name, self.d6_only), att.state.get("fatigue", 0), choice == "attacker")
        defenders = tuple(
            Fighter(fighter_dice(p.kind.name, self.d6_only), p.state.get("fatigue", 0), choice == "defender" and i == 0)
            for i, p in enumerate(defs)
        )
        return attacker, defenders

    def odds(self, pos: Position, decision: Decision | None = None) -> FightOdds:
        """Exact odds of the pending fight from its current round on."""
        d = decision or pos.pending
        attacker, defenders = self.fighters(pos, d)
        return _cached_odds(attacker, defenders, MAX_TIES - d.get("round") + 1)

    def odds_of_move(self, pos: Position, move: Move) -> FightOdds:
        """Odds before committing to a capture (the screen shows them)."""
        if move.capture is None:
            raise IllegalMoveError("only a capture starts a fight")
        self.apply(pos, move)
        try:
            return self.odds(pos)
        finally:
            self.undo(pos)

    def chance_outcomes(self, pos: Position) -> list[ChanceOutcome]:
        d = pos.pending
        if d is None or d.kind != "fight":
            return []
        o = self.odds(pos, d)
        return [ChanceOutcome(Answer("fight", r), p) for r, p in zip(RESULTS, (o.attacker, o.defender, o.bounce)) if p > 0]

    def answer(self, pos: Position, answer: Answer) -> None:
        d = waiting_decision(pos, answer, "fight", "no fight is waiting for dice")
        value = answer.value
        rnd = d.get("round")
        if value in RESULTS:
            result, faces = value, None
        else:
            if not (isinstance(value, tuple) and len(value) == 3 and value[0] == "roll"):
                raise DiceError("a fight answer is ('roll', attacker faces, defender faces) or attacker/defender/bounce")
            _, att_faces, def_faces = value
            attacker, defenders = self.fighters(pos, d)
            a_total = side_total([attacker], [att_faces])
            d_total = side_total(list(defenders), list(def_faces))
            result = round_outcome(a_total, d_total, rnd, MAX_TIES)
            faces = (tuple(att_faces), tuple(tuple(f) for f in def_faces), a_total, d_total)
        rounds = d.get("rounds") + ((faces,) if faces else ())
        if result == "tie":
            info = tuple((k, v) for k, v in d.info if k not in ("round", "rounds")) + (("round", rnd + 1), ("rounds", rounds))
            pos.set_var("pending", Decision("fight", -1, True, info))
            return
        pos.set_var("pending", None)
        self.resolve(pos, d, result, rounds)

    def resolve(self, pos: Position, d: Decision, result: str, rounds: tuple) -> None:
        move: Move = d.get("move")
        attacker_sq, defenders = d.get("attacker"), d.get("defenders")
        board = pos.board
        att = board[attacker_sq]
        player = att.owner
        record = (d.get("number"), self.move_text(pos, move), att.uid,
                  tuple(board[s].uid for s in defenders), result, rounds)
        pos.set_var("fights", pos.var("fights", ()) + (record,))
        if result == "attacker":
            fatigue = att.state.get("fatigue", 0) + 1
            if move.special == "prerogative":
                for s in defenders[1:]:
                    pos.take(s)
                pos.take(move.capture)
                pos.move_piece(move.frm, move.to)
                # a supporting rook taken off its home square takes its castling right along
                self.close_turn(pos, player, (move.frm, move.to, *defenders[1:]), 0)
            else:
                super().perform(pos, move)
            pos.set_state(move.to, "fatigue", fatigue)
        elif result == "defender":
            pos.take(attacker_sq)
            for s in defenders:
                pos.set_state(s, "fatigue", board[s].state.get("fatigue", 0) + 1)
            # only the attacker left its square; the defenders never moved (castling rights)
            self.close_turn(pos, player, (attacker_sq,), 0)
        else:  # bounce: both back where they started, one token each, the move is lost
            pos.set_state(attacker_sq, "fatigue", att.state.get("fatigue", 0) + 1)
            for s in defenders:
                pos.set_state(s, "fatigue", board[s].state.get("fatigue", 0) + 1)
            self.close_turn(pos, player, (), pos.var("halfmove", 0) + 1)

    # ----- the end --------------------------------------------------------------------------------
    def outcome(self, pos: Position, claim_draw: bool = True) -> Outcome | None:
        if pos.pending is not None:
            return None
        for p in (WHITE, BLACK):
            if not pos.royals[p]:
                return Outcome(frozenset({1 - p}), "king lost a fight")
        return super().outcome(pos, claim_draw)

    def insufficient_material(self, pos: Position) -> bool:
        """Only King against King is dead: any other piece can still fight a King, and a King
        that loses a fight loses the game (docs/rules/combat.md)."""
        return all(len(pos.occ[c]) == 1 for c in (WHITE, BLACK))

    def can_win(self, pos: Position, player: int) -> bool:
        """Any piece besides the King can still win a fight against the enemy King; a lone
        King cannot reach the other (docs/tournament.md)."""
        return len(pos.occ[player]) > 1

    def expected_occupancy(self, pos: Position) -> frozenset[int]:
        """While the dice roll, the board shows the attempted capture as the player made it."""
        d = pos.pending
        if d is not None and d.kind == "fight":
            return self.occupancy_after(pos, d.get("move"))
        return pos.occupied()

    # ----- position text: FEN plus fatigue ----------------------------------------------------------
    def position_text(self, pos: Position) -> str:
        text = self.fen(pos)
        tired = [(sq, p.state["fatigue"]) for sq, p in pos.pieces() if p.state.get("fatigue")]
        if tired:
            text += " fatigue=" + ",".join(f"{self.geometry.name_of(sq)}:{n}" for sq, n in tired)
        return text

    def position_from_text(self, text: str) -> Position:
        """FEN, optionally followed by ``fatigue=e4:2,d5:1``."""
        fields = text.split()
        extra = [f for f in fields if f.startswith("fatigue=")]
        fen = " ".join(f for f in fields if not f.startswith("fatigue="))
        pos = self.position_from_fen(fen)
        for item in extra:
            for pair in filter(None, item[len("fatigue="):].split(",")):
                name, _, n = pair.partition(":")
                try:
                    sq = self.geometry.parse_square(name)
                except ValueError as e:
                    raise PositionError(f"fatigue: {e}") from None
                tokens = whole_number(n, f"fatigue {pair[:24]!r}: expected square:count, e.g. e4:2; the count",
                                      PositionError, 0, MAX_FATIGUE)
                if pos.board[sq] is None:
                    raise PositionError(f"fatigue on {name}, where there is no piece")
                if tokens:
                    pos.set_state(sq, "fatigue", tokens)
        return pos


def make(board_map=None, d6_only: bool = False, **options) -> CombatRules:
    if options:
        raise PositionError(f"combat takes the option d6_only only, got {', '.join(options)}")
    if board_map not in (None, "standard"):
        from ..maps import load_map

        return CombatRules(load_map(board_map).geometry, d6_only=d6_only)
    return CombatRules(d6_only=d6_only)


def piece_label(rules: CombatRules, pos: Position, sq: int) -> str:
    """"white knight on f3": how a fighter is named on screen and in the dice record."""
    p = pos.board[sq]
    return f"{'white' if p.owner == WHITE else 'black'} {p.kind.name} on {rules.geometry.name_of(sq)}"


def roll_pending_round(rules: CombatRules, pos: Position, source):
    """Roll one round of the pending fight from a dice ``source`` (seeded, system or entered).

    Returns ``(round_record, answer)``: the record entry for the dice record (addressed by the
    fight number and round, so a seeded game re-derives roll for roll) and the Answer to give
    the engine. Nothing in the position changes here.
    """
    from ..dice.record import roll_round

    d = pos.pending
    if d is None or d.kind != "fight":
        raise IllegalMoveError("no fight is waiting for dice")
    attacker, defenders = rules.fighters(pos, d)
    move = d.get("move")
    entry = roll_round(
        source, d.get("number"), d.get("round"), rules.move_text(pos, move),
        [(piece_label(rules, pos, d.get("attacker")), attacker)],
        [(piece_label(rules, pos, s), f) for s, f in zip(d.get("defenders"), defenders)],
        MAX_TIES,
    )
    answer = Answer("fight", ("roll", tuple(entry.attacker.fighters[0].faces),
                              tuple(tuple(f.faces) for f in entry.defender.fighters)))
    return entry, answer
