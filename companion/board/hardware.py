"""Build the board's ports from a profile: the one place that knows which adapter is which.

``open_board(profile)`` returns ``(sensors, leds)`` speaking in *map* squares: where the map
is smaller than the physical board (an 8x8 game on a 20x20 board) the switches outside it are
ignored and their LEDs stay dark. Every hardware module is imported here, inside the function,
so importing this module opens nothing. To play a map of another size, stop both ports and
open the board again with the new ``map_width``/``map_height``.
"""

from __future__ import annotations

from typing import Any

from ..errors import HardwareError
from ..i18n import _
from .neopixel_leds import ChainOrder, NeoPixelLeds
from .ports import (
    BoardEvent,
    EventSink,
    LedFrame,
    LedPort,
    OccupancySnapshot,
    SensorPort,
    SquareChanged,
)
from .profiles import BoardProfile, Placement


def open_board(
    profile: BoardProfile,
    *,
    map_width: int | None = None,
    map_height: int | None = None,
    pin_factory: Any = None,
    pixels: Any = None,
) -> tuple[SensorPort, LedPort]:
    """The sensor and LED ports for ``profile``, for a map of the given size (default: the
    map fills the board from the profile's ``map_offset``).

    ``pin_factory`` (gpiozero) and ``pixels`` (a NeoPixel-like buffer) replace the real
    hardware in tests; on the Pi leave them out."""
    placement = profile.placement(map_width, map_height)
    if profile.link == "simulated":
        from .simulated import SimulatedBoard

        board = SimulatedBoard(placement.map_width, placement.map_height)
        return board, board
    if profile.link == "gpio":
        return _open_gpio(profile, placement, pin_factory, pixels)
    if profile.link == "serial":
        return _open_serial(profile, placement)
    raise HardwareError(_("{source}: unknown link {link!r}").format(source=profile.source, link=profile.link))


def _open_gpio(profile: BoardProfile, placement: Placement, pin_factory: Any, pixels: Any) -> tuple[SensorPort, LedPort]:
    from .gpio_matrix import GpioMatrix, ShiftRegisterChain
    from .neopixel_leds import open_neopixels

    scan, leds = profile.scan, profile.leds
    assert scan is not None and leds is not None and leds.data_pin is not None  # the loader checked
    sensor: Any
    if profile.matrix is not None:
        sensor = GpioMatrix(
            profile.width,
            profile.height,
            profile.matrix.rows,
            profile.matrix.columns,
            scan_interval_ms=scan.interval_ms,
            debounce_scans=scan.debounce_scans,
            settle_us=scan.settle_us,
            pin_factory=pin_factory,
        )
    else:
        wiring = profile.shift_register
        assert wiring is not None
        sensor = ShiftRegisterChain(
            profile.width,
            profile.height,
            load_pin=wiring.load,
            clock_pin=wiring.clock,
            data_pin=wiring.data,
            clock_enable_pin=wiring.clock_enable,
            scan_interval_ms=scan.interval_ms,
            debounce_scans=scan.debounce_scans,
            pin_factory=pin_factory,
        )
    if pixels is None:
        pixels = open_neopixels(leds.data_pin, leds.count, leds.pixel_order)
    led_port = NeoPixelLeds(
        pixels,
        profile.width,
        profile.height,
        brightness_cap=leds.brightness_cap,
        chain=ChainOrder(leds.serpentine, leds.start_corner, leds.rotation),
        placement=placement,
        led_count=leds.count,
        supply_amps=leds.supply_amps,
        swaps=profile.fixes.swap_leds,
    )
    return _placed(_swapped(sensor, profile), placement), led_port


def _open_serial(profile: BoardProfile, placement: Placement) -> tuple[SensorPort, LedPort]:
    serial, leds = profile.serial, profile.leds
    assert serial is not None and leds is not None
    try:
        from .serial_board import SerialBoard  # written alongside the RP2040 firmware
    except ImportError as exc:
        raise HardwareError(_("the serial board driver cannot be loaded: {exc}").format(exc=exc)) from exc
    port = find_rp2040_port() if serial.port == "auto" else serial.port
    board = SerialBoard(port, profile.width, profile.height, baud=serial.baud)
    # The host sends final PWM levels in square order (the firmware maps its own chain): the
    # NeoPixel pipeline with an identity chain does the placement, cap, power limit and diff.
    led_port = NeoPixelLeds(
        FramePixels(board, profile.width * profile.height),
        profile.width,
        profile.height,
        brightness_cap=leds.brightness_cap,
        chain=ChainOrder(serpentine=False),
        placement=placement,
        supply_amps=leds.supply_amps,
        swaps=profile.fixes.swap_leds,
    )
    return _placed(_swapped(board, profile), placement), _StopsBoth(led_port, board)


