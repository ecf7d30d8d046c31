"""Chess 2's army choice: double-blind, then revealed together. (Layout: armies.kv.)"""

from __future__ import annotations

from pathlib import Path

from kivy.properties import ObjectProperty

from ..widgets.common import BigButton
from .base import PresentedScreen

KV = Path(__file__).with_suffix(".kv")


class ArmyButton(BigButton):
    """One army to tap (its view: presenters.armies.ArmyButton; None hides it)."""

    av = ObjectProperty(None, allownone=True)


class ArmiesScreen(PresentedScreen):
    pass
