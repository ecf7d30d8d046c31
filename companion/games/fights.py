"""Dice fights as a layer any game takes (option ``fights="dice"``): Human Combat Chess's fights.

The seed (../shared/seeds/003, "Human Combat Chess - Tabletop Edition") ends with "Even More
Chaos": "With a bit of common sense applied, there is no reason you can't add these to the
Combat Chess Rules." This module is that layer, written once; every game's decisions are in
docs/rules/combat.md. :class:`FightLayer` is a mixin placed before a game's Rules class
(:func:`add_fights` does it to a rules object; Human Combat Chess is FIDE chess with the layer,
companion/games/combat.py). What it adds to any game:

* A move onto an enemy piece does not capture: it stops the turn on a chance Decision
  ("fight"). The answer is the dice faces of one round (a tie re-rolls: the decision stays
  pending with the next round number; the third tie bounces) or, for the computer and perft, a
  resolved result ("attacker", "defender", "bounce") weighted by the exact odds.
* The attacker who wins makes the game's own move (every effect of a capture in that game);
  a defender who wins takes the attacker off (the game's own removal: hook ``fight_lost``); a
  bounce leaves both where they were. The turn then ends the game's own way (hook
  ``fight_turn_over``).
* Fatigue is piece state (``fatigue``): -1 per earlier fight; every fighter still on the board
  after a fight gains one token. Tokens stay with the piece (promotion, a KoL King resting in
  his Tower: variable ``carried``).
* Compulsory moves: whoever threatens an enemy King at the start of their turn must attack one.
* A King that loses a fight is lost (two players: the game; more: the game's elimination).
* King's Prerogative in games that have checkmate: a checkmated King may attack an adjacent
  checking piece whose square is defended, fighting it and its supporters at once.
* "Only d6's" (option ``d6_only``). The dice per piece are data (companion/games/fight_dice.py).

Hooks a game may define (each has a default here): ``fight_turn_over(pos, player, touched,
removed, effects)`` ends the turn of a fight the attacker did not win (or a won Prerogative);
``fight_lost(pos, sq, winner_sq, effects) -> bool`` takes a losing attacker off (False: it
stayed on the board, e.g. a Troll that absorbs the blow); ``fight_hand(pos, move)`` the board
while the dice roll; ``has_checkmate`` (False: no King's Prerogative).
"""

from __future__ import annotations

from contextlib import contextmanager
from functools import lru_cache

from ..bounds import whole_number
from ..core.moves import Answer, ChanceOutcome, Decision, Move, Outcome
from ..core.position import Position
from ..core.rules import Rules
from ..dice.odds import MAX_FATIGUE, Fighter, FightOdds, fight_odds, round_outcome, side_total
from ..errors import DiceError, IllegalMoveError, PositionError
from .fight_dice import MAX_TIES, die_spec, roster_dice
from ..i18n import _

RESULTS = ("attacker", "defender", "bounce")
PREROGATIVE = "prerogative"
#: a position variable set (inside a frame) while a capture is played without its fight: to
#: judge its legality, or to see the board it makes
PLAIN = "plain_move"
FIGHT_OPTIONS = ("dice",)


@lru_cache(maxsize=4096)
def _cached_odds(attacker: Fighter, defenders: tuple, max_ties: int) -> FightOdds:
    """Exact odds depend only on the fighters (dice, fatigue, weapon choice): computed once."""
    return fight_odds(attacker, defenders, max_ties)


@lru_cache(maxsize=4096)
def _fighter(sides: int, d6_only: bool, fatigue: int, weapon_choice: bool) -> Fighter:
    """One fighter (a frozen value, shared): the search meets the same few again and again."""
    return Fighter(die_spec(sides, d6_only), fatigue, weapon_choice)


