"""The first power-on: companion.board.bring_up (what to ask, what the answers mean) and
``companion board-check`` against simulated boards with seeded faults: a GPIO board on
gpiozero's MockFactory (the switch matrix model of test_gpio_matrix, with or without diodes,
and a NeoPixel strip model) and an RP2040 board (the real firmware under the simulator, over a
pty). A scripted builder looks at the LEDs and moves the pieces as a person would."""

from __future__ import annotations

import argparse
import io
from pathlib import Path

import pytest

from companion.board import bring_up as B
from companion.board.board_check import cmd_board_check, corrected_text, run_check
from companion.board.neopixel_leds import ChainOrder, chain_table
from companion.board.profiles import load_profile, parse_profile
from companion.errors import CompanionError
from tests.test_gpio_matrix import SwitchMatrixModel

W = H = 5
ROWS = [5, 6, 13, 19, 26]
COLUMNS = [4, 17, 27, 22, 23]
GPIO_PROFILE = f"""# a small test board
name = "Test 5x5"
link = "gpio"

[board]
width = 5
height = 5

[matrix]
rows = {ROWS}     # rank 1 first
columns = {COLUMNS}

[scan]
interval_ms = 1
debounce_scans = 2
settle_us = 0

[leds]
count = 25
data_pin = 10
pixel_order = "GRB"          # WS2812B
serpentine = true
start_corner = "lower-left"
rotation = 0
brightness_cap = 48
supply_amps = 3.0
"""
SERIAL_PROFILE = """name = "Test RP2040 5x5"
link = "serial"

[board]
width = 5
height = 5

[serial]
port = "auto"

[leds]
count = 25
brightness_cap = 32
supply_amps = 10.0
"""


def sq(name: str) -> int:
    return B.parse_square(name, W, H)


# --- the pure rules -------------------------------------------------------------------------------


def test_led_answers_name_a_colour_and_or_a_square():
    step = B.LedStep(3, sq("d1"))
    assert B.parse_led_answer("", step, W, H) == B.LedSeen("red", sq("d1"))
    assert B.parse_led_answer("g", step, W, H) == B.LedSeen("green", sq("d1"))
    assert B.parse_led_answer("e4", step, W, H) == B.LedSeen("red", sq("e4"))
    assert B.parse_led_answer("green, e4", step, W, H) == B.LedSeen("green", sq("e4"))
    assert B.parse_led_answer("n", step, W, H) == B.LedSeen(None, None)
    for bad in ("z9", "r g", "e4 e5", "f1"):
        with pytest.raises(ValueError, match="square|colour"):
            B.parse_led_answer(bad, step, W, H)


def test_the_led_walk_goes_in_chain_order():
    table = chain_table(3, 2, ChainOrder(True, "lower-left", 0))
    assert [s.square for s in B.led_steps(table)] == [0, 1, 2, 5, 4, 3]  # a1 b1 c1 c2 b2 a2


def test_green_for_red_means_the_other_pixel_order():
    steps = B.led_steps(range(4))
    found = B.read_leds(steps, [B.LedSeen("green", s.square) for s in steps], "GRB", 2)
    assert found.strip_order == "RGB" and found.order_wrong and not found.ok
    assert "the strip is RGB, not GRB" in found.lines()[0]


def test_a_chain_break_and_a_swapped_pair():
    steps = B.led_steps(range(6))
    seen = [B.LedSeen("red", 0), B.LedSeen("red", 2), B.LedSeen("red", 1), B.LedSeen("red", 3),
            B.LedSeen(None, None), B.LedSeen(None, None)]
    found = B.read_leds(steps, seen, "GRB", 3)
    assert found.swaps == ((1, 2),)
    assert found.chain_break == steps[4]
    assert found.dark == ()
    text = " ".join(found.lines())
    assert "LEDs swapped in the chain: b1 and c1" in text and "the chain breaks at LED 5 (under b2)" in text


def test_switch_findings_tell_dead_swapped_shorted_and_stuck_apart():
    seen = {s: frozenset({s}) for s in range(W * H)}
    seen[sq("b1")] = frozenset()
    seen[sq("c2")], seen[sq("d3")] = frozenset({sq("d3")}), frozenset({sq("c2")})
    seen[sq("e5")] = frozenset({sq("e5"), sq("d5")})
    found = B.read_switches(W, H, seen, stuck=frozenset({sq("a5")}), ghost=False, matrix=True)
    assert found.dead == (sq("b1"),) and found.swaps == ((sq("c2"), sq("d3")),)
    assert found.shorted == ((sq("e5"), (sq("d5"), sq("e5"))),) and found.stuck == (sq("a5"),)
    assert found.rank_order is None and found.file_order is None
    assert not found.ok


