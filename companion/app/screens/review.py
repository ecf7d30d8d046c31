"""A saved game, move by move, on the screen and on the board's LEDs. (Layout: review.kv.)"""

from __future__ import annotations

from pathlib import Path

from kivy.properties import ObjectProperty

from .base import PresentedScreen

KV = Path(__file__).with_suffix(".kv")


class ReviewScreen(PresentedScreen):
    board_view = ObjectProperty(None, allownone=True)

    def refresh(self) -> None:
        super().refresh()
        self.board_view = self.presenter.board()
