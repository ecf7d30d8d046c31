"""``companion board-check``: the first power-on of a real board, on the terminal.

With the board attached (a GPIO profile, or an RP2040 running the firmware), in this order:

1. For an RP2040: the firmware's version, board size, scanner and scan rate, then a loop test of
   the link (LED frames out, acknowledgements back, no frame lost or damaged).
2. The LEDs, one at a time in chain order, each lit red: the builder says where it shows and in
   which colour (RGB/GRB order, a break in the chain, LEDs swapped).
3. The switches, square by square, with one piece moved along (a dead, swapped or shorted
   switch, rows or columns wired in the wrong order), and on a diode matrix three pieces on the
   corners of a rectangle (ghosting).
4. The corrected profile written beside the old one (``--write`` names the file).

What to ask and what the answers mean is companion.board.bring_up (pure); this module opens the
board, lights it, reads the switches and talks to the builder through a :class:`Terminal`
(tests give a scripted builder acting on a simulated board). Profile ``[fixes]`` already in the
profile are set aside while checking, so the check sees the build as it is.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import queue
import re
import select
import statistics
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from ..errors import CompanionError, HardwareError
from ..i18n import _, ngettext
from . import bring_up as B
from .ports import BoardDisconnected, BoardConnected, OccupancySnapshot, SquareChanged

if TYPE_CHECKING:  # the profiles are read where the check runs: the parser does without them
    from .profiles import BoardProfile

#: After a square closes, how long more changes are gathered (a magnet settling, a short).
SETTLE_S = 0.3
#: Waiting for the board's first snapshot.
CONNECT_S = 10.0
#: LED frames in the RP2040 link's loop test.
LOOP_FRAMES = 50


class Terminal:
    """The builder at a terminal: ``say`` prints, ``ask`` reads a line, ``show_step`` prints a
    switch step's instruction, ``skipped`` tells (without blocking) whether the builder typed
    s and Enter meanwhile (the board did not notice the piece)."""

    def __init__(self, stdin=None, stdout=None) -> None:
        self.stdin = stdin or sys.stdin
        self.stdout = stdout or sys.stdout

    def say(self, text: str) -> None:
        print(text, file=self.stdout, flush=True)

    def ask(self, text: str) -> str:
        print(text, end="\n> ", file=self.stdout, flush=True)
        line = self.stdin.readline()
        if not line:
            raise CompanionError(_("board-check: the terminal closed before the check ended; nothing was written"))
        return line.strip()

    def show_step(self, square: int, text: str) -> None:
        self.say(text)

    def skipped(self) -> bool:
        try:
            ready, _, _ = select.select([self.stdin], [], [], 0)
        except (OSError, ValueError):
            return False
        return bool(ready) and self.stdin.readline().strip().lower() in ("s", "skip")


class _Board:
    """The opened board: its sensor events on a queue, the closed squares, lighting by square."""

    def __init__(self, sensors, leds, size: int) -> None:
        self.sensors, self.leds, self.size = sensors, leds, size
        self.events: "queue.Queue[Any]" = queue.Queue()
        self.closed: set[int] = set()
        self.synced = False
        self.connected_info: dict = {}
        sensors.start(self.events.put)

    def pump(self, timeout: float) -> bool:
        """Take what arrived (waiting up to ``timeout`` for the first); True if anything did."""
        try:
            event = self.events.get(timeout=timeout)
        except queue.Empty:
            return False
        while True:
            if isinstance(event, SquareChanged):
                (self.closed.add if event.occupied else self.closed.discard)(event.square)
            elif isinstance(event, OccupancySnapshot):
                self.closed = set(event.occupied)
                self.synced = True
            elif isinstance(event, BoardConnected):
                self.connected_info = dict(event.info)
            elif isinstance(event, BoardDisconnected) and self.synced:
                raise HardwareError(_("board-check: the board went away ({reason}); nothing was written").format(
                    reason=event.reason))
            try:
                event = self.events.get_nowait()
            except queue.Empty:
                return True

    def wait_synced(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        while not self.synced and time.monotonic() < end:
            self.pump(0.05)
        if not self.synced:
            raise HardwareError(_("board-check: the board sent no reading in {seconds:.0f} s; is it connected?").format(
                seconds=seconds))

    def settle(self, seconds: float = SETTLE_S) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self.pump(max(0.0, end - time.monotonic()))

    def light(self, square: int | None, colour=B.TEST_COLOUR) -> None:
        frame = [(0, 0, 0)] * self.size
        if square is not None:
            frame[square] = colour
        self.leds.show(tuple(frame))
        flush = getattr(getattr(self.leds, "board", None), "flush_leds", None)
        if flush is not None:
            flush(2.0)

    def close(self) -> None:
        for port in (self.leds, self.sensors):
            try:
                port.stop()
            except Exception:  # noqa: BLE001 - closing what may already be gone
                pass


# --- the steps --------------------------------------------------------------------------------------


def firmware_report(board: _Board, io) -> list[str]:
    """An RP2040's identity, scan rate and a loop test of the link (lines said and returned)."""
    serial = getattr(board.leds, "board", None)
    if serial is None or not hasattr(serial, "request_stats"):
        return []
    info = serial.info
    scanner = {1: _("diode matrix"), 2: _("74HC165 chain")}.get(info.get("scanner"), _("unknown scanner"))
    lines = [(_("firmware {firmware} (protocol {protocol}), {width}x{height} squares, {leds} LEDs, {scanner}, simulated")
              if info.get("simulated") else
              _("firmware {firmware} (protocol {protocol}), {width}x{height} squares, {leds} LEDs, {scanner}")).format(
        firmware=info.get('firmware', '?'), protocol=info.get('protocol', '?'), width=info.get('width'),
        height=info.get('height'), leds=info.get('led_count'), scanner=scanner)]
    first = _stats(serial)
    t0 = time.monotonic()
    times = []
    for i in range(LOOP_FRAMES):
        frame = [(0, 0, 0)] * board.size
        frame[i % board.size] = (0, 0, 40)
        start = time.perf_counter()
        serial.show(tuple(frame))
        if not serial.flush_leds(2.0):
            lines.append(_("link loop test: LED frame {n} of {count} not acknowledged within 2 s: check the USB cable "
                           "and hardware/FIRMWARE.md").format(n=i + 1, count=LOOP_FRAMES))
            break
        times.append((time.perf_counter() - start) * 1000)
    board.light(None)
    second = _stats(serial)
    elapsed = time.monotonic() - t0
    if first and second:
        loops = (second.get("loops", 0) - first.get("loops", 0)) / max(elapsed, 1e-3)
        interval = second.get("scan_interval_us")
        if interval:
            lines.append(_("switches scanned every {ms:g} ms ({scans:.0f} scans a second), firmware loop {loops:.0f} "
                           "passes a second").format(ms=interval / 1000, scans=1e6 / interval, loops=loops))
        else:
            lines.append(_("scan rate: not reported by this firmware (firmware older than 1.1: update it, "
                           "hardware/FIRMWARE.md)"))
        errors = {k: second.get(k, 0) - first.get(k, 0) for k in ("rx_crc_errors", "rx_cobs_errors", "rx_bad_payloads")}
        host = serial.stats()
        damaged = sum(errors.values()) + host.get("rx_crc_errors", 0) + host.get("rx_cobs_errors", 0)
        if times:
            lines.append(_("link loop test: {n} of {count} LED frames acknowledged, round trip median {median:.1f} ms, "
                           "worst {worst:.1f} ms, {damage}").format(
                n=len(times), count=LOOP_FRAMES, median=statistics.median(times), worst=max(times),
                damage=_("no damaged frame") if damaged == 0 else ngettext(
                    "{n} damaged frame: check the USB cable", "{n} damaged frames: check the USB cable",
                    damaged).format(n=damaged)))
    for line in lines:
        io.say(line)
    return lines


