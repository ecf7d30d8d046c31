"""The games a board has played, in the app: the list (newest first), a game reviewed move by
move on the screen and on the board's LEDs, an unfinished one taken up again, one deleted,
one or all copied to a USB stick.

:class:`Archive` owns the games screen's list and the game under review. Reading the games
replays every journal (companion/saved_games.py), so it runs in a worker with progress; the list
is kept until a game is saved, deleted or taken up. Taking a game up is the LookForUnfinished
command (the game is offered as after a power cut).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ... import saved_games
from ...board.palette import Meaning
from ...errors import CompanionError
from .. import texts as T
from .board_link import BoardRoom
from .display import Display
from .game_room import GameRoom
from .mailbox import Mailbox
from .messages import Bus, LookForUnfinished, UseBoardFor
from .questions import Prompt, PromptOption
from .storage import Storage


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


class Archive:
    def __init__(self, storage: Storage, display: Display, board: BoardRoom, game: GameRoom, mailbox: Mailbox,
                 bus: Bus) -> None:
        self.storage = storage
        self.display = display
        self.board = board
        self.game = game
        self.mailbox = mailbox
        self.bus = bus
        self.saved: SavedList | None = None  # the games screen's list
        self.review = None  # a saved game under review (saved_games.Review), and its move
        self.review_at = 0

    # ----- the list ----------------------------------------------------------------------------
    def open(self) -> None:
        """The games screen: every saved game, read in a worker (progress on screen)."""
        s = self.game.session
        if s is not None and not s.is_over:
            return  # a game is on: the menu offers the list only between games
        self.display.screen = "games"
        self.saved = self.saved or SavedList()
        self._read()
        self.display.changed()

    def _read(self) -> None:
        state = self.saved
        state.token += 1
        token = state.token
        state.games, state.unreadable, state.read, state.total = None, [], 0, 0
        state.selected = None
        directory, post = self.storage.store.directory, self.mailbox.post

        def work() -> None:
            paths = saved_games.list_games(directory)
            out, bad = [], []
            for i, path in enumerate(paths):
                try:
                    out.append(saved_games.summary(path))
                except (CompanionError, OSError) as e:
                    bad.append((path, str(e)))
                post("games-progress", (token, i + 1, len(paths)))
            post("games-listed", (token, out, bad))

        self.mailbox.in_worker("games", work)

    def progressed(self, value) -> None:
        token, read, total = value
        if self.saved is not None and token == self.saved.token:
            self.saved.read, self.saved.total = read, total
            self.display.changed()

    def listed(self, value) -> None:
        token, games, bad = value
        if self.saved is None or token != self.saved.token:
            return
        self.saved.games, self.saved.unreadable = games, bad
        self.display.changed()

    def select(self, index: int) -> None:
        state = self.saved
        if state is not None and state.games is not None and 0 <= index < len(state.games):
            state.selected = None if state.selected == index else index
            state.notice = ""
            self.display.changed()

    def selected(self):
        state = self.saved
        if state is None or state.games is None or state.selected is None:
            return None
        return state.games[state.selected]

    def close(self) -> None:
        self.display.show("start")

    # ----- review: move by move on the screen and the LEDs -------------------------------------------
    def start_review(self) -> None:
        game = self.selected()
        if game is None:
            return
        try:
            review = saved_games.review(game.path)
            self.bus.handle(UseBoardFor(game.game, game.board_map))
        except (CompanionError, OSError) as e:
            self.saved.notice = T.GAMES_CANNOT_READ.format(reason=getattr(e, "strerror", None) or e)
            self.display.changed()
            return
        self.review = review
        self.review_at = len(review.frames) - 1
        self.display.screen = "review"
        self._review_leds()
        self.display.changed()

    def step(self, step: int) -> None:
        """Move by ``step`` moves (-1, +1), or to the start (-10**9) or the end (+10**9)."""
        r = self.review
        if r is None:
            return
        self.review_at = max(0, min(len(r.frames) - 1, self.review_at + step))
        self._review_leds()
        self.display.changed()

    def _review_leds(self) -> None:
        """The move that led to the position on screen, lit on the board as a last move."""
        _, last, _ = self.review.frames[self.review_at]
        self.board.meanings = {} if not last else {last[0]: Meaning.LAST_MOVE_FROM, last[1]: Meaning.LAST_MOVE_TO}

    def close_review(self) -> None:
        self.review = None
        self.board.meanings = {}
        self.display.show("games")

    # ----- take up, delete, copy ------------------------------------------------------------------
    def take_up(self) -> None:
        """An unfinished game becomes the current one: loaded and offered as after a power cut."""
        game = self.selected()
        if game is None or game.finished:
            return
        try:
            saved_games.take_up(game.path, self.storage.store.directory)
        except (CompanionError, OSError) as e:
            self.saved.notice = T.GAMES_CANNOT_TAKE_UP.format(reason=getattr(e, "strerror", None) or e)
            self.display.changed()
            return
        self.saved = None
        self.bus.handle(LookForUnfinished(play_on=True))  # asked for: once replayed, straight to the set-up

    def ask_delete(self) -> None:
        game = self.selected()
        if game is None:
            return
        self.display.ask(Prompt("delete-game", T.GAMES_DELETE_ASK.format(game=game_title(game)),
                                (PromptOption("yes", T.GAMES_DELETE_YES),)))

    def answer(self, prompt: Prompt, key: str | None) -> None:
        """Display.answers_to: "Delete this game?"."""
        if key == "yes":
            self.delete()

    def delete(self) -> None:
        game = self.selected()
        if game is None:
            return
        try:
            saved_games.delete(game.path)
        except OSError as e:
            self.saved.notice = T.GAMES_CANNOT_DELETE.format(reason=e.strerror or e)
            self.display.changed()
            return
        self._read()
        self.saved.notice = T.GAMES_DELETED
        self.display.changed()

    def export(self, every: bool = False) -> None:
        """The selected game (or every game) copied to the USB stick."""
        state = self.saved
        if state is None or state.games is None:
            return
        chosen = state.games if every else [g for g in [self.selected()] if g is not None]
        if not chosen:
            return
        sticks = self.storage.sticks()
        if not sticks:
            state.notice = T.GAMES_NO_STICK
            self.display.changed()
            return
        target = sticks[0].path / saved_games.STICK_FOLDER
        try:
            copied = saved_games.export([g.path for g in chosen], target)
        except OSError as e:
            state.notice = T.GAMES_CANNOT_COPY.format(reason=e.strerror or e)
            self.display.changed()
            return
        state.notice = T.GAMES_COPIED.format(n=len(chosen), files=len(copied), where=target)
        self.display.changed()


def players_words(names) -> str:
    """"White against Black"; with more players "Blue, Red, Green and Yellow"."""
    if len(names) <= 2:
        return T.PLAYERS_AGAINST.join(names)
    return ", ".join(names[:-1]) + T.PLAYERS_AND + names[-1]


def game_title(g) -> str:
    return f"{T.GAME_TITLES.get(g.game, g.game)}: {players_words(g.players)}"
