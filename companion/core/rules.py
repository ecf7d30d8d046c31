"""The engine every game shares: compiled movement, attack detection, legality, apply/undo.

A game is a :class:`Rules` subclass that supplies its piece kinds (data) and overrides a few
documented hooks where its turn structure differs:

``extra_moves``      moves outside the vocabulary (castling, en passant, a hex, a whirlwind)
``perform``          how a chosen move changes the position (built from Position primitives)
``answer``           how an answer to a pending Decision continues the turn (dice, choices)
``chance_outcomes``  the possible answers to a chance decision with exact probabilities
``outcome``          whether the game is over, who won and why

and, for the physical board (the tracker, companion/board/tracker/): ``expected_occupancy``
(what the board should show now, e.g. during a fight), ``occupancy_after`` (a move made by
hand), ``gestures`` (actions made by lifting pieces and putting them back). A game whose
moves do more than a hand does records them in the position variable ``effects`` and defines
``describe_effects``; the tracker then plays each move to learn what it does (docs/tracker.md).

Everything else (pseudo-legal generation from the vocabulary, "is this square attacked",
legal filtering, apply/undo, hashing, turn order) is written once here.
"""

from __future__ import annotations

from typing import Iterable, Sequence

from ..errors import IllegalMoveError, VariantError
from .compiled import CompiledKind, attack_tables, compile_kind
from .geometry import Geometry
from .moves import Answer, ChanceOutcome, Decision, Move, Outcome
from .pieces import PieceKind
from .position import Position, splitmix64, _MASK
from ..i18n import _


