"""Arbiter mode (behind the PIN): the clocks, penalties, results, takebacks and the record of
what happened, each action journaled and written in the game's record."""

from __future__ import annotations

from dataclasses import dataclass

from ...tournament.clock import format_time
from .. import texts as T
from .arbiter_mode import ArbiterMode
from .display import Display
from .game_room import GameRoom
from .load_save import LoadSave


@dataclass(frozen=True)
class ArbiterSide:
    side: int
    line: str  # "Ann: 1:29:58 (12 moves)"
    running: bool


@dataclass(frozen=True)
class ArbiterView:
    title: str
    sides: tuple[ArbiterSide, ...]
    paused: bool
    counting: bool
    over: bool
    can_cancel: bool
    can_take_back: bool
    log: tuple[str, ...]
    notice: str


class ArbiterPresenter:
    def __init__(self, arbiter: ArbiterMode, game: GameRoom, load_save: LoadSave, display: Display) -> None:
        self.arbiter = arbiter
        self.game = game
        self.load_save = load_save  # the position corrected through the game's text
        self.display = display

    def set_time(self, side: int) -> None:
        self.arbiter.set_time(side)

    def add_time(self, side: int, ms: int) -> None:
        table = self.game.table
        now = table.clock.remaining(side, self.game.clock_ms()) if table is not None and table.clock else 0
        if ms < 0:
            self.arbiter.do("set-time", side=side, ms=max(0, now + ms))
        else:
            self.arbiter.do("add-time", side=side, ms=ms)

    def moves(self, side: int, step: int) -> None:
        table = self.game.table
        if table is None or table.clock is None:
            return
        self.arbiter.do("set-moves", side=side, moves=max(0, table.clock.moves[side] + step))

    def pause(self) -> None:
        self.arbiter.do("pause")

    def resume(self) -> None:
        self.arbiter.do("resume")

    def penalty(self, side: int) -> None:
        self.arbiter.do("penalty", side=side)

    def cancel_penalty(self) -> None:
        table = self.game.table
        live = [i for i, p in enumerate(table.penalties) if not p.cancelled and p.ms] if table else []
        if live:
            self.arbiter.do("cancel-penalty", index=live[-1])

    def take_back(self) -> None:
        self.arbiter.do("takeback", turns=1)

    def result(self) -> None:
        self.arbiter.ask_result()

    def end(self) -> None:
        self.arbiter.do("end")

    def change_pin(self) -> None:
        self.arbiter.change_pin()

    def correct_position(self) -> None:
        """The position corrected through the game's text (Load / Save's keyboard)."""
        self.load_save.open_correction()

    def back(self) -> None:
        self.arbiter.close()

    def view(self) -> ArbiterView | None:
        table, s = self.game.table, self.game.session
        if table is None or s is None:
            return None
        sides = ()
        paused = counting = False
        if table.clock is not None:
            view = table.clock.view(self.game.clock_ms())
            paused, counting = view.paused, view.counting
            sides = tuple(ArbiterSide(i, T.ARBITER_CLOCK_LINE.format(name=seat.name, time=format_time(view.times[i]),
                                                                    moves=view.moves[i]), view.running == i)
                          for i, seat in enumerate(s.seats))
        log = tuple(n.text for n in table.notes[-8:]) or (T.ARBITER_NOTHING,)
        can_cancel = any(not p.cancelled and p.ms for p in table.penalties)
        return ArbiterView(T.ARBITER_TITLE + "  \u2013  " + T.GAME_TITLES.get(s.setup.game, s.setup.game), sides,
                           paused, counting, s.is_over, can_cancel and not s.is_over,
                           bool(s.moves) and not s.is_over, log, self.display.notice)
