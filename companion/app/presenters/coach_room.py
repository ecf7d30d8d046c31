"""The coach at the table: a hint lit on the board, the player's threatened pieces lit, and a
word after a move that drops material (with Undo one tap away in a casual game).

:class:`CoachRoom` owns the coach's state: which seats asked for it (a setting per seat, for the
game in progress; never in tournament mode, where the board gives no help: FIDE 11.3), the hint
being searched and its progress, the hint found, the threats, the last move's verdict. The work
is companion/ai/coach.py's (any game: fights weighed by their odds, Chess 2's duels); it runs
off the UI thread: the hint on its own search worker (companion.ai.worker.SearchWorker, which
keeps the board quick: ``companion bench --only coach``), the threats and the move check in
Mailbox workers. Answers come back through the Mailbox (``coach-search``, ``coach-threats``,
``coach-check``) tagged with the position they were asked about, so an answer about a position
the game has left is dropped. The lights go to the board room (``BoardRoom.coach_lights``, under
whatever the tracker lights).
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Any, Callable

from ...ai.coach import HINT_SECONDS, Coach
from ...ai.worker import MoveFound, SearchFailed, SearchProgressed, SearchWorker, quick_switching
from ...board.palette import Meaning
from ...core.moves import Move
from ...session import move_words
from .. import texts as T
from .board_link import BoardRoom
from .display import Display
from .game_room import GameRoom
from .mailbox import Mailbox
from .play import Play

#: seconds the check of a move may think (in a worker, while the game goes on)
CHECK_SECONDS = 1.0
#: a move is said to drop material when it loses at least this much against the best (centipawns)
DROP_MARGIN = 150.0


@dataclass
class Hinting:
    request: int
    key: tuple
    started: float
    progress: float = 0.0


class CoachRoom:
    def __init__(self, game: GameRoom, play: Play, board: BoardRoom, display: Display, mailbox: Mailbox, *,
                 now: Callable[[], float] = time.perf_counter, make_coach: Callable[[Any], Any] = Coach,
                 worker: Any = None, online: Callable[[], bool] = lambda: False) -> None:
        self.game = game
        self.play = play  # Undo, as the game bar's button
        self.board = board  # the lights
        self.display = display
        self.mailbox = mailbox
        self.now = now
        self.make_coach = make_coach
        self.online = online  # the open game is played online: no help there
        self.worker = worker or SearchWorker(now, deliver=lambda e: mailbox.post("coach-search", e))
        self.check_seconds = CHECK_SECONDS
        self.coached: set[int] = set()  # the seats that asked for the coach, this game
        self.hinting: Hinting | None = None
        self.hint: Move | None = None
        self.hint_text = ""
        self.threats: tuple = ()
        self.verdict = ""  # "That move drops material..." after a coached player's move
        self.offer_undo = False
        self.failure = ""  # the last failure of a coach's worker (for the logs and tests)
        self._coach = None
        #: one search at a time on the coach's searcher: the hint, the threats, a move's check
        #: run in different threads and share its tables
        self._lock = threading.Lock()
        self._coach_rules = None
        self._key: tuple | None = None
        self._before: tuple | None = None  # (key, position, seat): where a coached player is to move

    # ----- the setting ----------------------------------------------------------------------------
    @property
    def available(self) -> bool:
        """A game is on and it is neither a tournament game nor played online (no help from the
        board there)."""
        s = self.game.session
        table = self.game.table
        return (s is not None and not s.is_over and not (table is not None and table.tournament)
                and not self.online())

    def seat(self) -> int | None:
        """The person to move, if any (the coach speaks to the player whose turn it is)."""
        s = self.game.session
        if s is None or s.pos.pending is not None or s.seats[s.turn].computer:
            return None
        return s.turn

    def is_on(self, seat: int | None = None) -> bool:
        seat = self.seat() if seat is None else seat
        return self.available and seat is not None and seat in self.coached

    def toggle(self, seat: int | None = None) -> None:
        """Coach on or off for ``seat`` (the person to move by default)."""
        seat = self.seat() if seat is None else seat
        if seat is None or not self.available:
            return
        if seat in self.coached:
            self.coached.discard(seat)
            self._clear()
        else:
            self.coached.add(seat)
            self._key = None
            self.settled()
        self.display.changed()

    # ----- what the game tells it -------------------------------------------------------------------
    def reset(self, _event=None) -> None:
        """A game opened or closed: nobody is coached, nothing lit."""
        self.coached = set()
        self._clear()
        self.verdict, self.offer_undo = "", False
        self._key = self._before = None

    def settled(self, _event=None) -> None:
        """PlaySettled: a new position? Then the old hint and threats go out, and if a coached
        person is to move, the threats to their pieces are looked for (in a worker)."""
        s = self.game.session
        if s is None or not self.available:
            self._clear()
            return
        key = (s.actions, s.pos.hash)
        if key == self._key:
            return
        self._key = key
        self._clear()
        seat = self.seat()
        if seat is None or seat not in self.coached:
            self._before = None
            return
        pos = s.pos.copy()
        self._before = (key, pos.copy(), seat)
        coach, post = self._coach_for(s.rules), self.mailbox.post

        lock = self._lock

        def work() -> None:
            with lock, quick_switching():  # the board's events wait at most 0.5 ms for the GIL
                threats = tuple(coach.threats(pos, seat))
            post("coach-threats", (key, threats))

        self.mailbox.in_worker("coach", work)

    def moved(self, event) -> None:
        """MovePlayed: a coached person's move is checked against the best (in a worker); a
        move that drops material is said, with Undo offered in a casual game."""
        self.verdict, self.offer_undo = "", False
        before = self._before
        s = self.game.session
        if before is None or s is None or event.entry.player != before[2] or before[2] not in self.coached:
            return
        _, pos, seat = before
        action = _find_action(s.rules, pos, event.entry)
        if action is None:
            return
        coach, post, now, entry = self._coach_for(s.rules), self.mailbox.post, self.now, event.entry
        budget, lock = self.check_seconds, self._lock

        def work() -> None:
            with lock, quick_switching():
                check = coach.check_move(pos, action, now=now, budget=budget)
            post("coach-check", (entry, pos, check))

        self.mailbox.in_worker("coach", work)

    def checked(self, value) -> None:
        """Mail ``coach-check``: the verdict on a move, if the game has not moved past it."""
        entry, pos, check = value
        s = self.game.session
        if s is None or not s.moves or s.moves[-1] is not entry:
            return
        if check.kind in ("blunder", "mistake") and check.drop >= DROP_MARGIN:
            best = move_words(s.rules, pos, check.best_action) if isinstance(check.best_action, Move) else "?"
            self.verdict = T.COACH_DROPS.format(pawns=f"{check.drop / 100:.1f}", best=best)
            self.offer_undo = self.game.can_undo()
            self.display.changed()

    def threats_found(self, value) -> None:
        key, threats = value
        if key != self._key or not self.is_on():
            return
        self.threats = threats
        self._light()

    # ----- the hint ----------------------------------------------------------------------------------
    def ask_hint(self) -> None:
        """The Hint button: the best move found in a few seconds, searched in the background."""
        s = self.game.session
        if not self.is_on() or self.hinting is not None:
            return
        key = (s.actions, s.pos.hash)
        coach = self._coach_for(s.rules)
        request = self.worker.start(_Locked(coach.hinter(), self._lock), s.pos, HINT_SECONDS)
        self.hinting = Hinting(request, key, self.now())
        self.hint, self.hint_text = None, ""
        self.display.changed()

    def search_event(self, event) -> None:
        """Mail ``coach-search``: the hint's progress, the hint, or its failure."""
        h = self.hinting
        if h is None or getattr(event, "request", None) != h.request:
            return
        s = self.game.session
        if s is None or (s.actions, s.pos.hash) != h.key:
            self.hinting = None
            return
        if isinstance(event, SearchProgressed):
            h.progress = max(0.0, min(1.0, (self.now() - h.started) / HINT_SECONDS))
            self.display.changed()
        elif isinstance(event, MoveFound):
            self.hinting = None
            move = event.info.best
            if isinstance(move, Move):
                self.hint = move
                self.hint_text = T.COACH_HINT.format(move=move_words(s.rules, s.pos, move))
            else:
                self.hint_text = T.COACH_NO_HINT
            self._light()
        elif isinstance(event, SearchFailed):
            self.hinting = None
            self.hint_text = T.COACH_NO_HINT
            self.display.changed()

    def undo(self) -> None:
        """The verdict's Undo: the move taken back, as the game bar's Undo does."""
        self.verdict, self.offer_undo = "", False
        self.play.undo()
        self.display.changed()

    def failed(self, reason: str) -> None:
        """A coach's worker failed: the game goes on without that answer (never a problem
        screen for help nobody asked to be sure of); the reason is noted on the game screen."""
        self.failure = reason
        self.display.notice = T.COACH_FAILED
        self.display.changed()

    def stop(self) -> None:
        self.worker.stop()

    # ----- helpers -----------------------------------------------------------------------------------
    @property
    def progress(self) -> float:
        """0..1 while the hint is searched, -1 otherwise."""
        return self.hinting.progress if self.hinting is not None else -1.0

    def text(self) -> str:
        """The coach's line on the game screen."""
        if not self.available:
            return ""
        if self.verdict:
            return self.verdict
        if self.hinting is not None:
            return T.COACH_THINKING
        if self.hint_text:
            return self.hint_text
        if self.is_on() and self.threats:
            return T.COACH_THREATS.format(n=len(self.threats))
        return ""

    def _coach_for(self, rules):
        if self._coach is None or self._coach_rules is not rules:
            self._coach, self._coach_rules = self.make_coach(rules), rules
        return self._coach

    def _clear(self) -> None:
        if self.hinting is not None:
            self.worker.stop()
        self.hinting, self.hint, self.hint_text, self.threats = None, None, "", ()
        if self.board.coach_lights:
            self.board.coach_lights = {}
            self.display.changed()

    def _light(self) -> None:
        lights = {t.square: Meaning.THREAT for t in self.threats}
        if self.hint is not None:
            lights[self.hint.frm] = Meaning.HINT_FROM
            lights[self.hint.to] = Meaning.HINT_TO
        self.board.coach_lights = lights
        self.display.changed()


class _Locked:
    """The hint's player, searching only while it holds the coach's lock."""

    def __init__(self, player, lock: threading.Lock) -> None:
        self.player, self.lock = player, lock

    def choose(self, *args, **kwargs):
        with self.lock:
            return self.player.choose(*args, **kwargs)


def _find_action(rules, pos, entry):
    """The move a MoveEntry records, among the legal moves of the position before it."""
    found = [m for m in rules.legal_moves(pos) if m.frm == entry.frm and m.to == entry.to]
    if len(found) > 1:
        named = [m for m in found if rules.move_text(pos, m) == entry.san]
        found = named or found
    return found[0] if found else None


__all__ = ["CoachRoom", "Hinting", "CHECK_SECONDS", "DROP_MARGIN"]
