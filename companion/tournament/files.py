"""Game records on disk and on a USB stick: the edge where records meet files.

* :func:`save_game_pgn` writes a finished game (or the current one, on demand) to the games
  folder as ``<game id>.pgn``, crash-safe (a temporary file, flushed, then renamed).
* :func:`find_sticks` lists the removable media mounted under ``/media`` and ``/run/media``
  (udisks and the Raspberry Pi desktop mount USB sticks there, one folder per stick, possibly
  under a folder per user); tests pass a folder that stands in for them.
* :func:`journal_pgn` writes any saved game's journal as PGN, replayed as the app resumes it
  (``companion pgn`` and the games screen's copies to a stick).
* :func:`copy_to_stick` copies the games folder's PGN files into ``companion-games/`` on a
  stick, and :func:`collect_pgn` joins them into one ``games.pgn`` there as well.

Nothing here is called at import; every function takes its paths as values.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from ..bounds import MAX_PGN_FILE_BYTES, read_text_file
from ..errors import CompanionError
from ..i18n import _
from ..durable import write_durably
from ..journal import describe_loss, read_journal
from .pgn import PgnGame, format_pgn

#: Where desktop Linux and Raspberry Pi OS mount removable media.
MEDIA_ROOTS = ("/media", "/run/media")
STICK_FOLDER = "companion-games"


def write_pgn(path: str | os.PathLike, game: PgnGame | str) -> Path:
    """Write ``game`` (a PgnGame or its text) to ``path`` durably; returns the path."""
    return write_file(path, game if isinstance(game, str) else format_pgn(game))


def write_file(path: str | os.PathLike, text: str) -> Path:
    """Write ``text`` to ``path`` durably (companion.durable.write_durably: a temporary file,
    flushed and synced, then renamed; removed again if the disk is full)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_durably(path, text.encode("utf-8"))
    return path


def save_game_pgn(folder: str | os.PathLike, game_id: str, game: PgnGame) -> Path:
    """The game's PGN in the games folder as ``<game id>.pgn`` (replacing an earlier save)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    safe = "".join(c if c.isalnum() or c in "-_." else "-" for c in game_id) or "game"
    return write_pgn(folder / f"{safe}.pgn", game)


@dataclass(frozen=True)
class Stick:
    """A mounted removable medium: its folder and a name to show."""

    path: Path
    name: str


def find_sticks(roots: Iterable[str | os.PathLike] = MEDIA_ROOTS) -> list[Stick]:
    """Mounted media under ``roots``: each folder that is a mount point (or, for a stand-in
    folder in tests, any writable folder marked with a ``.companion-stick`` file), one level
    down or two (``/media/<user>/<stick>``)."""
    out: list[Stick] = []
    for root in roots:
        root = Path(root)
        if not root.is_dir():
            continue
        for first in sorted(_dirs(root)):
            if _is_stick(first):
                out.append(Stick(first, first.name))
                continue
            for second in sorted(_dirs(first)):
                if _is_stick(second):
                    out.append(Stick(second, second.name))
    return out


def _dirs(folder: Path) -> list[Path]:
    try:
        return [p for p in folder.iterdir() if p.is_dir()]
    except OSError:
        return []


def _is_stick(folder: Path) -> bool:
    try:
        return (os.path.ismount(folder) or (folder / ".companion-stick").exists()) and os.access(folder, os.W_OK)
    except OSError:
        return False


@dataclass(frozen=True)
class CopyReport:
    copied: int
    target: Path


def copy_to_stick(games: str | os.PathLike, stick: Stick | str | os.PathLike) -> CopyReport:
    """Copy every ``*.pgn`` of the games folder to ``companion-games/`` on the stick, and all
    of them together as ``games.pgn``; each file is synced before the next. OSError when the
    stick is full, read-only or gone."""
    base = stick.path if isinstance(stick, Stick) else Path(stick)
    target = base / STICK_FOLDER
    target.mkdir(parents=True, exist_ok=True)
    files = sorted(Path(games).glob("*.pgn")) if Path(games).is_dir() else []
    for src in files:
        dst = target / src.name
        shutil.copyfile(src, dst)
        with open(dst, "rb+") as f:
            os.fsync(f.fileno())
    write_file(target / "games.pgn", collect_pgn(files))
    return CopyReport(len(files), target)


def collect_pgn(files: Iterable[Path]) -> str:
    """Every file's games in one text, in file order."""
    parts = []
    for path in files:
        text = read_text_file(path, MAX_PGN_FILE_BYTES, _("a PGN file of the games folder"))
        parts.append(text if text.endswith("\n\n") else text.rstrip("\n") + "\n\n")
    return "".join(parts)


def journal_pgn(path: str) -> tuple[str, str | None]:
    """The PGN text of one journal, and what was lost (None: nothing). CompanionError or
    OSError when it cannot be read."""
    from .record import pgn_game
    from .table import Table

    read = read_journal(path)
    if not read.entries:
        reason = read.damage.describe() if read.damage else _("the journal is empty")
        raise CompanionError(_("{path}: no game in it ({reason})").format(path=path, reason=reason))
    table, used, problem = Table.replay(read.entries)
    return format_pgn(pgn_game(table)), describe_loss(read.damage, problem, used, len(read.entries))


def write_private(path: str | os.PathLike, text: str) -> Path:
    """:func:`write_file` for a file that holds a secret (a pairing file with the hall's round
    key): readable and writable by this user only from its first byte (mode 0600)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.fchmod(fd, 0o600)  # a .tmp left from before keeps its old mode otherwise
        with open(fd, "w", encoding="utf-8", newline="\n", closefd=False) as f:
            f.write(text)
            f.flush()
            os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)
    return path
