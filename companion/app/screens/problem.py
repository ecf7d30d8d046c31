"""Something failed out of sight: what happened and what to do. (Layout: problem.kv.)"""

from __future__ import annotations

from pathlib import Path

from .base import PresentedScreen

KV = Path(__file__).with_suffix(".kv")


class ProblemScreen(PresentedScreen):
    pass
