"""Typing without a keyboard: a name or an event on the on-screen keyboard, a PIN, a rating
or a clock time on the number pad. A plain value the flow holds while the popup is open; the
popup only shows its view and sends the keys."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Callable

from .. import texts as T

LETTERS = ("QWERTYUIOP", "ASDFGHJKL'", "ZXCVBNM,.-")
ACCENTS = ("ÁÀÄÂÅÃÆÇÉÈ", "ËÊÍÌÏÎÑÓÒÖ", "ÔØÕŚŠÚÙÜÛÝ")
DIGITS = ("123", "456", "789")
SHIFT, MORE, SPACE, BACK, CLEAR = "shift", "more", "space", "back", "clear"


@dataclass(frozen=True)
class Entry:
    """What is being typed. ``keys``: "letters" (keyboard) or "digits" (number pad); ``kind``
    "time" shows digits as a clock time ([h]mmss from the right); ``secret`` shows dots."""

    title: str
    text: str = ""
    keys: str = "letters"
    kind: str = "text"
    secret: bool = False
    max_len: int = 40
    upper: bool = True
    accents: bool = False
    problem: str = ""
    on_done: Callable[[str], str | None] | None = field(default=None, compare=False)

    def press(self, key: str) -> Entry:
        if key == BACK:
            return replace(self, text=self.text[:-1], problem="")
        if key == CLEAR:
            return replace(self, text="", problem="")
        if key == SHIFT:
            return replace(self, upper=not self.upper)
        if key == MORE:
            return replace(self, accents=not self.accents)
        char = " " if key == SPACE else key
        if self.keys == "digits" and not char.isdigit():
            return self
        if len(self.text) >= self.max_len:
            return self
        if self.keys == "letters" and char.isalpha():
            char = char.upper() if self.upper else char.lower()
        text = self.text + char
        # a capital after a space or at the start, small letters after that (names)
        upper = self.keys == "letters" and char in " -'"
        return replace(self, text=text, upper=upper, problem="")

    @property
    def shown(self) -> str:
        if self.secret:
            return "\u2022" * len(self.text)
        if self.kind == "time":
            return time_face(self.text)
        return self.text

    def rows(self) -> tuple[tuple[str, ...], ...]:
        if self.keys == "digits":
            return tuple(tuple(r) for r in DIGITS) + ((CLEAR, "0", BACK),)
        letters = ACCENTS if self.accents else LETTERS
        rows = [tuple(c if self.upper else c.lower() for c in row) for row in letters]
        return tuple(rows) + ((SHIFT, MORE, SPACE, BACK),)


def key_label(key: str) -> str:
    return T.ENTRY_KEYS.get(key, key)


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
    rows: tuple[tuple[tuple[str, str], ...], ...]  # (key, label) per button, row by row
    problem: str
    digits: bool


class EntryPresenter:
    """The on-screen keyboard and number pad: the flow's open entry, its keys."""

    def __init__(self, flow) -> None:
        self.flow = flow

    def view(self) -> EntryView | None:
        e = self.flow.entry
        if e is None:
            return None
        rows = tuple(tuple((k, key_label(k)) for k in row) for row in e.rows())
        return EntryView(e.title, e.shown, rows, e.problem, e.keys == "digits")

    def key(self, key: str) -> None:
        self.flow.entry_key(key)

    def done(self) -> None:
        self.flow.entry_done()

    def cancel(self) -> None:
        self.flow.entry_cancel()
