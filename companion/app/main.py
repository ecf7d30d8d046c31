"""``companion`` with no command: open the touchscreen app.

    companion                    the simulated board (tap the screen's squares to move pieces)
    companion --profile FILE     real hardware described by a board profile
    companion --serial PATH      an RP2040 board running the companion firmware
    companion --broadcast PORT   also serve the game live over HTTP (docs/broadcast.md)

Window settings come from the environment, so the same command serves a desktop and the Pi:
COMPANION_FULLSCREEN=1 (the Pi's touchscreen; docs/deploy.md) and COMPANION_WINDOW=WxH
(default 800x480, the official Raspberry Pi touchscreen).

Everything that can be wrong is found before Kivy starts (the window size, the board profile,
the serial port, the maps): the error is then the first and only line on the terminal. Kivy's
own log shows warnings and errors only, unless ``companion --verbose`` or ``KIVY_LOG_LEVEL``
(debug, info, warning, error, critical) asks for more.
"""

from __future__ import annotations

import os

from ..errors import CompanionError
from ..i18n import _

DEFAULT_WINDOW = "800x480"


#: Kivy's log files kept (one per start; under systemd the journal has the log: hardware/companion.service).
KIVY_LOG_FILES = 10

#: Kivy's log levels, for KIVY_LOG_LEVEL.
LOG_LEVELS = ("trace", "debug", "info", "warning", "error", "critical")


def window_size() -> tuple[int, int]:
    """COMPANION_WINDOW as (width, height), default 800x480; a bad value is one CompanionError."""
    size = os.environ.get("COMPANION_WINDOW", DEFAULT_WINDOW)
    try:
        width, height = (int(v) for v in size.lower().split("x"))
    except ValueError:
        raise CompanionError(_("COMPANION_WINDOW must look like 800x480, got {size!r}").format(size=size)) from None
    if not (100 <= width <= 10_000 and 100 <= height <= 10_000):
        raise CompanionError(_("COMPANION_WINDOW {size!r}: each side must be 100 to 10000 pixels, e.g. 800x480").format(
            size=size))
    return width, height


def configure_logging(verbose: bool = False) -> None:
    """Kivy's log level, set before Kivy is imported: info with --verbose, KIVY_LOG_LEVEL when
    given, else warning (errors and warnings still show; the start-up chatter does not)."""
    wanted = os.environ.get("KIVY_LOG_LEVEL", "").strip().lower()
    if wanted and wanted not in LOG_LEVELS:
        raise CompanionError(_("KIVY_LOG_LEVEL must be one of {levels}, got {wanted!r}").format(
            levels=', '.join(LOG_LEVELS), wanted=wanted))
    level = "info" if verbose and not wanted else (wanted or "warning")
    os.environ["KCFG_KIVY_LOG_LEVEL"] = level
    # Kivy writes one log file per start (that logs anything) under KIVY_HOME/logs and keeps
    # 100 of them, but purges only when a message came before its own purge: a board restarted
    # every day fills its SD card slowly. Keep the last few, here.
    os.environ.setdefault("KCFG_KIVY_LOG_MAXFILES", str(KIVY_LOG_FILES))
    prune_kivy_logs()


def prune_kivy_logs(keep: int = KIVY_LOG_FILES) -> int:
    """Delete all but the ``keep`` newest files in Kivy's log folder ($KIVY_HOME/logs, else
    ~/.kivy/logs); returns how many went. A file that cannot be deleted is left."""
    from pathlib import Path

    home = os.environ.get("KIVY_HOME") or os.path.join(os.path.expanduser("~"), ".kivy")
    try:
        files = sorted((p for p in Path(home, "logs").iterdir() if p.is_file()), key=lambda p: p.stat().st_mtime)
    except OSError:
        return 0
    gone = 0
    for old in files[:max(0, len(files) - keep)]:
        try:
            old.unlink()
            gone += 1
        except OSError:
            pass
    return gone


def configure_window() -> None:
    """Set Kivy's window before Kivy opens it (must run before kivy.core.window is imported)."""
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    width, height = window_size()
    from kivy.config import Config

    Config.set("graphics", "width", str(width))
    Config.set("graphics", "height", str(height))
    Config.set("graphics", "minimum_width", "640")
    Config.set("graphics", "minimum_height", "400")
    if os.environ.get("COMPANION_FULLSCREEN", "") not in ("", "0"):
        Config.set("graphics", "fullscreen", "auto")
        Config.set("graphics", "show_cursor", "0")
    Config.set("kivy", "exit_on_escape", "0")
    # no multisampling: its buffers cost 12 MB here (and come out of the Pi's shared 512 MB);
    # the only curves, the discs, are drawn antialiased (SmoothEllipse) instead
    Config.set("graphics", "multisamples", "0")
    Config.set("input", "mouse", "mouse,disable_multitouch")


def run(profile: str | None = None, serial: str | None = None, verbose: bool = False, wait: bool = False,
        broadcast: str | None = None) -> int:
    """Open the app on the chosen board (serving its game on ``broadcast``, [HOST:]PORT, when
    given); returns the process exit status. Every check that can fail runs first (a
    CompanionError before any window or log line)."""
    configure_logging(verbose)
    window_size()
    from .backlight import dim_after_ms

    dim_after_ms()  # a bad COMPANION_DIM_AFTER is one line, before any window
    from . import bootstrap

    flow = bootstrap.build_flow_for(profile=profile, serial=serial, wait=wait)
    presenters = bootstrap.build_presenters(flow)  # loads the maps: a bad one is said here
    configure_window()
    app = bootstrap.with_broadcast(flow, bootstrap.build_app(flow, presenters), broadcast)
    app.run()
    return 0
