"""Offering an unfinished game after a restart (the replay runs in a worker meanwhile).

:class:`Resume` owns the game found at start-up: the journal is replayed in a worker (progress
on the loading screen); a game that ended is filed at once, an unfinished one offered (taken up
straight away when the players asked for it on the games screen), a damaged one set aside with
the reason on the problem screen. It handles the LookForUnfinished command.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...errors import CompanionError
from ...journal import ARCHIVE, Resumed, resume
from ...tournament.table import Table
from ...i18n import _
from .. import texts as T
from .display import Display
from .game_room import GameRoom
from .mailbox import Mailbox
from .messages import Bus, GameClosed, GameFinished, LookForUnfinished, NothingToResume, ShowProblem, UseBoardFor
from .problem import Problem
from .storage import Storage


class Resume:
    def __init__(self, storage: Storage, game: GameRoom, display: Display, mailbox: Mailbox, bus: Bus) -> None:
        self.storage = storage
        self.game = game
        self.display = display
        self.mailbox = mailbox
        self.bus = bus
        self.resumed: Resumed | None = None
        self.progress = 0.0
        self.play_on = False  # taken up from the games screen: no need to ask

    def look_for_unfinished(self, command: LookForUnfinished | None = None) -> None:
        """The current journal, if there is one, replayed in a worker and offered (the resume
        screen); else the start screen."""
        self.play_on = command is not None and command.play_on
        if self.storage.store.has_current():
            self.display.screen = "loading"
            store, post = self.storage.store, self.mailbox.post

            def work() -> None:
                post("resumed", resume(store, lambda entries: Table.replay(
                    entries, progress=lambda i, n: post("resume-progress", i / max(n, 1)))))

            self.mailbox.in_worker("resume", work)
        else:
            self.display.screen = "start"
            self.bus.publish(NothingToResume())
        self.display.changed()

    def progressed(self, fraction: float) -> None:
        self.progress = fraction
        self.display.changed()

    def replayed(self, back: Resumed | None) -> None:
        self.resumed = back
        if back is None:
            self.display.screen = "start"
        elif back.game is None:  # set aside: say why and where, then the start screen
            advice = T.PROBLEM_RESUME_ADVICE.format(where=back.kept) if back.kept else T.PROBLEM_RESUME_KEPT
            self.bus.handle(ShowProblem(Problem("resume", T.PROBLEM_RESUME_TITLE, back.loss, advice)))
            return
        elif back.game.is_over:  # it ended before the power went: scored and filed
            back.journal.close()
            self.bus.publish(GameFinished(back.game.session))
            self.game.archive(back.game)
            self.resumed = None
            self.display.screen = "start"
            self.bus.publish(NothingToResume())
        elif self.play_on:
            self.play_on = False
            self.accept()
            return
        else:
            self.display.screen = "resume"
        self.display.changed()

    def failed(self, reason: str) -> None:
        """The journal could not even be looked at: set it aside, say so, start."""
        where = ""
        try:
            archived = self.storage.store.archive("damaged")
            where = f"{ARCHIVE}/{archived.name}" if archived else ""
        except OSError as e:
            reason += T.NOT_MOVED_ASIDE.format(reason=e.strerror or e)
        advice = T.PROBLEM_RESUME_ADVICE.format(where=where) if where else T.PROBLEM_RESUME_KEPT
        self.bus.handle(ShowProblem(Problem("resume", T.PROBLEM_RESUME_TITLE, reason, advice)))

    def accept(self) -> None:
        """Continue the unfinished game: first the board is set up as the game stands (at
        once when the pieces are still in place), then play goes on where it stopped."""
        back = self.resumed
        if back is None or back.game is None:
            return
        try:
            self.bus.handle(UseBoardFor(back.game.game.game, back.game.game.board_map))
        except CompanionError as e:
            self.display.start_problem = str(e)
            self.discard()
            return
        self.resumed = None
        back.game.attach(back.journal.append)
        self.game.open(back.game, back.journal, resumed=True)
        self.game.begin_setup()

    def discard(self) -> None:
        back = self.resumed
        if back is not None and back.journal is not None:
            back.journal.close()
            self.game.set_aside(f"{back.game.game.game_id}-unfinished" if back.game else "abandoned")
        self.resumed = None
        self.bus.publish(GameClosed(left_match=True))  # its game is put away: the match ends here
        self.display.show("start")


@dataclass(frozen=True)
class ResumeView:
    loading: bool
    progress: float
    title: str
    summary: str
    loss: str


class ResumePresenter:
    def __init__(self, resume: Resume) -> None:
        self.resume = resume

    def accept(self) -> None:
        self.resume.accept()

    def discard(self) -> None:
        self.resume.discard()

    def view(self) -> ResumeView:
        r = self.resume
        back = r.resumed
        if back is None or back.game is None:
            return ResumeView(True, r.progress, T.RESUME_LOADING.format(percent=round(r.progress * 100)), "", "")
        s = getattr(back.game, "session", back.game)
        game = T.GAME_TITLES.get(s.setup.game, s.setup.game)
        board_map = getattr(s.rules, "board_map", None)
        if board_map is not None and getattr(board_map, "seats", None):
            summary = T.RESUME_SUMMARY_MANY.format(game=game, map=_(board_map.title), moves=len(s.moves),
                                                   names=", ".join(seat.name for seat in s.seats))
        else:
            summary = T.RESUME_SUMMARY.format(game=game, white=s.seats[0].name, black=s.seats[1].name,
                                              moves=len(s.moves))
        return ResumeView(False, 1.0, T.RESUME_TITLE, summary, T.RESUME_LOSS.format(loss=back.loss) if back.loss else "")
