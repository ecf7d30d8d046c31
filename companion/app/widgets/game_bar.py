"""The game bar (layout: game_bar.kv): one widget on every game screen, showing a
companion.app.presenters.game_bar.GameBarView."""

from __future__ import annotations

from pathlib import Path

from kivy.properties import ObjectProperty
from kivy.uix.gridlayout import GridLayout

KV = Path(__file__).with_suffix(".kv")


class GameBar(GridLayout):
    bar = ObjectProperty(None, allownone=True)
