"""The arbiter's PIN file, ``arbiter.json`` in the data folder: read, written, reset.

Three states, never confused: **no PIN yet** (no file at all: the first arbiter to open arbiter
mode on the board chooses one), **a PIN** (the file holds exactly the record
companion.tournament.arbiter writes), or **damaged** (anything else where the file should be:
not text, not JSON, nested or numbered past companion.bounds, cut off, empty, the wrong keys or
types, unreadable, a folder, a link to nothing, a device, too large). A damaged file locks
arbiter mode: nobody at the table can set a new PIN over it. The arbiter resets it on the
board's computer with ``companion arbiter --reset-pin`` (companion/arbiter_cli.py), which keeps
the damaged file beside it and writes a new PIN (docs/tournament.md, "The arbiter").

The file is written whole or not at all (a temporary file, synced, renamed) and readable by the
app's user only (it holds the PIN's hash).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from ..bounds import read_small_file
from ..errors import RecordError
from ..i18n import _
from .arbiter import PinRecord
from .files import write_private

NAME = "arbiter.json"
#: A PIN record is about 150 bytes; a file larger than this is not one (and is not read whole).
MAX_BYTES = 4096


@dataclass(frozen=True)
class PinFile:
    """What ``arbiter.json`` holds: ``record`` (None: no PIN), or ``damage`` (why it cannot be
    used; arbiter mode is locked)."""

    record: PinRecord | None = None
    damage: str = ""

    @property
    def locked(self) -> bool:
        return bool(self.damage)


def read_pin(path: str | os.PathLike) -> PinFile:
    """The PIN file's state; never raises (every way it can be wrong is a ``damage``)."""
    try:
        data = read_small_file(path, MAX_BYTES, NAME)
        if data is None:
            return PinFile()  # no PIN set yet
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            return PinFile(damage=_("it is not text"))
        if not text.strip():
            return PinFile(damage=_("it is empty"))
        return PinFile(PinRecord.from_json(text, NAME))
    except RecordError as e:
        return PinFile(damage=str(e).removeprefix(f"{NAME}: "))


def write_pin(path: str | os.PathLike, record: PinRecord) -> Path:
    """Write ``record`` whole (a temporary file, synced, then renamed), readable by this user
    only. Refuses to write over anything but a regular file (OSError)."""
    path = Path(path)
    if os.path.lexists(path) and not path.is_file():
        raise IsADirectoryError(21, _("something that is not a file is there"), str(path))
    return write_private(path, record.to_json())


def set_aside(path: str | os.PathLike) -> Path | None:
    """Move whatever is at ``path`` (a damaged file, a folder, a link) to ``<name>.old-N``
    beside it, to be looked at later; None when nothing is there."""
    path = Path(path)
    if not os.path.lexists(path):
        return None
    n = 1
    while os.path.lexists(path.with_name(f"{path.name}.old-{n}")):
        n += 1
    target = path.with_name(f"{path.name}.old-{n}")
    os.rename(path, target)
    return target


def reset_pin(path: str | os.PathLike, record: PinRecord) -> Path | None:
    """The arbiter's reset: whatever is at ``path`` set aside, ``record`` written in its place.
    Returns where the old file went (None: there was none)."""
    kept = set_aside(path)
    write_pin(path, record)
    return kept


__all__ = ["NAME", "PinFile", "read_pin", "write_pin", "reset_pin", "set_aside"]
