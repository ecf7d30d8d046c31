"""Setting up the board before the first move: how many squares are still wrong."""

from __future__ import annotations

from dataclasses import dataclass

from .. import texts as T
from .flow import AppFlow


@dataclass(frozen=True)
class SetupView:
    title: str
    help: str
    counts: str
    ready: bool
    simulated: bool
    banner: str


class SetupPresenter:
    def __init__(self, flow: AppFlow) -> None:
        self.flow = flow

    def fill(self) -> None:
        self.flow.fill_simulated_board()

    def start(self) -> None:
        self.flow.start_playing()

    def view(self) -> SetupView:
        flow = self.flow
        s = flow.session
        expected = s.rules.expected_occupancy(s.pos) if s is not None else frozenset()
        fill = len(expected - flow.sensed)
        empty = len(flow.sensed - expected)
        ready = fill == 0 and empty == 0
        help_text = flow.guidance or T.SETUP_HELP
        if flow.board.simulated is not None:
            help_text += " " + T.SIMULATED_HELP
        return SetupView(T.SETUP_TITLE, help_text, T.SETUP_DONE if ready else T.SETUP_COUNTS.format(fill=fill, empty=empty),
                         ready, flow.board.simulated is not None, flow.banner)
