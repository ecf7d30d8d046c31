"""An independent four-player chess move generator, for cross-checking the engine's counts.

Written from chess.com's rules (docs/rules/chess4.md) with none of the engine's code: a dict of
(file, rank) -> (player, letter), each army's forward direction written out, attacks found by
walking from the attacker. It knows free-for-all play only as far as perft needs: moves,
captures (no King of a player in the game), double steps, en passant (one chance per player),
castling, promotion on the 8th rank to the 1-point Queen ``D``, legality (one's own King not
attacked by any player in the game), and a player whose turn comes without a legal move
(checkmate or stalemate) leaving the game, its pieces left where they stand.
"""

from __future__ import annotations

SIZE = 14
FORWARD = {0: (0, 1), 1: (1, 0), 2: (0, -1), 3: (-1, 0)}
KNIGHT = [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)]
KING = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]
ROOK_DIRS = KING[:4]
BISHOP_DIRS = KING[4:]


def on_board(x: int, y: int) -> bool:
    if not (0 <= x < SIZE and 0 <= y < SIZE):
        return False
    return not ((x < 3 or x > 10) and (y < 3 or y > 10))


def rank_of(player: int, x: int, y: int) -> int:
    """0-based rank counted from the player's own edge."""
    return (y, x, SIZE - 1 - y, SIZE - 1 - x)[player]


