"""The games screen (the games this board has played, newest first) and the review of one,
move by move (companion/app/presenters/archive.py holds the list and the review)."""

from __future__ import annotations

from dataclasses import dataclass

from ...core.moves import Move
from ...session import move_words
from .. import texts as T
from .board import BoardView, position_view
from .archive import Archive, game_title, players_words
from .board_link import BoardRoom
from .display import Display
from .review_analysis import ReviewAnalysis


@dataclass(frozen=True)
class GameRow:
    title: str  # "Combat Chess: White against Black"
    detail: str  # "2026-11-25 10:45 · White wins by checkmate · 11 moves"
    selected: bool
    finished: bool


@dataclass(frozen=True)
class GamesView:
    rows: tuple[GameRow, ...]
    status: str  # "Reading the saved games... 3 of 12", "No games yet.", "12 games"
    notice: str  # the last thing done (copied, deleted) or why it could not be
    selected: bool
    can_take_up: bool
    has_games: bool


@dataclass(frozen=True)
class ReviewView:
    title: str
    players: str
    result: str
    step: str  # "Move 12 of 40: Qxg8" / "The start"
    at_start: bool
    at_end: bool
    problem: str
    analysis: "AnalysisView | None" = None


@dataclass(frozen=True)
class AnalysisView:
    """The analysis of the game under review, as far as it has come."""

    can_start: bool  # not asked for yet: the Analyse button
    progress: float  # 0..1 while it analyses, -1 otherwise
    status: str  # "Analysing: 12 of 40 moves" / "White: 1 blunder, 2 mistakes; Black: ..."
    verdict: str  # the move on screen: "Qg4 was a blunder (-8.7); best was Bxg4"
    kind: str  # that move's class ("blunder", "mistake", "inaccuracy" or "")
    graph: tuple  # (frame, centipawns from the first player's side), clipped
    marks: tuple  # (frame, "blunder" | "mistake"): the dots on the graph
    frames: int  # moves in the game (the graph's width)
    at: int  # the move on screen


class GamesPresenter:
    def __init__(self, archive: Archive) -> None:
        self.archive = archive

    # commands, one per button
    def select(self, index: int) -> None:
        self.archive.select(index)

    def review(self) -> None:
        self.archive.start_review()

    def take_up(self) -> None:
        self.archive.take_up()

    def delete(self) -> None:
        self.archive.ask_delete()

    def copy(self) -> None:
        self.archive.export()

    def copy_all(self) -> None:
        self.archive.export(every=True)

    def back(self) -> None:
        self.archive.close()

    def view(self) -> GamesView:
        state = self.archive.saved
        if state is None or state.games is None:
            read = (state.read, state.total) if state is not None else (0, 0)
            status = T.GAMES_READING.format(read=read[0], total=read[1]) if read[1] else T.GAMES_READING_START
            return GamesView((), status, state.notice if state else "", False, False, False)
        rows = tuple(GameRow(game_title(g), game_detail(g), i == state.selected, g.finished)
                     for i, g in enumerate(state.games))
        status = T.GAMES_NONE if not rows else T.GAMES_COUNT.format(n=len(rows))
        if state.unreadable:
            status += " " + T.GAMES_UNREADABLE.format(n=len(state.unreadable))
        game = self.archive.selected()
        return GamesView(rows, status, state.notice, game is not None, game is not None and not game.finished,
                         bool(rows))


