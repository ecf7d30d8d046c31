"""Arbiter mode (behind the PIN): the clocks, penalties, results, takebacks and the record of
what happened, each action journaled and written in the game's record."""

from __future__ import annotations

from dataclasses import dataclass

from ...tournament.clock import format_time
from .. import texts as T
from .flow import AppFlow, Prompt, PromptOption


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
    def __init__(self, flow: AppFlow) -> None:
        self.flow = flow

    def set_time(self, side: int) -> None:
        self.flow.arbiter_set_time(side)

    def add_time(self, side: int, ms: int) -> None:
        table = self.flow.table
        now = table.clock.remaining(side, self.flow.clock_ms()) if table is not None and table.clock else 0
        if ms < 0:
            self.flow.arbiter_do("set-time", side=side, ms=max(0, now + ms))
        else:
            self.flow.arbiter_do("add-time", side=side, ms=ms)

    def moves(self, side: int, step: int) -> None:
        table = self.flow.table
        if table is None or table.clock is None:
            return
        self.flow.arbiter_do("set-moves", side=side, moves=max(0, table.clock.moves[side] + step))

    def pause(self) -> None:
        self.flow.arbiter_do("pause")

    def resume(self) -> None:
        self.flow.arbiter_do("resume")

    def penalty(self, side: int) -> None:
        self.flow.arbiter_do("penalty", side=side)

    def cancel_penalty(self) -> None:
        table = self.flow.table
        live = [i for i, p in enumerate(table.penalties) if not p.cancelled and p.ms] if table else []
        if live:
            self.flow.arbiter_do("cancel-penalty", index=live[-1])

    def take_back(self) -> None:
        self.flow.arbiter_do("takeback", turns=1)

    def result(self) -> None:
        self.flow.prompt = Prompt("arbiter-result", T.ARBITER_RESULTS_TITLE, tuple(
            PromptOption(code, label) for code, label in T.ARBITER_RESULTS.items()))
        self.flow.changed()

    def end(self) -> None:
        self.flow.arbiter_do("end")

    def change_pin(self) -> None:
        self.flow.change_pin()

    def correct_position(self) -> None:
        """The position corrected through the game's text (Load / Save's keyboard)."""
        self.flow.open_correction()

    def back(self) -> None:
        self.flow.close_arbiter()

    def view(self) -> ArbiterView | None:
        flow = self.flow
        table, s = flow.table, flow.session
        if table is None or s is None:
            return None
        sides = ()
        paused = counting = False
        if table.clock is not None:
            view = table.clock.view(flow.clock_ms())
            paused, counting = view.paused, view.counting
            sides = tuple(ArbiterSide(i, T.ARBITER_CLOCK_LINE.format(name=seat.name, time=format_time(view.times[i]),
                                                                    moves=view.moves[i]), view.running == i)
                          for i, seat in enumerate(s.seats))
        log = tuple(n.text for n in table.notes[-8:]) or (T.ARBITER_NOTHING,)
        can_cancel = any(not p.cancelled and p.ms for p in table.penalties)
        return ArbiterView(T.ARBITER_TITLE + "  \u2013  " + T.GAME_TITLES.get(s.setup.game, s.setup.game), sides,
                           paused, counting, s.is_over, can_cancel and not s.is_over,
                           bool(s.moves) and not s.is_over, log, flow.notice)
