"""A chess clock as a value: no wall clock inside, every operation takes the time ``t`` (ms, any
monotonic origin) and returns a new :class:`Clock` and what happened (events, past tense).

The state is what a clock needs to know between two presses: each side's time ``left``, the
moves each has completed, whose clock is ``running`` (the side to move), since when it counts
(``since``; None while paused or stopped) and what the side already ``spent`` on this move
before a pause. Everything shown is computed from that by :meth:`Clock.view`; when the running
side's time will run out is :meth:`Clock.deadline`, so a caller can show a flag fall at once
without ticking the clock.

The arithmetic is FIDE's (Laws of Chess, article 6.3): a Fischer increment is added after the
move; Bronstein gives back the time used, at most the bonus; a simple (US) delay waits the
bonus before counting down; an hourglass adds what one side uses to the other. A period's time
is added when a player completes its last move (6.2.2). A press at the very millisecond the
time reaches zero is too late: the flag has fallen (the clock shows 0:00.0).

Several sides (2 to 4) take turns in the order the game gives (``next_side``), for Dungeon
Chess with more than two players.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..errors import ClockError
from ..i18n import _
from .timecontrol import Period, TimeControl


# ----- events ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ClockStarted:
    side: int


@dataclass(frozen=True)
class ClockPressed:
    """``side`` completed a move using ``spent`` ms and now has ``left`` ms (increment and any
    new period included)."""

    side: int
    spent: int
    left: int


@dataclass(frozen=True)
class PeriodReached:
    """``side`` completed the last move of a period: ``added`` ms of the next period (``index``)."""

    side: int
    index: int
    added: int


@dataclass(frozen=True)
class FlagFell:
    """``side``'s time ran out at ``at`` (ms, the clock's time origin)."""

    side: int
    at: int


@dataclass(frozen=True)
class ClockPaused:
    side: int | None


@dataclass(frozen=True)
class ClockResumed:
    side: int | None


@dataclass(frozen=True)
class TimeChanged:
    """The arbiter set ``side``'s time to ``left`` ms (from ``before``)."""

    side: int
    before: int
    left: int


# ----- what a clock shows ------------------------------------------------------------------------


@dataclass(frozen=True)
class ClockView:
    """The clock at one moment: each side's time (ms, never below 0), whose clock runs, whether
    it counts now, the flag, the delay still to pass before a simple delay counts down, the
    moves completed and the period each side is in (0 = the first)."""

    times: tuple[int, ...]
    running: int | None
    counting: bool
    paused: bool
    flagged: int | None
    delay_left: int
    moves: tuple[int, ...]
    periods: tuple[int, ...]
    stopped: bool = False


