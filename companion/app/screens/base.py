"""A screen shows its presenter's view; ``refresh`` asks for a new one when the flow changed.
Screens with the game bar (companion/app/widgets/game_bar.kv) bind it to ``bar_view``; the
warning strip (a Banner: the board is not connected, space is low) to ``banner``."""

from __future__ import annotations

from kivy.app import App
from kivy.properties import ObjectProperty, StringProperty
from kivy.uix.screenmanager import Screen


class PresentedScreen(Screen):
    presenter = ObjectProperty(None)
    view = ObjectProperty(None, allownone=True)
    bar_view = ObjectProperty(None, allownone=True)
    #: the warning strip every screen may show (the board is gone, space is low): flow.display.banner
    banner = StringProperty("")

    def refresh(self) -> None:
        if self.presenter is not None:
            self.view = self.presenter.view()
        app = App.get_running_app()
        presenters = getattr(app, "presenters", None)
        if presenters is not None:
            self.bar_view = presenters.bar.view()
        flow = getattr(app, "flow", None)
        if flow is not None:
            self.banner = flow.display.banner
