"""Small widgets every screen uses: big flat buttons and wrapping labels (styled in common.kv)."""

from __future__ import annotations

from pathlib import Path

from kivy.properties import BooleanProperty, ListProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.label import Label

KV = Path(__file__).with_suffix(".kv")


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
