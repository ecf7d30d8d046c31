"""The table settings for the next game, edited on the table screen from the start screen:
casual or tournament, the clock, a clock that presses itself, the last move lit, the event,
round and board, the players' ratings, and the players and clock read from a pairing file
(TRF-16 or CSV, from a USB stick).

:class:`TableSettings` owns the choice for the next game (:class:`TableChoice`); the start
screen turns it into the game's TableSetup when the game starts.
"""

from __future__ import annotations

import re
import secrets
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from ...bounds import MAX_PAIRING_BYTES, read_text_file
from ...errors import ClockError, PairingError
from ...i18n import _
from ...tournament.files import write_private
from ...tournament.pairing import Pairing, parse_pairings
from ...tournament.table import TableSetup
from ...tournament.timecontrol import PRESET_KEYS, PRESETS, parse_time_control, preset
from .. import texts as T
from .display import Display
from .entry import Entry
from .questions import Prompt, PromptOption
from .storage import Storage

#: Files a pairing program writes.
PAIRING_SUFFIXES = (".trf", ".txt", ".csv", ".trfx")
#: The questions asked here, answered in :meth:`TableSettings.answer`.
ASKED = ("clock-preset", "pairing-file", "pairing-board")


@dataclass
class TableChoice:
    """The table settings for the next game, edited on the table screen."""

    mode: str = "casual"
    clock: str | None = None  # PGN TimeControl, None: no clock
    auto_press: bool = False
    last_move: bool = True
    event: str = ""
    round: int = 0
    board: int = 0
    ratings: list = field(default_factory=lambda: [None, None])
    names: list = field(default_factory=lambda: [None, None])  # from a pairing file
    pairing: Pairing | None = None
    pairing_file: str = ""  # where the pairing came from
    pairing_text: str = ""  # the TRF, to write the results back into
    pairing_kind: str = ""

    def setup(self, date: str, players: int = 2) -> TableSetup:
        ratings = tuple(self.ratings[:players]) if any(r is not None for r in self.ratings[:players]) else ()
        ids: tuple = ()
        source = ""
        if self.pairing is not None:
            p = self.pairing
            if self.pairing_kind == "trf":
                ids = (str(p.white_no), str(p.black_no))
            else:
                ids = (p.white.fide_id, p.black.fide_id)
            source = f"{self.pairing_kind}:{Path(self.pairing_file).name}"
        return TableSetup(self.mode, self.clock, self.auto_press and self.mode == "casual", self.last_move,
                          self.event, "", date, str(self.round) if self.round else "",
                          str(self.board) if self.board else "", ratings, ids, source)


