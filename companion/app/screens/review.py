"""A saved game, move by move, on the screen and on the board's LEDs, with its analysis: each
move's verdict and the evaluation graph. (Layout: review.kv.)"""

from __future__ import annotations

from pathlib import Path

from kivy.graphics import Color, Line, Rectangle
from kivy.properties import ListProperty, NumericProperty, ObjectProperty
from kivy.uix.widget import Widget

from .. import theme
from .base import PresentedScreen

KV = Path(__file__).with_suffix(".kv")

#: the graph's scale: centipawns at its top (and, below zero, its bottom)
GRAPH_CLIP = 800.0


class ReviewScreen(PresentedScreen):
    board_view = ObjectProperty(None, allownone=True)

    def refresh(self) -> None:
        super().refresh()
        self.board_view = self.presenter.board()


class EvalGraph(Widget):
    """The evaluation after each move, from the first player's side (White above the middle
    line): a line over the whole game, the move on screen marked, blunders and mistakes as
    dots. A tap goes to the move under the finger."""

    points = ListProperty([])  # (frame, centipawns)
    marks = ListProperty([])  # (frame, "blunder" | "mistake")
    frames = NumericProperty(1)
    at = NumericProperty(0)
    presenter = ObjectProperty(None, allownone=True)

    def __init__(self, **kw):
        super().__init__(**kw)
        self.bind(points=self.draw, marks=self.draw, frames=self.draw, at=self.draw, pos=self.draw, size=self.draw)

    def _xy(self, frame: float, value: float) -> tuple[float, float]:
        x = self.x + self.width * frame / max(1, self.frames)
        y = self.center_y + (self.height / 2 - 2) * max(-1.0, min(1.0, value / GRAPH_CLIP))
        return x, y

    def draw(self, *_):
        self.canvas.clear()
        with self.canvas:
            Color(*theme.PANEL)
            Rectangle(pos=self.pos, size=self.size)
            Color(*theme.TEXT_DIM)
            Line(points=[self.x, self.center_y, self.right, self.center_y], width=1)
            if self.points:
                line = [*self._xy(0, 0)]
                for frame, value in self.points:
                    line += self._xy(frame, value)
                Color(*theme.TEXT)
                Line(points=line, width=1.5)
            for frame, kind in self.marks:
                value = dict(self.points).get(frame, 0.0)
                Color(*(theme.DANGER if kind == "blunder" else theme.WARNING))
                x, y = self._xy(frame, value)
                Rectangle(pos=(x - 4, y - 4), size=(8, 8))
            Color(*theme.SELECTED)
            x, _ = self._xy(self.at, 0)
            Line(points=[x, self.y, x, self.top], width=1.2)

    def on_touch_down(self, touch):
        if not self.collide_point(*touch.pos) or self.presenter is None or not self.points:
            return super().on_touch_down(touch)
        frame = round((touch.x - self.x) / max(1.0, self.width) * max(1, self.frames))
        self.presenter.go_to(max(0, min(int(self.frames), frame)))
        return True
