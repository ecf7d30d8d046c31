"""The coach's row (layout: coach_panel.kv): one widget in the same place on every game screen
(the chess screen and the map screen of Dungeon Chess, KoL Chess, four-player chess), showing a
companion.app.presenters.game.CoachLine (or nothing: None) and calling its screen's presenter
(a companion.app.presenters.game.CoachControls)."""

from __future__ import annotations

from pathlib import Path

from kivy.properties import ObjectProperty
from kivy.uix.boxlayout import BoxLayout

KV = Path(__file__).with_suffix(".kv")


class CoachRow(BoxLayout):
    """A row of the coach's (its buttons, its words): shows a CoachLine, or nothing (None)."""

    coach = ObjectProperty(None, allownone=True)


class CoachPanel(BoxLayout):
    """The coach's buttons (Coach, Hint, Undo it) above its words and the hint's progress."""

    coach = ObjectProperty(None, allownone=True)
    presenter = ObjectProperty(None, allownone=True)  # toggle_coach(), hint(), undo_blunder()
