"""What the board asks of lichess, as values (sans-I/O): each function returns a
:class:`Request` that the adapter (companion.online.link) sends with the account's token.

The token never passes through here: the adapter adds the ``Authorization`` header, and the
one request whose body is the token (``/api/token/test``) says so with ``body_is_token``.
Paths, methods and fields follow lichess's OpenAPI description (docs/online.md names the
files); a time control the Board API does not allow is refused here, in one line, before
anything is sent.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from urllib.parse import quote

from ..errors import OnlineError
from ..i18n import N_, _, ngettext

#: The server when neither ``--server`` nor the variable below names one; the variable that does
#: (here, not in the aiohttp adapter, so that ``companion lichess --help`` is built without it).
DEFAULT_SERVER = "https://lichess.org"
SERVER_ENV = "COMPANION_LICHESS_URL"

#: Correspondence days per move the API accepts (api-board-seek.yaml, api-challenge-username.yaml).
DAYS = (1, 2, 3, 5, 7, 10, 14)
#: A real-time challenge's initial time in seconds: these, and any multiple of 60 up to 3 hours.
CHALLENGE_LIMITS_S = (0, 15, 30, 45, 60, 90)
#: lichess's speed of a clock: its estimated duration (initial + 40 x increment, in seconds)
#: below each bound (the FAQ's time controls); 1500 s and more is classical.
SPEEDS = (("ultraBullet", 30), ("bullet", 180), ("blitz", 480), ("rapid", 1500))
#: The Board API's seeks: rapid and classical only; a direct challenge may also be blitz
#: (the Board tag's "Restrictions" in lichess-api.yaml).
SEEK_SPEEDS = ("rapid", "classical")
CHALLENGE_SPEEDS = ("blitz", "rapid", "classical")
#: The seeks the board offers (minutes, increment seconds): lichess's rapid and classical pools.
SEEK_PRESETS = ((10, 0), (10, 5), (15, 10), (30, 0), (30, 20))
#: Lichess user names: 2 to 30 letters, digits, ``_`` and ``-``.
USER_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,28}[A-Za-z0-9]$")
GAME_ID = re.compile(r"^[A-Za-z0-9]{8}$")
CHALLENGE_ID = re.compile(r"^[A-Za-z0-9]{8}$")
ROUND_ID = re.compile(r"^[A-Za-z0-9]{8}$")
UCI = re.compile(r"^[a-h][1-8][a-h][1-8][qrbn]?$")
DECLINE_REASONS = ("generic", "later", "tooFast", "tooSlow", "timeControl", "rated", "casual", "standard",
                   "variant", "noBot", "onlyBot")


@dataclass(frozen=True)
class Request:
    """One HTTP request: ``kind`` names it for the adapter's answers (``move``, ``seek`` ...);
    ``stream``: the answer is ndjson read line by line; ``form``: an urlencoded body; ``text``:
    a text/plain body."""

    kind: str
    method: str
    path: str
    form: tuple[tuple[str, str], ...] = ()
    query: tuple[tuple[str, str], ...] = ()
    text: str | None = None
    stream: bool = False
    body_is_token: bool = False
    tag: str = field(default="", compare=False)  # what it is about (a game id, a move), for the answer


def speed_of(limit_s: int, increment_s: int) -> str:
    estimate = limit_s + 40 * increment_s
    for name, below in SPEEDS:
        if estimate < below:
            return name
    return "classical"


#: What ``_check`` calls the ids (marked here: Babel does not look inside the f-strings that check them).
GAME_ID_WORDS, CHALLENGE_ID_WORDS, ROUND_ID_WORDS = N_("game id"), N_("challenge id"), N_("broadcast round id")


def _check(pattern: re.Pattern, value: str, what: str) -> str:
    if not isinstance(value, str) or not pattern.match(value):
        raise OnlineError(_("{value!r} is not a lichess {what}").format(value=str(value)[:40], what=_(what)))
    return value


def account() -> Request:
    return Request("account", "GET", "/api/account")


def token_test() -> Request:
    return Request("token", "POST", "/api/token/test", body_is_token=True)


def event_stream() -> Request:
    return Request("events", "GET", "/api/stream/event", stream=True)


def game_stream(game_id: str) -> Request:
    return Request("game", "GET", f"/api/board/game/stream/{_check(GAME_ID, game_id, GAME_ID_WORDS)}", stream=True,
                   tag=game_id)


def move(game_id: str, uci: str, offering_draw: bool = False) -> Request:
    _check(UCI, uci, N_("move (UCI)"))
    return Request("move", "POST", f"/api/board/game/{_check(GAME_ID, game_id, GAME_ID_WORDS)}/move/{uci}",
                   query=(("offeringDraw", "true"),) if offering_draw else (), tag=uci)


def _game_action(kind: str, game_id: str, tail: str) -> Request:
    return Request(kind, "POST", f"/api/board/game/{_check(GAME_ID, game_id, GAME_ID_WORDS)}/{tail}", tag=game_id)


def draw(game_id: str, yes: bool) -> Request:
    """Offer or accept a draw (yes), or decline the opponent's offer (no)."""
    return _game_action("draw", game_id, f"draw/{'yes' if yes else 'no'}")


