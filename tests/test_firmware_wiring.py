"""boot.py, code.py and wiring.py with fakes of the CircuitPython modules in sys.modules."""

import runpy
import sys
import types

import pytest
from fakes_circuitpython import FIRMWARE_DIR, install

from companion.board import protocol as p

SHIFT = {
    "WIDTH": 8,
    "HEIGHT": 8,
    "SCANNER": "shift_register",
    "CLOCK_PIN": "GP2",
    "DATA_PIN": "GP3",
    "LATCH_PIN": "GP4",
    "LED_PIN": "GP16",
    "BRIGHTNESS_CAP": 100,
    "WATCHDOG_S": 4,
}
MATRIX = {
    "WIDTH": 8,
    "HEIGHT": 8,
    "SCANNER": "matrix",
    "ROW_PINS": ["GP%d" % i for i in range(8)],
    "COLUMN_PINS": ["GP%d" % i for i in range(8, 16)],
    "LED_PIN": "GP16",
    "WATCHDOG_S": 0,
}


@pytest.fixture
def cp(monkeypatch):
    """The fake CircuitPython modules, by name."""
    return install(monkeypatch)


@pytest.fixture
def wiring(cp):
    import wiring

    return wiring


def test_boot_py_enables_a_data_channel_beside_the_console(cp):
    runpy.run_path(str(FIRMWARE_DIR / "boot.py"))
    assert cp["usb_cdc"].enabled == {"console": True, "data": True}


def test_code_py_runs_the_wiring_main(cp, monkeypatch):
    calls = []
    monkeypatch.setitem(sys.modules, "wiring", types.SimpleNamespace(main=lambda: calls.append(1)))
    runpy.run_path(str(FIRMWARE_DIR / "code.py"))
    assert calls == [1]


def test_a_shift_register_board_gets_shift_register_keys_with_debouncing(cp, wiring):
    fw = wiring.build(wiring.companion_fw.load_config(SHIFT))
    board = cp["board"]
    (keys,) = cp["keypad"].created
    assert isinstance(keys, cp["keypad"].ShiftRegisterKeys)
    assert keys.args == {
        "clock": board.GP2, "data": board.GP3, "latch": board.GP4, "key_count": 64,
        "value_when_pressed": False, "value_to_latch": True, "interval": 0.01, "max_events": 64,
        "debounce_threshold": 2,
    }  # fmt: skip
    assert fw.keys is keys and fw.scanner == p.SCANNER_SHIFT_REGISTER


def test_a_matrix_board_gets_a_key_matrix_on_its_pins(cp, wiring):
    fw = wiring.build(wiring.companion_fw.load_config(MATRIX))
    (keys,) = cp["keypad"].created
    assert isinstance(keys, cp["keypad"].KeyMatrix)
    assert [pin.name for pin in keys.args["row_pins"]] == ["GP%d" % i for i in range(8)]
    assert keys.args["columns_to_anodes"] is True
    assert fw.scanner == p.SCANNER_KEY_MATRIX and fw.watchdog is None


def test_on_circuitpython_8_the_scanner_is_built_without_debounce_threshold(cp, wiring):
    cp["keypad"].REJECT_DEBOUNCE = True
    wiring.build(wiring.companion_fw.load_config(SHIFT))
    assert "debounce_threshold" not in cp["keypad"].created[-1].args


def test_neopixels_are_built_without_auto_write_at_the_capped_brightness(cp, wiring):
    wiring.build(wiring.companion_fw.load_config(SHIFT))
    (pixels,) = cp["neopixel"].created
    assert (pixels.pin, pixels.n, pixels.auto_write, pixels.pixel_order) == (cp["board"].GP16, 64, False, "GRB")
    assert pixels.brightness == pytest.approx(100 / 255)
    assert pixels.shown == [(0, 0, 0)] * 64  # blanked at boot


def test_the_data_channel_never_blocks_reads_and_bounds_writes(cp, wiring):
    wiring.build(wiring.companion_fw.load_config(SHIFT))
    assert cp["usb_cdc"].data.timeout == 0
    assert cp["usb_cdc"].data.write_timeout == wiring.WRITE_TIMEOUT_S


def test_the_watchdog_is_armed_in_reset_mode_and_fed_by_the_loop(cp, wiring):
    fw = wiring.build(wiring.companion_fw.load_config(SHIFT))
    dog = cp["microcontroller"].watchdog
    assert (dog.timeout, dog.mode) == (4, cp["watchdog"].WatchDogMode.RESET)
    before = dog.feeds
    fw.step()
    assert dog.feeds == before + 1


def test_the_reset_reason_reaches_welcome(cp, wiring):
    cp["microcontroller"].cpu.reset_reason = cp["microcontroller"].ResetReason.WATCHDOG
    fw = wiring.build(wiring.companion_fw.load_config(SHIFT))
    assert fw.reset_reason == p.RESET_WATCHDOG


def test_a_missing_data_channel_says_to_install_boot_py(cp, wiring):
    cp["usb_cdc"].data = None
    with pytest.raises(RuntimeError, match="boot.py"):
        wiring.build(wiring.companion_fw.load_config(SHIFT))


def test_a_pin_the_board_lacks_is_a_config_error_naming_the_setting(cp, wiring):
    with pytest.raises(wiring.companion_fw.ConfigError, match="LED_PIN = 'D18' is not a pin"):
        wiring.build(wiring.companion_fw.load_config(dict(SHIFT, LED_PIN="D18")))


def test_main_serves_a_host_over_the_data_channel(cp, wiring):
    data = cp["usb_cdc"].data
    data.host_write(p.encode(p.Hello(p.PROTOCOL_VERSION, 500, 3000)))
    sleeps = []
    fw = wiring.main(SHIFT, max_steps=3, sleep=sleeps.append)
    got = p.Decoder().feed(data.host_read())
    assert [type(m) for m in got] == [p.Welcome, p.Snapshot]
    assert fw.in_session and sleeps == [0.001] * 3


def test_main_prints_a_config_error_instead_of_resetting(cp, wiring, capsys):
    err = wiring.main(dict(SHIFT, SCANNER="wires"), max_steps=1, sleep=lambda s: None)
    assert "SCANNER" in str(err)
    assert "companion firmware cannot start" in capsys.readouterr().out
    assert cp["microcontroller"].resets == 0


def test_a_crash_in_the_loop_is_printed_and_resets_the_board(cp, wiring, capsys, monkeypatch):
    monkeypatch.setattr(wiring.companion_fw.Firmware, "step", lambda self: 1 / 0)
    with pytest.raises(cp["microcontroller"].ResetCalled):
        wiring.main(SHIFT, max_steps=5, sleep=lambda s: None)
    assert "crashed" in capsys.readouterr().out
    assert cp["microcontroller"].resets == 1


def test_ctrl_c_stops_the_watchdog_so_the_repl_stays(cp, wiring, monkeypatch):
    def interrupt(self):
        raise KeyboardInterrupt

    monkeypatch.setattr(wiring.companion_fw.Firmware, "step", interrupt)
    with pytest.raises(KeyboardInterrupt):
        wiring.main(SHIFT, max_steps=5, sleep=lambda s: None)
    assert cp["microcontroller"].watchdog.deinited


def test_the_status_led_is_steady_in_a_session(cp, wiring):
    fw = wiring.build(wiring.companion_fw.load_config(SHIFT))
    cp["usb_cdc"].data.host_write(p.encode(p.Hello()))
    fw.step()
    assert fw.status_led.value is True
