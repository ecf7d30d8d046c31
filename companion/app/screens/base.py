"""A screen shows its presenter's view; ``refresh`` asks for a new one when the flow changed."""

from __future__ import annotations

from kivy.properties import ObjectProperty
from kivy.uix.screenmanager import Screen


class PresentedScreen(Screen):
    presenter = ObjectProperty(None)
    view = ObjectProperty(None, allownone=True)

    def refresh(self) -> None:
        if self.presenter is not None:
            self.view = self.presenter.view()
