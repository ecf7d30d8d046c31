"""The table screen (before a game): casual or tournament, the clock, the event, round and
board, the ratings, and players and clock from a pairing file."""

from __future__ import annotations

from dataclasses import dataclass

from ...tournament.timecontrol import PRESETS
from .. import texts as T
from .display import Display
from .start import Choice
from .table_settings import TableSettings

QUICK_CLOCKS = ("fide-standard", "rapid", "blitz")


@dataclass(frozen=True)
class TableSetupView:
    modes: tuple[Choice, ...]
    mode_hint: str
    clocks: tuple[Choice, ...]  # "none", the quick presets, "more" (selected when another preset is set)
    clock_label: str
    auto_press: bool
    last_move: bool
    tournament: bool
    round: str
    board: str
    event: str
    ratings: tuple[str, str]
    pairing: str
    notice: str


class TableSetupPresenter:
    def __init__(self, settings: TableSettings, display: Display) -> None:
        self.settings = settings
        self.display = display

    # commands (one per button)
    def mode(self, mode: str) -> None:
        self.settings.set_mode(mode)

    def clock(self, key: str) -> None:
        if key == "more":
            self.settings.more_clocks()
        else:
            self.settings.set_clock(None if key == "none" else key)

    def toggle_auto_press(self) -> None:
        self.settings.toggle_auto_press()

    def toggle_last_move(self) -> None:
        self.settings.toggle_last_move()

    def round(self, step: int) -> None:
        self.settings.step_round(step)

    def board(self, step: int) -> None:
        self.settings.step_board(step)

    def event(self) -> None:
        self.settings.edit_event()

    def rating(self, side: int) -> None:
        self.settings.edit_rating(side)

    def pairing(self) -> None:
        self.settings.open_pairing_files()

    def clear_pairing(self) -> None:
        self.settings.clear_pairing()

    def done(self) -> None:
        self.settings.close()

    def view(self) -> TableSetupView:
        c = self.settings.next_table
        current = next((p.key for p in PRESETS if p.control.pgn() == c.clock), None)
        clocks = [Choice("none", T.NO_CLOCK, c.clock is None)]
        clocks += [Choice(k, T.CLOCK_SHORT[k], current == k) for k in QUICK_CLOCKS]
        clocks.append(Choice("more", T.MORE_CLOCKS, c.clock is not None and current not in QUICK_CLOCKS))
        label = T.CLOCK_PRESETS.get(current, c.clock) if c.clock else T.NO_CLOCK
        ratings = tuple(str(r) if r is not None else T.RATING_NONE for r in c.ratings[:2])
        pairing = ""
        if c.pairing is not None:
            pairing = T.PAIRING_LINE.format(board=c.pairing.board, white=c.pairing.white.label(),
                                            black=c.pairing.black.label())
            pairing = T.HEADER_PAIRED.format(round=c.pairing.round, board=c.pairing.board) + ": " + \
                pairing.split(". ", 1)[1]
        return TableSetupView(
            tuple(Choice(m, T.MODE_NAMES[m], c.mode == m) for m in ("casual", "tournament")), T.MODE_HINTS[c.mode],
            tuple(clocks), label, c.auto_press, c.last_move, c.mode == "tournament",
            str(c.round) if c.round else T.RATING_NONE, str(c.board) if c.board else T.RATING_NONE,
            c.event or T.EVENT_NONE, (ratings[0], ratings[1]), pairing, self.display.notice)