def test_a_whole_rank_read_as_another_is_the_row_wires_not_the_switches():
    seen = {s: frozenset({s}) for s in range(W * H)}
    for f in range(W):
        seen[1 * W + f], seen[2 * W + f] = frozenset({2 * W + f}), frozenset({1 * W + f})
    found = B.read_switches(W, H, seen, matrix=True)
    assert found.rank_order == (0, 2, 1, 3, 4) and found.swaps == ()
    assert B.reorder_pins(ROWS, found.rank_order) == (5, 13, 6, 19, 26)
    # two switches of one file swapped are switches, not wires
    seen = {s: frozenset({s}) for s in range(W * H)}
    seen[sq("a2")], seen[sq("a3")] = frozenset({sq("a3")}), frozenset({sq("a2")})
    found = B.read_switches(W, H, seen, matrix=True)
    assert found.rank_order is None and found.swaps == ((sq("a2"), sq("a3")),)


def test_the_corrected_profile_keeps_the_comments_and_loads(tmp_path):
    profile = parse_profile(GPIO_PROFILE)
    leds = B.read_leds(B.led_steps(range(2)), [B.LedSeen("green", 1), B.LedSeen("green", 0)], "GRB", W)
    seen = {s: frozenset({s}) for s in range(W * H)}
    for f in range(W):
        seen[f], seen[W + f] = frozenset({W + f}), frozenset({f})
    switches = B.read_switches(W, H, seen, matrix=True)
    text = corrected_text(GPIO_PROFILE, profile, leds, switches, serial=False)
    fixed = parse_profile(text)
    assert fixed.leds.pixel_order == "RGB"
    assert fixed.matrix.rows == (6, 5, 13, 19, 26)
    assert fixed.fixes.swap_leds == ((0, 1),)
    assert "# a small test board" in text and "# WS2812B" not in text.split("pixel_order")[1].splitlines()[0]


def test_fixes_in_a_profile_are_validated():
    for fixes, message in (('swap_leds = [["a1", "z9"]]', "not a square"),
                           ('swap_leds = [["a1", "b1"], ["b1", "c1"]]', "more than one pair"),
                           ('swap_switches = "a1"', "pairs of squares")):
        with pytest.raises(CompanionError, match=message):
            parse_profile(GPIO_PROFILE + "\n[fixes]\n" + fixes + "\n")


# --- a scripted builder ---------------------------------------------------------------------------


class Builder:
    """Answers board-check as a person at the board would: looks at the lit LED (through the
    strip's physical faults) and moves one piece from square to square (through the switches'
    faults). ``wired`` maps a square where a piece stands to the switch it closes (None: dead)."""

    def __init__(self, strip, press, *, wired=None, ghost_matrix=False) -> None:
        self.strip, self.press = strip, press
        self.wired = wired or {}
        self.pieces: set[int] = set()
        self.said: list[str] = []
        self.current: int | None = None

    def _apply(self) -> None:
        self.press({w for p in self.pieces if (w := self.wired.get(p, p)) is not None})

    def say(self, text: str) -> None:
        self.said.append(text)

    def ask(self, text: str) -> str:
        self.said.append(text)
        if text.startswith("LED "):
            lit = self.strip()
            if not lit:
                return "n"
            square, (r, g, b) = lit
            colour = max((r, "r"), (g, "g"), (b, "b"))[1]
            return f"{colour} {B.square_name(square, W)}"
        if "Take every piece off" in text:
            self.pieces = set()
        elif text.startswith("Ghosting"):
            self.pieces = {sq("a1"), sq("b1"), sq("a2")}
        self._apply()
        return ""

    def show_step(self, square: int, text: str) -> None:
        self.said.append(text)
        self.current = square
        self.pieces = {square}
        self._apply()

    def skipped(self) -> bool:
        return self.current is not None and self.wired.get(self.current, self.current) is None


class Strip:
    """The NeoPixels as they are under the board: chain LED i sits under ``under[i]``; a strip
    of the other colour order shows red as green; LEDs from ``broken_at`` on get no data."""

    def __init__(self, under, *, swapped_order=False, broken_at=None) -> None:
        self.under = list(under)
        self.swapped_order, self.broken_at = swapped_order, broken_at
        self.buf = [(0, 0, 0)] * len(self.under)
        self.shown = list(self.buf)

    def __setitem__(self, i, value) -> None:
        self.buf[i] = tuple(value)

    def show(self) -> None:
        self.shown = list(self.buf)

    def lit(self):
        for i, (r, g, b) in enumerate(self.shown):
            if (self.broken_at is None or i < self.broken_at) and (r or g or b):
                return self.under[i], ((g, r, b) if self.swapped_order else (r, g, b))
        return None


