"""The app's message bus: the few commands that change the app as a whole, and the events its
rooms tell each other (cosmicpython's message bus, chapter 9, on one thread).

A room (companion/app/presenters/flow.py lists them) changes only its own state. What changes
the app as a whole goes through here:

* **Commands** (imperative, exactly one handler, which may answer): start a game
  (:class:`NewGame`; one whose armies are drafted or chosen first: :class:`DraftDungeon`,
  :class:`ChooseArmies`), open a game loaded from its text (:class:`LoadGame`), leave the game for
  the start screen (:class:`LeaveGame`), open the board for a game's map (:class:`UseBoardFor`),
  show a problem (:class:`ShowProblem`), look for an unfinished game (:class:`LookForUnfinished`).
* **Events** (past tense, any number of subscribers, in the order they subscribed): the app's
  own (:class:`GameOpened`, :class:`GameClosed`, :class:`GameFinished`, :class:`GameFiled`,
  :class:`NothingToResume`, :class:`PlaySettled`), and every event the game and the board produce (the session's
  ``MovePlayed``, the table's ``FlagFell``, the tracker's ``LedsChanged``, the board's
  ``SquareChanged``, ...), published as they are.

The bus runs on the UI thread only; threads post to the Mailbox (mailbox.py) instead. Who
subscribes to what is written in one place: :func:`companion.app.presenters.flow.wire`.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any, Callable

from ...errors import CompanionError
from ...i18n import _


# ----- commands ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class NewGame:
    """Start a game from the start screen's choices (a Dungeon Chess game: from its deployed
    armies, ``start``; a Chess 2 game: its armies in ``options``, how bids are entered)."""

    game: str
    seats: tuple
    dice: str = "virtual"
    d6_only: bool = False
    start: str | None = None
    board_map: str | None = None
    draw_rules: bool = False
    table: Any = None  # companion.tournament.table.TableSetup (None: casual, no clock)
    options: dict = field(default_factory=dict)
    bids: str = "screen"
    game_id: str | None = None


@dataclass(frozen=True)
class DraftDungeon:
    """Put the game away and draft the armies of a Dungeon Chess game on ``board_map``
    (dungeon_setup.py): the game starts once they are deployed, with ``options`` (dice fights)
    and the dice chosen on the start screen."""

    board_map: str
    seats: tuple
    draw_rules: bool = False
    dice: str = "virtual"
    d6_only: bool = False
    options: dict = field(default_factory=dict)


@dataclass(frozen=True)
class DraftLinkedDungeon:
    """Draft the armies of this board's seats (``here``) of a linked Dungeon Chess game unit by
    unit and place them by hand (dungeon_setup.py), on the game's ``rules``; the other board's are
    sealed there. Ends with :class:`LinkedDraftEnded`. ``progress``: the draft as kept before a
    power cut (DungeonPrep.progress), taken up where it was (DraftError: it cannot be)."""

    rules: Any
    seats: tuple
    here: tuple
    progress: Any = None


@dataclass(frozen=True)
class ChooseArmies:
    """Put the game away and choose the armies of a game that is chosen first (Chess 2), or of
    the first game of a match of ``games`` games (match_room.py)."""

    game: str
    seats: tuple
    games: int = 1
    bids: str = "screen"
    table: Any = None


@dataclass(frozen=True)
class LoadGame:
    """Open a game read from its text (companion.gametext.load_table): ``table`` and the
    journal ``entries`` it is written as. Answers None, or what went wrong in one line."""

    table: Any
    entries: tuple


@dataclass(frozen=True)
class LeaveGame:
    """Put the game away and show the start screen; its match, if any, is left and filed too
    (``leave_match``; False: the match goes on with its next game)."""

    leave_match: bool = True


@dataclass(frozen=True)
class UseBoardFor:
    """Open the board for ``game`` on ``board_map`` (a board of another size is opened again;
    CompanionError when it cannot be: the board stays as it was)."""

    game: str
    board_map: str | None = None


@dataclass(frozen=True)
class ShowProblem:
    """Something went wrong out of sight: the problem screen (presenters/problem.py)."""

    problem: Any


@dataclass(frozen=True)
class LookForUnfinished:
    """Replay the current journal, if any, and offer it (``play_on``: asked for from the games
    screen, so straight to the set-up)."""

    play_on: bool = False


@dataclass(frozen=True)
class LinkGame:
    """Start a game with a friend's board (companion/app/presenters/link_room.py): this board
    shows a code; once the boards are paired it proposes this game. ``remote``: the seats at the
    other board."""

    game: str
    seats: tuple
    remote: frozenset
    game_id: str
    board_map: str | None = None
    draw_rules: bool = False
    fights: bool = False
    d6_only: bool = False
    claim_after_s: int = 15 * 60
    #: the game's other open options, as (name, text) pairs (four-player chess's ``mode``)
    options: tuple = ()


@dataclass(frozen=True)
class JoinLink:
    """Join a friend's board: type the code it shows."""