class Rules:
    """Shared engine. Subclasses set ``name`` and call ``super().__init__``."""

    name = "base"
    #: variables that are not part of the position's identity (move counters)
    unhashed_vars: frozenset = frozenset({"halfmove", "fullmove"})

    def __init__(self, geometry: Geometry, kinds: Sequence[PieceKind], homes: Sequence[str]):
        if not 2 <= len(homes) <= 4:
            raise VariantError(_("a game has 2 to 4 players, got {n}").format(n=len(homes)))
        codes = [k.code for k in kinds]
        dup = {c for c in codes if codes.count(c) > 1}
        if dup:
            raise VariantError(_("piece codes must be unique; repeated: {dup}").format(dup=', '.join(sorted(dup))))
        self.geometry = geometry
        self.kinds: list[PieceKind] = list(kinds)
        self.kind_index = {k.code: i for i, k in enumerate(self.kinds)}
        self.homes = tuple(homes)
        self.nplayers = len(homes)
        #: kinds that their own side's slides and lame steps pass through (``passable_by``)
        self.see_through = frozenset(i for i, k in enumerate(self.kinds) if k.passable_by)
        see = self.see_through
        # a kind whose patterns look the same from every seat is compiled once and shared
        self.compiled: list[list[CompiledKind]] = []
        for k in self.kinds:
            if _seat_free(k):
                self.compiled.append([compile_kind(geometry, k, self.homes[0], see)] * self.nplayers)
            else:
                self.compiled.append([compile_kind(geometry, k, home, see) for home in self.homes])
        if all(_seat_free(k) for k in self.kinds):
            self.attack_tables = [attack_tables(geometry, self.kinds, self.homes[0], see)] * self.nplayers
        else:
            self.attack_tables = [attack_tables(geometry, self.kinds, home, see) for home in self.homes]
        #: per attacking kind id, the kind ids it may not capture (``captured_only_by`` and
        #: ``cannot_capture``, by role); None when every kind may capture every other
        self.capture_bans: list[frozenset[int]] | None = _capture_bans(self.kinds)
        #: per victim kind id, the attacking kind ids that may not capture it (``capture_bans`` turned round)
        self.banned_attackers = [frozenset(a for a, b in enumerate(self.capture_bans or ()) if v in b)
                                 for v in range(len(codes))]
        #: per kind id: does it attack along a phasing or piercing ride (AttackTables.phase/pierce)
        special: set[int] = set()
        for tab in {id(t): t for t in self.attack_tables}.values():  # shared tables once
            for entries in tab.phase:
                for _ray, kids, _passes in entries:
                    special |= kids
            for entries in tab.pierce:
                for _ray, kids, _friend in entries:
                    special |= kids
        self.special_kinds: tuple[bool, ...] = tuple(kid in special for kid in range(len(self.kinds)))
        n = geometry.size
        self.zobrist = [
            [[splitmix64((kid * 8 + owner) * 1024 + sq + 1) for sq in range(n)] for owner in range(self.nplayers)]
            for kid in range(len(self.kinds))
        ]
        self.turn_keys = [splitmix64(0xABCDEF + p) & _MASK for p in range(self.nplayers)]

    # ----- construction -----------------------------------------------------------------------
    def new_position(self) -> Position:
        return Position(self, self.geometry, self.nplayers)

    def kind(self, code: str) -> PieceKind:
        try:
            return self.kinds[self.kind_index[code]]
        except KeyError:
            raise VariantError(_("{name}: no piece with code {code!r}").format(name=self.name, code=code)) from None

    # ----- attack detection -------------------------------------------------------------------
    def is_attacked(self, pos: Position, sq: int, by: int) -> bool:
        """Could a piece of player ``by`` capture on ``sq`` (by the movement vocabulary)?"""
        board = pos.board
        banned = _NO_BANS  # the kinds that may not capture the piece on ``sq``
        if self.capture_bans is not None and board[sq] is not None:
            banned = self.banned_attackers[board[sq].kid]
        tab = self.attack_tables[by]
        for s, kids in tab.leap[sq]:
            p = board[s]
            if p is not None and p.owner == by and p.kid in kids and p.kid not in banned:
                return True
        for ray, kids in tab.rays[sq]:
            for s in ray:
                p = board[s]
                if p is not None:
                    if p.owner == by and p.kid in kids and p.kid not in banned:
                        return True
                    break
        hops = tab.hops[sq]
        if hops and not _hop_proof(board[sq]):
            for line, kids in hops:
                screen = False
                for s in line:
                    p = board[s]
                    if p is not None:
                        if screen:
                            if p.owner == by and p.kid in kids and p.kid not in banned:
                                return True
                            break
                        screen = True
        if tab.special and pos.nspecial[by]:
            return bool(_special_attackers(board, tab, sq, by, True, banned))
        return False

    def attackers(self, pos: Position, sq: int, by: int) -> list[int]:
        """Squares of ``by``'s pieces that could capture on ``sq``."""
        found = self._vocabulary_attackers(pos, sq, by)
        bans = self.capture_bans
        board = pos.board
        if bans is not None and board[sq] is not None:
            victim = board[sq].kid
            return [s for s in found if victim not in bans[board[s].kid]]
        return found

    def _vocabulary_attackers(self, pos: Position, sq: int, by: int) -> list[int]:
        board = pos.board
        tab = self.attack_tables[by]
        out = []
        for s, kids in tab.leap[sq]:
            p = board[s]
            if p is not None and p.owner == by and p.kid in kids:
                out.append(s)
        for ray, kids in tab.rays[sq]:
            for s in ray:
                p = board[s]
                if p is not None:
                    if p.owner == by and p.kid in kids:
                        out.append(s)
                    break
        hops = tab.hops[sq]
        if hops and not _hop_proof(board[sq]):
            for line, kids in hops:
                screen = False
                for s in line:
                    p = board[s]
                    if p is not None:
                        if screen:
                            if p.owner == by and p.kid in kids:
                                out.append(s)
                            break
                        screen = True
        if tab.special and pos.nspecial[by]:
            for s in _special_attackers(board, tab, sq, by, False):
                if s not in out:
                    out.append(s)
        return out

    def enemies(self, pos: Position, player: int) -> list[int]:
        out = pos.var("out", ())
        return [p for p in range(pos.nplayers) if p != player and p not in out]

    def in_check(self, pos: Position, player: int | None = None) -> bool:
        player = pos.turn if player is None else player
        foes = self.enemies(pos, player)
        return any(self.is_attacked(pos, k, e) for k in pos.royals[player] for e in foes)

    # ----- move generation --------------------------------------------------------------------
    def pseudo_moves(self, pos: Position, player: int, squares: Iterable[int] | None = None) -> list[Move]:
        """Every move the vocabulary allows ``player``, ignoring royal safety.

        ``squares`` limits generation to the pieces on those squares (a lifted piece); the
        game's ``extra_moves`` are then not added (the caller asks for them if it wants).
        """
        board = pos.board
        out: list[Move] = []
        app = out.append
        compiled = self.compiled
        see = self.see_through
        for sq in (sorted(pos.occ[player]) if squares is None else squares):
            p = board[sq]
            ck = compiled[p.kid][player]
            promo = ck.promo_squares
            start = len(out)
            for t in ck.leaps_both[sq]:
                q = board[t]
                if q is None:
                    app(Move(sq, t))
                elif q.owner != player:
                    app(Move(sq, t, t))
            for t in ck.leaps_move[sq]:
                if board[t] is None:
                    app(Move(sq, t))
            for t in ck.leaps_capture[sq]:
                q = board[t]
                if q is not None and q.owner != player:
                    app(Move(sq, t, t))
            for path, t in ck.lames[sq]:
                if board[t] is None:
                    for s in path:
                        q = board[s]
                        if q is not None and (q.owner != player or q.kid not in see):
                            break
                    else:
                        app(Move(sq, t))
            if ck.simple_rays:
                for ray in ck.rays_both[sq]:
                    for t in ray:
                        q = board[t]
                        if q is None:
                            app(Move(sq, t))
                        else:
                            if q.owner != player:
                                app(Move(sq, t, t))
                            break
                for ray in ck.rays_move[sq]:
                    for t in ray:
                        if board[t] is not None:
                            break
                        app(Move(sq, t))
            else:
                nostop = ck.nostop
                for ray in ck.rays_both[sq]:
                    for t in ray:
                        q = board[t]
                        if q is None:
                            if t not in nostop:
                                app(Move(sq, t))
                        else:
                            if q.owner != player and t not in nostop:
                                app(Move(sq, t, t))
                            break
                for ray in ck.rays_move[sq]:
                    for t in ray:
                        if board[t] is not None:
                            break
                        if t not in nostop:
                            app(Move(sq, t))
            for ray in ck.rays_capture[sq]:
                for t in ray:
                    q = board[t]
                    if q is not None:
                        if q.owner != player and t not in ck.nostop:
                            app(Move(sq, t, t))
                        break
            for line in ck.hops[sq]:
                screen = False
                for t in line:
                    q = board[t]
                    if q is not None:
                        if screen:
                            if q.owner != player and "hop" not in q.kind.immune:
                                app(Move(sq, t, t))
                            break
                        screen = True
            if ck.special:
                _special_ray_moves(board, ck, sq, player, app)
            if ck.may_repeat:
                out[start:] = dict.fromkeys(out[start:])
            if promo:
                self._expand_promotions(out, start, promo, p.kind.promotes_to)
        if self.capture_bans is not None:
            bans = self.capture_bans
            out = [m for m in out if m.capture is None or board[m.capture].kid not in bans[board[m.frm].kid]]
        if squares is None:
            self.extra_moves(pos, player, out)
        return out

    @staticmethod
    def _expand_promotions(out: list[Move], start: int, promo: frozenset, codes: tuple) -> None:
        i = start
        while i < len(out):
            m = out[i]
            if m.to in promo:
                out[i:i + 1] = [Move(m.frm, m.to, m.capture, c, m.special) for c in codes]
                i += len(codes)
            else:
                i += 1

    def moves_from(self, pos: Position, sq: int) -> list[Move]:
        """Legal moves of the piece on ``sq`` (for lighting a lifted piece)."""
        return [m for m in self.legal_moves(pos) if m.frm == sq]

    def legal_moves(self, pos: Position) -> list[Move]:
        """Legal moves for the side to move; empty while a decision is pending or game over."""
        if pos.pending is not None:
            return []
        player = pos.turn
        pseudo = self.pseudo_moves(pos, player)
        return [m for m in pseudo if self.is_legal(pos, m)]

    def noisy_moves(self, pos: Position) -> list[Move]:
        """The legal captures, promotions and moves that win at once (``wins_at_once``) of the
        capture search: ``legal_moves`` filtered, or the same list faster (core/noisy.py)."""
        wins = getattr(self, "wins_at_once", None)
        return [m for m in self.legal_moves(pos) if m.capture is not None or m.promotion or (wins and wins(pos, m))]

    def has_legal_move(self, pos: Position) -> bool:
        """``bool(legal_moves(pos))``, which a game may answer sooner."""
        return bool(self.legal_moves(pos))

    def is_legal(self, pos: Position, move: Move) -> bool:
        """Default legality: after the move, none of the mover's royals is attacked."""
        player = pos.turn
        pos.begin()
        try:
            self.perform(pos, move)
            ok = not any(
                self.is_attacked(pos, k, e) for k in pos.royals[player] for e in self.enemies(pos, player)
            )
        finally:
            pos.undo_frame()
        return ok

    # ----- hooks --------------------------------------------------------------------------------
    def extra_moves(self, pos: Position, player: int, out: list[Move]) -> None:
        """Add moves outside the movement vocabulary (castling, en passant, ...)."""

    def perform(self, pos: Position, move: Move) -> None:
        """Change the position for ``move`` using the primitives; default: capture, move,
        promote, pass the turn."""
        if move.capture is not None:
            pos.take(move.capture)
        piece = pos.move_piece(move.frm, move.to)
        if move.promotion:
            pos.take(move.to)
            new = pos.new_piece(move.promotion, piece.owner, piece.state)
            new.uid = piece.uid
            pos.put(move.to, new)
        self.end_turn(pos)

    def answer(self, pos: Position, answer: Answer) -> None:
        """Continue a turn stopped on a Decision."""
        raise IllegalMoveError(_("{name}: nothing is waiting for an answer").format(name=self.name))

    def answers(self, pos: Position) -> list[Answer]:
        """The possible answers to a pending choice (not chance) decision."""
        return []

    def chance_outcomes(self, pos: Position) -> list[ChanceOutcome]:
        """For a pending chance decision: every answer with its exact probability."""
        return []

    def perft_answers(self, pos: Position) -> list[Answer]:
        """The answers perft branches into for a pending decision that is not a ply of its own:
        every chance outcome, or every choice. A game whose decisions are not moves (Chess 2's
        duels: "a duel is not a ply") may narrow it to one."""
        if pos.pending.chance:
            return [o.answer for o in self.chance_outcomes(pos)]
        return self.answers(pos)

    def outcome(self, pos: Position, claim_draw: bool = True) -> Outcome | None:
        return None

    def can_win(self, pos: Position, player: int) -> bool:
        """Could ``player`` still win by some series of legal moves? (FIDE Laws 6.9 and 7.5.5:
        a flag, or a second illegal move, against a side whose opponent cannot win is a draw.)
        The default says yes; a game whose winning material can run out says when it has."""
        return True

    def draw_clock(self, pos: Position) -> tuple[int, int] | None:
        """Plies played since the last progress (a capture, a pawn move: what the game counts)
        and the count at which the game is drawn for want of it; None: the game has no such rule.
        The computer uses it to press for progress before the rule ends a won game."""
        return None

    def next_player(self, pos: Position) -> int:
        out = pos.var("out", ())
        p = pos.turn
        for _ in range(pos.nplayers):
            p = (p + 1) % pos.nplayers
            if p not in out:
                return p
        return pos.turn

    def end_turn(self, pos: Position) -> None:
        pos.set_turn(self.next_player(pos))

    # ----- apply / undo (the only entry points that change a position) ------------------------
    def apply(self, pos: Position, action: Move | Answer) -> None:
        """Apply a move or an answer without checking legality (search, replay)."""
        pos.begin()
        try:
            pos.record_history()
            if isinstance(action, Answer):
                self.answer(pos, action)
            else:
                self.perform(pos, action)
        except BaseException:
            pos.undo_frame()
            raise

    def resign(self, pos: Position, player: int) -> None:
        """``player`` leaves a game of three or more players (resigns) as one undo step: out of
        the turn order, their pieces off the board while two or more players stay in (as when
        a King falls), the turn passed on if it was theirs. The effect is
        ``("resigned", player, squares)``. (With two players a resignation ends the game: the
        session's result, no position change.)"""
        pos.begin()
        try:
            pos.record_history()
            out = tuple(sorted(set(pos.var("out", ())) | {player}))
            pos.set_var("out", out)
            squares: tuple[int, ...] = ()
            if pos.nplayers - len(out) > 1:
                squares = tuple(sorted(pos.occ[player]))
                for sq in squares:
                    pos.take(sq)
            pos.set_var("effects", (("resigned", player, squares),))
            if pos.turn == player:
                self.end_turn(pos)
        except BaseException:
            pos.undo_frame()
            raise

    def undo(self, pos: Position) -> None:
        if not pos.depth:
            raise IllegalMoveError(_("nothing to undo"))
        pos.undo_frame()

    def play(self, pos: Position, action: Move | Answer) -> None:
        """Apply after checking that ``action`` is legal now; raises IllegalMoveError."""
        if self.outcome(pos) is not None:
            raise IllegalMoveError(_("the game is over"))
        if isinstance(action, Answer):
            if pos.pending is None:
                raise IllegalMoveError(_("no decision is pending"))
            self.validate_answer(pos, action)
        elif pos.pending is not None:
            raise IllegalMoveError(_("a decision is pending ({kind}); answer it first").format(kind=pos.pending.kind))
        elif action not in self.legal_moves(pos):
            raise IllegalMoveError(_("{move_text} is not a legal move here").format(
                                       move_text=self.move_text(pos, action)))
        self.apply(pos, action)

    def validate_answer(self, pos: Position, answer: Answer) -> None:
        options = self.answers(pos)
        if options and answer not in options:
            raise IllegalMoveError(_("{value!r} is not one of the choices").format(value=answer.value))

    # ----- names --------------------------------------------------------------------------------
    def move_text(self, pos: Position, move: Move) -> str:
        g = self.geometry
        s = g.name_of(move.frm) + g.name_of(move.to)
        if move.promotion:
            s += move.promotion.lower()
        return s

    def answer_text(self, answer: Answer) -> str:
        """How an answer is written in logs and move lists (games may say it better)."""
        return str(answer.value)

    def parse_move(self, pos: Position, text: str) -> Move:
        """A move in coordinate notation (``e2e4``, ``e7e8q``, ``j10j12``) that is legal now."""
        t = text.strip()
        for m in self.legal_moves(pos):
            if self.move_text(pos, m) == t:
                return m
        raise IllegalMoveError(_("{text!r} is not a legal move in this position").format(text=text))

    def expected_occupancy(self, pos: Position) -> frozenset[int]:
        """Squares that should hold a piece on the physical board right now."""
        return pos.occupied()

    def occupancy_after(self, pos: Position, move: Move) -> frozenset[int]:
        """Occupied squares right after ``move`` is made physically (before any fight)."""
        occ = set(pos.occupied())
        occ.discard(move.frm)
        if move.capture is not None:
            occ.discard(move.capture)
        occ.add(move.to)
        return frozenset(occ)

    def gestures(self, pos: Position) -> list[tuple[Move | Answer, frozenset[int]]]:
        """Actions a player may make on the physical board by lifting pieces and putting each
        back on its own square: ``(action, squares)``, the action a legal move or an answer to
        the pending choice (e.g. an optional extra turn skipped by lifting and replacing one
        of the pieces that could take it). What the action then changes on the board is
        guided afterwards. Default: none."""
        return []


