"""Arbiter mode: clocks, penalties, results, takebacks and the record. (Layout: arbiter.kv.)"""

from __future__ import annotations

from pathlib import Path

from kivy.properties import NumericProperty, ObjectProperty
from kivy.uix.boxlayout import BoxLayout

from ..widgets.common import TextLabel
from .base import PresentedScreen

KV = Path(__file__).with_suffix(".kv")


class ArbiterSideBox(BoxLayout):
    """One player's clock and the arbiter's buttons for it (layout: arbiter.kv)."""

    side = NumericProperty(0)
    line = ObjectProperty(None, allownone=True)


class ArbiterScreen(PresentedScreen):
    def refresh(self) -> None:
        super().refresh()
        box = self.ids.log
        box.clear_widgets()
        for text in (self.view.log if self.view else ()):
            box.add_widget(TextLabel(text=text, font_size=max(12, self._fs())))

    @staticmethod
    def _fs() -> float:
        from kivy.app import App

        return App.get_running_app().fs_small
