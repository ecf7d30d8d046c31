"""The games a board has played, in the app: the list (newest first), a game reviewed move by
move on the screen and on the board's LEDs, an unfinished one taken up again, one deleted,
one or all copied to a USB stick.

:class:`GamesSteps` is part of companion.app.presenters.flow.AppFlow (a mixin, as DungeonSteps):
the screens' presenters call these methods on the flow. Reading the games replays every
journal (companion/saved_games.py), so it runs in a worker with progress; the list is kept
until a game is saved, deleted or taken up.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ... import saved_games
from ...board.palette import Meaning
from ...errors import CompanionError
from .. import texts as T
from .questions import Prompt, PromptOption


@dataclass
class SavedList:
    """The games screen's state: the summaries (None while they are read), what could not be
    read, the selected game, the last word (copied, deleted)."""

    games: list | None = None
    unreadable: list = field(default_factory=list)  # (path, why)
    read: int = 0
    total: int = 0
    selected: int | None = None
    notice: str = ""
    token: int = 0


class GamesSteps:
    # ----- the list ----------------------------------------------------------------------------
    def open_games(self) -> None:
        """The games screen: every saved game, read in a worker (progress on screen)."""
        if self.session is not None and not self.session.is_over:
            return  # a game is on: the menu offers the list only between games
        self.screen = "games"
        self.saved = getattr(self, "saved", None) or SavedList()
        self._read_games()
        self.changed()

    def _read_games(self) -> None:
        state = self.saved
        state.token += 1
        token = state.token
        state.games, state.unreadable, state.read, state.total = None, [], 0, 0
        state.selected = None
        directory = self.store.directory

        def work() -> None:
            paths = saved_games.list_games(directory)
            out, bad = [], []
            for i, path in enumerate(paths):
                try:
                    out.append(saved_games.summary(path))
                except (CompanionError, OSError) as e:
                    bad.append((path, str(e)))
                self.post("games-progress", (token, i + 1, len(paths)))
            self.post("games-listed", (token, out, bad))

        self.in_worker("games", work)

    def _on_games_progress(self, value) -> None:
        token, read, total = value
        if self.saved is not None and token == self.saved.token:
            self.saved.read, self.saved.total = read, total
            self.changed()

    def _on_games_listed(self, value) -> None:
        token, games, bad = value
        if self.saved is None or token != self.saved.token:
            return
        self.saved.games, self.saved.unreadable = games, bad
        self.changed()

    def select_game(self, index: int) -> None:
        state = self.saved
        if state is not None and state.games is not None and 0 <= index < len(state.games):
            state.selected = None if state.selected == index else index
            state.notice = ""
            self.changed()

    def selected_game(self):
        state = getattr(self, "saved", None)
        if state is None or state.games is None or state.selected is None:
            return None
        return state.games[state.selected]

    def close_games(self) -> None:
        self.screen = "start"
        self.changed()

    # ----- review: move by move on the screen and the LEDs -------------------------------------------
    def review_game(self) -> None:
        game = self.selected_game()
        if game is None:
            return
        try:
            review = saved_games.review(game.path)
            self._use_board_for(game.game, game.board_map)
        except (CompanionError, OSError) as e:
            self.saved.notice = T.GAMES_CANNOT_READ.format(reason=getattr(e, "strerror", None) or e)
            self.changed()
            return
        self.review = review
        self.review_at = len(review.frames) - 1
        self.screen = "review"
        self._review_leds()
        self.changed()

    def review_step(self, step: int) -> None:
        """Move by ``step`` moves (-1, +1), or to the start (-10**9) or the end (+10**9)."""
        r = getattr(self, "review", None)
        if r is None:
            return
        self.review_at = max(0, min(len(r.frames) - 1, self.review_at + step))
        self._review_leds()
        self.changed()

    def _review_leds(self) -> None:
        """The move that led to the position on screen, lit on the board as a last move."""
        r = self.review
        _, last, _ = r.frames[self.review_at]
        self.meanings = {} if not last else {last[0]: Meaning.LAST_MOVE_FROM, last[1]: Meaning.LAST_MOVE_TO}

    def close_review(self) -> None:
        self.review = None
        self.meanings = {}
        self.screen = "games"
        self.changed()

    # ----- take up, delete, copy ------------------------------------------------------------------
    def take_up_game(self) -> None:
        """An unfinished game becomes the current one: loaded and offered as after a power cut."""
        game = self.selected_game()
        if game is None or game.finished:
            return
        try:
            saved_games.take_up(game.path, self.store.directory)
        except (CompanionError, OSError) as e:
            self.saved.notice = T.GAMES_CANNOT_TAKE_UP.format(reason=getattr(e, "strerror", None) or e)
            self.changed()
            return
        self.saved = None
        self.play_on = True  # asked for: once replayed it goes straight to the set-up
        self.look_for_unfinished()

    def ask_delete_game(self) -> None:
        game = self.selected_game()
        if game is None:
            return
        self.prompt = Prompt("delete-game", T.GAMES_DELETE_ASK.format(game=game_title(game)),
                             (PromptOption("yes", T.GAMES_DELETE_YES),))
        self.changed()

    def delete_game(self) -> None:
        game = self.selected_game()
        if game is None:
            return
        try:
            saved_games.delete(game.path)
        except OSError as e:
            self.saved.notice = T.GAMES_CANNOT_DELETE.format(reason=e.strerror or e)
            self.changed()
            return
        self._read_games()
        self.saved.notice = T.GAMES_DELETED
        self.changed()

    def export_games(self, every: bool = False) -> None:
        """The selected game (or every game) copied to the USB stick."""
        state = self.saved
        if state is None or state.games is None:
            return
        chosen = state.games if every else [g for g in [self.selected_game()] if g is not None]
        if not chosen:
            return
        sticks = self.sticks()
        if not sticks:
            state.notice = T.GAMES_NO_STICK
            self.changed()
            return
        target = Path(sticks[0]) / saved_games.STICK_FOLDER
        try:
            copied = saved_games.export([g.path for g in chosen], target)
        except OSError as e:
            state.notice = T.GAMES_CANNOT_COPY.format(reason=e.strerror or e)
            self.changed()
            return
        state.notice = T.GAMES_COPIED.format(n=len(chosen), files=len(copied), where=target)
        self.changed()


def players_words(names) -> str:
    """"White against Black"; with more players "Blue, Red, Green and Yellow"."""
    if len(names) <= 2:
        return T.PLAYERS_AGAINST.join(names)
    return ", ".join(names[:-1]) + T.PLAYERS_AND + names[-1]


def game_title(g) -> str:
    return f"{T.GAME_TITLES.get(g.game, g.game)}: {players_words(g.players)}"



