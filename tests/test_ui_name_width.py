"""A player's name in the game screen's PlayerBar is given the room it needs, bold (the player
to move) or not: Kivy shortens a label's text that is wider than its box less 2 px, and a name
measured bold only showed as "B..." for a "Bob" drawn regular (companion/app/screens/game.py's
text_width, game.kv's name Label). Real Kivy text rendering, in its own process (Xvfb)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.ui

ROOT = Path(__file__).resolve().parent.parent

CHECK = """
from kivy.uix.label import Label
from companion.app.screens.game import text_width
cut = []
for name in ("Bob", "Bobby", "Ann", "Eve", "Tom", "Jo", "White", "Black", "Computer", "Zo\\u00eb", "WW", "Wil", "Ivy",
             "Stockfish 1800"):
    for size in (18, 20, 22, 24, 26):
        for bold in (False, True):
            box = Label(text=name, font_size=size, bold=bold, shorten=True)
            box.text_size = (text_width(name, size) + 2, 40)  # as game.kv sets it, once the text is known
            box.texture_update()
            whole = Label(text=name, font_size=size, bold=bold)
            whole.texture_update()
            if box.texture_size[0] < whole.texture_size[0]:
                cut.append((name, size, bold))
print("CUT", cut)
"""


def test_a_short_name_drawn_regular_or_bold_is_never_shortened():
    env = {**os.environ, "KIVY_NO_ARGS": "1", "KIVY_NO_CONSOLELOG": "1", "KIVY_NO_FILELOG": "1"}
    out = subprocess.run([sys.executable, "-c", CHECK], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip().splitlines()[-1] == "CUT []"
