"""The screen's backlight, behind a small port: dimmed at rest, woken by any touch or board event.

On the Pi the official touchscreen (and most DSI and many HDMI panels) shows its backlight in
sysfs: ``/sys/class/backlight/<device>/brightness`` (0 .. ``max_brightness``). The kernel makes
that file writable by root only; hardware/README.md's udev rule (installed by
``bash companion/install.sh pi --service``) gives the ``video`` group write access. Where there
is no backlight, or it cannot be written, the app runs as before and says so once in its log.

``COMPANION_BACKLIGHT`` names the folder holding the devices (default ``/sys/class/backlight``;
tests use a fake folder) and ``COMPANION_DIM_AFTER`` the seconds of rest before dimming (default
300; 0 never dims). The policy (when to dim, when to wake) is :class:`companion.app.pacing.Dimmer`.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Mapping, Protocol

from ..i18n import _

DEFAULT_ROOT = "/sys/class/backlight"

log = logging.getLogger("companion.backlight")


class Backlight(Protocol):
    def set_level(self, fraction: float) -> None:
        """0.0 (dark) .. 1.0 (the brightness the screen had when the app started)."""


class SysfsBacklight:
    """One sysfs backlight device. Full brightness is what the screen had at start (the owner's
    own setting), or ``max_brightness`` when it was off."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.max = int((folder / "max_brightness").read_text().strip())
        start = int((folder / "brightness").read_text().strip())
        self.full = start if start > 0 else self.max
        self.level: int | None = None
        self.failed = False

    @classmethod
    def find(cls, root: str | os.PathLike = DEFAULT_ROOT) -> "SysfsBacklight | None":
        """The first device under ``root`` with a readable brightness, or None."""
        try:
            devices = sorted(Path(root).iterdir())
        except OSError:
            return None
        for folder in devices:
            try:
                return cls(folder)
            except (OSError, ValueError):
                continue
        return None

    def set_level(self, fraction: float) -> None:
        if self.failed:
            return
        value = round(self.full * max(0.0, min(1.0, fraction)))
        if fraction > 0:
            value = max(1, value)
        if value == self.level:
            return
        try:
            (self.folder / "brightness").write_text(f"{value}\n")
        except OSError as exc:
            self.failed = True  # said once; the screen stays as it is
            log.warning("cannot dim the screen (%s): see hardware/README.md, 'The screen at rest'", exc)
            return
        self.level = value


def dim_after_ms(env: Mapping[str, str] | None = None) -> int | None:
    """``COMPANION_DIM_AFTER`` in ms (default 5 minutes); None when 0 (never dim)."""
    text = (os.environ if env is None else env).get("COMPANION_DIM_AFTER", "300").strip()
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not 0 <= seconds <= 86_400:
        from ..errors import CompanionError

        raise CompanionError(_("COMPANION_DIM_AFTER must be seconds from 0 (never dim) to 86400, got {text!r}").format(
            text=text))
    return None if seconds == 0 else int(seconds * 1000)


def find_backlight(env: Mapping[str, str] | None = None) -> SysfsBacklight | None:
    return SysfsBacklight.find((os.environ if env is None else env).get("COMPANION_BACKLIGHT", DEFAULT_ROOT))
