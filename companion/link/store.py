"""What a linked board keeps on its disk, beside the game's journal (companion.journal).

In the data folder's ``link/``, every file readable by the app's user only (mode 0600):

``pairing.json``
    the link: this board's role, the nameplate, the link key (from the pairing), this board's
    master secret (each game's secret root is derived from it) and the last channel epoch used
    (written before a hello goes out, so a restarted board always goes above it). Rewritten
    whole and atomically (a temporary file, fsync, rename).
``game.jsonl``
    the link journal of the game in play (companion.journal's format: one fsynced line per
    record): its header (game number, this board), this board's notes, the other board's notes
    as they came, this board's sealed choices before they are opened, what came with each
    action. The game's actions themselves are in the game's journal, ``current.jsonl``.
``draft.json``
    this board's armies of a linked Dungeon Chess game while they are drafted and placed by
    hand, before they are sealed (:meth:`LinkStore.save_draft`): the game's number and id, the
    board, the draft's progress and a checksum, rewritten whole on every change; gone once the
    armies are sealed (the sealed value is then in ``game.jsonl``). A damaged one is set aside
    as ``draft.damaged.json`` and said in one line.
``games/``
    the link journals of finished games (or given up), ``game-N.jsonl``; ``game-N-2.jsonl``, ...
    when one of that number is kept already (a new pairing's game is 1 again).

The keys never reach a log, a page or a saved game; the link journal holds this board's own
sealed choices (a duel's bid) until it opens them, as the game's journal of a game on one board
holds its players' bids.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import tempfile
import threading
from pathlib import Path

from ..bounds import load_json, read_small_file
from ..errors import LinkError, RecordError
from ..i18n import _
from ..journal import Journal, fsync_dir, read_journal

LINK_DIR = "link"
PAIRING = "pairing.json"
GAME = "game.jsonl"
DRAFT = "draft.json"
DRAFT_DAMAGED = "draft.damaged.json"
#: a draft's file is a few kilobytes (four seats of up to 75 XP of units, their squares)
MAX_DRAFT_BYTES = 64 * 1024


def game_root(master: bytes, number: int) -> bytes:
    """The secret root of game ``number`` on this link (dice chain, nonces, coin)."""
    return hmac.new(master, f"companion link game root {number}".encode(), hashlib.sha256).digest()


class LinkStore:
    def __init__(self, data: str | os.PathLike) -> None:
        self.dir = Path(data) / LINK_DIR
        # The link's own thread saves the epoch before each hello while the board's loop saves
        # the pairing and the game number: one writer at a time, and the epoch never goes back.
        self._lock = threading.Lock()
        self._epoch_written = 0

    # ----- the pairing ------------------------------------------------------------------------------
    def pairing(self) -> dict | None:
        path = self.dir / PAIRING
        if not path.exists():
            return None
        try:
            value = json.loads(path.read_text(encoding="utf-8"))
            return {"role": value["role"], "nameplate": value["nameplate"], "key": bytes.fromhex(value["key"]),
                    "master": bytes.fromhex(value["master"]), "epoch": int(value["epoch"]),
                    "game": int(value.get("game", 1))}
        except (OSError, ValueError, KeyError, TypeError) as e:
            raise LinkError(_("{path}: the saved link cannot be read ({kind}); pair the boards again").format(
                path=path, kind=type(e).__name__)) from None

    def save_pairing(self, *, role: str, nameplate: str, key: bytes, master: bytes, epoch: int, game: int) -> None:
        """Rewrite the pairing whole. Safe from several threads: the writes are serialised and the
        saved epoch is never lower than one saved before (a save that read an older epoch keeps the
        newer one)."""
        with self._lock:
            epoch = max(epoch, self._epoch_written)
            self._write_private(self.dir / PAIRING, json.dumps(
                {"role": role, "nameplate": nameplate, "key": key.hex(), "master": master.hex(), "epoch": epoch,
                 "game": game}).encode())
            self._epoch_written = epoch

    def forget(self) -> None:
        """Unpair: the key goes (the finished games' journals stay)."""
        with self._lock:
            self._epoch_written = 0
            for name in (PAIRING, GAME, DRAFT):
                try:
                    (self.dir / name).unlink()
                except FileNotFoundError:
                    pass

    # ----- the link journal of the game in play ------------------------------------------------------
    def records(self) -> list[dict]:
        path = self.dir / GAME
        if not path.exists():
            return []
        return read_journal(path).entries

    def open_game(self, number: int, me: int) -> Journal:
        """The link journal of game ``number`` (a new one starts with its header)."""
        self.dir.mkdir(parents=True, exist_ok=True)
        path = self.dir / GAME
        existing = read_journal(path) if path.exists() else None
        if existing is not None and existing.entries and existing.entries[0].get("game") != number:
            self.end_game()
            existing = None
        if existing is None or not existing.entries:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            os.close(fd)
            journal = Journal(path)
            journal.append({"type": "link", "game": number, "me": me})
            fsync_dir(self.dir)
            return journal
        if existing.damage is not None:
            raise RecordError(_("{path}: {problem}").format(path=path, problem=existing.damage.describe()))
        return Journal(path, len(existing.entries) + 1)

    def end_game(self) -> None:
        path = self.dir / GAME
        if not path.exists():
            return
        first = read_journal(path).entries[:1]
        number = first[0].get("game", 0) if first else 0
        target = self.dir / "games"
        target.mkdir(parents=True, exist_ok=True)
        kept, n = target / f"game-{number}.jsonl", 1
        while kept.exists() or kept.is_symlink():  # the app numbers every pairing's game 1: none replaced
            n += 1
            kept = target / f"game-{number}-{n}.jsonl"
        os.replace(path, kept)
        fsync_dir(self.dir)

    # ----- a draft in progress (before it is sealed) -----------------------------------------------
    def save_draft(self, *, game: int, game_id: str, me: int, progress: dict) -> None:
        """Keep the draft's progress (written whole and atomically, mode 0600)."""
        body = {"game": game, "game_id": game_id, "me": me, "progress": progress}
        data = dict(body, check=_check(body))
        self._write_private(self.dir / DRAFT, json.dumps(data, separators=(",", ":")).encode())

    def draft(self, *, game: int, game_id: str, me: int) -> dict | None:
        """The progress kept for this game and board (None: none kept). A file that cannot be
        read, fails its checksum or belongs to another game or board is set aside
        (``draft.damaged.json``) and refused in one line (LinkError); nothing else is touched."""
        path = self.dir / DRAFT
        where = str(path)
        try:
            raw = read_small_file(path, MAX_DRAFT_BYTES, where)
            if raw is None:
                return None
            value = load_json(raw.decode("utf-8"), where, RecordError)
            if not isinstance(value, dict) or set(value) != {"game", "game_id", "me", "progress", "check"}:
                raise RecordError(_("{where}: not a saved draft").format(where=where))
            body = {k: value[k] for k in ("game", "game_id", "me", "progress")}
            if value["check"] != _check(body):
                raise RecordError(_("{where}: damaged (its checksum does not match)").format(where=where))
            if (value["game"], value["game_id"], value["me"]) != (game, game_id, me) \
                    or not isinstance(value["progress"], dict):
                raise RecordError(_("{where}: the draft of another game (game {n}, {game_id})").format(
                    where=where, n=value["game"], game_id=str(value["game_id"])[:80]))
            return value["progress"]
        except (RecordError, UnicodeDecodeError) as e:
            self.set_draft_aside()
            raise LinkError(_("the saved draft cannot be used: {problem}").format(
                problem=e if isinstance(e, RecordError) else _("{where}: not text").format(where=where))) from None

    def drop_draft(self) -> None:
        """The draft is sealed or given up: its progress goes."""
        try:
            (self.dir / DRAFT).unlink()
        except FileNotFoundError:
            return
        fsync_dir(self.dir)

    def set_draft_aside(self) -> None:
        try:
            os.replace(self.dir / DRAFT, self.dir / DRAFT_DAMAGED)
        except OSError:
            return
        fsync_dir(self.dir)

    @staticmethod
    def _write_private(path: Path, data: bytes) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, name = tempfile.mkstemp(prefix=path.stem + ".", suffix=".tmp", dir=path.parent)  # mode 0600
        tmp = Path(name)
        try:
            try:
                os.write(fd, data)
                os.fsync(fd)
            finally:
                os.close(fd)
            os.replace(tmp, path)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
        fsync_dir(path.parent)


def _check(body: dict) -> str:
    """A saved draft's checksum (SHA-256 of its canonical JSON, 16 hex digits)."""
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