class FightLayer:
    """Dice fights on top of a game's Rules (see the module docstring). Call
    :meth:`init_fights` after the game's own ``__init__``."""

    fights = "dice"
    #: FEN checks (chess): after a lost fight the enemy King can stand attacked on our turn,
    #: and a finished game's position has the losing King off the board
    opponent_may_be_in_check = True
    king_may_have_fallen = True

    def init_fights(self, d6_only: bool = False) -> None:
        self.d6_only = bool(d6_only)
        roster = getattr(self, "roster", None)
        name = getattr(roster, "name", None) or self.name
        sides = roster_dice(name, [k.code for k in self.kinds])
        self.fight_sides = [sides[k.code] for k in self.kinds]
        self.unhashed_vars = frozenset(self.unhashed_vars) | {"fights", PLAIN}

    @property
    def evaluation_tables(self) -> tuple[str, ...]:
        """The game's evaluation tables, then ``fights`` (what a tired piece is worth)."""
        names = getattr(super(), "evaluation_tables", None) or (self.name,)
        return tuple(names) + ("fights",)

    # ----- the game's hooks ----------------------------------------------------------------------
    def _game(self, name: str):
        """The game's own hook ``name`` (the next class after the layer), or None."""
        return getattr(super(), name, None)

    @property
    def prerogative_allowed(self) -> bool:
        return getattr(self, "has_checkmate", True)

    def _turn_over(self, pos: Position, player: int, touched: tuple, removed: bool, effects: list) -> None:
        hook = self._game("fight_turn_over")
        if hook is not None:
            hook(pos, player, touched, removed, effects)
        else:
            self.end_turn(pos)

    def _lost(self, pos: Position, sq: int, winner_sq: int, effects: list) -> bool:
        hook = self._game("fight_lost")
        if hook is not None:
            return hook(pos, sq, winner_sq, effects)
        piece = pos.take(sq)
        effects.append(("captured", sq, piece.kind.title, piece.owner))
        return True

    def fight_hand(self, pos: Position, move: Move) -> frozenset[int]:
        """The board while the dice roll: the capture as the player made it (mover on ``to``,
        the pieces it attacks off)."""
        hook = self._game("fight_hand")
        if hook is not None:
            return hook(pos, move)
        occ = set(Rules.occupancy_after(self, pos, move))
        return frozenset(occ)

    # ----- moves ----------------------------------------------------------------------------------
    def legal_moves(self, pos: Position) -> list[Move]:
        if pos.pending is not None:
            return []
        me = pos.turn
        if pos.nplayers == 2 and self.prerogative_allowed and not all(pos.royals):
            return []  # a King has fallen: the game is over
        forced = self.king_attacks(pos, me)
        if forced:
            # "If a piece is threatening the opposing King at the start of their own turn,
            # they must attack the King."
            return forced
        moves = super().legal_moves(pos)
        if self.prerogative_allowed and all(m.frm < 0 for m in moves) and self.in_check(pos, me):
            return self.prerogative_moves(pos) or moves
        return moves

    def noisy_moves(self, pos: Position) -> list[Move]:
        """The game's own (faster) ``noisy_moves`` where the layer leaves the game's list as it
        is (:meth:`_games_list`); ``legal_moves`` filtered where a compulsory attack or the King's
        Prerogative changes it."""
        return super().noisy_moves(pos) if self._games_list(pos) else Rules.noisy_moves(self, pos)

    #: no legality tested move by move (``legal_candidates``): the layer's list is not the game's
    legal_candidates = None

    def _games_list(self, pos: Position) -> bool:
        """Is ``legal_moves`` the game's own list here: nothing pending, no fallen King, no King
        to attack, not in check (the King's Prerogative answers a check)?"""
        if pos.pending is not None or (pos.nplayers == 2 and self.prerogative_allowed and not all(pos.royals)):
            return False
        return not self.must_attack(pos) and not self.in_check(pos, pos.turn)

    def moves_from(self, pos: Position, sq: int) -> list[Move]:
        """Legal moves of the piece on ``sq`` (a lifted piece), compulsory attacks and the
        King's Prerogative included."""
        if pos.pending is not None or (pos.nplayers == 2 and self.prerogative_allowed and not all(pos.royals)):
            return []
        forced = self.king_attacks(pos, pos.turn)
        if forced:
            return [m for m in forced if m.frm == sq]
        moves = super().moves_from(pos, sq)
        if not moves and self.prerogative_allowed and sq in pos.royals[pos.turn] and self.in_check(pos, pos.turn):
            return [m for m in self.legal_moves(pos) if m.frm == sq]
        return moves

    def must_attack(self, pos: Position) -> bool:
        """Must the side to move attack a King now (the compulsory move)? The search does not
        stand pat then."""
        if pos.pending is not None:
            return False
        me = pos.turn
        return any(self.is_attacked(pos, k, me) for e in self.enemies(pos, me) for k in pos.royals[e])

    def king_attacks(self, pos: Position, me: int) -> list[Move]:
        """The compulsory attacks on enemy Kings ``me`` threatens now (empty: none). With two
        players a pin does not excuse it (taking the King ends the game); with more, only the
        attacks that leave ``me``'s own King safe count (docs/rules/combat.md)."""
        threatened = {k for e in self.enemies(pos, me) for k in pos.royals[e] if self.is_attacked(pos, k, me)}
        if not threatened:
            return []
        moves = [m for m in self.pseudo_moves(pos, me)
                 if m.capture is not None and (m.capture in threatened or m.to in threatened)]
        if pos.nplayers > 2:
            moves = [m for m in moves if self.is_legal(pos, m)]
        return moves

    def prerogative_moves(self, pos: Position) -> list[Move]:
        """King's Prerogative: only for a checkmated King, only against an adjacent checking
        piece whose square is defended (:meth:`supporters`). The King fights that piece and
        all its supporters, so if it wins, nothing attacks the square it has taken."""
        me = pos.turn
        if len(pos.royals[me]) != 1:
            return []
        (ksq,) = pos.royals[me]
        bans = self.capture_bans
        king = pos.board[ksq].kid
        out = []
        for foe in self.enemies(pos, me):
            for c in self.attackers(pos, ksq, foe):
                if bans is not None and pos.board[c].kid in bans[king]:
                    continue
                if self.geometry.distance(c, ksq) == 1 and self.supporters(pos, ksq, c):
                    out.append(Move(ksq, c, c, None, PREROGATIVE))
        return out

    def supporters(self, pos: Position, king: int, target: int) -> tuple[int, ...]:
        """The enemy pieces supporting ``target`` against the King on ``king``: every piece
        that could capture on ``target`` once the King stands there, directly, through the
        King's own square (an x-ray the King's move opens), or from behind another supporter
        (a battery): the pieces that threaten the square and would otherwise take the King
        one after another (docs/rules/combat.md). Empty: the square is not defended."""
        foes = self.enemies(pos, pos.board[king].owner)
        found: list[int] = []
        pos.begin()
        try:
            pos.take(target)
            pos.move_piece(king, target)
            while True:
                more = [s for foe in foes for s in self.attackers(pos, target, foe)]
                if not more:
                    break
                for s in more:
                    pos.take(s)
                found += more
        finally:
            pos.undo_frame()
        return tuple(sorted(found))

    def is_legal(self, pos: Position, move: Move) -> bool:
        """A capture is legal when the move it attempts is: judged on the board after the
        attacker wins, as the game judges a capture (``perform`` alone only opens a fight)."""
        if move.capture is None or move.special == PREROGATIVE:
            return super().is_legal(pos, move)
        with _without_fights(pos):
            return super().is_legal(pos, move)

    def occupancy_after(self, pos: Position, move: Move) -> frozenset[int]:
        """The board once ``move`` is made and, for a capture, won by the attacker."""
        with _without_fights(pos):
            return super().occupancy_after(pos, move)

    def expected_occupancy(self, pos: Position) -> frozenset[int]:
        """While the dice roll, the board shows the attempted capture as the player made it."""
        d = pos.pending
        if d is not None and d.kind == "fight":
            return self.fight_hand(pos, d.get("move"))
        return super().expected_occupancy(pos)

    # ----- fights ---------------------------------------------------------------------------------
    def perform(self, pos: Position, move: Move) -> None:
        if move.capture is None or pos.vars.get(PLAIN):
            self._perform_keeping_fatigue(pos, move)
            return
        number = len(pos.var("fights", ())) + 1
        pos.set_var("pending", Decision("fight", -1, True, (
            ("move", move), ("attacker", move.frm), ("defenders", self.fight_defenders(pos, move)),
            ("round", 1), ("number", number), ("rounds", ()),
        )))

    def fight_defenders(self, pos: Position, move: Move) -> tuple[int, ...]:
        """The pieces a capture fights: the one it takes, a second enemy piece where it lands
        (KoL's Boris takes two), and for King's Prerogative every supporter."""
        board = pos.board
        me = board[move.frm].owner
        out = [move.capture]
        if move.to != move.capture and board[move.to] is not None and board[move.to].owner != me:
            out.append(move.to)
        if move.special == PREROGATIVE:
            out += [s for s in self.supporters(pos, move.frm, move.capture) if s not in out]
        return tuple(out)

    def fatigue_of(self, pos: Position, piece) -> int:
        """A piece's tokens; a piece carrying another (KoL's Tower with its King) fights as the
        one it carries, with that one's tokens."""
        carried = piece.state.get("carries")
        if carried is not None:
            return dict(pos.var("carried", ())).get(carried, 0)
        return piece.state.get("fatigue", 0)

    def fighters(self, pos: Position, decision: Decision | None = None) -> tuple[Fighter, tuple[Fighter, ...]]:
        """The two sides of the pending fight, with dice and every modifier. Weapon choice goes to
        the attacker, unless only the defender is a King ("the Kings always get weapon choice")."""
        d = decision or pos.pending
        board = pos.board
        att = board[d.get("attacker")]
        defs = [board[s] for s in d.get("defenders")]
        king_defends = defs[0].kind.royal and not att.kind.royal and d.get("move").special != PREROGATIVE
        sides, d6 = self.fight_sides, self.d6_only
        attacker = _fighter(sides[att.kid], d6, self.fatigue_of(pos, att), not king_defends)
        defenders = tuple(_fighter(sides[p.kid], d6, self.fatigue_of(pos, p), king_defends and i == 0)
                          for i, p in enumerate(defs))
        return attacker, defenders

    def odds(self, pos: Position, decision: Decision | None = None) -> FightOdds:
        """Exact odds of the pending fight from its current round on."""
        d = decision or pos.pending
        attacker, defenders = self.fighters(pos, d)
        return _cached_odds(attacker, defenders, MAX_TIES - d.get("round") + 1)

    def attack_odds(self, akid: int, afat: int, dkid: int, dfat: int) -> FightOdds:
        """Exact odds of a piece of kind ``akid`` with ``afat`` tokens attacking one of kind ``dkid``
        with ``dfat`` alone, before any round (a King defending against a non-King takes weapon
        choice; no King's Prerogative): what the computer weighs a fight it could start by."""
        king = self.kinds[dkid].royal and not self.kinds[akid].royal
        sides, d6 = self.fight_sides, self.d6_only
        return _cached_odds(_fighter(sides[akid], d6, afat, not king), (_fighter(sides[dkid], d6, dfat, king),),
                            MAX_TIES)

    def odds_of_move(self, pos: Position, move: Move) -> FightOdds:
        """Odds before committing to a capture (the screen shows them on a lifted piece)."""
        if move.capture is None:
            raise IllegalMoveError(_("only a capture starts a fight"))
        self.apply(pos, move)
        try:
            return self.odds(pos)
        finally:
            self.undo(pos)

    def chance_outcomes(self, pos: Position) -> list[ChanceOutcome]:
        d = pos.pending
        if d is None or d.kind != "fight":
            return super().chance_outcomes(pos)
        o = self.odds(pos, d)
        return [ChanceOutcome(Answer("fight", r), p) for r, p in zip(RESULTS, (o.attacker, o.defender, o.bounce)) if p > 0]

    def answer_text(self, answer: Answer) -> str:
        """A fight's answer as written in logs: its result (``attacker``), or its faces."""
        if answer.decision == "fight":
            return str(answer.value)
        return super().answer_text(answer)

    def answers(self, pos: Position) -> list[Answer]:
        d = pos.pending
        if d is not None and d.kind == "fight":
            return []
        return super().answers(pos)

    def answer(self, pos: Position, answer: Answer) -> None:
        d = pos.pending
        if d is None or d.kind != "fight":
            if answer.decision == "fight":
                raise IllegalMoveError(_("no fight is waiting for dice"))
            tired = _tired(pos, pos.occupied(), d.player if d is not None else -1)
            super().answer(pos, answer)
            if tired:
                self._keep_fatigue(pos, tired, pos.occupied())
            return
        if answer.decision != "fight":
            raise IllegalMoveError(_("a fight is waiting for its dice"))
        value = answer.value
        rnd = d.get("round")
        if value in RESULTS:
            result, faces = value, None
        else:
            if not (isinstance(value, tuple) and len(value) == 3 and value[0] == "roll"):
                raise DiceError(_("a fight answer is ('roll', attacker faces, defender faces) or "
                                  "attacker/defender/bounce"))
            __, att_faces, def_faces = value
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
        """End the fight: the attacker's move, the attacker taken off, or a bounce; tokens to
        every fighter still on the board."""
        move: Move = d.get("move")
        attacker_sq, defenders = d.get("attacker"), d.get("defenders")
        board = pos.board
        att = board[attacker_sq]
        player = att.owner
        tired = self.fatigue_of
        att_tired = tired(pos, att)
        others = tuple(tired(pos, board[s]) for s in defenders)  # each defender's tokens
        att_uid = att.state.get("carries", att.uid)
        def_uids = tuple(board[s].uid for s in defenders)
        record = (d.get("number"), self.move_text(pos, move), att_uid, def_uids, result, rounds)
        pos.set_var("fights", pos.var("fights", ()) + (record,))
        effects: list = []
        if result == "attacker":
            if move.special == PREROGATIVE:
                for s in defenders:
                    self._lost(pos, s, move.frm, effects)
                pos.move_piece(move.frm, move.to)
                # a supporting rook taken off its home square takes its castling right along
                self._turn_over(pos, player, (move.frm, move.to, *defenders[1:]), True, effects)
            else:
                self._perform_keeping_fatigue(pos, move)
                # a defender that survives its loss (a Troll's thick skin) fought too
                for uid, f in zip(def_uids, others):
                    self._set_fatigue(pos, uid, f + 1, (), carried_too=False)
            self._set_fatigue(pos, att_uid, att_tired + 1, (move.to, move.frm))
        elif result == "defender":
            removed = self._lost(pos, attacker_sq, defenders[0], effects)
            if not removed:  # it stayed on the board (a Troll's thick skin)
                self._set_fatigue(pos, att_uid, att_tired + 1, (attacker_sq,))
            elif att_uid != att.uid:  # the carrier fell with what it carried
                _drop_carried(pos, att_uid)
            for uid, f, sq in zip(def_uids, others, defenders):
                self._set_fatigue(pos, uid, f + 1, (sq,))
            # only the attacker left its square; the defenders never moved (castling rights)
            self._turn_over(pos, player, (attacker_sq,), removed, effects)
        else:  # bounce: both back where they started, one token each, the move is lost
            self._set_fatigue(pos, att_uid, att_tired + 1, (attacker_sq,))
            for uid, f, sq in zip(def_uids, others, defenders):
                self._set_fatigue(pos, uid, f + 1, (sq,))
            self._turn_over(pos, player, (), False, effects)

    # ----- fatigue that stays with its piece --------------------------------------------------------
    def _perform_keeping_fatigue(self, pos: Position, move: Move) -> None:
        """The game's own move; tokens of the pieces it touches stay with them even when the
        game replaces a piece (a KoL King entering or leaving his Tower)."""
        if move.frm < 0:  # a pass
            super().perform(pos, move)
            return
        tired = _tired(pos, (move.frm, move.to), pos.board[move.frm].owner)
        super().perform(pos, move)
        if tired or pos.vars.get("carried"):
            self._keep_fatigue(pos, tired, (move.frm, move.to))

    def _keep_fatigue(self, pos: Position, tired, squares) -> None:
        """Give back the tokens of ``tired`` pieces ((uid, tokens) pairs) where they stand on
        ``squares``; those that left the board without a capture are carried (``carried``), and
        carried pieces that came back get theirs."""
        board = pos.board
        carried = dict(pos.var("carried", ()))
        changed = False
        here = {board[s].uid: s for s in squares if s >= 0 and board[s] is not None}
        for uid, n in tired:
            sq = here.get(uid)
            if sq is not None:
                if board[sq].state.get("fatigue") != n:
                    pos.set_state(sq, "fatigue", n)
            elif not pos.vars.get(PLAIN):
                carried[uid] = n
                changed = True
        for uid, sq in here.items():
            if uid in carried and not board[sq].state.get("carries") == uid:
                n = carried.pop(uid)
                changed = True
                if not board[sq].state.get("fatigue"):
                    pos.set_state(sq, "fatigue", n)
        if changed:
            pos.set_var("carried", tuple(sorted(carried.items())) or None)

    def _set_fatigue(self, pos: Position, uid: int, tokens: int, hints, carried_too: bool = True) -> None:
        """Put ``tokens`` on the piece ``uid`` (looked for on ``hints`` first, then everywhere);
        a piece carried inside another keeps them in ``carried``. A piece no longer on the board
        gets nothing."""
        board = pos.board
        where = next((sq for sq in hints if board[sq] is not None and board[sq].uid == uid), None)
        if where is None:
            where = next((sq for sq, p in pos.pieces() if p.uid == uid), None)
        if where is not None:
            pos.set_state(where, "fatigue", tokens)
            _drop_carried(pos, uid)
            return
        carried = dict(pos.var("carried", ()))
        if carried_too and any(p.state.get("carries") == uid for _, p in pos.pieces()):
            carried[uid] = tokens
            pos.set_var("carried", tuple(sorted(carried.items())))

    # ----- the end --------------------------------------------------------------------------------
    def outcome(self, pos: Position, claim_draw: bool = True) -> Outcome | None:
        if pos.pending is not None:
            return None
        if pos.nplayers == 2 and self.prerogative_allowed:
            for p in range(2):
                if not pos.royals[p]:
                    return Outcome(frozenset({1 - p}), "king lost a fight")
        return super().outcome(pos, claim_draw)

    def insufficient_material(self, pos: Position) -> bool:
        """Only bare Kings are dead: any other piece can still fight a King, and a King that
        loses a fight loses the game (docs/rules/combat.md)."""
        return all(len(pos.occ[c]) == len(pos.royals[c]) for c in range(pos.nplayers))

    def can_win(self, pos: Position, player: int) -> bool:
        """Any piece besides the King can still win a fight against the enemy King; a lone
        King cannot reach the other (docs/tournament.md)."""
        return len(pos.occ[player]) > len(pos.royals[player])

    def has_legal_move(self, pos: Position) -> bool:
        return super().has_legal_move(pos) if self._games_list(pos) else bool(self.legal_moves(pos))

    # ----- position text: the game's text plus fatigue ----------------------------------------------
    def position_text(self, pos: Position) -> str:
        """The game's own text, then ``fatigue=e4:1,d5:2`` for tired pieces and ``carried=g1:3``
        for a tired piece carried inside another (KoL's King in his Tower)."""
        tired = [(sq, p.state["fatigue"]) for sq, p in pos.pieces() if p.state.get("fatigue")]
        carried = dict(pos.var("carried", ()))
        inside = [(sq, carried[p.state["carries"]]) for sq, p in pos.pieces()
                  if p.state.get("carries") in carried]
        if tired:
            pos.begin()
            try:
                for sq, _ in tired:
                    pos.set_state(sq, "fatigue", None)
                text = super().position_text(pos)
            finally:
                pos.undo_frame()
        else:
            text = super().position_text(pos)
        name = self.geometry.name_of
        for key, items in (("fatigue", tired), ("carried", inside)):
            if items:
                text += f" {key}=" + ",".join(f"{name(sq)}:{n}" for sq, n in items)
        return text

    def position_from_text(self, text: str) -> Position:
        """The game's text, optionally followed by ``fatigue=e4:2,d5:1`` (and ``carried=...``)."""
        fields = text.split()
        ours = [f for f in fields if f.startswith(("fatigue=", "carried="))]
        pos = super().position_from_text(" ".join(f for f in fields if f not in ours))
        carried: dict[int, int] = {}
        for item in ours:
            key, __, body = item.partition("=")
            for pair in filter(None, body.split(",")):
                name, __, n = pair.partition(":")
                try:
                    sq = self.geometry.parse_square(name)
                except ValueError as e:
                    raise PositionError(f"{key}: {e}") from None
                tokens = whole_number(n, _("{key} {pair!r}: expected square:count, e.g. e4:2; the count").format(
                                          key=key, pair=pair[:24]),
                                      PositionError, 0, MAX_FATIGUE)
                piece = pos.board[sq]
                if piece is None:
                    raise PositionError(_("{key} on {name}, where there is no piece").format(key=key, name=name))
                if key == "carried":
                    if "carries" not in piece.state:
                        raise PositionError(_("carried on {name}: the piece there carries no other").format(name=name))
                    if tokens:
                        carried[piece.state["carries"]] = tokens
                elif tokens:
                    pos.set_state(sq, "fatigue", tokens)
        if carried:
            pos.set_var("carried", tuple(sorted(carried.items())))
        return pos


