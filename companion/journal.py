"""The crash-safe game journal: every action on disk before it takes effect.

One game is one file of JSON Lines. Each line carries a sequence number, the entry (the
session's start entry or one of its actions, companion.session) and a CRC-32 of both::

    {"seq": 1, "entry": {"type": "start", ...}, "crc": "8d5c0a1e"}
    {"seq": 2, "entry": {"type": "move", "move": "e2e4"}, "crc": "0b7e91f3"}

:meth:`Journal.append` writes the line in one unbuffered call and calls ``os.fsync`` before it
returns, and the session applies an action only after that. So whatever moment the power goes,
the file holds every action the players saw, plus at most one line cut off in the middle. An
append that fails (a full SD card, a file-size limit, an I/O error) cuts the file back to its
last good length before it reports the failure, so the file is exactly as it was: the refused
action is not in it, and the next one follows straight after the last good line.

Reading (:func:`read_journal`) is forgiving the other way round: it keeps every line up to the
first one that is cut off, fails its checksum, is not JSON or breaks the numbering, and says
what was lost from there (:class:`Damage`). :class:`JournalStore` keeps the current game in
``current.jsonl`` of a directory, moves finished games to ``games/``, and on the next start
hands back an unfinished game for the session to replay.
"""

from __future__ import annotations

import json
import os
import stat
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Generic, Sequence, TypeVar

from .bounds import MAX_JOURNAL_BYTES, MAX_LINE_BYTES, load_json
from .durable import fsync_dir
from .errors import CompanionError, RecordError
from .i18n import _, ngettext

G = TypeVar("G")

CURRENT = "current.jsonl"
ARCHIVE = "games"

#: Below this many free bytes where games are saved, the screen warns that space is low. A
#: journal line is 60 to 400 bytes, so a long game (500 actions) and its dice record take
#: about 0.2 MB: 20 MB is room for about a hundred more games, time enough to make room.
LOW_SPACE_BYTES = 20 * 1024 * 1024
#: Below this, the warning says the storage is full: a save may fail at any move (the
#: operating system's own files and logs share the card), so players should make room now.
FULL_SPACE_BYTES = 1024 * 1024


def free_space(directory: str | os.PathLike) -> int | None:
    """Bytes an ordinary user may still write where ``directory`` is (or would be created);
    None when it cannot be told."""
    path = Path(directory)
    while not path.exists() and path != path.parent:
        path = path.parent
    try:
        st = os.statvfs(path)
    except (OSError, AttributeError):  # no statvfs (not POSIX), or the path vanished
        return None
    return st.f_bavail * st.f_frsize


def space_level(free: int | None) -> str | None:
    """``"full"`` below :data:`FULL_SPACE_BYTES`, ``"low"`` below :data:`LOW_SPACE_BYTES`,
    else None (also when the free space is not known)."""
    if free is None or free >= LOW_SPACE_BYTES:
        return None
    return "full" if free < FULL_SPACE_BYTES else "low"


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
        raise RecordError(_("{where}: expected the fields seq, entry and crc").format(where=where))
    seq, entry, crc = value["seq"], value["entry"], value["crc"]
    if not isinstance(entry, dict) or isinstance(seq, bool) or not isinstance(seq, int):
        raise RecordError(_("{where}: seq must be a whole number and entry an object").format(where=where))
    if crc != checksum(seq, entry):
        raise RecordError(_("{where}: the checksum does not match (the line was damaged)").format(where=where))
    if seq != expected_seq:
        raise RecordError(_("{where}: entry number {seq} where {expected_seq} was expected").format(
                              where=where, seq=seq, expected_seq=expected_seq))
    return entry


@dataclass(frozen=True)
class Damage:
    """Where reading stopped and what could not be recovered after that point."""

    line: int  # 1-based line number of the first bad line
    reason: str
    lost_lines: int  # lines from the bad one to the end (a cut-off last line counts); -1: not counted
    lost_bytes: int

    def describe(self) -> str:
        if self.lost_lines < 0:  # a device or a pipe that goes on past the bound: not counted
            return _("line {line}: {reason}; nothing from there on could be recovered").format(
                       line=self.line, reason=self.reason)
        what = ngettext("{n} entry", "{n} entries", self.lost_lines).format(n=self.lost_lines)
        return _("line {line}: {reason}; {what} ({lost_bytes} bytes) could not be recovered").format(
                   line=self.line, reason=self.reason, what=what, lost_bytes=self.lost_bytes)