class ReviewPresenter:
    def __init__(self, archive: Archive, board: BoardRoom, display: Display,
                 analysis: ReviewAnalysis | None = None) -> None:
        self.archive = archive
        self.board_room = board  # the LEDs light the move on screen
        self.display = display
        self.analysis = analysis  # each move evaluated, the best alternative lit

    def first(self) -> None:
        self._step(-10 ** 9)

    def back(self) -> None:
        self._step(-1)

    def forward(self) -> None:
        self._step(+1)

    def last(self) -> None:
        self._step(10 ** 9)

    def go_to(self, frame: int) -> None:
        """A tap on the graph: that move."""
        self._step(frame - self.archive.review_at)

    def _step(self, step: int) -> None:
        self.archive.step(step)
        if self.analysis is not None:
            self.analysis.light()

    def analyse(self) -> None:
        if self.analysis is not None:
            self.analysis.start()

    def close(self) -> None:
        if self.analysis is not None:
            self.analysis.stop()
        self.archive.close_review()

    def analysis_view(self) -> AnalysisView | None:
        a, r = self.analysis, self.archive.review
        if a is None or r is None:
            return None
        at = self.archive.review_at
        frames = len(r.frames) - 1
        state = a.analysis
        if state is None or state.review is not r:
            return AnalysisView(True, -1.0, "", "", "", (), (), frames, at)
        marks = tuple((f, m.kind) for f, m in sorted(state.moves.items()) if m.kind in ("blunder", "mistake"))
        if state.failed:
            return AnalysisView(False, -1.0, state.failed, "", "", a.graph(), marks, frames, at)
        if not state.finished:
            status = T.ANALYSING.format(done=state.done, total=state.total)
        else:
            names = r.summary.players
            status = "; ".join(f"{names[p] if p < len(names) else p + 1}: {count_words(a.counts(p))}"
                               for p in range(r.rules.nplayers))
        m = a.at(at) if at else None
        verdict, kind = "", ""
        if m is not None:
            kind = m.kind or ""
            words = T.ANALYSIS_KIND.get(kind, T.ANALYSIS_GOOD)
            verdict = words.format(move=r.frames[at][2], drop=f"{m.drop / 100:.1f}",
                                   best=_best_words(r, at, m))
        return AnalysisView(False, a.progress, status, verdict, kind, a.graph(), marks, frames, at)

    def board(self) -> BoardView | None:
        r = self.archive.review
        if r is None:
            return None
        pos, last, _ = r.frames[self.archive.review_at]
        frame = self.board_room.frame if len(self.board_room.frame) == r.rules.geometry.size else ()
        lit = self.board_room.meanings
        if self.board_room.coach_lights:  # the analysis's best alternative, under the move
            lit = {**self.board_room.coach_lights, **lit}
        return position_view(r.rules, pos, last, frame, lit, self.display.version)

    def view(self) -> ReviewView | None:
        r = self.archive.review
        if r is None:
            return None
        g = r.summary
        at, total = self.archive.review_at, len(r.frames) - 1
        _, _, san = r.frames[at]
        step = T.REVIEW_START.format(total=total) if at == 0 else T.REVIEW_MOVE.format(n=at, total=total, move=san)
        return ReviewView(T.GAME_TITLES.get(g.game, g.game), players_words(g.players), result_words(g),
                          step, at == 0, at == total, g.problem, self.analysis_view())

    def hold(self, square: int) -> None:  # the board's gestures: nothing to move in a review
        pass

    def tap(self, square: int) -> None:
        pass


def count_words(counts: dict[str, int]) -> str:
    """"1 blunder, 2 mistakes" (or "no mistakes")."""
    parts = [T.ANALYSIS_COUNT[k].format(n=n) for k, n in counts.items() if n]
    return ", ".join(parts) if parts else T.ANALYSIS_CLEAN


def _best_words(review, at: int, m) -> str:
    """The best alternative in standard notation where the game has one."""
    if m.best is None:
        return ""
    rules, pos = review.rules, review.frames[at - 1][0]
    try:
        return move_words(rules, pos, m.best) if isinstance(m.best, Move) else m.best_text
    except Exception:  # noqa: BLE001 - a move text is only words on the screen
        return m.best_text


def result_words(g) -> str:
    if not g.finished:
        return T.GAMES_UNFINISHED
    reason = T.RESULT_REASONS.get(g.reason, g.reason)
    if not g.winners:
        return T.RESULT_AND_REASON.format(result=T.DRAW, reason=reason)
    return T.RESULT_AND_REASON.format(result=T.winners_text(g.players[w] for w in g.winners if 0 <= w < len(g.players)),
                                      reason=reason)


def game_detail(g) -> str:
    moves = T.GAMES_MOVES.format(n=g.moves)
    parts = [p for p in (g.started, result_words(g), moves) if p]
    return T.GAMES_DETAIL_SEP.join(parts)
