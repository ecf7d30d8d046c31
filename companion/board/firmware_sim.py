"""The real firmware (firmware/companion_fw.py) on a simulated board, talking over a pty.

The simulator stands in for the RP2040: a switch per square behind a keypad-like scanner
(:class:`SimKeys`), a NeoPixel buffer (:class:`SimPixels`) and the USB data channel, which is the
master side of a pseudo-terminal (:class:`PtyPort`); those devices are in sim_devices.py. The
host opens the other side with pyserial exactly as it opens /dev/ttyACM1: ``companion --serial
PATH``. PATH is a symlink that survives a simulated unplug/replug (a new pty behind the same
name, like a udev by-id link).

The firmware source is loaded from the repository's firmware/ folder and imports the one codec
(companion/board/protocol.py): no second copy of either exists.

Programmatic use (tests, bench)::

    with FirmwareSim(8, 8, occupied=range(16)) as sim:
        board = SerialBoard(sim.path, 8, 8)
        sim.release(12); sim.press(28)      # e2 -> e4
        sim.unplug(); sim.replug()
        sim.restart()                        # a watchdog reset mid-game
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import random
import select
import shutil
import signal
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Iterable, Optional

from ..bounds import number_arg
from ..core.geometry import square_name
from ..errors import HardwareError
from ..i18n import _
from . import protocol
from .sim_devices import RGB, PtyPort, SimEvent, SimEventQueue, SimKeys, SimPixels, SimWatchdog, _ms  # noqa: F401

__all__ = ["FIRMWARE_DIR", "FirmwareSim", "PtyPort", "SimEvent", "SimEventQueue", "SimKeys", "SimPixels",
           "SimWatchdog", "add_parser", "load_firmware", "run"]

FIRMWARE_DIR = Path(__file__).resolve().parents[2] / "firmware"
#: The longest --seconds (a week): a bound, not a wish.
MAX_SECONDS = 7 * 24 * 3600


def load_firmware():
    """The firmware module (firmware/companion_fw.py), loaded once as ``companion_fw``."""
    module = sys.modules.get("companion_fw")
    if module is not None:
        return module
    source = FIRMWARE_DIR / "companion_fw.py"
    if not source.is_file():
        raise HardwareError(
            _("the firmware source is not at {source}: the simulator runs the repository's firmware/ folder, so run "
              "it from a source checkout (pip install -e .)").format(source=source)
        )
    spec = importlib.util.spec_from_file_location("companion_fw", source)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    sys.modules["companion_fw"] = module
    try:
        spec.loader.exec_module(module)  # type: ignore[union-attr]
    except BaseException:
        del sys.modules["companion_fw"]
        raise
    return module


# --- the simulator -------------------------------------------------------------------------------


def _sim_config(width: int, height: int, scan_interval_s: float, overrides: Optional[dict]) -> dict:
    values = {
        "WIDTH": width,
        "HEIGHT": height,
        "SCANNER": "shift_register",
        "CLOCK_PIN": "SIM_CLOCK",
        "DATA_PIN": "SIM_DATA",
        "LATCH_PIN": "SIM_LATCH",
        "SCAN_INTERVAL_S": scan_interval_s,
        "DEBOUNCE_SCANS": 1,
        "KEY_ORDER": "rows",
        "LED_ORDER": "serpentine",
        "LED_PIN": "SIM_LEDS",
        "STATUS_LED_PIN": None,
        "BRIGHTNESS_CAP": 255,
        "WATCHDOG_S": 2,
    }
    values.update(overrides or {})
    return values


class FirmwareSim:
    """A simulated board running the real firmware loop in a background thread."""

    def __init__(
        self,
        width: int = 8,
        height: int = 8,
        *,
        occupied: Iterable[int] = (),
        scan_interval_s: float = 0.0,
        config: Optional[dict] = None,
        tick_s: float = 0.005,
        link_dir: Optional[str] = None,
    ) -> None:
        self.fw_module = load_firmware()
        self.cfg = self.fw_module.load_config(_sim_config(width, height, scan_interval_s, config))
        self.width, self.height = width, height
        self.size = width * height
        self.tick_s = tick_s
        key_map = self.fw_module.key_to_square(self.cfg)
        self.square_to_key = {sq: key for key, sq in enumerate(key_map) if sq >= 0}
        self.pixel_map = self.fw_module.square_to_pixel(self.cfg)
        self.switches = bytearray(self.size)
        for sq in occupied:
            self._check(sq)
            self.switches[sq] = 1

        self._own_dir = link_dir is None
        self.link_dir = link_dir or tempfile.mkdtemp(prefix="companion-sim-")
        self.path = os.path.join(self.link_dir, "board")
        self.port = PtyPort()
        self.plugged = False
        self.hung = False
        self.boots = 0
        self.firmware = None
        self.keys: Optional[SimKeys] = None
        self.pixels: Optional[SimPixels] = None
        self.watchdog: Optional[SimWatchdog] = None

        self._lock = threading.RLock()
        self._stop = threading.Event()
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_r, False)
        self._thread: Optional[threading.Thread] = None

    # --- life -----------------------------------------------------------------------------

    def start(self) -> str:
        """Plug in, boot the firmware, run its loop; returns the device path for the host."""
        with self._lock:
            self._plug()
            self._boot(protocol.RESET_POWER_ON)
        self._thread = threading.Thread(target=self._run, name="firmware-sim", daemon=True)
        self._thread.start()
        return self.path

    def stop(self) -> None:
        self._stop.set()
        self._poke()
        if self._thread is not None:
            self._thread.join(timeout=3)
            self._thread = None
        with self._lock:
            self._unplug()
        for fd in (self._wake_r, self._wake_w):
            try:
                os.close(fd)
            except OSError:
                pass
        if self._own_dir:
            shutil.rmtree(self.link_dir, ignore_errors=True)

    def __enter__(self) -> "FirmwareSim":
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    # --- the physical board ------------------------------------------------------------------

    def _check(self, square: int) -> None:
        if not 0 <= square < self.size:
            raise ValueError(f"square {square} is off the {self.width}x{self.height} board")

    def set_square(self, square: int, occupied: bool) -> None:
        self._check(square)
        with self._lock:
            self.switches[square] = 1 if occupied else 0
            if self.keys is not None:
                self.keys.set_pressed(self.square_to_key[square], occupied)
        self._poke()

    def press(self, square: int) -> None:
        """A piece arrives on ``square`` (its reed switch closes)."""
        self.set_square(square, True)

    def release(self, square: int) -> None:
        """The piece on ``square`` is lifted."""
        self.set_square(square, False)

    def occupied(self) -> set[int]:
        """Squares whose switch is closed right now."""
        return {sq for sq in range(self.size) if self.switches[sq]}

    def leds(self) -> list[RGB]:
        """What each square shows (after the brightness cap), in square order."""
        pixels = self.pixels
        if pixels is None:
            return [(0, 0, 0)] * self.size
        shown = pixels.shown
        return [shown[self.pixel_map[sq]] for sq in range(self.size)]

    # --- faults --------------------------------------------------------------------------------

    def unplug(self) -> None:
        """Pull the USB cable: the host's port errors, the device path disappears."""
        with self._lock:
            self._unplug()
            self.firmware = None  # no USB power in this simulation: the board is off
        self._poke()

    def replug(self) -> None:
        """Plug the cable back: a new pty behind the same path; the firmware boots."""
        with self._lock:
            self._plug()
            self._boot(protocol.RESET_POWER_ON)
        self._poke()

    def restart(self, reason: int = protocol.RESET_WATCHDOG, reenumerate: bool = True) -> None:
        """The firmware resets (watchdog, crash): a new boot with LEDs off and fresh scanner
        state. A real reset re-enumerates USB (the host sees the port vanish); a soft reload
        (``reenumerate=False``) keeps the port open."""
        with self._lock:
            if reenumerate:
                self._unplug()
                self._plug()
            self._boot(reason)
        self._poke()

    def hang(self) -> None:
        """The firmware loop stalls: no more steps; the simulated watchdog resets the board."""
        with self._lock:
            self.hung = True

    def inject(self, data: bytes) -> None:
        """Bytes from the board to the host that the firmware did not send (line noise)."""
        with self._lock:
            self.port.inject(data)

    # --- internals -------------------------------------------------------------------------------

    def _plug(self) -> None:
        if self.plugged:
            return
        tty_name = self.port.open()
        tmp = self.path + ".new"
        if os.path.lexists(tmp):
            os.unlink(tmp)
        os.symlink(tty_name, tmp)
        os.replace(tmp, self.path)
        self.plugged = True

    def _unplug(self) -> None:
        if not self.plugged:
            return
        self.plugged = False
        if os.path.lexists(self.path):
            os.unlink(self.path)
        self.port.close()

    def _boot(self, reason: int) -> None:
        cfg = self.cfg
        keys = SimKeys(
            cfg.key_count,
            interval=cfg.scan_interval_s,
            max_events=cfg.max_events,
            debounce_threshold=cfg.debounce_scans,
        )
        for sq in range(self.size):
            if self.switches[sq]:
                keys.raw[self.square_to_key[sq]] = 1
        self.keys = keys
        self.pixels = SimPixels(self.size, brightness=cfg.brightness_cap / 255)
        self.watchdog = SimWatchdog(cfg.watchdog_s)
        self.hung = False
        self.boots += 1
        self.firmware = self.fw_module.Firmware(
            keys,
            self.pixels,
            self.port,
            _ms,
            cfg,
            watchdog=self.watchdog,
            boot_id=random.getrandbits(16),
            reset_reason=reason,
            scanner=protocol.SCANNER_SHIFT_REGISTER,
            simulated=True,
        )

    def _poke(self) -> None:
        try:
            os.write(self._wake_w, b"!")
        except OSError:
            pass

    def _run(self) -> None:
        while not self._stop.is_set():
            with self._lock:
                if self.firmware is not None and self.plugged:
                    if not self.hung:
                        self.firmware.step()
                    elif self.watchdog is not None and self.watchdog.expired():
                        self.restart(protocol.RESET_WATCHDOG, reenumerate=True)
                master = self.port.master if self.port.host_open else None
            waits = [self._wake_r] + ([master] if master is not None else [])
            try:
                select.select(waits, [], [], self.tick_s)
            except (OSError, ValueError):
                time.sleep(self.tick_s)  # the pty was closed under us by unplug()
            try:
                while os.read(self._wake_r, 4096):
                    pass
            except (BlockingIOError, OSError):
                pass