def _stats(serial, wait_s: float = 2.0) -> dict:
    before = serial.board_stats
    serial.request_stats()
    end = time.monotonic() + wait_s
    while time.monotonic() < end:
        now = serial.board_stats
        if now and now != before:
            return now
        time.sleep(0.01)
    return serial.board_stats


def check_leds(board: _Board, io, led_of_square, configured_order: str, width: int, height: int) -> B.LedFindings:
    steps = B.led_steps(led_of_square)
    io.say(ngettext("The LEDs, in the order of the chain ({n} of them). {help}",
                    "The LEDs, in the order of the chain ({n} of them). {help}", len(steps)).format(
        n=len(steps), help=_(B.LED_HELP)))
    seen = []
    for step in steps:
        board.light(step.square)
        while True:
            try:
                seen.append(B.parse_led_answer(io.ask(B.led_question(step, len(steps), width)), step, width, height))
                break
            except ValueError as exc:
                io.say(str(exc))
    board.light(None)
    return B.read_leds(steps, seen, configured_order, width)


def check_switches(board: _Board, io, width: int, height: int, matrix: bool, wait_s: float = 600.0,
                   settle_s: float = SETTLE_S) -> B.SwitchFindings:
    io.ask(_("The switches. Take every piece off the board, then press Enter."))
    board.settle(settle_s)
    stuck = frozenset(board.closed)
    seen: dict[int, frozenset[int]] = {}
    for i, square in enumerate(B.switch_steps(width, height)):
        io.show_step(square, B.switch_question(square, width, first=i == 0))
        baseline = set(board.closed)
        end = time.monotonic() + wait_s
        reading: frozenset[int] = frozenset()
        while time.monotonic() < end:
            board.pump(0.02)
            if set(board.closed) - baseline:
                board.settle(settle_s)
                reading = frozenset(set(board.closed) - baseline)
                break
            if io.skipped():
                break
        seen[square] = reading
    ghost = None
    if matrix and width >= 2 and height >= 2:
        corners, fourth = B.ghost_probe(width, height)
        names = ", ".join(B.square_name(sq, width) for sq in corners)
        io.ask(_("Ghosting: put pieces on {squares} (three pieces, nothing else on the board), then press Enter.").format(
            squares=names))
        board.settle(settle_s)
        ghost = fourth in board.closed
    io.ask(_("Take every piece off the board, then press Enter."))
    return B.read_switches(width, height, seen, stuck=stuck, ghost=ghost, matrix=matrix)


