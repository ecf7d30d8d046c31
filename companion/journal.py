"""The crash-safe game journal: every action on disk before it takes effect.

One game is one file of JSON Lines. Each line carries a sequence number, the entry (the
session's start entry or one of its actions, companion.session) and a CRC-32 of both::

    {"seq": 1, "entry": {"type": "start", ...}, "crc": "8d5c0a1e"}
    {"seq": 2, "entry": {"type": "move", "move": "e2e4"}, "crc": "0b7e91f3"}

:meth:`Journal.append` writes the line, flushes it and calls ``os.fsync`` before it returns,
and the session applies an action only after that. So whatever moment the power goes, the file
holds every action the players saw, plus at most one line cut off in the middle.

Reading (:func:`read_journal`) is forgiving the other way round: it keeps every line up to the
first one that is cut off, fails its checksum, is not JSON or breaks the numbering, and says
what was lost from there (:class:`Damage`). :class:`JournalStore` keeps the current game in
``current.jsonl`` of a directory, moves finished games to ``games/``, and on the next start
hands back an unfinished game for the session to replay.
"""

from __future__ import annotations

import json
import os
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Generic, Sequence, TypeVar

from .bounds import load_json
from .errors import RecordError

G = TypeVar("G")

CURRENT = "current.jsonl"
ARCHIVE = "games"


def _canonical(seq: int, entry: dict) -> bytes:
    return json.dumps({"seq": seq, "entry": entry}, sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False).encode("utf-8")


def checksum(seq: int, entry: dict) -> str:
    """CRC-32 (hex, 8 digits) of the line's sequence number and entry in canonical JSON."""
    return f"{zlib.crc32(_canonical(seq, entry)) & 0xFFFFFFFF:08x}"


def format_line(seq: int, entry: dict) -> str:
    """One journal line, newline-terminated."""
    body = json.dumps({"seq": seq, "entry": entry, "crc": checksum(seq, entry)}, ensure_ascii=False,
                      separators=(",", ":"))
    return body + "\n"


def parse_line(line: str, expected_seq: int, where: str = "journal") -> dict:
    """The entry of one line (without its newline); RecordError says what is wrong with it."""
    value = load_json(line, where)
    if not isinstance(value, dict) or set(value) != {"seq", "entry", "crc"}:
        raise RecordError(f"{where}: expected the fields seq, entry and crc")
    seq, entry, crc = value["seq"], value["entry"], value["crc"]
    if not isinstance(entry, dict) or isinstance(seq, bool) or not isinstance(seq, int):
        raise RecordError(f"{where}: seq must be a whole number and entry an object")
    if crc != checksum(seq, entry):
        raise RecordError(f"{where}: the checksum does not match (the line was damaged)")
    if seq != expected_seq:
        raise RecordError(f"{where}: entry number {seq} where {expected_seq} was expected")
    return entry


@dataclass(frozen=True)
class Damage:
    """Where reading stopped and what could not be recovered after that point."""

    line: int  # 1-based line number of the first bad line
    reason: str
    lost_lines: int  # lines from the bad one to the end (a cut-off last line counts)
    lost_bytes: int

    def describe(self) -> str:
        what = "1 entry" if self.lost_lines == 1 else f"{self.lost_lines} entries"
        return f"line {self.line}: {self.reason}; {what} ({self.lost_bytes} bytes) could not be recovered"


@dataclass(frozen=True)
class JournalRead:
    """What a journal file holds: the good entries in order, and the damage if any."""

    path: Path
    entries: list[dict] = field(default_factory=list)
    damage: Damage | None = None
    good_bytes: int = 0


def read_journal(path: str | os.PathLike) -> JournalRead:
    """Read every intact entry up to the first damaged line."""
    path = Path(path)
    data = path.read_bytes()
    entries: list[dict] = []
    offset = 0
    number = 0
    while offset < len(data):
        number += 1
        end = data.find(b"\n", offset)
        where = f"{path.name} line {number}"
        if end < 0:
            return JournalRead(path, entries, Damage(number, "the last entry was cut off while it was being written",
                                                     1, len(data) - offset), offset)
        raw = data[offset:end]
        try:
            entry = parse_line(raw.decode("utf-8"), number, where)
        except (RecordError, UnicodeDecodeError) as e:
            reason = str(e).removeprefix(f"{where}: ") if isinstance(e, RecordError) else "not UTF-8 text"
            lost = data[offset:].count(b"\n") + (0 if data.endswith(b"\n") else 1)
            return JournalRead(path, entries, Damage(number, reason, lost, len(data) - offset), offset)
        entries.append(entry)
        offset = end + 1
    return JournalRead(path, entries, None, offset)


class Journal:
    """An open journal file; :meth:`append` returns only once the line is on the disk."""

    def __init__(self, path: str | os.PathLike, next_seq: int = 1) -> None:
        self.path = Path(path)
        self.next_seq = next_seq
        self._file = open(self.path, "ab")

    def append(self, entry: dict) -> None:
        """Write ``entry`` durably (write, flush, fsync) before the caller acts on it."""
        if self._file is None:
            raise RecordError(f"{self.path.name}: the journal is closed")
        line = format_line(self.next_seq, entry).encode("utf-8")
        self._file.write(line)
        self._file.flush()
        os.fsync(self._file.fileno())
        self.next_seq += 1

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

    @property
    def closed(self) -> bool:
        return self._file is None


