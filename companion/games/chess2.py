"""Chess 2 (``chess2``), David Sirlin's rules v2.4: six armies, duels, Midline Invasion.

The seed: ../shared/seeds/002_355d17d5c304ba86.txt; every reading is in docs/rules/chess2.md.
Pieces are data (maps/variants/chess2.toml, one kind per army and FEN letter); their abilities
are the hooks of companion/games/chess2_abilities.py; position text is
companion/games/chess2_text.py; the duels and king-turns are companion/games/chess2_duels.py,
the end companion/games/chess2_end.py, the computer's capture-search lists
companion/games/chess2_search.py. This module holds the rest of the turn structure:

* A capture of an enemy piece by anything but a King stops the turn on a choice Decision
  ``"duel"`` for the defender ("pass" or "duel"), when the defender may initiate (at least
  1 stone, 2 when the attacker outranks the victim: 1 to pay, 1 to bid). A duel is a *joint*
  Decision ``"bids"`` that both players answer at once: its Answer carries both bids
  ``(attacker's, defender's)``; neither is visible before the other. A called bluff (0-0) lets
  the attacker choose ("bluff": "gain" or "destroy") when both are possible. An Elephant's
  rampage offers one duel per enemy victim, in path order.
* A Two Kings player's turn is followed by an optional king-turn: a Decision ``"king-turn"``
  whose answers are "skip" and each legal Warrior King move or Whirlwind (each answer counts as
  a ply: ``("ply", True)`` in its info, see companion/core/moves.py).
* A move is legal when the mover's Kings are safe after it, as made (FIDE's rule). A duel the
  defender wins takes the attacker off the board as well and may uncover one of them: the
  attacker is then in check on the defender's turn, and must answer it on its own.
* The game ends by Midline Invasion (all of the mover's Kings on its fifth rank or beyond after
  its move), checkmate, having no legal move (no stalemate), threefold repetition (stones,
  castling, en passant and the king-turn phase are part of the position), the fifty-move rule,
  or impossible checkmate.
"""

from __future__ import annotations

from ..core.geometry import Geometry
from ..core.moves import Answer, Move
from ..core.position import Position
from ..core.roster import load_roster
from ..core.rules import Rules
from ..errors import PositionError, VariantError
from . import chess2_abilities as ab
from .chess import CASTLES, RIGHTS_LOST, castling_moves, en_passant_moves
from .chess2_armies import (ARMIES, BLACK, DUEL_KINDS, KING_TURN, MAX_STONES, RANKS, SKIP, START_STONES, WHITE,
                            army_name, parse_armies)
from .chess2_duels import Chess2Decisions
from .chess2_end import Chess2End
from .chess2_search import Chess2SearchHooks
from ..i18n import _

__all__ = ["ARMIES", "Chess2Rules", "army_name", "make", "parse_armies", "rules_for"]


