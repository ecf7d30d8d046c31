"""Colours and sizes of the screen, as plain values (the .kv files read them via ``app``).

The colours are companion.colours' (shared with the broadcast pages); the sizes are the
screen's own. Sizes scale with the window: ``unit`` is 1.0 on the Raspberry Pi touchscreen
(800x480) and grows with larger screens.
"""

from __future__ import annotations

from ..colours import (  # noqa: F401 - the screen's colours, read as theme.<NAME>
    BACKGROUND, PANEL, TEXT, TEXT_DIM, TEXT_DARK, BUTTON, BUTTON_DOWN, SELECTED, PRIMARY, WARNING, DANGER,
    LIGHT_SQUARE, DARK_SQUARE, MARK, MIDLINE, SQUARE_COLOURS, BADGE, WHITE_PIECE, BLACK_PIECE, NEUTRAL_PIECE, DEAD_PIECE,
    SEAT_OUTLINE,
    WATER, WATER_DARK, VOID, SEAT_COLOURS, piece_colours, seat_colour, luminance, text_on, rgb,
)

#: Design size: everything is laid out for this and scaled by ``unit``.
DESIGN_SIZE = (800, 480)
FONT_SMALL = 18
FONT = 22
FONT_LARGE = 28
FONT_TITLE = 34
BUTTON_HEIGHT = 62
PADDING = 8
#: A press held this long on the board shows the piece's info instead of lifting it.
HOLD_SECONDS = 0.6
