"""When the hall pushes its round to a lichess broadcast round (sans-I/O: times are given).

Lichess's push endpoint (``POST /api/broadcast/round/{id}/push``, scope ``study:write``) takes
the round's whole PGN, up to 100 games, and its API description asks clients to make one
request at a time and to wait a full minute after a 429. So :class:`PushSchedule`:

* pushes only when the PGN changed, and only the latest: changes made while a push is on its
  way, or within :data:`MIN_GAP_MS` of the last one, go together in the next push;
* keeps one push in flight at most;
* after a 429 waits :data:`~.backoff.RATE_LIMIT_MS`; after no answer or a 5xx backs off
  (companion.online.backoff) and pushes the latest PGN again;
* after a 400 (lichess could not read the PGN, or the round takes no pushes) does not push the
  same text again: its words are kept in :attr:`PushSchedule.problem` for the hall's page;
* pushes FIDE chess games only, at most :data:`MAX_GAMES` of them (the rest are counted).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..i18n import _
from .backoff import Backoff, failure_kind

#: Games lichess takes in one push (broadcast-round-broadcastRoundId-push.yaml).
MAX_GAMES = 100
#: The least time between two pushes: a round's boards change together at the start.
MIN_GAP_MS = 2_000


def split_games(pgn: str) -> list[str]:
    """A multi-game PGN as its games (each from its first tag to its result)."""
    games, current = [], []
    for line in pgn.splitlines():
        if line.startswith("[") and current and not current[-1].startswith("["):
            games.append("\n".join(current).strip() + "\n")
            current = []
        if line.strip() or current:
            current.append(line)
    if any(s.strip() for s in current):
        games.append("\n".join(current).strip() + "\n")
    return games


def is_chess(game: str) -> bool:
    """A PGN game lichess can read: FIDE chess (no Variant tag, or Standard / Chess)."""
    for line in game.splitlines():
        if line.startswith("[Variant "):
            value = line[len("[Variant "):].strip().rstrip("]").strip().strip('"').lower()
            return value in ("standard", "chess", "fide chess")
    return True


def pushable(pgn: str) -> tuple[str, int, int]:
    """(the PGN to push, games left out as not chess, games left out past :data:`MAX_GAMES`)."""
    games = split_games(pgn)
    chess = [g for g in games if is_chess(g)]
    kept = chess[:MAX_GAMES]
    return "\n".join(kept), len(games) - len(chess), len(chess) - len(kept)


@dataclass
class PushSchedule:
    latest: str = ""
    pushed: str | None = None  # the last text lichess took
    refused: str | None = None  # the last text lichess refused (400): not pushed again
    in_flight: str | None = None
    last_ms: int | None = None
    next_ms: int = 0
    backoff: Backoff = field(default_factory=Backoff)
    problem: str = ""
    pushes: int = 0
    left_out: tuple[int, int] = (0, 0)

    def changed(self, round_pgn: str) -> None:
        text, not_chess, over = pushable(round_pgn)
        self.latest, self.left_out = text, (not_chess, over)

    def due(self, now_ms: int) -> str | None:
        """The PGN to push now, or None (nothing new, one is on its way, or not yet)."""
        if self.in_flight is not None or not self.latest.strip():
            return None
        if self.latest in (self.pushed, self.refused) or now_ms < self.next_ms:
            return None
        if self.last_ms is not None and now_ms - self.last_ms < MIN_GAP_MS:
            return None
        self.in_flight, self.last_ms = self.latest, now_ms
        return self.latest

    def answered(self, status: int | None, error: str, now_ms: int, jitter: float = 0.0) -> None:
        text, self.in_flight = self.in_flight, None
        if status == 200:
            self.pushed, self.problem, self.pushes = text, "", self.pushes + 1
            self.backoff.succeeded()
            self.next_ms = now_ms
            return
        if status is not None and 400 <= status < 500 and status != 429:
            self.refused = text
            self.problem = _("lichess refused the round ({status}): {reason}").format(
                status=status, reason=error or _("no reason given"))
            return
        kind = failure_kind(status)
        self.next_ms = self.backoff.failed(kind, now_ms, jitter)
        self.problem = (_("lichess asked to wait a minute (429)") if status == 429 else
                        _("lichess cannot be reached") if status is None else
                        _("lichess answered {status}").format(status=status))
