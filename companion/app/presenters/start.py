"""The start screen: the game, the two players (person or computer, level, name from
presets), the dice. Every choice is a tap; nothing is typed."""

from __future__ import annotations

from dataclasses import dataclass, replace

from ...session import DICE_MODES, GAMES_WITH_DICE, Seat
from .. import texts as T
from .flow import AppFlow

GAME_CHOICES = ("chess", "combat")


@dataclass(frozen=True)
class SeatChoice:
    name: str
    computer: bool = False
    level: int = 1


@dataclass(frozen=True)
class Choice:
    key: str
    label: str
    selected: bool


@dataclass(frozen=True)
class SeatView:
    colour: str
    name: str
    computer: bool
    level: str
    can_computer: bool


@dataclass(frozen=True)
class StartView:
    games: tuple[Choice, ...]
    game_hint: str
    seats: tuple[SeatView, ...]
    has_dice: bool
    dice: tuple[Choice, ...]
    dice_hint: str
    d6_only: bool
    names: tuple[str, ...]  # presets, when the name picker is open
    picking_for: str  # "Pick a name for White" ("" when closed)
    problem: str  # e.g. a saved game that could not be read
    no_computer: str


class StartPresenter:
    def __init__(self, flow: AppFlow) -> None:
        self.flow = flow
        self.game = "combat"
        self.seats = [SeatChoice("White"), SeatChoice("Black")]
        self.dice = "virtual"
        self.d6_only = False
        self.picking: int | None = None

    @property
    def max_level(self) -> int:
        c = self.flow.computer
        return int(getattr(c, "max_level", 0)) if c is not None else 0

    # ----- commands -----------------------------------------------------------------------------
    def choose_game(self, game: str) -> None:
        if game in GAME_CHOICES:
            self.game = game
            self.flow.changed()

    def toggle_computer(self, seat: int) -> None:
        if self.max_level < 1:
            return
        s = self.seats[seat]
        computer = not s.computer
        name = s.name
        if computer and name in T.COLOUR_NAMES:
            name = T.COMPUTER
        elif not computer and name == T.COMPUTER:
            name = T.COLOUR_NAMES[seat]
        self.seats[seat] = SeatChoice(name, computer, min(max(s.level, 1), self.max_level))
        self.flow.changed()

    def change_level(self, seat: int, step: int) -> None:
        s = self.seats[seat]
        self.seats[seat] = replace(s, level=min(max(1, s.level + step), max(1, self.max_level)))
        self.flow.changed()

    def open_names(self, seat: int) -> None:
        self.picking = seat
        self.flow.changed()

    def pick_name(self, name: str | None) -> None:
        if self.picking is not None and name:
            self.seats[self.picking] = replace(self.seats[self.picking], name=name)
        self.picking = None
        self.flow.changed()

    def choose_dice(self, mode: str) -> None:
        if mode in DICE_MODES:
            self.dice = mode
            self.flow.changed()

    def toggle_d6(self) -> None:
        self.d6_only = not self.d6_only
        self.flow.changed()

    def start(self) -> None:
        seats = tuple(Seat(s.name, s.computer, s.level if s.computer else 0) for s in self.seats)
        self.flow.new_game(self.game, seats, self.dice, self.d6_only and self.game in GAMES_WITH_DICE)

    def board_check(self) -> None:
        self.flow.open_board_check()

    # ----- view ---------------------------------------------------------------------------------
    def view(self) -> StartView:
        has_dice = self.game in GAMES_WITH_DICE
        seats = tuple(
            SeatView(T.COLOUR_NAMES[i], s.name, s.computer, T.LEVEL.format(level=s.level), self.max_level > 0)
            for i, s in enumerate(self.seats)
        )
        return StartView(
            tuple(Choice(g, T.GAME_TITLES[g], g == self.game) for g in GAME_CHOICES),
            T.GAME_HINTS[self.game], seats, has_dice,
            tuple(Choice(m, T.DICE_MODES[m], m == self.dice) for m in DICE_MODES),
            T.DICE_HINTS[self.dice], self.d6_only,
            T.NAME_PRESETS if self.picking is not None else (),
            T.PICK_NAME.format(colour=T.COLOUR_NAMES[self.picking]) if self.picking is not None else "",
            self.flow.resume_problem, "" if self.max_level else T.NO_COMPUTER,
        )
