"""Where other threads hand values to the UI thread: board events (a scan thread, the serial
reader), the computer's search, a worker replaying a journal or reading the saved games.

Threads never touch the game. They only :meth:`Mailbox.post` a kind and a value; the UI thread
drains the box on every pump (:meth:`Mailbox.drain`) and hands each value to the one room that
takes that kind (:meth:`Mailbox.route`, wired in flow.py). A worker started with
:meth:`Mailbox.in_worker` never leaves a screen waiting: any exception it raises comes back as
a failure of its task, which goes to the room that asked for that task
(:meth:`Mailbox.on_failure`), else to the problem screen.
"""

from __future__ import annotations

import queue
import threading
from typing import Any, Callable


class Mailbox:
    def __init__(self, run_in_worker: Callable[[Callable[[], None]], None] | None = None) -> None:
        self.run_in_worker = run_in_worker or _thread
        self.inbox: queue.SimpleQueue = queue.SimpleQueue()
        #: called from any thread after each post (the Kivy app wakes its main loop with it)
        self.wake: Callable[[], None] | None = None
        self._routes: dict[str, Callable[[Any], None]] = {"worker-failed": self._failed}
        self._failures: dict[str, Callable[[str], None]] = {}
        self._default_failure: Callable[[str, str], None] = lambda task, reason: None

    def post(self, kind: str, value: Any = None) -> None:
        """Thread-safe: hand a value to the UI thread, and wake it (a resting main loop would
        otherwise see it at its next frame only)."""
        self.inbox.put((kind, value))
        wake = self.wake
        if wake is not None:
            wake()

    def route(self, kind: str, handler: Callable[[Any], None]) -> None:
        self._routes[kind] = handler

    def on_failure(self, task: str, handler: Callable[[str], None]) -> None:
        """``handler(reason)`` when a worker of ``task`` fails (else the default, see
        :meth:`on_any_failure`)."""
        self._failures[task] = handler

    def on_any_failure(self, handler: Callable[[str, str], None]) -> None:
        self._default_failure = handler

    def drain(self) -> None:
        """UI thread: every value posted so far, to its room."""
        while True:
            try:
                kind, value = self.inbox.get_nowait()
            except queue.Empty:
                return
            handler = self._routes.get(kind)
            if handler is not None:
                handler(value)

    def drop(self, kind: str) -> None:
        """Forget the values of ``kind`` not yet drained (the old board's events, once the
        board is opened again for another map)."""
        kept = []
        while True:
            try:
                item = self.inbox.get_nowait()
            except queue.Empty:
                break
            if item[0] != kind:
                kept.append(item)
        for item in kept:
            self.inbox.put(item)

    def in_worker(self, task: str, work: Callable[[], None]) -> None:
        """Run ``work`` in a worker; any exception it raises comes back as a failure of
        ``task``, never as a screen that waits for ever."""

        def guarded() -> None:
            try:
                work()
            except Exception as e:  # noqa: BLE001 - reported to the players, whatever it is
                self.post("worker-failed", (task, f"{type(e).__name__}: {str(e)[:200]}"))

        try:
            self.run_in_worker(guarded)
        except Exception as e:  # noqa: BLE001 - no thread could be started
            self.post("worker-failed", (task, f"{type(e).__name__}: {str(e)[:200]}"))

    def _failed(self, value) -> None:
        task, reason = value
        handler = self._failures.get(task)
        if handler is not None:
            handler(reason)
        else:
            self._default_failure(task, reason)


def _thread(work: Callable[[], None]) -> None:
    threading.Thread(target=work, name="companion-worker", daemon=True).start()


__all__ = ["Mailbox"]
