"""The lichess screen: connect the board's account, seek, challenge, answer challenges.
(Layout: online.kv; presenter: companion/app/presenters/online.py.) One panel is in the body
at a time (a hidden panel would still take touches): connecting, the lobby, or a message."""

from __future__ import annotations

from pathlib import Path

from kivy.factory import Factory
from kivy.properties import ObjectProperty
from kivy.uix.boxlayout import BoxLayout

from .base import PresentedScreen

KV = Path(__file__).with_suffix(".kv")
PANELS = {"connect": "OnlineConnectPanel", "lobby": "OnlineLobbyPanel", "checking": "OnlineMessagePanel",
          "problem": "OnlineMessagePanel"}


class OnlineChallengeRow(BoxLayout):
    """A challenge sent to the board, with Accept and Decline (layout: online.kv); ``line`` is
    None when the row is empty (the challenge answered, or none)."""

    line = ObjectProperty(None, allownone=True)


class OnlineScreen(PresentedScreen):
    def refresh(self) -> None:
        super().refresh()
        if self.view is None:
            return
        body = self.ids.body
        name = PANELS[self.view.mode]
        if not body.children or type(body.children[0]).__name__ != name:
            body.clear_widgets()
            body.add_widget(getattr(Factory, name)())
        panel = body.children[0]
        panel.view = self.view
        panel.presenter = self.presenter
