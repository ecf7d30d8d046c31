"""The :class:`Table`: one small façade over the table's rooms.

It owns the table's journal: every live command of a room becomes one entry, checked
(``dry``), written, then applied; replaying a journal applies the same entries with the clock's
virtual time rebuilt from their ``spent``. Each entry type goes to the room that owns it
(:meth:`Table._apply`); the rooms do the work.
"""

from __future__ import annotations

from typing import Callable, Sequence

from ...errors import CompanionError, IllegalMoveError, RecordError
from ...i18n import _, pgettext
from ...session import GameSetup, Session, start_from_json
from ..clock import Clock
from .arbiter_desk import ArbiterDesk
from .claims import Claims
from .events import PowerRestored
from .setup import TableSetup, check_setup, rules_at_table
from .state import TableState
from .timing import TableClock

TABLE_TYPES = ("clock-start", "press", "illegal", "pause", "resume", "flag", "offer-draw", "result", "claim",
               "resign", "arbiter")
#: Types a session action has too (a casual draw offer, a resignation made on the session): a
#: table entry always carries ``spent``, a session action never does.
SHARED_TYPES = frozenset({"offer-draw", "resign"})


class Table:
    """A game at the table; build it with :meth:`new` or :meth:`replay`.

    Its rooms: ``st`` (what the table knows, shared), ``timing`` (the clock), ``claims``
    (claims, offers, agreed results, penalties), ``arbiter_desk`` (the arbiter's actions)."""

    def __init__(self, session: Session, setup: TableSetup) -> None:
        check_setup(session.setup, setup)
        control = setup.control
        clock = Clock.new(control, len(session.setup.seats)) if control is not None else None
        self.st = TableState(session, setup, clock)
        self.timing = TableClock(self.st, self._do)
        self.claims = Claims(self.st, self._do, self.timing)
        self.arbiter_desk = ArbiterDesk(self.st, self._do, self.timing, self.claims)
        #: which room applies each table entry (TABLE_TYPES)
        self._handlers = {
            "clock-start": self.timing.apply_clock_start, "press": self.timing.apply_press,
            "pause": self.timing.apply_pause, "resume": self.timing.apply_resume, "flag": self.timing.apply_flag,
            "illegal": self.claims.apply_illegal, "offer-draw": self.claims.apply_offer_draw,
            "result": self.claims.apply_result, "claim": self.claims.apply_claim, "resign": self.claims.apply_resign,
            "arbiter": self.arbiter_desk.apply,
        }
        self.recorder: Callable[[dict], None] | None = None
        self._vnow = 0  # replay: the clock's virtual time
        #: every entry after the table entry, as journaled (session actions and table entries,
        #: takebacks included: the time spent on a move taken back stays spent), each with the
        #: player to move before it; companion.gametext writes a clocked game's text from it
        self.entries: list[tuple[dict, int]] = []

    # ----- construction ----------------------------------------------------------------------------
    @classmethod
    def new(cls, game: GameSetup, setup: TableSetup, *, recorder: Callable[[dict], None] | None = None,
            source=None) -> tuple[Table, list]:
        """A fresh game: the session's start entry, then the table entry, are written first."""
        check_setup(game, setup)
        session, events = Session.new(game, rules=rules_at_table(game, setup), recorder=recorder, source=source)
        if recorder is not None:
            recorder(setup.to_json())
        table = cls(session, setup)
        table.attach(recorder)
        return table, events

    @classmethod
    def blank(cls, game: GameSetup, setup: TableSetup, *, source=None) -> Table:
        """A table with nothing played and nothing journaled, to replay entries on (a journal, a
        game's text); CompanionError when the game cannot be played at such a table."""
        return cls(Session(game, rules=rules_at_table(game, setup), source=source), setup)

    @classmethod
    def replay(cls, entries: Sequence[dict], *, source=None,
               progress: Callable[[int, int], None] | None = None,
               after: Callable[[Session], None] | None = None) -> tuple[Table, int, str | None]:
        """Rebuild a game from its journal: ``(table, used, problem)`` as Session.replay, and
        ``after(session)`` at the start and after each entry (a review keeps the positions). A journal without a
        table entry (written before tables) is a casual game without clock."""
        if not entries:
            raise RecordError(_('the journal is empty: it has no start entry'))
        game = start_from_json(entries[0], _("journal entry {n}").format(n=1))
        rest = list(entries[1:])
        setup = TableSetup()
        used = 1
        if rest and isinstance(rest[0], dict) and rest[0].get("type") == "table":
            setup = TableSetup.from_json(rest[0], _("journal entry {n}").format(n=2))
            rest = rest[1:]
            used = 2
        try:
            table = cls.blank(game, setup, source=source)
        except CompanionError as e:
            raise RecordError(_("{where}: {problem}").format(where=_("journal entry {n}").format(n=2), problem=e)) from None
        if after is not None:
            after(table.session)
        for i, entry in enumerate(rest, start=used + 1):
            try:
                table.apply_entry(entry, _("journal entry {n}").format(n=i))
            except CompanionError as e:
                return table, used, str(e)
            used += 1
            if after is not None:
                after(table.session)
            if progress is not None:
                progress(used, len(entries))
        return table, used, None

    def attach(self, recorder: Callable[[dict], None] | None) -> None:
        """Journal new entries with ``recorder`` (the session's too)."""
        self.recorder = recorder
        self.session.recorder = self._session_entry
        if self.setup.auto_press:
            self.session.on_move_detected = self.timing.detected

    def _session_entry(self, entry: dict) -> None:
        """A session action made outside a table entry (a move the tracker saw, a takeback):
        journaled, then kept in :attr:`entries`."""
        if self.recorder is not None:
            self.recorder(entry)
        self.entries.append((entry, self.session.turn))

    # ----- what the table knows (its state, read here; see TableState) ------------------------------
    session = property(lambda self: self.st.session)
    setup = property(lambda self: self.st.setup)
    game = property(lambda self: self.st.game, doc="The session's set-up.")
    clock = property(lambda self: self.st.clock)
    pending_press = property(lambda self: self.st.pending_press)
    power_cut = property(lambda self: self.st.power_cut)
    plies = property(lambda self: self.st.plies)
    answers = property(lambda self: self.st.answers)
    notes = property(lambda self: self.st.notes)
    offers = property(lambda self: self.st.offers)
    taps = property(lambda self: self.st.taps)
    illegal = property(lambda self: self.st.illegal)
    penalties = property(lambda self: self.st.penalties)
    override = property(lambda self: self.st.override)
    unfinished = property(lambda self: self.st.unfinished)
    forfeit = property(lambda self: self.st.forfeit)
    tournament = property(lambda self: self.st.tournament)
    is_over = property(lambda self: self.st.is_over)
    nsides = property(lambda self: self.st.nsides)

    @property
    def is_default(self) -> bool:
        """Casual, no clock, nothing for a record: the game is the session's alone."""
        return self.setup == TableSetup()

    @property
    def is_timed(self) -> bool:
        """A clock or tournament procedures: the table's own entries are part of the game (a
        casual game without a clock has none a session action does not say as well)."""
        return self.clock is not None or self.tournament

    # ----- queries ---------------------------------------------------------------------------------
    def clock_view(self, t: int):
        return self.clock.view(t) if self.clock is not None else None

    def score(self) -> tuple[float, ...] | None:
        """Points per player once the game is over (None while it goes on, or ended unfinished)."""
        result = self.session.result
        if result is None or self.unfinished:
            return None
        if self.override is not None:
            return self.override
        n = self.nsides
        if not result.winners:
            return tuple(1 / n for _ in range(n))
        share = 1 / len(result.winners)
        return tuple(share if p in result.winners else 0.0 for p in range(n))

    def result_code(self) -> str:
        """The PGN result: 1-0, 0-1, 1/2-1/2, or * (unfinished, 0-0, more than two players)."""
        score = self.score()
        if score is None or len(score) != 2:
            return "*"
        return {(1.0, 0.0): "1-0", (0.0, 1.0): "0-1", (0.5, 0.5): "1/2-1/2"}.get(tuple(score), "*")

    def can_undo(self) -> bool:
        """May the players take a move back (Table.undo)? Not in tournament mode (the arbiter's
        takeback only), and not after a clocked game ended: its clock has stopped for good."""
        if self.tournament or (self.clock is not None and self.is_over):
            return False
        return self.session.can_undo()

    def can_press(self, side: int) -> bool:
        """May ``side`` tap its half of the clock now (its clock runs, or it starts the other's)?"""
        return self.timing.can_press(side)

    # ----- live commands (each journals one entry, then applies it): the rooms' ------------------------
    def start_clock(self, t: int) -> list:
        """White's clock starts (a tap on Black's half, as on a real clock)."""
        return self.timing.start_clock(t)

    def press(self, side: int, t: int) -> list:
        """``side`` taps its half of the clock at ``t`` (TableClock.press)."""
        return self.timing.press(side, t)

    def complete_press(self, option: str, t: int) -> list:
        """The choice a press waited for (a move text of PressNeedsChoice)."""
        return self.timing.complete_press(option, t)

    def cancel_press(self) -> None:
        self.st.pending_press = None

    def pause(self, t: int, by: str = "player") -> list:
        return self.timing.pause(t, by)

    def resume(self, t: int) -> list:
        return self.timing.resume(t)

    def tick(self, t: int) -> list:
        """Time passed: a flag that has fallen is shown (and ends the game) at once."""
        return self.timing.tick(t)

    def offer_draw(self, player: int, t: int) -> list:
        """FIDE 9.1.2: the offer is recorded "(=)"; it stands until the opponent moves."""
        return self.claims.offer_draw(player, t)

    def tap_result(self, player: int, result: str | None, t: int) -> list:
        """``player`` taps a result (None takes the tap back); both tapping the same ends the
        game with it (FIDE 8.7)."""
        return self.claims.tap_result(player, result, t)

    def claim(self, player: int, kind: str, t: int) -> list:
        """The player to move claims a draw (FIDE 9.2, 9.3)."""
        return self.claims.claim(player, kind, t)

    def resign(self, player: int, t: int) -> list:
        return self.claims.resign(player, t)

    def arbiter(self, op: str, t: int, **args) -> list:
        """An arbiter's action (behind the PIN on the screen): see ARBITER_OPS."""
        return self.arbiter_desk.act(op, t, **args)

    def undo(self, t: int) -> list:
        """A player's takeback (casual play only; the arbiter's is :meth:`arbiter` takeback)."""
        if self.tournament:
            raise IllegalMoveError(_('in tournament mode only the arbiter can take moves back'))
        if self.clock is not None and self.is_over:
            raise IllegalMoveError(_('the game is over and its clock has stopped; start a new one'))
        events = self.session.undo()
        return events + self.observe(events, t)

    def after_power_cut(self, spent: int | None, t: int) -> list:
        """After a resume: the clock that was counting when the power went is paused where it
        stood (``spent``: the running side's time on its move at the last checkpoint; None:
        the last entry's), so the time the board was off counts against nobody."""
        self.st.power_cut = True
        c = self.clock
        if c is None or self.is_over or not c.counting:
            return [PowerRestored(self.clock.view(t).times if c is not None else ())]
        if spent is None or spent < c.spent:
            spent = c.elapsed(self._vnow)
        entry = {"type": "pause", "why": "power", "spent": spent}
        if self.recorder is not None:
            self.recorder(entry)
        events = self.apply_entry(entry)
        return events + [PowerRestored(self.clock.view(self._vnow).times)]

    def observe(self, events: list, t: int) -> list:
        """React to what the session did (TableClock.observe): derived only, nothing journaled."""
        return self.timing.observe(events, t)

    # ----- the journal: applying entries (live and replay) ----------------------------------------------
    def apply_entry(self, entry: dict, where: str | None = None) -> list:
        """Apply one journaled entry (a table entry or a session action) while replaying."""
        where = pgettext("where in a record", "journal entry") if where is None else where
        if not isinstance(entry, dict):
            raise RecordError(_("{where}: expected a JSON object").format(where=where))
        kind = entry.get("type")
        turn = self.session.turn
        if kind not in TABLE_TYPES or (kind in SHARED_TYPES and "spent" not in entry):
            events = self.session.apply_entry(entry, where)
            events += self.observe(events, self._vnow)
        else:
            t = self._replay_time(entry, where)
            events = self._apply(entry, t, where)
        self.entries.append((entry, turn))
        return events

    def _do(self, entry: dict, t: int) -> list:
        """Journal ``entry`` (with the running side's time on its move) and apply it at ``t``."""
        c = self.clock
        entry = dict(entry)
        entry["spent"] = c.elapsed(t) if c is not None and c.counting else None
        self._apply(entry, t, "entry", dry=True)  # refuse before anything is written
        if self.recorder is not None:
            try:
                self.recorder(entry)
            except OSError as e:
                raise RecordError(_("the game could not be saved ({reason}); nothing was changed").format(reason=e.strerror or e)) from e
        self.entries.append((entry, self.session.turn))
        events = self._apply(entry, t, "entry")
        if entry["type"] == "illegal":
            board = self.st.board
            if board is not None and hasattr(board, "illegal_completed"):
                events += self.session.board.route(board.illegal_completed())
        return events

    def _replay_time(self, entry: dict, where: str) -> int:
        spent = entry.get("spent")
        c = self.clock
        if spent is not None:
            if isinstance(spent, bool) or not isinstance(spent, int) or spent < 0:
                raise RecordError(_("{where}: 'spent' must be a whole number of milliseconds").format(where=where))
            if c is not None and c.counting:
                self._vnow = max(self._vnow, c.since + spent - c.spent)
        return self._vnow

    def _apply(self, entry: dict, t: int, where: str, dry: bool = False) -> list:
        return self._handlers[entry["type"]](entry, t, where, dry)
