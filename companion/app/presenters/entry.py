"""Typing without a keyboard: the one on-screen keyboard of the app.

:class:`Entry` is a plain value: what is typed, where the cursor is, which keys are shown. Three
layouts: ``letters`` (a name or an event, in a popup), ``digits`` (a PIN, a rating, a clock
time on a number pad, in a popup) and ``text`` (a game's text on the Load / Save screen: every
character a game text is written with, lines and a cursor to edit in the middle). The flow holds
the open entry; the screens only show its view (:func:`key_rows`) and send the keys.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Callable

from .. import texts as T

LETTERS = ("QWERTYUIOP", "ASDFGHJKL'", "ZXCVBNM,.-")
ACCENTS = ("ÁÀÄÂÅÃÆÇÉÈ", "ËÊÍÌÏÎÑÓÒÖ", "ÔØÕŚŠÚÙÜÛÝ")
DIGITS = ("123", "456", "789")
SHIFT, MORE, SPACE, BACK, CLEAR, LEFT, RIGHT, ENTER = "shift", "more", "space", "back", "clear", "left", "right", "enter"
COMMANDS = frozenset({SHIFT, MORE, SPACE, BACK, CLEAR, LEFT, RIGHT, ENTER})
#: A game's text (docs/game-text.md): positions (FEN, our extended text), moves, answers, rolls
#: and journal lines; the ``more`` page has the rest of JSON's and a name's characters.
TEXT = (
    ("1", "2", "3", "4", "5", "6", "7", "8", "9", "0", BACK),
    ("q", "w", "e", "r", "t", "y", "u", "i", "o", "p", "/"),
    ("a", "s", "d", "f", "g", "h", "j", "k", "l", ":", "="),
    (SHIFT, "z", "x", "c", "v", "b", "n", "m", "(", ")", ","),
    (MORE, LEFT, RIGHT, ".", "-", "[", "]", '"', SPACE, ENTER),
)
TEXT_MORE = (
    ("{", "}", "_", "@", "+", "#", "'", "*", "!", "?", BACK),
    tuple(ACCENTS[0].lower()) + ("&",),
    tuple(ACCENTS[1].lower()) + (";",),
    (SHIFT,) + tuple(ACCENTS[2].lower()),
    (MORE, LEFT, RIGHT, ".", "-", "[", "]", '"', SPACE, ENTER),
)
#: How much wider than a letter a key is (within its row).
KEY_WIDTHS = {SPACE: 3.0, SHIFT: 1.5, MORE: 1.5, BACK: 1.5, ENTER: 1.5}
LAYOUTS = ("letters", "digits", "text")


@dataclass(frozen=True)
class Entry:
    """What is being typed. ``keys``: the layout (:data:`LAYOUTS`); ``kind`` "time" shows digits
    as a clock time ([h]mmss from the right); ``secret`` shows dots. ``cursor`` is where the
    next character goes (None: at the end). ``upper``: the next letter is a capital (letters:
    after a space, for names); ``accents``: the second page of keys."""

    title: str
    text: str = ""
    keys: str = "letters"
    kind: str = "text"
    secret: bool = False
    max_len: int = 40
    upper: bool = True
    accents: bool = False
    problem: str = ""
    cursor: int | None = None
    on_done: Callable[[str], str | None] | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if self.keys not in LAYOUTS:
            raise ValueError(f"keys must be one of {LAYOUTS}, got {self.keys!r}")

    @classmethod
    def for_text(cls, title: str, text: str = "", *, max_len: int = 20_000,
                 on_done: Callable[[str], str | None] | None = None) -> Entry:
        """A game's text to type or edit, the cursor at its end, small letters first."""
        return cls(title, text, keys="text", max_len=max_len, upper=False, on_done=on_done)

    @property
    def at(self) -> int:
        """The cursor's place in ``text``."""
        return len(self.text) if self.cursor is None else max(0, min(self.cursor, len(self.text)))

    def press(self, key: str) -> Entry:
        at = self.at
        if key == BACK:
            return replace(self, text=self.text[:at - 1] + self.text[at:], cursor=max(0, at - 1), problem="") \
                if at else replace(self, problem="")
        if key == CLEAR:
            return replace(self, text="", cursor=None, problem="")
        if key == SHIFT:
            return replace(self, upper=not self.upper)
        if key == MORE:
            return replace(self, accents=not self.accents)
        if key in (LEFT, RIGHT):
            return replace(self, cursor=max(0, min(len(self.text), at + (1 if key == RIGHT else -1))))
        char = {SPACE: " ", ENTER: "\n"}.get(key, key)
        if len(char) != 1 or (char == "\n" and self.keys != "text"):
            return self
        if self.keys == "digits" and not char.isdigit():
            return self
        if len(self.text) >= self.max_len:
            return self
        if char.isalpha():
            char = char.upper() if self.upper else char.lower()
        text = self.text[:at] + char + self.text[at:]
        # a capital after a space or at the start of a name, small letters after that; on the
        # text layout shift is for one letter
        upper = self.keys == "letters" and char in " -'"
        return replace(self, text=text, cursor=None if self.cursor is None else at + 1, upper=upper, problem="")

    @property
    def shown(self) -> str:
        if self.secret:
            return "\u2022" * len(self.text)
        if self.kind == "time":
            return time_face(self.text)
        return self.text

    @property
    def with_cursor(self) -> str:
        """The text with a bar where the cursor is (the Load / Save screen)."""
        return self.text[:self.at] + "|" + self.text[self.at:]

    def rows(self) -> tuple[tuple[str, ...], ...]:
        """The keys, row by row, letters in the case they would be typed."""
        if self.keys == "digits":
            return tuple(tuple(r) for r in DIGITS) + ((CLEAR, "0", BACK),)
        if self.keys == "text":
            page = TEXT_MORE if self.accents else TEXT
            return tuple(tuple(k.upper() if self.upper and len(k) == 1 else k for k in row) for row in page)
        letters = ACCENTS if self.accents else LETTERS
        rows = [tuple(c if self.upper else c.lower() for c in row) for row in letters]
        return tuple(rows) + ((SHIFT, MORE, SPACE, BACK),)


