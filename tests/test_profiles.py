"""Board profiles: the shipped ones load, and every mistake is named with file, key and fix."""

from __future__ import annotations

import pytest

from companion.board.palette import MIN_CAP
from companion.board.profiles import (
    PROFILE_DIR,
    Placement,
    load_profile,
    parse_profile,
    resolve_profile,
    shipped_profiles,
)
from companion.errors import ProfileError

GPIO = """\
name = "test board"
link = "gpio"

[board]
width = 8
height = 8

[matrix]
rows = [5, 6, 13, 19, 26, 16, 20, 21]
columns = [4, 17, 27, 22, 23, 24, 25, 12]

[scan]
interval_ms = 10
debounce_scans = 3
settle_us = 10

[leds]
count = 64
data_pin = 10
brightness_cap = 48
supply_amps = 3.0
"""

SERIAL = """\
name = "big"
link = "serial"

[board]
width = 20
height = 20
map_offset = "center"

[serial]
port = "/dev/ttyACM1"

[leds]
count = 400
brightness_cap = 32
supply_amps = 10
"""


def write(tmp_path, text, name="board.toml"):
    path = tmp_path / name
    path.write_text(text)
    return path


def edit(text, old, new):
    assert old in text, old
    return text.replace(old, new)


def fails(tmp_path, text, *fragments):
    path = write(tmp_path, text)
    with pytest.raises(ProfileError) as info:
        load_profile(path)
    message = str(info.value)
    assert str(path) in message
    for fragment in fragments:
        assert fragment in message, message
    return message


# --- the shipped profiles -----------------------------------------------------------------------


def test_the_three_shipped_profiles_load():
    assert {"simulated-8x8", "gpio-8x8", "serial-20x20"} <= set(shipped_profiles())
    for name in shipped_profiles():
        profile = load_profile(name)
        assert profile.source.endswith(f"{name}.toml")


def test_the_gpio_profile_wires_16_pins_and_64_leds_on_gpio10():
    p = load_profile("gpio-8x8")
    assert (p.link, p.width, p.height) == ("gpio", 8, 8)
    assert len(set(p.matrix.rows + p.matrix.columns)) == 16
    assert p.leds.data_pin == 10 and p.leds.count == 64
    assert p.scan.debounce_scans == 3


def test_the_serial_profile_centres_a_chess_map_on_g7():
    p = load_profile("serial-20x20")
    assert p.serial.port == "auto" and p.serial.baud == 115200
    placement = p.placement(8, 8)
    assert (placement.file_offset, placement.rank_offset) == (6, 6)
    assert placement.to_board(0) == 6 * 20 + 6


def test_a_profile_is_found_by_name_or_path(tmp_path):
    assert resolve_profile("gpio-8x8") == PROFILE_DIR / "gpio-8x8.toml"
    path = write(tmp_path, GPIO)
    assert load_profile(str(path)).name == "test board"


def test_defaults_fill_optional_keys(tmp_path):
    text = GPIO.split("[scan]")[0] + "[leds]\ncount = 64\ndata_pin = 18\nbrightness_cap = 48\nsupply_amps = 3\n"
    p = load_profile(write(tmp_path, text))
    assert (p.scan.interval_ms, p.scan.debounce_scans) == (10, 3)
    assert (p.leds.pixel_order, p.leds.serpentine, p.leds.start_corner, p.leds.rotation) == ("GRB", True, "lower-left", 0)
    assert p.leds.supply_amps == 3.0 and p.map_offset == (0, 0)


def test_a_74hc165_chain_profile(tmp_path):
    text = GPIO.replace(
        "[matrix]\nrows = [5, 6, 13, 19, 26, 16, 20, 21]\ncolumns = [4, 17, 27, 22, 23, 24, 25, 12]\n",
        "[shift_register]\nload = 22\nclock = 27\ndata = 17\nclock_enable = 23\n",
    ).replace("settle_us = 10\n", "")
    p = load_profile(write(tmp_path, text))
    assert p.matrix is None and (p.shift_register.load, p.shift_register.clock_enable) == (22, 23)


# --- placement ----------------------------------------------------------------------------------


def test_placement_maps_squares_both_ways():
    p = Placement(20, 20, 8, 8, 6, 6)
    assert p.to_board(63) == 13 * 20 + 13
    assert p.to_map(6 * 20 + 6) == 0 and p.to_map(0) is None and p.to_map(14 * 20 + 6) is None
    assert all(p.to_map(p.to_board(sq)) == sq for sq in range(64))


def test_a_map_that_does_not_fit_is_named(tmp_path):
    profile = load_profile(write(tmp_path, GPIO))
    with pytest.raises(ProfileError, match=r"\[board\] map_offset: a 12x12 map at offset \[0, 0\] does not fit on a 8x8 board"):
        profile.placement(12, 12)


# --- every mistake ------------------------------------------------------------------------------


