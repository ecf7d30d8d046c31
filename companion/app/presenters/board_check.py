"""The board check: the live switch grid and an LED walk, for whoever built the board.

The guided first power-on (each LED and each square asked in turn, the corrected profile
written) is ``companion board-check`` on the command line; both name squares and LEDs the same
way (companion.board.bring_up)."""

from __future__ import annotations

from dataclasses import dataclass

from ...board.bring_up import square_name
from .. import texts as T
from .board import BoardView, SquareView, T_FILES, _name
from .board_link import BoardRoom
from .display import Display

SENSED_MARK = "\u25cf"


@dataclass(frozen=True)
class BoardCheckView:
    sensed: str
    walk: str
    walking: bool
    note: str
    banner: str


class BoardCheckPresenter:
    def __init__(self, board: BoardRoom, display: Display) -> None:
        self.board_room = board
        self.display = display

    def toggle_walk(self) -> None:
        self.board_room.toggle_walk()

    def back(self) -> None:
        self.board_room.close_check()

    def tap(self, square: int) -> None:
        if self.board_room.link.simulated is not None:
            self.board_room.tap_square(square)

    def hold(self, square: int) -> None:
        self.tap(square)

    def view(self) -> BoardCheckView:
        b = self.board_room
        walk = ""
        if b.walk is not None and b.walk >= 0:
            walk = T.LED_AT.format(square=square_name(b.walk, b.link.width), i=b.walk + 1, n=b.link.size)
        return BoardCheckView(T.CHECK_SENSED.format(n=len(b.sensed)), walk, b.walk is not None,
                              T.CHECK_SIMULATED if b.link.simulated is not None else T.CHECK_HELP,
                              self.display.banner)

    def board(self) -> BoardView:
        """Every square: a dot where a switch is closed, the walk's LED colour where lit."""
        b = self.board_room
        w, h = b.link.width, b.link.height
        squares = []
        for sq in range(w * h):
            light = b.frame[sq]
            squares.append(SquareView(sq, _name(sq, w), (sq % w + sq // w) % 2 == 0,
                                      None if light == (0, 0, 0) else light,
                                      glyph=SENSED_MARK if sq in b.sensed else "", owner=0 if sq in b.sensed else -1))
        return BoardView(w, h, tuple(squares), tuple(T_FILES[:w]), tuple(str(r + 1) for r in range(h)),
                         self.display.version)
