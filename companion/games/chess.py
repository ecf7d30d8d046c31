"""FIDE chess (``chess``): castling, en passant, promotion, check, checkmate, stalemate,
fifty/seventy-five-move rules, three/fivefold repetition, insufficient material, FEN and SAN.

Pieces and their movement are data (maps/variants/chess.toml); this module adds only what
the vocabulary does not express. Combat Chess builds on it (companion/games/combat.py).

Legality uses the classic fast path (pins and checkers computed once per position) because
every FIDE piece is a plain leaper or rider; moves it cannot judge that way (en passant) fall
back to the engine's generic apply-and-test.
"""

from __future__ import annotations

from ..bounds import whole_number
from ..core.geometry import Geometry
from ..core.moves import Move, Outcome
from ..core.position import Position
from ..core.roster import load_roster
from ..core.noisy import noisy_pseudo_moves
from ..core.rules import Rules
from ..errors import PositionError
from ..i18n import N_, _, ngettext

START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
#: The largest FEN move counter read (the longest possible chess game has under 6,000 moves).
MAX_MOVE_COUNTER = 1_000_000
WHITE, BLACK = 0, 1
#: castling: right letter -> (king from, king to, rook from, rook to, squares that must be empty,
#: squares the king stands on or crosses, which must not be attacked); Chess 2's Classic army too
CASTLES = {
    "K": (4, 6, 7, 5, (5, 6), (4, 5, 6)),
    "Q": (4, 2, 0, 3, (1, 2, 3), (4, 3, 2)),
    "k": (60, 62, 63, 61, (61, 62), (60, 61, 62)),
    "q": (60, 58, 56, 59, (57, 58, 59), (60, 59, 58)),
}
#: squares whose change of occupant loses castling rights
RIGHTS_LOST = {4: "KQ", 0: "Q", 7: "K", 60: "kq", 56: "q", 63: "k"}


