"""The problem screen: something failed out of sight (the last game could not be loaded, the
computer could not choose a move, a worker stopped). It says what happened and what the
players can do, with a button to go on (and one to try again where that makes sense), so no
screen ever waits for ever.

:class:`Problems` owns the problem on screen and the screen to go back to; it handles the
ShowProblem command and every worker failure no other room takes (Mailbox.on_any_failure).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from .. import texts as T
from .display import Display
from .messages import ShowProblem


@dataclass(frozen=True)
class Problem:
    """Something went wrong out of sight (a worker failed): the ``problem`` screen's words,
    and where its buttons lead (``retry``: there is something to try again)."""

    kind: str  # "resume", "computer" or "worker"
    title: str
    reason: str
    advice: str
    retry: bool = False


@dataclass(frozen=True)
class ProblemView:
    title: str
    reason: str
    advice: str
    retry: str  # the try-again button's label ("" when there is nothing to try again)
    go_on: str


class Problems:
    """``game`` (the GameRoom) and ``dungeon`` (the Dungeon Chess set-up) say where Continue
    goes back to; a kind of problem may have its own follow-up (:meth:`after`)."""

    def __init__(self, display: Display, game: Any, dungeon: Any) -> None:
        self.display = display
        self.game = game
        self.dungeon = dungeon
        self.problem: Problem | None = None
        self._before = "start"
        self._after: dict[str, tuple[Callable[[], None], Callable[[], None]]] = {}

    def after(self, kind: str, *, close: Callable[[], None], retry: Callable[[], None]) -> None:
        """What Continue (``close``) and Try again (``retry``) do besides, for ``kind``."""
        self._after[kind] = (close, retry)

    def show(self, problem: Problem | ShowProblem) -> None:
        problem = getattr(problem, "problem", problem)
        if self.display.screen != "problem":
            self._before = self.display.screen
        self.problem = problem
        self.display.show("problem")

    def worker_failed(self, task: str, reason: str) -> None:
        self.show(Problem("worker", T.PROBLEM_TITLE, reason, T.PROBLEM_ADVICE))

    def close(self) -> None:
        """Go on after a problem: to the game if one is open (the computer waits until the
        position changes, so the players may move for it or take back), else to the start."""
        problem, self.problem = self.problem, None
        if problem is not None and problem.kind in self._after:
            self._after[problem.kind][0]()
        self._leave()

    def retry(self) -> None:
        """Try again what failed (the computer's search)."""
        problem = self.problem
        if problem is None or not problem.retry:
            return
        self.problem = None
        self._leave()
        if problem.kind in self._after:
            self._after[problem.kind][1]()

    def _leave(self) -> None:
        back = self._before
        session = self.game.session
        if session is None:
            back = "start" if back not in ("draft", "deploy") or self.dungeon.prep is None else back
        elif back in ("loading", "resume", "start", "problem"):
            back = "game_over" if session.is_over else "game"
        self.display.show(back)


class ProblemPresenter:
    def __init__(self, problems: Problems) -> None:
        self.problems = problems

    def go_on(self) -> None:
        self.problems.close()

    def retry(self) -> None:
        self.problems.retry()

    def view(self) -> ProblemView | None:
        p = self.problems.problem
        if p is None:
            return None
        return ProblemView(p.title, p.reason, p.advice, T.TRY_AGAIN if p.retry else "", T.CONTINUE)
