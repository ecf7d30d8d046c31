"""The fight screen: fighters, dice, modifiers, odds, the roll. (Layout: fight.kv.)

The dice animation is the only thing that runs on its own here: for a short moment the dice
show random faces (for the eye only; the real faces are already decided and journaled), then
the real ones, and the presenter is told so that the board may show the result.
"""

from __future__ import annotations

import random
from pathlib import Path

from kivy.clock import Clock
from kivy.properties import ListProperty, NumericProperty

from ..widgets.common import BigButton
from .base import PresentedScreen

KV = Path(__file__).with_suffix(".kv")

ANIMATION_SECONDS = 0.9
ANIMATION_STEP = 0.07


class FightScreen(PresentedScreen):
    shown_faces = ListProperty([])  # per fighter: the faces on screen (random while rolling)
    animation_left = NumericProperty(0)

    def refresh(self) -> None:
        super().refresh()
        v = self.view
        if v is None:
            return
        if v.phase == "rolling" and self.animation_left <= 0:
            self.animation_left = ANIMATION_SECONDS
            Clock.schedule_interval(self._animate, ANIMATION_STEP)
        if v.phase != "rolling":
            self.shown_faces = [list(f.faces) for f in (v.attacker, *v.defenders)]
        self._fill_pad(v)

    def _animate(self, dt) -> bool:
        v = self.view
        self.animation_left -= dt
        if v is None or self.animation_left <= 0:
            self.animation_left = 0
            self.presenter.animation_done()
            return False
        self.shown_faces = [[random.randint(1, f.sides) for _ in (f.faces or (0,))] for f in (v.attacker, *v.defenders)]
        return True

    def _fill_pad(self, v) -> None:
        pad = self.ids.pad
        entry = v.entry
        wanted = entry.sides if entry is not None and not entry.complete else 0
        if len(pad.children) != wanted:
            pad.clear_widgets()
            for face in range(1, wanted + 1):
                b = BigButton(text=str(face), font_size=self.ids.action.font_size * 1.2)
                b.size_hint_y = 1  # as tall as the row, like the buttons beside the pad
                b.bind(on_release=lambda _b, n=face: self.presenter.enter(n))
                pad.add_widget(b)
