"""The Load / Save screen (docs/game-text.md): the current game as text and as QR codes, saving
it to the board or a USB stick, loading a game from a file or a stick, typing or editing a text
on the on-screen keyboard (the board has no physical keyboard), and the arbiter's position
correction through the same text.

Plain Python: the keyboard is the app's one on-screen keyboard (companion.app.presenters.entry:
an Entry on its ``text`` layout, with a cursor, held by the LoadSave room while it is open); the QR codes
are module matrices (segno) the screen paints; files are read and written by the LoadSave room
(load_save.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .. import texts as T
from .entry import Key, key_rows
from .display import Display
from .game_room import GameRoom
from .load_save import LoadSave

#: a QR page holds at most this many bytes of text: a version 18 or 19 code (89 or 93 modules
#: a side, 97 or 101 with the quiet zone), drawn two pixels a module on the 800x480 screen
#: (0.39 mm modules, about 4 cm a side); a longer text is shown in parts (docs/game-text.md)
QR_PAGE_BYTES = 700
#: the light border around a QR code, in modules: the standard's four (ISO/IEC 18004)
QR_QUIET = 4

@dataclass(frozen=True)
class FileChoice:
    key: str  # what load_file() takes
    label: str
    where: str  # "USB stick" or "this board"


@dataclass(frozen=True)
class GameTextView:
    mode: str  # "show", "files", "type", "correct" or "other" (another screen's text)
    title: str
    text: str  # the game's text (show) or the typed text with its cursor (type, correct)
    qr: tuple[tuple[bool, ...], ...]  # the current QR page's modules (dark = True); () when none
    qr_label: str  # "Part 1 of 3" ...
    pages: int
    message: str  # what happened, or what is wrong (one line)
    problem: bool  # the message is an error
    files: tuple[FileChoice, ...] = ()
    keys: tuple[tuple[Key, ...], ...] = ()
    shift: bool = False
    can_save: bool = True
    can_correct: bool = False
    load_label: str = ""  # the load button's words (set by the presenter)


@dataclass
class GameTextPresenter:
    load_save: LoadSave
    game: GameRoom
    display: Display
    page: int = 0
    message: str = ""
    problem: bool = False
    _files: list = field(default_factory=list)
    _qr_cache: tuple = ((), ())

    @property
    def mode(self) -> str:
        """"show", "files", "type", "correct" or "other" (the LoadSave room's: the arbiter's screen opens a
        correction, the position screen types its position here)."""
        return self.load_save.mode

    # ----- commands ---------------------------------------------------------------------------
    def open(self) -> None:
        self.page, self.message, self.problem = 0, "", False
        self.load_save.open()

    def close(self) -> None:
        if self.mode != "show" and self.game.session is not None and self.load_save.back_to_show():
            self.message = ""
            return
        self.load_save.close()

    def next_page(self) -> None:
        self.page += 1
        self.display.changed()

    def save(self, to_stick: bool) -> None:
        self._say(*self.load_save.save(to_stick))

    def show_files(self) -> None:
        self._files = self.load_save.files()
        self.message, self.problem = "" if self._files else T.TEXT_NO_FILES, False
        self.load_save.set_mode("files")

    def load_file(self, key: str) -> None:
        found = [f for f in self._files if str(f[0]) == key]
        if not found:
            return
        self._loaded(self.load_save.load_file(found[0][0]))

    def start_typing(self) -> None:
        self.message, self.problem = "", False
        self.load_save.start_typing()

    def start_correction(self) -> None:
        """The arbiter's correction: the position line of the game, to edit and load."""
        if self.load_save.open_correction():
            self.message, self.problem = T.TEXT_CORRECT_HINT, False
            self.display.changed()

    def type_for(self, title: str, text: str, hint: str, take) -> None:
        """The keyboard for another screen's text (a position to start from): ``text`` to edit;
        ``take(text)`` returns what is wrong (one line) or None, and then the other screen
        comes back."""
        self.message, self.problem = hint, False
        self.load_save.type_for_other(title, text, take)

    def press(self, key: str) -> None:
        self.load_save.key(key)

    def clear(self) -> None:
        self.load_save.key("clear")

    def load_typed(self) -> None:
        correcting = self.mode == "correct"
        problem = self.load_save.done()
        if problem:
            self._say(problem, True)
        elif correcting:
            self._say(T.TEXT_CORRECTED, False)
        else:
            self._loaded(None)

    # ----- view -------------------------------------------------------------------------------
    def view(self) -> GameTextView:
        s = self.game.session
        entry = self.load_save.entry
        if self.mode in ("type", "correct", "other") and entry is not None:
            load = T.TEXT_APPLY if self.mode in ("correct", "other") else T.TEXT_LOAD
            return GameTextView(self.mode, entry.title, entry.with_cursor, (), "", 0, self.message, self.problem,
                                keys=key_rows(entry), shift=entry.upper, load_label=load)
        if self.mode == "files":
            files = tuple(FileChoice(str(path), label, where) for path, label, where in self._files)
            return GameTextView("files", T.TEXT_FILES_TITLE, "", (), "", 0, self.message, self.problem, files,
                                load_label=T.TEXT_LOAD)
        text = self.load_save.game_text() if s is not None else ""
        pages = qr_pages(text) if text else ()
        if self._qr_cache[0] != text:
            self._qr_cache = (text, tuple(qr_matrix(p) for p in pages))
        matrices = self._qr_cache[1]
        page = self.page % len(matrices) if matrices else 0
        label = T.QR_PAGE.format(n=page + 1, of=len(matrices)) if len(matrices) > 1 else T.QR_ONE
        return GameTextView("show", T.TEXT_TITLE, text or T.TEXT_NO_GAME, matrices[page] if matrices else (),
                            label if matrices else "", len(matrices), self.message, self.problem,
                            can_save=s is not None, can_correct=self.load_save.can_correct_here(),
                            load_label=T.TEXT_LOAD)

    # ----- helpers ----------------------------------------------------------------------------
    def _say(self, message: str, problem: bool) -> None:
        self.message, self.problem = message, problem
        self.display.changed()

    def _loaded(self, problem: str | None) -> None:
        if problem:
            self._say(problem, True)
        else:
            self.message, self.problem = "", False


