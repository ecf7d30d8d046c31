"""The deployment screen (Dungeon Chess): the board and the unit to place next. (Layout: deploy.kv.)"""

from __future__ import annotations

from pathlib import Path

from kivy.properties import ObjectProperty

from .base import PresentedScreen

KV = Path(__file__).with_suffix(".kv")


class DeployScreen(PresentedScreen):
    board_presenter = ObjectProperty(None)
    board_view = ObjectProperty(None, allownone=True)

    def refresh(self) -> None:
        super().refresh()
        self.board_view = self.board_presenter.view()
