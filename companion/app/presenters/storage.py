"""Where the board keeps things: the data folder (the journal store), the free space there, the
USB sticks plugged in now, the names typed on this board.

The free space where games are saved is looked at every :data:`SPACE_CHECK_MS` and after a
save fails; when it is low, a warning (:attr:`Storage.space_warning`) is on the start screen and
in the game's banner, and a tap on it explains what to do.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from ... import player_names
from ...journal import ARCHIVE, JournalStore, space_level
from ...tournament.files import Stick
from .. import texts as T
from .display import Display
from .questions import Prompt

#: Milliseconds between two looks at the free space where games are saved.
SPACE_CHECK_MS = 10_000
#: Game texts saved on the board (under the journal directory) and listed for loading.
TEXTS_DIR = "texts"


class Storage:
    def __init__(self, store: JournalStore, display: Display, *, sticks: Callable[[], list[Stick]],
                 free_bytes: Callable[[], int | None]) -> None:
        self.store = store
        self.display = display
        #: the USB sticks plugged in now (companion.tournament.files.Stick: folder and name)
        self.sticks = sticks
        #: free bytes where the games are saved (None: not known); an edge function
        self.free_bytes = free_bytes
        self.space_warning = ""  # free space is low where games are saved (short; tap: space_help)
        self.space_help = ""
        self._space_t: int | None = None

    @property
    def directory(self) -> Path:
        return Path(self.store.directory)

    @property
    def games_folder(self) -> Path:
        return self.directory / ARCHIVE

    @property
    def texts_folder(self) -> Path:
        return self.directory / TEXTS_DIR

    # ----- free space ----------------------------------------------------------------------------
    def tick(self, t_ms: int) -> None:
        if self._space_t is None or t_ms - self._space_t >= SPACE_CHECK_MS:
            self._space_t = t_ms
            self.check_space()

    def check_space(self, *_event) -> None:
        """Look at the free space where games are saved; warn when it is low (the start screen
        and the game's banner show :attr:`space_warning`)."""
        try:
            free = self.free_bytes()
        except OSError:
            free = None
        level = space_level(free)
        warning = help_text = ""
        if level is not None:
            words = {"free": T.amount_of_bytes(free), "folder": self.games_folder}
            warning = (T.SPACE_FULL if level == "full" else T.SPACE_LOW).format(**words)
            help_text = (T.SPACE_FULL_HELP if level == "full" else T.SPACE_LOW_HELP).format(**words)
        self.space_help = help_text
        if warning != self.space_warning:
            self.space_warning = warning
            self.display.changed()

    def explain_space(self) -> None:
        """The short space warning was tapped: what it means and what the players can do."""
        if self.space_help and self.display.prompt is None:
            self.display.ask(Prompt("space", self.space_help, (), cancel_label=T.CLOSE))

    # ----- names typed on this board ----------------------------------------------------------------
    def remembered_names(self) -> list[str]:
        """Names typed before on this board, newest first (companion/player_names.py)."""
        return player_names.load(self.store.directory)

    def remember_name(self, name: str) -> None:
        """Keep a typed name for next time; a folder that cannot be written costs nothing but that."""
        try:
            player_names.remember(self.store.directory, name)
        except OSError:
            pass


__all__ = ["Storage", "SPACE_CHECK_MS", "TEXTS_DIR"]