# ----- the clock ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Clock:
    control: TimeControl
    left: tuple[int, ...]
    moves: tuple[int, ...]
    running: int | None = None
    since: int | None = None
    spent: int = 0
    flagged: int | None = None
    stopped: bool = False

    @classmethod
    def new(cls, control: TimeControl, sides: int = 2) -> Clock:
        if not isinstance(control, TimeControl):
            raise ClockError(_("a clock needs a TimeControl, got {control!r}").format(control=control))
        if sides not in (2, 3, 4):
            raise ClockError(_("a clock has 2 to 4 sides, got {sides}").format(sides=sides))
        if control.hourglass and sides != 2:
            raise ClockError(_('an hourglass is for two players'))
        return cls(control, (control.start_ms,) * sides, (0,) * sides)

    # ----- queries ---------------------------------------------------------------------------
    @property
    def sides(self) -> int:
        return len(self.left)

    @property
    def started(self) -> bool:
        return self.running is not None or self.stopped

    @property
    def paused(self) -> bool:
        return self.running is not None and self.since is None and not self.stopped

    @property
    def counting(self) -> bool:
        return self.running is not None and self.since is not None

    def current_period(self, side: int) -> Period:
        """The period of ``side``'s next move."""
        return self.control.period(self.control.period_index(self.moves[side] + 1))

    def elapsed(self, t: int) -> int:
        """What the running side has used on its current move by ``t`` (pauses excluded)."""
        if self.running is None:
            return 0
        if self.since is None:
            return self.spent
        return self.spent + max(0, t - self.since)

    def remaining(self, side: int, t: int) -> int:
        """``side``'s time at ``t`` (may be below 0 once the flag has fallen)."""
        self._check_side(side)
        if side != self.running:
            if self.control.hourglass and self.running is not None:
                return self.left[side] + self.elapsed(t)
            return self.left[side]
        e = self.elapsed(t)
        period = self.current_period(side)
        if period.mode == "delay":
            return self.left[side] - max(0, e - period.bonus_ms)
        return self.left[side] - e

    def deadline(self) -> int | None:
        """When the running side's time reaches 0 (None while it does not count)."""
        if not self.counting or self.flagged is not None:
            return None
        side = self.running
        budget = self.left[side]
        period = self.current_period(side)
        if period.mode == "delay":
            budget += period.bonus_ms
        return self.since + budget - self.spent

    def fallen(self, t: int) -> int | None:
        """The side whose flag has fallen by ``t`` (None: nobody's)."""
        if self.flagged is not None:
            return self.flagged
        d = self.deadline()
        return self.running if d is not None and t >= d else None

    def view(self, t: int) -> ClockView:
        fallen = self.fallen(t)
        times = tuple(max(0, self.remaining(s, t)) for s in range(self.sides))
        delay_left = 0
        if self.running is not None and not self.stopped:
            period = self.current_period(self.running)
            if period.mode == "delay":
                delay_left = max(0, period.bonus_ms - self.elapsed(t))
        periods = tuple(self.control.period_index(m + 1) for m in self.moves)
        counting = self.counting and fallen is None
        return ClockView(times, self.running, counting, self.paused, fallen, delay_left, self.moves, periods,
                         self.stopped)

    # ----- operations ------------------------------------------------------------------------
    def start(self, side: int, t: int) -> tuple[Clock, list]:
        """The clock starts for ``side`` (White at the start of a game)."""
        self._check_side(side)
        if self.started:
            raise ClockError(_('the clock is already started'))
        return replace(self, running=side, since=t, spent=0), [ClockStarted(side)]

    def press(self, side: int, t: int, next_side: int | None = None) -> tuple[Clock, list]:
        """``side`` completes its move at ``t``; ``next_side`` (default: the next in order) starts.
        If ``side``'s time has run out by ``t`` the move is too late: the flag falls instead."""
        self._check_live()
        if side != self.running:
            raise ClockError(_("side {side} cannot press: it is side {running}'s clock that runs").format(side=side, running=self.running))
        if self.since is None:
            raise ClockError(_('the clock is paused; resume it first'))
        flagged = self._flag_by(t)
        if flagged is not None:
            return flagged
        nxt = (side + 1) % self.sides if next_side is None else next_side
        self._check_side(nxt)
        e = self.elapsed(t)
        period = self.current_period(side)
        rem = self.remaining(side, t)
        if period.mode == "fischer":
            rem += period.bonus_ms
        elif period.mode == "bronstein":
            rem += min(period.bonus_ms, e)
        left = list(self.left)
        if period.mode == "hourglass":
            other = 1 - side
            left[other] += e
        move = self.moves[side] + 1
        events: list = []
        added = self.control.added_after(move)
        if added:
            rem += added
            events.append(PeriodReached(side, self.control.period_index(move) + 1, added))
        left[side] = rem
        moves = list(self.moves)
        moves[side] = move
        clock = replace(self, left=tuple(left), moves=tuple(moves), running=nxt, since=t, spent=0)
        return clock, [ClockPressed(side, e, rem)] + events

    def flag(self, t: int) -> tuple[Clock, list]:
        """Record the flag fall that :meth:`fallen` reports by ``t`` (nothing if none)."""
        out = self._flag_by(t)
        return out if out is not None else (self, [])

    def pause(self, t: int) -> tuple[Clock, list]:
        self._check_live()
        if self.since is None:
            return self, []
        flagged = self._flag_by(t)
        if flagged is not None:
            return flagged
        return replace(self, spent=self.elapsed(t), since=None), [ClockPaused(self.running)]

    def resume(self, t: int) -> tuple[Clock, list]:
        self._check_live()
        if self.since is not None:
            return self, []
        if self.flagged is not None:
            raise ClockError(_('a flag has fallen: the arbiter must set the time first'))
        return replace(self, since=t), [ClockResumed(self.running)]

    def stop(self, t: int) -> tuple[Clock, list]:
        """The game is over: the clock stops where it is (a flag already fallen stays)."""
        if self.stopped:
            return self, []
        if self.running is None:
            return replace(self, stopped=True), []
        spent = self.elapsed(t)
        if self.flagged is None and self.fallen(t) is not None:
            d = self.deadline()
            return replace(self, spent=spent if d is None else self.elapsed(d), since=None,
                           flagged=self.running, stopped=True), [FlagFell(self.running, d)]
        return replace(self, spent=spent, since=None, stopped=True), []

    def set_time(self, side: int, ms: int, t: int) -> tuple[Clock, list]:
        """The arbiter sets ``side``'s time to ``ms`` (6.10.2); a flag of that side is lifted
        when the new time is above 0."""
        self._check_side(side)
        if isinstance(ms, bool) or not isinstance(ms, int) or ms < 0:
            raise ClockError(_("a time is a whole number of milliseconds, 0 or more, got {ms!r}").format(ms=ms))
        before = max(0, self.remaining(side, t))
        if side == self.running and self.flagged == side:
            # the flagged side's clock stands at 0: its move starts afresh from the new time
            left = ms
            spent = 0
            since = None
        else:
            left = self.left[side] + ms - self.remaining(side, t)
            spent, since = self.spent, self.since
        lefts = list(self.left)
        lefts[side] = left
        flagged = None if self.flagged == side and ms > 0 else self.flagged
        clock = replace(self, left=tuple(lefts), flagged=flagged, spent=spent, since=since)
        return clock, [TimeChanged(side, before, ms)]

    def add_time(self, side: int, ms: int, t: int) -> tuple[Clock, list]:
        """Add ``ms`` (a penalty for the opponent: 7.5.5, 9.5.3) to ``side``'s time."""
        return self.set_time(side, max(0, max(0, self.remaining(side, t)) + ms), t)

    def set_moves(self, side: int, moves: int) -> tuple[Clock, list]:
        """The arbiter corrects ``side``'s move counter (6.10.2)."""
        self._check_side(side)
        if isinstance(moves, bool) or not isinstance(moves, int) or moves < 0:
            raise ClockError(_("a move count is a whole number, 0 or more, got {moves!r}").format(moves=moves))
        counts = list(self.moves)
        counts[side] = moves
        return replace(self, moves=tuple(counts)), []

    # ----- internals -------------------------------------------------------------------------
    def _flag_by(self, t: int) -> tuple[Clock, list] | None:
        if self.flagged is not None:
            return self, []
        side = self.fallen(t)
        if side is None:
            return None
        d = self.deadline()
        return replace(self, spent=self.elapsed(d), since=None, flagged=side), [FlagFell(side, d)]

    def _check_live(self) -> None:
        if self.stopped:
            raise ClockError(_('the clock is stopped: the game is over'))
        if self.running is None:
            raise ClockError(_('the clock has not been started'))

    def _check_side(self, side: int) -> None:
        if isinstance(side, bool) or not isinstance(side, int) or not 0 <= side < self.sides:
            raise ClockError(_("side must be 0 to {last}, got {side!r}").format(last=self.sides - 1, side=side))