def gpio_under(swap=()):
    """Where each chain LED really is: the profile's chain, with LED pairs swapped in the build."""
    table = chain_table(W, H, ChainOrder(True, "lower-left", 0))
    under = [0] * (W * H)
    for square, led in enumerate(table):
        under[led] = square
    for a, b in swap:
        la, lb = table[sq(a)], table[sq(b)]
        under[la], under[lb] = under[lb], under[la]
    return under


def run_gpio(tmp_path, mock_factory, *, diodes=True, wired=None, strip=None):
    model = SwitchMatrixModel(mock_factory, ROWS, COLUMNS, diodes=diodes)
    strip = strip or Strip(gpio_under())
    builder = Builder(strip.lit, model.set, wired=wired)
    path = tmp_path / "board.toml"
    path.write_text(GPIO_PROFILE)
    result = run_check(load_profile(path), GPIO_PROFILE, builder, out_path=tmp_path / "checked.toml",
                       pin_factory=mock_factory, pixels=strip, wait_s=5.0, settle_s=0.03)
    return result, builder


def test_gpio_a_sound_board_passes_and_nothing_is_written(tmp_path, mock_factory):
    result, builder = run_gpio(tmp_path, mock_factory)
    assert result.leds.ok and result.switches.ok and result.switches.ghost is False
    assert result.written is None
    assert "nothing to correct in the profile" in builder.said


def test_gpio_seeded_faults_swapped_leds_grb_strip_dead_switch_ghost(tmp_path, mock_factory):
    strip = Strip(gpio_under(swap=[("c2", "d2")]), swapped_order=True)
    wired = {sq("b3"): None}  # a dead reed switch
    result, builder = run_gpio(tmp_path, mock_factory, diodes=False, wired=wired, strip=strip)
    assert result.leds.strip_order == "RGB" and result.leds.swaps == ((sq("c2"), sq("d2")),)
    assert result.switches.dead == (sq("b3"),)
    assert result.switches.ghost is True
    said = "\n".join(builder.said)
    assert "LEDs: the strip is RGB, not GRB" in said
    assert "switches: nothing sensed" in said and "b3" in said
    assert "switches: ghosting" in said
    fixed = load_profile(result.written)
    assert fixed.leds.pixel_order == "RGB"
    assert fixed.fixes.swap_leds == ((sq("c2"), sq("d2")),)


def test_gpio_swapped_switches_and_swapped_row_wires_are_written_into_the_profile(tmp_path, mock_factory):
    wired = {sq("a2"): sq("e1"), sq("e1"): sq("a2")}  # two reed switches wired to each other's place
    for f in range(W):  # and ranks 4 and 5 wired to each other's row pin
        wired[3 * W + f], wired[4 * W + f] = 4 * W + f, 3 * W + f
    result, builder = run_gpio(tmp_path, mock_factory, wired=wired)
    assert result.switches.rank_order == (0, 1, 2, 4, 3)
    assert result.switches.swaps == ((sq("e1"), sq("a2")),)
    said = "\n".join(builder.said)
    assert "row wires swapped: rank 4 reads as rank 5, rank 5 reads as rank 4" in said
    assert "switches swapped: e1 and a2" in said
    fixed = load_profile(result.written)
    assert fixed.matrix.rows == (5, 6, 13, 26, 19)
    assert fixed.fixes.swap_switches == ((sq("e1"), sq("a2")),)
    # the corrected profile on the same build: every square reads where it is
    from companion.board.hardware import open_board
    from companion.board.ports import SquareChanged

    sensors, _ = open_board(fixed, pin_factory=mock_factory, pixels=Strip(gpio_under()))
    assert sensors.translate(SquareChanged(sq("e1"), True, 1)).square == sq("a2")
    sensors.stop()


def test_gpio_a_profile_with_the_fixes_plays_them(tmp_path, mock_factory):
    """[fixes] written by the check, applied by open_board: the LED for c2 lights under c2."""
    from companion.board.hardware import open_board
    from companion.board.ports import SquareChanged

    text = GPIO_PROFILE + '\n[fixes]\nswap_leds = [["c2", "d2"]]\nswap_switches = [["a1", "e5"]]\n'
    strip = Strip(gpio_under(swap=[("c2", "d2")]))
    sensors, leds = open_board(parse_profile(text), pin_factory=mock_factory, pixels=strip)
    frame = [(0, 0, 0)] * 25
    frame[sq("c2")] = (255, 0, 0)
    leds.show(tuple(frame))
    assert strip.lit()[0] == sq("c2")
    assert sensors.translate(SquareChanged(sq("a1"), True, 5)) == SquareChanged(sq("e5"), True, 5)


