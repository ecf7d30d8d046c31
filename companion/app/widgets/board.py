"""The on-screen board: paints a BoardView (squares, terrain, LED colours, pieces, badges) and
turns touches into the presenter's two gestures, ``tap(square)`` and ``hold(square)``.

No game logic here: everything shown comes from companion.app.presenters.board.

Everything is drawn on the canvas; text (chess glyphs, unit codes, badges, coordinates) is
rendered once per text, size and colour into a texture and then only placed. A 20x20 board
has 400 squares: the first version kept three Label widgets per square (1,200 on that board)
and rebuilt them on every change. Measured under Xvfb on the development machine with a
four-player Dungeon position (45 units): rebuilding the canvas takes 3.3 ms (median; the
Label version 7.7 ms), and the board presenter's view 1.0 ms.

**Zoom.** No text is ever drawn under :data:`MIN_TEXT` pixels (12: what a player reads at arm's
length on the 7-inch touchscreen). A square must be at least :data:`MIN_SIDE` pixels for its
label, its badge and its fight odds to fit at that size without covering each other, so a map
that does not fit at that size (20x20 at 800x480) is shown in part: as many squares as fit,
around the square the play is about (the lifted piece, a square to fix, the last move: the
view's ``focus``), following it as play goes on. One finger dragged across the board moves the
view; two fingers pinched together show the whole map (discs in the players' colours, no
labels, since they would be too small), and a tap there zooms back in around that square. The
margins show arrows where more of the map lies.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from pathlib import Path

from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Line, Rectangle
from kivy.graphics import SmoothEllipse as Ellipse  # antialiased edges: the window has no multisampling
from kivy.properties import BooleanProperty, ObjectProperty, StringProperty
from kivy.uix.widget import Widget

from .. import theme

KV = Path(__file__).with_suffix(".kv")

#: Rendered texts kept for reuse; cleared when it grows past this (a resized window).
TEXTURE_CACHE_LIMIT = 3000
#: A unit disc is at most about 60 pixels wide: 32 segments look round (Kivy draws 180)
DISC_SEGMENTS = 32
#: The smallest text drawn on the board, in pixels (labels, badges, odds, coordinates).
MIN_TEXT = 12
#: The smallest square drawn with its label: a two-letter code at 0.4 of the square and a
#: 12-pixel badge above it need 36 pixels.
MIN_SIDE = 36
#: The smallest square drawn with a chess glyph: the glyph keeps to the left of a fatigue
#: number and above fight odds, each at 12 pixels, in 30 (four-player chess's 14x14 board is
#: shown whole at 800x480, at 32).
MIN_GLYPH_SIDE = 30
#: Share of a square a finger must travel before a touch becomes a drag of the view.
DRAG_START = 0.4
#: Pinching two fingers to this share of their distance shows the whole map (and back).
PINCH = 0.75


class TextTextures:
    """Textures of short texts, made once per (text, size, colour, outline, font, bold)."""

    def __init__(self) -> None:
        self._cache: dict[tuple, object] = {}

    def get(self, text: str, size: int, colour, outline=None, outline_width: int = 0,
            font: str = "Roboto", bold: bool = False):
        key = (text, size, tuple(colour), tuple(outline) if outline else None, outline_width, font, bold)
        tex = self._cache.get(key)
        if tex is None:
            if len(self._cache) > TEXTURE_CACHE_LIMIT:
                self._cache.clear()
            options = dict(text=text, font_size=max(1, size), font_name=font, bold=bold, color=tuple(colour))
            if outline_width:
                options.update(outline_width=outline_width, outline_color=tuple(outline[:3]))
            label = CoreLabel(**options)
            label.refresh()
            tex = self._cache[key] = label.texture
        return tex


TEXTURES = TextTextures()


@dataclass(frozen=True)
class Frame:
    """Where the board is drawn: the square's side, the lower left corner of the first shown
    square, the coordinate margin, and the shown part of the map (files f0.., ranks r0..)."""

    side: float
    ox: float
    oy: float
    margin: float
    f0: int
    r0: int
    cols: int
    rows: int

    @property
    def zoomed(self) -> bool:
        return self.f0 > 0 or self.r0 > 0

    def shows(self, file: int, rank: int) -> bool:
        return self.f0 <= file < self.f0 + self.cols and self.r0 <= rank < self.r0 + self.rows


def coordinate_margin(map_w: int, map_h: int, width: float, height: float) -> float:
    """Room for the file letters and rank numbers (at least the smallest text)."""
    if max(map_w, map_h) <= 12:
        return max(MIN_TEXT * 1.5, min(width, height) * 0.045)
    return MIN_TEXT * 1.5


def shown_squares(map_w: int, map_h: int, width: float, height: float, whole: bool = False,
                  least: float = MIN_SIDE) -> tuple[int, int, float]:
    """(files, ranks, side) of the part of a map a board widget of ``width`` x ``height`` shows:
    the whole map when its squares are at least ``least`` (MIN_SIDE, or MIN_GLYPH_SIDE for
    chess glyphs; or ``whole`` is asked), else as many squares as fit at that size."""
    margin = coordinate_margin(map_w, map_h, width, height)
    w, h = max(1.0, width - margin), max(1.0, height - margin)
    full = min(w / map_w, h / map_h)
    if whole or full >= least:
        return map_w, map_h, full
    cols = min(map_w, max(1, int(w // least)))
    rows = min(map_h, max(1, int(h // least)))
    return cols, rows, min(w / cols, h / rows)


def least_side(view) -> float:
    """The smallest square ``view``'s pieces are drawn on with their labels: a unit's code needs
    MIN_SIDE, a chess glyph MIN_GLYPH_SIDE."""
    return MIN_SIDE if view is None or view.units else MIN_GLYPH_SIDE


def fit_width(view, height: float, most: float, unit: float) -> float:
    """How wide a board widget of ``height`` should be for ``view``'s map (at most ``most``):
    square maps as high as they are, long maps (8 wide, 20 long) narrower, with room for the
    rank numbers; a map shown in part (zoomed) as wide as its shown part."""
    if view is None:
        return min(height, most)
    margin = coordinate_margin(view.width, view.height, most, height)
    cols, rows, side = shown_squares(view.width, view.height, most, height, least=least_side(view))
    return min(most, cols * side + margin + unit * 4)


class BoardWidget(Widget):
    view = ObjectProperty(None, allownone=True)
    presenter = ObjectProperty(None, allownone=True)
    coordinates = BooleanProperty(True)
    glyph_font = StringProperty("Roboto")
    #: the whole map with discs only (a pinch); False: labels at MIN_TEXT or more, zoomed if need be
    overview = BooleanProperty(False)
    #: the map is shown in part (the screen says how to see the rest)
    zoomed = BooleanProperty(False)

    def __init__(self, **kw):
        super().__init__(**kw)
        self._touches: dict[int, dict] = {}
        self._origin: tuple[float, float] = (0.0, 0.0)  # the shown part's lower left (file, rank)
        self._focus = None  # the view's focus the origin last followed
        self._map = None  # (width, height) of the map the origin belongs to
        self.redraw_ms: list[float] = []  # time of each redraw (the smoke tests report them)
        #: the smallest text of the last redraw and what it was (the screen test reads it)
        self.smallest_text: float | None = None
        self.smallest_text_what = ""
        #: window boxes of each square's label and of its badges (the screen test reads them)
        self.label_boxes: dict[int, tuple] = {}
        self.badge_boxes: dict[int, list[tuple]] = {}
        self.bind(pos=self._redraw, size=self._redraw, view=self._redraw, overview=self._redraw)

    # ----- geometry -------------------------------------------------------------------------------
    def _frame(self) -> Frame:
        v = self.view
        margin = coordinate_margin(v.width, v.height, self.width, self.height) if self.coordinates else 0
        cols, rows, side = shown_squares(v.width, v.height, self.width, self.height, self.overview, least_side(v))
        if not self.coordinates:
            side = min(self.width / cols, self.height / rows)
        if (cols, rows) == (v.width, v.height):
            f0 = r0 = 0
        else:
            f0 = int(round(min(max(self._origin[0], 0), v.width - cols)))
            r0 = int(round(min(max(self._origin[1], 0), v.height - rows)))
        ox = self.x + margin + (self.width - margin - side * cols) / 2
        oy = self.y + margin + (self.height - margin - side * rows) / 2
        return Frame(side, ox, oy, margin, f0, r0, cols, rows)

    def _follow(self) -> None:
        """Centre the shown part on the view's focus when it moved (a new lifted piece, a new
        move); a drag holds until then."""
        v = self.view
        if v is None:
            return
        if self._map != (v.width, v.height):
            self._map, self._focus = (v.width, v.height), None
            self._origin = (0.0, 0.0)
        focus = getattr(v, "focus", None)
        if focus is None or focus == self._focus:
            return
        self._focus = focus
        self.centre_on(focus)

    def centre_on(self, square: int) -> None:
        """Show ``square`` in the middle of the shown part (as far as the map's edges allow)."""
        v = self.view
        cols, rows, _ = shown_squares(v.width, v.height, self.width, self.height, self.overview, least_side(v))
        file, rank = square % v.width, square // v.width
        self._origin = (min(max(file - cols // 2, 0), v.width - cols), min(max(rank - rows // 2, 0), v.height - rows))

    def bring_into_view(self, square: int) -> None:
        """Make ``square`` visible (as a drag would), leaving the view alone if it is."""
        if self.view is None:
            return
        fr = self._frame()
        if not fr.shows(square % self.view.width, square // self.view.width):
            self.centre_on(square)
            self._redraw()

    def square_at(self, x: float, y: float) -> int | None:
        if self.view is None:
            return None
        fr = self._frame()
        f, r = int((x - fr.ox) // fr.side), int((y - fr.oy) // fr.side)
        if 0 <= f < fr.cols and 0 <= r < fr.rows:
            return (r + fr.r0) * self.view.width + f + fr.f0
        return None

    def square_centre(self, square: int) -> tuple[float, float]:
        """Window coordinates of a square's centre (the smoke tests tap there; call
        :meth:`bring_into_view` first on a map shown in part)."""
        fr = self._frame()
        f, r = square % self.view.width - fr.f0, square // self.view.width - fr.r0
        return self.to_window(fr.ox + (f + 0.5) * fr.side, fr.oy + (r + 0.5) * fr.side)

    # ----- touches ---------------------------------------------------------------------------------
    def on_touch_down(self, touch):
        if not self.collide_point(*touch.pos) or self.presenter is None:
            return super().on_touch_down(touch)
        sq = self.square_at(*touch.pos)
        if sq is None and not self._touches:
            return False
        touch.grab(self)
        self._touches[touch.uid] = {"square": sq, "t": time.monotonic(), "start": touch.pos, "last": touch.pos,
                                    "drag": False, "pinch": len(self._touches) >= 1}
        if len(self._touches) >= 2:
            for t in self._touches.values():
                t["pinch"] = True
        return True

    def on_touch_move(self, touch):
        if touch.grab_current is not self:
            return super().on_touch_move(touch)
        state = self._touches.get(touch.uid)
        if state is None or self.view is None:
            return True
        fr = self._frame()
        if state["pinch"]:
            self._pinch(touch)
            return True
        dx, dy = touch.pos[0] - state["start"][0], touch.pos[1] - state["start"][1]
        if not state["drag"] and math.hypot(dx, dy) > fr.side * DRAG_START and fr.cols * fr.rows < self.view.width * self.view.height:
            state["drag"] = True
        if state["drag"]:
            lx, ly = state["last"]
            f, r = self._origin
            self._origin = (f - (touch.pos[0] - lx) / fr.side, r - (touch.pos[1] - ly) / fr.side)
            v = self.view
            self._origin = (min(max(self._origin[0], 0), v.width - fr.cols), min(max(self._origin[1], 0), v.height - fr.rows))
            state["last"] = touch.pos
            self._redraw()
        return True

    def _pinch(self, touch) -> None:
        others = [t for uid, t in self._touches.items() if uid != touch.uid]
        state = self._touches[touch.uid]
        if not others:
            return
        other = others[0]
        before = math.dist(state["start"], other["last"])
        now = math.dist(touch.pos, other["last"])
        state["last"] = touch.pos
        if before < 1:
            return
        if now / before < PINCH and not self.overview:
            self.overview = True
            state["start"] = touch.pos
        elif before / max(now, 1) < PINCH and self.overview:
            self.overview = False
            state["start"] = touch.pos

    def on_touch_up(self, touch):
        if touch.grab_current is not self:
            return super().on_touch_up(touch)
        touch.ungrab(self)
        state = self._touches.pop(touch.uid, None)
        if state is None or self.presenter is None or state["drag"] or state["pinch"]:
            return True
        sq = state["square"]
        if sq is None:
            return True
        if self.overview:  # a tap on the whole map zooms in there; it moves nothing
            self.overview = False
            self.centre_on(sq)
            self._redraw()
            return True
        if time.monotonic() - state["t"] >= theme.HOLD_SECONDS:
            self.presenter.hold(sq)
        else:
            self.presenter.tap(sq)
        return True

    # ----- painting ---------------------------------------------------------------------------------
    def _text(self, text: str, size: float, colour, what: str, **options):
        """A text's texture at ``size`` (never under MIN_TEXT: None then, and nothing drawn)."""
        size = int(size)
        if size < MIN_TEXT:
            return None
        if self.smallest_text is None or size < self.smallest_text:
            self.smallest_text, self.smallest_text_what = size, what
        return TEXTURES.get(text, size, colour, **options)

    def _redraw(self, *_):
        started = time.perf_counter()
        v = self.view
        self.canvas.before.clear()
        self.smallest_text, self.smallest_text_what = None, ""
        self.label_boxes, self.badge_boxes = {}, {}
        if v is None or self.width < 10:
            return
        self._follow()
        fr = self._frame()
        self.zoomed = (fr.cols, fr.rows) != (v.width, v.height)
        labels = not self.overview
        with self.canvas.before:
            for sq in v.squares:
                file, rank = sq.index % v.width, sq.index // v.width
                if not fr.shows(file, rank):
                    continue
                x = fr.ox + (file - fr.f0) * fr.side
                y = fr.oy + (rank - fr.r0) * fr.side
                self._square(sq, x, y, fr.side)
                if sq.glyph or sq.stray:
                    if v.units:
                        self._unit(v, sq, x, y, fr.side, labels)
                    else:
                        self._glyph(v, sq, x, y, fr.side)
                elif labels:
                    self._badges(sq, x, y, fr.side, None)
            for row in getattr(v, "lines", ()):  # a goal's border (Chess 2's midline)
                if fr.r0 < row < fr.r0 + fr.rows:
                    y = fr.oy + (row - fr.r0) * fr.side
                    Color(*theme.MIDLINE)
                    Line(points=[fr.ox, y, fr.ox + fr.cols * fr.side, y], width=max(1.5, fr.side * 0.035))
            if self.coordinates and labels:
                self._coordinates(v, fr)
            if self.zoomed:
                self._more_arrows(v, fr)
        self.redraw_ms.append((time.perf_counter() - started) * 1000)
        del self.redraw_ms[:-200]

    def _square(self, sq, x: float, y: float, side: float) -> None:
        ring = max(1.0, side * 0.06)
        if sq.terrain == "void":
            Color(*theme.VOID)
        elif sq.terrain == "water":
            Color(*(theme.WATER_DARK if sq.dark else theme.WATER))
        else:
            Color(*(theme.SQUARE_COLOURS.get(sq.colour) or (theme.DARK_SQUARE if sq.dark else theme.LIGHT_SQUARE)))
        Rectangle(pos=(x, y), size=(side, side))
        if sq.light is not None:
            Color(*theme.rgb(sq.light))
            inset = side * 0.04
            Rectangle(pos=(x + inset, y + inset), size=(side - 2 * inset, side - 2 * inset))
        if sq.last_move:
            Color(*theme.MARK)
            Line(rectangle=(x + ring, y + ring, side - 2 * ring, side - 2 * ring), width=max(1.0, ring / 3))
        if sq.zone:  # inside a piece's zone (the Elephant's box): a blue frame
            Color(*theme.MIDLINE)
            Line(rectangle=(x + ring * 2, y + ring * 2, side - 4 * ring, side - 4 * ring), width=max(1.5, ring / 2))
        if sq.check:
            Color(*theme.DANGER)
            Line(circle=(x + side / 2, y + side / 2, side * 0.47), width=max(1.5, ring))

    def _place(self, tex, x: float, y: float, square: int, boxes: dict | None, alpha: float = 1.0) -> None:
        w, h = tex.size
        Color(1, 1, 1, alpha)
        Rectangle(texture=tex, pos=(x, y), size=(w, h))
        box = (x, y, w, h)
        if boxes is self.label_boxes:
            self.label_boxes[square] = box
        elif boxes is self.badge_boxes:
            self.badge_boxes.setdefault(square, []).append(box)

    def _glyph(self, v, sq, x: float, y: float, side: float) -> None:
        """A chess piece: its glyph, white or black with an outline of the other colour (in a
        game of seats: its player's colour, outlined dark; a dead piece grey); with a badge or
        odds beside it, smaller and out of their way."""
        if sq.stray and not sq.glyph:
            Color(0.45, 0.45, 0.45, 1)
            Ellipse(pos=(x + side * 0.2, y + side * 0.2), size=(side * 0.6, side * 0.6))
            return
        bottom, ceiling, right = self._badges(sq, x, y, side, "glyph")  # the room the badges leave
        fill, outline = theme.piece_colours(sq.owner)
        if sq.dead:
            fill, outline = theme.DEAD_PIECE
        elif 0 <= sq.owner < len(v.owner_colours):
            fill, outline = v.owner_colours[sq.owner], theme.SEAT_OUTLINE
        size = side * 0.74
        options = dict(outline=outline, outline_width=max(1, int(side / 30)), font=self.glyph_font)
        tex = self._text(sq.glyph, size, fill, "a chess piece", **options)
        if tex is None:
            return
        w, h = tex.size
        scale = min(1.0, (ceiling - bottom) / h, (right - x) / w)
        while scale < 1.0 and size > MIN_TEXT:  # beside a badge: smaller and whole (the sizes are whole pixels)
            size = max(MIN_TEXT, int(size * scale))
            tex = self._text(sq.glyph, size, fill, "a chess piece", **options)
            w, h = tex.size
            scale = min(1.0, (ceiling - bottom) / h, (right - x) / w)
            if scale < 1.0:
                scale = min(scale, (size - 1) / size)
        cx = x + (right - x) / 2
        cy = bottom + (ceiling - bottom) / 2
        nudge = side * 0.02 if size == side * 0.74 else 0.0
        self._place(tex, cx - w / 2, cy - h / 2 + nudge, sq.index, self.label_boxes,
                    0.35 if (sq.lifted or sq.stray) else 1.0)

    def _unit(self, v, sq, x: float, y: float, side: float, labels: bool) -> None:
        """A unit: a disc in its player's colour, a thin dark rim, its code in black or white
        (below the badge when it has one)."""
        alpha = 0.35 if (sq.lifted or sq.stray) else 1.0
        colour = v.owner_colours[sq.owner] if 0 <= sq.owner < len(v.owner_colours) else theme.NEUTRAL_PIECE[0]
        if sq.dead:
            colour = theme.DEAD_PIECE[0]
        d = side * (0.72 if sq.light is not None else 0.84)  # a lit square shows its light around the disc
        cx, cy = x + side / 2, y + side / 2
        Color(0.05, 0.05, 0.05, alpha)
        Ellipse(pos=(cx - d / 2 - 1, cy - d / 2 - 1), size=(d + 2, d + 2), segments=DISC_SEGMENTS)
        Color(colour[0], colour[1], colour[2], alpha)
        Ellipse(pos=(cx - d / 2, cy - d / 2), size=(d, d), segments=DISC_SEGMENTS)
        if not labels:
            return
        bottom, ceiling, _ = self._badges(sq, x, y, side, "unit")
        if not sq.glyph:
            return
        ink = theme.text_on(colour)
        size = side * (0.4 if len(sq.glyph) > 1 else 0.52)
        tex = self._text(sq.glyph, size, ink, "a unit's code", bold=True)
        if tex is None:
            return
        w, h = tex.size
        if h > ceiling - bottom:  # under a badge: the code shrinks to the room left, never under MIN_TEXT
            tex = self._text(sq.glyph, max(MIN_TEXT, size * (ceiling - bottom) / h), ink, "a unit's code", bold=True)
            w, h = tex.size
        middle = min(max(cy, bottom + h / 2), ceiling - h / 2)  # the centre, kept between the badges
        self._place(tex, cx - w / 2, middle - h / 2, sq.index, self.label_boxes, alpha)

    def _badges(self, sq, x: float, y: float, side: float, piece: str | None) -> tuple[float, float, float]:
        """A fatigue number, a unit's state ("W", "H2") and a fight's odds, each at MIN_TEXT or
        more: the state and fatigue in a band along the top, the odds along the bottom. Returns
        the room they leave the piece's label: (bottom, top, right) in window pixels."""
        bottom, ceiling, right = y, y + side, x + side
        corner = sq.badge or (str(sq.fatigue) if sq.fatigue else "")
        if corner:
            tex = self._text(corner, max(MIN_TEXT, side * 0.26), theme.TEXT, "a badge", bold=True)
            if tex is not None:
                w, h = tex.size
                bx, by = x + side - w - 3, y + side - h
                Color(*theme.BADGE)
                Rectangle(pos=(bx - 1, by), size=(w + 4, h))
                self._place(tex, bx + 1, by, sq.index, self.badge_boxes)
                if piece == "glyph":
                    right = bx - 1  # a chess glyph keeps to the left of the number
                else:
                    ceiling = by  # a unit's code goes below the band
        if sq.odds:
            tex = self._text(sq.odds, max(MIN_TEXT, side * 0.34), theme.TEXT, "fight odds", bold=True)
            if tex is not None:
                w, h = tex.size
                Color(*theme.BADGE)
                Rectangle(pos=(x + side * 0.04, y + side * 0.03), size=(side * 0.92, h))
                self._place(tex, x + side / 2 - w / 2, y + side * 0.03, sq.index, self.badge_boxes)
                bottom = y + side * 0.03 + h
        return bottom, ceiling, right

    def _coordinates(self, v, fr: Frame) -> None:
        size = max(MIN_TEXT, min(fr.margin * 0.75, fr.side * 0.6))
        for i in range(fr.f0, fr.f0 + fr.cols):
            tex = self._text(v.files[i], size, theme.TEXT_DIM, "a coordinate")
            w, h = tex.size
            Color(1, 1, 1, 1)
            Rectangle(texture=tex, pos=(fr.ox + (i - fr.f0) * fr.side + (fr.side - w) / 2,
                                        fr.oy - fr.margin + (fr.margin - h) / 2), size=(w, h))
        for r in range(fr.r0, fr.r0 + fr.rows):
            tex = self._text(v.ranks[r], size, theme.TEXT_DIM, "a coordinate")
            w, h = tex.size
            Color(1, 1, 1, 1)
            Rectangle(texture=tex, pos=(fr.ox - fr.margin + (fr.margin - w) / 2,
                                        fr.oy + (r - fr.r0) * fr.side + (fr.side - h) / 2), size=(w, h))

    def _more_arrows(self, v, fr: Frame) -> None:
        """Small triangles at the edges of the shown part where more of the map lies."""
        Color(*theme.WARNING)
        s = max(6.0, fr.side * 0.22)
        left, right = fr.ox, fr.ox + fr.cols * fr.side
        low, high = fr.oy, fr.oy + fr.rows * fr.side
        mx, my = (left + right) / 2, (low + high) / 2
        if fr.f0 > 0:
            Line(points=[left + s, my - s, left + 2, my, left + s, my + s], width=2)
        if fr.f0 + fr.cols < v.width:
            Line(points=[right - s, my - s, right - 2, my, right - s, my + s], width=2)
        if fr.r0 > 0:
            Line(points=[mx - s, low + s, mx, low + 2, mx + s, low + s], width=2)
        if fr.r0 + fr.rows < v.height:
            Line(points=[mx - s, high - s, mx, high - 2, mx + s, high - s], width=2)
