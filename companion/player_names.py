"""The names players typed on this board, remembered for next time (newest first), so a name
is typed once and then picked with one tap like the presets.

Kept as ``names.json`` in the data folder (a JSON list of strings), written whole to a
temporary file and renamed, so a power cut leaves the old list or the new one. A file that
cannot be read is as good as none: names are a convenience, never in the way of a game.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from .bounds import MAX_DATA_FILE_BYTES, load_json, read_text_file
from .errors import CompanionError
from .durable import write_durably
from .i18n import _

FILE = "names.json"
#: How many typed names are kept (the name picker shows them before the presets).
KEEP = 12
#: The longest name kept (the on-screen keyboard stops there too).
MAX_NAME = 40


def clean(name: str) -> str:
    """A typed name as it is kept: one space between words, no control characters."""
    return " ".join("".join(c for c in name if c.isprintable()).split())[:MAX_NAME]


def load(directory: str | os.PathLike, file: str = FILE) -> list[str]:
    """The remembered names, newest first ([] when there are none or the file is unusable);
    ``file``: another list kept the same way (the lichess friends challenged from the board)."""
    path = Path(directory) / file
    try:
        value = load_json(read_text_file(path, MAX_DATA_FILE_BYTES, _("the names file")), FILE)
    except (OSError, UnicodeDecodeError, CompanionError):
        return []
    if not isinstance(value, list):
        return []
    names = [clean(v) for v in value if isinstance(v, str)]
    return [n for i, n in enumerate(names) if n and n not in names[:i]][:KEEP]


def remember(directory: str | os.PathLike, name: str, file: str = FILE) -> list[str]:
    """Put ``name`` first in the remembered names and save them; the new list. OSError when
    the folder cannot be written (the caller says so; nothing else changes)."""
    name = clean(name)
    names = load(directory, file)
    if name:
        names = [name] + [n for n in names if n != name]
    names = names[:KEEP]
    path = Path(directory) / file
    path.parent.mkdir(parents=True, exist_ok=True)
    write_durably(path, json.dumps(names, ensure_ascii=False).encode("utf-8"))
    return names