def test_not_toml(tmp_path):
    fails(tmp_path, GPIO + "\nwidth = = 3\n", "TOML syntax error", "line 23")


def test_a_missing_file(tmp_path):
    with pytest.raises(ProfileError, match="cannot read the board profile"):
        load_profile(tmp_path / "nope.toml")


def test_an_unknown_profile_name():
    with pytest.raises(ProfileError, match="no board profile named 'gpio-9x9' \\(shipped: .*gpio-8x8"):
        load_profile("gpio-9x9")


def test_an_unknown_top_level_key(tmp_path):
    fails(tmp_path, "colour = 3\n" + GPIO, "unknown key 'colour' in the top level", "allowed here:")


def test_an_unknown_key_in_a_table(tmp_path):
    fails(tmp_path, edit(GPIO, "count = 64", "count = 64\nbrightnes = 40"), "unknown key 'brightnes' in [leds]", "brightness_cap")


def test_an_unknown_table(tmp_path):
    fails(tmp_path, GPIO + "\n[extras]\nx = 1\n", "unknown key 'extras' in the top level")


def test_a_missing_name(tmp_path):
    fails(tmp_path, edit(GPIO, 'name = "test board"\n', ""), "name is missing: expected a non-empty string")


def test_a_missing_board_table(tmp_path):
    text = edit(GPIO, "[board]\nwidth = 8\nheight = 8\n", "")
    fails(tmp_path, text, "the [board] table is missing")


def test_a_table_given_as_a_value(tmp_path):
    fails(tmp_path, 'board = 8\n' + GPIO.replace("[board]\nwidth = 8\nheight = 8\n", ""), "board must be a table")


def test_an_unknown_link(tmp_path):
    fails(tmp_path, edit(GPIO, 'link = "gpio"', 'link = "usb"'), "link: expected one of 'simulated', 'gpio', 'serial', got 'usb'")


@pytest.mark.parametrize("value", ['"8"', "8.0", "true", "4", "27"])
def test_width_must_be_an_integer_in_range(tmp_path, value):
    fails(tmp_path, edit(GPIO, "width = 8", f"width = {value}"), "[board] width: expected an integer from 5 to 26")


def test_pin_lists_must_match_the_board(tmp_path):
    fails(
        tmp_path,
        edit(GPIO, "rows = [5, 6, 13, 19, 26, 16, 20, 21]", "rows = [5, 6, 13, 19, 26, 16, 20]"),
        "[matrix] rows: expected a list of 8 GPIO numbers (one per rank, rank 1 first; the board is 8 high)",
    )


@pytest.mark.parametrize("pin", [0, 1, 28, -3, '"GPIO5"'])
def test_pins_must_be_usable_bcm_numbers(tmp_path, pin):
    fails(tmp_path, edit(GPIO, "rows = [5,", f"rows = [{pin},"), "[matrix] rows: expected a list of 8 GPIO numbers", "from 2 to 27")


def test_a_pin_used_twice(tmp_path):
    text = edit(GPIO, "columns = [4, 17, 27, 22, 23, 24, 25, 12]", "columns = [4, 17, 27, 22, 23, 24, 25, 5]")
    fails(tmp_path, text, "GPIO5 is used twice, by [matrix] rows (rank 1) and by [matrix] columns (file 8)")


def test_the_led_data_pin_used_by_the_matrix(tmp_path):
    text = edit(GPIO, "data_pin = 10", "data_pin = 18")
    text = edit(text, "columns = [4,", "columns = [18,")
    fails(tmp_path, text, "GPIO18 is used twice", "[leds] data_pin")


def test_spi_pins_are_taken_when_the_leds_use_gpio10(tmp_path):
    text = edit(GPIO, "columns = [4,", "columns = [11,")
    fails(tmp_path, text, "[matrix] columns (file 1) uses GPIO11", "SPI0", "GPIO7, GPIO8, GPIO9, GPIO11")


def test_the_led_data_pin_must_be_one_the_driver_can_use(tmp_path):
    fails(tmp_path, edit(GPIO, "data_pin = 10", "data_pin = 4"), "[leds] data_pin: expected one of GPIO 10, 12, 18, 21", "got 4")


def test_fewer_leds_than_squares(tmp_path):
    fails(tmp_path, edit(GPIO, "count = 64", "count = 60"), "[leds] count: expected an integer from 64 to 4096 (at least one LED per square: 64), got 60")


@pytest.mark.parametrize("cap", [MIN_CAP - 1, 256, 0.5])
def test_the_brightness_cap_is_a_level_from_the_minimum_to_255(tmp_path, cap):
    fails(tmp_path, edit(GPIO, "brightness_cap = 48", f"brightness_cap = {cap}"), f"[leds] brightness_cap: expected an integer from {MIN_CAP} to 255")


def test_the_supply_must_be_positive(tmp_path):
    fails(tmp_path, edit(GPIO, "supply_amps = 3.0", "supply_amps = 0"), "[leds] supply_amps: expected a number from 0.1 to 100")


