"""What the table knows, in one record its rooms share (:class:`TableState`).

Each field names the room that changes it: the clock room (``timing.py``), claims and
penalties (``claims.py``), the arbiter (``arbiter_desk.py``). The record the PGN is written from
(``plies``, ``answers``, ``notes``, ``offers``) is kept here as the rooms play; companion.
tournament.record reads it through the :class:`~companion.tournament.table.Table`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from ...errors import IllegalMoveError
from ...i18n import _
from ...session import GameSetup, Session
from .. import texts as W
from ..clock import Clock
from .events import Note, Penalty, PlyClock, PressNeedsChoice
from .setup import TableSetup


@dataclass(eq=False)
class TableState:
    """The game at the table: the session, how it is played, the clock, the record, and the
    procedures' state."""

    session: Session
    setup: TableSetup
    #: the clock, a value replaced at each change (timing; the arbiter sets and adds time; a
    #: penalty adds time)
    clock: Clock | None = None
    #: a press that waits for the players' choice on the screen (timing)
    pending_press: PressNeedsChoice | None = None
    #: the game came back after a power cut (the table, at a resume)
    power_cut: bool = False
    # --- the record (PGN): the clock after each move, the choices answered after each move
    # (Dungeon: a step; KoL: a trade; Chess 2: a duel and its bids, a king-turn's pass), the
    # sentences for the record, and (moves played, player) of each draw offer
    plies: dict[int, PlyClock] = field(default_factory=dict)  # timing
    answers: dict[int, list[str]] = field(default_factory=dict)  # timing, observing the session
    notes: list[Note] = field(default_factory=list)  # every room, through note()
    offers: list[tuple[int, int]] = field(default_factory=list)  # claims
    # --- claims and penalties: the results tapped, illegal moves per player, penalties given
    taps: dict[int, str] = field(default_factory=dict)  # claims (a move declines the others': timing)
    illegal: dict[int, int] = field(default_factory=dict)  # claims (the arbiter cancels)
    penalties: list[Penalty] = field(default_factory=list)  # claims, the arbiter
    # --- the arbiter's result
    override: tuple[float, ...] | None = None  # a score the session's result cannot say (0-0)
    unfinished: bool = False  # ended by the arbiter without a result
    forfeit: bool = False

    @property
    def game(self) -> GameSetup:
        return self.session.setup

    @property
    def nsides(self) -> int:
        return len(self.session.setup.seats)

    @property
    def tournament(self) -> bool:
        return self.setup.tournament

    @property
    def is_over(self) -> bool:
        return self.session.is_over

    @property
    def coupled(self) -> bool:
        """Is the clock pressed with the moves (tournament, or a clock that presses itself)?"""
        return self.tournament or self.setup.auto_press

    @property
    def category(self) -> str:
        """The time control's category (the penalties depend on it)."""
        control = self.setup.control
        return control.category if control is not None else "standard"

    @property
    def board(self):
        """The session's tracker (in tournament mode a QuietBoard), or None."""
        return self.session.tracker

    def name(self, player: int) -> str:
        seats = self.game.seats
        return seats[player].recorded if 0 <= player < len(seats) else W.COLOURS[player % len(W.COLOURS)]

    def note(self, text: str) -> None:
        """A sentence for the record after the moves played so far."""
        self.notes.append(Note(len(self.session.moves), text))

    def next_after(self, side: int) -> int:
        """The next player after ``side`` still in the game."""
        out = self.session.pos.var("out", ()) or ()
        for step in range(1, self.nsides + 1):
            p = (side + step) % self.nsides
            if p not in out:
                return p
        return side

    def give(self, side: int, ms: int, t: int) -> list:
        """``ms`` more on ``side``'s clock (a penalty's time for the opponent)."""
        if self.clock is None or not self.clock.started:
            return []
        self.clock, events = self.clock.add_time(side, ms, t)
        return events

    # ----- checks the live commands share ------------------------------------------------------------
    def check_live(self) -> None:
        if self.is_over:
            raise IllegalMoveError(_('the game is over'))

    def require_tournament(self, refusal: str) -> None:
        """Refuse with ``refusal`` (marked ``N_``, translated here) outside tournament mode."""
        if not self.tournament:
            raise IllegalMoveError(_(refusal))

    def check_player(self, player: int) -> None:
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < self.nsides:
            raise IllegalMoveError(_("player must be 0 to {last}, got {player!r}").format(last=self.nsides - 1, player=player))


def hand_over(clock: Clock, side: int, t: int, paused: bool = False) -> Clock:
    """The clock runs for ``side`` from ``t`` (after a takeback), paused if asked; the side
    that was thinking keeps what it used."""
    left = list(clock.left)
    if clock.running is not None and not clock.stopped:
        left[clock.running] = max(0, clock.remaining(clock.running, t))
    return replace(clock, left=tuple(left), running=side, since=None if paused else t, spent=0, flagged=None)
