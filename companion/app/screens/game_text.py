"""Load / Save: the game as text and QR codes, files, the on-screen keyboard. (Layout:
game_text.kv; everything shown comes from companion.app.presenters.game_text.)"""

from __future__ import annotations

from pathlib import Path

from kivy.graphics import Color, Rectangle
from kivy.graphics.texture import Texture
from kivy.properties import ObjectProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from ..widgets.common import BigButton
from .base import PresentedScreen

KV = Path(__file__).with_suffix(".kv")


class QRCode(Widget):
    """Paints a QR matrix (rows of dark/light modules, the light quiet zone included) as one
    texture, square, black on white, each module a whole number of pixels."""

    matrix = ObjectProperty(None, allownone=True)

    def __init__(self, **kw):
        super().__init__(**kw)
        self._texture = None
        self.module_px = 0
        self.bind(pos=self._draw, size=self._draw, matrix=self._make)

    def _make(self, *_):
        m = self.matrix
        if not m:
            self._texture = None
        else:
            n = len(m)
            data = bytes(0 if dark else 255 for row in reversed(m) for dark in row)
            tex = Texture.create(size=(n, n), colorfmt="luminance")
            tex.blit_buffer(data, colorfmt="luminance", bufferfmt="ubyte")
            tex.mag_filter = tex.min_filter = "nearest"
            self._texture = tex
        self._draw()

    def _draw(self, *_):
        self.canvas.clear()
        if self._texture is None:
            return
        # every module the same whole number of pixels, on whole pixels: a module drawn 2 pixels
        # wide beside one drawn 3 is harder for a camera to read
        n = self._texture.width
        side = int(min(self.width, self.height))
        if side >= n:
            side -= side % n
        x, y = int(self.x + (self.width - side) / 2), int(self.y + (self.height - side) / 2)
        self.module_px = side // n  # read by the window test
        with self.canvas:
            Color(1, 1, 1, 1)
            Rectangle(texture=self._texture, pos=(x, y), size=(side, side))


class _Panel(BoxLayout):
    view = ObjectProperty(None, allownone=True)
    presenter = ObjectProperty(None, allownone=True)


class TextShowPanel(_Panel):
    """The game's text and its QR code, and the buttons (layout: game_text.kv)."""


class TextFilesPanel(_Panel):
    """The saved game texts found, one button each."""


class TextTypePanel(_Panel):
    """The typed text with its cursor, and the on-screen keyboard."""


class GameTextScreen(PresentedScreen):
    def __init__(self, **kw):
        super().__init__(**kw)
        self._panels = {}
        self._files_shown = None

    def refresh(self) -> None:
        super().refresh()
        v = self.view
        if v is None:
            return
        kind = {"show": TextShowPanel, "files": TextFilesPanel}.get(v.mode, TextTypePanel)
        panel = self._panels.get(kind)
        if panel is None:
            panel = self._panels[kind] = kind(presenter=self.presenter)
        body = self.ids.body
        if panel.parent is not body:
            body.clear_widgets()  # only the shown panel: a hidden one would still take touches
            body.add_widget(panel)
        panel.view = v
        if kind is TextTypePanel:
            panel.ids.keyboard.send = self.presenter.press
            panel.ids.keyboard.show(v.keys)
        if kind is TextFilesPanel and v.files != self._files_shown:
            self._files_shown = v.files
            box = panel.ids.files
            box.clear_widgets()
            for f in v.files:
                b = BigButton(text=f"{f.label}  \u2014  {f.where}", key=f.key)
                b.bind(on_release=lambda btn: self.presenter.load_file(btn.key))
                box.add_widget(b)
