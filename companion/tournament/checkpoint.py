"""Where the running clock stood, kept on disk between journal entries (for a power cut).

The journal records every action, but between two actions a player thinks, and nothing is
written. So that a power cut costs nobody the time they had, the app writes a small
checkpoint about every half second while a clock counts: which side runs, its moves, and how
long it has been thinking on this move (``spent``), tied to the number of journal entries it
follows. On the next start the game is replayed from the journal and, if the checkpoint
belongs to its last entry, the clock is paused with the checkpoint's time
(companion.tournament.table.Table.after_power_cut).

The file has two fixed-size slots written in turn (``os.pwrite`` of one slot, then fsync), each
a JSON line with a counter and a CRC-32: a write cut off by the power damages at most the slot
being written, and the other one still holds the previous checkpoint.
"""

from __future__ import annotations

import json
import os
import zlib
from dataclasses import dataclass
from pathlib import Path

SLOT = 192
NAME = "clock.checkpoint"


@dataclass(frozen=True)
class ClockCheckpoint:
    entries: int  # journal entries written when it was taken
    running: int
    moves: tuple[int, ...]
    spent: int  # ms the running side had thought on its move
    counter: int = 0

    def to_json(self) -> dict:
        return {"entries": self.entries, "running": self.running, "moves": list(self.moves), "spent": self.spent,
                "counter": self.counter}


def _encode(cp: ClockCheckpoint) -> bytes:
    body = json.dumps(cp.to_json(), sort_keys=True, separators=(",", ":"))
    line = json.dumps({"cp": json.loads(body), "crc": f"{zlib.crc32(body.encode()) & 0xFFFFFFFF:08x}"},
                      separators=(",", ":")).encode()
    if len(line) >= SLOT:
        raise ValueError("a clock checkpoint is too large for its slot")
    return line + b" " * (SLOT - 1 - len(line)) + b"\n"


def _decode(raw: bytes) -> ClockCheckpoint | None:
    try:
        value = json.loads(raw.decode("utf-8").strip())
        cp = value["cp"]
        body = json.dumps(cp, sort_keys=True, separators=(",", ":"))
        if value["crc"] != f"{zlib.crc32(body.encode()) & 0xFFFFFFFF:08x}":
            return None
        ints = [cp["entries"], cp["running"], cp["spent"], cp["counter"], *cp["moves"]]
        if not all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in ints):
            return None
        return ClockCheckpoint(cp["entries"], cp["running"], tuple(cp["moves"]), cp["spent"], cp["counter"])
    except (ValueError, KeyError, TypeError, UnicodeDecodeError, RecursionError):
        return None


class CheckpointFile:
    """The two-slot checkpoint file; :meth:`write` returns once the slot is on the disk."""

    def __init__(self, path: str | os.PathLike, *, sync: bool = True) -> None:
        self.path = Path(path)
        self.sync = sync
        self._fd: int | None = None
        self._counter = 0
        latest = read_checkpoint(self.path)
        if latest is not None:
            self._counter = latest.counter

    def write(self, entries: int, running: int, moves: tuple[int, ...], spent: int) -> ClockCheckpoint:
        if self._fd is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        self._counter += 1
        cp = ClockCheckpoint(entries, running, tuple(moves), spent, self._counter)
        os.pwrite(self._fd, _encode(cp), (self._counter % 2) * SLOT)
        if self.sync:
            os.fsync(self._fd)
        return cp

    def clear(self) -> None:
        """The game is over or put away: no checkpoint belongs to the next one."""
        self.close()
        try:
            self.path.unlink()
        except OSError:
            pass  # no file (or no folder): nothing to forget
        self._counter = 0

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def read_checkpoint(path: str | os.PathLike) -> ClockCheckpoint | None:
    """The newest intact checkpoint in the file (None: no file, or nothing readable)."""
    try:
        data = Path(path).read_bytes()
    except OSError:
        return None
    found = [_decode(data[i:i + SLOT]) for i in range(0, min(len(data), 2 * SLOT), SLOT)]
    found = [cp for cp in found if cp is not None]
    return max(found, key=lambda cp: cp.counter) if found else None


def spent_to_restore(cp: ClockCheckpoint | None, entries: int, running: int | None, moves) -> int | None:
    """The checkpoint's thinking time if it belongs to the replayed game's last entry and the
    same side on the same move, else None (use the journal's own time)."""
    if cp is None or running is None or cp.entries != entries or cp.running != running or cp.moves != tuple(moves):
        return None
    return cp.spent
