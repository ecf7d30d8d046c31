"""The small ports every board adapter implements (GPIO matrix, serial RP2040, simulated).

Events are values. Adapters stamp them with a monotonic time in milliseconds; the tracker
never reads the clock. Adapters that run a thread (a scan loop, a serial reader) only hand
events to the ``sink`` callable given to :meth:`BoardPort.start`; the app's sink puts them on a
queue drained by the UI thread.

Squares are board indices (``rank * width + file``, a1 = 0), see companion.core.geometry.
An LED frame is a tuple with one ``(r, g, b)`` per square index, 0-255 each, *before* the
brightness cap: adapters apply the cap and the physical chain order.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Protocol, Union, runtime_checkable

RGB = tuple[int, int, int]
LedFrame = tuple[RGB, ...]


@dataclass(frozen=True)
class SquareChanged:
    """A reed switch changed: ``occupied`` is True when a piece arrived."""

    square: int
    occupied: bool
    t_ms: int


@dataclass(frozen=True)
class OccupancySnapshot:
    """Every occupied square at one moment (repairs lost events)."""

    occupied: frozenset[int]
    t_ms: int


@dataclass(frozen=True)
class BoardConnected:
    """The board is (again) reachable; ``info`` carries e.g. firmware version and size."""

    info: dict
    t_ms: int


@dataclass(frozen=True)
class BoardDisconnected:
    reason: str
    t_ms: int


BoardEvent = Union[SquareChanged, OccupancySnapshot, BoardConnected, BoardDisconnected]
EventSink = Callable[[BoardEvent], None]


@runtime_checkable
class SensorPort(Protocol):
    """Occupancy sensing. ``start`` begins delivering events to ``sink`` (possibly from another
    thread); the first event after ``start`` is an OccupancySnapshot."""

    width: int
    height: int

    def start(self, sink: EventSink) -> None: ...

    def request_snapshot(self) -> None: ...

    def stop(self) -> None: ...


@runtime_checkable
class LedPort(Protocol):
    """Square lighting. ``show`` takes a whole frame; adapters write only what changed."""

    def show(self, frame: LedFrame) -> None: ...

    def stop(self) -> None: ...


OFF: RGB = (0, 0, 0)


def blank_frame(size: int) -> LedFrame:
    return (OFF,) * size
