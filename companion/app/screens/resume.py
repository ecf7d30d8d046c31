"""An unfinished game found at start. (Layout: resume.kv.)"""

from __future__ import annotations

from pathlib import Path

from .base import PresentedScreen

KV = Path(__file__).with_suffix(".kv")


class ResumeScreen(PresentedScreen):
    pass