# ----- the rarer movement options, kept out of the class (and the hot loops) -----------------------
def _hop_proof(target) -> bool:
    return target is not None and "hop" in target.kind.immune


_NO_BANS: frozenset = frozenset()


def _special_attackers(board, tab, sq: int, by: int, first: bool, banned: frozenset = _NO_BANS) -> list[int]:
    """Attackers of ``sq`` along phasing and piercing rides (see AttackTables), but those of the
    ``banned`` kinds (which may not capture the piece there)."""
    out = []
    for ray, kids, passes in tab.phase[sq]:
        for s in ray:
            p = board[s]
            if p is not None:
                if p.owner != by:
                    break
                if p.kid in kids:
                    if p.kid in banned:
                        break
                    out.append(s)
                    if first:
                        return out
                    break
                if passes is not None and p.kid not in passes:
                    break
    for ray, kids, friend_only in tab.pierce[sq]:
        screen = False
        for s in ray:
            p = board[s]
            if p is None:
                continue
            if p.owner == by and p.kid in kids and p.kid not in banned:
                out.append(s)
                if first:
                    return out
            if screen or (friend_only and p.owner != by):
                break
            screen = True
    return out


def _special_ray_moves(board, ck: CompiledKind, sq: int, player: int, app) -> None:
    """Moves along phasing and piercing rides (the rarer options, kept out of the hot loop)."""
    nostop = ck.nostop
    for can_move, can_capture, ray, passes in ck.phase_rays[sq]:
        for t in ray:
            q = board[t]
            if q is None:
                if can_move and t not in nostop:
                    app(Move(sq, t))
            elif q.owner != player:
                if can_capture and t not in nostop:
                    app(Move(sq, t, t))
                break
            elif passes is not None and q.kid not in passes:
                break
    for friend_only, ray in ck.pierce_rays[sq]:
        screen = False
        for t in ray:
            q = board[t]
            if q is None:
                continue
            if q.owner != player and t not in nostop:
                app(Move(sq, t, t))
            if screen or (friend_only and q.owner != player):
                break
            screen = True