# --- command line: companion firmware-sim --------------------------------------------------------


def _parse_size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(part) for part in text.lower().split("x") if len(part) <= 3)
    except ValueError:
        raise argparse.ArgumentTypeError(_("size {text!r} is not WIDTHxHEIGHT, e.g. 8x8 or 20x20").format(text=text)) from None
    if not 5 <= w <= 26 or not 5 <= h <= 26:
        raise argparse.ArgumentTypeError(_("size {text!r}: each side must be 5..26 squares").format(text=text))
    return w, h


def add_parser(subparsers) -> argparse.ArgumentParser:
    """Add ``firmware-sim`` to the app's subcommands; the command calls :func:`run`."""
    parser = subparsers.add_parser(
        "firmware-sim",
        help=_("run the board firmware on a simulated board behind a pseudo-terminal"),
        description=(
            _("Runs the real RP2040 firmware against simulated switches and LEDs and prints the "
            "device path; start the app on it with: companion --serial PATH. Type commands on "
            "stdin: 'e2' toggles a square, 'move e2 e4', 'unplug', 'replug', 'restart', 'leds', "
            "'quit'.")
        ),
    )
    parser.add_argument("--size", type=_parse_size, default=(8, 8), help=_("board size WIDTHxHEIGHT (default 8x8)"))
    parser.add_argument(
        "--seconds", type=number_arg(0, MAX_SECONDS), default=0,
        help=_("stop after this many seconds (default 0: run until quit/Ctrl-C)")
    )
    parser.add_argument(
        "--setup",
        choices=("chess", "empty"),
        default="chess",
        help=_("occupied squares at start: the two back ranks per side (chess) or none"),
    )
    parser.set_defaults(func=run)
    return parser