def takeback(game_id: str, yes: bool) -> Request:
    """Propose or accept a takeback (yes), or decline the opponent's (no)."""
    return _game_action("takeback", game_id, f"takeback/{'yes' if yes else 'no'}")


def resign(game_id: str) -> Request:
    return _game_action("resign", game_id, "resign")


def abort(game_id: str) -> Request:
    return _game_action("abort", game_id, "abort")


def claim_victory(game_id: str) -> Request:
    return _game_action("claim-victory", game_id, "claim-victory")


def claim_draw(game_id: str) -> Request:
    """The opponent has left for long enough: a draw instead of the win
    (tags/board/api-board-game-gameId-claim-draw.yaml)."""
    return _game_action("claim-draw", game_id, "claim-draw")


def chat_read(game_id: str) -> Request:
    return Request("chat", "GET", f"/api/board/game/{_check(GAME_ID, game_id, GAME_ID_WORDS)}/chat", tag=game_id)


def check_clock(minutes: float, increment_s: int, speeds: tuple[str, ...], what: str) -> str:
    """The speed of a clock the Board API allows for ``what``; OnlineError says why not."""
    if not (0 <= minutes <= 180) or not (0 <= increment_s <= 180):
        raise OnlineError(_("{minutes:g}+{increment}: lichess's clocks are 0 to 180 minutes and 0 to 180 s a move").format(
            minutes=minutes, increment=increment_s))
    speed = speed_of(int(minutes * 60), increment_s)
    if speed not in speeds:
        message = (_("{minutes:g}+{increment} is {speed}: lichess lets a board seek {speeds} or {last} games "
                     "only (or correspondence)") if what == "seek" else
                   _("{minutes:g}+{increment} is {speed}: lichess lets a board play {speeds} or {last} games "
                     "only (or correspondence)"))
        raise OnlineError(message.format(minutes=minutes, increment=increment_s, speed=speed,  # lichess's speed names
                                         speeds=", ".join(speeds[:-1]), last=speeds[-1]))
    return speed


def _days(days: int) -> str:
    if days not in DAYS:
        raise OnlineError(ngettext("{n} day: lichess's correspondence games give {days} days a move",
                                   "{n} days: lichess's correspondence games give {days} days a move", days).format(
            n=days, days=', '.join(map(str, DAYS))))
    return str(days)


def _colour(color: str) -> tuple[tuple[str, str], ...]:
    if color not in ("random", "white", "black"):
        raise OnlineError(_("{color!r}: the colour is random, white or black").format(color=color[:20]))
    return () if color == "random" else (("color", color),)


