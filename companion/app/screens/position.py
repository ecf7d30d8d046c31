"""Start from a position: the board, a palette of pieces, the side to move. (Layout:
position.kv.)"""

from __future__ import annotations

from pathlib import Path

from kivy.properties import BooleanProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.label import Label

from .base import PresentedScreen

KV = Path(__file__).with_suffix(".kv")


class PieceButton(ButtonBehavior, Label):
    """One piece of the palette: its glyph in its side's colours; light when chosen."""

    key = StringProperty("")
    owner = NumericProperty(0)
    selected = BooleanProperty(False)


class PositionScreen(PresentedScreen):
    board_view = ObjectProperty(None, allownone=True)

    def refresh(self) -> None:
        super().refresh()
        self.board_view = self.presenter.board()