def _capture_bans(kinds: Sequence[PieceKind]) -> list[frozenset[int]] | None:
    """Per attacking kind, the kinds it may not capture (``captured_only_by`` of the victim,
    ``cannot_capture`` of the attacker, both by role); None when nothing is banned."""
    bans = []
    for attacker in kinds:
        banned = set()
        for vid, victim in enumerate(kinds):
            if victim.captured_only_by is not None and attacker.role not in victim.captured_only_by:
                banned.add(vid)
            if victim.role and victim.role in attacker.cannot_capture:
                banned.add(vid)
        bans.append(frozenset(banned))
    return bans if any(bans) else None


def _seat_free(kind: PieceKind) -> bool:
    """True when the kind moves the same whichever edge its owner sits at: every pattern has
    full symmetry, none is limited to a rank, and it does not promote."""
    return not kind.promotes_to and all(p.symmetry == "all" and p.from_rank < 0 for _, p in kind.all_patterns())


def goal_lines(rules, width: int, height: int) -> tuple[int, ...]:
    """Where a game's goal zones begin (``rules.goal_zone``: Chess 2's midline, crossed to win):
    the ranks whose lower edge is such a border, drawn as a line across the board (the
    touchscreen's board and the spectator page both draw them)."""
    zone_of = getattr(rules, "goal_zone", None)
    if zone_of is None or rules.geometry.size != width * height:
        return ()
    lines = set()
    for player in range(rules.nplayers):
        rows = {sq // width for sq in zone_of(player)}
        if rows and len(rows) < height:
            lines.add(max(rows) + 1 if 0 in rows else min(rows))
    return tuple(sorted(r for r in lines if 0 < r < height))


def iter_perft(rules: Rules, pos: Position, depth: int) -> int:
    """Leaf count to ``depth`` (bulk counting at the last ply, as python-chess's own).

    A move that stops for a decision (a fight's dice, a duel bid) branches into the answers
    ``rules.perft_answers`` gives within the same ply: a chance decision into its outcomes, a
    choice into its options. A decision marked ``("ply", True)`` (Chess 2's king-turn) is a ply
    of its own: its answers are counted like moves.
    """
    pend = pos.pending
    if pend is not None:
        if pend.get("ply"):
            return _perft_level(rules, pos, rules.answers(pos), depth)
        n = 0
        for a in rules.perft_answers(pos):
            rules.apply(pos, a)
            n += iter_perft(rules, pos, depth)
            rules.undo(pos)
        return n
    if depth == 0:
        return 1
    return _perft_level(rules, pos, rules.legal_moves(pos), depth)


def _perft_level(rules: Rules, pos: Position, actions, depth: int) -> int:
    if depth <= 1:
        return len(actions) if depth == 1 else 1
    n = 0
    for m in actions:
        rules.apply(pos, m)
        n += iter_perft(rules, pos, depth - 1)
        rules.undo(pos)
    return n


def perft_actions(rules: Rules, pos: Position) -> list:
    """What perft counts as the plies from ``pos``: the legal moves, or the answers to a
    pending decision that is a ply of its own (a king-turn)."""
    pend = pos.pending
    if pend is not None and pend.get("ply"):
        return rules.answers(pos)
    return rules.legal_moves(pos)


def perft_divide(rules: Rules, pos: Position, depth: int) -> list[tuple[Move | Answer, int]]:
    """The count below each first action; sums to ``iter_perft(rules, pos, depth)``. A pending
    decision that is not a ply is divided by its answers at the same depth."""
    out = []
    pend = pos.pending
    same_ply = pend is not None and not pend.get("ply")
    for m in (rules.perft_answers(pos) if same_ply else perft_actions(rules, pos)):
        rules.apply(pos, m)
        if same_ply:
            out.append((m, iter_perft(rules, pos, depth)))
        else:
            out.append((m, iter_perft(rules, pos, depth - 1) if depth > 1 else 1))
        rules.undo(pos)
    return out


def first_answer(options: Iterable[Answer]) -> Answer | None:
    for a in options:
        return a
    return None


# ----- answering a pending choice -----------------------------------------------------------------
def waiting_decision(pos: Position, answer: Answer, kind: str, refusal: str) -> Decision:
    """The pending decision of ``kind`` that ``answer`` answers; IllegalMoveError(``refusal``)
    when none is waiting or ``answer`` is for another kind."""
    d = pos.pending
    if d is None or d.kind != kind or answer.decision != kind:
        raise IllegalMoveError(refusal)
    return d


def take_choice(pos: Position, answer: Answer, kind: str, default, *, refusal: str,
                not_an_option: str) -> tuple[Decision, object, list]:
    """Answer the pending choice of ``kind`` that carries its ``options`` and the turn's
    ``effects`` so far (KoL Chess's back-row trade, Dungeon Chess's hit-and-run step): checks
    its kind (IllegalMoveError(``refusal``)), checks the value is ``default`` (the choice not to
    act: ``keep``, ``stay``) or one of the options (IllegalMoveError(``not_an_option``, formatted
    with ``value`` and ``options``)), clears it, and returns ``(decision, value, effects)``, the
    effects as a list for the game to add to. The game then does what the value says."""
    d = waiting_decision(pos, answer, kind, refusal)
    value = answer.value
    options = d.get("options")
    if value != default and value not in options:
        raise IllegalMoveError(not_an_option.format(value=value, options=", ".join(map(str, options))))
    effects = list(d.get("effects"))
    pos.set_var("pending", None)
    return d, value, effects
