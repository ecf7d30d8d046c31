"""Time controls as data: periods with move counts, increment or delay, read and written in
PGN's TimeControl notation.

A time control is one or more :class:`Period` values. A period gives ``base_ms`` of thinking
time for ``moves`` moves (``None``: the rest of the game) and a per-move ``bonus_ms`` whose
meaning is the period's ``mode`` (FIDE Laws of Chess, article 6.3):

* ``fischer``: the bonus is added after every move ("increment");
* ``bronstein``: after every move the time used is given back, at most the bonus;
* ``delay`` (US or simple delay): the clock waits the bonus before it counts down;
* ``hourglass``: the time one player uses is added to the other (one period, no bonus).

When a player completes the last move of a period, the next period's time is added to what
they have left (article 6.2.2); a board that counts moves can do this at move N exactly. If
the last period has a move count it repeats ("40/7200" is 2 hours for every 40 moves).

PGN notation (the PGN standard, section 9.6.1, with the usual extensions): fields separated by
``:``; a field is ``moves/seconds`` or ``seconds`` (sudden death), followed by ``+N`` (Fischer
increment), ``SN`` (simple delay) or ``BN`` (Bronstein delay), or ``*seconds`` (hourglass).
``-`` means no time control. So FIDE's standard rate, 90 minutes for 40 moves, then 30
minutes, with 30 seconds added from move 1, is ``40/5400+30:1800+30``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from ..errors import ClockError
from ..i18n import _

MODES = ("fischer", "bronstein", "delay", "hourglass")
#: The suffix letter of each delay mode in PGN notation (Fischer is ``+N``).
_SUFFIX = {"delay": "S", "bronstein": "B"}
_MODE_OF = {"+": "fischer", "S": "delay", "B": "bronstein"}
#: The longest thinking time a period may give (a week: anything more is a typing error).
MAX_MS = 7 * 24 * 3600 * 1000
MAX_MOVES = 1000
_FIELD = re.compile(r"^(?:(?P<moves>\d+)/)?(?P<base>\d+(?:\.\d{1,3})?)(?:(?P<kind>[+SB])(?P<bonus>\d+(?:\.\d{1,3})?))?$")


@dataclass(frozen=True)
class Period:
    """``base_ms`` for ``moves`` moves (None: the rest of the game), ``bonus_ms`` per move in
    ``mode`` (fischer, bronstein, delay, hourglass)."""

    moves: int | None
    base_ms: int
    bonus_ms: int = 0
    mode: str = "fischer"

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ClockError(_("unknown clock mode {mode!r}; known: {items}").format(mode=self.mode, items=', '.join(MODES)))
        if self.moves is not None and (isinstance(self.moves, bool) or not isinstance(self.moves, int)
                                       or not 1 <= self.moves <= MAX_MOVES):
            raise ClockError(_("a period's move count must be 1 to {most}, got {moves!r}").format(most=MAX_MOVES, moves=self.moves))
        for name in ("base_ms", "bonus_ms"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_MS:
                raise ClockError(_("{name} must be a whole number of milliseconds from 0 to {most}, got {value!r}").format(name=name, most=MAX_MS, value=value))
        if self.mode == "hourglass" and (self.bonus_ms or self.moves is not None):
            raise ClockError(_('an hourglass has one period for the whole game and no bonus'))


@dataclass(frozen=True)
class TimeControl:
    """The periods of a game, first to last; see the module docstring."""

    periods: tuple[Period, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "periods", tuple(self.periods))
        if not self.periods or not all(isinstance(p, Period) for p in self.periods):
            raise ClockError(_('a time control needs at least one period'))
        if any(p.moves is None for p in self.periods[:-1]):
            raise ClockError(_('only the last period may be for the rest of the game'))
        if any(p.mode == "hourglass" for p in self.periods) and len(self.periods) > 1:
            raise ClockError(_('an hourglass has one period for the whole game'))
        if self.periods[0].base_ms == 0 and self.periods[0].mode != "delay" and not self.periods[0].bonus_ms:
            raise ClockError(_('the first period needs some time'))

    # ----- periods and moves -----------------------------------------------------------------
    @property
    def hourglass(self) -> bool:
        return self.periods[0].mode == "hourglass"

    @property
    def start_ms(self) -> int:
        """Each player's time before the first move."""
        return self.periods[0].base_ms

    def period_index(self, move: int) -> int:
        """The index in the (repeating) sequence of periods that a player's ``move`` (1-based)
        belongs to: 0 for the first period, 1 for the second, ..."""
        if move < 1:
            raise ClockError(_("moves are counted from 1, got {move}").format(move=move))
        index, end = 0, 0
        while True:
            period = self.period(index)
            if period.moves is None:
                return index
            end += period.moves
            if move <= end:
                return index
            index += 1

    def period(self, index: int) -> Period:
        """The period at ``index`` of the sequence (the last one repeats)."""
        return self.periods[min(index, len(self.periods) - 1)]

    def period_end(self, index: int) -> int | None:
        """The move number that completes period ``index`` (None: it never ends)."""
        end = 0
        for i in range(index + 1):
            moves = self.period(i).moves
            if moves is None:
                return None
            end += moves
        return end

    def added_after(self, move: int) -> int:
        """The time added when a player completes their ``move``: the next period's time if
        this move ends a period (article 6.2.2), else 0."""
        index = self.period_index(move)
        if self.period_end(index) == move:
            return self.period(index + 1).base_ms
        return 0

    # ----- FIDE's categories -----------------------------------------------------------------
    @property
    def category(self) -> str:
        """"standard", "rapid" or "blitz" (FIDE Laws, Appendices A.1 and B.1): the first
        period's time plus 60 times its bonus; 60 minutes or more is standard, more than 10
        minutes rapid, 10 minutes or less blitz."""
        first = self.periods[0]
        total = first.base_ms + 60 * first.bonus_ms
        if total >= 60 * 60_000:
            return "standard"
        if total > 10 * 60_000:
            return "rapid"
        return "blitz"

    # ----- PGN notation ----------------------------------------------------------------------
    def pgn(self) -> str:
        return ":".join(_format_field(p) for p in self.periods)

    def __str__(self) -> str:
        return self.pgn()


