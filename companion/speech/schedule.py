"""What is said next: a small state machine between the announcer and the voice.

The voice's worker feeds it (h11's shape): :meth:`SpeechQueue.offer` with each batch of
announcements, :meth:`SpeechQueue.finished` when an utterance has ended; each returns the
commands to carry out (:class:`Stop` the voice, :class:`Say` an announcement). The rules:

* what the board's settings do not say (speech off, "moves only") is dropped at once;
* a batch (what one event made: a move and the fight it starts) is said in order, never cut
  short by itself;
* a new batch whose most important announcement matters as much as what is being said, or
  more, cuts it short: a newer move makes the last one stale, a result cuts a dice round;
  what was waiting and matters no more than the new batch is dropped with it;
* a less important batch waits, and replaces what waits of the same kind (stale guidance
  does not pile up); at most :data:`WAITING` announcements wait, the oldest go first.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from .announcements import Announcement, SpeechSettings

#: The most announcements that wait behind the one being said.
WAITING = 6


@dataclass(frozen=True)
class Say:
    announcement: Announcement


@dataclass(frozen=True)
class Stop:
    """Cut the utterance being said short."""


Command = Say | Stop


class SpeechQueue:
    def __init__(self, settings: SpeechSettings) -> None:
        self.settings = settings
        self.playing: Announcement | None = None
        self.waiting: list[Announcement] = []

    def offer(self, batch: Sequence[Announcement]) -> list[Command]:
        said = [a for a in batch if self.settings.says(a)]
        if not said:
            return []
        top = max(a.priority for a in said)
        if self.playing is not None and top >= self.playing.priority:
            self.waiting = [w for w in self.waiting if w.priority > top]
            self.playing = said[0]
            self.waiting = said[1:] + self.waiting
            return [Stop(), Say(said[0])]
        kinds = {a.kind for a in said}
        self.waiting = [w for w in self.waiting if w.kind not in kinds] + said
        del self.waiting[:max(0, len(self.waiting) - WAITING)]
        if self.playing is None:
            return self._next()
        return []

    def finished(self) -> list[Command]:
        """The voice has said what it was saying (or was stopped)."""
        self.playing = None
        return self._next()

    def silence(self) -> list[Command]:
        """Stop everything (speech turned off, a new game)."""
        was = self.playing
        self.playing, self.waiting = None, []
        return [Stop()] if was is not None else []

    def _next(self) -> list[Command]:
        if not self.waiting:
            return []
        self.playing = self.waiting.pop(0)
        return [Say(self.playing)]
