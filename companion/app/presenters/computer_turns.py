"""The computer's turns: when it thinks, its progress, the move it asks a person to make for it
on the board, its secret part of a joint decision (a bid), and what happens when its search
fails.

:class:`ComputerTurns` owns the computer player (companion/app/computer.py: a search in a
worker) and what it is doing now. It starts a search when the game has settled on a position
where a computer seat is to move (PlaySettled), stops it whenever the position changes under it
(a takeback, a resignation, a correction, the game's end or its closing), and takes the answer
from the Mailbox (``ai-progress``, ``ai-done``, ``ai-part``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from ...core.moves import Answer, Move
from .. import texts as T
from ..computer import ComputerFailed
from .display import Display
from .game_room import GameRoom
from .mailbox import Mailbox
from .messages import Bus, ComputerMoveChosen, ShowProblem
from .play import Play
from .problem import Problem

#: The computer's secret bid is drawn with a random number k / RANDOM_STEPS (k drawn at the edge).
RANDOM_STEPS = 1 << 30


@dataclass
class Thinking:
    seat: int
    key: tuple
    progress: float = 0.0
    part: bool = False  # its part of a joint decision (a secret bid), not a move


class ComputerTurns:
    def __init__(self, computer: Any, game: GameRoom, play: Play, display: Display, mailbox: Mailbox, bus: Bus, *,
                 draw: Callable[[int], int]) -> None:
        self.computer = computer  # None: no computer player installed
        self.game = game
        self.play = play
        self.display = display
        self.mailbox = mailbox
        self.bus = bus
        self.draw = draw  # n -> 0..n-1, drawn at the edge (the secret bid's random number)
        self.thinking: Thinking | None = None
        self.requested: Move | None = None  # its move, lit for a person to make on the board
        self.held = False  # its search failed: it waits until the position changes

    # ----- what the game tells it -----------------------------------------------------------------
    def position_changed(self, _event) -> None:
        """A move, an answer, a takeback, a sealed part, a resignation: it may try again."""
        self.held = False

    def move_made(self, _event) -> None:
        """Its move (or any move) was made: nothing is asked of the players any more."""
        self.requested = None

    def stop(self, _event=None) -> None:
        """The position changed under it (a takeback, a correction, the end): the search stops."""
        if self.thinking is not None and self.computer is not None:
            self.computer.stop()
        self.thinking = None

    def reset(self, event=None) -> None:
        self.stop(event)
        self.requested = None

    # ----- thinking ---------------------------------------------------------------------------------
    def maybe_think(self, _event=None) -> None:
        """PlaySettled: if a computer seat is to move (or to seal its part) on the game screen,
        start it."""
        s = self.game.session
        if s is None or self.computer is None or self.thinking is not None:
            return
        if self.display.screen != "game" and self.display.screen not in self.game.extras.decision_screens.values():
            return
        if self.play.showing_result or self.held or self.requested is not None:
            return  # the duel's result is on screen (Continue first), or it is waited for
        if s.joint_decision() is not None:
            self._seal_part()
            return
        seat = s.computer_to_move()
        if seat is None:
            return
        key = (s.actions, s.pos.hash)
        self.thinking = Thinking(seat, key)
        post = self.mailbox.post
        self.computer.start(s.rules, s.pos.copy(), s.seats[seat].level,
                            lambda fraction: post("ai-progress", (key, fraction)),
                            lambda move: post("ai-done", (key, move)))

    def hold(self) -> None:
        """Its search failed and the players went on: it waits until the position changes."""
        self.held = True

    def retry(self) -> None:
        """Try the search again (after it failed)."""
        self.held = False
        self.maybe_think()
        self.display.changed()

    def progress(self, value) -> None:
        key, fraction = value
        if self.thinking is not None and self.thinking.key == key:
            self.thinking.progress = fraction
            self.display.changed()

    def done(self, value) -> None:
        key, move = value
        s = self.game.session
        if self.thinking is None or self.thinking.key != key or s is None:
            return  # an old search (the game moved on, or was taken back)
        self.thinking = None
        if move is None or isinstance(move, ComputerFailed):
            name = s.seats[s.turn].name
            reason = move.reason if isinstance(move, ComputerFailed) else T.COMPUTER_NO_MOVE
            self.bus.handle(ShowProblem(Problem("computer", T.PROBLEM_COMPUTER_TITLE.format(name=name), reason,
                                                T.PROBLEM_COMPUTER_ADVICE.format(name=name), retry=True)))
            return
        if isinstance(move, Answer):  # the computer's choice in the middle of its turn
            self.game.command(lambda: s.play_answer(move))
            return
        self.requested = move
        self.bus.publish(ComputerMoveChosen(move))
        self.game.handle(s.request_move(move))
        self.display.changed()

    def _seal_part(self) -> None:
        """A computer's part of the pending joint decision (its secret bid), fixed and journaled
        before any person bids: drawn from its equilibrium with a random number drawn here."""
        s = self.game.session
        seat = next((p for p in s.parts_missing() if s.seats[p].computer), None)
        if seat is None or not hasattr(self.computer, "choose_part"):
            return
        key = (s.actions, s.pos.hash, "part", seat)
        self.thinking = Thinking(seat, key, part=True)
        u = self.draw(RANDOM_STEPS) / RANDOM_STEPS
        rules, pos, level = s.rules, s.pos.copy(), s.seats[seat].level
        computer, post = self.computer, self.mailbox.post

        def work() -> None:
            post("ai-part", (key, seat, computer.choose_part(rules, pos, seat, level, u)))

        self.mailbox.in_worker("computer", work)

    def part_done(self, value) -> None:
        key, seat, part = value
        s = self.game.session
        if self.thinking is None or self.thinking.key != key or s is None:
            return
        self.thinking = None
        self.game.command(lambda: s.play_part(seat, part))


__all__ = ["ComputerTurns", "Thinking", "RANDOM_STEPS"]
