"""When to try lichess again (sans-I/O: times are given, nothing sleeps here).

* **429** (too many requests): lichess's API description asks for "a full minute" before any
  further request, so :data:`RATE_LIMIT_MS` holds every request and every stream, not just the
  one that was refused.
* **5xx** or no answer (the network, a cut stream): a growing wait, 0.5 s doubling to 30 s,
  each stretched by up to a quarter at random (the random fraction is given) so that boards
  cut off together do not come back together; the first success starts the series again.
* A stream that ends cleanly after it worked a while is opened again at once.
"""

from __future__ import annotations

from dataclasses import dataclass

RATE_LIMIT_MS = 60_000
FIRST_MS = 500
MAX_MS = 30_000
JITTER = 0.25
#: A stream that stayed open this long counts as a success: its end is not a failure in a row.
HEALTHY_MS = 10_000

NETWORK, SERVER, RATE_LIMITED, ENDED = "network", "server", "rate-limited", "ended"


def failure_kind(status: int | None) -> str:
    """An HTTP status (None: no answer) as the kind of failure."""
    if status is None:
        return NETWORK
    if status == 429:
        return RATE_LIMITED
    return SERVER


@dataclass
class Backoff:
    failures: int = 0
    #: nothing may be sent before this time (a 429)
    hold_until_ms: int = 0
    #: lichess's minute (a test's server may ask for less)
    rate_limit_ms: int = RATE_LIMIT_MS

    def failed(self, kind: str, now_ms: int, jitter: float = 0.0) -> int:
        """A failure of ``kind`` at ``now_ms``: the time to try again (``jitter`` in [0, 1))."""
        if kind == RATE_LIMITED:
            self.hold_until_ms = max(self.hold_until_ms, now_ms + self.rate_limit_ms)
            self.failures += 1
            return self.hold_until_ms
        if kind == ENDED:
            self.failures = 0
            return max(now_ms, self.hold_until_ms)
        wait = min(MAX_MS, FIRST_MS * 2 ** min(self.failures, 16))
        self.failures += 1
        wait = int(wait * (1 + JITTER * min(max(jitter, 0.0), 1.0)))
        return max(now_ms + wait, self.hold_until_ms)

    def succeeded(self) -> None:
        self.failures = 0

    def may_send(self, now_ms: int) -> bool:
        return now_ms >= self.hold_until_ms

    def held_for_ms(self, now_ms: int) -> int:
        return max(0, self.hold_until_ms - now_ms)
