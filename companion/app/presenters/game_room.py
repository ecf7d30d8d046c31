"""The game being played: its session, its table (companion.tournament.table: the clock, the
procedures, the record) and its journal. Casual or tournament, with or without a clock, every
game is played through a table.

:class:`GameRoom` is the one owner of those three. It opens a game (new, loaded from its text,
taken up after a restart), puts it away (filed in games/ when finished, kept as unfinished
otherwise), runs the players' commands on it (:meth:`GameRoom.command`) and publishes every
event the game produces on the bus (:meth:`GameRoom.handle`), where the rooms that show them
subscribe (play.py, computer_turns.py, clock.py, ...). It handles the commands NewGame,
LoadGame and LeaveGame (messages.py).
"""

from __future__ import annotations

from typing import Callable

from ...board.ports import OccupancySnapshot
from ...dice.record import format_record
from ...errors import CompanionError
from ...session import GameSetup, Session, has_dice_fights
from ...tournament.quiet import QuietBoard
from ...tournament.table import Table, TableSetup
from .. import texts as T
from .board_link import BoardRoom
from .display import Display
from .extras import GameExtras, extras_for
from .messages import Bus, GameClosed, GameFiled, GameOpened, LeaveGame, LoadGame, NewGame, PlaySettled, UseBoardFor
from .storage import Storage


