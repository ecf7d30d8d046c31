"""Can a side still checkmate by any series of legal moves? (FIDE 5.2.2, 6.9; docs/tournament.md)

FIDE chess's flag rule: a flag loses, "However, the game is drawn if the position is such that
the opponent cannot checkmate the player's king by any possible series of legal moves" (6.9);
a position where neither side can is dead, drawn at once (5.2.2). The material alone shows
most such positions (``ChessRules._insufficient``); this module finds the others, in two steps:

* :func:`no_check_ever` -- a cheap proof for locked positions (a fortress of blocked Pawns,
  with or without pieces behind it). It assumes the Pawns never move and checks that the
  assumption holds: every Pawn blocked head-on by a Pawn, none able to capture (no enemy Pawn
  on its capture squares, and no enemy piece able ever to step onto them), none that a King or
  a piece could ever take. Each King's and each piece's reachable squares are computed with
  only the Pawns as walls (the other pieces move, so leaving them out only widens the sets).
  If then no piece can ever attack a square its enemy King can reach, nobody is ever in check,
  so nobody is ever mated. A few microseconds of set arithmetic.
* :func:`mate_reachable` -- a bounded search of every position reachable by legal moves of
  both sides (any moves, as a helpmate: both play toward the mate), each position once. A
  checkmate of the other side found: it can win. Every reachable position seen without one: it
  cannot. The bound reached first: unknown, and the caller keeps the flag's loss (the Laws'
  default). It runs only on positions whose Pawns cannot move now and with no Queen or Rook
  (otherwise the reachable positions are far too many to see in time).

A position where ``player``'s material is insufficient is not searched further: a side that
cannot mate by its material never gets more (it has no Pawn left to promote).

Pure: rules and a position in, an answer out; the position is left exactly as it was.
"""

from __future__ import annotations

from typing import Callable

#: positions the search sees before it gives up (unknown): about 50 ms on a desktop, under half
#: a second on a Raspberry Pi (5-10x slower), once, at a flag fall (``companion bench --only
#: dead``).
MAX_POSITIONS = 800

_KING = [(df, dr) for df in (-1, 0, 1) for dr in (-1, 0, 1) if (df, dr) != (0, 0)]
_KNIGHT = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]
_DIAGONAL = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
_STRAIGHT = [(1, 0), (-1, 0), (0, 1), (0, -1)]


def no_check_ever(rules, pos) -> bool:
    """True if it is proven that no King can ever be in check again (so never mated): the
    Pawns are locked for good and no piece can ever attack a square its enemy King can reach.
    False means only "not proven"."""
    width, height = rules.geometry.width, rules.geometry.height
    board = pos.board
    if pos.var("ep") is not None or rules.in_check(pos, pos.turn):
        return False
    pawns: list[set[int]] = [set(), set()]
    kings: list[int | None] = [None, None]
    pieces: list[list[tuple[int, int]]] = [[], []]  # (square, kind) of everything else
    for side in (0, 1):
        for sq in pos.occ[side]:
            kid = board[sq].kid
            if kid == rules.P:
                pawns[side].add(sq)
            elif kid == rules.K:
                kings[side] = sq
            else:
                pieces[side].append((sq, kid))
    if None in kings:
        return False
    walls = pawns[0] | pawns[1]

    def step(sq: int, df: int, dr: int) -> int | None:
        f, r = sq % width + df, sq // width + dr
        return r * width + f if 0 <= f < width and 0 <= r < height else None

    pawn_attacks: list[set[int]] = [set(), set()]
    for side, forward in ((0, 1), (1, -1)):
        for sq in pawns[side]:
            if step(sq, 0, forward) not in walls:  # it could move on once that square empties
                return False
            for df in (-1, 1):
                t = step(sq, df, forward)
                if t is not None:
                    if t in pawns[1 - side]:
                        return False  # it can capture now
                    pawn_attacks[side].add(t)

    def reach(start: int, side: int, pattern, slides: bool) -> tuple[set[int], set[int]] | None:
        """Squares a piece of ``side`` can ever stand on and ever attack, the Pawns as walls;
        None if it could take an enemy Pawn (the Pawns would change)."""
        stand, attack, todo = {start}, set(), [start]
        while todo:
            sq = todo.pop()
            for df, dr in pattern:
                t = step(sq, df, dr)
                while t is not None:
                    attack.add(t)
                    if t in pawns[1 - side]:
                        return None
                    if t in walls:
                        break
                    if t not in stand:
                        stand.add(t)
                        todo.append(t)
                    if not slides:
                        break
                    t = step(t, df, dr)
        return stand, attack

    king_squares = []
    for side in (0, 1):
        # a King never steps onto a square an enemy Pawn attacks (a guarded Pawn's included)
        stand, todo = {kings[side]}, [kings[side]]
        while todo:
            sq = todo.pop()
            for df, dr in _KING:
                t = step(sq, df, dr)
                if t is None or t in stand:
                    continue
                if t in pawns[1 - side] and t not in pawn_attacks[1 - side]:
                    return False  # an unguarded enemy Pawn it could take
                if t not in walls and t not in pawn_attacks[1 - side]:
                    stand.add(t)
                    todo.append(t)
        king_squares.append(stand)
    patterns = {rules.N: (_KNIGHT, False), rules.B: (_DIAGONAL, True), rules.R: (_STRAIGHT, True),
                rules.Q: (_DIAGONAL + _STRAIGHT, True)}
    for side in (0, 1):
        for sq, kid in pieces[side]:
            if kid not in patterns:
                return False
            pattern, slides = patterns[kid]
            found = reach(sq, side, pattern, slides)
            if found is None:
                return False
            stand, attack = found
            if stand & pawn_attacks[1 - side]:
                return False  # a Pawn could take it there, and move
            if attack & king_squares[1 - side]:
                return False  # it could give check
    return True