class Chess2Rules(Chess2SearchHooks, Chess2Decisions, Chess2End, Rules):
    """Chess 2: the pieces and their abilities, move generation and legality, the turn's steps;
    its decisions (chess2_duels), its end (chess2_end) and the capture search's lists
    (chess2_search) are the parts it is built from."""

    name = "chess2"
    title = "Chess 2"
    unhashed_vars = frozenset({"halfmove", "fullmove", "effects"})
    #: the abilities its pieces name, with their words (a piece's card on the screen)
    ability_registry = ab.ABILITIES

    def __init__(self, armies=("classic", "classic")):
        self.armies = parse_armies(armies)
        self.roster = load_roster("chess2")
        wanted = set(self.armies)
        kinds = [k for k in self.roster.kinds if k.faction in wanted]
        for k in kinds:
            for a in k.abilities:
                if a not in ab.ABILITIES:
                    raise VariantError(_("{source}: [pieces.{name}] ability {a!r} is unknown; known: "
                                         "{abilities}").format(
                                           source=self.roster.source, name=k.name, a=a,
                                           abilities=', '.join(sorted(ab.ABILITIES))))
            if k.role not in RANKS:
                raise VariantError(_("{source}: [pieces.{name}] role {role!r} is not a duelling rank; expected one "
                                     "of {ranks}").format(
                                       source=self.roster.source, name=k.name, role=k.role, ranks=', '.join(RANKS)))
            if len(k.code) != 2 or k.code[0] != ARMIES[k.faction]:
                raise VariantError(_("{source}: [pieces.{name}] code {code!r} must be its army's letter ({armies}) "
                                     "and then its FEN letter").format(
                                       source=self.roster.source, name=k.name, code=k.code, armies=ARMIES[k.faction]))
        super().__init__(Geometry(8, 8, name="standard"), kinds, ("south", "north"))
        self.pw = ab.Powers(self)
        #: per player: FEN letter -> kind id
        self.letters = [{k.code[1]: i for i, k in enumerate(self.kinds) if k.faction == army} for army in self.armies]
        self.rank = [RANKS[k.role] for k in self.kinds]
        self.pawns = frozenset(i for i, k in enumerate(self.kinds) if k.role == "pawn")
        self.castles = tuple(any(i in self.pw.castlers for i in self.letters[p].values()) for p in (WHITE, BLACK))
        self.king_turns = tuple(any("king_turn" in self.kinds[i].abilities for i in self.letters[p].values())
                                for p in (WHITE, BLACK))
        #: Kings on the board: two Warrior Kings for the army with king-turns, else one
        self.kings_needed = tuple(2 if self.king_turns[p] else 1 for p in (WHITE, BLACK))
        geo = self.geometry
        #: squares on the 8 lines through each square (moves off them cannot uncover a King)
        self.lines = [frozenset(t for line in lines for t in line)
                      for lines in ab.step_table(geo, ab.ORTHOGONAL + ab.DIAGONAL, 0)]
        #: Midline Invasion: each player's fifth rank and beyond
        self.across = (frozenset(s for s in range(geo.size) if s // 8 >= 4),
                       frozenset(s for s in range(geo.size) if s // 8 <= 3))
        self._elephant_armies = tuple(any(i in self.pw.elephants for i in self.letters[p].values()) for p in (0, 1))
        self._empowered_armies = tuple(any(i in self.pw.empowered for i in self.letters[p].values()) for p in (0, 1))

    @property
    def evaluation_tables(self) -> tuple[str, ...]:
        """The computer's evaluation tables for this match-up (companion/ai/tables): the game's,
        then each army's (merged in that order)."""
        return ("chess2",) + tuple(dict.fromkeys(f"chess2-{a}" for a in self.armies))

    # ----- identity ---------------------------------------------------------------------------
    def kind_of(self, player: int, letter: str) -> int:
        try:
            return self.letters[player][letter.upper()]
        except KeyError:
            army = (_("{letter!r} is not a piece of white's army ({armies}: {letters})") if player == WHITE else
                    _("{letter!r} is not a piece of black's army ({armies}: {letters})"))
            raise PositionError(army.format(letter=letter, armies=self.armies[player],
                                    letters=', '.join(sorted(self.letters[player])))) from None

    def letter(self, piece) -> str:
        c = piece.kind.code[1]
        return c if piece.owner == WHITE else c.lower()

    def stones(self, pos: Position) -> tuple[int, int]:
        return pos.var("stones", (START_STONES, START_STONES))

    def fee(self, attacker, victim) -> int:
        """What the defender pays to initiate: 1 against a higher-ranked attacker."""
        return 1 if self.rank[attacker.kid] > self.rank[victim.kid] else 0

    def may_initiate(self, attacker, victim, stones: int, attacker_stones: int) -> bool:
        """Kings never duel; "Players with 0 stones cannot initiate duels"; a fee is paid from
        the defender's stones. Against an attacker with 0 stones the defender "must bid 1", so
        he needs that stone after the fee (docs/rules/chess2.md, "Duels with few stones")."""
        if attacker.kind.royal or victim.kind.royal or attacker.owner == victim.owner:
            return False
        return stones >= (1 + self.fee(attacker, victim) if attacker_stones == 0 else 1)

    # ----- attacks ----------------------------------------------------------------------------
    def is_attacked(self, pos: Position, sq: int, by: int) -> bool:
        """Could a piece of ``by`` capture a King standing on ``sq``? The vocabulary's attacks
        (a Nemesis gives check; a Reaper and a Ghost never do), an Elephant's rampage, and an
        Empowered piece's borrowed patterns."""
        if super().is_attacked(pos, sq, by):
            return True
        if self._elephant_armies[by] and ab.rampage_attacks(self.pw, pos.board, sq, by):
            return True
        if self._empowered_armies[by] and ab.borrowed_attack(self.pw, self.compiled, pos.board, sq, by, pos.occ[by]):
            return True
        return False

    def attackers(self, pos: Position, sq: int, by: int) -> list[int]:
        """Squares of ``by``'s pieces that could capture a King on ``sq`` (as :meth:`is_attacked`)."""
        out = super().attackers(pos, sq, by)
        board, pw = pos.board, self.pw
        if self._elephant_armies[by] or self._empowered_armies[by]:
            for s in sorted(pos.occ[by]):
                if s in out:
                    continue
                k = board[s].kid
                if k in pw.elephants and any(
                        sq in path and ab.rampage_victims(pw, board, s, path, by, king_target=sq) is not None
                        for path in pw.paths[s]):
                    out.append(s)
                elif k in pw.empowered and ab.borrowed_attack(pw, self.compiled, board, sq, by, (s,)):
                    out.append(s)
        return out

    # ----- move generation --------------------------------------------------------------------
    def pseudo_moves(self, pos: Position, player: int, squares=None) -> list[Move]:
        board = pos.board
        pw = self.pw
        out = self._capture_rules(board, super().pseudo_moves(pos, player, squares))
        hooked = pw.hooked
        for sq in (sorted(pos.occ[player]) if squares is None else squares):
            p = board[sq]
            k = p.kid
            if k not in hooked:
                continue
            if k in pw.nemesis_pawns:
                start = len(out)
                have = {m.to for m in out if m.frm == sq and m.capture is None}
                for t in ab.nemesis_steps(self.geometry, board, sq, pos.royals[1 - player]):
                    if t not in have:
                        out.append(Move(sq, t))
                promo = self.compiled[k][player].promo_squares
                self._expand_promotions(out, start, promo, p.kind.promotes_to)
            elif k in pw.ghosts or k in pw.reapers:
                ab.teleport_moves(pw, board, sq, p, out)
            elif k in pw.elephants:
                ab.rampage_moves(pw, board, sq, player, out)
            elif k in pw.whirlers:
                victims = ab.whirlwind_victims(pw, board, sq, player)
                if victims:
                    out.append(Move(sq, sq, victims[0], None, "whirlwind"))
            if k in pw.empowered:
                ab.borrowed_moves(pw, self.compiled, board, sq, p, out)
            if k in pw.wild:
                ab.friendly_captures(pw, self.compiled, board, sq, p, out)
        return out

    def _capture_rules(self, board, moves) -> list[Move]:
        """``moves`` without the captures an ability forbids (``ab.may_capture``), a pouncer's
        captures marked ``"pounce"``: the vocabulary's moves as Chess 2 plays them (``pseudo_moves``
        and the capture search's ``noisy_moves``)."""
        pw = self.pw
        out = []
        for m in moves:
            if m.capture is not None:
                att = board[m.frm]
                if not ab.may_capture(pw, att, m.frm, board[m.capture], m.capture):
                    continue
                if att.kid in pw.pouncers:
                    m = Move(m.frm, m.to, m.capture, m.promotion, "pounce")
            out.append(m)
        return out

    def extra_moves(self, pos: Position, player: int, out: list[Move]) -> None:
        """En passant for every army's pawns; castling for the Classic army."""
        en_passant_moves(pos, player, self.pw.en_passant, out)
        if self.castles[player]:
            castling_moves(self, pos, player, out)

    def legal_moves(self, pos: Position) -> list[Move]:
        """Legal moves of the side to move; empty while a decision (a duel, a king-turn) is
        pending or once a King has invaded."""
        if pos.pending is not None or self.is_over(pos):
            return []
        return self._legal(pos, self.pseudo_moves(pos, pos.turn))

    def moves_from(self, pos: Position, sq: int) -> list[Move]:
        """Legal moves of the piece on ``sq`` (a lifted piece), without generating the others."""
        p = pos.board[sq] if 0 <= sq < len(pos.board) else None
        if p is None or p.owner != pos.turn or pos.pending is not None or self.is_over(pos):
            return []
        pseudo = self.pseudo_moves(pos, pos.turn, (sq,))
        extra: list[Move] = []
        self.extra_moves(pos, pos.turn, extra)
        pseudo += [m for m in extra if m.frm == sq]
        return self._legal(pos, pseudo)

    def king_actions(self, pos: Position, player: int) -> list[Move]:
        """The legal moves and Whirlwinds of ``player``'s Warrior Kings (a king-turn)."""
        kings = sorted(s for s in pos.royals[player] if pos.board[s].kid in self.pw.whirlers)
        return self._legal(pos, self.pseudo_moves(pos, player, kings), player)

    def _legal(self, pos: Position, pseudo: list[Move], player: int | None = None) -> list[Move]:
        """Filter with a shortcut: when no King of the mover is attacked, a quiet move by a piece
        that is not a King, from a square off every line through the mover's Kings, cannot expose
        them (leaps are never blocked; slides, rampages and borrowed slides run along those
        lines; a piece arriving anywhere only blocks); nor can a capture whose squares are all
        off those lines (removing an enemy piece elsewhere only takes attacks away). Everything
        else is played out (:meth:`is_legal`)."""
        player = pos.turn if player is None else player
        kings = pos.royals[player]
        enemy = 1 - player
        safe_now = not any(self.is_attacked(pos, k, enemy) for k in kings)
        lines: frozenset = frozenset().union(*(self.lines[k] for k in kings)) if safe_now else frozenset()
        board = pos.board
        out = []
        for m in pseudo:
            if (safe_now and m.special in ("", "pounce") and m.frm not in lines
                    and (m.capture is None or (m.to not in lines and m.capture not in lines))
                    and not board[m.frm].kind.royal):
                out.append(m)
            elif self.is_legal(pos, m, player):
                out.append(m)
        return out

    def is_legal(self, pos: Position, move: Move, player: int | None = None) -> bool:
        """"It's illegal to move into check": after the move as made (every capture it attempts
        completed), none of the mover's Kings is attacked. A duel the defender wins afterwards
        may uncover one: that is check, given by the duel (docs/rules/chess2.md)."""
        player = pos.turn if player is None else player
        board = pos.board
        enemy = 1 - player
        pos.begin()
        try:
            if move.special == "castle":
                _, _, rf, rt, _, _ = next(c for c in CASTLES.values() if c[0] == move.frm and c[1] == move.to)
                pos.move_piece(move.frm, move.to)
                pos.move_piece(rf, rt)
            elif move.special == "whirlwind":
                for v in ab.whirlwind_victims(self.pw, board, move.frm, player) or ():
                    pos.take(v)
            else:
                for v in self._victims(pos, move):
                    pos.take(v)
                if move.special != "pounce":
                    pos.move_piece(move.frm, move.to)
            return not any(self.is_attacked(pos, k, enemy) for k in pos.royals[player])
        finally:
            pos.undo_frame()

    def _victims(self, pos: Position, move: Move) -> list[int]:
        """The squares whose pieces the move still has to capture, in order."""
        board = pos.board
        if move.special == "rampage":
            return [t for t in ab.rampage_path(self.pw, move.frm, move.to) if board[t] is not None]
        if move.capture is not None and board[move.capture] is not None and move.special != "whirlwind":
            return [move.capture]
        return []

    # ----- making moves -----------------------------------------------------------------------
    def perform(self, pos: Position, move: Move) -> None:
        self._act(pos, move, pos.turn, [], king_turn=False)

    def _act(self, pos: Position, move: Move, player: int, effects: list, king_turn: bool) -> None:
        board = pos.board
        if move.special == "castle":
            right = next(r for r, c in CASTLES.items() if c[0] == move.frm and c[1] == move.to)
            _, _, rf, rt, _, _ = CASTLES[right]
            pos.move_piece(move.frm, move.to)
            pos.move_piece(rf, rt)
            effects.append(("castle", rf, rt))
            self._finish(pos, move, player, effects, king_turn, False)
            return
        if move.special == "whirlwind":
            for v in ab.whirlwind_victims(self.pw, board, move.frm, player) or ():
                q = pos.take(v)
                effects.append(("destroyed", v, q.kind.title, q.owner))
                self._pawn_stone(pos, q, player, effects)
            self._finish(pos, move, player, effects, king_turn, False)
            return
        self._advance(pos, move, player, effects, king_turn)

    def _advance(self, pos: Position, move: Move, player: int, effects: list, king_turn: bool = False) -> None:
        """Capture the move's victims in order, stopping for a duel where the defender may
        initiate one; then complete the move."""
        board = pos.board
        att = board[move.frm]
        for v in self._victims(pos, move):
            q = board[v]
            if q.owner != player and self.may_initiate(att, q, self.stones(pos)[q.owner], self.stones(pos)[player]):
                self._offer_duel(pos, move, v, effects)
                return
            self._capture(pos, v, player, effects)
        if move.special != "pounce":
            pos.move_piece(move.frm, move.to)
            if move.promotion:
                old = pos.take(move.to)
                new = pos.new_piece(move.promotion, old.owner, old.state)
                new.uid = old.uid
                pos.put(move.to, new)
                effects.append(("promoted", move.to, new.kind.title, new.owner))
        self._finish(pos, move, player, effects, king_turn, att.kid in self.pawns)

    def _capture(self, pos: Position, sq: int, player: int, effects: list) -> None:
        q = pos.take(sq)
        effects.append(("captured", sq, q.kind.title, q.owner))
        self._pawn_stone(pos, q, player, effects)

    def _pawn_stone(self, pos: Position, victim, player: int, effects: list) -> None:
        """"You ... gain 1 stone each time you capture an enemy pawn, up to a maximum of 6"."""
        if victim.owner != player and victim.kid in self.pawns:
            self._add_stones(pos, player, 1, "pawn", effects)

    def _add_stones(self, pos: Position, player: int, delta: int, why: str, effects: list) -> None:
        st = list(self.stones(pos))
        new = max(0, min(MAX_STONES, st[player] + delta))
        if new != st[player]:
            effects.append(("stones", player, new - st[player], why))
            st[player] = new
            pos.set_var("stones", tuple(st))

    def _finish(self, pos: Position, move: Move, player: int, effects: list, king_turn: bool, pawn_move: bool) -> None:
        """After the move and its duels: bookkeeping, then a king-turn or the opponent's turn."""
        removed = any(e[0] in ("captured", "destroyed", "duel_lost") for e in effects)
        if king_turn:
            if removed:
                pos.set_var("halfmove", 0)
        else:
            rights = pos.var("castling", "")
            if rights:
                touched = {move.frm, move.to} | {e[1] for e in effects if e[0] in ("captured", "destroyed")}
                for sq in touched:
                    lost = RIGHTS_LOST.get(sq)
                    if lost:
                        rights = "".join(c for c in rights if c not in lost)
                pos.set_var("castling", rights or None)
            pos.set_var("halfmove", 0 if removed or pawn_move else pos.var("halfmove", 0) + 1)
            if player == BLACK:
                pos.set_var("fullmove", pos.var("fullmove", 1) + 1)
            pos.set_var("ep", None)
            if pawn_move and abs(move.to - move.frm) == 16 and move.special == "":
                pos.set_var("ep", (move.to + move.frm) // 2)
        if self._invaded(pos, player):
            effects.append(("invasion", player))
            pos.set_var("effects", tuple(effects))
            self._pass_turn(pos)
            return
        pos.set_var("effects", tuple(effects))
        if not king_turn and self.king_turns[player]:
            pos.set_var("pending", self.king_turn_decision(player))
            return
        self._pass_turn(pos)

    def _pass_turn(self, pos: Position) -> None:
        self.end_turn(pos)
        ep = pos.var("ep")
        if ep is not None:
            # the en passant square is part of the position only when a legal capture exists
            cands: list[Move] = []
            self.extra_moves(pos, pos.turn, cands)
            if not any(m.special == "ep" and self.is_legal(pos, m) for m in cands):
                pos.set_var("ep", None)

    # ----- the physical board ------------------------------------------------------------------
    def expected_occupancy(self, pos: Position) -> frozenset[int]:
        """What the board shows: the position; while a duel is decided, the move as the player
        made it (the mover on its square, everything it captures off)."""
        d = pos.pending
        if d is not None and d.kind in DUEL_KINDS:
            return self.occupancy_after(pos, d.get("move"))
        return pos.occupied()

    def occupancy_after(self, pos: Position, move: Move) -> frozenset[int]:
        """The squares occupied once ``move`` is made by hand, before any duel: the mover on its
        square (a Tiger back on its own), every piece it captures or destroys off, a castling
        rook on its new square."""
        occ = set(pos.occupied())
        if move.special == "whirlwind":
            return frozenset(occ - set(ab.whirlwind_victims(self.pw, pos.board, move.frm, pos.board[move.frm].owner) or ()))
        if move.special == "castle":
            _, _, rf, rt, _, _ = next(c for c in CASTLES.values() if c[0] == move.frm and c[1] == move.to)
            return frozenset((occ - {move.frm, rf}) | {move.to, rt})
        occ -= set(self._victims(pos, move))
        if move.special != "pounce":
            occ.discard(move.frm)
            occ.add(move.to)
        return frozenset(occ)

    def gestures(self, pos: Position) -> list[tuple[Move | Answer, frozenset[int]]]:
        """A king-turn is skipped on the board by lifting a Warrior King and putting it back
        (the rulebook's "tap one of your warrior kings as a signal to your opponent"): either
        King, one gesture each."""
        d = pos.pending
        if d is None or d.kind != KING_TURN:
            return []
        return [(Answer(KING_TURN, SKIP), frozenset((k,))) for k in sorted(pos.royals[d.player])]

    def describe_effects(self, pos: Position) -> list[str]:
        """The last step's effects (captures, duels, stones, a Whirlwind...) in words."""
        return [describe_effect(self, e) for e in pos.var("effects", ())]

    # ----- names ------------------------------------------------------------------------------
    def move_text(self, pos: Position, move: Move) -> str:
        """Coordinates (``e2e4``), the promotion as the army's FEN letter (``e7e8q``); a
        Whirlwind is the King's square twice (``e4e4``)."""
        n = self.geometry.name_of
        return n(move.frm) + n(move.to) + (move.promotion[1].lower() if move.promotion else "")

    def san(self, pos: Position, move: Move) -> str:
        """The move for the move list, in standard notation read with the army's FEN letters
        (``Nxe5``, ``exd5``, ``e8=Q``, ``O-O``, ``Bxd2`` for a Tiger's pounce, ``Ra1xa4`` for a
        rampage); a Whirlwind is ``Kd4 whirl``. Check is marked when the turn is over (a move
        that waits for a duel or a king-turn is not marked). ``move`` must be legal in ``pos``."""
        n = self.geometry.name_of
        piece = pos.board[move.frm]
        letter = piece.kind.code[1]
        if move.special == "castle":
            text = "O-O" if move.to % 8 == 6 else "O-O-O"
        elif move.special == "whirlwind":
            text = f"{letter}{n(move.frm)} whirl"
        elif piece.kid in self.pawns:
            text = (n(move.frm)[0] + "x" if move.capture is not None else "") + n(move.to)
            if move.promotion:
                text += "=" + move.promotion[1]
        else:
            text = letter
            if move.special == "rampage":
                text += n(move.frm)
            else:
                rivals = [m for m in self.legal_moves(pos) if m.to == move.to and m.frm != move.frm
                          and pos.board[m.frm].kid == piece.kid]
                if rivals:
                    same_file = any(m.frm % 8 == move.frm % 8 for m in rivals)
                    same_rank = any(m.frm // 8 == move.frm // 8 for m in rivals)
                    text += n(move.frm)[0] if not same_file else n(move.frm)[1:] if not same_rank else n(move.frm)
            if move.capture is not None:
                text += "x"
            text += n(move.to)
        self.apply(pos, move)
        try:
            if pos.pending is None and self.outcome(pos) is None and self.in_check(pos):
                text += "#" if not self.legal_moves(pos) else "+"
        finally:
            self.undo(pos)
        return text

    # ----- position text ----------------------------------------------------------------------
    def start_position(self) -> Position:
        from .chess2_text import start_text

        return self.position_from_text(start_text(self.armies))

    def position_from_text(self, text: str) -> Position:
        from .chess2_text import parse_position

        return parse_position(self, text)

    def position_text(self, pos: Position) -> str:
        from .chess2_text import format_position

        return format_position(self, pos)


def describe_effect(rules: Chess2Rules, e: tuple) -> str:
    """One effect tuple in plain words (the screen and logs)."""
    n = rules.geometry.name_of
    side = ("white", "black")
    kind = e[0]
    if kind == "captured":
        return f"{side[e[3]]}'s {e[2]} on {n(e[1])} is captured."
    if kind == "destroyed":
        return f"{side[e[3]]}'s {e[2]} on {n(e[1])} is destroyed by the Whirlwind."
    if kind == "duel_lost":
        return f"{side[e[3]]}'s {e[2]} on {n(e[1])} lost the duel and leaves the board."
    if kind == "duel":
        return f"{side[e[1]]} initiates a duel" + (f" (pays {e[2]} stone)." if e[2] else ".")
    if kind == "bids":
        return f"Bids: attacker {e[1]}, defender {e[2]}: the {e[3]} wins."
    if kind == "stones":
        return f"{side[e[1]]} {'gains' if e[2] > 0 else 'loses'} {abs(e[2])} stone{'s' if abs(e[2]) != 1 else ''} ({e[3]})."
    if kind == "castle":
        return f"The rook moves from {n(e[1])} to {n(e[2])}."
    if kind == "promoted":
        return f"{side[e[3]]}'s pawn on {n(e[1])} becomes a {e[2]}."
    if kind == "skip":
        return f"{side[e[1]]} skips the king-turn."
    if kind == "invasion":
        return f"{side[e[1]]} wins by Midline Invasion."
    return repr(e)


_CACHE: dict[tuple[str, str], Chess2Rules] = {}


def rules_for(armies) -> Chess2Rules:
    """The rules object for a match-up (built once: compiling the tables takes a moment)."""
    key = parse_armies(armies)
    r = _CACHE.get(key)
    if r is None:
        r = _CACHE[key] = Chess2Rules(key)
    return r


def make(board_map=None, armies=None, **options) -> Chess2Rules:
    """Chess 2 for ``armies`` (``"classic,animals"``: white's army, then black's; default
    Classic against Classic). Played on the standard 8x8 board only."""
    if options:
        raise VariantError(_("chess2 takes the option armies only, got {options}").format(options=', '.join(options)))
    if board_map not in (None, "standard"):
        raise VariantError(_("Chess 2 is played on the standard 8x8 board, not {board_map!r}").format(
                               board_map=board_map))
    return rules_for(armies if armies is not None else ("classic", "classic"))
