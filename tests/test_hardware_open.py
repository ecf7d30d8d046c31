"""open_board: the right adapters from a profile, speaking in map squares."""

from __future__ import annotations

import sys
import types

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from companion.board.gpio_matrix import GpioMatrix, ShiftRegisterChain
from companion.board.hardware import PlacedSensor, find_rp2040_port, open_board
from companion.board.neopixel_leds import NeoPixelLeds
from companion.board.palette import Meaning, render
from companion.board.ports import BoardConnected, OccupancySnapshot, SquareChanged, blank_frame
from companion.board.profiles import load_profile, parse_profile
from companion.board.simulated import SimulatedBoard
from companion.errors import HardwareError


class FakePixels:
    def __init__(self, n):
        self.buffer = [(0, 0, 0)] * n
        self.shows = 0

    def __setitem__(self, i, v):
        self.buffer[i] = v

    def show(self):
        self.shows += 1


def test_a_simulated_profile_opens_one_board_for_both_ports():
    sensors, leds = open_board(load_profile("simulated-8x8"))
    assert isinstance(sensors, SimulatedBoard) and sensors is leds
    assert (sensors.width, sensors.height) == (8, 8)
    small, _ = open_board(load_profile("simulated-8x8"), map_width=6, map_height=6)
    assert (small.width, small.height) == (6, 6)


def test_the_gpio_profile_opens_the_matrix_and_the_neopixels(mock_factory):
    profile = load_profile("gpio-8x8")
    pixels = FakePixels(64)
    sensors, leds = open_board(profile, pin_factory=mock_factory, pixels=pixels)
    assert isinstance(sensors, GpioMatrix) and isinstance(leds, NeoPixelLeds)
    assert sensors.row_pins == profile.matrix.rows and sensors.settle_us == 10
    assert mock_factory.pins == {}  # nothing opened until the first scan
    assert sensors.scan_once(0) == [OccupancySnapshot(frozenset(), 0)]  # all columns pulled up
    leds.show(render({0: Meaning.LIFTED}, 64))
    assert pixels.buffer[0] == (48, 48, 48) and pixels.shows == 1


def test_a_smaller_map_on_a_gpio_board_sees_and_lights_only_its_squares(mock_factory):
    text = """
name = "12x12 with shift registers"
link = "gpio"
[board]
width = 12
height = 12
map_offset = "center"
[shift_register]
load = 22
clock = 27
data = 17
[leds]
count = 144
data_pin = 18
serpentine = false
brightness_cap = 40
supply_amps = 5
"""
    pixels = FakePixels(144)
    sensors, leds = open_board(parse_profile(text, "t.toml"), map_width=8, map_height=8, pin_factory=mock_factory, pixels=pixels)
    assert isinstance(sensors, PlacedSensor) and isinstance(sensors.inner, ShiftRegisterChain)
    assert (sensors.width, sensors.height) == (8, 8)
    # board square c3 (offset 2, 2) is map a1; a1 of the board lies outside the map
    assert sensors.translate(SquareChanged(2 * 12 + 2, True, 5)) == SquareChanged(0, True, 5)
    assert sensors.translate(SquareChanged(0, True, 5)) is None
    assert sensors.translate(OccupancySnapshot(frozenset({0, 26, 143}), 9)) == OccupancySnapshot(frozenset({0}), 9)
    leds.show(render({0: Meaning.LIFTED}, 64))
    assert [i for i, c in enumerate(pixels.buffer) if c != (0, 0, 0)] == [2 * 12 + 2]


# --- serial ------------------------------------------------------------------------------------


class FakeSerialBoard:
    made = []

    def __init__(self, port, width, height, baud=115200):
        self.args = (port, width, height, baud)
        self.frames = []
        self.sink = None
        self.stopped = False
        FakeSerialBoard.made.append(self)

    def start(self, sink):
        self.sink = sink

    def request_snapshot(self):
        pass

    def show(self, frame):
        self.frames.append(frame)

    def stop(self):
        self.stopped = True