class GameRoom:
    def __init__(self, bus: Bus, display: Display, board: BoardRoom, storage: Storage, *, make_tracker: Callable,
                 clock_ms: Callable[[], int], new_game_id: Callable[[], str], new_seed: Callable[[], bytes]) -> None:
        self.bus = bus
        self.display = display
        self.board = board
        self.storage = storage
        self.make_tracker = make_tracker
        self.clock_ms = clock_ms
        self.new_game_id = new_game_id
        self.new_seed = new_seed
        self.session: Session | None = None
        self.table: Table | None = None
        self.journal = None
        self.saved_as = None  # where the finished game was saved (games/<id>.jsonl)

    @property
    def extras(self) -> GameExtras:
        """What the game being played adds to the common screens (companion/app/presenters/extras.py)."""
        s = self.session
        return extras_for(s.setup.game if s is not None else None)

    @property
    def games_folder(self):
        """Where finished games are filed (games/ in the data folder)."""
        return self.storage.games_folder

    @property
    def tracking(self) -> bool:
        """A game is open and its tracker follows the board."""
        return self.session is not None and self.session.tracker is not None

    # ----- opening a game ------------------------------------------------------------------------
    def new_game(self, c: NewGame) -> bool:
        """The NewGame command: the game is journaled, then the board is set up with the LEDs;
        False when it could not start (the start screen says why)."""
        self.close()
        # the dice choices count only where captures are dice fights (Combat Chess, or any game
        # with the "Dice fights" switch on)
        dice, d6_only = (c.dice, c.d6_only) if has_dice_fights(c.game, c.options or {}) else ("virtual", False)
        seed = self.new_seed().hex() if dice == "seeded" else None
        try:
            self.bus.handle(UseBoardFor(c.game, c.board_map))
            setup = GameSetup(c.game, tuple(c.seats), dice, d6_only, c.game_id or self.new_game_id(), seed, c.start,
                              c.board_map, draw_rules=c.draw_rules, options=dict(c.options or {}), bids=c.bids)
        except CompanionError as e:  # a board too small for the map, a wrong set-up: say it
            self.display.start_problem = str(e)
            self.display.show("start")
            return False
        journal = None
        try:
            journal = self.storage.store.create()
            table, _ = Table.new(setup, c.table or TableSetup(), recorder=journal.append)
        except (OSError, CompanionError) as e:  # no game without its journal: say why
            self._drop_journal(journal)
            self.display.start_problem = T.CANNOT_SAVE.format(reason=getattr(e, "strerror", None) or e)
            self.storage.check_space()
            self.display.show("start")
            return False
        self.open(table, journal)
        self.begin_setup()
        return True

    def load(self, c: LoadGame) -> str | None:
        """The LoadGame command: a game read from its text, journaled anew; None when it is
        open (the board is then set up for it), else what went wrong (one line)."""
        table = c.table
        session = table.session
        try:
            self.bus.handle(UseBoardFor(session.setup.game, session.setup.board_map))
        except CompanionError as e:
            return str(e)
        self.close()
        journal = None
        try:
            journal = self.storage.store.create()
            for entry in c.entries:
                journal.append(entry)
        except (OSError, CompanionError) as e:  # no game without its journal: say why
            self._drop_journal(journal)
            self.storage.check_space()
            return T.CANNOT_SAVE.format(reason=getattr(e, "strerror", None) or e)
        table.attach(journal.append)
        self.open(table, journal)
        if session.is_over:
            self.archive(table)
            self.display.show("game_over")
        else:
            self.begin_setup()
        return None

    def open(self, table: Table, journal, *, resumed: bool = False) -> None:
        """``table`` is the game now, ``journal`` its journal; the rooms hear GameOpened (the
        clock room restores a resumed game's clock), then the tracker watches the board."""
        self.session, self.table, self.journal = table.session, table, journal
        self.saved_as = None
        self.bus.publish(GameOpened(table, resumed))
        self.attach_tracker()

    def open_linked(self, session, journal) -> None:
        """A game with a friend's board (companion/app/presenters/link_room.py): ``session`` is
        its face (every command through the link), with no table: the game is the link's."""
        self.session, self.table, self.journal = session, None, journal
        self.saved_as = None
        self.bus.publish(GameOpened(None, False))
        self.attach_tracker()

    def begin_setup(self) -> None:
        self.display.screen = "setup"
        self.handle(self.session.begin_setup())
        self.display.changed()

    def attach_tracker(self) -> None:
        """A new tracker for the session, told at once what the board senses now (it may have
        been set up, or knocked, while no game was running); a fresh snapshot follows."""
        s = self.session
        t = self.clock_ms()
        sensed = self.board.sensed
        if self.table is not None and self.table.tournament:  # no help from the board (FIDE 11.3)
            tracker = QuietBoard(s.rules, s.pos, make_tracker=self.make_tracker, sensed=sensed, t_ms=t,
                                 last_move=self.table.setup.last_move)
        else:
            tracker = self.make_tracker(s.rules, s.pos, sensed=sensed, t_ms=t)
        self.handle(s.attach_tracker(tracker))
        self.handle(s.feed_board(OccupancySnapshot(sensed, t)))
        self.board.request_snapshot()

    def fill_simulated_board(self) -> None:
        """Set the simulated board to what the game expects (no 32 taps to set up)."""
        s = self.session
        if s is not None:
            self.board.set_simulated(s.rules.expected_occupancy(s.pos))

    def _drop_journal(self, journal) -> None:
        if journal is not None:
            journal.close()
            self.storage.store.discard_if_empty()

    # ----- putting it away -----------------------------------------------------------------------
    def leave(self, command: LeaveGame = LeaveGame()) -> None:
        """The LeaveGame command: the game put away (an unfinished game is kept in games/; a
        match is left, and filed as it stands, unless it goes on), the start screen."""
        self.close(left_match=command.leave_match)
        self.display.show("start")

    def close(self, *, left_match: bool = False) -> None:
        """Put the current game away: archived when finished, kept as unfinished otherwise."""
        s = self.session
        if s is not None and self.journal is not None and not self.journal.closed:
            if s.is_over:  # a finished game still open for a takeback (GameSetup.undo_after_end)
                self.archive(self.table if self.table is not None else s)
            else:
                self.journal.close()
                self.set_aside(f"{s.setup.game_id}-unfinished")
        self.session, self.journal, self.table = None, None, None
        self.saved_as = None
        self.bus.publish(GameClosed(left_match))

    def set_aside(self, name: str) -> None:
        """Keep an unfinished game in games/ (a failure leaves it as the current journal)."""
        try:
            self.storage.store.archive(name)
        except OSError as e:
            self.display.start_problem = T.CANNOT_SAVE.format(reason=e)

    def archive(self, game) -> None:
        """A finished game (a table or a session): its journal (and dice record) into games/;
        then GameFiled (its PGN beside it, the round's results for a paired game)."""
        session = getattr(game, "session", game)
        if self.journal is not None:
            self.journal.close()
        extra = {".dice.jsonl": format_record(session.record)} if session.record is not None else None
        try:
            self.saved_as = self.storage.store.archive(session.setup.game_id, extra)
        except OSError as e:  # the game stays in current.jsonl and is archived at the next start
            self.display.notice = T.CANNOT_SAVE.format(reason=e)
        self.bus.publish(GameFiled(game if isinstance(game, Table) else None))

    # ----- playing -----------------------------------------------------------------------------------
    def command(self, action: Callable[[], list]) -> None:
        """A player's command on the game (``action`` returns its events); a refusal is the
        notice line."""
        if self.session is None:
            return
        try:
            events = action()
        except CompanionError as e:
            self.display.notice = str(e)
            self.storage.check_space()
            self.display.changed()
            return
        self.handle(events)
        self.display.changed()

    def handle(self, events: list) -> None:
        """The game's events (with what the table makes of them), each published on the bus;
        then PlaySettled."""
        if self.table is not None and events:
            events = list(events) + self.table.observe(events, self.clock_ms())
        for ev in events:
            self.bus.publish(ev)
        if events:
            self.bus.publish(PlaySettled())
            self.display.changed()

    def feed_board(self, event) -> None:
        if self.session is not None:
            self.handle(self.session.feed_board(event))

    def tick(self, t_ms: int) -> None:
        if self.tracking:
            self.handle(self.session.tick(t_ms))

    def can_undo(self) -> bool:
        """May the players take a move back now (at a table: not in tournament mode, and not
        once a clocked game has ended)?"""
        if self.session is None:
            return False
        return self.table.can_undo() if self.table is not None else self.session.can_undo()

    def correct_position(self, position: str) -> str | None:
        """The arbiter's correction: None when the game goes on from ``position``, else what
        is wrong with it (nothing changes)."""
        s = self.session
        if s is None:
            return T.TEXT_NO_GAME
        try:
            events = s.correct_position(position)
        except CompanionError as e:
            return str(e)
        self.handle(events)
        self.display.changed()
        return None


__all__ = ["GameRoom"]
