"""The on-screen board: paints a BoardView (squares, LED colours, pieces, badges) and turns
touches into the presenter's two gestures, ``tap(square)`` and ``hold(square)``.

No game logic here: everything shown comes from companion.app.presenters.board.
"""

from __future__ import annotations

import time
from pathlib import Path

from kivy.graphics import Color, Ellipse, Line, Rectangle
from kivy.properties import BooleanProperty, ObjectProperty
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from .. import theme

KV = Path(__file__).with_suffix(".kv")


class PieceLabel(Label):
    """A piece glyph (or a badge's text) on a square."""


class BoardWidget(Widget):
    view = ObjectProperty(None, allownone=True)
    presenter = ObjectProperty(None, allownone=True)
    coordinates = BooleanProperty(True)

    def __init__(self, **kw):
        super().__init__(**kw)
        self._pieces: list[PieceLabel] = []
        self._fatigue: list[PieceLabel] = []
        self._odds: list[PieceLabel] = []
        self._coords: list[PieceLabel] = []
        self._touches: dict[int, tuple[int, float]] = {}
        self.bind(pos=self._redraw, size=self._redraw, view=self._redraw)

    # ----- geometry -------------------------------------------------------------------------------
    def _frame(self):
        v = self.view
        margin = min(self.width, self.height) * 0.045 if self.coordinates else 0
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
    def _labels(self, store: list[PieceLabel], n: int) -> list[PieceLabel]:
        while len(store) < n:
            label = PieceLabel()
            store.append(label)
            self.add_widget(label)
        while len(store) > n:
            self.remove_widget(store.pop())
        return store

    def _redraw(self, *_):
        v = self.view
        self.canvas.before.clear()
        if v is None or self.width < 10:
            for store in (self._pieces, self._fatigue, self._odds, self._coords):
                self._labels(store, 0)
            return
        side, ox, oy, margin = self._frame()
        n = v.width * v.height
        pieces = self._labels(self._pieces, n)
        fatigue = self._labels(self._fatigue, n)
        odds = self._labels(self._odds, n)
        ring = max(2.0, side * 0.06)
        with self.canvas.before:
            for sq in v.squares:
                x = ox + (sq.index % v.width) * side
                y = oy + (sq.index // v.width) * side
                Color(*(theme.DARK_SQUARE if sq.dark else theme.LIGHT_SQUARE))
                Rectangle(pos=(x, y), size=(side, side))
                if sq.light is not None:
                    Color(*theme.rgb(sq.light))
                    inset = side * 0.04
                    Rectangle(pos=(x + inset, y + inset), size=(side - 2 * inset, side - 2 * inset))
                if sq.last_move:
                    Color(*theme.MARK)
                    Line(rectangle=(x + ring, y + ring, side - 2 * ring, side - 2 * ring), width=max(1.0, ring / 3))
                if sq.check:
                    Color(*theme.DANGER)
                    Line(circle=(x + side / 2, y + side / 2, side * 0.46), width=ring)
                if sq.stray and not sq.glyph:
                    Color(0.45, 0.45, 0.45, 1)
                    Ellipse(pos=(x + side * 0.2, y + side * 0.2), size=(side * 0.6, side * 0.6))
                if sq.fatigue:
                    Color(*theme.BADGE)
                    r = side * 0.17
                    Ellipse(pos=(x + side - 2 * r - side * 0.03, y + side - 2 * r - side * 0.03), size=(2 * r, 2 * r))
                if sq.odds:
                    Color(*theme.BADGE)
                    Rectangle(pos=(x + side * 0.08, y + side * 0.04), size=(side * 0.84, side * 0.26))
        for sq in v.squares:
            x = ox + (sq.index % v.width) * side
            y = oy + (sq.index // v.width) * side
            fill, outline = theme.piece_colours(sq.owner)
            p = pieces[sq.index]
            p.text = sq.glyph
            p.font_size = side * 0.74
            p.color = fill
            p.outline_color = outline
            p.outline_width = max(1, int(side / 30))
            p.opacity = 0.35 if (sq.lifted or sq.stray) else 1
            p.pos, p.size = (x, y + side * 0.02), (side, side)
            f = fatigue[sq.index]
            f.text = str(sq.fatigue) if sq.fatigue else ""
            f.font_size = side * 0.24
            f.color = theme.TEXT
            f.outline_width = 0
            r = side * 0.17
            f.pos, f.size = (x + side - 2 * r - side * 0.03, y + side - 2 * r - side * 0.03), (2 * r, 2 * r)
            o = odds[sq.index]
            o.text = sq.odds
            o.font_size = side * 0.21
            o.color = theme.TEXT
            o.outline_width = 0
            o.pos, o.size = (x + side * 0.08, y + side * 0.04), (side * 0.84, side * 0.26)
        coords = self._labels(self._coords, (v.width + v.height) if self.coordinates else 0)
        for i, label in enumerate(coords):
            label.color = theme.TEXT_DIM
            label.outline_width = 0
            label.font_size = max(10, margin * 0.7)
            if i < v.width:
                label.text = v.files[i]
                label.pos, label.size = (ox + i * side, oy - margin), (side, margin)
            else:
                r = i - v.width
                label.text = v.ranks[r]
                label.pos, label.size = (ox - margin, oy + r * side), (margin, side)