# --- the RP2040 -------------------------------------------------------------------------------------


@pytest.fixture
def rp2040():
    from companion.board.firmware_sim import FirmwareSim

    sims = []

    def make(**config):
        sim = FirmwareSim(W, H, scan_interval_s=0.01, config=config or None)
        sims.append(sim)
        return sim, sim.start()

    yield make
    for sim in sims:
        sim.stop()


def run_rp2040(tmp_path, sim, port, *, wired=None, led_swap=(), other_order=False):
    under = [0] * (W * H)
    for square, pixel in enumerate(sim.pixel_map):
        under[pixel] = square
    for a, b in led_swap:
        pa, pb = sim.pixel_map[sq(a)], sim.pixel_map[sq(b)]
        under[pa], under[pb] = under[pb], under[pa]

    def lit():
        shown = sim.pixels.shown if sim.pixels is not None else []
        for p, (r, g, b) in enumerate(shown):
            if r or g or b:
                return under[p], ((g, r, b) if other_order else (r, g, b))
        return None

    def press(closed):
        for s in range(W * H):
            sim.set_square(s, s in closed)

    builder = Builder(lit, press, wired=wired)
    path = tmp_path / "rp2040.toml"
    path.write_text(SERIAL_PROFILE)
    result = run_check(load_profile(path), SERIAL_PROFILE, builder, out_path=tmp_path / "checked.toml", port=port,
                       wait_s=5.0, settle_s=0.05)
    return result, builder


def test_rp2040_reports_its_firmware_scan_rate_and_a_clean_link(tmp_path, rp2040):
    sim, port = rp2040()
    result, builder = run_rp2040(tmp_path, sim, port)
    firmware = "\n".join(result.firmware)
    assert "firmware 1.1.0 (protocol 1), 5x5 squares, 25 LEDs, 74HC165 chain, simulated" in firmware
    assert "switches scanned every 10 ms (100 scans a second)" in firmware
    assert f"link loop test: 50 of 50 LED frames acknowledged" in firmware and "no damaged frame" in firmware
    assert result.leds.ok and result.switches.ok and result.switches.ghost is None
    assert result.written is None


def test_rp2040_seeded_faults_swapped_leds_grb_strip_dead_switch(tmp_path, rp2040):
    sim, port = rp2040(PIXEL_ORDER="RGB")  # the firmware is told RGB; the strip is a WS2812B (GRB)
    result, builder = run_rp2040(tmp_path, sim, port, wired={sq("d4"): None}, led_swap=[("a1", "b1")],
                                 other_order=True)
    assert result.leds.order_wrong and result.leds.swaps == ((sq("a1"), sq("b1")),)
    assert result.switches.dead == (sq("d4"),)
    said = "\n".join(builder.said)
    assert "LEDs: red showed as green: the strip's colour order is not the firmware's PIXEL_ORDER" in said
    assert 'set PIXEL_ORDER to the other order ("GRB" <-> "RGB"' in said
    fixed = load_profile(result.written)
    assert fixed.fixes.swap_leds == ((sq("a1"), sq("b1")),)
    assert fixed.leds == load_profile(tmp_path / "rp2040.toml").leds  # the order is the firmware's to fix


# --- the command line -----------------------------------------------------------------------------


def test_the_command_refuses_a_simulated_profile_and_its_own_file(tmp_path):
    args = argparse.Namespace(check_profile="simulated-8x8", port=None, write=None, skip_leds=False, skip_switches=False)
    with pytest.raises(CompanionError, match="board-check is for a real board"):
        cmd_board_check(args, io=Builder(lambda: None, lambda closed: None))
    path = tmp_path / "mine.toml"
    path.write_text(GPIO_PROFILE)
    args = argparse.Namespace(check_profile=str(path), port=None, write=str(path), skip_leds=False, skip_switches=False)
    with pytest.raises(CompanionError, match="that is the profile being checked"):
        cmd_board_check(args)


def test_the_terminal_reads_answers_and_notices_a_closed_input():
    from companion.board.board_check import Terminal

    out = io.StringIO()
    term = Terminal(stdin=io.StringIO("g e4\n"), stdout=out)
    assert term.ask("LED 1 of 25 ...") == "g e4"
    with pytest.raises(CompanionError, match="the terminal closed"):
        term.ask("again")


def test_board_check_is_a_command(capsys):
    from companion.cli import main

    with pytest.raises(SystemExit):
        main(["board-check", "--help"])
    assert "corrected profile" in capsys.readouterr().out
