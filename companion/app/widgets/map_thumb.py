"""A Dungeon Chess map drawn small (start screen): one coloured cell per square, from a
presenter's MapThumb; and the button that holds one."""

from __future__ import annotations

from pathlib import Path

from kivy.graphics import Color, Rectangle
from kivy.graphics.texture import Texture
from kivy.properties import ListProperty, ObjectProperty, StringProperty
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from .common import BigButton

KV = Path(__file__).with_suffix(".kv")


class MapThumb(Widget):
    """Drawn as one texture of one pixel per square, magnified without smoothing: a 20x20 map
    is one rectangle, not 400 (less memory and drawing on the start screen)."""

    thumb = ObjectProperty(None, allownone=True)

    def __init__(self, **kw):
        super().__init__(**kw)
        self._texture = None
        self.bind(pos=self._redraw, size=self._redraw, thumb=self._new_thumb)

    def _new_thumb(self, *_):
        t = self.thumb
        self._texture = None
        if t is not None:
            tex = Texture.create(size=(t.width, t.height), colorfmt="rgba")
            tex.mag_filter = tex.min_filter = "nearest"
            tex.blit_buffer(bytes(round(max(0.0, min(1.0, c)) * 255) for cell in t.cells for c in cell),
                            colorfmt="rgba", bufferfmt="ubyte")
            self._texture = tex
        self._redraw()

    def _redraw(self, *_):
        self.canvas.clear()
        t = self.thumb
        if t is None or self._texture is None or self.width < 4:
            return
        cell = min(self.width / t.width, self.height / t.height)
        ox = self.x + (self.width - cell * t.width) / 2
        oy = self.y + (self.height - cell * t.height) / 2
        with self.canvas:
            Color(1, 1, 1, 1)
            Rectangle(texture=self._texture, pos=(ox, oy), size=(cell * t.width, cell * t.height))


class MapButton(BigButton):
    """A map to choose: its drawing on the left, its title and size on the right."""

    thumb = ObjectProperty(None, allownone=True)
    title = StringProperty("")
    detail = StringProperty("")


class SeatDisc(Label):
    """A disc in a player's colour (a seat on the start screen, the player chips in a game),
    with an optional short text on it (the number of units left). Drawn in map_thumb.kv, so
    the disc follows the label wherever the layout puts it (it was once drawn where the label
    first stood, half off the draft screen's left edge)."""

    colour = ListProperty([0.5, 0.5, 0.5, 1])
