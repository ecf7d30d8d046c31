"""Pairing with a friend's board: the code large, or the number pad to type it. (Layout: link.kv.)"""

from __future__ import annotations

from pathlib import Path

from .base import PresentedScreen

KV = Path(__file__).with_suffix(".kv")


class LinkScreen(PresentedScreen):
    pass
