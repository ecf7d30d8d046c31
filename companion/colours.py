"""The colours every picture of a game shares, as plain values: the touchscreen's
(companion.app.theme, the .kv files) and the broadcast pages' (companion.broadcast.picture,
companion.broadcast.svg), so a board looks the same on the table and on the web. No imports:
the Kivy app and the web server both stand above it.

Text is white or near-black on flat backgrounds with a luminance contrast of at least 7:1;
a selected choice is shown by brightness (light background, dark text) and a check mark, not
by hue alone. Player colours are white and black pieces with an outline in the other colour,
readable on every square and every LED colour. Colours are RGBA with channels 0..1.
"""

from __future__ import annotations

BACKGROUND = (0.11, 0.11, 0.12, 1)
PANEL = (0.17, 0.17, 0.19, 1)
TEXT = (0.97, 0.97, 0.97, 1)
TEXT_DIM = (0.75, 0.75, 0.78, 1)
TEXT_DARK = (0.05, 0.05, 0.05, 1)
BUTTON = (0.27, 0.28, 0.31, 1)
BUTTON_DOWN = (0.40, 0.41, 0.45, 1)
SELECTED = (0.34, 0.71, 0.91, 1)  # Okabe-Ito sky blue; dark text on it
PRIMARY = (0.0, 0.62, 0.45, 1)  # Okabe-Ito bluish green; dark text on it
WARNING = (0.94, 0.89, 0.26, 1)  # Okabe-Ito yellow; dark text on it
DANGER = (0.84, 0.37, 0.0, 1)  # Okabe-Ito vermillion
LIGHT_SQUARE = (0.93, 0.86, 0.74, 1)
DARK_SQUARE = (0.66, 0.52, 0.39, 1)
MARK = (0.05, 0.05, 0.05, 1)
#: A goal's border across the board (Chess 2's midline): Okabe-Ito blue, clear on both squares
MIDLINE = (0.0, 0.45, 0.70, 1)
#: Squares a game colours (KoL Chess: rules.square_colours()). Green is light and red dark, so
#: the two differ in lightness as well as hue (told apart without colour vision).
SQUARE_COLOURS = {
    "white": (0.93, 0.91, 0.86, 1),
    "black": (0.45, 0.43, 0.43, 1),
    "green": (0.62, 0.82, 0.52, 1),
    "red": (0.66, 0.24, 0.22, 1),
    "blue": (0.42, 0.62, 0.93, 1),
}
BADGE = (0.05, 0.05, 0.05, 0.9)
WHITE_PIECE = ((1, 1, 1, 1), (0, 0, 0, 1))  # fill, outline
BLACK_PIECE = ((0, 0, 0, 1), (1, 1, 1, 1))
NEUTRAL_PIECE = ((0.55, 0.55, 0.55, 1), (0, 0, 0, 1))
#: A piece of a player who is out, left on the board as a wall (four-player chess's dead armies):
#: grey, lighter than an unknown piece, with a dark outline.
DEAD_PIECE = ((0.72, 0.72, 0.72, 1), (0.25, 0.25, 0.25, 1))
#: The outline of a chess glyph drawn in a seat's colour (four-player chess).
SEAT_OUTLINE = (0.05, 0.05, 0.05, 1)

def piece_colours(owner: int):
    """(fill, outline) for a piece of ``owner`` (-1: unknown)."""
    if owner == 0:
        return WHITE_PIECE
    if owner == 1:
        return BLACK_PIECE
    return NEUTRAL_PIECE


#: Terrain of a map, drawn under the pieces: water clearly blue, void nearly black.
WATER = (0.15, 0.35, 0.66, 1)
WATER_DARK = (0.12, 0.30, 0.59, 1)
VOID = (0.06, 0.06, 0.07, 1)

#: Screen colours of the seat colour words maps use (Okabe-Ito where it has the hue), so a
#: unit's disc has its player's colour; the code on it is black or white, whichever reads better.
SEAT_COLOURS = {
    "blue": (0.0, 0.45, 0.70, 1),
    "red": (0.84, 0.29, 0.0, 1),
    "green": (0.0, 0.62, 0.45, 1),
    "yellow": (0.94, 0.89, 0.26, 1),
    "white": (0.97, 0.97, 0.97, 1),
    "black": (0.08, 0.08, 0.08, 1),
    "orange": (0.90, 0.62, 0.0, 1),
    "purple": (0.80, 0.47, 0.65, 1),
    "cyan": (0.34, 0.71, 0.91, 1),
}


def seat_colour(word: str):
    """The screen colour of a seat colour word ("blue"); unknown words are grey."""
    return SEAT_COLOURS.get(word.lower(), NEUTRAL_PIECE[0])


def luminance(colour) -> float:
    """Relative luminance (WCAG) of an RGBA colour with channels 0..1."""
    def lin(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (lin(c) for c in colour[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def text_on(colour):
    """Black or white text, whichever contrasts more with ``colour``."""
    lum = luminance(colour)
    return TEXT_DARK if (lum + 0.05) / 0.05 >= 1.05 / (lum + 0.05) else TEXT


def rgb(colour: tuple[int, int, int]) -> tuple[float, float, float, float]:
    return (colour[0] / 255, colour[1] / 255, colour[2] / 255, 1)
