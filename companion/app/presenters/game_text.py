"""The Load / Save screen (docs/game-text.md): the current game as text and as QR codes, saving
it to the board or a USB stick, loading a game from a file or a stick, typing or editing a text
on the on-screen keyboard (the board has no physical keyboard), and the arbiter's position
correction through the same text.

Plain Python: the keyboard is a buffer with a cursor that key presses edit; the QR codes are
module matrices (segno) the screen paints; files are read and written through the flow.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .. import texts as T
from .flow import AppFlow

#: a QR page holds at most this many bytes of text: a version ~25 code, whose modules stay
#: about 3 pixels on the 800x480 screen (a phone reads it; a full version-40 code it may not)
QR_PAGE_BYTES = 700

#: the keyboard: rows of keys; a key is its character, or a command word
KEY_ROWS = (
    ("1", "2", "3", "4", "5", "6", "7", "8", "9", "0", "back"),
    ("q", "w", "e", "r", "t", "y", "u", "i", "o", "p", "/"),
    ("a", "s", "d", "f", "g", "h", "j", "k", "l", ":", "="),
    ("shift", "z", "x", "c", "v", "b", "n", "m", "(", ")", ","),
    ("left", "right", ".", "-", "[", "]", "\"", "space", "enter"),
)
COMMANDS = {"back", "shift", "left", "right", "space", "enter"}
MAX_TYPED = 20_000


@dataclass(frozen=True)
class Key:
    key: str  # what press() takes
    label: str
    wide: float = 1.0  # relative width


@dataclass(frozen=True)
class FileChoice:
    key: str  # what load_file() takes
    label: str
    where: str  # "USB stick" or "this board"


@dataclass(frozen=True)
class GameTextView:
    mode: str  # "show", "files", "type" or "correct"
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
    load_label: str = T.TEXT_LOAD


@dataclass
class _Typing:
    buffer: str = ""
    cursor: int = 0
    shift: bool = False


@dataclass
class GameTextPresenter:
    flow: AppFlow
    mode: str = "show"
    page: int = 0
    message: str = ""
    problem: bool = False
    typing: _Typing = field(default_factory=_Typing)
    _files: list = field(default_factory=list)
    _qr_cache: tuple = ((), ())
    #: another screen's text typed here (mode "other"): its title, hint and what takes the text
    _other: tuple = ("", "", None)

    # ----- commands ---------------------------------------------------------------------------
    def open(self) -> None:
        self.mode, self.page, self.message, self.problem = "show", 0, "", False
        self.flow.open_game_text()

    def close(self) -> None:
        if self.mode == "other":  # back to the screen that asked for the text
            self.mode, self.message = "show", ""
            self.flow.close_game_text()
            return
        if self.mode != "show" and self.flow.session is not None:
            self.mode, self.message = "show", ""
            self.flow.changed()
            return
        self.flow.close_game_text()

    def next_page(self) -> None:
        self.page += 1
        self.flow.changed()

    def save(self, to_stick: bool) -> None:
        self._say(*self.flow.save_game_text(to_stick))

    def show_files(self) -> None:
        self._files = self.flow.game_text_files()
        self.mode, self.message, self.problem = "files", "" if self._files else T.TEXT_NO_FILES, False
        self.flow.changed()

    def load_file(self, key: str) -> None:
        found = [f for f in self._files if str(f[0]) == key]
        if not found:
            return
        self._loaded(self.flow.load_game_text_file(found[0][0]))

    def start_typing(self) -> None:
        self.typing = _Typing()
        self.mode, self.message, self.problem = "type", "", False
        self.flow.changed()

    def start_correction(self) -> None:
        """The arbiter's correction: the position line of the game, to edit and load."""
        s = self.flow.session
        if s is None:
            return
        text = s.rules.position_text(s.pos)
        self.typing = _Typing(text, len(text))
        self.mode, self.message, self.problem = "correct", T.TEXT_CORRECT_HINT, False
        self.flow.changed()

    def type_for(self, title: str, text: str, hint: str, take) -> None:
        """The keyboard for another screen's text (a position to start from): ``text`` to edit;
        ``take(text)`` returns what is wrong (one line) or None, and then the other screen
        comes back."""
        self.typing = _Typing(text, len(text))
        self._other = (title, hint, take)
        self.mode, self.message, self.problem = "other", hint, False
        self.flow.open_game_text()

    def press(self, key: str) -> None:
        t = self.typing
        if key == "back":
            if t.cursor:
                t.buffer = t.buffer[:t.cursor - 1] + t.buffer[t.cursor:]
                t.cursor -= 1
        elif key == "shift":
            t.shift = not t.shift
        elif key == "left":
            t.cursor = max(0, t.cursor - 1)
        elif key == "right":
            t.cursor = min(len(t.buffer), t.cursor + 1)
        elif len(t.buffer) < MAX_TYPED:
            ch = {"space": " ", "enter": "\n"}.get(key, key)
            if t.shift and len(ch) == 1:
                ch = ch.upper()
                t.shift = False
            t.buffer = t.buffer[:t.cursor] + ch + t.buffer[t.cursor:]
            t.cursor += len(ch)
        self.flow.changed()

    def clear(self) -> None:
        self.typing = _Typing(shift=self.typing.shift)
        self.flow.changed()

    def load_typed(self) -> None:
        text = self.typing.buffer
        if self.mode == "other":
            problem = self._other[2](text)
            if problem:
                self._say(problem, True)
            else:
                self.mode, self.message = "show", ""
                self.flow.close_game_text()
            return
        if self.mode == "correct":
            problem = self.flow.correct_position(text.strip())
            if problem:
                self._say(problem, True)
            else:
                self.mode = "show"
                self._say(T.TEXT_CORRECTED, False)
            return
        self._loaded(self.flow.load_game_text(text))

    # ----- view -------------------------------------------------------------------------------
    def view(self) -> GameTextView:
        flow = self.flow
        s = flow.session
        if self.mode in ("type", "correct", "other"):
            t = self.typing
            shown = t.buffer[:t.cursor] + "|" + t.buffer[t.cursor:]
            keys = tuple(tuple(Key(k, T.KEY_LABELS.get(k, k.upper() if t.shift and len(k) == 1 else k),
                                   3.0 if k == "space" else 1.5 if k in ("enter", "shift", "back") else 1.0)
                               for k in row) for row in KEY_ROWS)
            title = {"correct": T.TEXT_CORRECT_TITLE, "other": self._other[0]}.get(self.mode, T.TEXT_TYPE_TITLE)
            load = T.TEXT_APPLY if self.mode in ("correct", "other") else T.TEXT_LOAD
            return GameTextView(self.mode, title, shown, (), "", 0, self.message, self.problem, keys=keys,
                                shift=t.shift, load_label=load)
        if self.mode == "files":
            files = tuple(FileChoice(str(path), label, where) for path, label, where in self._files)
            return GameTextView("files", T.TEXT_FILES_TITLE, "", (), "", 0, self.message, self.problem, files)
        text = flow.game_text() if s is not None else ""
        pages = qr_pages(text) if text else ()
        if self._qr_cache[0] != text:
            self._qr_cache = (text, tuple(qr_matrix(p) for p in pages))
        matrices = self._qr_cache[1]
        page = self.page % len(matrices) if matrices else 0
        label = T.QR_PAGE.format(n=page + 1, of=len(matrices)) if len(matrices) > 1 else T.QR_ONE
        return GameTextView("show", T.TEXT_TITLE, text or T.TEXT_NO_GAME, matrices[page] if matrices else (),
                            label if matrices else "", len(matrices), self.message, self.problem,
                            can_save=s is not None, can_correct=s is not None and not s.is_over)

    # ----- helpers ----------------------------------------------------------------------------
    def _say(self, message: str, problem: bool) -> None:
        self.message, self.problem = message, problem
        self.flow.changed()

    def _loaded(self, problem: str | None) -> None:
        if problem:
            self._say(problem, True)
        else:
            self.mode, self.message, self.problem = "show", "", False


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
    """The QR code of ``text`` as rows of modules (dark = True), with the quiet zone."""
    import segno

    code = segno.make(text, error="l", micro=False, boost_error=False)
    quiet = 2
    size = len(code.matrix) + 2 * quiet
    blank = (False,) * size
    rows = [blank] * quiet
    rows += [(False,) * quiet + tuple(bool(v) for v in row) + (False,) * quiet for row in code.matrix]
    rows += [blank] * quiet
    return tuple(rows)