# --- the corrected profile -----------------------------------------------------------------------------


def corrected_text(text: str, profile: BoardProfile, leds: B.LedFindings | None,
                   switches: B.SwitchFindings | None, serial: bool) -> str:
    """The profile's text with what the check found put right (comments kept), checked by
    loading it again."""
    from .profiles import parse_profile

    out = _drop_table(text, "fixes")
    if leds is not None and leds.order_wrong and not serial:
        out = _set_key(out, "leds", "pixel_order", f'"{leds.strip_order}"')
    if switches is not None and profile.matrix is not None:
        if switches.rank_order is not None:
            rows = B.reorder_pins(profile.matrix.rows, switches.rank_order)
            out = _set_key(out, "matrix", "rows", "[" + ", ".join(map(str, rows)) + "]")
        if switches.file_order is not None:
            cols = B.reorder_pins(profile.matrix.columns, switches.file_order)
            out = _set_key(out, "matrix", "columns", "[" + ", ".join(map(str, cols)) + "]")
    name = lambda sq: B.square_name(sq, profile.width)  # noqa: E731
    lines = []
    if leds is not None and leds.swaps:
        lines.append("swap_leds = [" + ", ".join(f'["{name(a)}", "{name(b)}"]' for a, b in leds.swaps) + "]")
    if switches is not None and switches.swaps:
        lines.append("swap_switches = [" + ", ".join(f'["{name(a)}", "{name(b)}"]' for a, b in switches.swaps) + "]")
    if lines:
        out = out.rstrip("\n") + "\n\n[fixes]                      # found by companion board-check\n" + "\n".join(lines) + "\n"
    parse_profile(out, "the corrected profile")  # never write what would not load
    return out


_HEADER = re.compile(r"^\s*\[([A-Za-z_]+)\]")


def _table_span(lines: list[str], table: str) -> tuple[int, int] | None:
    start = next((i for i, line in enumerate(lines) if (m := _HEADER.match(line)) and m.group(1) == table), None)
    if start is None:
        return None
    end = next((j for j in range(start + 1, len(lines)) if _HEADER.match(lines[j])), len(lines))
    return start, end


def _drop_table(text: str, table: str) -> str:
    lines = text.splitlines()
    span = _table_span(lines, table)
    if span is None:
        return text
    start, end = span
    while start > 0 and lines[start - 1].strip() == "":
        start -= 1
    return "\n".join(lines[:start] + lines[end:]) + "\n"


def _set_key(text: str, table: str, key: str, value: str) -> str:
    lines = text.splitlines()
    span = _table_span(lines, table)
    new = f"{key} = {value}  # corrected by companion board-check"
    if span is None:
        return text.rstrip("\n") + f"\n\n[{table}]\n{new}\n"
    start, end = span
    pattern = re.compile(rf"^\s*{re.escape(key)}\s*=")
    for i in range(start + 1, end):
        if pattern.match(lines[i]):
            lines[i] = new
            return "\n".join(lines) + "\n"
    lines.insert(start + 1, new)
    return "\n".join(lines) + "\n"


# --- the whole check -------------------------------------------------------------------------------------


@dataclasses.dataclass
class CheckResult:
    firmware: list[str]
    leds: B.LedFindings | None
    switches: B.SwitchFindings | None
    written: Path | None