@pytest.fixture
def fake_serial(monkeypatch):
    FakeSerialBoard.made = []
    module = types.ModuleType("companion.board.serial_board")
    module.SerialBoard = FakeSerialBoard
    monkeypatch.setitem(sys.modules, "companion.board.serial_board", module)
    return FakeSerialBoard


SERIAL = """
name = "big"
link = "serial"
[board]
width = 20
height = 20
map_offset = "center"
[serial]
port = "/dev/ttyACM7"
baud = 230400
[leds]
count = 400
brightness_cap = 32
supply_amps = 10
"""


def test_a_serial_board_speaks_map_squares_and_gets_capped_frames(fake_serial):
    sensors, leds = open_board(parse_profile(SERIAL, "s.toml"), map_width=8, map_height=8)
    (board,) = fake_serial.made
    assert board.args == ("/dev/ttyACM7", 20, 20, 230400)
    got = []
    sensors.start(got.append)
    g7 = 6 * 20 + 6
    board.sink(OccupancySnapshot(frozenset({g7, 0}), 1))
    board.sink(SquareChanged(g7 + 1, True, 2))  # h7 = map b1
    board.sink(SquareChanged(399, False, 3))  # outside the map
    board.sink(BoardConnected({"firmware": "1.0"}, 4))
    assert got == [
        OccupancySnapshot(frozenset({0}), 1),
        SquareChanged(1, True, 2),
        BoardConnected({"firmware": "1.0"}, 4),
    ]
    frame = render({0: Meaning.LIFTED}, 64)
    leds.show(frame)
    leds.show(frame)
    assert len(board.frames) == 1 and len(board.frames[0]) == 400
    assert board.frames[0][g7] == (32, 32, 32)
    assert sum(1 for c in board.frames[0] if c != (0, 0, 0)) == 1
    leds.stop()
    assert board.frames[-1] == blank_frame(400) and board.stopped


def test_port_auto_finds_the_rp2040_data_interface(fake_serial, monkeypatch):
    ports = [
        types.SimpleNamespace(device="/dev/ttyACM0", interface="CircuitPython CDC control"),
        types.SimpleNamespace(device="/dev/ttyACM1", interface="CircuitPython CDC2 data"),
        types.SimpleNamespace(device="/dev/ttyS0", interface=None),
    ]
    monkeypatch.setattr("serial.tools.list_ports.comports", lambda: ports)
    open_board(parse_profile(SERIAL.replace('"/dev/ttyACM7"', '"auto"'), "s.toml"))
    assert fake_serial.made[0].args[0] == "/dev/ttyACM1"


def test_port_auto_without_a_board_says_what_to_check(monkeypatch):
    monkeypatch.setattr("serial.tools.list_ports.comports", lambda: [])
    with pytest.raises(HardwareError, match="no RP2040 data port found.*usb_cdc"):
        find_rp2040_port()
    two = [types.SimpleNamespace(device=f"/dev/ttyACM{i}", interface="CircuitPython CDC2 data") for i in (1, 3)]
    monkeypatch.setattr("serial.tools.list_ports.comports", lambda: two)
    with pytest.raises(HardwareError, match=r"several RP2040 data ports found \(/dev/ttyACM1, /dev/ttyACM3\)"):
        find_rp2040_port()


def test_a_missing_serial_driver_is_a_hardware_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "companion.board.serial_board", None)
    with pytest.raises(HardwareError, match="serial board driver cannot be loaded"):
        open_board(parse_profile(SERIAL, "s.toml"))


def test_the_shipped_profiles_worst_case_fits_their_supply():
    from companion.board.neopixel_leds import SUPPLY_HEADROOM, estimate_current_ma

    for name in ("gpio-8x8", "serial-20x20"):
        leds = load_profile(name).leds
        cap = leds.brightness_cap
        worst = estimate_current_ma([(cap, cap, cap)] * leds.count)
        assert worst <= leds.supply_amps * 1000 * SUPPLY_HEADROOM, name
