"""A board in memory: the same ports as the hardware (SensorPort + LedPort).

Tests drive it like a person moving pieces (``lift``, ``place``, ``toggle`` with a time in ms),
and the app's on-screen board uses it without hardware: a tap on a square calls :meth:`toggle`,
and the screen paints each square from :attr:`last_frame`. Events go to the sink at once, in
the caller's thread (the app's sink only puts them on its queue), and only for real changes,
as a reed switch would report them: placing a piece on an occupied square closes nothing new.
"""

from __future__ import annotations

from typing import Iterable

from .ports import (
    BoardEvent,
    EventSink,
    LedFrame,
    OccupancySnapshot,
    SquareChanged,
    blank_frame,
)


class SimulatedBoard:
    """``width`` x ``height`` squares with the given pieces standing; no LEDs lit."""

    def __init__(self, width: int, height: int, occupied: Iterable[int] = ()) -> None:
        self.width = width
        self.height = height
        self._occupied: set[int] = set()
        for sq in occupied:
            self._check(sq)
            self._occupied.add(sq)
        self._sink: EventSink | None = None
        self._t_ms = 0
        self.last_frame: LedFrame = blank_frame(width * height)
        self.frames_shown = 0

    @property
    def size(self) -> int:
        return self.width * self.height

    @property
    def occupied(self) -> frozenset[int]:
        return frozenset(self._occupied)

    @property
    def is_running(self) -> bool:
        return self._sink is not None

    # -- SensorPort ---------------------------------------------------------------------------
    def start(self, sink: EventSink) -> None:
        """Deliver events to ``sink`` from now on, starting with a snapshot."""
        self._sink = sink
        self._emit(OccupancySnapshot(self.occupied, self._t_ms))

    def request_snapshot(self) -> None:
        self._emit(OccupancySnapshot(self.occupied, self._t_ms))

    def stop(self) -> None:
        """Stop sending events and turn the lights off (both ports' stop, as on hardware)."""
        self._sink = None
        self.show(blank_frame(self.size))

    # -- what a person does -------------------------------------------------------------------
    def place(self, square: int, t_ms: int) -> bool:
        """A piece is put on ``square``; True when the switch closed (it was empty)."""
        return self._set(square, True, t_ms)

    def lift(self, square: int, t_ms: int) -> bool:
        """The piece on ``square`` is taken off; True when the switch opened."""
        return self._set(square, False, t_ms)

    def press(self, square: int, t_ms: int) -> bool:
        """The reed switch under ``square`` closes: the switch-level name for :meth:`place`."""
        return self.place(square, t_ms)

    def toggle(self, square: int, t_ms: int) -> bool:
        """Lift the piece if there is one, else put one down (the on-screen board's tap).
        Returns the new state: True when the square is now occupied."""
        self._set(square, square not in self._occupied, t_ms)
        return square in self._occupied

    def set_occupancy(self, squares: Iterable[int], t_ms: int | None = None) -> None:
        """Put the board in a new state at once (a reset, a scripted position) and send one
        OccupancySnapshot, as a board does after a reconnect."""
        new = set()
        for sq in squares:
            self._check(sq)
            new.add(sq)
        self._occupied = new
        if t_ms is not None:
            self._advance(t_ms)
        self._emit(OccupancySnapshot(self.occupied, self._t_ms))

    # -- LedPort ------------------------------------------------------------------------------
    def show(self, frame: LedFrame) -> None:
        """Keep the frame for the screen to paint (design colours, no brightness cap)."""
        if len(frame) != self.size:
            raise ValueError(f"LED frame has {len(frame)} squares, the {self.width}x{self.height} board has {self.size}")
        frame = tuple(frame)
        if frame != self.last_frame:
            self.last_frame = frame
            self.frames_shown += 1

    # -- internals ----------------------------------------------------------------------------
    def _set(self, square: int, occupied: bool, t_ms: int) -> bool:
        self._check(square)
        self._advance(t_ms)
        if (square in self._occupied) == occupied:
            return False
        if occupied:
            self._occupied.add(square)
        else:
            self._occupied.discard(square)
        self._emit(SquareChanged(square, occupied, t_ms))
        return True

    def _advance(self, t_ms: int) -> None:
        if t_ms < self._t_ms:
            raise ValueError(f"time went backwards: {t_ms} ms after {self._t_ms} ms")
        self._t_ms = t_ms

    def _emit(self, event: BoardEvent) -> None:
        if self._sink is not None:
            self._sink(event)

    def _check(self, square: int) -> None:
        if isinstance(square, bool) or not isinstance(square, int) or not 0 <= square < self.size:
            raise ValueError(f"square {square!r} is off the {self.width}x{self.height} board (0..{self.size - 1})")