def _initial_squares(setup: str, width: int, height: int) -> list[int]:
    if setup == "empty":
        return []
    ranks = (0, 1, height - 2, height - 1)
    return [rank * width + file for rank in ranks for file in range(width)]


def _command(sim: FirmwareSim, line: str, out) -> bool:
    """Run one stdin command; False to quit."""
    from ..core.geometry import Geometry

    words = line.split()
    if not words:
        return True
    geo = Geometry(sim.width, sim.height)
    try:
        if words[0] in ("quit", "exit", "q"):
            return False
        if words[0] == "unplug":
            sim.unplug()
        elif words[0] == "replug":
            sim.replug()
        elif words[0] == "restart":
            sim.restart()
        elif words[0] == "leds":
            lit = [(square_name(sq, sim.width), rgb) for sq, rgb in enumerate(sim.leds()) if rgb != (0, 0, 0)]
            print(_("lit: {squares}").format(squares=lit) if lit else _("no square is lit"), file=out)
        elif words[0] == "move" and len(words) == 3:
            sim.release(geo.parse_square(words[1]))
            sim.press(geo.parse_square(words[2]))
        elif len(words) == 1:
            sq = geo.parse_square(words[0])
            sim.set_square(sq, sq not in sim.occupied())
        else:
            print(_("commands: SQUARE (toggle), move FROM TO, unplug, replug, restart, leds, quit"), file=out)
            return True
        print(_("occupied: {squares}").format(squares=" ".join(square_name(s, sim.width) for s in sorted(sim.occupied()))),
              file=out)
    except ValueError as err:
        print(err, file=out)
    return True


