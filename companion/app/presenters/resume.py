"""Offering an unfinished game after a restart (the replay runs in a worker meanwhile)."""

from __future__ import annotations

from dataclasses import dataclass

from .. import texts as T
from .flow import AppFlow


@dataclass(frozen=True)
class ResumeView:
    loading: bool
    progress: float
    title: str
    summary: str
    loss: str


class ResumePresenter:
    def __init__(self, flow: AppFlow) -> None:
        self.flow = flow

    def accept(self) -> None:
        self.flow.accept_resume()

    def discard(self) -> None:
        self.flow.discard_resume()

    def view(self) -> ResumeView:
        flow = self.flow
        back = flow.resumed
        if back is None or back.game is None:
            return ResumeView(True, flow.resume_progress,
                              T.RESUME_LOADING.format(percent=round(flow.resume_progress * 100)), "", "")
        s = getattr(back.game, "session", back.game)
        game = T.GAME_TITLES.get(s.setup.game, s.setup.game)
        board_map = getattr(s.rules, "board_map", None)
        if board_map is not None and getattr(board_map, "seats", None):
            summary = T.RESUME_SUMMARY_MANY.format(game=game, map=board_map.title, moves=len(s.moves),
                                                   names=", ".join(seat.name for seat in s.seats))
        else:
            summary = T.RESUME_SUMMARY.format(game=game, white=s.seats[0].name, black=s.seats[1].name,
                                              moves=len(s.moves))
        return ResumeView(False, 1.0, T.RESUME_TITLE, summary, T.RESUME_LOSS.format(loss=back.loss) if back.loss else "")
