"""The games screen: the saved games, newest first, and what can be done with one. (Layout:
games.kv.)"""

from __future__ import annotations

from pathlib import Path

from kivy.app import App

from ..widgets.common import BigButton
from .base import PresentedScreen

KV = Path(__file__).with_suffix(".kv")


class GamesScreen(PresentedScreen):
    def refresh(self) -> None:
        super().refresh()
        rows = self.view.rows if self.view else ()
        box = self.ids.rows
        shown = [(r.title, r.detail, r.selected) for r in rows]
        if getattr(self, "_shown", None) == shown:
            return
        self._shown = shown
        box.clear_widgets()
        app = App.get_running_app()
        for i, row in enumerate(rows):
            small = int(app.fs_small)
            b = BigButton(text=f"{row.title}\n[size={small}]{row.detail}[/size]", markup=True, halign="left",
                          selected=row.selected, key=f"game:{i}", font_size=app.fs)
            b.height = app.button_h * 1.25
            b.bind(on_release=lambda _b, n=i: self.presenter.select(n))
            box.add_widget(b)
