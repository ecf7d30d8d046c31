"""NeoPixels (WS2812B) under the squares, driven from the Pi (an LedPort).

Everything about colour and order is pure and happens before the one hardware call: the frame
(design colours, one per *map* square) is placed on the physical board (:class:`Placement`),
linearized and capped (:func:`palette.led_levels`), limited to the power supply's budget, put
in chain order (:func:`chain_table`), compared with what the LEDs already show, and only the
pixels that changed are set before a single ``show()``. A WS2812 chain needs ~30 us per LED
(12 ms for 400), so an unchanged frame costs nothing.

The pixel object is anything with ``__setitem__`` and ``show()`` (Adafruit's ``NeoPixel``
with ``auto_write=False``, or a fake in tests). :func:`open_neopixels` imports ``board`` and
``neopixel`` (adafruit-circuitpython-neopixel on Blinka) only when called, on a Pi.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Sequence

from ..errors import HardwareError
from ..i18n import _
from .palette import led_levels
from .ports import RGB, LedFrame
from .profiles import ROTATIONS, START_CORNERS, Placement

#: WS2812B: about 20 mA per colour channel at full PWM, about 1 mA per LED when dark.
MA_PER_CHANNEL = 20.0
IDLE_MA_PER_LED = 1.0
#: Share of the supply's rating the LEDs may use (the rest is headroom for the estimate's error
#: and the supply's own tolerance).
SUPPLY_HEADROOM = 0.8


@dataclass(frozen=True)
class ChainOrder:
    """How the LED chain runs under the board.

    Picture the LEDs as a panel, laid out in rows: LED 0 at ``start_corner``, the chain running
    along the bottom (or top) row first, and, when ``serpentine``, turning back at the end of each
    row instead of jumping to its start. ``rotation`` turns that panel clockwise (0, 90, 180, 270
    degrees) before it goes under the board; 90 and 270 make the chain run along files.
    hardware/README.md has a table of the common wirings."""

    serpentine: bool = True
    start_corner: str = "lower-left"
    rotation: int = 0

    def __post_init__(self) -> None:
        if self.start_corner not in START_CORNERS:
            raise ValueError(f"start corner must be one of {', '.join(START_CORNERS)}, got {self.start_corner!r}")
        if self.rotation not in ROTATIONS:
            raise ValueError(f"rotation must be one of 0, 90, 180, 270 degrees, got {self.rotation!r}")


def chain_table(width: int, height: int, order: ChainOrder) -> tuple[int, ...]:
    """For each board square (``rank * width + file``), the index of its LED in the chain."""
    pw, ph = (width, height) if order.rotation in (0, 180) else (height, width)
    right = order.start_corner.endswith("right")
    upper = order.start_corner.startswith("upper")
    table = [0] * (width * height)
    for i in range(width * height):
        prow, pcol = divmod(i, pw)
        if order.serpentine and prow % 2:
            pcol = pw - 1 - pcol
        x = pw - 1 - pcol if right else pcol
        y = ph - 1 - prow if upper else prow
        if order.rotation == 0:
            bx, by = x, y
        elif order.rotation == 90:
            bx, by = y, pw - 1 - x
        elif order.rotation == 180:
            bx, by = pw - 1 - x, ph - 1 - y
        else:
            bx, by = ph - 1 - y, x
        table[by * width + bx] = i
    return tuple(table)


def estimate_current_ma(levels: Sequence[RGB], led_count: int | None = None) -> float:
    """Supply current (mA) of LEDs showing ``levels`` (PWM 0-255 per channel); LEDs past the
    end of ``levels`` up to ``led_count`` are dark but still draw their idle current."""
    count = len(levels) if led_count is None else led_count
    lit = sum(r + g + b for r, g, b in levels)
    return count * IDLE_MA_PER_LED + lit * MA_PER_CHANNEL / 255


class NeoPixelLeds:
    """An LedPort for a chain of ``led_count`` NeoPixels under a ``width`` x ``height`` board.

    Frames given to :meth:`show` have one colour per map square (``placement`` says where the
    map sits; by default it covers the whole board). LEDs off the map, and any extra LEDs at
    the end of the chain, stay dark."""

    def __init__(
        self,
        pixels: Any,
        width: int,
        height: int,
        *,
        brightness_cap: int,
        chain: ChainOrder | None = None,
        placement: Placement | None = None,
        led_count: int | None = None,
        supply_amps: float | None = None,
        swaps: tuple[tuple[int, int], ...] = (),
    ) -> None:
        """``swaps``: pairs of board squares whose LEDs trade places in the chain (a build
        fault corrected in software, profile ``[fixes] swap_leds``)."""
        self.pixels = pixels
        self.width, self.height = width, height
        self.chain = chain or ChainOrder()
        self.placement = placement or Placement.whole(width, height)
        if (self.placement.board_width, self.placement.board_height) != (width, height):
            raise ValueError(
                f"placement is for a {self.placement.board_width}x{self.placement.board_height} board, "
                f"the LEDs are under a {width}x{height} board"
            )
        self.led_count = width * height if led_count is None else led_count
        if self.led_count < width * height:
            raise ValueError(f"{self.led_count} LEDs cannot light a {width}x{height} board (one per square)")
        led_levels((), brightness_cap)  # validates the cap
        self.brightness_cap = brightness_cap
        self.budget_ma = None if supply_amps is None else supply_amps * 1000 * SUPPLY_HEADROOM
        board_to_led = list(chain_table(width, height, self.chain))
        for a, b in swaps:
            board_to_led[a], board_to_led[b] = board_to_led[b], board_to_led[a]
        p = self.placement
        self._led_of_square = tuple(board_to_led[p.to_board(sq)] for sq in range(p.map_width * p.map_height))
        self._shown: list[RGB] | None = None  # what the LEDs show; None: unknown, write all
        self._last_frame: LedFrame = ()
        self.writes = 0  # show() calls made on the pixels
        self.limited = False  # whether the last frame shown was dimmed to stay within the supply

    @property
    def map_size(self) -> int:
        return len(self._led_of_square)

    def levels(self, frame: LedFrame) -> list[RGB]:
        """The level of every LED in chain order for ``frame`` (pure: writes nothing)."""
        return self._levels(frame)[0]

    def _levels(self, frame: LedFrame) -> tuple[list[RGB], bool]:
        if len(frame) != self.map_size:
            p = self.placement
            raise ValueError(f"LED frame has {len(frame)} squares, the {p.map_width}x{p.map_height} map has {self.map_size}")
        out: list[RGB] = [(0, 0, 0)] * self.led_count
        for led, level in zip(self._led_of_square, led_levels(frame, self.brightness_cap)):
            out[led] = level
        return self._limit(out)

    def _limit(self, levels: list[RGB]) -> tuple[list[RGB], bool]:
        """Dim the whole frame evenly when it would draw more than the supply's budget."""
        if self.budget_ma is None:
            return levels, False
        idle = self.led_count * IDLE_MA_PER_LED
        need = estimate_current_ma(levels, self.led_count)
        if need <= self.budget_ma:
            return levels, False
        factor = max(0.0, self.budget_ma - idle) / (need - idle)
        return [(int(r * factor), int(g * factor), int(b * factor)) for r, g, b in levels], True

    def current_ma(self, frame: LedFrame) -> float:
        """Estimated supply current of ``frame`` as it would be shown (cap and limit applied)."""
        return estimate_current_ma(self.levels(frame), self.led_count)

    def show(self, frame: LedFrame) -> None:
        frame = tuple(frame)
        if self._shown is not None and frame == self._last_frame:
            return
        levels, self.limited = self._levels(frame)
        shown = self._shown
        pixels = self.pixels
        if shown is None:
            for i, level in enumerate(levels):
                pixels[i] = level
        else:
            changed = False
            for i, level in enumerate(levels):
                if shown[i] != level:
                    pixels[i] = level
                    changed = True
            if not changed:
                self._last_frame = frame
                return
        self._shown = levels
        self._last_frame = frame
        self._transmit()

    def _transmit(self) -> None:
        try:
            self.pixels.show()
        except Exception as exc:  # the driver's own errors (SPI, PIO, permissions)
            self._shown = None  # unknown now: write everything next time
            raise HardwareError(_("writing to the NeoPixels failed: {exc}").format(exc=exc)) from exc
        self.writes += 1

    def stop(self) -> None:
        """Turn every LED off and release the driver."""
        for i in range(self.led_count):
            self.pixels[i] = (0, 0, 0)
        self._transmit()
        self._shown = None
        deinit = getattr(self.pixels, "deinit", None)
        if deinit is not None:
            deinit()


