"""A game at the table: the session, the chess clock, the FIDE procedures and the arbiter.

:class:`Table` wraps a :class:`companion.session.Session` the way the session wraps the rules:
every change is an *entry* written to the journal before it takes effect, and replaying the
journal rebuilds the table exactly. The journal of a game at the table is the session's
(start entry first) with a ``table`` entry second (:class:`TableSetup`: casual or tournament,
the time control, the event, round, board and ratings), then session actions and table
entries in the order they happened.

Every table entry carries ``spent``: how long the side whose clock runs had been thinking on
this move when it happened (null while no clock counts). Timestamps never reach the journal
(the monotonic clock starts again after a power cut); replaying the ``spent`` values gives the
clock back to the millisecond.

Modes:

* **casual**: the session plays the moves the tracker sees. The clock (optional) is pressed by
  tapping it, or presses itself when the tracker has seen a complete legal move
  (``auto_press``: the move and the press are one entry).
* **tournament** (FIDE chess and Combat Chess; Chess 2 joins through
  :data:`TOURNAMENT_GAMES`): the board gives no help (companion.tournament.quiet), the move is
  judged when the clock is pressed, an illegal move is penalised, threefold repetition and
  fifty moves are claimed, a draw offer is recorded and accepted by both players tapping the
  same result, and there is no computer and no undo except the arbiter's.

The FIDE article for each procedure is in docs/tournament.md.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Any, Callable, Sequence

from ..core.moves import Move
from ..errors import ClockError, CompanionError, IllegalMoveError, RecordError
from ..session import _Fields  # the journal's strict JSON reading, shared
from ..session import (
    Adjudicate, AnswerPlayed, FightEnded, FightStarted, GameOver, GameSetup, GameStarted, PlayMove, Resign, Session, TurnsUndone,
    Undo, rules_for, start_from_json, start_to_json,
)
from . import texts as W
from .clock import Clock, FlagFell, format_time
from .laws import CLAIMS, CLAIM_REASONS, ClaimedDraws, can_win, judge_claim, penalty_ms
from .timecontrol import TimeControl, parse_time_control

MODES = ("casual", "tournament")
#: Games a tournament may be played in with the board's help switched off. Chess 2 joins here
#: when its engine lands (its duels are commented through companion.tournament.record).
TOURNAMENT_GAMES = frozenset({"chess", "combat"})
RESULT_CODES = ("1-0", "0-1", "1/2-1/2")
#: What the arbiter may set: the usual results, forfeits ("+-": White wins by forfeit, "--":
#: both forfeit) and 0-0 (both lose).
ARBITER_RESULTS = ("1-0", "0-1", "1/2-1/2", "+-", "-+", "--", "0-0")
ARBITER_OPS = ("set-time", "add-time", "set-moves", "pause", "resume", "penalty", "cancel-penalty", "result",
               "takeback", "end")
TABLE_TYPES = ("clock-start", "press", "illegal", "pause", "resume", "flag", "offer-draw", "result", "claim",
               "resign", "arbiter")
#: Types a session action has too (a casual draw offer, a resignation made on the session): a
#: table entry always carries ``spent``, a session action never does.
SHARED_TYPES = frozenset({"offer-draw", "resign"})
MAX_TEXT = 200


# ----- the set-up -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TableSetup:
    """How the game is played at this table, and who for which event (the PGN tags)."""

    mode: str = "casual"
    time_control: str | None = None
    auto_press: bool = False
    last_move: bool = True
    event: str = ""
    site: str = ""
    date: str = ""
    round: str = ""
    board: str = ""
    ratings: tuple[int | None, ...] = ()
    ids: tuple[str, ...] = ()
    #: the pairing file the game came from, as "trf:<name>" or "csv:<name>" ("": none); the
    #: players' ids are then their starting ranks (TRF) or the file's ids (CSV)
    source: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "ratings", tuple(self.ratings))
        object.__setattr__(self, "ids", tuple(self.ids))
        if self.mode not in MODES:
            raise ClockError(f"the mode is casual or tournament, got {self.mode!r}")
        if self.time_control is not None:
            parse_time_control(self.time_control)
        if self.auto_press and self.mode != "casual":
            raise ClockError("the clock presses itself in casual play only")
        if self.auto_press and self.time_control is None:
            raise ClockError("a clock that presses itself needs a time control")
        if self.mode == "tournament" and self.time_control is None:
            raise ClockError("a tournament game needs a clock: the move is completed by pressing it")
        for name in ("event", "site", "date", "round", "board", "source"):
            value = getattr(self, name)
            if not isinstance(value, str) or len(value) > MAX_TEXT or "\n" in value:
                raise ClockError(f"{name} must be one line of text (at most {MAX_TEXT} characters), got {value!r}")
        for r in self.ratings:
            if r is not None and (isinstance(r, bool) or not isinstance(r, int) or not 0 <= r <= 4000):
                raise ClockError(f"a rating is a whole number from 0 to 4000, got {r!r}")
        for i in self.ids:
            if not isinstance(i, str) or len(i) > 40:
                raise ClockError(f"a player id is short text, got {i!r}")

    @property
    def control(self) -> TimeControl | None:
        return parse_time_control(self.time_control) if self.time_control is not None else None

    @property
    def tournament(self) -> bool:
        return self.mode == "tournament"

    def to_json(self) -> dict[str, Any]:
        return {"type": "table", "version": 1, "mode": self.mode, "time_control": self.time_control,
                "auto_press": self.auto_press, "last_move": self.last_move, "event": self.event, "site": self.site,
                "date": self.date, "round": self.round, "board": self.board, "ratings": list(self.ratings),
                "ids": list(self.ids), "source": self.source}

    @classmethod
    def from_json(cls, value: Any, where: str = "table") -> TableSetup:
        keys = ("type", "version", "mode", "time_control", "auto_press", "last_move", "event", "site", "date",
                "round", "board", "ratings", "ids", "source")
        f = _Entry(value, where, keys)
        if f.value["version"] != 1:
            raise RecordError(f"{where}: table version {f.value['version']!r} is not known (this companion reads 1)")
        ratings = f.value["ratings"]
        ids = f.value["ids"]
        if not isinstance(ratings, list) or not isinstance(ids, list):
            raise RecordError(f"{where}: 'ratings' and 'ids' must be lists")
        try:
            return cls(f.text("mode"), f.optional_text("time_control"), f.flag("auto_press"), f.flag("last_move"),
                       f.text("event"), f.text("site"), f.text("date"), f.text("round"), f.text("board"),
                       tuple(ratings), tuple(ids), f.text("source"))
        except CompanionError as e:
            raise RecordError(f"{where}: {e}") from None


# ----- what the table tells the screen ------------------------------------------------------------------


@dataclass(frozen=True)
class PressNeedsChoice:
    """The board shows a move the sensors cannot finish: the promotion piece, or which of two
    captures. ``options`` are move texts; the press completes with :meth:`Table.complete_press`."""

    side: int
    kind: str  # "promotion" or "which-move"
    options: tuple[str, ...]


@dataclass(frozen=True)
class IllegalMoveCaught:
    side: int
    what: str
    count: int
    penalty_ms: int  # time given to the opponent (0 when the game ended)


@dataclass(frozen=True)
class ClaimJudged:
    player: int
    kind: str
    correct: bool
    penalty_ms: int


@dataclass(frozen=True)
class DrawOfferMade:
    player: int


@dataclass(frozen=True)
class ResultTapped:
    player: int
    result: str | None


@dataclass(frozen=True)
class ArbiterActed:
    text: str


@dataclass(frozen=True)
class PowerRestored:
    """The game came back after a power cut with the clock paused at ``times``."""

    times: tuple[int, ...]


@dataclass(frozen=True)
class PlyClock:
    """The clock after a move: what the mover had left, and what the move took."""

    left_ms: int
    spent_ms: int


@dataclass(frozen=True)
class Note:
    """A sentence for the record after ``ply`` moves (0: before the first)."""

    ply: int
    text: str


@dataclass
class Penalty:
    """A penalty given (an illegal move, a wrong claim, the arbiter's): who got how much."""

    offender: int
    beneficiary: int
    ms: int
    illegal: bool
    cancelled: bool = False


# ----- the table ---------------------------------------------------------------------------------------


class Table:
    """A game at the table; build it with :meth:`new` or :meth:`replay`."""

    def __init__(self, session: Session, setup: TableSetup) -> None:
        self.session = session
        self.setup = setup
        self.game = session.setup
        check_setup(self.game, setup)
        control = setup.control
        self.clock: Clock | None = Clock.new(control, len(self.game.seats)) if control is not None else None
        self.recorder: Callable[[dict], None] | None = None
        self.plies: dict[int, PlyClock] = {}
        #: the choices answered after each move, in order (Dungeon: a step; KoL: a trade; Chess 2:
        #: a duel and its bids, a king-turn's pass)
        self.answers: dict[int, list[str]] = {}
        self.notes: list[Note] = []
        self.offers: list[tuple[int, int]] = []  # (moves played, player) of each draw offer
        self.taps: dict[int, str] = {}
        self.illegal: dict[int, int] = {}
        self.penalties: list[Penalty] = []
        self.override: tuple[float, ...] | None = None  # a score the session's result cannot say (0-0)
        self.unfinished = False  # ended by the arbiter without a result
        self.forfeit = False
        self.pending_press: PressNeedsChoice | None = None
        self.power_cut = False
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
        session, events = Session.new(game, rules=_rules_for(game, setup), recorder=recorder, source=source)
        if recorder is not None:
            recorder(setup.to_json())
        table = cls(session, setup)
        table.attach(recorder)
        return table, events

    @classmethod
    def blank(cls, game: GameSetup, setup: TableSetup, *, source=None) -> Table:
        """A table with nothing played and nothing journaled, to replay entries on (a journal, a
        game's text); CompanionError when the game cannot be played at such a table."""
        return cls(Session(game, rules=_rules_for(game, setup), source=source), setup)

    @classmethod
    def replay(cls, entries: Sequence[dict], *, source=None,
               progress: Callable[[int, int], None] | None = None,
               after: Callable[[Session], None] | None = None) -> tuple[Table, int, str | None]:
        """Rebuild a game from its journal: ``(table, used, problem)`` as Session.replay, and
        ``after(session)`` at the start and after each entry (a review keeps the positions). A journal without a
        table entry (written before tables) is a casual game without clock."""
        if not entries:
            raise RecordError("the journal is empty: it has no start entry")
        game = start_from_json(entries[0], "journal entry 1")
        rest = list(entries[1:])
        setup = TableSetup()
        used = 1
        if rest and isinstance(rest[0], dict) and rest[0].get("type") == "table":
            setup = TableSetup.from_json(rest[0], "journal entry 2")
            rest = rest[1:]
            used = 2
        try:
            table = cls.blank(game, setup, source=source)
        except CompanionError as e:
            raise RecordError(f"journal entry 2: {e}") from None
        if after is not None:
            after(table.session)
        for i, entry in enumerate(rest, start=used + 1):
            try:
                table.apply_entry(entry, f"journal entry {i}")
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
            self.session.on_move_detected = self._detected

    def _session_entry(self, entry: dict) -> None:
        """A session action made outside a table entry (a move the tracker saw, a takeback):
        journaled, then kept in :attr:`entries`."""
        if self.recorder is not None:
            self.recorder(entry)
        self.entries.append((entry, self.session.turn))

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
    @property
    def tournament(self) -> bool:
        return self.setup.tournament

    @property
    def is_over(self) -> bool:
        return self.session.is_over

    @property
    def nsides(self) -> int:
        return len(self.game.seats)

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
        c = self.clock
        if c is None or self.is_over or self.pending_press is not None:
            return False
        if not c.started:
            return side == self.nsides - 1 if self.nsides == 2 else side == 0
        return c.running == side and c.counting and c.flagged is None

    # ----- live commands (each journals one entry, then applies it) -------------------------------------
    def start_clock(self, t: int) -> list:
        """White's clock starts (a tap on Black's half, as on a real clock)."""
        if self.clock is None:
            raise ClockError("this game has no clock")
        if self.clock.started:
            raise ClockError("the clock is already running")
        return self._do({"type": "clock-start", "side": self.session.turn}, t)

    def press(self, side: int, t: int) -> list:
        """``side`` taps its half of the clock at ``t``. In tournament mode the board is judged
        (the press completes the move, FIDE 6.2.1); in casual play it is a plain press."""
        if self.clock is None:
            raise ClockError("this game has no clock")
        if not self.clock.started:
            if self.can_press(side):
                return self.start_clock(t)
            raise ClockError("the clock has not been started")
        self._live_check(t)
        flag = self._flag_if_due(t)
        if flag is not None:
            return flag
        if self.clock.running != side:
            raise ClockError("it is not this side's clock that runs")
        if not self.clock.counting:
            raise ClockError("the clock is paused")
        if self.pending_press is not None:
            raise IllegalMoveError("choose on the screen first")
        if not self.tournament:
            return self._do({"type": "press", "side": side, "move": None}, t)
        board = self._board()
        verdict = board.complete(t)
        from .quiet import BoardShowsMove

        if isinstance(verdict, BoardShowsMove):
            if verdict.needs_choice:
                texts = tuple(self.session.rules.move_text(self.session.pos, m) for m in verdict.moves)
                self.pending_press = PressNeedsChoice(side, "promotion" if verdict.is_promotion else "which-move", texts)
                return [self.pending_press]
            return self._press_move(side, verdict.moves[0], t)
        return self._do({"type": "illegal", "side": side, "what": verdict.what}, t)

    def complete_press(self, option: str, t: int) -> list:
        """The choice a press waited for (a move text of :class:`PressNeedsChoice`)."""
        pending = self.pending_press
        if pending is None:
            raise IllegalMoveError("no press is waiting for a choice")
        if option not in pending.options:
            raise IllegalMoveError(f"{option!r} is not one of the choices ({', '.join(pending.options)})")
        self.pending_press = None
        flag = self._flag_if_due(t)
        if flag is not None:
            return flag
        move = self.session.rules.parse_move(self.session.pos, option)
        return self._press_move(pending.side, move, t)

    def cancel_press(self) -> None:
        self.pending_press = None

    def pause(self, t: int, by: str = "player") -> list:
        if self.clock is None or not self.clock.counting:
            return []
        flag = self._flag_if_due(t)
        if flag is not None:
            return flag
        return self._do({"type": "pause", "why": by}, t)

    def resume(self, t: int) -> list:
        if self.clock is None or not self.clock.paused or self.is_over:
            return []
        if self.session.pos.pending is not None and self._coupled:
            raise ClockError("the clock starts again when the fight is over")
        return self._do({"type": "resume"}, t)

    def tick(self, t: int) -> list:
        """Time passed: a flag that has fallen is shown (and ends the game) at once."""
        if self.clock is None or self.is_over:
            return []
        return self._flag_if_due(t) or []

    def offer_draw(self, player: int, t: int) -> list:
        """FIDE 9.1.2: the offer is recorded "(=)"; it stands until the opponent moves."""
        self._require_tournament("draw offers are recorded")
        self._check_player(player)
        self._live_check(t)
        if self.offers and self.offers[-1] == (len(self.session.moves), player):
            raise IllegalMoveError("this draw offer is already made")
        return self._do({"type": "offer-draw", "player": player}, t)

    def tap_result(self, player: int, result: str | None, t: int) -> list:
        """``player`` taps a result (None takes the tap back); both tapping the same ends the
        game with it (FIDE 8.7)."""
        self._require_tournament("results are agreed")
        self._check_player(player)
        if result is not None and result not in RESULT_CODES:
            raise IllegalMoveError(f"a result is one of {', '.join(RESULT_CODES)}, got {result!r}")
        self._live_check(t)
        return self._do({"type": "result", "player": player, "result": result}, t)

    def claim(self, player: int, kind: str, t: int) -> list:
        """The player to move claims a draw (FIDE 9.2, 9.3): on the move the board shows (not
        yet pressed), or on the position if the board shows none."""
        self._require_tournament("draws are claimed")
        self._check_player(player)
        if kind not in CLAIMS:
            raise IllegalMoveError(f"a claim is one of {', '.join(CLAIMS)}, got {kind!r}")
        self._live_check(t)
        if player != self.session.turn or self.session.pos.pending is not None:
            raise IllegalMoveError("only the player to move may claim a draw")
        move_text = None
        from .quiet import BoardShowsMove

        board = self.session.tracker
        if board is not None and hasattr(board, "complete"):
            verdict = board.complete(t)
            if isinstance(verdict, BoardShowsMove):
                if verdict.needs_choice:
                    raise IllegalMoveError("the move on the board needs a choice: press the clock or put it back")
                move_text = self.session.rules.move_text(self.session.pos, verdict.moves[0])
        return self._do({"type": "claim", "player": player, "kind": kind, "move": move_text}, t)

    def resign(self, player: int, t: int) -> list:
        self._check_player(player)
        self._live_check(t)
        if len(self.game.seats) > 2:
            raise IllegalMoveError("with more than two players nobody can resign: play on until one King is left")
        return self._do({"type": "resign", "player": player}, t)

    def arbiter(self, op: str, t: int, **args) -> list:
        """An arbiter's action (behind the PIN on the screen): see ARBITER_OPS."""
        if op not in ARBITER_OPS:
            raise IllegalMoveError(f"unknown arbiter action {op!r}")
        entry = {"type": "arbiter", "op": op, **args, "spent": None}
        self._check_arbiter(entry)
        return self._do(entry, t)

    def undo(self, t: int) -> list:
        """A player's takeback (casual play only; the arbiter's is :meth:`arbiter` takeback)."""
        if self.tournament:
            raise IllegalMoveError("in tournament mode only the arbiter can take moves back")
        if self.clock is not None and self.is_over:
            raise IllegalMoveError("the game is over and its clock has stopped; start a new one")
        events = self.session.undo()
        return events + self.observe(events, t)

    def after_power_cut(self, spent: int | None, t: int) -> list:
        """After a resume: the clock that was counting when the power went is paused where it
        stood (``spent``: the running side's time on its move at the last checkpoint; None:
        the last entry's), so the time the board was off counts against nobody."""
        self.power_cut = True
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

    # ----- the board's moves in casual play (auto press) ----------------------------------------------
    def _detected(self, detected) -> list:
        """The tracker saw a legal move; with a clock that presses itself, move and press are
        one entry (the press at the moment the move landed)."""
        s = self.session
        c = self.clock
        t = detected.t_ms
        text = s.rules.move_text(s.pos, detected.move)
        if c is None or not c.counting or c.running != s.turn:
            return s.play(detected.move)
        flag = self._flag_if_due(t)
        if flag is not None:
            return flag
        s.rules.parse_move(s.pos, text)
        return self._do({"type": "press", "side": s.turn, "move": text}, t)

    def _press_move(self, side: int, move: Move, t: int) -> list:
        s = self.session
        text = s.rules.move_text(s.pos, move)
        s.rules.parse_move(s.pos, text)  # refuse before writing
        board = self._board()
        if board is not None and hasattr(board, "expect"):
            board.expect(move, t)
        return self._do({"type": "press", "side": side, "move": text}, t)

    # ----- observing the session -------------------------------------------------------------------------
    def observe(self, events: list, t: int) -> list:
        """React to what the session did (a move the tracker saw, a fight's end, a takeback, the
        game's end): derived only, nothing is journaled, so a replay does the same."""
        out: list = []
        c = self.clock
        for ev in events:
            if isinstance(ev, AnswerPlayed) and self.session.moves:
                self.answers.setdefault(len(self.session.moves) - 1, []).append(ev.text)
            elif isinstance(ev, TurnsUndone):
                n = len(self.session.moves)
                self.plies = {k: v for k, v in self.plies.items() if k < n}
                self.answers = {k: v for k, v in self.answers.items() if k < n}
                self.taps.clear()
                if c is not None and self.setup.auto_press and not self.is_over and c.counting:
                    self.clock = _hand_over(self.clock, self.session.turn, t)
                    c = self.clock
            elif isinstance(ev, FightEnded) and c is not None and self._coupled and c.paused and not self.is_over:
                # the next player's clock starts when the dice have spoken
                self.clock = _hand_over(c, self.session.turn, t)
                c = self.clock
            elif isinstance(ev, GameOver) and c is not None and not c.stopped:
                self.clock, more = c.stop(t)
                c = self.clock
                out += more
        return out

    # ----- applying entries (live and replay) -----------------------------------------------------------
    def apply_entry(self, entry: dict, where: str = "journal entry") -> list:
        """Apply one journaled entry (a table entry or a session action) while replaying."""
        if not isinstance(entry, dict):
            raise RecordError(f"{where}: expected a JSON object")
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
                raise RecordError(f"the game could not be saved ({e.strerror or e}); nothing was changed") from e
        self.entries.append((entry, self.session.turn))
        events = self._apply(entry, t, "entry")
        if entry["type"] == "illegal":
            board = self._board()
            if board is not None and hasattr(board, "illegal_completed"):
                events += self.session._route(board.illegal_completed())
        return events

    def _replay_time(self, entry: dict, where: str) -> int:
        spent = entry.get("spent")
        c = self.clock
        if spent is not None:
            if isinstance(spent, bool) or not isinstance(spent, int) or spent < 0:
                raise RecordError(f"{where}: 'spent' must be a whole number of milliseconds")
            if c is not None and c.counting:
                self._vnow = max(self._vnow, c.since + spent - c.spent)
        return self._vnow

    def _apply(self, entry: dict, t: int, where: str, dry: bool = False) -> list:
        kind = entry["type"]
        handler = getattr(self, "_apply_" + kind.replace("-", "_"))
        return handler(entry, t, where, dry)

    def _apply_clock_start(self, e, t, where, dry):
        f = _Entry(e, where, ("type", "side", "spent"))
        side = f.side("side", self.nsides)
        if self.clock is None:
            raise RecordError(f"{where}: this game has no clock")
        if self.clock.started:
            raise RecordError(f"{where}: the clock is already started")
        if dry:
            return []
        self.clock, events = self.clock.start(side, t)
        return events

    def _apply_press(self, e, t, where, dry):
        f = _Entry(e, where, ("type", "side", "move", "spent"))
        side = f.side("side", self.nsides)
        text = f.optional_text("move")
        c = self.clock
        if c is None or not c.counting or c.running != side:
            raise RecordError(f"{where}: side {side}'s clock is not running")
        s = self.session
        if text is not None:
            s.rules.parse_move(s.pos, text)
        if dry:
            return []
        spent = c.elapsed(t)
        events: list = []
        if text is not None:
            events += s.act(PlayMove(text), record=False)
            # a move declines what the others offered or tapped (FIDE 9.1.2.3); the mover's
            # own offer, made with this move, stands
            self.taps = {p: r for p, r in self.taps.items() if p == side}
            self.pending_press = None
        nxt = s.turn if (text is not None or s.turn != side) else self._next_after(side)
        if s.pos.pending is not None and s.pos.pending.player >= 0:
            nxt = s.pos.pending.player
        self.clock, clock_events = self.clock.press(side, t, nxt)
        events += clock_events
        if text is not None:
            self.plies[len(s.moves) - 1] = PlyClock(self.clock.left[side], spent)
            if any(isinstance(ev, FightStarted) for ev in events) and not s.is_over:
                self.clock, more = self.clock.pause(t)  # the dice are nobody's thinking time
                events += more
        elif s.moves and s.moves[-1].player == side and (len(s.moves) - 1) not in self.plies:
            self.plies[len(s.moves) - 1] = PlyClock(self.clock.left[side], spent)
        return events + self.observe(events, t)

    def _apply_illegal(self, e, t, where, dry):
        f = _Entry(e, where, ("type", "side", "what", "spent"))
        side = f.side("side", self.nsides)
        what = f.text("what")
        if not self.tournament:
            raise RecordError(f"{where}: illegal moves are judged in tournament mode only")
        if dry:
            return []
        return self._penalise(side, t, illegal_what=what)

    def _apply_pause(self, e, t, where, dry):
        f = _Entry(e, where, ("type", "why", "spent"))
        why = f.text("why")
        if why not in ("player", "arbiter", "power", "text"):
            raise RecordError(f"{where}: 'why' is player, arbiter, power or text")
        if self.clock is None or not self.clock.started:
            raise RecordError(f"{where}: no clock runs")
        if dry:
            return []
        self.clock, events = self.clock.pause(t)
        if why == "arbiter":
            self._note(W.record("pause"))
        flagged = self._after_flag(events, t)
        if why in ("power", "text") and not self.is_over:
            times = " - ".join(format_time(x) for x in self.clock.view(t).times)
            self._note(W.record(why, times=times))
        return events + flagged

    def _apply_resume(self, e, t, where, dry):
        _Entry(e, where, ("type", "spent"))
        if self.clock is None or not self.clock.paused:
            raise RecordError(f"{where}: the clock is not paused")
        if dry:
            return []
        self.clock, events = self.clock.resume(t)
        return events

    def _apply_flag(self, e, t, where, dry):
        f = _Entry(e, where, ("type", "side", "move", "spent"))
        side = f.side("side", self.nsides)
        text = f.optional_text("move")
        if self.clock is None:
            raise RecordError(f"{where}: this game has no clock")
        if dry:
            return []
        self.clock, events = self.clock.flag(t)
        if self.clock.flagged is None:
            raise RecordError(f"{where}: side {side}'s time had not run out")
        return events + self._flag_result(side, text, t)

    def _apply_offer_draw(self, e, t, where, dry):
        f = _Entry(e, where, ("type", "player", "spent"))
        player = f.side("player", self.nsides)
        if dry:
            return []
        self.offers.append((len(self.session.moves), player))
        self.taps[player] = "1/2-1/2"
        return [DrawOfferMade(player)] + self._agreed(t)

    def _apply_result(self, e, t, where, dry):
        f = _Entry(e, where, ("type", "player", "result", "spent"))
        player = f.side("player", self.nsides)
        result = f.optional_text("result")
        if result is not None and result not in RESULT_CODES:
            raise RecordError(f"{where}: a result is one of {', '.join(RESULT_CODES)}")
        if self.is_over:
            raise RecordError(f"{where}: the game is over")
        if dry:
            return []
        if result is None:
            self.taps.pop(player, None)
        else:
            self.taps[player] = result
        return [ResultTapped(player, result)] + self._agreed(t)

    def _apply_claim(self, e, t, where, dry):
        f = _Entry(e, where, ("type", "player", "kind", "move", "spent"))
        player = f.side("player", self.nsides)
        kind = f.text("kind")
        text = f.optional_text("move")
        s = self.session
        if kind not in CLAIMS:
            raise RecordError(f"{where}: a claim is one of {', '.join(CLAIMS)}")
        if s.is_over or player != s.turn:
            raise RecordError(f"{where}: only the player to move may claim")
        move = s.rules.parse_move(s.pos, text) if text is not None else None
        if dry:
            return []
        verdict = judge_claim(s.rules, s.pos, kind, move)
        name, other = self._name(player), self._name(1 - player)
        if verdict.correct:
            events: list = []
            if text is not None:
                events += s.act(PlayMove(text), record=False)
            self._note(W.record("claim right", name=name, kind=W.KINDS[kind], article=W.ARTICLES[kind]))
            if not s.is_over:
                events += s.act(Adjudicate((), CLAIM_REASONS[kind]), record=False)
            return [ClaimJudged(player, kind, True, 0)] + events + self.observe(events, t)
        ms = penalty_ms(self._category)
        events = self._give(1 - player, ms, t)
        self.penalties.append(Penalty(player, 1 - player, ms, False))
        self._note(W.record("claim wrong", name=name, kind=W.KINDS[kind], other=other, minutes=W.minutes(ms)))
        return [ClaimJudged(player, kind, False, ms)] + events

    def _apply_resign(self, e, t, where, dry):
        f = _Entry(e, where, ("type", "player", "spent"))
        player = f.side("player", self.nsides)
        if self.is_over:
            raise RecordError(f"{where}: the game is over")
        if dry:
            return []
        events = self.session.act(Resign(player), record=False)
        return events + self.observe(events, t)

    def _apply_arbiter(self, e, t, where, dry):
        self._check_arbiter(e, where)
        if dry:
            return []
        op = e["op"]
        s = self.session
        c = self.clock
        events: list = []
        if op in ("set-time", "add-time"):
            side, ms = e["side"], e["ms"]
            if op == "set-time":
                self.clock, events = c.set_time(side, ms, t)
                self._note(W.record("set time", name=self._name(side), time=format_time(ms)))
            else:
                self.clock, events = c.add_time(side, ms, t)
                self._note(W.record("add time", name=self._name(side), time=format_time(ms)))
        elif op == "set-moves":
            self.clock, events = c.set_moves(e["side"], e["moves"])
            self._note(W.record("set moves", name=self._name(e["side"]), moves=e["moves"]))
        elif op == "pause":
            self.clock, events = c.pause(t)
            self._note(W.record("pause"))
            events += self._after_flag(events, t)
        elif op == "resume":
            self.clock, events = c.resume(t)
            self._note(W.record("resume"))
        elif op == "penalty":
            events = self._penalise(e["side"], t, illegal_what=None)
        elif op == "cancel-penalty":
            p = self.penalties[e["index"]]
            p.cancelled = True
            if p.illegal:
                self.illegal[p.offender] = max(0, self.illegal.get(p.offender, 0) - 1)
            if c is not None:
                now = max(0, c.remaining(p.beneficiary, t))
                self.clock, events = c.set_time(p.beneficiary, max(0, now - p.ms), t)
            self._note(W.record("penalty cancelled", name=self._name(p.offender), other=self._name(p.beneficiary),
                                minutes=W.minutes(p.ms)))
        elif op == "result":
            events = self._arbiter_result(e["result"], t)
        elif op == "takeback":
            turns = e["turns"]
            events = s.act(Undo(turns), record=False)
            self.taps.clear()
            self.pending_press = None
            if c is not None and c.started and not c.stopped:
                self.clock = _hand_over(c, s.turn, t, paused=True)
                counts = [sum(1 for m in s.moves if m.player == p) for p in range(self.nsides)]
                for p, k in enumerate(counts):
                    self.clock, _ = self.clock.set_moves(p, k)
            self._note(W.record("takeback", count=f"{turns} move{'s' if turns != 1 else ''}"))
        elif op == "end":
            self.unfinished = True
            self._note(W.record("end"))
            events = s.act(Adjudicate((), "ended by the arbiter"), record=False)
        return [ArbiterActed(op)] + events + self.observe(events, t)

    # ----- procedures ------------------------------------------------------------------------------------
    def _penalise(self, side: int, t: int, illegal_what: str | None) -> list:
        """A completed illegal move (or the arbiter's penalty for one, FIDE 7.5.5): the first
        gives the opponent time, the second loses (draw if the opponent cannot win)."""
        s = self.session
        other = 1 - side
        count = self.illegal.get(side, 0) + 1
        self.illegal[side] = count
        name, oname = self._name(side), self._name(other)
        events: list = []
        if count == 1:
            ms = penalty_ms(self._category)
            events += self._give(other, ms, t)
            self.penalties.append(Penalty(side, other, ms, True))
            if illegal_what is not None:
                self._note(W.record("illegal first", name=name, what=illegal_what, other=oname, minutes=W.minutes(ms)))
            else:
                self._note(W.record("penalty", name=name, other=oname, minutes=W.minutes(ms)))
            return [IllegalMoveCaught(side, illegal_what or "", count, ms)] + events
        self.penalties.append(Penalty(side, other, 0, True))
        if can_win(s.rules, s.pos, other):
            key = "illegal second" if illegal_what is not None else "penalty loss"
            self._note(W.record(key, name=name, what=illegal_what or ""))
            events += s.act(Adjudicate((other,), "illegal move"), record=False)
        else:
            self._note(W.record("illegal second draw", name=name, what=illegal_what or "", other=oname))
            events += s.act(Adjudicate((), "illegal move, cannot win"), record=False)
        return [IllegalMoveCaught(side, illegal_what or "", count, 0)] + events + self.observe(events, t)

    def _give(self, side: int, ms: int, t: int) -> list:
        if self.clock is None or not self.clock.started:
            return []
        self.clock, events = self.clock.add_time(side, ms, t)
        return events

    def _flag_if_due(self, t: int) -> list | None:
        """Record a fallen flag (an entry) if the running side's time has run out by ``t``."""
        c = self.clock
        if c is None or self.is_over or not c.counting:
            return None
        side = c.fallen(t)
        if side is None:
            return None
        move_text = None
        if self.tournament:
            move_text = self._move_that_ends_the_game(t)
        return self._do({"type": "flag", "side": side, "move": move_text}, t)

    def _move_that_ends_the_game(self, t: int) -> str | None:
        """At a flag: a legal move the board shows (not yet pressed) that mates, stalemates or
        leaves a dead position ends the game first (FIDE 6.9 with 5.1.1, 5.2.1, 5.2.2)."""
        from .quiet import BoardShowsMove

        board = self._board()
        if board is None or not hasattr(board, "complete"):
            return None
        verdict = board.complete(t)
        if not isinstance(verdict, BoardShowsMove) or verdict.needs_choice:
            return None
        s = self.session
        move = verdict.moves[0]
        s.rules.apply(s.pos, move)
        try:
            ends = s.pos.pending is None and s.rules.outcome(s.pos) is not None
        finally:
            s.rules.undo(s.pos)
        return s.rules.move_text(s.pos, move) if ends else None

    def _flag_result(self, side: int, move_text: str | None, t: int) -> list:
        """FIDE 6.9: the flag loses, unless the opponent cannot win (a draw)."""
        s = self.session
        events: list = []
        name = self._name(side)
        if move_text is not None:
            events += s.act(PlayMove(move_text), record=False)
            if s.is_over:
                self._note(W.record("flag mate", name=name))
                return events + self.observe(events, t)
        others = [p for p in range(self.nsides) if p != side and p not in s.pos.var("out", ())]
        winners = tuple(p for p in others if can_win(s.rules, s.pos, p))
        if self.nsides == 2 and not winners:
            self._note(W.record("flag draw", name=name, other=self._name(1 - side)))
            events += s.act(Adjudicate((), "time, cannot win"), record=False)
        else:
            self._note(W.record("flag", name=name))
            events += s.act(Adjudicate(winners, "time"), record=False)
        return events + self.observe(events, t)

    def _after_flag(self, events: list, t: int) -> list:
        for ev in events:
            if isinstance(ev, FlagFell) and not self.is_over:
                return self._flag_result(ev.side, None, t)
        return []

    def _agreed(self, t: int) -> list:
        """Both players tapped the same result: the game ends with it (FIDE 8.7, 9.1.2)."""
        if len(self.taps) < self.nsides or len(set(self.taps.values())) != 1:
            return []
        (result,) = set(self.taps.values())
        self._note(W.record("agreed", result=result))
        winners = {"1-0": (0,), "0-1": (1,), "1/2-1/2": ()}[result]
        reason = "draw agreed" if result == "1/2-1/2" else "result agreed"
        events = self.session.act(Adjudicate(winners, reason), record=False)
        return events + self.observe(events, t)

    def _arbiter_result(self, code: str, t: int) -> list:
        winners, score, forfeit = _ARBITER_SCORES[code]
        self.override = score
        self.forfeit = forfeit
        if code in ("+-", "-+"):
            self._note(W.record("forfeit", winner=self._name(winners[0])))
        elif code == "--":
            self._note(W.record("double forfeit"))
        elif code == "0-0":
            self._note(W.record("both lose"))
        else:
            self._note(W.record("result", result=code))
        events = self.session.act(Adjudicate(winners, "forfeit" if forfeit else "set by the arbiter"), record=False)
        return events + self.observe(events, t)

    # ----- checks ------------------------------------------------------------------------------------------
    def _check_arbiter(self, e: dict, where: str = "arbiter") -> None:
        op = e.get("op")
        keys = {"set-time": ("side", "ms"), "add-time": ("side", "ms"), "set-moves": ("side", "moves"),
                "pause": (), "resume": (), "penalty": ("side",), "cancel-penalty": ("index",),
                "result": ("result",), "takeback": ("turns",), "end": ()}
        if op not in keys:
            raise RecordError(f"{where}: unknown arbiter action {op!r}")
        f = _Entry(e, where, ("type", "op", "spent") + keys[op])
        c = self.clock
        if op in ("set-time", "add-time", "set-moves", "pause", "resume") and (c is None or not c.started):
            raise IllegalMoveError("the clock has not been started")
        if op != "result" and op != "end" and self.is_over:
            raise IllegalMoveError("the game is over")
        if op in ("set-time", "add-time", "set-moves", "penalty"):
            f.side("side", self.nsides)
        if op in ("set-time", "add-time"):
            f.integer("ms", 0, 100 * 3600 * 1000)
        if op == "set-moves":
            f.integer("moves", 0, 10_000)
        if op == "pause" and not c.counting:
            raise IllegalMoveError("the clock is not running")
        if op == "resume" and (not c.paused or c.stopped):
            raise IllegalMoveError("the clock is not paused")
        if op == "resume" and c.flagged is not None:
            raise IllegalMoveError("a flag has fallen: set that clock's time first")
        if op == "cancel-penalty":
            index = f.integer("index", 0, 10_000)
            if index >= len(self.penalties) or self.penalties[index].cancelled or not self.penalties[index].ms:
                raise IllegalMoveError(f"there is no penalty {index + 1} to cancel")
        if op == "result":
            if f.text("result") not in ARBITER_RESULTS:
                raise IllegalMoveError(f"a result is one of {', '.join(ARBITER_RESULTS)}")
            if self.nsides != 2:
                raise IllegalMoveError("results are set for two-player games")
        if op == "takeback":
            turns = f.integer("turns", 1, 10_000)
            if turns > len(self.session.moves) or self.is_over:
                raise IllegalMoveError(f"cannot take back {turns} move(s); {len(self.session.moves)} were played")
        if op == "end" and self.is_over:
            raise IllegalMoveError("the game is over")

    def _live_check(self, t: int) -> None:
        if self.is_over:
            raise IllegalMoveError("the game is over")

    def _require_tournament(self, what: str) -> None:
        if not self.tournament:
            raise IllegalMoveError(f"{what} in tournament mode; in casual play use the draw offer")

    def _check_player(self, player: int) -> None:
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < self.nsides:
            raise IllegalMoveError(f"player must be 0 to {self.nsides - 1}, got {player!r}")

    # ----- helpers ---------------------------------------------------------------------------------------
    @property
    def _coupled(self) -> bool:
        """Is the clock pressed with the moves (tournament, or a clock that presses itself)?"""
        return self.tournament or self.setup.auto_press

    @property
    def _category(self) -> str:
        control = self.setup.control
        return control.category if control is not None else "standard"

    def _board(self):
        return self.session.tracker

    def _next_after(self, side: int) -> int:
        out = self.session.pos.var("out", ()) or ()
        for step in range(1, self.nsides + 1):
            p = (side + step) % self.nsides
            if p not in out:
                return p
        return side

    def _name(self, player: int) -> str:
        seats = self.game.seats
        return seats[player].name if 0 <= player < len(seats) else W.COLOURS[player % len(W.COLOURS)]

    def _note(self, text: str) -> None:
        self.notes.append(Note(len(self.session.moves), text))


_ARBITER_SCORES = {
    "1-0": ((0,), (1.0, 0.0), False),
    "0-1": ((1,), (0.0, 1.0), False),
    "1/2-1/2": ((), (0.5, 0.5), False),
    "+-": ((0,), (1.0, 0.0), True),
    "-+": ((1,), (0.0, 1.0), True),
    "--": ((), (0.0, 0.0), True),
    "0-0": ((), (0.0, 0.0), False),
}


def _hand_over(clock: Clock, side: int, t: int, paused: bool = False) -> Clock:
    """The clock runs for ``side`` from ``t`` (after a takeback), paused if asked; the side
    that was thinking keeps what it used."""
    left = list(clock.left)
    if clock.running is not None and not clock.stopped:
        left[clock.running] = max(0, clock.remaining(clock.running, t))
    return replace(clock, left=tuple(left), running=side, since=None if paused else t, spent=0, flagged=None)


def check_setup(game: GameSetup, setup: TableSetup) -> None:
    """Refuse a table the game cannot be played at (ClockError says why)."""
    if setup.tournament:
        if game.game not in TOURNAMENT_GAMES:
            raise ClockError(f"{game.game} has no tournament mode (it has: {', '.join(sorted(TOURNAMENT_GAMES))})")
        if any(seat.computer for seat in game.seats):
            raise ClockError("a tournament game has no computer player")
    control = setup.control
    if control is not None and control.hourglass and len(game.seats) != 2:
        raise ClockError("an hourglass is for two players")
    if setup.ratings and len(setup.ratings) != len(game.seats):
        raise ClockError(f"{len(setup.ratings)} ratings for {len(game.seats)} players")
    if setup.ids and len(setup.ids) != len(game.seats):
        raise ClockError(f"{len(setup.ids)} player ids for {len(game.seats)} players")


def _rules_for(game: GameSetup, setup: TableSetup):
    """The session's rules for the set-up (companion.session.rules_for), with draws claimed
    rather than automatic in tournament mode."""
    rules = rules_for(game)
    return ClaimedDraws(rules) if setup.tournament else rules


class _Entry(_Fields):
    """Strict reading of one table entry (the session's reader, with ranges and sides)."""

    def optional_text(self, key: str) -> str | None:
        value = self.value.get(key)
        if value is not None and (not isinstance(value, str) or len(value) > MAX_TEXT):
            raise RecordError(f"{self.where}: field {key!r} must be text of at most {MAX_TEXT} characters")
        return value

    def integer(self, key: str, least: int, most: int) -> int:  # type: ignore[override]
        v = self.value.get(key)
        if isinstance(v, bool) or not isinstance(v, int) or not least <= v <= most:
            raise RecordError(f"{self.where}: field {key!r} must be a whole number from {least} to {most}, got {v!r}")
        return v

    def side(self, key: str, n: int) -> int:
        return self.integer(key, 0, n - 1)


__all__ = ["Table", "TableSetup", "PressNeedsChoice", "IllegalMoveCaught", "ClaimJudged", "DrawOfferMade",
           "ResultTapped", "ArbiterActed", "PowerRestored", "PlyClock", "Note", "Penalty", "MODES",
           "TOURNAMENT_GAMES", "RESULT_CODES", "ARBITER_RESULTS", "ARBITER_OPS", "check_setup"]
