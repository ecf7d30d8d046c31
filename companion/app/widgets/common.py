"""Small widgets every screen uses: big flat buttons, wrapping labels (styled in common.kv) and
the on-screen keyboard's keys."""

from __future__ import annotations

from pathlib import Path

from kivy.app import App
from kivy.properties import BooleanProperty, ListProperty, ObjectProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label

KV = Path(__file__).with_suffix(".kv")


def fitting_font_size(text: str, size: float, smallest: float, room: float) -> float:
    """The largest font size from ``size`` down to ``smallest`` at which every word of ``text``
    fits ``room`` pixels, so that a long word (German: "Aufgabe", "Brettprüfung") is set a
    little smaller rather than broken between letters; ``smallest`` when none does (the screen
    walk then names the word). A text whose words fit keeps ``size``."""
    from kivy.core.text import Label as CoreLabel

    words = [w for w in text.split() if "[" not in w]  # markup is never shrunk
    if not words or room <= 0:
        return size
    widest = max(words, key=len)
    width = CoreLabel(font_size=size).get_extents(widest)[0]
    if width <= room:
        longest = max(CoreLabel(font_size=size).get_extents(w)[0] for w in words)
        if longest <= room:
            return size
        width = longest
    return max(smallest, size * room / width * 0.98)


class TextLabel(Label):
    """A label that wraps to its width and grows to its text's height."""


class BigButton(ButtonBehavior, Label):
    """A flat button at least ``app.button_h`` high. ``selected`` draws it light with dark
    text and a check mark; ``primary`` is the screen's main action."""

    selected = BooleanProperty(False)
    primary = BooleanProperty(False)
    hidden = BooleanProperty(False)  # not drawn and not touchable (keeps its place in a layout)
    danger = BooleanProperty(False)
    glyph = StringProperty("")
    glyph_colour = ListProperty([1, 1, 1, 1])
    glyph_outline = ListProperty([0, 0, 0, 1])
    key = StringProperty("")  # what the button stands for, when its text is not unique ("add:hero")

    def on_touch_down(self, touch):
        if self.hidden:
            return False
        return super().on_touch_down(touch)


class Keyboard(BoxLayout):
    """The on-screen keyboard (companion.app.presenters.entry: its ``key_rows``), one row of
    buttons per row of keys, each as wide as its key; a tap calls ``send(key)``. Rebuilt only
    when the keys change (a shift, the second page)."""

    send = ObjectProperty(None)  # send(key): what a tap on a key calls

    def __init__(self, **kw):
        kw.setdefault("orientation", "vertical")
        super().__init__(**kw)
        self._shown = None

    def show(self, rows) -> None:
        if rows == self._shown:
            return
        self._shown = rows
        self.clear_widgets()
        app = App.get_running_app()
        for row in rows:
            line = BoxLayout(spacing=self.spacing)
            for k in row:
                button = BigButton(text=k.label, key=k.key, size_hint_y=1, size_hint_x=k.wide)
                if app is not None and any(ord(c) > 0x2000 for c in k.label):  # arrows: not in Roboto
                    button.font_name = app.glyph_font
                button.bind(on_release=lambda b: self.send(b.key) if self.send else None)
                line.add_widget(button)
            self.add_widget(line)


class ChoiceRow(BoxLayout):
    """A row of buttons, one per choice (``choices``: values with ``key``, ``label`` and
    ``selected``, such as the start screen's games), built from the view so that a new choice
    needs no layout; a tap fires ``on_choose(key)``. Labels wrap to two lines when they must."""

    choices = ObjectProperty((), allownone=True)
    __events__ = ("on_choose",)

    def __init__(self, **kw):
        super().__init__(**kw)
        self._keys: tuple = ()
        self.bind(choices=self._update)

    def _update(self, *_):
        choices = tuple(self.choices or ())
        keys = tuple(c.key for c in choices)
        if keys != self._keys:
            self.clear_widgets()
            for c in choices:
                button = BigButton(size_hint_y=1, key=c.key)
                app = App.get_running_app()
                button.font_size = app.fs_small
                app.bind(fs_small=button.setter("font_size"))  # a larger window: larger words
                button.bind(on_release=lambda b: self.dispatch("on_choose", b.key))
                self.add_widget(button)
            self._keys = keys
        for button, c in zip(self.children[::-1], choices):
            button.text, button.selected = c.label, c.selected

    def on_choose(self, key: str) -> None:
        pass
