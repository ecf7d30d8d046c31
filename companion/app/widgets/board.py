"""The on-screen board: paints a BoardView (squares, terrain, LED colours, pieces, badges) and
turns touches into the presenter's two gestures, ``tap(square)`` and ``hold(square)``.

No game logic here: everything shown comes from companion.app.presenters.board.

Everything is drawn on the canvas; text (chess glyphs, unit codes, badges, coordinates) is
rendered once per text, size and colour into a texture and then only placed. A 20x20 board
has 400 squares: the first version kept three Label widgets per square (1,200 on that board)
and rebuilt them on every change. Measured under Xvfb on the development machine with a
four-player Dungeon position (45 units): rebuilding the canvas takes 3.3 ms (median; the
Label version 7.7 ms), and the board presenter's view 1.0 ms.
"""

from __future__ import annotations

import time
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


def fit_width(view, height: float, most: float, unit: float) -> float:
    """How wide a board widget of ``height`` should be for ``view``'s map (at most ``most``):
    square maps as high as they are, long maps (8 wide, 20 long) narrower, with room for the
    rank numbers."""
    if view is None or view.width >= view.height:
        return min(height, most)
    return min(most, height * view.width / view.height + unit * 20)


class BoardWidget(Widget):
    view = ObjectProperty(None, allownone=True)
    presenter = ObjectProperty(None, allownone=True)
    coordinates = BooleanProperty(True)
    glyph_font = StringProperty("Roboto")

    def __init__(self, **kw):
        super().__init__(**kw)
        self._touches: dict[int, tuple[int, float]] = {}
        self.redraw_ms: list[float] = []  # time of each redraw (the smoke tests report them)
        self.bind(pos=self._redraw, size=self._redraw, view=self._redraw)

    # ----- geometry -------------------------------------------------------------------------------
    def _frame(self):
        v = self.view
        if not self.coordinates:
            margin = 0
        elif max(v.width, v.height) <= 12:
            margin = min(self.width, self.height) * 0.045
        else:  # a large map: small squares, but the coordinates stay readable
            side = min(self.width / v.width, self.height / v.height)
            margin = min(20.0, max(13.0, side * 0.6))
        side = min((self.width - margin) / v.width, (self.height - margin) / v.height)
        ox = self.x + margin + (self.width - margin - side * v.width) / 2
        oy = self.y + margin + (self.height - margin - side * v.height) / 2
        return side, ox, oy, margin

    def square_at(self, x: float, y: float) -> int | None:
        if self.view is None:
            return None
        side, ox, oy, _ = self._frame()
        f, r = int((x - ox) // side), int((y - oy) // side)
        if 0 <= f < self.view.width and 0 <= r < self.view.height:
            return r * self.view.width + f
        return None

    def square_centre(self, square: int) -> tuple[float, float]:
        """Window coordinates of a square's centre (the smoke tests tap there)."""
        side, ox, oy, _ = self._frame()
        f, r = square % self.view.width, square // self.view.width
        return self.to_window(ox + (f + 0.5) * side, oy + (r + 0.5) * side)

    # ----- touches ---------------------------------------------------------------------------------
    def on_touch_down(self, touch):
        if not self.collide_point(*touch.pos) or self.presenter is None:
            return super().on_touch_down(touch)
        sq = self.square_at(*touch.pos)
        if sq is None:
            return False
        touch.grab(self)
        self._touches[touch.uid] = (sq, time.monotonic())
        return True

    def on_touch_up(self, touch):
        if touch.grab_current is not self:
            return super().on_touch_up(touch)
        touch.ungrab(self)
        sq, t0 = self._touches.pop(touch.uid, (None, 0.0))
        if sq is None or self.presenter is None:
            return True
        if time.monotonic() - t0 >= theme.HOLD_SECONDS:
            self.presenter.hold(sq)
        else:
            self.presenter.tap(sq)
        return True

    # ----- painting ---------------------------------------------------------------------------------
    def _redraw(self, *_):
        started = time.perf_counter()
        v = self.view
        self.canvas.before.clear()
        if v is None or self.width < 10:
            return
        side, ox, oy, margin = self._frame()
        with self.canvas.before:
            for sq in v.squares:
                x = ox + (sq.index % v.width) * side
                y = oy + (sq.index // v.width) * side
                self._square(sq, x, y, side)
                if sq.glyph or sq.stray:
                    if v.units:
                        self._unit(v, sq, x, y, side)
                    else:
                        self._glyph(sq, x, y, side)
                self._badges(sq, x, y, side)
            for row in getattr(v, "lines", ()):  # a goal's border (Chess 2's midline)
                Color(*theme.MIDLINE)
                Line(points=[ox, oy + row * side, ox + v.width * side, oy + row * side],
                     width=max(1.5, side * 0.035))
            if self.coordinates:
                self._coordinates(v, side, ox, oy, margin)
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

    def _glyph(self, sq, x: float, y: float, side: float) -> None:
        """A chess piece: its glyph, white or black with an outline of the other colour."""
        if sq.stray and not sq.glyph:
            Color(0.45, 0.45, 0.45, 1)
            Ellipse(pos=(x + side * 0.2, y + side * 0.2), size=(side * 0.6, side * 0.6))
            return
        fill, outline = theme.piece_colours(sq.owner)
        tex = TEXTURES.get(sq.glyph, int(side * 0.74), fill, outline, max(1, int(side / 30)), self.glyph_font)
        Color(1, 1, 1, 0.35 if (sq.lifted or sq.stray) else 1)
        w, h = tex.size
        Rectangle(texture=tex, pos=(x + (side - w) / 2, y + side * 0.02 + (side - h) / 2), size=(w, h))

    def _unit(self, v, sq, x: float, y: float, side: float) -> None:
        """A unit: a disc in its player's colour, a thin dark rim, its code in black or white."""
        alpha = 0.35 if (sq.lifted or sq.stray) else 1.0
        colour = v.owner_colours[sq.owner] if 0 <= sq.owner < len(v.owner_colours) else theme.NEUTRAL_PIECE[0]
        d = side * (0.72 if sq.light is not None else 0.84)  # a lit square shows its light around the disc
        cx, cy = x + side / 2, y + side / 2
        Color(0.05, 0.05, 0.05, alpha)
        Ellipse(pos=(cx - d / 2 - 1, cy - d / 2 - 1), size=(d + 2, d + 2), segments=DISC_SEGMENTS)
        Color(colour[0], colour[1], colour[2], alpha)
        Ellipse(pos=(cx - d / 2, cy - d / 2), size=(d, d), segments=DISC_SEGMENTS)
        if not sq.glyph:
            return
        ink = theme.text_on(colour)
        size = int(side * (0.4 if len(sq.glyph) > 1 else 0.52))
        tex = TEXTURES.get(sq.glyph, size, ink, bold=True)
        Color(1, 1, 1, alpha)
        w, h = tex.size
        Rectangle(texture=tex, pos=(cx - w / 2, cy - h / 2), size=(w, h))

    def _badges(self, sq, x: float, y: float, side: float) -> None:
        small = int(side * (0.3 if sq.badge else 0.24))
        for text, where in ((str(sq.fatigue) if sq.fatigue else "", "corner"), (sq.badge, "corner"),
                            (sq.odds, "bottom")):
            if not text:
                continue
            tex = TEXTURES.get(text, max(8, small if where == "corner" else int(side * 0.21)), theme.TEXT, bold=True)
            w, h = tex.size
            Color(*theme.BADGE)
            if where == "corner":
                r = max(side * 0.17, w / 2 + 1)
                bx, by = x + side - 2 * r - side * 0.03, y + side - 2 * r - side * 0.03
                if sq.badge:  # a pill in the top right corner, over the disc's edge
                    Rectangle(pos=(x + side - w - 3, y + side - h), size=(w + 3, h))
                    Color(1, 1, 1, 1)
                    Rectangle(texture=tex, pos=(x + side - w - 1.5, y + side - h), size=(w, h))
                    continue
                Ellipse(pos=(bx, by), size=(2 * r, 2 * r))
                Color(1, 1, 1, 1)
                Rectangle(texture=tex, pos=(bx + r - w / 2, by + r - h / 2), size=(w, h))
            else:
                Rectangle(pos=(x + side * 0.08, y + side * 0.04), size=(side * 0.84, side * 0.26))
                Color(1, 1, 1, 1)
                Rectangle(texture=tex, pos=(x + side / 2 - w / 2, y + side * 0.17 - h / 2), size=(w, h))

    def _coordinates(self, v, side: float, ox: float, oy: float, margin: float) -> None:
        size = int(max(9, min(margin * 0.75, side * 0.6)))
        for i in range(v.width):
            tex = TEXTURES.get(v.files[i], size, theme.TEXT_DIM)
            w, h = tex.size
            Color(1, 1, 1, 1)
            Rectangle(texture=tex, pos=(ox + i * side + (side - w) / 2, oy - margin + (margin - h) / 2), size=(w, h))
        for r in range(v.height):
            tex = TEXTURES.get(v.ranks[r], size, theme.TEXT_DIM)
            w, h = tex.size
            Color(1, 1, 1, 1)
            Rectangle(texture=tex, pos=(ox - margin + (margin - w) / 2, oy + r * side + (side - h) / 2), size=(w, h))
