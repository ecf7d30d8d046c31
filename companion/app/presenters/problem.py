"""The problem screen: something failed out of sight (the last game could not be loaded, the
computer could not choose a move, a worker stopped). It says what happened and what the
players can do, with a button to go on (and one to try again where that makes sense), so no
screen ever waits for ever."""

from __future__ import annotations

from dataclasses import dataclass

from .. import texts as T
from .flow import AppFlow


@dataclass(frozen=True)
class ProblemView:
    title: str
    reason: str
    advice: str
    retry: str  # the try-again button's label ("" when there is nothing to try again)
    go_on: str


class ProblemPresenter:
    def __init__(self, flow: AppFlow) -> None:
        self.flow = flow

    def go_on(self) -> None:
        self.flow.close_problem()

    def retry(self) -> None:
        self.flow.retry_problem()

    def view(self) -> ProblemView | None:
        p = self.flow.problem
        if p is None:
            return None
        return ProblemView(p.title, p.reason, p.advice, T.TRY_AGAIN if p.retry else "", T.CONTINUE)
