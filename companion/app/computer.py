"""The computer player for the app: companion.ai's search in its worker thread.

The app (ComputerTurns) asks ``start(rules, pos, level, on_progress, on_done)`` and ``stop()``. Both
callbacks are called from the worker thread; the app's callbacks only post to its Mailbox, so
the game is never touched outside the UI thread. Each search gets its own worker, so a late
answer of a stopped search reaches only its own (stale) callbacks, which ComputerTurns ignores.
"""

from __future__ import annotations

import logging
import random
import time
from typing import Any, Callable

# a seat's level from STOCKFISH_BASE up is Stockfish at Elo level - STOCKFISH_BASE (journaled as stockfish:ELO)
from ..session import STOCKFISH_BASE, stockfish_elo

log = logging.getLogger(__name__)


class ComputerFailed:
    """Handed to ``on_done`` instead of a move when the search failed: the app then shows
    what happened and what the players can do, rather than wait for a move for ever."""

    def __init__(self, reason: str) -> None:
        self.reason = reason

    def __repr__(self) -> str:
        return f"ComputerFailed({self.reason!r})"

#: Seconds the strongest level may think per move (weaker levels use a share of it).
MOVE_SECONDS = 3.0
#: Nodes the computer searches to fix its secret bid (a node limit, not a time: the same position
#: and random number give the same bid, so a journaled game replays exactly).
PART_NODES = 6000


class SearchComputer:
    def __init__(self, levels: Any, worker: Any, *, now: Callable[[], float] = time.monotonic,
                 seconds: float = MOVE_SECONDS, rng: random.Random | None = None) -> None:
        self._levels = levels
        self._worker_class = worker.SearchWorker
        self._events = worker
        self.now = now
        self.seconds = seconds
        self.rng = rng or random.Random()
        self.max_level = len(levels.LEVELS)
        #: what each level plays like ("beginner" ... "strongest"), for the seat choices
        self.level_titles = tuple(lv.title for lv in levels.LEVELS)
        self._players: dict[tuple[int, int], Any] = {}
        self._extra: dict[str, tuple] = {}
        self._worker = None

    @classmethod
    def available(cls) -> SearchComputer | None:
        """The computer player, or None when companion.ai is not part of this installation."""
        try:
            from ..ai import levels, worker
        except ImportError:
            return None
        return cls(levels, worker)

    def level_title(self, level: int) -> str:
        elo = stockfish_elo(level)
        return f"Stockfish, Elo {elo}" if elo is not None else self._levels.LEVELS[level - 1].title

    def extra_choices(self, game: str) -> tuple[tuple[int, str], ...]:
        """The computer players a seat of ``game`` may have besides our levels: Stockfish at a
        few strengths for FIDE chess when it is installed, as (level, words)."""
        if game not in self._extra:
            try:
                from ..ai.players import computer_players
            except ImportError:
                self._extra[game] = ()
            else:
                self._extra[game] = tuple((STOCKFISH_BASE + c.strength, c.title) for c in computer_players(game)
                                          if c.engine == "stockfish")
        return self._extra[game]

    def start(self, rules, pos, level: int, on_progress: Callable[[float], None],
              on_done: Callable[[Any], None]) -> None:
        """Think about ``pos`` (copied by the worker) at ``level``; report progress (0..1) and
        the chosen move (a :class:`ComputerFailed` if the search failed)."""
        self.stop()
        try:
            player = self._player(rules, level)
        except Exception as e:  # noqa: BLE001 - Stockfish missing or refusing: said to the players
            log.error("the computer player could not start: %s", e)
            on_done(ComputerFailed(str(e)))
            return
        budget = self.seconds
        share = player.level.time_share if hasattr(player, "level") else 1.0

        def deliver(event) -> None:
            if isinstance(event, self._events.SearchProgressed):
                on_progress(min(1.0, event.info.elapsed / max(budget * share, 1e-6)))
            elif isinstance(event, self._events.MoveFound):
                on_done(event.action)
            elif isinstance(event, self._events.SearchFailed):
                log.error("the computer's search failed: %s", event.error)
                on_done(ComputerFailed(event.error))

        worker = self._worker_class(self.now, deliver=deliver)
        worker.start(player, pos, budget)
        self._worker = worker

    def choose_part(self, rules, pos, seat: int, level: int, u: float):
        """Its part of the pending joint decision (a secret duel bid), drawn with ``u`` in [0, 1)
        from the equilibrium of the bid game its search builds (companion.ai.duel). Runs in the
        caller's worker; the level limits the search's depth."""
        lv = self._levels.LEVELS[max(1, min(level, self.max_level)) - 1]
        return self._levels.computer_part(rules, pos, seat, u, max_nodes=PART_NODES, max_depth=lv.max_depth or 64)

    def stop(self) -> None:
        """Stop thinking (a takeback, a new game); its answer will be ignored."""
        if self._worker is not None:
            self._worker.stop()
            self._worker = None

    def _player(self, rules, level: int):
        key = (id(rules), level)
        elo = stockfish_elo(level)
        if elo is not None and key not in self._players:
            from ..ai.stockfish import StockfishPlayer

            for old in [k for k in self._players if stockfish_elo(k[1]) is not None]:
                self._players.pop(old).close()  # one engine process at a time (another game's, or Elo)
            self._players[key] = StockfishPlayer(rules, elo, seconds=self.seconds)
        if key not in self._players:
            lv = self._levels.LEVELS[max(1, min(level, self.max_level)) - 1]
            self._players[key] = self._levels.ComputerPlayer(rules, lv, random.Random(self.rng.random()))
        return self._players[key]
