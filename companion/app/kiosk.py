"""What a board standing in a room needs around the app: systemd's readiness and watchdog, and
the screen dimmed at rest (docs/deploy.md, "A kiosk that keeps itself running").

:class:`Kiosk` is built by the bootstrap (:func:`build_kiosk`) and driven by the Kivy app
(shell.py): ``started`` once the app runs, ``loop_turned`` from the Kivy clock (the watchdog's
ping: none while the UI loop is stuck), ``woken`` from any thread when something arrives (a
board event, the computer's move), ``touched`` on a touch, ``tick`` after every pump.
No Kivy here; tests drive it with timestamps.
"""

from __future__ import annotations

import threading
from typing import Mapping

from .backlight import Backlight, dim_after_ms, find_backlight
from .pacing import Dimmer
from .systemd import LoopWatchdog, Notifier


class _NoBacklight:
    def set_level(self, fraction: float) -> None:
        pass


class Kiosk:
    def __init__(self, notifier: Notifier, watchdog: LoopWatchdog, dimmer: Dimmer) -> None:
        self.notifier = notifier
        self.watchdog = watchdog
        self.dimmer = dimmer
        self._woken = threading.Event()

    @property
    def watchdog_period_s(self) -> float | None:
        """How often the Kivy clock should call :meth:`loop_turned` (None: no watchdog)."""
        return self.watchdog.period_s if self.watchdog.enabled else None

    def started(self, status: str = "") -> None:
        self.notifier.send("READY=1", *((f"STATUS={status}",) if status else ()))

    def loop_turned(self, now_s: float) -> None:
        self.watchdog.tick(now_s)

    def woken(self) -> None:
        """Any thread: something arrived for the UI (a sensor change wakes a dimmed screen)."""
        self._woken.set()

    def touched(self, t_ms: int) -> None:
        self.dimmer.activity(t_ms)

    def tick(self, t_ms: int, *, changed: bool, busy: bool) -> None:
        """After a pump: ``changed`` when the screen changed as activity, ``busy`` while
        something moves by itself or a clock runs."""
        if self._woken.is_set():
            self._woken.clear()
            changed = True
        if changed:
            self.dimmer.activity(t_ms)
        self.dimmer.tick(t_ms, busy)

    def stopping(self) -> None:
        self.dimmer.activity(0)  # leave the screen bright for whatever comes next
        self.notifier.send("STOPPING=1")
        self.notifier.close()


def build_kiosk(env: Mapping[str, str] | None = None, backlight: Backlight | None = None) -> Kiosk:
    """From the environment: ``$NOTIFY_SOCKET``/``$WATCHDOG_USEC`` (systemd), the backlight
    under ``$COMPANION_BACKLIGHT`` and ``$COMPANION_DIM_AFTER`` (a bad value is one
    CompanionError, before any window)."""
    notifier = Notifier.from_environ(env)
    dim_after = dim_after_ms(env)
    light = backlight if backlight is not None else (find_backlight(env) or _NoBacklight())
    return Kiosk(notifier, LoopWatchdog.from_environ(notifier, env), Dimmer(light, dim_after))