class TableSettings:
    def __init__(self, display: Display, storage: Storage, *, today: Callable[[], str]) -> None:
        self.display = display
        self.storage = storage
        self.today = today  # the date for the PGN Date tag (at the edge: the wall clock)
        self.next_table = TableChoice()
        self._pairings = None

    # ----- the table screen: settings, players, pairings -------------------------------------------------
    def summary(self) -> str:
        """One line for the start screen: "Tournament, 15+10 - Round 3 · Board 7"."""
        c = self.next_table
        if c.clock is None and c.mode == "casual":
            text = T.TABLE_SUMMARY_NONE
        else:
            current = next((p.key for p in PRESETS if p.control.pgn() == c.clock), None)
            clock = T.CLOCK_SHORT.get(current) or T.CLOCK_PRESETS.get(current) or c.clock or T.NO_CLOCK
            text = T.TABLE_SUMMARY.format(mode=T.MODE_NAMES[c.mode], clock=clock)
        if c.round and c.board:
            text += "  \u2013  " + T.TABLE_PAIRED.format(round=c.round, board=c.board)
        return text

    def open(self) -> None:
        self.display.screen = "table_setup"
        self.display.changed()

    def close(self) -> None:
        self.display.screen = "start"
        self.display.changed()

    def set_mode(self, mode: str) -> None:
        c = self.next_table
        c.mode = mode
        if mode == "tournament" and c.clock is None:
            c.clock = preset("fide-standard").pgn()
        self.display.changed()

    def set_clock(self, key: str | None) -> None:
        c = self.next_table
        if key is None:
            if c.mode == "tournament":
                self.display.notice = T.TOURNAMENT_NEEDS_CLOCK
            else:
                c.clock = None
        else:
            c.clock = preset(key).pgn() if key in PRESET_KEYS else parse_time_control(key).pgn()
        self.display.changed()

    def more_clocks(self) -> None:
        self.display.prompt = Prompt("clock-preset", T.CLOCK_PRESETS_TITLE, tuple(
            PromptOption(key, T.CLOCK_PRESETS[key]) for key in PRESET_KEYS))
        self.display.changed()

    def toggle_auto_press(self) -> None:
        self.next_table.auto_press = not self.next_table.auto_press
        self.display.changed()

    def toggle_last_move(self) -> None:
        self.next_table.last_move = not self.next_table.last_move
        self.display.changed()

    def step_round(self, step: int) -> None:
        self.next_table.round = max(0, min(999, self.next_table.round + step))
        self.display.changed()

    def step_board(self, step: int) -> None:
        self.next_table.board = max(0, min(999, self.next_table.board + step))
        self.display.changed()

    def edit_event(self) -> None:
        self.display.open_entry(Entry(T.EVENT_TITLE, self.next_table.event, max_len=60, on_done=self._set_event))

    def _set_event(self, text: str) -> None:
        self.next_table.event = " ".join(text.split())

    def edit_rating(self, side: int) -> None:
        current = self.next_table.ratings[side]
        self.display.open_entry(Entry(T.RATING_TITLE.format(colour=T.COLOUR_NAMES[side]), str(current or ""),
                                      keys="digits", max_len=4, on_done=lambda text: self._set_rating(side, text)))

    def _set_rating(self, side: int, text: str) -> str | None:
        if text and not 0 <= int(text) <= 4000:
            return T.RATING_RULE
        self.next_table.ratings[side] = int(text) if text else None
        return None

    def open_pairing_files(self) -> None:
        """The pairing files on the mounted USB sticks (and in the data folder's pairings/)."""
        files = self.pairing_files()
        if not files:
            self.display.notice = T.NO_PAIRING_FILES
            self.display.changed()
            return
        self.display.prompt = Prompt("pairing-file", T.PAIRING_FILES_TITLE, tuple(
            PromptOption(str(path), label) for path, label in files[:12]))
        self.display.changed()

    def pairing_files(self) -> list[tuple[Path, str]]:
        places = [(s.path, s.name) for s in self.storage.sticks()]
        places += [(s.path / "companion-games", s.name) for s in self.storage.sticks()]
        places.append((self.storage.directory / "pairings", T.DATA_FOLDER))
        out = []
        for folder, name in places:
            try:
                files = sorted(p for p in folder.iterdir() if p.is_file() and p.suffix.lower() in PAIRING_SUFFIXES)
            except OSError:
                continue
            out += [(p, f"{p.name} ({name})") for p in files if "results" not in p.name]
        return out

    def load_pairing(self, path) -> None:
        """Read a pairing file; a malformed line is one message and nothing changes."""
        path = Path(path)
        try:
            text = read_text_file(path, MAX_PAIRING_BYTES, _("a pairing file"), PairingError, "utf-8-sig")
            pairings = parse_pairings(text, path.name)
        except (OSError, UnicodeDecodeError) as e:
            self.display.notice = T.PAIRING_UNREADABLE.format(name=path.name, reason=getattr(e, "strerror", None) or e)
            self.display.changed()
            return
        except PairingError as e:
            self.display.notice = str(e)
            self.display.changed()
            return
        self._pairings = (pairings, text)
        self.display.prompt = Prompt("pairing-board", T.PAIRING_BOARDS_TITLE.format(round=pairings.round), tuple(
            PromptOption(str(g.board), T.PAIRING_LINE.format(board=g.board, white=g.white.label(), black=g.black.label()))
            for g in pairings.games[:20]))
        self.display.changed()

    def choose_board(self, board: int) -> None:
        pairings, text = self._pairings
        game = pairings.board(board)
        c = self.next_table
        try:  # a copy for writing the results back, even after a power cut (the user's only: the hall's round key)
            write_private(self.storage.directory / "pairings" / Path(pairings.source).name, text)
        except OSError as e:
            self.display.notice = T.CANNOT_SAVE.format(reason=e)
            self.display.changed()
            return
        c.pairing, c.pairing_file, c.pairing_text, c.pairing_kind = game, pairings.source, text, pairings.kind
        c.round, c.board = game.round, game.board
        c.names = [game.white.name, game.black.name]
        c.ratings = [game.white.rating, game.black.rating]
        c.event = pairings.event or game.event or c.event
        control = game.time_control or _words_to_control(pairings.time_control_words)
        if control is not None:
            c.clock = control
        if pairings.kind == "trf" and c.mode == "casual":
            c.mode = "tournament"
            c.clock = c.clock or preset("fide-standard").pgn()
        self.display.notice = T.PAIRING_CHOSEN.format(round=game.round, board=game.board)
        self.display.changed()

    def clear_pairing(self) -> None:
        c = self.next_table
        c.pairing, c.names, c.pairing_text, c.pairing_file, c.pairing_kind = None, [None, None], "", "", ""
        self.display.changed()


    def answer(self, prompt: Prompt, key: str | None) -> None:
        """Display.answers_to: a clock preset, a pairing file, a board of the round."""
        if key is None:
            return
        if prompt.kind == "clock-preset":
            self.set_clock(key)
        elif prompt.kind == "pairing-file":
            self.load_pairing(key)
        elif prompt.kind == "pairing-board":
            self.choose_board(int(key))


def _words_to_control(words: str) -> str | None:
    """A TRF ``122`` line in words, when it reads as minutes plus seconds per move ("15 min +
    10 sec", "15'+10''", "90 min/40 moves + 30 min + 30 sec"); else None (the TD sets it)."""
    text = words.lower().replace("minutes", "min").replace("seconds", "sec").replace("\u2032", "'")
    m = re.fullmatch(r"\s*(\d+)\s*(?:min|')?\s*(?:/\s*(\d+)\s*moves?)?\s*(?:\+\s*(\d+)\s*(?:min|')\s*)?"
                     r"(?:\+\s*(\d+)\s*(?:sec|s|''|\")?\s*(?:per move|/move|/ move)?)?\s*", text)
    if m is None:
        return None
    base, moves, second, inc = m.groups()
    inc_text = f"+{inc}" if inc else ""
    try:
        if moves and second:
            return parse_time_control(f"{moves}/{int(base) * 60}{inc_text}:{int(second) * 60}{inc_text}").pgn()
        if not moves and not second:
            return parse_time_control(f"{int(base) * 60}{inc_text}").pgn()
    except ClockError:
        return None
    return None


def today() -> str:
    """The date for the PGN Date tag (at the edge: the wall clock)."""
    return time.strftime("%Y.%m.%d")


def new_salt() -> bytes:
    return secrets.token_bytes(16)


__all__ = ["TableSettings", "TableChoice", "today", "new_salt"]