class ChessRules(Rules):
    name = "chess"
    title = "FIDE chess"
    #: FEN check: in FIDE chess the side not to move can never be in check
    opponent_may_be_in_check = False
    #: FEN check: a finished game may have lost its King (Combat Chess)
    king_may_have_fallen = False

    def __init__(self, geometry: Geometry | None = None, roster: str = "chess"):
        geometry = geometry or Geometry(8, 8, name="standard")
        if (geometry.width, geometry.height) != (8, 8):
            raise PositionError(_("FIDE chess is played on 8x8, not {width}x{height}").format(
                                    width=geometry.width, height=geometry.height))
        self.roster = load_roster(roster)
        super().__init__(geometry, self.roster.kinds, ("south", "north"))
        self.P, self.N, self.B, self.R, self.Q, self.K = (self.kind_index[c] for c in "PNBRQK")
        self.castles = CASTLES
        self.rights_lost = RIGHTS_LOST

    # ----- position text ------------------------------------------------------------------------
    def position_from_fen(self, fen: str) -> Position:
        return parse_fen(self, fen)

    def fen(self, pos: Position) -> str:
        return format_fen(self, pos)

    def start_position(self) -> Position:
        return parse_fen(self, START_FEN)

    def position_from_text(self, text: str) -> Position:
        """FEN (the format for this game)."""
        return parse_fen(self, text)

    def position_text(self, pos: Position) -> str:
        return format_fen(self, pos)

    # ----- move generation ------------------------------------------------------------------------
    def extra_moves(self, pos: Position, player: int, out: list[Move]) -> None:
        en_passant_moves(pos, player, frozenset({self.P}), out)
        castling_moves(self, pos, player, out)

    def legal_moves(self, pos: Position) -> list[Move]:
        if pos.pending is not None:
            return []
        player = pos.turn
        if len(pos.royals[player]) != 1:
            return super().legal_moves(pos)
        return self._legal(pos, self.pseudo_moves(pos, player))

    def noisy_moves(self, pos: Position) -> list[Move]:
        """The legal captures and promotions (companion/core/noisy.py): the vocabulary's and en
        passant (castling is neither), through the same pin and check filter as every move."""
        if pos.pending is not None:
            return []
        player = pos.turn
        if len(pos.royals[player]) != 1:
            return super().noisy_moves(pos)
        pseudo = noisy_pseudo_moves(self, pos, player)
        en_passant_moves(pos, player, frozenset({self.P}), pseudo)
        return self._legal(pos, pseudo)

    def has_legal_move(self, pos: Position) -> bool:
        """Not in check: the first piece other than the King with a pseudo-legal move along
        its pin (if pinned) answers; otherwise every move is generated."""
        player = pos.turn
        kings = pos.royals[player]
        if pos.pending is None and len(kings) == 1:
            (ksq,) = kings
            if not self.attackers(pos, ksq, 1 - player):
                pins, _block = self._pins(pos, player, ksq, ())
                for sq in sorted(pos.occ[player]):
                    if sq == ksq:
                        continue
                    pin = pins.get(sq)
                    for m in Rules.pseudo_moves(self, pos, player, (sq,)):
                        if pin is None or m.to in pin:
                            return True
        return bool(self.legal_moves(pos))

    def _pins(self, pos: Position, player: int, ksq: int, checkers) -> tuple[dict, frozenset | None]:
        """Own pieces pinned to the King (square -> the line they may move along) and, in a
        single check, the squares that block it or take the checker."""
        board = pos.board
        tab = self.attack_tables[1 - player]
        # pins: an own piece alone between our king and an enemy rider that attacks along the line
        pins: dict[int, frozenset] = {}
        block: frozenset | None = None
        for ray, kids in tab.rays[ksq]:
            own = -1
            for i, s in enumerate(ray):
                p = board[s]
                if p is None:
                    continue
                if p.owner == player:
                    if own >= 0:
                        break
                    own = s
                    continue
                if p.kid in kids:
                    if own >= 0:
                        pins[own] = frozenset(ray[: i + 1])
                    elif checkers and len(checkers) == 1:
                        block = frozenset(ray[: i + 1])
                break
        if len(checkers) == 1 and block is None:
            block = frozenset(checkers)
        return pins, block

    def _legal(self, pos: Position, pseudo: list[Move]) -> list[Move]:
        """The legal moves of ``pseudo`` (the side to move has one King): pins and checkers
        computed once, en passant played out."""
        player = pos.turn
        enemy = 1 - player
        board = pos.board
        (ksq,) = pos.royals[player]
        checkers = self.attackers(pos, ksq, enemy)
        pins, block = self._pins(pos, player, ksq, checkers)
        out = []
        double = len(checkers) > 1
        for m in pseudo:
            frm = m.frm
            if frm == ksq:
                if m.special == "castle":
                    if not checkers:
                        out.append(m)
                    continue
                king = board[ksq]
                board[ksq] = None
                attacked = self.is_attacked(pos, m.to, enemy)
                board[ksq] = king
                if not attacked:
                    out.append(m)
                continue
            if double:
                continue
            if m.special == "ep":
                if self.is_legal(pos, m):
                    out.append(m)
                continue
            if block is not None and m.to not in block:
                continue
            pin = pins.get(frm)
            if pin is not None and m.to not in pin:
                continue
            out.append(m)
        return out

    # ----- making moves -----------------------------------------------------------------------------
    def perform(self, pos: Position, move: Move) -> None:
        board = pos.board
        piece = board[move.frm]
        player = piece.owner
        halfmove = pos.var("halfmove", 0) + 1
        if move.special == "castle":
            right = next(r for r, c in self.castles.items() if c[0] == move.frm and c[1] == move.to)
            kf, kt, rf, rt, _, _ = self.castles[right]
            pos.move_piece(kf, kt)
            pos.move_piece(rf, rt)
        else:
            if move.capture is not None:
                pos.take(move.capture)
                halfmove = 0
            pos.move_piece(move.frm, move.to)
            if move.promotion:
                self.promote(pos, move.to, move.promotion)
            if piece.kid == self.P:
                halfmove = 0
        self.close_turn(pos, player, (move.frm, move.to), halfmove)
        if piece.kid == self.P and abs(move.to - move.frm) == 16:
            self._set_ep_if_capturable(pos, (move.to + move.frm) // 2)

    def close_turn(self, pos: Position, player: int, touched, halfmove: int) -> None:
        """Bookkeeping after any turn: castling rights lost by touching king or rook squares,
        the move counters, the en passant square cleared, the turn passed."""
        rights = pos.var("castling", "")
        if rights:
            for sq in touched:
                lost = self.rights_lost.get(sq)
                if lost:
                    rights = "".join(c for c in rights if c not in lost)
            pos.set_var("castling", rights or None)
        pos.set_var("halfmove", halfmove)
        if player == BLACK:
            pos.set_var("fullmove", pos.var("fullmove", 1) + 1)
        pos.set_var("ep", None)
        self.end_turn(pos)

    def fight_turn_over(self, pos: Position, player: int, touched, removed: bool, effects) -> None:
        """Dice fights (companion/games/fights.py): a fight the attacker did not win (or a won
        King's Prerogative) ends the turn here: castling rights of the squares ``touched``, the
        fifty-move count reset when a piece left the board (docs/rules/combat.md)."""
        self.close_turn(pos, player, touched, 0 if removed else pos.var("halfmove", 0) + 1)

    def occupancy_after(self, pos: Position, move: Move) -> frozenset[int]:
        """Castling moves the rook too; everything else as the engine's default."""
        occ = super().occupancy_after(pos, move)
        if move.special == "castle":
            _, _, rf, rt, _, _ = next(c for c in self.castles.values() if c[0] == move.frm and c[1] == move.to)
            occ = (occ - {rf}) | {rt}
        return occ

    def promote(self, pos: Position, sq: int, code: str) -> None:
        promote(pos, sq, code)

    def _set_ep_if_capturable(self, pos: Position, ep: int) -> None:
        """Record the en passant square only when a legal en passant capture exists (as FEN and
        the repetition rules count it)."""
        pos.set_var("ep", ep)
        candidates: list[Move] = []
        self.extra_moves(pos, pos.turn, candidates)
        if not any(m.special == "ep" and self.is_legal(pos, m) for m in candidates):
            pos.set_var("ep", None)

    # ----- the end ------------------------------------------------------------------------------------
    def outcome(self, pos: Position, claim_draw: bool = True) -> Outcome | None:
        if pos.pending is not None:
            return None
        player = pos.turn
        if not self.legal_moves(pos):
            if self.in_check(pos, player):
                return Outcome(frozenset({1 - player}), "checkmate")
            return Outcome(frozenset(), "stalemate")
        if self.insufficient_material(pos):
            return Outcome(frozenset(), "insufficient material")
        halfmove = pos.var("halfmove", 0)
        if halfmove >= 150:
            return Outcome(frozenset(), "seventy-five-move rule")
        reps = self.repetitions(pos)
        if reps >= 5:
            return Outcome(frozenset(), "fivefold repetition")
        if claim_draw:
            if halfmove >= 100:
                return Outcome(frozenset(), "fifty-move rule")
            if reps >= 3:
                return Outcome(frozenset(), "threefold repetition")
        return None

    def draw_clock(self, pos: Position) -> tuple[int, int] | None:
        """The fifty-move rule (claimed at once, as ``outcome`` does by default)."""
        return pos.var("halfmove", 0), 100

    def repetitions(self, pos: Position) -> int:
        """How often the current position has occurred (this time included)."""
        h = pos.hash
        return 1 + sum(1 for x in pos.history if x == h)

    def insufficient_material(self, pos: Position) -> bool:
        return all(self._insufficient(pos, c) for c in (WHITE, BLACK))

    def can_win(self, pos: Position, player: int) -> bool:
        """Can ``player`` still checkmate by some series of legal moves (FIDE 6.9)? Not with
        insufficient material (a lone King, a King and one Knight against nothing but Queens,
        Bishops all on squares of one colour with no Pawn or Knight on the board), nor in a
        position companion.games.dead_position proves dead: locked Pawns no piece can get past,
        or a closed position whose every reachable position a bounded search has seen
        (docs/tournament.md)."""
        from .dead_position import can_checkmate

        return can_checkmate(self, pos, player, hopeless=lambda p: self._insufficient(p, player))

    def _insufficient(self, pos: Position, color: int) -> bool:
        board = pos.board
        mine = [board[s].kid for s in pos.occ[color]]
        if any(k in (self.P, self.R, self.Q) for k in mine):
            return False
        if self.N in mine:
            others = [board[s].kid for s in pos.occ[1 - color]]
            return len(mine) <= 2 and all(k in (self.K, self.Q) for k in others)
        if self.B in mine:
            bishops = [s for s in range(64) if board[s] is not None and board[s].kid == self.B]
            colours = {(s % 8 + s // 8) % 2 for s in bishops}
            anyone = [board[s].kid for s in range(64) if board[s] is not None]
            return len(colours) == 1 and self.P not in anyone and self.N not in anyone
        return True

    # ----- notation ---------------------------------------------------------------------------------------
    def move_text(self, pos: Position, move: Move) -> str:
        n = self.geometry.name_of
        return n(move.frm) + n(move.to) + (move.promotion.lower() if move.promotion else "")

    def san(self, pos: Position, move: Move) -> str:
        """Standard algebraic notation, with + and # (the move must be legal in ``pos``)."""
        n = self.geometry.name_of
        piece = pos.board[move.frm]
        if move.special == "castle":
            text = "O-O" if move.to % 8 == 6 else "O-O-O"
        elif piece.kid == self.P:
            text = (n(move.frm)[0] + "x" if move.capture is not None else "") + n(move.to)
            if move.promotion:
                text += "=" + move.promotion
        else:
            text = piece.kind.code
            rivals = [m for m in self.legal_moves(pos) if m.to == move.to and m.frm != move.frm
                      and pos.board[m.frm].kid == piece.kid]
            if rivals:
                same_file = any(m.frm % 8 == move.frm % 8 for m in rivals)
                same_rank = any(m.frm // 8 == move.frm // 8 for m in rivals)
                if not same_file:
                    text += n(move.frm)[0]
                elif not same_rank:
                    text += n(move.frm)[1:]
                else:
                    text += n(move.frm)
            if move.capture is not None:
                text += "x"
            text += n(move.to)
        self.apply(pos, move)
        try:
            if pos.pending is None and self.in_check(pos):
                text += "#" if not self.legal_moves(pos) else "+"
        finally:
            self.undo(pos)
        return text


# --------------------------------------------------------------------------------------------------
# FEN

_FEN_HELP = N_("expected '<8 ranks> <w|b> <castling|-> <en passant|-> [halfmove fullmove]'")


def parse_fen(rules: ChessRules, fen: str) -> Position:
    """Parse and validate a FEN; raises PositionError saying what is wrong."""
    parts = fen.split()
    if len(parts) not in (4, 6):
        raise PositionError(ngettext("FEN has {n} field; {help}", "FEN has {n} fields; {help}", len(parts)).format(
            n=len(parts), help=_(_FEN_HELP)))
    placement, side, castling, ep = parts[:4]
    pos = rules.new_position()

    def code_of(owner: int, ch: str, rank: int) -> str:
        code = ch.upper()
        if code not in "PNBRQK":
            raise PositionError(_("FEN rank {rank}: {ch!r} is not a piece letter (PNBRQK, lower case for black)").format(
                                    rank=rank + 1, ch=ch))
        if code == "P" and rank in (0, 7):
            raise PositionError(_("FEN: a pawn on rank {rank} is impossible").format(rank=rank + 1))
        return code

    read_placement(pos, placement, code_of)
    kings = [len(pos.royals[c]) for c in (WHITE, BLACK)]
    fallen_ok = rules.king_may_have_fallen and sorted(kings) == [0, 1]
    for color, name in ((WHITE, "white"), (BLACK, "black")):
        if kings[color] != 1 and not fallen_ok:
            raise PositionError(_("FEN: {name} must have exactly one king, found {n}").format(name=_(name),
                                                                                          n=kings[color]))
    if side not in ("w", "b"):
        raise PositionError(_("FEN side to move is {side!r}; expected 'w' or 'b'").format(side=side))
    pos.set_turn(WHITE if side == "w" else BLACK)
    if castling != "-":
        if any(c not in "KQkq" for c in castling) or len(set(castling)) != len(castling):
            raise PositionError(_("FEN castling field {castling!r}: expected '-' or letters from KQkq").format(
                                    castling=castling))
        for r in castling:
            kf, rf = rules.castles[r][0], rules.castles[r][2]
            owner = WHITE if r.isupper() else BLACK
            k, rk = pos.board[kf], pos.board[rf]
            if not (k and k.owner == owner and k.kid == rules.K and rk and rk.owner == owner and rk.kid == rules.R):
                who = _("white") if owner == WHITE else _("black")
                raise PositionError(_("FEN castling right {right} needs the {who} king on {king} and a {who} rook on "
                                      "{rook}").format(right=repr(r), who=who, king=rules.geometry.name_of(kf),
                                                       rook=rules.geometry.name_of(rf)))
        pos.set_var("castling", "".join(c for c in "KQkq" if c in castling))
    halfmove, fullmove = read_counters(parts)
    pos.set_var("halfmove", halfmove)
    pos.set_var("fullmove", fullmove)
    if rules.in_check(pos, 1 - pos.turn) and not rules.opponent_may_be_in_check:
        raise PositionError(_("FEN: the side not to move is in check, which is impossible"))
    if ep != "-":
        try:
            sq = rules.geometry.parse_square(ep)
        except ValueError as e:
            raise PositionError(_("FEN en passant field: {e}").format(e=e)) from None
        want_rank = 5 if pos.turn == WHITE else 2
        if sq // 8 != want_rank:
            raise PositionError(_("FEN en passant square {ep} is impossible with {side} to move (expected rank "
                                  "{want_rank})").format(ep=ep, side=side, want_rank=want_rank + 1))
        pawn_sq = sq - 8 if pos.turn == WHITE else sq + 8
        p = pos.board[pawn_sq]
        if p is None or p.kid != rules.P or p.owner == pos.turn or pos.board[sq] is not None:
            raise PositionError(_("FEN en passant square {ep}: no pawn just passed it").format(ep=ep))
        rules._set_ep_if_capturable(pos, sq)
    return pos


def read_placement(pos: Position, placement: str, code_of) -> None:
    """Put the pieces of a FEN placement field on ``pos`` (8x8): ``code_of(owner, letter, rank)``
    gives each piece's kind code or raises PositionError (Chess 2 reads letters through each
    side's army)."""
    ranks = placement.split("/")
    if len(ranks) != 8:
        raise PositionError(ngettext("FEN board has {n} rank separated by '/', expected 8",
                                     "FEN board has {n} ranks separated by '/', expected 8", len(ranks)).format(
            n=len(ranks)))
    for i, row in enumerate(ranks):
        rank = 7 - i
        f = 0
        for ch in row:
            if ch in "0123456789":
                if ch == "0":
                    raise PositionError(_("FEN rank {rank}: '0' is not a valid empty-square count").format(
                                            rank=rank + 1))
                f += int(ch)
            else:
                owner = WHITE if ch.isupper() else BLACK
                code = code_of(owner, ch, rank)
                if f >= 8:
                    raise PositionError(_("FEN rank {rank} has more than 8 squares").format(rank=rank + 1))
                pos.put(rank * 8 + f, pos.new_piece(code, owner))
                f += 1
            if f > 8:
                raise PositionError(_("FEN rank {rank} has more than 8 squares").format(rank=rank + 1))
        if f != 8:
            raise PositionError(ngettext("FEN rank {rank} has {n} square, expected 8",
                                         "FEN rank {rank} has {n} squares, expected 8", f).format(rank=rank + 1, n=f))


def read_counters(parts: list[str]) -> tuple[int, int]:
    """The halfmove clock and move number of a 6-field FEN (0 and 1 for a 4-field one)."""
    if len(parts) != 6:
        return 0, 1
    halfmove = whole_number(parts[4], _("FEN move counters: the halfmove count"), PositionError, 0, MAX_MOVE_COUNTER)
    fullmove = whole_number(parts[5], _("FEN move counters: the move number"), PositionError, 1, MAX_MOVE_COUNTER)
    return halfmove, fullmove


def promote(pos: Position, sq: int, code: str) -> None:
    """The piece on ``sq`` becomes a ``code`` (the same piece: its uid and state, e.g. its fatigue,
    go along)."""
    old = pos.take(sq)
    new = pos.new_piece(code, old.owner, old.state)
    new.uid = old.uid
    pos.put(sq, new)


def en_passant_moves(pos: Position, player: int, pawns: frozenset, out: list[Move]) -> None:
    """En passant captures onto ``pos.var("ep")`` by ``player``'s pawns (kinds ``pawns``)."""
    ep = pos.var("ep")
    if ep is None:
        return
    board = pos.board
    back = ep - 8 if player == WHITE else ep + 8
    if board[back] is None:  # the pawn that passed is gone (Chess 2: a Whirlwind in the king-turn)
        return
    f = ep % 8
    for df in (-1, 1):
        if 0 <= f + df < 8:
            s = back + df
            p = board[s]
            if p is not None and p.owner == player and p.kid in pawns:
                out.append(Move(s, ep, back, None, "ep"))


def castling_moves(rules, pos: Position, player: int, out: list[Move]) -> None:
    """``player``'s castlings allowed by ``pos.var("castling")``: the squares between empty,
    the King's path not attacked (CASTLES)."""
    rights = pos.var("castling", "")
    if not rights:
        return
    board = pos.board
    enemy = 1 - player
    for r in (("K", "Q") if player == WHITE else ("k", "q")):
        if r not in rights:
            continue
        kf, kt, rf, rt, empty, safe = CASTLES[r]
        if any(board[s] is not None for s in empty):
            continue
        if any(rules.is_attacked(pos, s, enemy) for s in safe):
            continue
        out.append(Move(kf, kt, None, None, "castle"))


def placement_text(pos: Position, letter) -> str:
    """The FEN placement field of an 8x8 position; ``letter(piece)`` is the piece's letter,
    upper case for white."""
    rows = []
    for rank in range(7, -1, -1):
        row, empty = "", 0
        for f in range(8):
            p = pos.board[rank * 8 + f]
            if p is None:
                empty += 1
                continue
            if empty:
                row += str(empty)
                empty = 0
            row += letter(p)
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows)


def format_fen(rules: ChessRules, pos: Position) -> str:
    ep = pos.var("ep")
    return " ".join([
        placement_text(pos, lambda p: p.kind.code if p.owner == WHITE else p.kind.code.lower()),
        "w" if pos.turn == WHITE else "b",
        pos.var("castling") or "-",
        rules.geometry.name_of(ep) if ep is not None else "-",
        str(pos.var("halfmove", 0)),
        str(pos.var("fullmove", 1)),
    ])


def make(board_map=None, **options) -> ChessRules:
    """FIDE chess is played on the standard 8x8 map only."""
    if options:
        raise PositionError(_("chess takes no options, got {options}").format(options=', '.join(options)))
    if board_map not in (None, "standard"):
        from ..maps import load_map

        geometry = load_map(board_map).geometry
        return ChessRules(geometry)
    return ChessRules()
