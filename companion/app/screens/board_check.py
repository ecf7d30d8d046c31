"""The board check: live switches and an LED walk. (Layout: board_check.kv.)"""

from __future__ import annotations

from pathlib import Path

from kivy.properties import ObjectProperty

from .base import PresentedScreen

KV = Path(__file__).with_suffix(".kv")


class BoardCheckScreen(PresentedScreen):
    board_view = ObjectProperty(None, allownone=True)

    def refresh(self) -> None:
        super().refresh()
        self.board_view = self.presenter.board()
