"""The games screen (the games this board has played, newest first) and the review of one,
move by move (companion/app/presenters/archive.py holds the list and the review)."""

from __future__ import annotations

from dataclasses import dataclass

from .. import texts as T
from .board import BoardView, position_view
from .archive import Archive, game_title, players_words
from .board_link import BoardRoom
from .display import Display


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
    def __init__(self, archive: Archive, board: BoardRoom, display: Display) -> None:
        self.archive = archive
        self.board_room = board  # the LEDs light the move on screen
        self.display = display

    def first(self) -> None:
        self.archive.step(-10 ** 9)

    def back(self) -> None:
        self.archive.step(-1)

    def forward(self) -> None:
        self.archive.step(+1)

    def last(self) -> None:
        self.archive.step(10 ** 9)

    def close(self) -> None:
        self.archive.close_review()

    def board(self) -> BoardView | None:
        r = self.archive.review
        if r is None:
            return None
        pos, last, _ = r.frames[self.archive.review_at]
        frame = self.board_room.frame if len(self.board_room.frame) == r.rules.geometry.size else ()
        return position_view(r.rules, pos, last, frame, self.board_room.meanings, self.display.version)

    def view(self) -> ReviewView | None:
        r = self.archive.review
        if r is None:
            return None
        g = r.summary
        at, total = self.archive.review_at, len(r.frames) - 1
        _, _, san = r.frames[at]
        step = T.REVIEW_START.format(total=total) if at == 0 else T.REVIEW_MOVE.format(n=at, total=total, move=san)
        return ReviewView(T.GAME_TITLES.get(g.game, g.game), players_words(g.players), result_words(g),
                          step, at == 0, at == total, g.problem)

    def hold(self, square: int) -> None:  # the board's gestures: nothing to move in a review
        pass

    def tap(self, square: int) -> None:
        pass


def result_words(g) -> str:
    if not g.finished:
        return T.GAMES_UNFINISHED
    reason = T.RESULT_REASONS.get(g.reason, g.reason)
    if not g.winners:
        return f"{T.DRAW}, {reason}"
    names = T.PLAYERS_AND.join(g.players[w] for w in g.winners if 0 <= w < len(g.players))
    return f"{T.WINS.format(name=names)}, {reason}"


def game_detail(g) -> str:
    moves = T.GAMES_ONE_MOVE if g.moves == 1 else T.GAMES_MOVES.format(n=g.moves)
    parts = [p for p in (g.started, result_words(g), moves) if p]
    return T.GAMES_DETAIL_SEP.join(parts)
