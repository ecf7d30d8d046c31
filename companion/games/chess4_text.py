"""Four-player chess as text: the position, the moves as chess.com writes them, the turn in words.

**Position** (the extended format of companion/core/notation.py): the 14 rows from the top,
pieces as ``(<player><code>)`` (``(1K)`` Red's King, ``(3D)`` a Yellow 1-point Queen; a dead
piece is simply one of a player who is out), the player to move (1-4), then the variables that
are not empty::

    castling=["d1","k1",...]   rooks whose castling is still possible (their King unmoved)
    ep=[null,["e3","e4"],null,null]   per player: the square its pawn passed and where it stands
    points=[12,0,5,3]          free-for-all points
    out=[1]                    players out (0-based, as Dungeon Chess writes them)
    resigned=[1]               players out by resignation whose King is still live
    halfmove=7                 plies since the last capture or pawn move
    ended="out"                the game is over, and how (chess4.ENDINGS; teams: winners=[0,2])

**Moves** for the move list: chess.com's PGN4 style (``h2-h4``, ``Nj1-i3``, ``Bf1xk6``, ``h7-h8=D``,
``O-O``). A game of four has no PGN: the journal and the game's text (companion/gametext.py) keep
it (docs/rules/chess4.md, "Records").
"""

from __future__ import annotations

from ..core.moves import Move
from ..core.notation import format_position, parse_position
from ..core.position import Position
from ..errors import PositionError
from ..i18n import _

VARIABLES = {"castling": list, "ep": list, "points": list, "out": list, "resigned": list, "halfmove": int,
             "ended": str, "winners": list}
COLOURS = ("Red", "Blue", "Yellow", "Green")


def colour(rules, player: int) -> str:
    seats = rules.board_map.seats
    return seats[player].colour.title() if player < len(seats) else f"Player {player + 1}"


def format_chess4(rules, pos: Position) -> str:
    name = rules.geometry.name_of
    keep: dict = {}
    if pos.var("castling"):
        keep["castling"] = [name(s) for s in sorted(pos.var("castling"))]
    if pos.var("ep"):
        keep["ep"] = [None if e is None else [name(e[0]), name(e[1])] for e in pos.var("ep")]
    for key in ("points", "out", "resigned", "ended", "winners"):
        if pos.var(key) is not None:
            keep[key] = pos.var(key)
    if pos.var("halfmove"):
        keep["halfmove"] = pos.var("halfmove")
    return format_position(pos, keep)


