"""The end of the game. (Layout: game_over.kv.)"""

from __future__ import annotations

from pathlib import Path

from kivy.properties import ObjectProperty

from .base import PresentedScreen

KV = Path(__file__).with_suffix(".kv")


class GameOverScreen(PresentedScreen):
    board_presenter = ObjectProperty(None)
    board_view = ObjectProperty(None, allownone=True)

    def refresh(self) -> None:
        super().refresh()
        self.board_view = self.board_presenter.view()
