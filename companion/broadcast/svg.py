"""A :class:`~companion.broadcast.picture.BoardPicture` drawn as SVG text (pure).

The same colours as the touchscreen (companion.colours, which the app's theme shows): light and
dark squares (or the colours a game gives its squares, colours.SQUARE_COLOURS), water blue,
void nearly black; a chess piece is its filled glyph in its owner's colour with an outline in
the contrasting one, any other unit a disc in its player's colour with its code. The last move
is shaded yellow, a King in check ringed in vermillion, the squares of a fight or duel waiting
for its result outlined with dashes: shapes as well as hues, so colour-blind spectators see
them too. A piece of a player who is out (a dead army) is grey. Each piece is a
``<g class="piece">`` with its square, kind, code and owner as data attributes (and
``data-dead`` for a dead one), so a test (or a script) can read the position back from the
drawing.
"""

from __future__ import annotations

from xml.sax.saxutils import quoteattr

from .. import colours
from ..core.geometry import FILES
from .picture import DEFAULT_COLOURS, BoardPicture

SQUARE = 40
MARGIN = 18


def _hex(colour) -> str:
    return "#" + "".join(f"{max(0, min(255, round(c * 255))):02x}" for c in colour[:3])


LIGHT, DARK = _hex(colours.LIGHT_SQUARE), _hex(colours.DARK_SQUARE)
WATER, WATER_DARK, VOID = _hex(colours.WATER), _hex(colours.WATER_DARK), _hex(colours.VOID)
LAST = _hex(colours.WARNING)
ALERT = _hex(colours.DANGER)
GOAL_LINE = _hex(colours.MIDLINE)  # the goal's border (Chess 2's midline), the touchscreen's colour
LABEL = _hex(colours.TEXT_DIM)
TINTS = {word: _hex(colour) for word, colour in colours.SQUARE_COLOURS.items()}


def _rgb(text: str) -> tuple[float, float, float, float]:
    return (int(text[1:3], 16) / 255, int(text[3:5], 16) / 255, int(text[5:7], 16) / 255, 1)