def qr_pages(text: str, limit: int = QR_PAGE_BYTES) -> tuple[str, ...]:
    """The text cut at line ends into pages of at most ``limit`` bytes (a longer line is cut)."""
    pages, page = [], ""
    for line in text.splitlines(keepends=True):
        while len(line.encode()) > limit:
            if page:
                pages.append(page)
                page = ""
            cut = limit
            while len(line[:cut].encode()) > limit:
                cut -= 1
            pages.append(line[:cut])
            line = line[cut:]
        if len((page + line).encode()) > limit:
            pages.append(page)
            page = ""
        page += line
    if page:
        pages.append(page)
    return tuple(pages)


def qr_matrix(text: str) -> tuple[tuple[bool, ...], ...]:
    """The QR code of ``text`` as rows of modules (dark = True), with the quiet zone.

    A text with any letter beyond ASCII is written as UTF-8 and says so (an ECI mark): unmarked,
    a reader guesses the character set, and zbar reads "Chloé Łukasz" (UTF-8) and even "éé"
    (ISO-8859-1, the standard's default) as Shift JIS (tests/test_game_text_qr.py). The quiet
    zone is the standard's four modules (ISO/IEC 18004), light, so the code reads on the
    screen's dark background."""
    import segno

    marked = {} if text.isascii() else {"encoding": "utf-8", "eci": True}
    code = segno.make(text, error="l", micro=False, boost_error=False, **marked)
    quiet = QR_QUIET
    size = len(code.matrix) + 2 * quiet
    blank = (False,) * size
    rows = [blank] * quiet
    rows += [(False,) * quiet + tuple(bool(v) for v in row) + (False,) * quiet for row in code.matrix]
    rows += [blank] * quiet
    return tuple(rows)
