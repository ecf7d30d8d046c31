"""The game screen: the board mirror and the side panel. (Layout: game.kv.)"""

from __future__ import annotations

from pathlib import Path

from kivy.app import App
from kivy.core.text import Label as CoreLabel
from kivy.properties import ObjectProperty
from kivy.utils import escape_markup

from .base import PresentedScreen

KV = Path(__file__).with_suffix(".kv")


def text_width(text: str, font_size: float) -> float:
    """How wide ``text`` is drawn on one line, bold or not (a name given the room it needs,
    whichever it is drawn in: the player to move's name is bold). Kivy's ``shorten`` keeps 2 px
    free besides: give a label this plus 2. (Measured bold only, "Bob" got 1 px too few when
    drawn regular and showed as "B...".)"""
    if not text:
        return 0
    return max(CoreLabel(font_size=font_size, bold=bold).get_extents(text)[0] for bold in (False, True))


class GameScreen(PresentedScreen):
    board_presenter = ObjectProperty(None)
    board_view = ObjectProperty(None, allownone=True)

    def refresh(self) -> None:
        super().refresh()
        self.board_view = self.board_presenter.view()
        rows = self.view.moves if self.view else ()
        marks = self.view.marks if self.view else ()
        self.ids.moves.data = [{"number": r[0], "white": _cell(r[1], m[0]), "black": _cell(r[2], m[1])}
                               for r, m in zip(rows, marks)]
        moves = self.ids.moves
        # newest move in view: scroll to the end once the list is longer than its box
        moves.scroll_y = 0 if len(rows) * self.ids.moves.layout_manager.default_size[1] > moves.height else 1


def _cell(san: str, mark: str) -> str:
    """A move with its fight's result in small grey letters (Kivy markup)."""
    if not mark:
        return escape_markup(san)
    return f"{escape_markup(san)} [size={int(App.get_running_app().fs_small * 0.85)}][color=#b0b0b8]{escape_markup(mark)}[/color][/size]"
