"""Start screen: game, players, dice; then Start. (Layout: start.kv.)"""

from __future__ import annotations

from pathlib import Path

from kivy.properties import NumericProperty, ObjectProperty
from kivy.uix.boxlayout import BoxLayout

from ..widgets.popups import NamePopup
from .base import PresentedScreen

KV = Path(__file__).with_suffix(".kv")


class SeatControl(BoxLayout):
    """One seat, the same in every game: its colour, name, and who plays it (layout: start.kv)."""

    seat = NumericProperty(0)
    sv = ObjectProperty(None, allownone=True)


class StartScreen(PresentedScreen):
    names_popup = ObjectProperty(None, allownone=True)

    def refresh(self) -> None:
        super().refresh()
        v = self.view
        if v is not None and v.names and self.names_popup is None:
            self.names_popup = NamePopup()
            self.names_popup.show(v.picking_for, v.names, self._picked, self._type)

    def _type(self) -> None:
        self.names_popup = None
        self.presenter.type_name()

    def _picked(self, name) -> None:
        self.names_popup = None
        self.presenter.pick_name(name)
