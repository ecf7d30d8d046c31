"""Files written whole, durably: the old file or the new one after a power cut or a full disk,
and nothing else (a temporary file beside it, flushed, synced, renamed over it, the folder
synced; removed again if anything fails).

* :func:`write_durably` -- the games folder's PGN records, a match's score, the names
  remembered (companion.tournament.files, companion.match, companion.player_names).
* :func:`write_output_file` -- a file a command line names (``companion pgn -o FILE``,
  ``companion replay --pgn FILE``): written only as a regular file in a folder that exists;
  a symbolic link, a device, a folder or a missing folder is refused in one line, never
  replaced or created.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from .errors import RecordError
from .i18n import _


def write_durably(path: str | os.PathLike, data: bytes, suffix: str = ".tmp") -> None:
    """Write ``data`` to ``path`` so that a power cut or a full disk leaves the old file or the
    new one and nothing else: a temporary file beside it (``<name><suffix>``), flushed and
    synced, renamed over it, the folder synced. If anything fails (ENOSPC, EFBIG) the temporary
    file is removed and the error raised; the old file stays as it was."""
    path = Path(path)
    tmp = path.with_name(path.name + suffix)
    try:
        with open(tmp, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            tmp.unlink(missing_ok=True)
        except OSError:
            pass
        raise
    fsync_dir(path.parent)


def fsync_dir(directory: Path) -> None:
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


def write_output_file(path: str | os.PathLike, text: str | bytes) -> Path:
    """``text`` (or bytes: a sound file) into the file a command line names: a new or existing regular file in a folder
    that exists, written durably. RecordError (one line) for anything else, before anything is
    written; OSError as writing raises it (a full disk: the old file stays whole)."""
    path = Path(path)
    folder = path.parent
    if not folder.is_dir():
        problem = (_("{path}: the folder {folder} is not a folder (folders are not created: make it first)")
                   if folder.exists() else
                   _("{path}: the folder {folder} does not exist (folders are not created: make it first)"))
        raise RecordError(problem.format(path=path, folder=folder))
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        st = None
    if st is not None and stat.S_ISLNK(st.st_mode):
        raise RecordError(_("{path} is a symbolic link; give the file it points to (the link is not replaced)").format(
                              path=path))
    if st is not None and not stat.S_ISREG(st.st_mode):
        raise RecordError(_("{path} is not a regular file (a folder, a device or a pipe); give a file name, or "
                            "leave the option out to write to the standard output").format(path=path))
    write_durably(path, text.encode("utf-8") if isinstance(text, str) else text)
    return path
