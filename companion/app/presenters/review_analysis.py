"""A saved game analysed while it is reviewed: each move evaluated against the best at the same
depth, blunders and mistakes marked, the best alternative lit on the board, an evaluation graph.

:class:`ReviewAnalysis` owns the analysis of the game under review (the Archive's): it starts
when the players ask (the review screen's Analyse button), runs on its own worker
(companion.ai.worker.ReviewWorker: Stockfish for FIDE chess when it is installed, our search for
every other game: companion.ai.analysis.analyser_for), and reports each move as it is done
(``review-analysis`` mail: the progress shown). Leaving the review stops it. At a move that
was a mistake, the best alternative is lit on the board under the move itself
(``BoardRoom.coach_lights``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Callable

from ...ai.analysis import actions_between, analyser_for
from ...ai.worker import ReviewFinished, ReviewProgressed, ReviewWorker, SearchFailed
from ...board.palette import Meaning
from ...core.moves import Move
from .. import texts as T
from .archive import Archive
from .board_link import BoardRoom
from .display import Display
from .mailbox import Mailbox

#: seconds a move may be searched (the best, then the played move to the same depth)
MOVE_SECONDS = 0.5


@dataclass
class Analysis:
    request: int
    review: Any  # the saved_games.Review analysed
    frame_of: list  # for each action, the frame it starts from
    done: int = 0
    total: int = 0
    moves: dict = field(default_factory=dict)  # frame index after the move -> MoveReview
    finished: bool = False
    failed: str = ""


class ReviewAnalysis:
    def __init__(self, archive: Archive, board: BoardRoom, display: Display, mailbox: Mailbox, *,
                 now: Callable[[], float] = time.perf_counter, make_analyser: Callable = analyser_for,
                 worker: Any = None, seconds: float = MOVE_SECONDS) -> None:
        self.archive = archive
        self.board = board
        self.display = display
        self.make_analyser = make_analyser
        self.seconds = seconds
        self.worker = worker or ReviewWorker(now, deliver=lambda e: mailbox.post("review-analysis", e))
        self.analysis: Analysis | None = None

    def start(self) -> None:
        """Analyse the game under review (once; again after leaving it)."""
        r = self.archive.review
        if r is None or (self.analysis is not None and self.analysis.review is r):
            return
        positions = [f[0] for f in r.frames]
        found = actions_between(r.rules, positions, [f[1] for f in r.frames])
        if found is None:
            self.analysis = Analysis(-1, r, [], failed=T.ANALYSIS_CANNOT)
            self.display.changed()
            return
        actions, frame_of = found
        analyser = self.make_analyser(r.rules)
        request = self.worker.start(r.rules, actions, analyser, position=positions[0], budget=self.seconds)
        self.analysis = Analysis(request, r, frame_of, total=len(r.frames) - 1)
        self.display.changed()

    def stop(self) -> None:
        """The review is left: the analysis stops (what was done is dropped with it)."""
        if self.analysis is not None and not self.analysis.finished:
            self.worker.stop()
        self.analysis = None
        self.board.coach_lights = {}

    def event(self, e) -> None:
        """Mail ``review-analysis``: a move analysed, the whole game, or a failure."""
        a = self.analysis
        if a is None or getattr(e, "request", None) != a.request:
            return
        if isinstance(e, ReviewProgressed):
            self._take(e.move)
            a.done = len(a.moves)
        elif isinstance(e, ReviewFinished):
            for m in e.review.moves:
                self._take(m)
            a.done, a.finished = len(a.moves), True
        elif isinstance(e, SearchFailed):
            a.failed, a.finished = T.ANALYSIS_FAILED.format(reason=e.reason), True
        self.light()
        self.display.changed()

    def _take(self, m) -> None:
        """A move's verdict, kept under the frame its move leads to (a turn of several actions,
        a fight's, is judged by its move)."""
        a = self.analysis
        after = a.frame_of[m.index] + 1
        if after not in a.moves or isinstance(m.action, Move):
            a.moves[after] = m

    # ----- what the review screen shows -------------------------------------------------------
    @property
    def running(self) -> bool:
        return self.analysis is not None and not self.analysis.finished

    @property
    def progress(self) -> float:
        """0..1 while it analyses, -1 otherwise."""
        a = self.analysis
        if a is None or a.finished:
            return -1.0
        return a.done / a.total if a.total else 0.0

    def at(self, frame: int):
        """The verdict on the move that led to ``frame`` (None: not analysed yet, or the start)."""
        a = self.analysis
        return a.moves.get(frame) if a is not None else None

    def graph(self, clip: float = 800.0) -> tuple[tuple[int, float], ...]:
        """(frame, evaluation from the first player's side in centipawns, clipped) for every
        move analysed so far; with more than two players, the first player's moves only."""
        a = self.analysis
        if a is None:
            return ()
        n = a.review.rules.nplayers
        out = []
        for frame in sorted(a.moves):
            m = a.moves[frame]
            if m.player != 0 and n != 2:
                continue
            v = m.played_score if m.player == 0 else -m.played_score
            out.append((frame, max(-clip, min(clip, v))))
        return tuple(out)

    def counts(self, player: int) -> dict[str, int]:
        a = self.analysis
        out = {"blunder": 0, "mistake": 0, "inaccuracy": 0}
        if a is not None:
            for m in a.moves.values():
                if m.player == player and m.kind in out:
                    out[m.kind] += 1
        return out

    def light(self) -> None:
        """At a move that was a mistake or a blunder: its best alternative lit (under the move)."""
        m = self.at(self.archive.review_at)
        lights = {}
        if m is not None and m.kind in ("blunder", "mistake") and isinstance(m.best, Move):
            lights = {m.best.frm: Meaning.HINT_FROM, m.best.to: Meaning.HINT_TO}
        self.board.coach_lights = lights


__all__ = ["ReviewAnalysis", "Analysis", "MOVE_SECONDS"]
