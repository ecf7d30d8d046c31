"""Throughput and latency of the serial link, measured over a real pty against the simulator.

The firmware runs under CPython here, so these numbers describe the host side, the protocol
and the link, not the RP2040 (where NeoPixel output alone takes about 12 ms for 400 LEDs and
the keypad scan interval adds up to one interval of latency)."""

from __future__ import annotations

import statistics
import threading
import time

from ..i18n import _
from . import protocol
from .firmware_sim import FirmwareSim
from .ports import BoardConnected, OccupancySnapshot, SquareChanged
from .serial_board import SerialBoard
from ..errors import HardwareError

WIDTH = HEIGHT = 20
SIZE = WIDTH * HEIGHT
WAIT_S = 5.0


class _Probe:
    """The bench's sink: remembers when snapshots and square changes arrive."""

    def __init__(self) -> None:
        self.cond = threading.Condition()
        self.snapshots = 0
        self.connected = False
        self.arrivals: dict[tuple[int, bool], float] = {}

    def __call__(self, event) -> None:
        now = time.perf_counter()
        with self.cond:
            if isinstance(event, OccupancySnapshot):
                self.snapshots += 1
            elif isinstance(event, BoardConnected):
                self.connected = True
            elif isinstance(event, SquareChanged):
                self.arrivals[(event.square, event.occupied)] = now
            self.cond.notify_all()

    def wait(self, predicate) -> None:
        with self.cond:
            if not self.cond.wait_for(predicate, WAIT_S):
                raise HardwareError(_("the simulated board stopped answering during the serial bench"))


def _snapshots_per_second(board: SerialBoard, probe: _Probe, count: int) -> float:
    start = time.perf_counter()
    for _ in range(count):
        seen = probe.snapshots
        board.request_snapshot()
        probe.wait(lambda: probe.snapshots > seen)
    return count / (time.perf_counter() - start)


def _frames_per_second(board: SerialBoard, frames: list[tuple], count: int) -> float:
    start = time.perf_counter()
    for i in range(count):
        board.show(frames[i % len(frames)])
        if not board.flush_leds(WAIT_S):
            raise HardwareError(_("the simulated board did not acknowledge an LED frame"))
    return count / (time.perf_counter() - start)


def _latencies_ms(sim: FirmwareSim, probe: _Probe, count: int) -> list[float]:
    result = []
    for i in range(count):
        square = 200 + i % 100
        occupied = square not in sim.occupied()
        key = (square, occupied)
        with probe.cond:
            probe.arrivals.pop(key, None)
        start = time.perf_counter()
        sim.set_square(square, occupied)
        probe.wait(lambda: key in probe.arrivals)
        result.append((probe.arrivals[key] - start) * 1000)
    return result


def _codec_round_trips_per_second(count: int) -> float:
    frame = protocol.LedFrame(1, bytes(range(256)) * 4 + bytes(3 * SIZE - 1024))
    decoder = protocol.Decoder()
    start = time.perf_counter()
    for _ in range(count):
        decoder.feed(protocol.encode(frame))
    return count / (time.perf_counter() - start)


def bench_serial(quick: bool = False) -> list[tuple[str, float, str]]:
    """Rows of (name, value, unit) for ``companion bench``."""
    n_snap, n_full, n_delta, n_latency, n_codec = (30, 20, 30, 40, 50) if quick else (300, 150, 300, 400, 500)
    occupied = [sq for sq in range(SIZE) if sq < 2 * WIDTH or sq >= SIZE - 2 * WIDTH]
    full_a = tuple((sq % 256, 40, 200) for sq in range(SIZE))
    full_b = tuple((200, sq % 256, 40) for sq in range(SIZE))
    delta = [full_a, tuple((255, 0, 0) if sq in (0, 1, 2, 3) else c for sq, c in enumerate(full_a))]
    with FirmwareSim(WIDTH, HEIGHT, occupied=occupied, tick_s=0.01) as sim:
        board = SerialBoard(sim.path, WIDTH, HEIGHT)
        probe = _Probe()
        board.start(probe)
        try:
            probe.wait(lambda: probe.connected)
            snaps = _snapshots_per_second(board, probe, n_snap)
            fulls = _frames_per_second(board, [full_a, full_b], n_full)
            deltas = _frames_per_second(board, delta, n_delta)
            latencies = sorted(_latencies_ms(sim, probe, n_latency))
        finally:
            board.stop()
    p99 = latencies[min(len(latencies) - 1, int(round(0.99 * (len(latencies) - 1))))]
    return [
        ("serial: 20x20 occupancy snapshots over pty (request to event)", snaps, "snapshots/s"),
        ("serial: 400-LED full frames over pty (show to ack)", fulls, "frames/s"),
        ("serial: 400-LED delta frames, 4 squares (show to ack)", deltas, "frames/s"),
        ("serial: switch change to host event, median", statistics.median(latencies), "ms"),
        ("serial: switch change to host event, p99", p99, "ms"),
        ("serial: codec encode+decode of a 400-LED frame", _codec_round_trips_per_second(n_codec), "frames/s"),
    ]
