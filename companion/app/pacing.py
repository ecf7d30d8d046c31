"""How fast the app's main loop turns: at full rate while something happens, slowly at rest.

Kivy's main loop wakes every frame (60 a second) to poll the touchscreen and run the clock,
whether or not anything happens; on a Raspberry Pi that alone costs a few percent of a core
around the clock, for a board that sits waiting most of the time. So the loop rests: once
nothing has happened for :data:`REST_AFTER_MS` (no touch, no board event, no change on screen,
no answer from the computer) and nothing moves on its own (``AppFlow.animating``), the frame
rate drops to :data:`REST_FPS`; the next touch, board event or change brings it back at once.
Board events and the computer's answers arrive from other threads and wake the loop at once
(``Mailbox.wake`` -> :class:`LoopWaker`), so the rest costs them nothing; only the first touch
after a rest waits for the next frame (at most 1 / REST_FPS seconds).

A running chess clock does not keep the loop awake: its face changes by itself once a second
(ten times a second under ten seconds), which is no activity (``Display.changed(activity=False)``).
The clock room says when the face next changes (``AppFlow.next_face_ms``); the loop is woken for that
moment (:meth:`LoopWaker.wake_at`) and the clock redrawn at the second it turns, resting in
between. A press (a touch, a board event) is activity as ever: full rate at once. The clock's
times come from the timestamps of the presses, never from the frames, so the frame rate cannot
change a recorded time.

Measured under Xvfb on the development machine (``companion bench --only app``): Kivy's loop
alone, an empty window, costs 1.6% of a core at 60 frames a second and 0.3% at 10. (Kivy's
"interrupt" clock, made for waking from threads, spins at thousands of frames a second in
Kivy 2.3.1 and is not used.)

:class:`Pacer` is plain Python (tested with timestamps); the Kivy app (shell.py) asks it for
the rate on every tick and applies it.
"""

from __future__ import annotations

import threading
import time

#: Frames per second while something happens (Kivy's own default cap).
ACTIVE_FPS = 60
#: Frames per second at rest: the first touch after a rest is seen within 100 ms.
REST_FPS = 10
#: Quiet time before resting: longer than any timer the board tracker runs after an event
#: (settling a castling move 1.5 s, the last move lit 3 s), so those run at the full rate.
REST_AFTER_MS = 4000


class Pacer:
    """Remembers when something last happened and says which frame rate the loop needs."""

    def __init__(self, rest_after_ms: int = REST_AFTER_MS) -> None:
        self.rest_after_ms = rest_after_ms
        self.last_activity: int | None = None

    def activity(self, t_ms: int) -> None:
        """Something happened at ``t_ms`` (a touch, a board event, a change on screen)."""
        self.last_activity = t_ms

    def frame_rate(self, t_ms: int, animating: bool) -> int:
        if animating or self.last_activity is None or t_ms - self.last_activity < self.rest_after_ms:
            return ACTIVE_FPS
        return REST_FPS


class FlowPacing:
    """The pacing of the app's main loop for an AppFlow, without Kivy (shell.py applies it):
    every change the flow announces makes the screen ``dirty``; a change that is activity (not
    the clock's time running down) and a touch keep the loop at the full rate; :meth:`plan`
    says the frame rate after a pump and when the next frame must come at the latest (the
    clock's face changing), in ms from now."""

    def __init__(self, flow, pacer: Pacer | None = None) -> None:
        self.flow = flow
        self.pacer = pacer or Pacer()
        self.dirty = True
        self.pacer.activity(flow.clock_ms())
        flow.listeners.append(self.changed)

    def changed(self) -> None:
        self.dirty = True
        if getattr(self.flow, "change_is_activity", True):
            self.pacer.activity(self.flow.clock_ms())

    def touched(self, t_ms: int) -> int:
        """A touch (or the mouse): the frame rate to set at once."""
        self.pacer.activity(t_ms)
        return ACTIVE_FPS

    def plan(self, t_ms: int) -> tuple[int, int | None]:
        due = getattr(self.flow, "next_face_ms", None)
        return self.pacer.frame_rate(t_ms, self.flow.animating), (None if due is None else max(0, due - t_ms))


#: Rest before the screen dims (COMPANION_DIM_AFTER overrides it; backlight.py).
DIM_AFTER_MS = 300_000
#: The dimmed backlight, as a share of the owner's brightness: readable, not lighting the room.
DIM_LEVEL = 0.15


class Dimmer:
    """Dims the backlight after ``dim_after_ms`` without activity and wakes it at the next one.

    Activity is what keeps the loop awake (a touch, a board event, a change on screen: the
    same marks as :class:`Pacer`), plus anything arriving from another thread (a sensor change
    that changes nothing on screen wakes the screen too). Nothing dims while something moves
    by itself or a clock runs (``busy``): a player thinking on the clock watches it."""

    def __init__(self, backlight, dim_after_ms: int | None = DIM_AFTER_MS, dim_level: float = DIM_LEVEL) -> None:
        self.backlight = backlight
        self.dim_after_ms = dim_after_ms
        self.dim_level = dim_level
        self.dimmed = False
        self.last_activity: int | None = None

    def activity(self, t_ms: int) -> None:
        self.last_activity = t_ms
        if self.dimmed:
            self.dimmed = False
            self.backlight.set_level(1.0)

    def tick(self, t_ms: int, busy: bool = False) -> None:
        if self.dim_after_ms is None or self.dimmed:
            return
        if busy or self.last_activity is None:
            self.last_activity = t_ms  # rest is counted from when the busy time ends
            return
        if t_ms - self.last_activity >= self.dim_after_ms:
            self.dimmed = True
            self.backlight.set_level(self.dim_level)


class LoopWaker:
    """Lets another thread end the Kivy main loop's wait for its next frame.

    Kivy's default clock waits for the next frame in ``Clock.idle``: it sleeps (``usleep``) and
    asks ``_check_ready`` whether the frame is due, until it is. This replaces both on the
    clock object: the sleep becomes a wait on an event that :meth:`wake` sets, and a set event
    makes the frame due at once. Callbacks scheduled before :meth:`wake` (thread-safe in Kivy)
    then run in that frame. ``clock`` is Kivy's Clock (or a stand-in with the same two
    methods); without them (another Kivy) the loop simply keeps its frame rate."""

    def __init__(self, clock) -> None:
        self._event = threading.Event()
        self._deadline: float | None = None  # a frame due then at the latest (clock.time())
        self.installed = hasattr(clock, "_check_ready") and hasattr(clock, "usleep")
        self._time = getattr(clock, "time", time.perf_counter)
        if not self.installed:
            return
        ready_as_kivy = clock._check_ready
        event = self._event
        now = self._time

        def check_ready(*args):
            if event.is_set():
                event.clear()
                return True, 0
            deadline = self._deadline
            if deadline is not None:
                left = deadline - now()
                if left <= 0:
                    self._deadline = None
                    return True, 0
                done, sleeptime = ready_as_kivy(*args)
                return done, sleeptime if done else min(sleeptime, left)
            return ready_as_kivy(*args)

        def usleep(microseconds):
            event.wait(max(0.0, microseconds) / 1e6)

        clock._check_ready = check_ready
        clock.usleep = usleep

    def wake(self) -> None:
        self._event.set()

    def wake_at(self, seconds: float) -> None:
        """UI thread: the next frame comes ``seconds`` from now at the latest (even at rest)."""
        self._deadline = self._time() + max(0.0, seconds)