@dataclass(frozen=True)
class Key:
    """A key as shown: what :meth:`Entry.press` takes, its label, its width in its row."""

    key: str
    label: str
    wide: float = 1.0


def key_label(key: str, layout: str = "letters") -> str:
    if layout == "text" and key in T.TEXT_ENTRY_KEYS:
        return T.TEXT_ENTRY_KEYS[key]
    return T.ENTRY_KEYS.get(key, key)


def key_rows(entry: Entry) -> tuple[tuple[Key, ...], ...]:
    """The entry's keys as buttons, row by row: a letter's key is the same whatever its case
    (:meth:`Entry.press` types it in the case shown), its label in that case."""
    return tuple(tuple(Key(k.lower() if len(k) == 1 else k, key_label(k, entry.keys) if k in COMMANDS else k,
                           KEY_WIDTHS.get(k, 1.0)) for k in row) for row in entry.rows())


def time_face(digits: str) -> str:
    """Digits typed for a clock time, read from the right: "130" is 1:30, "13000" is 1:30:00."""
    d = digits.lstrip("0").rjust(1, "0") if digits else ""
    d = d.rjust(3, "0")
    seconds, minutes, hours = d[-2:], d[-4:-2].rjust(2, "0") if len(d) > 2 else "00", d[:-4]
    if hours:
        return f"{int(hours)}:{minutes}:{seconds}"
    return f"{int(minutes)}:{seconds}"


def time_ms(digits: str) -> int:
    """The milliseconds of :func:`time_face`'s reading."""
    d = digits.rjust(6, "0")
    hours, minutes, seconds = int(d[:-4]), int(d[-4:-2]), int(d[-2:])
    return ((hours * 60 + minutes) * 60 + seconds) * 1000


@dataclass(frozen=True)
class EntryView:
    title: str
    shown: str
    rows: tuple[tuple[Key, ...], ...]
    problem: str
    digits: bool


class EntryPresenter:
    """The popup's keyboard or number pad: the Display's open entry, its keys."""

    def __init__(self, display) -> None:
        self.display = display  # the Display (display.py), which holds the open entry

    def view(self) -> EntryView | None:
        e = self.display.entry
        if e is None:
            return None
        return EntryView(e.title, e.shown, key_rows(e), e.problem, e.keys == "digits")

    def key(self, key: str) -> None:
        self.display.entry_key(key)

    def done(self) -> None:
        self.display.entry_done()

    def cancel(self) -> None:
        self.display.entry_cancel()