def find_rp2040_port() -> str:
    """The device path of the RP2040's data port, found by its USB interface name."""
    from .serial_ports import data_ports

    found = data_ports()
    if len(found) == 1:
        return found[0]
    if not found:
        raise HardwareError(
            _("no RP2040 data port found: plug the board in, check that its boot.py enables usb_cdc data "
              "(hardware/FIRMWARE.md), or set [serial] port in the board profile")
        )
    raise HardwareError(_("several RP2040 data ports found ({found}): set [serial] port in the board profile").format(
        found=', '.join(found)))


class FramePixels:
    """A NeoPixel-like buffer whose ``show()`` hands the whole frame to an LedPort."""

    def __init__(self, port: LedPort, count: int) -> None:
        self.port = port
        self.buffer: list[tuple[int, int, int]] = [(0, 0, 0)] * count

    def __setitem__(self, index: int, value: tuple[int, int, int]) -> None:
        self.buffer[index] = value

    def __len__(self) -> int:
        return len(self.buffer)

    def show(self) -> None:
        self.port.show(tuple(self.buffer))


class _StopsBoth:
    """The serial board's LED port: stopping it darkens the LEDs, then stops the board."""

    def __init__(self, leds: NeoPixelLeds, board: Any) -> None:
        self.leds, self.board = leds, board

    def show(self, frame: LedFrame) -> None:
        self.leds.show(frame)

    def stop(self) -> None:
        try:
            self.leds.stop()
        finally:
            self.board.stop()


def _swapped(sensor: Any, profile: BoardProfile) -> Any:
    pairs = profile.fixes.swap_switches
    return SwappedSensor(sensor, pairs) if pairs else sensor


class SwappedSensor:
    """A SensorPort whose pairs of squares read each other's switch put right (profile
    ``[fixes] swap_switches``); everything else passes through, ``info`` and the rest too."""

    def __init__(self, inner: Any, pairs: tuple[tuple[int, int], ...]) -> None:
        self.inner = inner
        self.width, self.height = inner.width, inner.height
        self._other = {a: b for a, b in pairs} | {b: a for a, b in pairs}

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def start(self, sink: EventSink) -> None:
        self.inner.start(lambda event: sink(self.translate(event)))

    def translate(self, event: BoardEvent) -> BoardEvent:
        other = self._other
        if isinstance(event, SquareChanged):
            return SquareChanged(other.get(event.square, event.square), event.occupied, event.t_ms)
        if isinstance(event, OccupancySnapshot):
            return OccupancySnapshot(frozenset(other.get(sq, sq) for sq in event.occupied), event.t_ms)
        return event

    def request_snapshot(self) -> None:
        self.inner.request_snapshot()

    def stop(self) -> None:
        self.inner.stop()


def _placed(sensor: Any, placement: Placement) -> SensorPort:
    return sensor if placement.is_whole_board else PlacedSensor(sensor, placement)


class PlacedSensor:
    """A SensorPort in map squares over one in physical board squares."""

    def __init__(self, inner: SensorPort, placement: Placement) -> None:
        self.inner = inner
        self.placement = placement
        self.width = placement.map_width
        self.height = placement.map_height

    def start(self, sink: EventSink) -> None:
        def translate(event: BoardEvent) -> None:
            mapped = self.translate(event)
            if mapped is not None:
                sink(mapped)

        self.inner.start(translate)

    def translate(self, event: BoardEvent) -> BoardEvent | None:
        to_map = self.placement.to_map
        if isinstance(event, SquareChanged):
            square = to_map(event.square)
            return None if square is None else SquareChanged(square, event.occupied, event.t_ms)
        if isinstance(event, OccupancySnapshot):
            squares = (to_map(sq) for sq in event.occupied)
            return OccupancySnapshot(frozenset(sq for sq in squares if sq is not None), event.t_ms)
        return event

    def request_snapshot(self) -> None:
        self.inner.request_snapshot()

    def stop(self) -> None:
        self.inner.stop()
