"""The machine's serial ports, found with pyserial's ``list_ports``: which one is the board, and
what to say when none is.

The board is found by the USB interface name of the CircuitPython data channel that its
boot.py enables ("CircuitPython CDC2 data" on CircuitPython 8 and later, "... CDC data"
before); the console port's name ends in "control". ``comports`` is pyserial's function unless
a test gives its own list.
"""

from __future__ import annotations

import os
import stat
from typing import Callable, Optional

from ..errors import HardwareError
from ..i18n import _

#: How a CircuitPython data channel's USB interface name ends (compared in lower case).
DATA_INTERFACE_ENDINGS = ("cdc2 data", "cdc data")


def _comports() -> list:
    from serial.tools import list_ports

    return list_ports.comports()


def data_ports(comports: Optional[Callable[[], list]] = None) -> list[str]:
    """Device paths of every CircuitPython data channel, in pyserial's order."""
    found = []
    for port in (comports or _comports)():
        interface = (getattr(port, "interface", None) or "").strip().lower()
        if interface.endswith(DATA_INTERFACE_ENDINGS):
            found.append(port.device)
    return found


def find_data_port(comports: Optional[Callable[[], list]] = None) -> Optional[str]:
    """The device path of the first CircuitPython data channel, or None."""
    found = data_ports(comports)
    return found[0] if found else None


def describe_ports(comports: Optional[Callable[[], list]] = None) -> str:
    """The serial ports this machine has, in words."""
    found = []
    for port in sorted((comports or _comports)(), key=lambda p: p.device):
        words = getattr(port, "interface", None) or getattr(port, "description", None) or ""
        found.append(f"{port.device} ({words})" if words and words != "n/a" else port.device)
    if not found:
        return _("this machine has no serial port (is the board plugged in by USB?)")
    return _("serial ports here: {ports}").format(ports=", ".join(found))


def what_it_is(path: str) -> str | None:
    """None if ``path`` is a terminal device (a serial port is one), else what it is instead:
    "a folder", "a file", "a device of another kind" (``/dev/null``) ... It opens a
    character device for a moment to ask (without making it the controlling terminal or
    waiting for a modem line)."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return None  # said by the other checks
    if stat.S_ISDIR(mode):
        return _("a folder")
    if stat.S_ISREG(mode):
        return _("a file")
    if not stat.S_ISCHR(mode):
        return _("a pipe or a socket")
    try:
        fd = os.open(path, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
    except OSError:
        return None  # busy or not allowed: said when the app opens it
    try:
        return None if os.isatty(fd) else _("a device of another kind")
    finally:
        os.close(fd)


def check_port(path: str, comports: Optional[Callable[[], list]] = None,
               exists: Callable[[str], bool] = os.path.exists,
               usable: Callable[[str], bool] = lambda p: os.access(p, os.R_OK | os.W_OK),
               kind: Callable[[str], str | None] = what_it_is, wait: bool = False) -> None:
    """Refuse, before the app opens, a port where no board can be: ``auto`` with no
    CircuitPython data port, a device that does not exist or may not be opened, a path that is
    not a serial port at all (a folder, a file, ``/dev/null``). The one-line error names the
    serial ports that do exist. A pyserial URL (``loop://``) is not checked. With ``wait`` (the
    app waits for a board that is not there yet) only what can never become a board is refused.
    Once the app runs, a board that goes away is shown on screen and found again by itself."""
    if "://" in path:
        return
    if path == "auto":
        if find_data_port(comports) is None and not wait:
            raise HardwareError(_("--serial auto: no board found (no port is a CircuitPython data port, USB "
                                  "interface 'CircuitPython CDC2 data', hardware/FIRMWARE.md); {ports}").format(
                ports=describe_ports(comports)))
        return
    if not exists(path):
        if wait:
            return
        raise HardwareError(_("--serial {path}: no such serial device; {ports}; give one of them, or "
                              "--serial auto to find the board by its USB name").format(
            path=path, ports=describe_ports(comports)))
    instead = kind(path)
    if instead is not None:
        raise HardwareError(_("--serial {path}: this is {instead}, not a serial port; {ports}; give one of "
                              "them, or --serial auto to find the board by its USB name").format(
            path=path, instead=instead, ports=describe_ports(comports)))
    if not usable(path):
        raise HardwareError(_("--serial {path}: not allowed to open it (add yourself to the 'dialout' group and log "
                              "in again: sudo adduser $USER dialout)").format(path=path))
