"""The NeoPixel adapter against a fake pixel buffer: chain order, placement, cap, power budget,
and only changed frames written."""

from __future__ import annotations

import itertools
import sys
import types

import pytest

from companion.board.neopixel_leds import (
    IDLE_MA_PER_LED,
    ChainOrder,
    NeoPixelLeds,
    chain_table,
    estimate_current_ma,
    open_neopixels,
)
from companion.board.palette import COLOURS, Meaning, render
from companion.board.ports import LedPort, blank_frame
from companion.board.profiles import Placement
from companion.errors import HardwareError

WHITE = (255, 255, 255)


class FakePixels:
    """Adafruit's NeoPixel surface: indexable buffer, show() counted, deinit()."""

    def __init__(self, n):
        self.buffer = [(7, 7, 7)] * n  # whatever the LEDs showed before we started
        self.sets = 0
        self.shows = 0
        self.deinited = False
        self.fail_next_show = False

    def __len__(self):
        return len(self.buffer)

    def __setitem__(self, i, value):
        self.buffer[i] = tuple(value)
        self.sets += 1

    def __getitem__(self, i):
        return self.buffer[i]

    def show(self):
        if self.fail_next_show:
            self.fail_next_show = False
            raise OSError("SPI transfer failed")
        self.shows += 1

    def deinit(self):
        self.deinited = True


def frame_with(size, lit):
    frame = list(blank_frame(size))
    for sq, colour in lit.items():
        frame[sq] = colour
    return tuple(frame)


# --- chain order --------------------------------------------------------------------------------

ORDERS = [
    ChainOrder(serpentine, corner, rotation)
    for serpentine, corner, rotation in itertools.product(
        (True, False), ("lower-left", "lower-right", "upper-left", "upper-right"), (0, 90, 180, 270)
    )
]


@pytest.mark.parametrize("width, height", [(3, 2), (8, 8), (5, 7), (20, 20)])
@pytest.mark.parametrize("order", ORDERS, ids=repr)
def test_every_chain_order_gives_each_square_its_own_led(width, height, order):
    table = chain_table(width, height, order)
    assert sorted(table) == list(range(width * height))


@pytest.mark.parametrize(
    "order, chain",  # chain: the squares from LED 0 on, on a 3 wide, 2 high board
    [
        (ChainOrder(True, "lower-left", 0), ["a1", "b1", "c1", "c2", "b2", "a2"]),
        (ChainOrder(False, "lower-left", 0), ["a1", "b1", "c1", "a2", "b2", "c2"]),
        (ChainOrder(True, "lower-right", 0), ["c1", "b1", "a1", "a2", "b2", "c2"]),
        (ChainOrder(True, "upper-left", 0), ["a2", "b2", "c2", "c1", "b1", "a1"]),
        (ChainOrder(False, "upper-right", 0), ["c2", "b2", "a2", "c1", "b1", "a1"]),
        # the lower-left panel turned a quarter clockwise: LED 0 ends up top left, runs down file a
        (ChainOrder(True, "lower-left", 90), ["a2", "a1", "b1", "b2", "c2", "c1"]),
        # up file a from a1, then down file b: the usual "columns" wiring
        (ChainOrder(True, "upper-left", 270), ["a1", "a2", "b2", "b1", "c1", "c2"]),
        (ChainOrder(True, "lower-left", 180), ["c2", "b2", "a2", "a1", "b1", "c1"]),
    ],
)
def test_chain_orders_on_a_small_board_match_the_drawings(order, chain):
    table = chain_table(3, 2, order)
    names = ["a1", "b1", "c1", "a2", "b2", "c2"]
    by_led = sorted(range(6), key=lambda sq: table[sq])
    assert [names[sq] for sq in by_led] == chain