def _fsync_dir(directory: Path) -> None:
    """Make a created or renamed file's directory entry durable as well."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


class JournalStore:
    """The journal directory: ``current.jsonl`` (the game in play) and ``games/`` (finished)."""

    def __init__(self, directory: str | os.PathLike) -> None:
        self.directory = Path(directory)

    @property
    def current(self) -> Path:
        return self.directory / CURRENT

    def unfinished(self) -> JournalRead | None:
        """The current game's journal, if there is one with at least one intact entry."""
        if not self.current.exists():
            return None
        read = read_journal(self.current)
        return read

    def create(self) -> Journal:
        """A new, empty current journal (the session writes its start entry first).

        An existing current journal is moved aside to ``games/`` first, never overwritten."""
        self.directory.mkdir(parents=True, exist_ok=True)
        if self.current.exists():
            self.archive("abandoned")
        journal = Journal(self.current)
        _fsync_dir(self.directory)
        return journal

    def reopen(self, read: JournalRead, keep: int | None = None) -> Journal:
        """Continue the current journal after a resume, from its first ``keep`` entries
        (default: every intact one). A damaged tail is saved beside it and cut off, so new
        entries follow straight after the last good one."""
        keep = len(read.entries) if keep is None else keep
        if read.damage is not None or keep < len(read.entries):
            data = read.path.read_bytes()
            saved = self._free_name(self.directory / ARCHIVE, "damaged", ".jsonl")
            saved.parent.mkdir(parents=True, exist_ok=True)
            saved.write_bytes(data)
            tmp = read.path.with_suffix(".tmp")
            with open(tmp, "wb") as f:
                for seq, entry in enumerate(read.entries[:keep], start=1):
                    f.write(format_line(seq, entry).encode("utf-8"))
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, read.path)
            _fsync_dir(self.directory)
        return Journal(read.path, keep + 1)

    def archive(self, name: str, extra: dict[str, str] | None = None) -> Path | None:
        """Move the current journal to ``games/<name>.jsonl`` (plus ``extra`` files, e.g. the
        dice record, as ``games/<name><suffix>``). Returns the archived path."""
        if not self.current.exists():
            return None
        target_dir = self.directory / ARCHIVE
        target_dir.mkdir(parents=True, exist_ok=True)
        target = self._free_name(target_dir, name, ".jsonl")
        for suffix, text in (extra or {}).items():
            side = target.with_name(target.name.removesuffix(".jsonl") + suffix)
            with open(side, "w", encoding="utf-8") as f:
                f.write(text)
                f.flush()
                os.fsync(f.fileno())
        os.replace(self.current, target)
        _fsync_dir(self.directory)
        _fsync_dir(target_dir)
        return target

    @staticmethod
    def _free_name(directory: Path, name: str, suffix: str) -> Path:
        safe = "".join(c if c.isalnum() or c in "-_." else "-" for c in name) or "game"
        candidate = directory / f"{safe}{suffix}"
        n = 1
        while candidate.exists():
            n += 1
            candidate = directory / f"{safe}-{n}{suffix}"
        return candidate


def describe_loss(damage: Damage | None, replay_problem: str | None, used: int, total: int) -> str | None:
    """One sentence for the players about what a resume could not bring back (None: nothing)."""
    parts = []
    if damage is not None:
        parts.append(damage.describe())
    if replay_problem is not None:
        lost = total - used
        parts.append(f"entry {used + 1} could not be replayed ({replay_problem}); {lost} entries dropped")
    return "; ".join(parts) if parts else None


@dataclass
class Resumed(Generic[G]):
    """An unfinished game brought back: the replayed game (None when nothing could be used),
    its journal open for new entries, and what was lost (None: nothing)."""

    game: G | None
    journal: Journal | None
    loss: str | None
    entries: int = 0


def resume(store: JournalStore, replay: Callable[[Sequence[dict]], tuple[G, int, str | None]]) -> Resumed[G] | None:
    """Bring back the store's unfinished game, if any, by ``replay`` of its entries.

    ``replay(entries)`` returns ``(game, used, problem)`` (companion.session.Session.replay);
    entries past ``used`` are dropped from the journal (a copy of the file is kept in
    ``games/``). A journal whose start entry cannot be used is archived whole and reported."""
    read = store.unfinished()
    if read is None:
        return None
    if not read.entries:
        reason = read.damage.describe() if read.damage else "the journal is empty"
        store.archive("damaged")
        return Resumed(None, None, reason)
    try:
        game, used, problem = replay(read.entries)
    except RecordError as e:
        store.archive("damaged")
        return Resumed(None, None, str(e), len(read.entries))
    journal = store.reopen(read, keep=used)
    return Resumed(game, journal, describe_loss(read.damage, problem, used, len(read.entries)), used)