def open_neopixels(data_pin: int, led_count: int, pixel_order: str = "GRB") -> Any:
    """Adafruit's NeoPixel object for ``led_count`` LEDs on GPIO ``data_pin`` (Pi only).

    Imports ``board`` and ``neopixel`` here, never earlier: off a Pi they raise at import."""
    # Blinka 10 may otherwise stop to offer installing Pi backends we already list explicitly.
    os.environ.setdefault("BLINKA_SKIP_DEPENDENCY_CHECK", "1")
    try:
        import board  # type: ignore[import-not-found]
        import neopixel  # type: ignore[import-not-found]
    except (ImportError, NotImplementedError, RuntimeError) as exc:
        raise HardwareError(
            _("cannot load the NeoPixel driver ({exc}); it runs on a Raspberry Pi with the Pi extras installed: pip "
              "install 'companion[pi]' (see hardware/README.md)").format(exc=exc)
        ) from exc
    pin = getattr(board, f"D{data_pin}", None)
    if pin is None:
        raise HardwareError(_("this board has no pin D{data_pin} for the NeoPixel data line (is this a Raspberry Pi?)").format(
            data_pin=data_pin))
    order = getattr(neopixel, pixel_order, None)
    if order is None:
        raise HardwareError(_("the neopixel module has no pixel order {pixel_order!r}").format(pixel_order=pixel_order))
    try:
        return neopixel.NeoPixel(pin, led_count, brightness=1.0, auto_write=False, pixel_order=order)
    except Exception as exc:
        raise HardwareError(
            _("cannot start the NeoPixels on GPIO{data_pin}: {exc} (on a Pi 4, GPIO10 needs SPI enabled: "
              "dtparam=spi=on, spidev.bufsiz=32768; 12, 18 and 21 need root)").format(
                data_pin=data_pin, exc=exc)
        ) from exc
