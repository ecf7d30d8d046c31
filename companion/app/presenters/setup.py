"""Setting up the board before the first move: how many squares are still wrong."""

from __future__ import annotations

from dataclasses import dataclass

from .. import texts as T
from .board_link import BoardRoom
from .display import Display
from .game_room import GameRoom
from .play import Play


@dataclass(frozen=True)
class SetupView:
    title: str
    help: str
    counts: str
    ready: bool
    simulated: bool
    banner: str


class SetupPresenter:
    def __init__(self, game: GameRoom, play: Play, board: BoardRoom, display: Display) -> None:
        self.game = game
        self.play = play  # Start: the game begins
        self.board = board
        self.display = display

    def fill(self) -> None:
        self.game.fill_simulated_board()

    def start(self) -> None:
        self.play.start_playing()

    def view(self) -> SetupView:
        s = self.game.session
        expected = s.rules.expected_occupancy(s.pos) if s is not None else frozenset()
        fill = len(expected - self.board.sensed)
        empty = len(self.board.sensed - expected)
        ready = fill == 0 and empty == 0
        help_text = self.board.guidance or T.SETUP_HELP
        if self.board.link.simulated is not None:
            help_text += " " + T.SIMULATED_HELP
        return SetupView(T.SETUP_TITLE, help_text, T.SETUP_DONE if ready else T.SETUP_COUNTS.format(fill=fill, empty=empty),
                         ready, self.board.link.simulated is not None, self.display.banner)