def mate_reachable(rules, pos, player: int, *, max_positions: int = MAX_POSITIONS,
                   hopeless: Callable[[object], bool] | None = None) -> bool | None:
    """True if some series of legal moves from ``pos`` checkmates ``player``'s opponent; False if
    every position reachable was seen and none is such a mate; None if the bound came first.
    ``hopeless(pos)``: ``player`` can never mate from this position or any after it (pruned)."""
    if hopeless is not None and hopeless(pos):
        return False
    seen = {pos.hash}
    stack = [iter(rules.legal_moves(pos))]
    applied = 0  # moves applied to pos: one for each iterator on the stack after the first
    try:
        while stack:
            move = next(stack[-1], None)
            if move is None:
                stack.pop()
                if applied:
                    rules.undo(pos)
                    applied -= 1
                continue
            rules.apply(pos, move)
            applied += 1
            if pos.hash in seen or (hopeless is not None and hopeless(pos)):
                rules.undo(pos)
                applied -= 1
                continue
            seen.add(pos.hash)
            if len(seen) > max_positions:
                return None
            moves = rules.legal_moves(pos)
            if not moves:
                if pos.turn != player and rules.in_check(pos, pos.turn):
                    return True
                rules.undo(pos)  # stalemate: a dead end
                applied -= 1
                continue
            stack.append(iter(moves))
        return False
    finally:
        for _ in range(applied):
            rules.undo(pos)


def is_closed(rules, pos) -> bool:
    """Worth searching: every Pawn blocked head-on by a Pawn, and no Queen or Rook."""
    board, width = pos.board, rules.geometry.width
    for side, forward in ((0, width), (1, -width)):
        for sq in pos.occ[side]:
            kid = board[sq].kid
            if kid in (rules.Q, rules.R):
                return False
            if kid == rules.P:
                ahead = board[sq + forward]
                if ahead is None or ahead.kid != rules.P:
                    return False
    return True


def can_checkmate(rules, pos, player: int, hopeless: Callable[[object], bool] | None = None) -> bool:
    """Could ``player`` still checkmate by some series of legal moves? No when the material,
    the locked Pawns, or a search that saw every reachable position prove it; yes otherwise
    (also when the search gives up: the flag's loss stands, the Laws' default)."""
    if hopeless is not None and hopeless(pos):
        return False
    if no_check_ever(rules, pos):
        return False
    if is_closed(rules, pos):
        return mate_reachable(rules, pos, player, hopeless=hopeless) is not False
    return True
