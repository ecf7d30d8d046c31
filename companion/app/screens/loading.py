"""Shown for the moment between the start and the first screen (or while a game loads)."""

from __future__ import annotations

from pathlib import Path

from .base import PresentedScreen

KV = Path(__file__).with_suffix(".kv")


class LoadingScreen(PresentedScreen):
    pass
