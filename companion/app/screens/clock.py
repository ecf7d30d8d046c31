"""The chess clock: two big halves, the status and the buttons. (Layout: clock.kv.)"""

from __future__ import annotations

from pathlib import Path

from kivy.properties import NumericProperty, ObjectProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout

from .base import PresentedScreen

KV = Path(__file__).with_suffix(".kv")


class ClockFace(ButtonBehavior, BoxLayout):
    """One player's half: tapped to press the clock (layout: clock.kv)."""

    position = NumericProperty(0)
    half = ObjectProperty(None, allownone=True)


class ClockHalf(BoxLayout):
    """A face and, in a tournament, its player's own buttons (layout: clock.kv)."""

    position = NumericProperty(0)
    half = ObjectProperty(None, allownone=True)
    tournament = ObjectProperty(False)


class ClockScreen(PresentedScreen):
    pass
