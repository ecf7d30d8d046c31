"""The table screen: casual or tournament, the clock, event, round, board, ratings, a pairing
file. (Layout: table_setup.kv.)"""

from __future__ import annotations

from pathlib import Path

from .base import PresentedScreen

KV = Path(__file__).with_suffix(".kv")


class TableSetupScreen(PresentedScreen):
    pass
