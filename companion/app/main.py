"""``companion`` with no command: open the touchscreen app.

    companion                    the simulated board (tap the screen's squares to move pieces)
    companion --profile FILE     real hardware described by a board profile
    companion --serial PATH      an RP2040 board running the companion firmware
    companion --broadcast PORT   also serve the game live over HTTP (docs/broadcast.md)

Window settings come from the environment, so the same command serves a desktop and the Pi:
COMPANION_FULLSCREEN=1 (the Pi's touchscreen; docs/deploy.md) and COMPANION_WINDOW=WxH
(default 800x480, the official Raspberry Pi touchscreen).
"""

from __future__ import annotations

import os

from ..errors import CompanionError

DEFAULT_WINDOW = "800x480"


def configure_window() -> None:
    """Set Kivy's window before Kivy opens it (must run before kivy.core.window is imported)."""
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    from kivy.config import Config

    size = os.environ.get("COMPANION_WINDOW", DEFAULT_WINDOW)
    try:
        width, height = (int(v) for v in size.lower().split("x"))
    except ValueError:
        raise CompanionError(f"COMPANION_WINDOW must look like 800x480, got {size!r}") from None
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


def run(profile: str | None = None, serial: str | None = None, broadcast: str | None = None) -> int:
    """Open the app on the chosen board (serving its game on ``broadcast``, [HOST:]PORT, when
    given); returns the process exit status."""
    configure_window()
    from . import bootstrap

    app = bootstrap.build(profile=profile, serial=serial, broadcast=broadcast)
    app.run()
    return 0
