"""The Dungeon Chess game screen: the board (up to 20x20) and the side panel for 2 to 4
players. (Layout: dungeon_game.kv.)"""

from __future__ import annotations

from pathlib import Path

from kivy.properties import ObjectProperty
from kivy.uix.boxlayout import BoxLayout

from .base import PresentedScreen

KV = Path(__file__).with_suffix(".kv")


class PlayerChip(BoxLayout):
    """One player: colour, name, units left or "out" (layout: dungeon_game.kv)."""

    chip = ObjectProperty(None, allownone=True)


class DungeonGameScreen(PresentedScreen):
    board_presenter = ObjectProperty(None)
    board_view = ObjectProperty(None, allownone=True)

    def refresh(self) -> None:
        super().refresh()
        self.board_view = self.board_presenter.view()