def seek(minutes: float, increment_s: int, rated: bool = False, color: str = "random") -> Request:
    """A real-time seek (rapid or classical); the answer streams until someone takes it."""
    check_clock(minutes, increment_s, SEEK_SPEEDS, "seek")
    form = (("rated", "true" if rated else "false"), ("time", f"{minutes:g}"), ("increment", str(increment_s)))
    return Request("seek", "POST", "/api/board/seek", form=form + _colour(color), stream=True)


def seek_correspondence(days: int, rated: bool = False) -> Request:
    form = (("rated", "true" if rated else "false"), ("days", _days(days)))
    return Request("seek", "POST", "/api/board/seek", form=form)


def challenge(username: str, *, limit_s: int | None = None, increment_s: int | None = None,
              days: int | None = None, rated: bool = False, color: str = "random") -> Request:
    """Challenge ``username``: a clock (``limit_s`` + ``increment_s``) or ``days`` a move."""
    _check(USER_NAME, username, N_("user name"))
    form = [("rated", "true" if rated else "false")]
    if days is not None:
        form.append(("days", _days(days)))
    else:
        if limit_s is None or increment_s is None:
            raise OnlineError(_("a challenge needs a clock (minutes and increment) or days a move"))
        if not (limit_s in CHALLENGE_LIMITS_S or (limit_s % 60 == 0 and 0 < limit_s <= 10800)):
            raise OnlineError(_("{seconds} s: a challenge's clock starts at 0, 15, 30, 45, 60, 90 s or whole minutes "
                                "up to 3 hours").format(seconds=limit_s))
        if not 0 <= increment_s <= 60:
            raise OnlineError(_("+{increment} s: a challenge's increment is 0 to 60 s").format(increment=increment_s))
        check_clock(limit_s / 60, increment_s, CHALLENGE_SPEEDS, "play")
        form += [("clock.limit", str(limit_s)), ("clock.increment", str(increment_s))]
    return Request("challenge", "POST", f"/api/challenge/{quote(username)}", form=tuple(form) + _colour(color),
                   tag=username)


def accept(challenge_id: str) -> Request:
    return Request("accept", "POST", f"/api/challenge/{_check(CHALLENGE_ID, challenge_id, CHALLENGE_ID_WORDS)}/accept",
                   tag=challenge_id)


def decline(challenge_id: str, reason: str = "generic") -> Request:
    if reason not in DECLINE_REASONS:
        raise OnlineError(_("{reason!r} is not a reason lichess knows for declining").format(reason=reason[:20]))
    return Request("decline", "POST",
                   f"/api/challenge/{_check(CHALLENGE_ID, challenge_id, CHALLENGE_ID_WORDS)}/decline",
                   form=(("reason", reason),), tag=challenge_id)


def cancel(challenge_id: str) -> Request:
    return Request("cancel", "POST", f"/api/challenge/{_check(CHALLENGE_ID, challenge_id, CHALLENGE_ID_WORDS)}/cancel",
                   tag=challenge_id)


def broadcast_push(round_id: str, pgn: str) -> Request:
    """Push a round's PGN (up to 100 games) to a lichess broadcast round (needs study:write)."""
    return Request("push", "POST", f"/api/broadcast/round/{_check(ROUND_ID, round_id, ROUND_ID_WORDS)}/push",
                   text=pgn, tag=round_id)


def round_id(text: str) -> str:
    """A broadcast round's id, given alone or as the round's URL (its last 8 characters)."""
    t = (text or "").strip().rstrip("/")
    tail = t.rsplit("/", 1)[-1]
    if not ROUND_ID.match(tail):
        raise OnlineError(_("{t!r}: a lichess broadcast round id is 8 letters and digits (the end of the round's "
                            "address, e.g. https://lichess.org/broadcast/club/round-1/AbCd1234)").format(t=t[:60]))
    return tail