@dataclass(frozen=True)
class JournalRead:
    """What a journal file holds: the good entries in order, and the damage if any."""

    path: Path
    entries: list[dict] = field(default_factory=list)
    damage: Damage | None = None
    good_bytes: int = 0
    #: where each good entry's line ends (byte offset just past its newline)
    ends: list[int] = field(default_factory=list)


def read_journal(path: str | os.PathLike) -> JournalRead:
    """Read every intact entry up to the first damaged line. At most :data:`MAX_JOURNAL_BYTES`
    are read and a line may have at most :data:`MAX_LINE_BYTES`: past either, the rest is
    reported lost like a damaged line (a hostile or runaway file never fills the memory)."""
    path = Path(path)
    with open(path, "rb") as f:
        data = f.read(MAX_JOURNAL_BYTES + 1)
        st = os.fstat(f.fileno())
    # a device or a pipe (/dev/zero) has no size and may never end: nothing past the bound is read
    regular = stat.S_ISREG(st.st_mode)
    size = st.st_size if regular else len(data)
    cut = len(data) > MAX_JOURNAL_BYTES
    if cut:
        data = data[:MAX_JOURNAL_BYTES]
    entries: list[dict] = []
    ends: list[int] = []
    offset = 0
    number = 0

    def damaged(reason: str) -> JournalRead:
        if cut:
            lost = _lines_from(path, offset, size) if regular else -1
        else:
            lost = data[offset:].count(b"\n") + (0 if data.endswith(b"\n") else 1)
        return JournalRead(path, entries, Damage(number, reason, lost, max(size, len(data)) - offset), offset, ends)

    while offset < len(data):
        number += 1
        end = data.find(b"\n", offset, offset + MAX_LINE_BYTES + 1)
        where = f"{path.name} line {number}"
        if end < 0:
            if len(data) - offset > MAX_LINE_BYTES:
                return damaged(_("a line of more than {max_line_bytes} MB (an entry is a few hundred bytes)").format(
                                   max_line_bytes=MAX_LINE_BYTES // (1024 * 1024)))
            if cut:
                size_text = _("{size:,} bytes").format(size=size) if regular else _("not a regular file")
                return damaged(_("the journal is longer than {mb} MB ({size}); what follows was not read").format(
                    mb=MAX_JOURNAL_BYTES // (1024 * 1024), size=size_text))
            return damaged(_("the last entry was cut off while it was being written"))
        raw = data[offset:end]
        try:
            entry = parse_line(raw.decode("utf-8"), number, where)
        except (RecordError, UnicodeDecodeError) as e:
            return damaged(str(e).removeprefix(f"{where}: ") if isinstance(e, RecordError) else "not UTF-8 text")
        entries.append(entry)
        offset = end + 1
        ends.append(offset)
    return JournalRead(path, entries, None, offset, ends)


def _lines_from(path: Path, offset: int, end: int) -> int:
    """The lines of ``path`` from byte ``offset`` to byte ``end`` (its size when it was read: a
    file that grows meanwhile is not followed; a last line without its newline counts), read a
    megabyte at a time."""
    count, last = 0, b"\n"
    with open(path, "rb") as f:
        f.seek(offset)
        while offset < end and (chunk := f.read(min(1024 * 1024, end - offset))):
            offset += len(chunk)
            count += chunk.count(b"\n")
            last = chunk[-1:]
    return count + (0 if last == b"\n" else 1)


class Journal:
    """An open journal file; :meth:`append` returns only once the line is on the disk, and a
    failed append leaves the file exactly as it was.

    The file is written through its descriptor, with no buffer in between: a buffered file
    that fails to flush keeps the line in its buffer and writes it later, beside the retry, so
    two lines would carry one number and reading would stop there."""

    # the system calls, as attributes so that a test can make them fail (a full disk)
    _write = staticmethod(os.write)
    _fsync = staticmethod(os.fsync)
    _truncate = staticmethod(os.ftruncate)

    def __init__(self, path: str | os.PathLike, next_seq: int = 1) -> None:
        self.path = Path(path)
        self.next_seq = next_seq
        self._fd: int | None = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | _CLOEXEC, 0o644)
        #: the file's length after the last acknowledged line: a failed append is cut back to it
        self.good_length = os.fstat(self._fd).st_size
        self._torn = False  # a failed append that could not be cut back yet

    def append(self, entry: dict) -> None:
        """Write ``entry`` durably (one write, fsync) before the caller acts on it. On OSError
        the file is cut back to :attr:`good_length` and the error raised: nothing was written."""
        if self._fd is None:
            raise RecordError(_("{name}: the journal is closed").format(name=self.path.name))
        line = format_line(self.next_seq, entry).encode("utf-8")
        if len(line) > MAX_LINE_BYTES:  # it could never be read back: refused, nothing written
            raise RecordError(_("{name}: an entry of {n:,} bytes; a journal line has at most "
                                "{max_line_bytes:,}").format(
                                  name=self.path.name, n=len(line), max_line_bytes=MAX_LINE_BYTES))
        if self._torn:
            self._cut_back()  # the last failure's bytes go first (raises if they cannot)
        try:
            written = self._write(self._fd, line)
            while written < len(line):  # a short write: the disk filled in the middle
                written += self._write(self._fd, line[written:])
            self._fsync(self._fd)
        except OSError:
            self._torn = True
            try:
                self._cut_back()
            except OSError:
                pass  # still torn: the next append tries again before writing
            raise
        self.good_length += len(line)
        self.next_seq += 1

    def _cut_back(self) -> None:
        self._truncate(self._fd, self.good_length)
        self._fsync(self._fd)
        self._torn = False

    def close(self) -> None:
        if self._fd is not None:
            if self._torn:
                try:
                    self._cut_back()
                except OSError:
                    pass  # a cut-off last line: reading stops before it, as after a power cut
            os.close(self._fd)
            self._fd = None

    @property
    def closed(self) -> bool:
        return self._fd is None


_CLOEXEC = getattr(os, "O_CLOEXEC", 0)


class JournalStore:
    """The journal directory: ``current.jsonl`` (the game in play) and ``games/`` (finished)."""

    def __init__(self, directory: str | os.PathLike) -> None:
        self.directory = Path(directory)

    @property
    def current(self) -> Path:
        return self.directory / CURRENT

    def has_current(self) -> bool:
        """Whether anything (a journal, or something else by mistake) is where the current
        game's journal goes."""
        return self.current.exists() or self.current.is_symlink()

    def unfinished(self) -> JournalRead | None:
        """The current game's journal, if there is one (RecordError: something that is not a
        file is in its place)."""
        if not self.has_current():
            return None
        if not self.current.is_file():
            what = _("a folder") if self.current.is_dir() else _("not a file")
            raise RecordError(_("where the saved game goes ({current}) there is {what}").format(
                                  current=CURRENT, what=what))
        return read_journal(self.current)

    def discard_if_empty(self) -> None:
        """Remove the current journal if it holds nothing (a game whose start could not be
        saved), so that the next start does not report an empty journal."""
        try:
            if self.current.is_file() and self.current.stat().st_size == 0:
                self.current.unlink()
        except OSError:
            pass  # then the next start sets it aside as empty: nothing is lost either way

    def create(self) -> Journal:
        """A new, empty current journal (the session writes its start entry first).

        An existing current journal is moved aside to ``games/`` first, never overwritten."""
        self.directory.mkdir(parents=True, exist_ok=True)
        if self.current.exists():
            self.archive("abandoned")
        journal = Journal(self.current)
        fsync_dir(self.directory)
        return journal

    def reopen(self, read: JournalRead, keep: int | None = None) -> Journal:
        """Continue the current journal after a resume, from its first ``keep`` entries
        (default: every intact one). A damaged tail is saved beside it (a whole copy of the
        file in ``games/``) and then cut off, so new entries follow straight after the last
        good one. The copy comes first: if it cannot be written, nothing is cut (OSError),
        except when all there is to cut is a last line cut off while it was written (the
        power failed in the middle of an append): that line was never acknowledged, so on a
        full disk it goes without a copy and the game goes on."""
        keep = len(read.entries) if keep is None else keep
        length = read.ends[keep - 1] if keep else 0
        if read.path.stat().st_size != length:
            data = read.path.read_bytes()
            torn_only = keep == len(read.entries) and b"\n" not in data[length:]
            try:
                saved = self._free_name(self.directory / ARCHIVE, "damaged", ".jsonl")
                saved.parent.mkdir(parents=True, exist_ok=True)
                _write_durably(saved, data)
                fsync_dir(saved.parent)
            except OSError:
                if not torn_only:
                    raise
            with open(read.path, "r+b") as f:
                f.truncate(length)
                f.flush()
                os.fsync(f.fileno())
        return Journal(read.path, keep + 1)

    def archive(self, name: str, extra: dict[str, str] | None = None) -> Path | None:
        """Move the current journal to ``games/<name>.jsonl`` (plus ``extra`` files, e.g. the
        dice record, as ``games/<name><suffix>``). Returns the archived path."""
        if not self.has_current():
            return None
        target_dir = self.directory / ARCHIVE
        target_dir.mkdir(parents=True, exist_ok=True)
        target = self._free_name(target_dir, name, ".jsonl")
        for suffix, text in (extra or {}).items():
            _write_durably(target.with_name(target.name.removesuffix(".jsonl") + suffix), text.encode("utf-8"))
        os.replace(self.current, target)
        fsync_dir(self.directory)
        fsync_dir(target_dir)
        return target

    @staticmethod
    def _free_name(directory: Path, name: str, suffix: str) -> Path:
        safe = "".join(c if c.isalnum() or c in "-_." else "-" for c in name) or "game"
        candidate = directory / f"{safe}{suffix}"
        n = 1
        while candidate.exists() or candidate.is_symlink():
            n += 1
            candidate = directory / f"{safe}-{n}{suffix}"
        return candidate


def _write_durably(path: Path, data: bytes) -> None:
    """A new file holding ``data``, on the disk when this returns; a file that could not be
    written whole is removed again (no half copy is left to take for a game)."""
    try:
        with open(path, "xb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
    except OSError:
        try:
            path.unlink()
        except OSError:
            pass
        raise


def describe_loss(damage: Damage | None, replay_problem: str | None, used: int, total: int) -> str | None:
    """One sentence for the players about what a resume could not bring back (None: nothing)."""
    parts = []
    if damage is not None:
        parts.append(damage.describe())
    if replay_problem is not None:
        lost = total - used
        dropped = ngettext("entry {used} could not be replayed ({replay_problem}); {n} entry dropped",
                           "entry {used} could not be replayed ({replay_problem}); {n} entries dropped", lost)
        parts.append(dropped.format(used=used + 1, replay_problem=replay_problem, n=lost))
    return "; ".join(parts) if parts else None


@dataclass
class Resumed(Generic[G]):
    """An unfinished game brought back: the replayed game (None when nothing could be used),
    its journal open for new entries, and what was lost (None: nothing)."""

    game: G | None
    journal: Journal | None
    loss: str | None
    entries: int = 0
    #: where an unusable journal was set aside (``games/damaged.jsonl``; "" if it could not be)
    kept: str = ""


def resume(store: JournalStore, replay: Callable[[Sequence[dict]], tuple[G, int, str | None]]) -> Resumed[G] | None:
    """Bring back the store's unfinished game, if any, by ``replay`` of its entries.

    ``replay(entries)`` returns ``(game, used, problem)`` (companion.session.Session.replay);
    entries past ``used`` are dropped from the journal (a copy of the file is kept in
    ``games/``). A journal whose start entry cannot be used is archived whole and reported,
    and so is one that fails in any other way (not a file, unreadable, an error nobody
    foresaw in the replay): the app always starts, and the file is never lost."""
    if not store.has_current():
        return None
    try:
        read = store.unfinished()
        if not read.entries:
            reason = read.damage.describe() if read.damage else _("the journal is empty")
            return _set_aside(store, reason)
        game, used, problem = replay(read.entries)
        journal = store.reopen(read, keep=used)
    except CompanionError as e:
        return _set_aside(store, str(e))
    except OSError as e:
        return _set_aside(store, _("it could not be read ({strerror})").format(strerror=e.strerror or e))
    except Exception as e:  # noqa: BLE001 - a bug must not keep the app from starting
        return _set_aside(store, _("an unexpected error while reading it ({type}: {e})").format(
                                     type=type(e).__name__, e=str(e)[:200]))
    return Resumed(game, journal, describe_loss(read.damage, problem, used, len(read.entries)), used)


def _set_aside(store: JournalStore, reason: str) -> Resumed:
    """Move the unusable current journal to ``games/`` and say so (and where)."""
    try:
        where = store.archive("damaged")
    except OSError as e:
        return Resumed(None, None, _("{reason}; it could not be moved aside ({strerror})").format(
                                       reason=reason, strerror=e.strerror or e))
    return Resumed(None, None, reason, kept=f"{ARCHIVE}/{where.name}" if where else "")
