"""Chess 2's duel: who takes what, the stones, the offer, the secret bids or the real stones
entered, the bluff's reward, the result. (Layout: duel.kv.)"""

from __future__ import annotations

from pathlib import Path

from kivy.properties import NumericProperty, ObjectProperty
from kivy.uix.boxlayout import BoxLayout

from ..widgets.common import BigButton
from .base import PresentedScreen

KV = Path(__file__).with_suffix(".kv")


class DuelCard(BoxLayout):
    """One side of the duel (presenters.chess2.DuelSide) and, with real stones, its fist's row."""

    side = ObjectProperty(None, allownone=True)
    fist = ObjectProperty(None, allownone=True)


class FistButton(BigButton):
    """What a fist showed (0, 1 or 2), for the player of ``fist``."""

    fist = ObjectProperty(None, allownone=True)
    index = NumericProperty(0)


class DuelChoice(BigButton):
    """A button of the offer, of the bluff, or a secret bid (None hides it)."""

    choice = ObjectProperty(None, allownone=True)


class DuelScreen(PresentedScreen):
    @staticmethod
    def fist_of(view, player: int):
        """Real stones: the row to tap for ``player``'s fist (None when it is not asked)."""
        if view is None:
            return None
        return next((row for row in view.fists if row.player == player), None)