def parse_time_control(text: str) -> TimeControl | None:
    """A PGN TimeControl value; None for ``-`` (no clock). ClockError names what is wrong."""
    if not isinstance(text, str):
        raise ClockError(_("a time control is text like 180+2, got {text!r}").format(text=text))
    value = text.strip()
    if value == "-":
        return None
    if value in ("", "?"):
        raise ClockError(_("the time control {text!r} is unknown; write it like 180+2 or 40/5400+30:1800+30").format(text=text))
    periods = []
    fields = value.split(":")
    for i, field in enumerate(fields):
        where = (_("time control {value!r}, field {n}") if len(fields) > 1 else _("time control {value!r}")).format(value=value, n=i + 1)
        if field.startswith("*"):
            if len(fields) > 1:
                raise ClockError(_("{where}: an hourglass has one period for the whole game").format(where=where))
            periods.append(Period(None, _ms(field[1:], where), 0, "hourglass"))
            continue
        m = _FIELD.match(field)
        if m is None:
            raise ClockError(_("{where}: {field!r} is not moves/seconds or seconds with +N, SN or BN (e.g. 40/5400+30 or 180+2)").format(where=where, field=field))
        moves = int(m["moves"]) if m["moves"] is not None else None
        if moves is not None and moves < 1:
            raise ClockError(_("{where}: a period is for 1 move or more, got {moves}").format(where=where, moves=moves))
        if moves is not None and moves > MAX_MOVES:
            raise ClockError(_("{where}: a period of {moves} moves is more than {most}").format(where=where, moves=moves, most=MAX_MOVES))
        if moves is None and i < len(fields) - 1:
            raise ClockError(_("{where}: only the last field may be for the rest of the game").format(where=where))
        mode = _MODE_OF[m["kind"]] if m["kind"] else "fischer"
        bonus = _ms(m["bonus"], where) if m["bonus"] else 0
        periods.append(Period(moves, _ms(m["base"], where), bonus, mode))
    try:
        return TimeControl(tuple(periods))
    except ClockError as e:
        raise ClockError(_("time control {value!r}: {problem}").format(value=value, problem=e)) from None


def _ms(seconds: str, where: str) -> int:
    try:
        value = Decimal(seconds)
    except InvalidOperation:
        raise ClockError(_("{where}: {seconds!r} is not a number of seconds").format(where=where, seconds=seconds)) from None
    if value < 0 or value * 1000 > MAX_MS:
        raise ClockError(_("{where}: {seconds} seconds is out of range (0 to {most})").format(where=where, seconds=seconds, most=MAX_MS // 1000))
    return int(value * 1000)


def _seconds(ms: int) -> str:
    whole, rest = divmod(ms, 1000)
    return str(whole) if not rest else f"{whole}.{rest:03d}".rstrip("0")


def _format_field(p: Period) -> str:
    if p.mode == "hourglass":
        return "*" + _seconds(p.base_ms)
    text = (f"{p.moves}/" if p.moves is not None else "") + _seconds(p.base_ms)
    if p.bonus_ms or p.mode in _SUFFIX:
        text += _SUFFIX.get(p.mode, "+") + _seconds(p.bonus_ms)
    return text


# ----- presets ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Preset:
    key: str
    control: TimeControl


def _preset(key: str, text: str) -> Preset:
    control = parse_time_control(text)
    assert control is not None
    return Preset(key, control)


#: The clock's ready-made settings (their names on screen: companion/app/texts.py).
PRESETS: tuple[Preset, ...] = (
    _preset("fide-standard", "40/5400+30:1800+30"),  # FIDE standard: 90 min/40 moves, 30 min, +30 s from move 1
    _preset("classic", "40/7200:3600"),  # 2 hours for 40 moves, then 1 hour
    _preset("rapid", "900+10"),  # FIDE rapid 15+10
    _preset("blitz", "180+2"),  # FIDE blitz 3+2
    _preset("blitz-5", "300"),  # 5 minutes, sudden death
    _preset("sudden-death", "3600"),  # 60 minutes, sudden death
    _preset("fischer", "1500+10"),  # 25 minutes + 10 s increment
    _preset("bronstein", "3600B10"),  # 60 minutes, 10 s Bronstein delay
    _preset("us-delay", "3600S5"),  # 60 minutes, 5 s simple (US) delay
)
PRESET_KEYS = tuple(p.key for p in PRESETS)


def preset(key: str) -> TimeControl:
    for p in PRESETS:
        if p.key == key:
            return p.control
    raise ClockError(_("unknown clock preset {key!r}; known: {items}").format(key=key, items=', '.join(PRESET_KEYS)))