# ----- showing times -------------------------------------------------------------------------------


#: Under this time (ms) a clock face shows tenths of a second.
TENTHS_MS = 10_000


def format_time(ms: int, tenths_below: int = TENTHS_MS) -> str:
    """A clock face: ``1:29:58``, ``4:07``, and under ten seconds ``9.8`` (tenths). Times are
    rounded up, so the face reads 0 only once the time is gone."""
    ms = max(0, int(ms))
    if ms < tenths_below:
        tenths = -(-ms // 100)
        return f"{tenths // 10}.{tenths % 10}"
    seconds = -(-ms // 1000)
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def face_changes_in(view: ClockView, tenths_below: int = TENTHS_MS) -> int | None:
    """Milliseconds until what the clock shows next changes by itself (None: nothing counts):
    the running side's :func:`format_time`, or, while a simple delay passes, its tenths. The
    app redraws the clock then and may rest its main loop in between
    (companion/app/pacing.py)."""
    if not view.counting or view.running is None:
        return None
    if view.delay_left > 0:  # the time stands still; the delay is shown in tenths of a second
        return view.delay_left % 100 + 1 if view.delay_left >= 100 else view.delay_left
    ms = view.times[view.running]
    if ms <= 0:
        return None
    if ms >= tenths_below:  # rounded up to the second; tenths from just under tenths_below
        return min(ms - (-(-ms // 1000) - 1) * 1000, ms - (tenths_below - 1))
    return ms - (-(-ms // 100) - 1) * 100


def format_clk(ms: int) -> str:
    """A time in PGN's ``[%clk h:mm:ss]`` form, as the clock showed it (rounded up; tenths under
    ten seconds: ``0:00:09.8``)."""
    ms = max(0, int(ms))
    if ms < 10_000:
        tenths = -(-ms // 100)
        return f"0:00:{tenths // 10:02d}.{tenths % 10}"
    seconds = -(-ms // 1000)
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}"


def format_emt(ms: int) -> str:
    """Time used for a move, ``[%emt h:mm:ss]`` (whole seconds, rounded down; tenths under ten)."""
    ms = max(0, int(ms))
    if ms < 10_000:
        return f"0:00:{ms // 1000:02d}.{(ms % 1000) // 100}"
    seconds = ms // 1000
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}"


def parse_clk(text: str) -> int:
    """``h:mm:ss`` or ``h:mm:ss.f`` in ms; ClockError if it is not one."""
    parts = text.strip().split(":")
    try:
        if len(parts) != 3:
            raise ValueError
        h, m = int(parts[0]), int(parts[1])
        seconds = float(parts[2])
        if h < 0 or not 0 <= m < 60 or not 0 <= seconds < 60:
            raise ValueError
    except ValueError:
        raise ClockError(_("{text!r} is not a time like 1:29:58").format(text=text)) from None
    return (h * 3600 + m * 60) * 1000 + round(seconds * 1000)