def run_check(profile: BoardProfile, text: str, io, *, out_path: Path | None, pin_factory: Any = None,
              pixels: Any = None, port: str | None = None, leds: bool = True, switches: bool = True,
              wait_s: float = 600.0, settle_s: float = SETTLE_S) -> CheckResult:
    """The check on the board ``profile`` describes (``text``: the profile file's text, kept
    with its comments in the corrected file written to ``out_path``)."""
    from .hardware import open_board
    from .neopixel_leds import ChainOrder, chain_table
    from .profiles import Fixes

    if profile.link == "simulated":
        raise CompanionError(_("board-check is for a real board: give a gpio or serial profile (the simulated board "
                               "has its Board check on the screen)"))
    bare = dataclasses.replace(profile, fixes=Fixes())
    if port is not None:
        if profile.link != "serial" or profile.serial is None:
            raise CompanionError(_("--port is for a serial (RP2040) profile"))
        bare = dataclasses.replace(bare, serial=dataclasses.replace(profile.serial, port=port))
    sensors, led_port = open_board(bare, map_width=profile.width, map_height=profile.height,
                                   pin_factory=pin_factory, pixels=pixels)
    board = _Board(sensors, led_port, profile.size)
    serial = profile.link == "serial"
    try:
        board.wait_synced(CONNECT_S)
        firmware = firmware_report(board, io) if serial else []
        led_findings = switch_findings = None
        if leds:
            if serial:
                led_of_square, order = list(range(profile.size)), "the firmware's PIXEL_ORDER"
            else:
                assert profile.leds is not None
                chain = ChainOrder(profile.leds.serpentine, profile.leds.start_corner, profile.leds.rotation)
                led_of_square, order = chain_table(profile.width, profile.height, chain), profile.leds.pixel_order
            led_findings = check_leds(board, io, led_of_square, order, profile.width, profile.height)
            for line in led_findings.lines():
                io.say(_("LEDs: {finding}").format(finding=line))
            if serial and led_findings.order_wrong:
                io.say(_('LEDs: the RP2040 sends the colours: in config.py on its CIRCUITPY drive set PIXEL_ORDER to '
                         'the other order ("GRB" <-> "RGB"; hardware/FIRMWARE.md)'))
        if switches:
            matrix = profile.matrix is not None or \
                (serial and getattr(getattr(led_port, "board", None), "info", {}).get("scanner") == 1)
            switch_findings = check_switches(board, io, profile.width, profile.height, matrix, wait_s, settle_s)
            for line in switch_findings.lines():
                io.say(_("switches: {finding}").format(finding=line))
    finally:
        if board.synced:
            board.light(None)
        board.close()
    written = None
    fixable = (led_findings is not None and (led_findings.swaps or (led_findings.order_wrong and not serial))) or \
        (switch_findings is not None and (switch_findings.swaps or switch_findings.rank_order or switch_findings.file_order))
    if out_path is not None and (fixable or profile.fixes != Fixes()):
        new_text = corrected_text(text, profile, led_findings, switch_findings, serial)
        out_path.write_text(new_text, encoding="utf-8")
        written = out_path
        io.say(_("the corrected profile: {path} (start the app with: companion --profile {path})").format(path=out_path))
    elif out_path is not None:
        io.say(_("nothing to correct in the profile"))
    return CheckResult(firmware, led_findings, switch_findings, written)


def add_parser(subparsers) -> argparse.ArgumentParser:
    p = subparsers.add_parser(
        "board-check", help=_("the first power-on of a real board: LEDs, switches, the RP2040 link; writes the corrected profile"),
        description=_("Walk a real board with its builder: each LED lit in chain order (colour order, chain breaks, swapped "
                    "LEDs), each square covered in turn (dead, swapped or shorted switches, ghosting), for an RP2040 "
                    "the firmware and a loop test of its link; then write the corrected profile "
                    "(hardware/README.md, 'Bring-up')."))
    p.add_argument("--profile", dest="check_profile", required=True, metavar="PROFILE",
                   help=_("the board's profile: a name from hardware/profiles/ or a .toml file"))
    p.add_argument("--port", default=None, help=_("serial profiles: the RP2040's device instead of the profile's [serial] port"))
    p.add_argument("--write", default=None, metavar="FILE",
                   help=_("where the corrected profile goes (default: PROFILE-checked.toml in this folder)"))
    p.add_argument("--skip-leds", action="store_true", help=_("leave out the LED walk"))
    p.add_argument("--skip-switches", action="store_true", help=_("leave out the switch walk"))
    p.set_defaults(func=cmd_board_check)
    return p


def cmd_board_check(args, io=None) -> int:
    from .profiles import load_profile, resolve_profile

    path = resolve_profile(args.check_profile)
    profile = load_profile(path)
    out = Path(args.write) if args.write else Path(os.getcwd()) / f"{path.stem}-checked.toml"
    if out.resolve() == path.resolve():
        raise CompanionError(_("--write {out}: that is the profile being checked; write the corrected one elsewhere").format(
            out=out))
    result = run_check(profile, path.read_text(encoding="utf-8"), io or Terminal(), out_path=out, port=args.port,
                       leds=not args.skip_leds, switches=not args.skip_switches)
    bad = (result.leds is not None and not result.leds.ok) or (result.switches is not None and not result.switches.ok)
    return 1 if bad else 0