@contextmanager
def _without_fights(pos: Position):
    """Moves played inside are played as the game plays them, captures without their fight (to
    judge a capture's legality, or see the board it makes); nothing of it stays."""
    pos.begin()
    try:
        pos.set_var(PLAIN, True)
        yield
    finally:
        pos.undo_frame()


def _tired(pos: Position, squares, owner: int = -1) -> tuple[tuple[int, int], ...]:
    """(uid, tokens) of the tired pieces on ``squares`` (of ``owner`` only, when given)."""
    board = pos.board
    out = []
    for s in squares:
        p = board[s] if s >= 0 else None
        if p is not None and p.state and (owner < 0 or p.owner == owner):
            n = p.state.get("fatigue")
            if n:
                out.append((p.uid, n))
    return tuple(out)


def _drop_carried(pos: Position, uid: int) -> None:
    carried = dict(pos.var("carried", ()))
    if carried.pop(uid, None) is not None:
        pos.set_var("carried", tuple(sorted(carried.items())) or None)


# ----- adding the layer to a game ---------------------------------------------------------------------
_CLASSES: dict[type, type] = {}


def register_fight_class(base: type, cls: type) -> None:
    """The class a game's rules become with dice fights (Human Combat Chess for FIDE chess)."""
    _CLASSES[base] = cls


def fight_class(base: type) -> type:
    """``base`` with the fight layer in front of it (one class per game, made once)."""
    cls = _CLASSES.get(base)
    if cls is None:
        cls = type(f"{base.__name__}WithFights", (FightLayer, base), {"__module__": __name__,
                                                                       "__doc__": f"{base.__name__} with dice fights."})
        _CLASSES[base] = cls
    return cls


def add_fights(rules, d6_only: bool = False):
    """``rules`` with dice fights: its class becomes the game's class with the layer in front
    (only methods are added: the object keeps every attribute it has), then the layer reads
    its fight dice. Returns ``rules``. VariantError if the game has no dice for its pieces."""
    if isinstance(rules, FightLayer):
        rules.d6_only = bool(d6_only)
        return rules
    rules.__class__ = fight_class(type(rules))
    rules.init_fights(d6_only)
    return rules