@pytest.mark.parametrize(
    "line, message",
    [
        ('start_corner = "bottom-left"', "[leds] start_corner: expected one of 'lower-left'"),
        ("rotation = 45", "[leds] rotation: expected one of 0, 90, 180, 270, got 45"),
        ('pixel_order = "RGBW"', "[leds] pixel_order: expected one of 'GRB', 'RGB'"),
        ('serpentine = "yes"', "[leds] serpentine: expected true or false"),
    ],
)
def test_chain_settings_are_checked(tmp_path, line, message):
    fails(tmp_path, edit(GPIO, "count = 64", f"count = 64\n{line}"), message)


def test_a_missing_leds_table_on_a_gpio_board(tmp_path):
    fails(tmp_path, GPIO.split("[leds]")[0], "the [leds] table is missing")


def test_scan_settings_are_checked(tmp_path):
    fails(tmp_path, edit(GPIO, "debounce_scans = 3", "debounce_scans = 0"), "[scan] debounce_scans: expected an integer from 1 to 20")
    fails(tmp_path, edit(GPIO, "interval_ms = 10", "interval_ms = 0"), "[scan] interval_ms: expected an integer from 1 to 1000")


def test_settle_time_belongs_to_a_matrix_only(tmp_path):
    text = GPIO.replace(
        "[matrix]\nrows = [5, 6, 13, 19, 26, 16, 20, 21]\ncolumns = [4, 17, 27, 22, 23, 24, 25, 12]\n",
        "[shift_register]\nload = 22\nclock = 27\ndata = 17\n",
    )
    fails(tmp_path, text, "unknown key 'settle_us' in [scan]")


def test_a_gpio_board_needs_exactly_one_wiring(tmp_path):
    both = GPIO + "\n[shift_register]\nload = 2\nclock = 3\ndata = 18\n"
    fails(tmp_path, both, "exactly one of [matrix] (a diode matrix) or [shift_register] (a 74HC165 chain)")
    neither = GPIO.replace("[matrix]\nrows = [5, 6, 13, 19, 26, 16, 20, 21]\ncolumns = [4, 17, 27, 22, 23, 24, 25, 12]\n", "")
    fails(tmp_path, neither, "exactly one of [matrix]")


def test_shift_register_pins_must_differ(tmp_path):
    text = GPIO.replace(
        "[matrix]\nrows = [5, 6, 13, 19, 26, 16, 20, 21]\ncolumns = [4, 17, 27, 22, 23, 24, 25, 12]\n",
        "[shift_register]\nload = 22\nclock = 22\ndata = 17\n",
    ).replace("settle_us = 10\n", "")
    fails(tmp_path, text, "GPIO22 is used twice, by [shift_register] load and by [shift_register] clock")


def test_a_gpio_board_has_no_serial_table(tmp_path):
    fails(tmp_path, GPIO + '\n[serial]\nport = "auto"\n', "[serial] does not belong in this profile")


def test_a_serial_board_loads_and_refuses_switch_wiring(tmp_path):
    p = load_profile(write(tmp_path, SERIAL))
    assert (p.serial.port, p.leds.count, p.map_offset) == ("/dev/ttyACM1", 400, "center")
    fails(tmp_path, SERIAL + "\n[matrix]\nrows = [2]\n", "[matrix] does not belong in this profile", "FIRMWARE.md")


def test_a_serial_board_leaves_the_chain_to_the_firmware(tmp_path):
    fails(tmp_path, edit(SERIAL, "count = 400", "count = 400\ndata_pin = 10"), "[leds] data_pin: the RP2040 firmware drives the LEDs")


def test_serial_settings_are_checked(tmp_path):
    fails(tmp_path, edit(SERIAL, 'port = "/dev/ttyACM1"', 'port = ""'), "[serial] port: expected a non-empty string")
    fails(tmp_path, edit(SERIAL, 'port = "/dev/ttyACM1"', "baud = 300"), "[serial] baud: expected an integer from 9600")


def test_a_simulated_board_has_no_hardware_tables(tmp_path):
    text = 'name = "s"\nlink = "simulated"\n[board]\nwidth = 8\nheight = 8\n[leds]\ncount = 64\n'
    fails(tmp_path, text, "[leds] does not belong in this profile: a simulated board has no hardware")


@pytest.mark.parametrize("offset", ["[8, 0]", "[0]", '"middle"', "[-1, 0]", "[1.0, 2]"])
def test_map_offset_is_checked(tmp_path, offset):
    fails(tmp_path, edit(GPIO, "height = 8\n", f"height = 8\nmap_offset = {offset}\n"), '[board] map_offset: expected "center" or [file, rank]')


def test_parse_profile_names_its_source():
    with pytest.raises(ProfileError, match="^inline: the \\[board\\] table is missing"):
        parse_profile('name = "x"\nlink = "simulated"\n', "inline")
