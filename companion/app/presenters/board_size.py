"""The board the app talks to, and playing maps of different sizes on it.

A game is played on its map's squares: 8x8 for chess, 10x10, 8x20 or 20x20 for Dungeon Chess.
The simulated board is simply made anew at the map's size; a hardware board is opened again
for the map (companion/board/hardware.py: "To play a map of another size, stop both ports and
open the board again"), and one too small for the map says so and stays as it was.

:class:`BoardSizing` is part of companion.app.presenters.flow.AppFlow (a mixin: it uses the
flow's ``board``, ``inbox``, ``sensed``, ``frame`` and ``board_sink``).
"""

from __future__ import annotations

import queue
from dataclasses import dataclass
from typing import Any, Callable

from ...board.ports import blank_frame
from ...board.simulated import SimulatedBoard
from ...errors import CompanionError, HardwareError
from ...games import GAMES
from ...maps import load_map


@dataclass
class BoardLink:
    """The board the app talks to: its two ports, and the simulated board when there is no
    hardware (then taps on the screen's board move its pieces)."""

    sensors: Any
    leds: Any
    width: int
    height: int
    simulated: Any = None
    name: str = "simulated"
    #: opens the same board for a map of another size: (width, height) -> BoardLink (None: a
    #: simulated board is simply made anew; hardware without it plays only its own size)
    opener: Callable[[int, int], "BoardLink"] | None = None

    @property
    def size(self) -> int:
        return self.width * self.height


class BoardSizing:
    def _use_board_for(self, game: str, board_map: str | None) -> None:
        info = GAMES.get(game)
        if info is None:
            return  # GameSetup says what is wrong
        g = load_map(board_map or info.default_map).geometry
        self._use_board_size(g.width, g.height)

    def _use_board_size(self, width: int, height: int) -> None:
        """Play a map of ``width`` x ``height``: the board is opened again for it when its
        size differs (a hardware board must be large enough; HardwareError says so)."""
        old = self.board
        if (old.width, old.height) == (width, height):
            return
        if old.opener is None and old.simulated is None:
            raise HardwareError(f"this board plays {old.width}x{old.height} maps; the map is {width}x{height}")
        for port in (old.sensors, old.leds):
            try:
                port.stop()
            except Exception:  # noqa: BLE001 - a port that fails to stop must not keep the new one from opening
                pass
        kept = []
        while True:  # events of the old board mean nothing on the new one
            try:
                item = self.inbox.get_nowait()
            except queue.Empty:
                break
            if item[0] != "board":
                kept.append(item)
        for item in kept:
            self.inbox.put(item)
        if old.opener is not None:
            try:
                new = old.opener(width, height)
            except (OSError, CompanionError):
                self._reopen(old)  # keep playing on the board as it was
                raise
        else:
            sim = SimulatedBoard(width, height)
            new = BoardLink(sim, sim, width, height, simulated=sim, name=old.name)
        self.board = new
        self.sensed = frozenset()
        self.meanings = {}
        self.frame = blank_frame(new.size)
        self._last_leds = None
        new.sensors.start(self.board_sink)

    def _reopen(self, old: BoardLink) -> None:
        """Open ``old``'s board again at its own size (its ports were stopped for a new size
        that could not be opened); if even that fails, the banner says the board is gone."""
        try:
            again = old.opener(old.width, old.height)
        except (OSError, CompanionError) as e:
            self.connected, self.disconnect_reason = False, str(e)
            return
        self.board = again
        self.sensed = frozenset()
        self._last_leds = None
        again.sensors.start(self.board_sink)
