"""The app under systemd: sd_notify and the watchdog, in a few lines of the standard library.

systemd's notification protocol is one datagram per message on the unix socket named by
``$NOTIFY_SOCKET`` (a path, or ``@name`` in the abstract namespace): ``READY=1`` once the app
runs, ``WATCHDOG=1`` at least once per ``$WATCHDOG_USEC`` microseconds, ``STOPPING=1`` on the
way out. With ``WatchdogSec=`` in the unit (hardware/companion.service), systemd kills and
restarts the app when the pings stop; the journal makes the restart resume the game.

The pings come from the Kivy clock (shell.py schedules :meth:`LoopWatchdog.tick`), so they stop
when the UI loop stops turning, whatever the board and search threads still do: a hung UI is
restarted, a busy one (a frame every 100 ms at rest) is not. Outside systemd (no
``$NOTIFY_SOCKET``) every call does nothing.
"""

from __future__ import annotations

import os
import socket
from typing import Mapping

#: Pings per watchdog interval: systemd's advice is at least two; four leaves room for a slow frame.
PINGS_PER_INTERVAL = 4


def socket_address(env: Mapping[str, str]) -> str | None:
    """``$NOTIFY_SOCKET`` as an address for ``socket.connect`` (None: not under systemd)."""
    path = env.get("NOTIFY_SOCKET", "")
    if not path or not (path.startswith("/") or path.startswith("@")):
        return None
    return "\0" + path[1:] if path.startswith("@") else path


def watchdog_interval_s(env: Mapping[str, str], pid: int | None = None) -> float | None:
    """The watchdog interval systemd asks for, in seconds (None: no watchdog for this process)."""
    usec = env.get("WATCHDOG_USEC", "")
    owner = env.get("WATCHDOG_PID", "")
    if not usec.isdigit() or int(usec) == 0:
        return None
    if owner and owner != str(os.getpid() if pid is None else pid):
        return None  # meant for another process (a parent that started us)
    return int(usec) / 1e6


class Notifier:
    """Sends sd_notify messages; does nothing without an address. A lost message (systemd
    restarting, a full socket buffer) is dropped, never raised: the next one will do."""

    def __init__(self, address: str | None) -> None:
        self.address = address
        self._sock: socket.socket | None = None
        self.sent = 0

    @classmethod
    def from_environ(cls, env: Mapping[str, str] | None = None) -> "Notifier":
        return cls(socket_address(os.environ if env is None else env))

    @property
    def enabled(self) -> bool:
        return self.address is not None

    def send(self, *states: str) -> bool:
        if self.address is None:
            return False
        try:
            if self._sock is None:
                self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
            self._sock.sendto("\n".join(states).encode(), self.address)
        except OSError:
            return False
        self.sent += 1
        return True

    def close(self) -> None:
        if self._sock is not None:
            self._sock.close()
            self._sock = None


class LoopWatchdog:
    """``WATCHDOG=1`` from the UI loop: :meth:`tick` runs on every turn of the Kivy clock (or
    every :attr:`period_s`) and pings when a period has passed since the last ping."""

    def __init__(self, notifier: Notifier, interval_s: float | None) -> None:
        self.notifier = notifier
        self.interval_s = interval_s
        self.period_s = None if interval_s is None else interval_s / PINGS_PER_INTERVAL
        self._last: float | None = None

    @classmethod
    def from_environ(cls, notifier: Notifier, env: Mapping[str, str] | None = None) -> "LoopWatchdog":
        return cls(notifier, watchdog_interval_s(os.environ if env is None else env))

    @property
    def enabled(self) -> bool:
        return self.notifier.enabled and self.period_s is not None

    def tick(self, now_s: float) -> bool:
        """The loop is alive at ``now_s`` (monotonic seconds): ping if due; returns whether it did."""
        if not self.enabled:
            return False
        assert self.period_s is not None
        if self._last is not None and now_s - self._last < self.period_s:
            return False
        self._last = now_s
        return self.notifier.send("WATCHDOG=1")
