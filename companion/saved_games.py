"""The games this board has saved: listed newest first, each told in a line, replayed move by
move, taken up again, deleted.

A finished game is archived by the app as ``games/<game id>.jsonl`` (its journal, with its
dice record beside it as ``<game id>.dice.jsonl``); a game left unfinished as
``games/<game id>-unfinished.jsonl``; a journal that could not be read as
``games/damaged*.jsonl`` (those are not games to list). The journal's first entry is the
game's set-up (game, players, map, start position); the id begins with the start time
(``20261125-104512-ab12``).

Reading a game replays its journal through the session (:meth:`Session.replay`), so the
result, the moves and every position are the game's own; :func:`summary` does that for the
list and :func:`positions` keeps the position after each move for the review. Files are read
here and nowhere else; nothing is done at import.
"""

from __future__ import annotations

import os
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from .errors import CompanionError, RecordError
from .i18n import _
from .journal import ARCHIVE, CURRENT, read_journal

#: The folder a copy goes to on a USB stick.
STICK_FOLDER = "companion-games"
#: Files of a game beside its journal: ``<id>`` + one of these.
SIDECARS = (".dice.jsonl", ".pgn")
UNFINISHED = "-unfinished"
_STAMP = re.compile(r"^(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})")


@dataclass(frozen=True)
class GameSummary:
    """One saved game as the list shows it."""

    path: Path
    game_id: str
    game: str  # "chess", "combat", "dungeon", ...
    board_map: str | None
    players: tuple[str, ...]
    started: str  # "2026-11-25 10:45" (from the id), or "" when the id has no time
    finished: bool
    winners: tuple[int, ...]  # seat numbers; () for a draw or an unfinished game
    reason: str  # the result's reason ("checkmate", "resigned", ...) or ""
    moves: int
    problem: str = ""  # what could not be read (a damaged tail), "" when all was


@dataclass
class Review:
    """A saved game replayed: its summary, the rules, and the position after each move
    (``frames[0]`` the start), each with the squares of the move that led there."""

    summary: GameSummary
    rules: object
    frames: list = field(default_factory=list)  # (position, (frm, to) or None, move text)
    session: object = None


def games_folder(data: str | os.PathLike) -> Path:
    return Path(data) / ARCHIVE


def list_games(data: str | os.PathLike) -> list[Path]:
    """Every saved game's journal in the data folder's games/, newest first (by the start
    time in its id, then by the file's time)."""
    folder = games_folder(data)
    try:
        paths = [p for p in folder.iterdir() if _is_game(p)]
    except OSError:
        return []

    def newest(p: Path):
        try:
            mtime = p.stat().st_mtime
        except OSError:
            mtime = 0.0
        return (_stamp(p.name), mtime)

    return sorted(paths, key=newest, reverse=True)


def _is_game(p: Path) -> bool:
    name = p.name
    return (p.is_file() and name.endswith(".jsonl") and not name.startswith("damaged")
            and not any(name.endswith(s) for s in SIDECARS if s != ".jsonl") and not name.startswith("."))


def _stamp(name: str) -> str:
    m = _STAMP.match(name)
    return "".join(m.groups()) if m else ""


def game_id_of(path: Path) -> str:
    return path.name.removesuffix(".jsonl").removesuffix(UNFINISHED)


def started_words(game_id: str) -> str:
    m = _STAMP.match(game_id)
    if not m:
        return ""
    y, mo, d, h, mi, _ = m.groups()
    return f"{y}-{mo}-{d} {h}:{mi}"


def replay(path: Path):
    """The saved game's session replayed from its journal at its table (clock, procedures):
    (session, problem or "")."""
    from .tournament.table import Table

    read = read_journal(path)
    if not read.entries:
        raise RecordError(_("{name}: {problem}").format(
            name=path.name, problem=read.damage.describe() if read.damage else _("the file is empty")))
    table, used, problem = Table.replay(read.entries)
    session = table.session
    words = []
    if read.damage is not None:
        words.append(read.damage.describe())
    if problem:
        words.append(_("entry {used} could not be replayed ({problem})").format(used=used + 1, problem=problem))
    return session, "; ".join(words)


def summary(path: Path) -> GameSummary:
    """One line's worth of a saved game (CompanionError or OSError when it cannot be read)."""
    session, problem = replay(path)
    setup = session.setup
    result = session.result
    return GameSummary(path, setup.game_id, setup.game, setup.board_map, tuple(s.name for s in setup.seats),
                       started_words(setup.game_id), result is not None,
                       tuple(sorted(result.winners)) if result is not None else (),
                       result.reason if result is not None else "", len(session.moves), problem)


def review(path: Path) -> Review:
    """The saved game with the position after each of its moves (undone moves left out)."""
    from .tournament.table import Table

    read = read_journal(path)
    if not read.entries:
        raise RecordError(_("{name}: the file is empty").format(name=path.name))
    frames: list = []

    def keep(session) -> None:
        n = len(session.moves)
        if session.pos.pending is not None:
            return  # the middle of a turn (a fight's dice): the turn's end is the next frame
        del frames[n:]
        last = session.last_move()
        frames.append((session.pos.copy(), last, session.moves[-1].san if n else ""))

    table, used, problem = Table.replay(read.entries, after=keep)
    session = table.session
    setup = session.setup
    result = session.result
    head = GameSummary(path, setup.game_id, setup.game, setup.board_map, tuple(s.name for s in setup.seats),
                       started_words(setup.game_id), result is not None,
                       tuple(sorted(result.winners)) if result is not None else (),
                       result.reason if result is not None else "", len(session.moves), problem or "")
    return Review(head, session.rules, frames, session)


def delete(path: Path) -> None:
    """Delete a saved game: its journal and the files beside it (dice record, PGN)."""
    gid = path.name.removesuffix(".jsonl")
    for suffix in SIDECARS:
        side = path.with_name(gid + suffix)
        if side.exists():
            side.unlink()
    path.unlink()


def take_up(path: Path, data: str | os.PathLike) -> None:
    """Make an unfinished saved game the current one again (the app then resumes it as after a
    power cut). Refused while another game is current."""
    current = Path(data) / CURRENT
    if current.exists() or current.is_symlink():
        raise CompanionError(_("another game is open: finish it or start a new game first"))
    if not path.name.endswith(UNFINISHED + ".jsonl"):
        raise CompanionError(_("{name} is a finished game: it can be looked at, not played on").format(name=path.name))
    os.replace(path, current)


def export(paths, target: str | os.PathLike) -> list[Path]:
    """Copy saved games into ``target``: each journal, the files beside it, and its PGN (the
    one saved beside it, else written from the journal now, unfinished games too); the
    copies' paths. OSError when the target is full, read-only or gone."""
    from .tournament.files import journal_pgn, write_file

    target = Path(target)
    target.mkdir(parents=True, exist_ok=True)
    out = []
    for path in paths:
        gid = path.name.removesuffix(".jsonl")
        for src in [path] + [path.with_name(gid + s) for s in SIDECARS]:
            if src.exists():
                dst = target / src.name
                shutil.copyfile(src, dst)
                with open(dst, "rb+") as f:
                    os.fsync(f.fileno())
                out.append(dst)
        if not path.with_name(gid + ".pgn").exists():
            try:
                text, _ = journal_pgn(path)
            except CompanionError:
                continue  # a journal that cannot be replayed at all: its copy is all there is
            out.append(write_file(target / f"{gid}.pgn", text))
    return out