def board_svg(picture: BoardPicture, *, labels: bool = True, title: str = "") -> str:
    """The board as one ``<svg>`` element (rank 1 at the bottom, file a on the left)."""
    w, h, s = picture.width, picture.height, SQUARE
    left = MARGIN if labels else 0
    bottom = MARGIN if labels else 0
    width, height = left + w * s, h * s + bottom
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="board" viewBox="0 0 {width} {height}" '
           f'data-width="{w}" data-height="{h}" role="img" aria-label={quoteattr(title or f"{w} by {h} board")}>']
    out.append(f'<rect x="{left}" y="0" width="{w * s}" height="{h * s}" fill="{LIGHT}"/>')

    def xy(sq: int) -> tuple[int, int]:
        return left + (sq % w) * s, (h - 1 - sq // w) * s

    terrain = picture.terrain
    for sq in range(picture.size):
        x, y = xy(sq)
        t = terrain[sq]
        dark = (sq % w + sq // w) % 2 == 0
        if t == "#":
            out.append(f'<rect class="void" x="{x}" y="{y}" width="{s}" height="{s}" fill="{VOID}"/>')
        elif t == "~":
            out.append(f'<rect class="water" x="{x}" y="{y}" width="{s}" height="{s}" '
                       f'fill="{WATER_DARK if dark else WATER}"/>')
        elif picture.tint(sq) in TINTS:
            word = picture.tint(sq)
            out.append(f'<rect class="tint {word}" x="{x}" y="{y}" width="{s}" height="{s}" fill="{TINTS[word]}"/>')
        elif dark:
            out.append(f'<rect x="{x}" y="{y}" width="{s}" height="{s}" fill="{DARK}"/>')
    if picture.last_move is not None:
        for sq in picture.last_move:
            x, y = xy(sq)
            out.append(f'<rect class="last-move" x="{x}" y="{y}" width="{s}" height="{s}" fill="{LAST}" '
                       f'fill-opacity="0.45"/>')
    for sq in picture.fight:
        x, y = xy(sq)
        out.append(f'<rect class="fight" x="{x + 2}" y="{y + 2}" width="{s - 4}" height="{s - 4}" fill="none" '
                   f'stroke="{ALERT}" stroke-width="3" stroke-dasharray="6 4"/>')
    for sq in picture.check:
        x, y = xy(sq)
        out.append(f'<circle class="check" cx="{x + s / 2}" cy="{y + s / 2}" r="{s * 0.46:.1f}" fill="none" '
                   f'stroke="{ALERT}" stroke-width="4"/>')
    for row in picture.lines:  # a goal's border across the board (Chess 2's midline), as on the touchscreen
        y = (h - row) * s
        out.append(f'<line class="goal-line" x1="{left}" y1="{y}" x2="{left + w * s}" y2="{y}" '
                   f'stroke="{GOAL_LINE}" stroke-width="4"/>')
    dead = set(picture.dead)
    seats = picture.units or len(picture.colours) > 2 or picture.colours != DEFAULT_COLOURS[:len(picture.colours)]
    for p in picture.pieces:
        x, y = xy(p.square)
        colour = picture.colours[p.owner] if 0 <= p.owner < len(picture.colours) else _hex(colours.NEUTRAL_PIECE[0])
        edge = _hex(colours.text_on(_rgb(colour)))
        if p.glyph is not None and seats:  # a chess glyph in a seat's colour: outlined dark, as on the touchscreen
            edge = _hex(colours.SEAT_OUTLINE)
        if p.square in dead:  # a dead army: grey
            colour, edge = _hex(colours.DEAD_PIECE[0]), _hex(colours.DEAD_PIECE[1])
        name = f"{FILES[p.square % w]}{p.square // w + 1}"
        state = ' data-dead="1"' if p.square in dead else ""
        out.append(f'<g class="piece" data-square="{name}" data-kind="{p.kind}" data-code="{p.code}" '
                   f'data-owner="{p.owner}"{state}>')
        cx, cy = x + s / 2, y + s / 2
        if p.glyph is not None and not picture.units:
            out.append(f'<text x="{cx}" y="{cy}" font-size="{s * 0.82:.1f}" text-anchor="middle" '
                       f'dominant-baseline="central" fill="{colour}" stroke="{edge}" stroke-width="1.6" '
                       f'paint-order="stroke" font-family="DejaVu Sans, sans-serif">{p.glyph}</text>')
        else:
            size = s * (0.42 if len(p.code) == 1 else 0.34 if len(p.code) == 2 else 0.26)
            out.append(f'<circle cx="{cx}" cy="{cy}" r="{s * 0.42:.1f}" fill="{colour}" stroke="{edge}" '
                       f'stroke-width="1.5"/>')
            out.append(f'<text x="{cx}" y="{cy}" font-size="{size:.1f}" font-weight="bold" text-anchor="middle" '
                       f'dominant-baseline="central" fill="{edge}" font-family="DejaVu Sans, sans-serif">'
                       f'{p.code}</text>')
        if p.badge:
            out.append(f'<text x="{x + s - 2}" y="{y + 9}" font-size="9" text-anchor="end" fill="#000" '
                       f'stroke="#fff" stroke-width="2" paint-order="stroke" '
                       f'font-family="DejaVu Sans, sans-serif">{p.badge}</text>')
        out.append("</g>")
    if labels:
        for f in range(w):
            out.append(f'<text x="{left + f * s + s / 2}" y="{h * s + MARGIN - 4}" font-size="12" text-anchor="middle" '
                       f'fill="{LABEL}" font-family="DejaVu Sans, sans-serif">{FILES[f]}</text>')
        for r in range(h):
            out.append(f'<text x="{left - 3}" y="{(h - 1 - r) * s + s / 2}" font-size="12" text-anchor="end" '
                       f'dominant-baseline="central" fill="{LABEL}" font-family="DejaVu Sans, sans-serif">'
                       f'{r + 1}</text>')
    out.append("</svg>")
    return "".join(out)