def test_chain_order_rejects_unknown_corners_and_angles():
    with pytest.raises(ValueError, match="start corner must be one of"):
        ChainOrder(True, "bottom-left", 0)
    with pytest.raises(ValueError, match="0, 90, 180, 270"):
        ChainOrder(True, "lower-left", 45)


# --- writing only what changed ----------------------------------------------------------------


def make(width=8, height=8, cap=255, **kw):
    count = kw.pop("led_count", width * height)
    pixels = FakePixels(count)
    return NeoPixelLeds(pixels, width, height, brightness_cap=cap, led_count=count, **kw), pixels


def test_the_first_frame_writes_every_led_then_shows_once():
    leds, pixels = make()
    leds.show(blank_frame(64))
    assert pixels.sets == 64 and pixels.shows == 1
    assert pixels.buffer == [(0, 0, 0)] * 64  # whatever was lit before is cleared


def test_an_unchanged_frame_is_not_written():
    leds, pixels = make()
    frame = render({12: Meaning.LIFTED, 20: Meaning.MOVE}, 64)
    leds.show(frame)
    leds.show(frame)
    leds.show(tuple(frame))
    assert pixels.shows == 1 and leds.writes == 1


def test_only_changed_pixels_are_set_before_one_show():
    leds, pixels = make(chain=ChainOrder(serpentine=True))
    leds.show(blank_frame(64))
    pixels.sets = 0
    leds.show(frame_with(64, {8: WHITE}))  # a2: first square of the second (reversed) row
    assert pixels.sets == 1 and pixels.shows == 2
    assert pixels.buffer[15] == WHITE  # serpentine: a2 is LED 15


def test_a_frame_that_differs_only_below_one_level_is_not_written():
    leds, pixels = make(cap=24)
    leds.show(frame_with(64, {0: (1, 1, 1)}))
    leds.show(frame_with(64, {0: (2, 2, 2)}))  # both round to 0 at this cap
    assert pixels.shows == 1


def test_the_cap_and_gamma_are_applied():
    leds, pixels = make(cap=48)
    leds.show(render({0: Meaning.LIFTED, 1: Meaning.TERRAIN_WATER}, 64))
    assert pixels.buffer[0] == (48, 48, 48)
    assert pixels.buffer[1] == (0, 1, 3)  # dim blue (0, 46, 71), linearized, at cap 48


def test_a_frame_of_the_wrong_size_is_refused():
    leds, _ = make()
    with pytest.raises(ValueError, match="63 squares, the 8x8 map has 64"):
        leds.show(blank_frame(63))


def test_a_failed_write_is_a_hardware_error_and_the_next_frame_is_written_whole():
    leds, pixels = make()
    leds.show(blank_frame(64))
    pixels.fail_next_show = True
    with pytest.raises(HardwareError, match="SPI transfer failed"):
        leds.show(frame_with(64, {3: WHITE}))
    pixels.sets = 0
    leds.show(frame_with(64, {3: WHITE}))
    assert pixels.sets == 64


def test_stop_turns_every_led_off_and_releases_the_driver():
    leds, pixels = make(led_count=70)
    leds.show(frame_with(64, {5: WHITE}))
    leds.stop()
    assert pixels.buffer == [(0, 0, 0)] * 70 and pixels.deinited


def test_the_adapter_is_an_led_port():
    assert isinstance(make()[0], LedPort)


# --- placement and extra LEDs ------------------------------------------------------------------


def test_a_chess_map_in_the_middle_of_a_20x20_board_lights_g7_to_n14():
    placement = Placement(20, 20, 8, 8, 6, 6)
    leds, pixels = make(20, 20, placement=placement, chain=ChainOrder(serpentine=False))
    leds.show(frame_with(64, {0: WHITE, 63: WHITE}))
    g7, n14 = 6 * 20 + 6, 13 * 20 + 13
    lit = [i for i, c in enumerate(pixels.buffer) if c != (0, 0, 0)]
    assert lit == [g7, n14]