class Ref:
    """A position: ``board`` (x, y) -> (player, letter), ``turn``, ``castling`` (set of rook
    squares), ``ep`` (player -> (passed square, pawn square)), ``out`` (players out)."""

    def __init__(self, board, turn=0, castling=(), ep=None, out=()):
        self.board = dict(board)
        self.turn = turn
        self.castling = set(castling)
        self.ep = dict(ep or {})
        self.out = set(out)

    def copy(self):
        return Ref(self.board, self.turn, self.castling, self.ep, self.out)

    # ----- attacks ----------------------------------------------------------------------------
    def attacked(self, sq, by: int) -> bool:
        x, y = sq
        for dx, dy in KNIGHT:
            if self.board.get((x + dx, y + dy)) == (by, "N"):
                return True
        for dx, dy in KING:
            if self.board.get((x + dx, y + dy)) == (by, "K"):
                return True
        fx, fy = FORWARD[by]
        # a pawn of ``by`` attacks the two squares diagonally forward of it: it stands one step
        # back from ``sq`` and one to either side
        for side in (-1, 1):
            pawn = (x + side, y - fy) if fx == 0 else (x - fx, y + side)
            if self.board.get(pawn) == (by, "P"):
                return True
        for dirs, letters in ((ROOK_DIRS, "RQD"), (BISHOP_DIRS, "BQD")):
            for dx, dy in dirs:
                cx, cy = x + dx, y + dy
                while on_board(cx, cy):
                    piece = self.board.get((cx, cy))
                    if piece is not None:
                        if piece[0] == by and piece[1] in letters:
                            return True
                        break
                    cx, cy = cx + dx, cy + dy
        return False

    def king_safe(self, player: int) -> bool:
        king = next(s for s, p in self.board.items() if p == (player, "K"))
        return not any(self.attacked(king, e) for e in range(4) if e != player and e not in self.out)

    # ----- moves ------------------------------------------------------------------------------
    def pseudo(self):
        me = self.turn
        out = []
        for (x, y), (owner, letter) in list(self.board.items()):
            if owner != me:
                continue
            if letter == "P":
                self._pawn(x, y, out)
            elif letter == "N":
                for dx, dy in KNIGHT:
                    self._step((x, y), (x + dx, y + dy), out)
            elif letter == "K":
                for dx, dy in KING:
                    self._step((x, y), (x + dx, y + dy), out)
                self._castles((x, y), out)
            else:
                dirs = {"R": ROOK_DIRS, "B": BISHOP_DIRS}.get(letter, KING)
                for dx, dy in dirs:
                    cx, cy = x + dx, y + dy
                    while on_board(cx, cy):
                        self._step((x, y), (cx, cy), out)
                        if (cx, cy) in self.board:
                            break
                        cx, cy = cx + dx, cy + dy
        return out

    def _capturable(self, sq) -> bool:
        piece = self.board.get(sq)
        if piece is None or piece[0] == self.turn:
            return False
        return not (piece[1] == "K" and piece[0] not in self.out)

    def _step(self, frm, to, out):
        if not on_board(*to):
            return
        if to not in self.board:
            out.append((frm, to, None, None))
        elif self._capturable(to):
            out.append((frm, to, to, None))

    def _pawn(self, x, y, out):
        me = self.turn
        fx, fy = FORWARD[me]
        one = (x + fx, y + fy)
        if on_board(*one) and one not in self.board:
            self._promote((x, y), one, None, out)
            two = (x + 2 * fx, y + 2 * fy)
            if rank_of(me, x, y) == 1 and on_board(*two) and two not in self.board:
                out.append(((x, y), two, None, None))
        for side in (-1, 1):
            to = (x + side, y + fy) if fx == 0 else (x + fx, y + side)
            if not on_board(*to):
                continue
            if self._capturable(to):
                self._promote((x, y), to, to, out)
            for owner, (passed, pawn) in self.ep.items():
                if owner != me and passed == to and to not in self.board and self.board.get(pawn) == (owner, "P"):
                    self._promote((x, y), to, pawn, out)

    def _promote(self, frm, to, capture, out):
        out.append((frm, to, capture, "D" if rank_of(self.turn, *to) == 7 else None))

    def _castles(self, king, out):
        me = self.turn
        foes = [e for e in range(4) if e != me and e not in self.out]
        for rook in self.castling:
            if self.board.get(rook) != (me, "R"):
                continue
            dx = (rook[0] > king[0]) - (rook[0] < king[0])
            dy = (rook[1] > king[1]) - (rook[1] < king[1])
            between, s = [], (king[0] + dx, king[1] + dy)
            while s != rook:
                between.append(s)
                s = (s[0] + dx, s[1] + dy)
            if any(b in self.board for b in between):
                continue
            path = [king, between[0], between[1]]
            if any(self.attacked(p, e) for p in path for e in foes):
                continue
            out.append((king, between[1], None, ("castle", rook, between[0])))

    def play(self, move):
        """The position after ``move``, with the players whose turn then comes without a legal
        move (checkmate, stalemate) put out one after another."""
        nxt = self._make(move)
        while len(nxt.out) < 3 and not nxt.legal():
            nxt.out.add(nxt.turn)
            nxt.ep.pop(nxt.turn, None)
            while nxt.turn in nxt.out:
                nxt.turn = (nxt.turn + 1) % 4
        return nxt

    def _make(self, move):
        frm, to, capture, extra = move
        me = self.turn
        nxt = self.copy()
        piece = nxt.board.pop(frm)
        nxt.ep.pop(me, None)
        if isinstance(extra, tuple):  # castling: the rook to the square the King crossed
            _, rook, rook_to = extra
            nxt.board.pop(rook)
            nxt.board[rook_to] = (me, "R")
        if capture is not None:
            nxt.board.pop(capture, None)
        nxt.board[to] = (me, extra) if extra in ("D",) else piece
        if piece[1] == "P" and abs(to[0] - frm[0]) + abs(to[1] - frm[1]) == 2 and capture is None \
                and (to[0] == frm[0] or to[1] == frm[1]):
            nxt.ep[me] = (((frm[0] + to[0]) // 2, (frm[1] + to[1]) // 2), to)
        for sq in (frm, to, capture):
            nxt.castling.discard(sq)
        if piece[1] == "K":
            nxt.castling = {r for r in nxt.castling if nxt.board.get(r, (None,))[0] != me}
        nxt.turn = (me + 1) % 4
        while nxt.turn in nxt.out:
            nxt.ep.pop(nxt.turn, None)
            nxt.turn = (nxt.turn + 1) % 4
        return nxt

    def legal(self):
        return [m for m in self.pseudo() if self._make(m).king_safe(self.turn)]


def perft(ref: Ref, depth: int) -> int:
    if len(ref.out) >= 3:
        return 0 if depth else 1
    moves = ref.legal()
    if depth == 1:
        return len(moves)
    return sum(perft(ref.play(m), depth - 1) for m in moves)


def from_engine(rules, pos) -> Ref:
    """The engine's position as a reference position (its squares, turn and rights)."""
    g = rules.geometry
    board = {(g.file_of(s), g.rank_of(s)): (p.owner, p.kind.code) for s, p in pos.pieces()}
    sq = lambda s: (g.file_of(s), g.rank_of(s))  # noqa: E731
    ep = {i: (sq(e[0]), sq(e[1])) for i, e in enumerate(pos.var("ep") or ()) if e is not None}
    return Ref(board, pos.turn, [sq(r) for r in pos.var("castling", ())], ep, pos.var("out", ()))