# ----- the app's own events ------------------------------------------------------------------------
@dataclass(frozen=True)
class GameOpened:
    """A game is open (new, loaded, or taken up after a restart: ``resumed``)."""

    table: Any
    resumed: bool = False


@dataclass(frozen=True)
class LinkedDraftEnded:
    """This board's armies of a linked Dungeon Chess game are drafted and placed: ``placed``
    maps each of its seats to (army, [(unit, square)]); None: the player went back to the
    choice of armies."""

    placed: Any = None


@dataclass(frozen=True)
class LinkedDraftChanged:
    """This board's draft of a linked Dungeon Chess game changed (a unit, a seat, a placement):
    ``progress`` (DungeonPrep.progress) is kept so that a power cut loses none of it."""

    progress: Any


@dataclass(frozen=True)
class GameClosed:
    """The game was put away (or a resumed one was not taken up); ``left_match``: its match,
    if any, ends here too."""

    left_match: bool = False


@dataclass(frozen=True)
class GameFinished:
    """A game ended (its result is in ``session``), before it is filed."""

    session: Any


@dataclass(frozen=True)
class GameFiled:
    """A finished game's journal was filed in games/ (``table``: its table, whose records are
    written beside it; None for a game without one)."""

    table: Any


@dataclass(frozen=True)
class ComputerMoveChosen:
    """The computer (or the lichess opponent) chose ``move``; the board now asks a person to make it."""

    move: Any


@dataclass(frozen=True)
class NothingToResume:
    """The app started (or came back) with no game being played."""


@dataclass(frozen=True)
class PlaySettled:
    """A batch of the game's events has been shown: the game's own screen may open, the
    computer may start thinking."""


class Bus:
    """Commands to their one handler, events to their subscribers (by the event's type)."""

    def __init__(self) -> None:
        self._handlers: dict[type, Callable] = {}
        self._subscribers: dict[type, list[Callable]] = defaultdict(list)

    def handles(self, command: type, handler: Callable) -> None:
        if command in self._handlers:
            raise CompanionError(_("{command} has a handler already").format(command=command.__name__))
        self._handlers[command] = handler

    def handle(self, command) -> Any:
        return self._handlers[type(command)](command)

    def subscribe(self, event: type, handler: Callable) -> None:
        self._subscribers[event].append(handler)

    def subscribe_all(self, events: tuple[type, ...], handler: Callable) -> None:
        for event in events:
            self.subscribe(event, handler)

    def publish(self, event) -> None:
        for handler in list(self._subscribers.get(type(event), ())):
            handler(event)


__all__ = ["Bus", "LinkGame", "JoinLink", "NewGame", "DraftDungeon", "ChooseArmies", "LoadGame", "LeaveGame", "UseBoardFor",
           "ShowProblem", "LookForUnfinished", "GameOpened", "GameClosed", "GameFinished", "GameFiled", "ComputerMoveChosen",
           "NothingToResume", "LinkedDraftChanged",
           "PlaySettled"]
