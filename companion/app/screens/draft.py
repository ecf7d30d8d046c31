"""The draft screen (Dungeon Chess): one seat's army. (Layout: draft.kv.)"""

from __future__ import annotations

from pathlib import Path

from kivy.properties import ListProperty, ObjectProperty
from kivy.uix.boxlayout import BoxLayout

from ..widgets.common import BigButton
from .base import PresentedScreen

KV = Path(__file__).with_suffix(".kv")


class UnitRow(BoxLayout):
    """One unit of the faction: its code, name and cost, remove, count, add (layout: draft.kv)."""

    unit = ObjectProperty(None, allownone=True)
    colour = ListProperty([0.5, 0.5, 0.5, 1])


class ChoiceButton(BigButton):
    """A button for one presenter Choice (a faction, an army)."""

    choice = ObjectProperty(None, allownone=True)


class DraftScreen(PresentedScreen):
    pass
