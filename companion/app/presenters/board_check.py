"""The board check: the live switch grid and an LED walk, for whoever built the board.

The guided first power-on (each LED and each square asked in turn, the corrected profile
written) is ``companion board-check`` on the command line; both name squares and LEDs the same
way (companion.board.bring_up)."""

from __future__ import annotations

from dataclasses import dataclass

from ...board.bring_up import square_name
from .. import texts as T
from .board import BoardView, SquareView, T_FILES, _name
from .flow import AppFlow

SENSED_MARK = "\u25cf"


@dataclass(frozen=True)
class BoardCheckView:
    sensed: str
    walk: str
    walking: bool
    note: str
    banner: str


class BoardCheckPresenter:
    def __init__(self, flow: AppFlow) -> None:
        self.flow = flow

    def toggle_walk(self) -> None:
        self.flow.toggle_led_walk()

    def back(self) -> None:
        self.flow.close_board_check()

    def tap(self, square: int) -> None:
        if self.flow.board.simulated is not None:
            self.flow.tap_square(square)

    def hold(self, square: int) -> None:
        self.tap(square)

    def view(self) -> BoardCheckView:
        flow = self.flow
        walk = ""
        if flow.walk is not None and flow.walk >= 0:
            walk = T.LED_AT.format(square=square_name(flow.walk, flow.board.width), i=flow.walk + 1, n=flow.board.size)
        return BoardCheckView(T.CHECK_SENSED.format(n=len(flow.sensed)), walk, flow.walk is not None,
                              T.CHECK_SIMULATED if flow.board.simulated is not None else T.CHECK_HELP,
                              flow.banner)

    def board(self) -> BoardView:
        """Every square: a dot where a switch is closed, the walk's LED colour where lit."""
        flow = self.flow
        w, h = flow.board.width, flow.board.height
        squares = []
        for sq in range(w * h):
            light = flow.frame[sq]
            squares.append(SquareView(sq, _name(sq, w), (sq % w + sq // w) % 2 == 0,
                                      None if light == (0, 0, 0) else light,
                                      glyph=SENSED_MARK if sq in flow.sensed else "", owner=0 if sq in flow.sensed else -1))
        return BoardView(w, h, tuple(squares), tuple(T_FILES[:w]), tuple(str(r + 1) for r in range(h)), flow.version)
