"""How a game names and draws its sides and pieces, from its rules: the colours of its map's
seats (KoL Chess: Blue and Orange; four-player chess: Red, Blue, Yellow, Green) or White and
Black; chess's own piece names and glyphs, or the roster's titles ("Iron Golem") and codes on a
disc. Every screen that names a player's colour or a fighter, or draws a piece, asks here, so
no screen names a game."""

from __future__ import annotations

from .. import texts as T


def colour_names(rules) -> tuple[str, ...]:
    """The sides' colour words in the language of the moment: the map's seats (KoL Chess: Blue
    and Orange), else White and Black."""
    seats = getattr(getattr(rules, "board_map", None), "seats", None)
    return tuple(T.seat_word(seat.colour) for seat in seats) if seats else T.COLOUR_NAMES


def colour_word(rules, player: int) -> str:
    """One side's colour word ("White", "Red"; "Player 5" past the seats)."""
    colours = colour_names(rules)
    return colours[player] if 0 <= player < len(colours) else T.SEAT_PLAYER.format(n=player + 1)


def kind_words(rules, name: str) -> str:
    """A piece kind in words: chess's own ("pawn"), else the roster's title ("Iron Golem"; a
    game of units names all its units so, its Knight too)."""
    if name in T.PIECE_NAMES and not draws_units(rules):
        return T.piece_name(name)
    kind = next((k for k in rules.kinds if k.name == name), None)
    return kind.title if kind is not None else name.replace("_", " ")


def fighter_words(rules, player: int, kind: str) -> str:
    """"White pawn", "Blue Iron Golem", "Red knight": a fighter named as the game names it."""
    return T.fighter_name(colour_word(rules, player), kind_words(rules, kind))


def standard_glyph(kind) -> str:
    """The chess glyph a piece is drawn as, "" for a piece outside the standard set."""
    return (T.PIECE_GLYPHS.get(kind.name) or T.PIECE_GLYPHS.get(kind.role)
            or T.PIECE_GLYPHS.get(T.PIECE_CODES.get(getattr(kind, "shown_as", ""), ""), ""))


def has_seats(rules) -> bool:
    """Is this a game on a map of seats (Dungeon Chess, four-player chess): its terrain drawn,
    its players in their seats' colours?"""
    return bool(getattr(getattr(rules, "board_map", None), "seats", None))


def draws_units(rules) -> bool:
    """Are the pieces drawn as units (a disc with a code): a game on a map of seats with any
    piece outside the standard set (Dungeon Chess, KoL Chess), not four-player chess."""
    return has_seats(rules) and not all(standard_glyph(k) for k in rules.kinds)
