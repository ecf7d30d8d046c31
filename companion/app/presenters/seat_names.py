"""The start screen's seats, and what each is called; which names follow a change of language.

A seat is called in one of three ways (docs/i18n.md, "What follows a change of language"):

* **the app's own name for it**, nothing stored: its colour in the game chosen ("White", the
  map's "Blue"), "Computer" while the computer plays a seat of a game without a map, "Player 3"
  for a seat no game has shown yet. It is made each time it is shown, so it follows the game,
  the map, who plays the seat and the language;
* **a word the player picked** from the presets ("Guest", "Player 1"; "Friend" for a seat at a
  friend's board): kept as the catalog's English, shown in the language of the moment, so the
  choice stays and its word follows the language;
* **a name a player typed** (now, or before: the names this board remembers): kept as it is,
  in every language.

A tournament's pairing names its players outside the seats (``TableSettings``): those names
are never touched. Once a game starts its seats are the game's (:meth:`SeatChoice.for_game`):
the app's own name and a preset go in as words (their English), which the game shows in the
language of the moment too; a typed name as it is.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ...i18n import _
from ...session import Seat
from .. import texts as T


@dataclass(frozen=True)
class SeatChoice:
    #: a typed name, or with ``preset`` a word's English; "" is the app's own name for the seat
    name: str = ""
    computer: bool = False
    level: int = 1
    empty: bool = False  # nobody sits here (only where the map offers a game without this seat)
    remote: bool = False  # the player sits at a friend's board (a linked game, docs/link.md)
    preset: bool = False  # ``name`` is a word of the catalog (its English), shown translated

    @property
    def is_default(self) -> bool:
        """Is the seat called by the app's own name for it?"""
        return not self.name

    @property
    def is_colour(self) -> bool:
        """Was a colour picked as its name ("Black" for White)? Another game or map, or the
        computer taking the seat, gives it back the app's own name (the seat's colour then)."""
        return self.preset and self.name in colour_words()

    def shown(self, default: str) -> str:
        """The name in the language of the moment; ``default``: the app's own name for the seat."""
        if not self.name:
            return default
        return _(self.name) if self.preset else self.name

    def called(self, name: str = "", preset: bool = False) -> SeatChoice:
        """The seat called ``name`` (a preset's English with ``preset``); "": the app's name."""
        return replace(self, name=name, preset=preset and bool(name))

    def by_default(self) -> SeatChoice:
        return self.called()

    def picked(self, text: str, *, typed: bool, default: str) -> SeatChoice:
        """The seat called what the name picker's tap or the keyboard gave: a typed name (or one
        this board remembers) as it is; the seat's own name (``default``, as shown) is no name
        of its own; a preset as its English."""
        if typed:
            return self.called(text)
        if text == default:
            return self.by_default()
        english = next((w for w in preset_words() if _(w) == text), None)
        return self.called(english, preset=True) if english is not None else self.called(text)

    def for_game(self, default: str) -> Seat:
        """The seat as a game keeps it: the app's own name (``default``, as its English) and a
        preset are words, shown in the language of the moment all game long; a typed name as it is."""
        name, word = (self.name, self.preset) if self.name else (default, True)
        return Seat(name, self.computer, self.level if self.computer else 0, word)

    def at_friends_board(self) -> SeatChoice:
        """Played at a friend's board: called "Friend" (a word, in every language)."""
        return replace(self, computer=False, remote=True).called(T.english("FRIEND"), preset=True)

    def here(self) -> SeatChoice:
        """Played at this board again: "Friend" was the app's word for the friend's board."""
        seat = replace(self, remote=False)
        return seat.by_default() if seat.preset and seat.name == T.english("FRIEND") else seat

    def as_person(self) -> SeatChoice:
        """A person plays it again: "Computer" picked as its name gives way to the app's own."""
        return self.by_default() if self.preset and self.name == T.english("COMPUTER") else self


def colour_word(colour: str) -> str:
    """A map seat's colour (companion/maps.py's name: "blue") as the word a game keeps for the
    seat named after it: its English ("Blue"; texts.seat_word shows it)."""
    return T.english("SEAT_COLOURS").get(colour, colour.capitalize())


def colour_words() -> tuple[str, ...]:
    """Every colour a seat is named after, in English (White, Black, the maps' colours)."""
    return tuple(T.english("COLOUR_NAMES")) + tuple(T.english("SEAT_COLOURS").values())


def preset_words() -> tuple[str, ...]:
    """The words the name picker offers (its presets and the maps' colours), in English."""
    return tuple(T.english("NAME_PRESETS")) + tuple(T.english("SEAT_COLOURS").values())


__all__ = ["SeatChoice", "colour_word", "colour_words", "preset_words"]