def run(args, stdin=None, out=None) -> int:
    """``companion firmware-sim``: print the device path, serve until --seconds or quit."""
    stdin = stdin if stdin is not None else sys.stdin
    out = out if out is not None else sys.stdout
    width, height = args.size
    previous = _stop_on_signals()  # from before the folder exists: a stop from then on removes it
    sim = None
    try:
        sim = FirmwareSim(width, height, occupied=_initial_squares(args.setup, width, height), scan_interval_s=0.01)
        path = sim.start()
        print(_("simulated {width}x{height} board on {path} (pty {tty})").format(width=width, height=height, path=path,
                                                                               tty=sim.port.tty_name), file=out)
        print(_("start the app with: companion --serial {path}").format(path=path), file=out, flush=True)
        deadline = time.monotonic() + args.seconds if args.seconds else None
        interactive = stdin is not None and not stdin.closed
        while deadline is None or time.monotonic() < deadline:
            left = 0.2 if deadline is None else max(0.0, min(0.2, deadline - time.monotonic()))
            if interactive:
                try:
                    ready, _w, _x = select.select([stdin], [], [], left)
                except (ValueError, OSError, TypeError):
                    interactive = False
                    continue
                if ready:
                    line = stdin.readline()
                    if not line:
                        interactive = False
                        if deadline is None:
                            deadline = float("inf")
                        continue
                    if not _command(sim, line, out):
                        break
            else:
                time.sleep(left)
    except (KeyboardInterrupt, _Stopped):
        pass
    finally:
        if sim is not None:
            sim.stop()
        for number, handler in previous.items():
            signal.signal(number, handler)
    return 0


class _Stopped(Exception):
    """SIGTERM or SIGHUP arrived: stop as after 'quit' (the temporary folder is removed)."""


def _stop_on_signals() -> dict:
    """Turn SIGTERM and SIGHUP into :class:`_Stopped` while the simulator runs (their default
    ends the process at once and left the pty's folder in /tmp); the previous handlers, to put
    back. Only the main thread can set handlers: elsewhere nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        return {}

    def stop(_number, _frame):
        raise _Stopped

    previous = {}
    for number in (signal.SIGTERM, signal.SIGHUP):
        previous[number] = signal.signal(number, stop)
    return previous
