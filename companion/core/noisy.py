"""The capture search's moves without the quiet ones (docs/ai.md, "How it searches").

A capture search plays only captures, promotions and moves that win at once. Generating every
move and checking the legality of each, to keep a few, is most of a capture-search node in
Dungeon Chess and KoL Chess. :func:`noisy_pseudo_moves` walks the same compiled tables as
``Rules.pseudo_moves`` but emits only the moves that capture or promote, in the order
``pseudo_moves`` gives them: a game's ``noisy_moves`` then checks the legality of those alone.
Each game's ``noisy_moves`` is compared with its filtered ``legal_moves`` on random positions
(tests/test_noisy_moves.py).
"""

from __future__ import annotations

from .moves import Move
from .rules import Rules, _special_ray_moves


def is_noisy(move) -> bool:
    """A move the capture search plays whatever the game: a capture or a promotion."""
    return move.capture is not None or bool(move.promotion)


def noisy_pseudo_moves(rules, pos, player: int, squares=None) -> list[Move]:
    """The moves of ``Rules.pseudo_moves(pos, player, squares)`` (the movement vocabulary) that
    capture or promote, in the same order; the game's ``extra_moves`` are never added (the
    caller adds the noisy ones it has)."""
    board = pos.board
    out: list[Move] = []
    app = out.append
    compiled = rules.compiled
    see = rules.see_through
    for sq in (sorted(pos.occ[player]) if squares is None else squares):
        p = board[sq]
        ck = compiled[p.kid][player]
        promo = ck.promo_squares
        start = len(out)
        for t in ck.leaps_both[sq]:
            q = board[t]
            if q is None:
                if promo and t in promo:
                    app(Move(sq, t))
            elif q.owner != player:
                app(Move(sq, t, t))
        if promo:
            for t in ck.leaps_move[sq]:
                if board[t] is None and t in promo:
                    app(Move(sq, t))
        for t in ck.leaps_capture[sq]:
            q = board[t]
            if q is not None and q.owner != player:
                app(Move(sq, t, t))
        if promo:
            for path, t in ck.lames[sq]:
                if board[t] is None and t in promo:
                    for s in path:
                        q = board[s]
                        if q is not None and (q.owner != player or q.kid not in see):
                            break
                    else:
                        app(Move(sq, t))
        nostop = ck.nostop
        for ray in ck.rays_both[sq]:
            for t in ray:
                q = board[t]
                if q is None:
                    if promo and t in promo and t not in nostop:
                        app(Move(sq, t))
                else:
                    if q.owner != player and t not in nostop:
                        app(Move(sq, t, t))
                    break
        if promo:
            for ray in ck.rays_move[sq]:
                for t in ray:
                    if board[t] is not None:
                        break
                    if t in promo and t not in nostop:
                        app(Move(sq, t))
        for ray in ck.rays_capture[sq]:
            for t in ray:
                q = board[t]
                if q is not None:
                    if q.owner != player and t not in nostop:
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
            more: list[Move] = []
            _special_ray_moves(board, ck, sq, player, more.append)
            out += [m for m in more if m.capture is not None or m.to in promo]
        if ck.may_repeat:
            out[start:] = dict.fromkeys(out[start:])
        if promo:
            Rules._expand_promotions(out, start, promo, p.kind.promotes_to)
    bans = rules.capture_bans
    if bans is not None:
        out = [m for m in out if m.capture is None or board[m.capture].kid not in bans[board[m.frm].kid]]
    return out


def filter_noisy(rules, pos, moves) -> list:
    """The moves of ``moves`` the capture search plays: captures, promotions and, in a game
    that has ``wins_at_once`` (Chess 2's Midline Invasion), moves that win at once."""
    wins = getattr(rules, "wins_at_once", None)
    if wins is None:
        return [m for m in moves if m.capture is not None or m.promotion]
    return [m for m in moves if m.capture is not None or m.promotion or wins(pos, m)]
