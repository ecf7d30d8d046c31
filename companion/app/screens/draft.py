"""The draft screen (Dungeon Chess): one seat's army. (Layout: draft.kv.)"""

from __future__ import annotations

from pathlib import Path

from .base import PresentedScreen

KV = Path(__file__).with_suffix(".kv")


class DraftScreen(PresentedScreen):
    pass