def test_leds_past_the_board_stay_dark():
    leds, pixels = make(led_count=66)
    leds.show(tuple([WHITE] * 64))
    assert pixels.buffer[64:] == [(0, 0, 0), (0, 0, 0)]


def test_too_few_leds_or_a_mismatched_placement_is_refused():
    with pytest.raises(ValueError, match="63 LEDs cannot light a 8x8 board"):
        NeoPixelLeds(FakePixels(63), 8, 8, brightness_cap=48, led_count=63)
    with pytest.raises(ValueError, match="placement is for a 20x20 board"):
        NeoPixelLeds(FakePixels(64), 8, 8, brightness_cap=48, placement=Placement(20, 20, 8, 8))
    with pytest.raises(ValueError, match="brightness cap"):
        NeoPixelLeds(FakePixels(64), 8, 8, brightness_cap=300)


# --- power --------------------------------------------------------------------------------------


def test_current_estimate_of_full_white():
    assert estimate_current_ma([WHITE] * 64) == pytest.approx(64 * 61)
    assert estimate_current_ma([(0, 0, 0)] * 10, led_count=400) == pytest.approx(400 * IDLE_MA_PER_LED)


def test_current_of_a_frame_at_the_cap():
    leds, _ = make(cap=48)
    # 64 LEDs of full white at 48/255: 64 * (1 + 3 * 20 * 48 / 255) mA
    assert leds.current_ma(tuple([WHITE] * 64)) == pytest.approx(64 * (1 + 60 * 48 / 255))


def test_a_frame_over_the_supply_budget_is_dimmed_evenly():
    leds, pixels = make(20, 20, cap=255, supply_amps=10.0)
    frame = tuple([WHITE] * 200 + [COLOURS["vermillion"]] * 200)
    leds.show(frame)
    assert leds.limited
    assert estimate_current_ma(pixels.buffer) <= 10_000 * 0.8
    assert pixels.buffer[0][0] == pixels.buffer[0][1] == pixels.buffer[0][2] > 0  # white stays white
    r, g, b = pixels.buffer[399]
    assert b == 0 and r > g > 0  # vermillion keeps its hue
    leds.show(render({0: Meaning.MOVE}, 400))
    assert not leds.limited


# --- opening the real driver, lazily -----------------------------------------------------------


def test_open_neopixels_builds_the_adafruit_object_on_the_named_pin(monkeypatch):
    made = {}

    class NeoPixel:
        def __init__(self, pin, n, **kw):
            made.update(pin=pin, n=n, **kw)

    fake_board = types.SimpleNamespace(D10="board.D10")
    fake_neopixel = types.SimpleNamespace(NeoPixel=NeoPixel, GRB="GRB-order", RGB="RGB-order")
    monkeypatch.setitem(sys.modules, "board", fake_board)
    monkeypatch.setitem(sys.modules, "neopixel", fake_neopixel)
    open_neopixels(10, 64, "GRB")
    assert made == {"pin": "board.D10", "n": 64, "brightness": 1.0, "auto_write": False, "pixel_order": "GRB-order"}
    with pytest.raises(HardwareError, match="no pin D18"):
        open_neopixels(18, 64)


def test_open_neopixels_off_a_pi_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "board", None)  # import board -> ImportError
    with pytest.raises(HardwareError, match=r"companion\[pi\]"):
        open_neopixels(10, 64)


def test_open_neopixels_reports_a_driver_that_will_not_start(monkeypatch):
    class NeoPixel:
        def __init__(self, *a, **kw):
            raise RuntimeError("ws2811_init failed with code -13")

    monkeypatch.setitem(sys.modules, "board", types.SimpleNamespace(D18=18))
    monkeypatch.setitem(sys.modules, "neopixel", types.SimpleNamespace(NeoPixel=NeoPixel, GRB=1))
    with pytest.raises(HardwareError, match="GPIO18: ws2811_init failed.*need root"):
        open_neopixels(18, 64)
