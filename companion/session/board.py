"""The physical board, through a tracker (companion.board.tracker).

:class:`BoardLink` feeds the tracker sensor events, time and the players' answers to its
prompts, turns its ``MoveDetected`` into a move played (``AnswerDetected``, a choice made on
the board such as a Salamander's step, into an answer), tells it ``position_changed()`` after
each action, and passes its other outputs (lights, guidance, prompts, in/out of sync) on to the
presenters untouched. Without a tracker every call returns nothing.
"""

from __future__ import annotations

from typing import Callable, Iterable

from ..board.tracker import AnswerDetected, MoveDetected
from ..errors import CompanionError
from .events import ActionRefused


class BoardLink:
    """The session's link to the board. ``play(move)`` and ``play_answer(answer)`` are the
    session's commands a detected move or answer goes to."""

    def __init__(self, play: Callable[..., list], play_answer: Callable[..., list]) -> None:
        self._play, self._play_answer = play, play_answer
        self.tracker = None
        #: when set, a move the tracker detects goes here instead of ``play`` (a clock that
        #: presses itself records the move with its press)
        self.on_move_detected: Callable | None = None

    def redirect(self, play: Callable[..., list], play_answer: Callable[..., list]) -> None:
        """Send detected moves and answers to other commands (a linked board's, whose moves go
        through the link before they are played: companion.link.session_view)."""
        self._play, self._play_answer = play, play_answer

    def attach(self, tracker) -> list:
        self.tracker = tracker
        return self.route(tracker.position_changed())

    def position_changed(self) -> list:
        """After each action: the tracker compares the board with the new position."""
        return self.route(self.tracker.position_changed()) if self.tracker is not None else []

    def begin_setup(self) -> list:
        return self.route(self.tracker.begin_setup()) if self.tracker is not None else []

    def feed(self, event) -> list:
        return self.route(self.tracker.feed(event)) if self.tracker is not None else []

    def tick(self, t_ms: int) -> list:
        return self.route(self.tracker.tick(t_ms)) if self.tracker is not None else []

    def choose(self, option) -> list:
        return self.route(self.tracker.choose(option)) if self.tracker is not None else []

    def request_move(self, move) -> list:
        return self.route(self.tracker.request_move(move)) if self.tracker is not None else []

    def route(self, outputs: Iterable | None) -> list:
        """The tracker's outputs as the presenters get them: a detected move or answer is
        played (refused: ActionRefused, and the tracker guides the board back)."""
        events: list = []
        for out in outputs or ():
            if isinstance(out, (MoveDetected, AnswerDetected)):
                try:
                    if isinstance(out, MoveDetected) and self.on_move_detected is not None:
                        # a clock that presses itself: the move and the press are one action
                        events += self.on_move_detected(out)
                        continue
                    events += self._play(out.move) if isinstance(out, MoveDetected) else self._play_answer(out.answer)
                except CompanionError as e:
                    events.append(ActionRefused(str(e)))
                    if self.tracker is not None:
                        events += self.route(self.tracker.position_changed())
            else:
                events.append(out)
        return events
