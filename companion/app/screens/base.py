"""A screen shows its presenter's view; ``refresh`` asks for a new one when the flow changed.
Screens with the game bar (companion/app/widgets/game_bar.kv) bind it to ``bar_view``."""

from __future__ import annotations

from kivy.app import App
from kivy.properties import ObjectProperty
from kivy.uix.screenmanager import Screen


class PresentedScreen(Screen):
    presenter = ObjectProperty(None)
    view = ObjectProperty(None, allownone=True)
    bar_view = ObjectProperty(None, allownone=True)

    def refresh(self) -> None:
        if self.presenter is not None:
            self.view = self.presenter.view()
        presenters = getattr(App.get_running_app(), "presenters", None)
        if presenters is not None:
            self.bar_view = presenters.bar.view()
