"""Load / Save: the game as text (companion.gametext), written to the board or a USB stick,
read back from a file or typed on the on-screen keyboard; the arbiter's correction of the
position through the same text; and the keyboard lent to another screen for its own text (a
position to start from).

:class:`LoadSave` owns the Load / Save screen's mode and the text on its keyboard; it reads the
game it writes from the GameRoom and opens a loaded game with the LoadGame command.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from ...errors import CompanionError
from ...gametext import MAX_CHARS, format_game, journal_entries, load_text
from .. import texts as T
from .display import Display
from .entry import Entry
from .game_room import GameRoom
from .messages import Bus, LoadGame
from .storage import Storage

#: the Load / Save screen's modes that show the keyboard ("other": another screen's text)
TYPING_MODES = ("type", "correct", "other")
#: Game texts listed for loading, at most.
MAX_LISTED = 40
#: Screens Load / Save goes back to.
RETURNS = ("start", "game", "setup", "fight", "game_over", "arbiter", "position")


class LoadSave:
    def __init__(self, display: Display, game: GameRoom, storage: Storage, bus: Bus) -> None:
        self.display = display
        self.game = game
        self.storage = storage
        self.bus = bus
        self.mode = "show"  # show, files, type, correct or other
        self.entry: Entry | None = None  # the game text on its keyboard (type, correct, other)
        self._back = "start"

    # ----- the screen ------------------------------------------------------------------------------
    def open(self, mode: str = "show") -> None:
        if self.display.screen != "game_text":
            self._back = self.display.screen
        self.display.screen = "game_text"
        self.mode = mode
        if mode not in TYPING_MODES:
            self.entry = None
        self.display.changed()

    def close(self) -> None:
        back = self._back
        if self.game.session is None and back != "position":  # a position being set up has no game yet
            back = "start"
        self.mode, self.entry = "show", None
        self.display.show(back if back in RETURNS else "start")

    def set_mode(self, mode: str) -> None:
        self.mode = mode
        if mode not in TYPING_MODES:
            self.entry = None
        self.display.changed()

    def back_to_show(self) -> bool:
        """From the file list or the keyboard back to the game's text (False: already there)."""
        if self.mode == "show":
            return False
        if self.mode == "other":  # back to the screen that asked for the text
            self.close()
            return True
        self.set_mode("show")
        return True

    # ----- typing ---------------------------------------------------------------------------------
    def type_for_other(self, title: str, text: str, take: Callable[[str], str | None]) -> None:
        """The keyboard for another screen's text (a position to start from): ``text`` to edit;
        ``take(text)`` returns what is wrong (one line) or None, and then that screen comes back."""
        self.entry = Entry.for_text(title, text, on_done=take)
        self.open("other")

    def start_typing(self) -> None:
        """A game's text on the on-screen keyboard, to load."""
        self.entry = Entry.for_text(T.TEXT_TYPE_TITLE, on_done=self.load_text)
        self.open("type")

    def can_correct_here(self) -> bool:
        """May the Load / Save screen correct the position? Not in tournament mode: there the
        arbiter does it, behind the PIN (the arbiter's screen opens the same correction)."""
        s, table = self.game.session, self.game.table
        return s is not None and not s.is_over and not (table is not None and table.tournament)

    def open_correction(self) -> bool:
        """The arbiter's correction: the game's position line on the keyboard, to edit."""
        s = self.game.session
        if s is None or s.is_over:
            return False
        text = s.rules.position_text(s.pos)
        self.entry = Entry.for_text(T.TEXT_CORRECT_TITLE, text, on_done=self.game.correct_position)
        self.open("correct")
        return True

    def key(self, key: str) -> None:
        if self.entry is not None:
            self.entry = self.entry.press(key)
            self.display.changed()

    def done(self) -> str | None:
        """Load or apply the typed text: None when done (back to the game's text), else what is
        wrong (the text stays on the keyboard)."""
        entry = self.entry
        if entry is None or entry.on_done is None:
            return None
        text = entry.text.strip() if self.mode == "correct" else entry.text
        problem = entry.on_done(text)
        if problem:
            self.display.changed()
            return problem
        if self.mode == "other":
            self.close()
            return None
        self.mode, self.entry = "show", None
        self.display.changed()
        return None

    # ----- the game's text ----------------------------------------------------------------------------
    def game_text(self) -> str:
        """The current game as text (empty when there is none): at its table, so a clock that
        runs is written as it stands now."""
        s = self.game.session
        if s is None:
            return ""
        return format_game(self.game.table if self.game.table is not None else s, self.game.clock_ms())

    def save(self, to_stick: bool) -> tuple[str, bool]:
        """Write the game's text to the first USB stick, or to the board's own folder: (what
        happened in words, whether it went wrong)."""
        s = self.game.session
        if s is None:
            return T.TEXT_NO_GAME, True
        folders = [stick.path for stick in self.storage.sticks()] if to_stick else [self.storage.texts_folder]
        if not folders:
            return T.NO_STICK, True
        path = Path(folders[0]) / f"{s.setup.game_id}.txt"
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(self.game_text(), encoding="utf-8")
        except (OSError, ValueError) as e:  # ValueError: a name the file system refuses (Load refuses them)
            return T.CANNOT_WRITE.format(path=path, reason=getattr(e, "strerror", None) or e), True
        return T.TEXT_SAVED.format(where=T.ON_STICK if to_stick else T.ON_BOARD, name=path.name), False

    def files(self) -> list[tuple[Path, str, str]]:
        """Game texts on the USB sticks and on the board, newest first: (path, label, where)."""
        found = []
        for folder, where in [(stick.path, T.ON_STICK) for stick in self.storage.sticks()] + \
                [(self.storage.texts_folder, T.ON_BOARD)]:
            try:
                files = [p for p in folder.glob("*.txt") if p.is_file()]
                files.sort(key=lambda p: p.stat().st_mtime, reverse=True)
            except OSError:
                continue
            found += [(p, p.stem, where) for p in files]
        return found[:MAX_LISTED]

    def load_file(self, path: Path) -> str | None:
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read(MAX_CHARS + 1)
        except OSError as e:
            return T.CANNOT_READ.format(name=Path(path).name, reason=e.strerror or e)
        except UnicodeDecodeError:
            return T.NOT_TEXT.format(name=Path(path).name)
        problem = self.load_text(text)
        return f"{Path(path).name}: {problem}" if problem else None

    def load_text(self, text: str) -> str | None:
        """Load a game from its text: None when it is loaded (the board is then set up for it),
        else what is wrong (one line); nothing changes then."""
        try:
            loaded = load_text(text)
            table = loaded.table
            entries = journal_entries(table)
        except CompanionError as e:
            return str(e)
        problem = self.bus.handle(LoadGame(table, tuple(entries)))
        if problem:
            return problem
        self.display.notice = " ".join(loaded.warnings)  # the text could not be checked, a correction
        self.mode, self.entry = "show", None
        self.display.changed()
        return None


__all__ = ["LoadSave", "TYPING_MODES", "MAX_LISTED"]
