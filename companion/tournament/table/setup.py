"""How a game is played at the table (:class:`TableSetup`: casual or tournament, the time
control, the event's tags), the check that a game can be played so, and the strict reading of
the table's journal entries."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...errors import ClockError, CompanionError, RecordError
from ...i18n import _, pgettext
from ...session import GameSetup, JsonFields, rules_for
from ..laws import ClaimedDraws
from ..timecontrol import TimeControl, parse_time_control

MODES = ("casual", "tournament")
#: Games a tournament may be played in with the board's help switched off. Chess 2 joins here
#: when its engine lands (its duels are commented through companion.tournament.record).
TOURNAMENT_GAMES = frozenset({"chess", "combat"})
RESULT_CODES = ("1-0", "0-1", "1/2-1/2")
MAX_TEXT = 200


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
            raise ClockError(_("the mode is casual or tournament, got {mode!r}").format(mode=self.mode))
        if self.time_control is not None:
            parse_time_control(self.time_control)
        if self.auto_press and self.mode != "casual":
            raise ClockError(_('the clock presses itself in casual play only'))
        if self.auto_press and self.time_control is None:
            raise ClockError(_('a clock that presses itself needs a time control'))
        if self.mode == "tournament" and self.time_control is None:
            raise ClockError(_('a tournament game needs a clock: the move is completed by pressing it'))
        for name in ("event", "site", "date", "round", "board", "source"):
            value = getattr(self, name)
            if not isinstance(value, str) or len(value) > MAX_TEXT or "\n" in value:
                raise ClockError(_("{name} must be one line of text (at most {most} characters), got {value!r}").format(name=name, most=MAX_TEXT, value=value))
        for r in self.ratings:
            if r is not None and (isinstance(r, bool) or not isinstance(r, int) or not 0 <= r <= 4000):
                raise ClockError(_("a rating is a whole number from 0 to 4000, got {rating!r}").format(rating=r))
        for i in self.ids:
            if not isinstance(i, str) or len(i) > 40:
                raise ClockError(_("a player id is short text, got {id!r}").format(id=i))

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
    def from_json(cls, value: Any, where: str | None = None) -> TableSetup:
        where = pgettext("where in a record", "table") if where is None else where
        keys = ("type", "version", "mode", "time_control", "auto_press", "last_move", "event", "site", "date",
                "round", "board", "ratings", "ids", "source")
        f = TableEntry(value, where, keys)
        if f.value["version"] != 1:
            raise RecordError(_("{where}: table version {version!r} is not known (this companion reads 1)").format(where=where, version=f.value['version']))
        ratings = f.value["ratings"]
        ids = f.value["ids"]
        if not isinstance(ratings, list) or not isinstance(ids, list):
            raise RecordError(_("{where}: 'ratings' and 'ids' must be lists").format(where=where))
        try:
            return cls(f.text("mode"), f.optional_text("time_control"), f.flag("auto_press"), f.flag("last_move"),
                       f.text("event"), f.text("site"), f.text("date"), f.text("round"), f.text("board"),
                       tuple(ratings), tuple(ids), f.text("source"))
        except CompanionError as e:
            raise RecordError(_("{where}: {problem}").format(where=where, problem=e)) from None


def check_setup(game: GameSetup, setup: TableSetup) -> None:
    """Refuse a table the game cannot be played at (ClockError says why)."""
    if setup.tournament:
        if game.game not in TOURNAMENT_GAMES:
            raise ClockError(_("{game} has no tournament mode (it has: {items})").format(game=game.game, items=', '.join(sorted(TOURNAMENT_GAMES))))
        if any(seat.computer for seat in game.seats):
            raise ClockError(_('a tournament game has no computer player'))
    control = setup.control
    if control is not None and control.hourglass and len(game.seats) != 2:
        raise ClockError(_('an hourglass is for two players'))
    if setup.ratings and len(setup.ratings) != len(game.seats):
        raise ClockError(_("{n} ratings for {players} players").format(n=len(setup.ratings), players=len(game.seats)))
    if setup.ids and len(setup.ids) != len(game.seats):
        raise ClockError(_("{n} player ids for {players} players").format(n=len(setup.ids), players=len(game.seats)))


def rules_at_table(game: GameSetup, setup: TableSetup):
    """The session's rules for the set-up (companion.session.rules_for), with draws claimed
    rather than automatic in tournament mode."""
    rules = rules_for(game)
    return ClaimedDraws(rules) if setup.tournament else rules


class TableEntry(JsonFields):
    """Strict reading of one table entry (the session's reader, with ranges and sides)."""

    def optional_text(self, key: str) -> str | None:
        value = self.value.get(key)
        if value is not None and (not isinstance(value, str) or len(value) > MAX_TEXT):
            raise RecordError(_("{where}: field {key!r} must be text of at most {most} characters").format(where=self.where, key=key, most=MAX_TEXT))
        return value

    def integer(self, key: str, least: int, most: int) -> int:  # type: ignore[override]
        v = self.value.get(key)
        if isinstance(v, bool) or not isinstance(v, int) or not least <= v <= most:
            raise RecordError(_("{where}: field {key!r} must be a whole number from {least} to {most}, got {value!r}").format(where=self.where, key=key, least=least, most=most, value=v))
        return v

    def side(self, key: str, n: int) -> int:
        return self.integer(key, 0, n - 1)


