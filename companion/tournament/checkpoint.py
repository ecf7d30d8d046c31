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

The app writes it through :class:`CheckpointWriter`, a thread of its own: a write with fsync
takes tens of milliseconds on a Raspberry Pi's SD card, too long for the UI thread, which only
hands the latest value over (the latest value wins; one write at a time, in order with
:meth:`CheckpointWriter.clear`).

Reading it back (:func:`read_checkpoint_state`) tells three cases apart: no file (nothing to
restore: the clock was not running, or had just been pressed), a checkpoint (the newest intact
slot; a slot torn by the power cut is expected and skipped), and a **damaged** file (there, but
no slot in it can be read: not a file, unreadable, empty, garbage). A damaged file is said on
screen: the clock could not be restored, the times are the journal's, the arbiter may set them
(companion/app/presenters/clock_room.py); the file is then set aside (:func:`set_aside`).
"""

from __future__ import annotations

import json
import os
import shutil
import threading
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from ..bounds import load_json, read_small_file
from ..errors import RecordError
from ..i18n import _

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
        value = load_json(raw.decode("utf-8").strip(), NAME)
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


class CheckpointWriter:
    """Writes a :class:`CheckpointFile` on a thread of its own, so that the UI thread never
    waits for the disk. :meth:`put` hands over the latest value and returns at once; a value
    not yet written when the next one comes is replaced by it (only the newest checkpoint is
    of use after a power cut). One write at a time, each atomic as the file's own; a
    :meth:`clear` is done in order with the writes (a value put before it is dropped, one put
    after it is written after it). A failed write is reported once (:meth:`take_error`, the
    reason in one line) until a write succeeds again; the journal still holds the game and the
    next value is written anew. ``on_written`` (if given) is called on the writer thread with
    each checkpoint once it is on the disk. The thread starts with the first value."""

    def __init__(self, file: CheckpointFile, on_written: Callable[[ClockCheckpoint], None] | None = None) -> None:
        self.file = file
        self.on_written = on_written
        self._cond = threading.Condition()
        self._value: tuple | None = None
        self._clear = False
        self._busy = False
        self._closed = False
        self._thread: threading.Thread | None = None
        self._failing = False
        self._error: str | None = None
        self.writes = 0  # written to the disk
        self.replaced = 0  # put, then replaced by a newer value before it was written

    def put(self, entries: int, running: int, moves: tuple[int, ...], spent: int) -> None:
        with self._cond:
            if self._closed:
                return
            if self._value is not None:
                self.replaced += 1
            self._value = (entries, running, tuple(moves), spent)
            self._start()
            self._cond.notify_all()

    def clear(self) -> None:
        """The game is over or put away: forget its checkpoint (and any value not yet written)."""
        with self._cond:
            self._value = None
            if self._thread is None:  # nothing was ever handed over: no thread for a game without a clock
                self.file.clear()
                return
            self._clear = True
            self._cond.notify_all()

    def flush(self, timeout: float | None = 10.0) -> bool:
        """Wait until everything handed over is done (False: still busy after ``timeout``)."""
        with self._cond:
            return self._cond.wait_for(lambda: self._idle() or self._thread is None, timeout)

    def close(self) -> None:
        """Write what is pending, stop the thread, close the file."""
        with self._cond:
            self._closed = True
            self._cond.notify_all()
            thread = self._thread
        if thread is not None:
            thread.join(10.0)
        if thread is None or not thread.is_alive():
            self.file.close()

    def take_error(self) -> str | None:
        """The reason the last write failed, once (None: nothing new to report)."""
        with self._cond:
            error, self._error = self._error, None
            return error

    def _idle(self) -> bool:
        return self._value is None and not self._clear and not self._busy

    def _start(self) -> None:
        if self._thread is None and not self._closed:
            self._thread = threading.Thread(target=self._run, name="clock-checkpoint", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(lambda: self._value is not None or self._clear or self._closed)
                if self._value is None and not self._clear:
                    return  # closed, nothing pending
                clear, value = self._clear, self._value
                self._clear, self._value, self._busy = False, None, True
            written = None
            try:
                if clear:
                    self.file.clear()
                if value is not None:
                    written = self.file.write(*value)
                failed = None
            except OSError as e:
                failed = f"{e.strerror or e}" + (f": {e.filename}" if e.filename else "")
            if written is not None and self.on_written is not None:
                self.on_written(written)  # before flush() returns
            with self._cond:
                self._busy = False
                if failed is None:
                    self._failing = False
                    self.writes += written is not None
                elif not self._failing:
                    self._failing, self._error = True, failed
                self._cond.notify_all()


@dataclass(frozen=True)
class CheckpointState:
    """What the checkpoint file holds: the newest intact ``checkpoint`` (None: none), and
    ``damage`` when the file is there but none of it can be read (why, in a few words)."""

    checkpoint: ClockCheckpoint | None = None
    damage: str = ""


def read_checkpoint_state(path: str | os.PathLike) -> CheckpointState:
    """The checkpoint file's state; never raises."""
    try:
        data = read_small_file(path, 2 * SLOT, NAME, whole=False)
    except RecordError as e:
        return CheckpointState(damage=str(e).removeprefix(f"{NAME}: "))
    if data is None:
        return CheckpointState()
    found = [_decode(data[i:i + SLOT]) for i in range(0, len(data), SLOT)]
    found = [cp for cp in found if cp is not None]
    if found:
        return CheckpointState(max(found, key=lambda cp: cp.counter))
    return CheckpointState(damage=_("it is empty") if not data.strip() else _("nothing in it can be read"))


def read_checkpoint(path: str | os.PathLike) -> ClockCheckpoint | None:
    """The newest intact checkpoint in the file (None: no file, or nothing readable)."""
    return read_checkpoint_state(path).checkpoint


def set_aside(path: str | os.PathLike) -> Path | None:
    """Move a damaged checkpoint file (or what stands in its place) to ``<name>.damaged``
    beside it, replacing an older one, so the next checkpoint is written anew; None when there
    was nothing, or it could not be moved (the writer then says it cannot save)."""
    path = Path(path)
    target = path.with_name(path.name + ".damaged")
    try:
        if target.is_dir() and not target.is_symlink():
            shutil.rmtree(target)
        os.replace(path, target)
    except OSError:
        return None
    return target


def spent_to_restore(cp: ClockCheckpoint | None, entries: int, running: int | None, moves) -> int | None:
    """The checkpoint's thinking time if it belongs to the replayed game's last entry and the
    same side on the same move, else None (use the journal's own time)."""
    if cp is None or running is None or cp.entries != entries or cp.running != running or cp.moves != tuple(moves):
        return None
    return cp.spent