def parse_chess4(rules, value: str) -> Position:
    pos = parse_position(rules, value, VARIABLES)
    geo = rules.geometry

    def square(text, what: str) -> int:
        if not isinstance(text, str):
            raise PositionError(_("{what}: expected a square name like \"d1\", got {text!r}").format(
                                    what=what, text=text))
        try:
            return geo.parse_square(text)
        except ValueError as e:
            raise PositionError(f"{what}: {e}") from None

    def players(key: str) -> tuple[int, ...]:
        items = pos.var(key, ())
        if not all(isinstance(p, int) and not isinstance(p, bool) and 0 <= p < 4 for p in items) \
                or len(set(items)) != len(items):
            raise PositionError(_("{key}={items}: expected distinct player indexes 0..3 (0 is Red)").format(
                                    key=key, items=list(items)))
        return tuple(sorted(items))

    out = players("out")
    resigned = players("resigned")
    pos.set_var("out", out or None)
    pos.set_var("resigned", resigned or None)
    if not set(resigned) <= set(out):
        raise PositionError(_("resigned={resigned}: a player who resigned is out too (out={out})").format(
                                resigned=list(resigned), out=list(out)))
    castling = tuple(sorted(square(s, "castling") for s in pos.var("castling", ())))
    for r in castling:
        owner = next((p for p in range(4) if r in rules.castles[p]), None)
        if owner is None:
            raise PositionError(_("castling: {square} is no rook's starting square").format(square=geo.name_of(r)))
        king = rules.castles[owner][r][0]
        rook, k = pos.board[r], pos.board[king]
        if not (rook and rook.owner == owner and rook.kid == rules.R and k and k.owner == owner and k.kid == rules.K):
            raise PositionError(_("castling with {square} needs that player's rook there and King on {square2}").format(
                                    square=geo.name_of(r), square2=geo.name_of(king)))
    pos.set_var("castling", castling or None)
    eps = pos.var("ep")
    if eps is not None:
        if len(eps) != 4:
            raise PositionError(_("ep: expected 4 entries, one per player (null or [passed square, pawn square])"))
        entries = []
        for i, e in enumerate(eps):
            if e is None:
                entries.append(None)
                continue
            if not isinstance(e, (list, tuple)) or len(e) != 2:
                raise PositionError(_("ep entry {i}: expected null or [passed square, pawn square]").format(i=i + 1))
            entries.append((square(e[0], "ep"), square(e[1], "ep")))
        pos.set_var("ep", tuple(entries) if any(entries) else None)
    points = pos.var("points")
    if rules.teams:
        if points is not None:
            raise PositionError(_("points: teams are not played for points"))
    else:
        points = points if points is not None else (0, 0, 0, 0)
        if len(points) != 4 or not all(isinstance(n, int) and not isinstance(n, bool) and 0 <= n <= 10 ** 6
                                       for n in points):
            raise PositionError(_("points={points}: expected 4 whole numbers, e.g. points=[12,0,5,3]").format(
                                    points=list(points)))
        pos.set_var("points", tuple(points))
    ended = pos.var("ended")
    if ended is not None and ended not in rules.endings:
        raise PositionError(_("ended={ended!r}: expected one of {endings}").format(
                                ended=ended, endings=', '.join(rules.endings)))
    winners = pos.var("winners")
    if winners is not None:
        pos.set_var("winners", tuple(winners))
    if pos.var("halfmove", 0) < 0:
        raise PositionError(_("halfmove: expected 0 or more plies"))
    for p in range(4):
        kings = len(pos.royals[p])
        if p not in out and kings != 1 and not getattr(rules, "king_may_have_fallen", False):
            raise PositionError(_("{colour} is in the game and must have exactly one King, found {kings}").format(
                                    colour=_(COLOURS[p]), kings=kings))
        if p in resigned and kings != 1:
            raise PositionError(_("{colour} resigned: its live King must be on the board").format(colour=_(COLOURS[p])))
    if pos.turn in out and pos.var("ended") is None:
        raise PositionError(_("{colour} is out and cannot be the one to move").format(colour=_(COLOURS[pos.turn])))
    return pos


def san(rules, pos: Position, move: Move) -> str:
    """chess.com's PGN4 style: ``h2-h4``, ``Nj1-i3``, ``Bf1xk6``, ``h7-h8=D``, ``O-O``."""
    g = rules.geometry
    if move.special == "castle":
        rook_from, _ = rules._castle_rook(move)
        return "O-O" if len(rules.castles[pos.board[move.frm].owner][rook_from][3]) == 2 else "O-O-O"
    piece = pos.board[move.frm]
    letter = "" if piece.kid == rules.P else piece.kind.code
    sep = "x" if move.capture is not None else "-"
    text = f"{letter}{g.name_of(move.frm)}{sep}{g.name_of(move.to)}"
    if move.promotion:
        text += "=" + move.promotion
    return text


def describe_turn(rules, pos: Position) -> list[str]:
    """The last turn's events besides the moved piece, in words."""
    out = []
    n = rules.geometry.name_of
    for e in pos.var("effects", ()) or ():
        kind = e[0]
        if kind == "captured":
            out.append(f"{colour(rules, e[3])}'s {e[2]} on {n(e[1])} is captured.")
        elif kind == "points":
            out.append(f"{colour(rules, e[1])} scores {e[2]} ({e[3]}).")
        elif kind in ("checkmated", "stalemated", "king_lost", "resigned"):
            words = {"checkmated": "is checkmated", "stalemated": "is stalemated",
                     "king_lost": "lost its King in a fight", "resigned": "resigns"}[kind]
            tail = "" if kind == "resigned" and rules.teams else \
                " Its pieces stay on the board as grey walls: they attack nothing and are taken for no points."
            out.append(f"{colour(rules, e[1])} {words}.{tail}")
    return out
