"""A position as a picture: what a spectator sees of a board, made from the game's data.

:class:`BoardPicture` is a plain immutable value built from any game's rules and position
(:func:`picture_of`): the board's size, each square's terrain, the pieces (kind, code, owner,
a badge for a unit's state), each player's colour, the squares a game colours (KoL Chess's
white, green, black, red and blue squares: ``rules.square_colours()``, as the touchscreen draws
them), the ranks where a goal zone begins (Chess 2's midline: ``rules.goal_zone``, the lines
the touchscreen draws), the last move, a King in check, the squares of a fight or duel that waits for its result, the pieces of players who are out but stay on the board (four-player chess's dead armies, drawn grey). Nothing in it is per game: a game on a 20x20
map with four seats and a chess game are drawn by the same code (companion.broadcast.svg), a
piece whose kind has a chess glyph is drawn as the glyph, any other as a disc with its code; a
game on a map of seats is drawn with discs unless every piece of it is a chess piece (four-player
chess: the glyphs in the seats' colours), as the touchscreen draws it.

A hall receives pictures from boards over the network, so :meth:`BoardPicture.from_json`
checks every field and bound (sizes, codes, colours, squares) and raises BroadcastError for
anything else: what the hall draws is always a picture this module could have made.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..colours import piece_colours, seat_colour
from ..core.geometry import FLOOR, MAX_SIZE, MIN_SIZE, VOID, WATER
from ..core.rules import goal_lines
from ..errors import BroadcastError
from ..i18n import _

#: Terrain of a square in a picture's ``terrain`` text: floor, water, void.
TERRAIN_CHARS = {FLOOR: ".", WATER: "~", VOID: "#"}
#: A square's colour in a picture's ``tints`` text (a game that colours its squares: the words
#: of companion.colours.SQUARE_COLOURS); ``-`` a plain light or dark square.
TINT_CHARS = {"white": "w", "black": "k", "green": "g", "red": "r", "blue": "b"}
TINT_WORDS = {c: w for w, c in TINT_CHARS.items()}
#: Kinds drawn as a chess glyph (filled glyphs, coloured by owner; the same as the screen's).
GLYPHS = {"king": "\u265a", "queen": "\u265b", "rook": "\u265c", "bishop": "\u265d", "knight": "\u265e",
          "pawn": "\u265f"}
MAX_PLAYERS = 8
_CODE = re.compile(r"[A-Z]{1,3}")
_BADGE = re.compile(r"[A-Za-z0-9]{0,4}")
_KIND = re.compile(r"[a-z][a-z0-9 _-]{0,31}")
_COLOUR = re.compile(r"#[0-9a-f]{6}")
#: Two-player games without map seats: white and black, as on the touchscreen.
DEFAULT_COLOURS = ("#ffffff", "#000000")


@dataclass(frozen=True)
class PiecePicture:
    square: int
    kind: str
    code: str
    owner: int
    badge: str = ""

    @property
    def glyph(self) -> str | None:
        return GLYPHS.get(self.kind)


@dataclass(frozen=True)
class BoardPicture:
    """The board as drawn: ``terrain`` holds one character per square (``.`` floor, ``~``
    water, ``#`` void), index ``rank * width + file`` with a1 first."""

    width: int
    height: int
    terrain: str
    pieces: tuple[PiecePicture, ...]
    colours: tuple[str, ...] = DEFAULT_COLOURS
    last_move: tuple[int, int] | None = None
    check: tuple[int, ...] = ()
    fight: tuple[int, ...] = ()  # the squares of a fight or duel (a decision about a move) now
    turn: int = 0
    units: bool = False  # named units on a map of seats: every piece a disc with its code
    tints: str = ""  # one TINT_CHARS character per square (as ``terrain``), "" when the game has none
    lines: tuple[int, ...] = ()  # ranks with a goal's border below them (Chess 2's midline: 4)
    dead: tuple[int, ...] = ()  # squares of pieces whose player is out (a dead army: grey)

    def tint(self, square: int) -> str | None:
        """The colour word of ``square`` (white, green, ...), None for a plain square."""
        return TINT_WORDS.get(self.tints[square]) if self.tints else None

    @property
    def size(self) -> int:
        return self.width * self.height

    def piece_at(self, square: int) -> PiecePicture | None:
        return next((p for p in self.pieces if p.square == square), None)

    def to_json(self) -> dict[str, Any]:
        return {
            "width": self.width, "height": self.height, "terrain": self.terrain,
            "pieces": [[p.square, p.kind, p.code, p.owner, p.badge] for p in self.pieces],
            "colours": list(self.colours),
            "last_move": list(self.last_move) if self.last_move is not None else None,
            "check": list(self.check), "fight": list(self.fight), "turn": self.turn, "units": self.units,
            "tints": self.tints, "lines": list(self.lines), "dead": list(self.dead),
        }

    @classmethod
    def from_json(cls, value: Any) -> BoardPicture:
        """A picture received from a board; BroadcastError names the first field that is wrong."""
        if not isinstance(value, dict):
            raise BroadcastError(_("board picture: expected an object"))
        width, height = _int(value, "width", MIN_SIZE, MAX_SIZE), _int(value, "height", MIN_SIZE, MAX_SIZE)
        size = width * height
        terrain = value.get("terrain")
        if not isinstance(terrain, str) or len(terrain) != size or set(terrain) - set(TERRAIN_CHARS.values()):
            raise BroadcastError(_("board picture: 'terrain' must be {size} characters of . ~ #").format(size=size))
        colours = value.get("colours")
        if (not isinstance(colours, list) or not 1 <= len(colours) <= MAX_PLAYERS
                or not all(isinstance(c, str) and _COLOUR.fullmatch(c) for c in colours)):
            raise BroadcastError(_("board picture: 'colours' must be 1 to 8 colours like #1a2b3c"))
        raw = value.get("pieces")
        if not isinstance(raw, list) or len(raw) > size:
            raise BroadcastError(_("board picture: 'pieces' must be a list, at most one per square"))
        pieces, seen = [], set()
        for item in raw:
            if not (isinstance(item, list) and len(item) == 5):
                raise BroadcastError(_("board picture: a piece is [square, kind, code, owner, badge]"))
            sq, kind, code, owner, badge = item
            if not _is_int(sq, 0, size - 1) or sq in seen:
                raise BroadcastError(_("board picture: piece square {sq!r} is off the board or taken twice").format(
                    sq=sq))
            if not (isinstance(kind, str) and _KIND.fullmatch(kind) and isinstance(code, str) and _CODE.fullmatch(code)
                    and _is_int(owner, -1, len(colours) - 1) and isinstance(badge, str) and _BADGE.fullmatch(badge)):
                raise BroadcastError(_("board picture: the piece on square {sq} is not a kind, code, owner and badge").format(
                    sq=sq))
            seen.add(sq)
            pieces.append(PiecePicture(sq, kind, code, owner, badge))
        last = value.get("last_move")
        if last is not None and not (isinstance(last, list) and len(last) == 2
                                     and all(_is_int(s, 0, size - 1) for s in last)):
            raise BroadcastError(_("board picture: 'last_move' must be two squares or null"))
        check, fight = _squares(value, "check", size), _squares(value, "fight", size)
        turn = _int(value, "turn", 0, len(colours) - 1)
        units = value.get("units", False)
        if not isinstance(units, bool):
            raise BroadcastError(_("board picture: 'units' must be true or false"))
        tints = value.get("tints", "")
        if not isinstance(tints, str) or (tints and (len(tints) != size or set(tints) - set(TINT_WORDS) - {"-"})):
            raise BroadcastError(_("board picture: 'tints' must be empty or {size} characters of {tints} -").format(
                size=size, tints=' '.join(sorted(TINT_WORDS))))
        lines = value.get("lines", [])
        if (not isinstance(lines, list) or len(lines) > height
                or not all(_is_int(r, 1, height - 1) for r in lines) or len(set(lines)) != len(lines)):
            raise BroadcastError(_("board picture: 'lines' must be a list of different ranks from 1 to {most}").format(
                most=height - 1))
        dead = _squares(value, "dead", size) if "dead" in value else ()  # a board of before issue 32 has none
        if set(dead) - seen:
            raise BroadcastError(_("board picture: 'dead' must name squares with pieces"))
        return cls(width, height, terrain, tuple(pieces), tuple(colours), tuple(last) if last else None, check, fight,
                   turn, units, tints, tuple(sorted(lines)), tuple(sorted(set(dead))))


def picture_of(session) -> BoardPicture:
    """The picture of a session's game now (the session of a Table, or a bare one). While a
    fight waits for its dice, the attacker stands on the square it moved to, as on the board."""
    rules, pos = session.rules, session.pos
    g = rules.geometry
    terrain = "".join(TERRAIN_CHARS.get(t, ".") for t in g.terrain)
    board = {sq: p for sq, p in pos.pieces()}
    fight: tuple[int, ...] = ()
    pending = pos.pending
    move = pending.get("move") if pending is not None else None
    if move is not None and hasattr(move, "to"):
        # a decision about a move (a fight's dice, a duel's bids): its squares are marked
        if pending.kind == "fight" and move.frm in board:
            board[move.to] = board.pop(move.frm)
            if move.capture is not None and move.capture != move.to:
                board.pop(move.capture, None)
        marked = {move.to, *(pending.get("defenders") or ())}
        fight = tuple(sorted(s for s in marked if isinstance(s, int) and 0 <= s < g.size))
    seats = getattr(getattr(rules, "board_map", None), "seats", None)
    units = bool(seats) and not all(_glyph_kind(k) for k in rules.kinds)  # unit discs, as on the touchscreen
    pieces = tuple(PiecePicture(sq, _drawn_kind(p.kind, units), p.kind.code, p.owner, _badge(p.state))
                   for sq, p in sorted(board.items()))
    check = ()
    if session.result is None and pending is None and rules.in_check(pos):
        check = tuple(sorted(pos.royals[pos.turn]))
    last = session.last_move()
    return BoardPicture(g.width, g.height, terrain, pieces, player_colours(rules), last, check, fight,
                        pos.turn if 0 <= pos.turn < rules.nplayers else 0, units, square_tints(rules),
                        goal_lines(rules, g.width, g.height), dead_squares(pos, board))


def dead_squares(pos, board: dict) -> tuple[int, ...]:
    """Squares of ``board`` whose pieces belong to players who are out (four-player chess's dead
    armies), but a resigned player's King, which is still live."""
    out = set(pos.var("out", ()) or ())
    live_kings = set(pos.var("resigned", ()) or ())
    return tuple(sorted(sq for sq, p in board.items()
                        if p.owner in out and not (p.owner in live_kings and p.kind.royal)))


#: A piece's one-letter code -> the kind of the standard set it is shown as (``shown_as``).
_SHOWN_AS = {"K": "king", "Q": "queen", "R": "rook", "B": "bishop", "N": "knight", "P": "pawn"}


def _glyph_kind(kind) -> str:
    """The kind of the standard set a piece is drawn as ("" for none): its name, its ``role``
    (Chess 2's Elephant is a rook), or what it is shown as (four-player chess's 1-point Queen)."""
    name = kind.name.lower()
    if name in GLYPHS:
        return name
    role = getattr(kind, "role", "")
    if role in GLYPHS:
        return role
    return _SHOWN_AS.get(getattr(kind, "shown_as", ""), "")


def _drawn_kind(kind, units: bool) -> str:
    """A piece's kind as the picture draws it: its name; on a board drawn with chess glyphs a
    piece of another name that a piece of the standard set stands for (Chess 2's Elephant is a
    rook, its ``role``; a 1-point Queen is a queen) is drawn as that piece, as the touchscreen
    draws it and the table shows it."""
    name = kind.name.lower()
    return (_glyph_kind(kind) or name) if not units else name


def square_tints(rules) -> str:
    """The squares' colours of a game that colours them (``rules.square_colours()``, the hook
    the touchscreen's board reads too) as TINT_CHARS, else ""."""
    colours = rules.square_colours() if hasattr(rules, "square_colours") else ()
    return "".join(TINT_CHARS.get(c, "-") for c in colours)


def player_colours(rules) -> tuple[str, ...]:
    """Each player's colour: the map seat's colour word (Dungeon Chess), else white and black."""
    seats = getattr(getattr(rules, "board_map", None), "seats", None)
    if not seats:
        return DEFAULT_COLOURS[:max(2, rules.nplayers)] if rules.nplayers <= 2 else \
            tuple(_hex(piece_colours(i)[0]) for i in range(rules.nplayers))
    return tuple(_hex(seat_colour(seat.colour)) for seat in seats)


def _hex(colour) -> str:
    return "#" + "".join(f"{max(0, min(255, round(c * 255))):02x}" for c in colour[:3])


def _badge(state) -> str:
    """A unit's state in a few letters, as on the touchscreen: ``H2`` hexed, ``W`` wounded,
    a number for fatigue (Combat Chess)."""
    if not state:
        return ""
    if state.get("hex"):
        return f"H{int(state['hex'])}"[:4]
    if state.get("wounded"):
        return "W"
    fatigue = state.get("fatigue")
    if isinstance(fatigue, int) and fatigue > 0:
        return f"F{fatigue}"[:4]
    return ""


def _is_int(v: Any, least: int, most: int) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and least <= v <= most


def _int(value: dict, key: str, least: int, most: int) -> int:
    v = value.get(key)
    if not _is_int(v, least, most):
        raise BroadcastError(_("board picture: {key!r} must be a whole number from {least} to {most}").format(
            key=key, least=least, most=most))
    return v


def _squares(value: dict, key: str, size: int) -> tuple[int, ...]:
    v = value.get(key)
    if not isinstance(v, list) or len(v) > size or not all(_is_int(s, 0, size - 1) for s in v):
        raise BroadcastError(_("board picture: {key!r} must be a list of squares").format(key=key))
    return tuple(v)
