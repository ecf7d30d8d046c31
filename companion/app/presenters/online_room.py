"""Lichess from the board: the account, the link, the lobby (docs/online.md).

:class:`OnlineRoom` owns the lichess account of this board (its token file in the data folder,
mode 0600; who it is), the link to lichess (companion.online.link: a thread that only posts
to the Mailbox as ``online``), the state machine of lichess play (companion.online.play), the
page a phone connects the account through (companion.online.page) while the connect screen is
open, and what the lichess screen shows: the seek on its way, the challenges, the friends'
names. Everything lichess says about the game being played is published on the bus, where the
online game's room (online_game_room.py) hears it; commands for the link go through
:meth:`OnlineRoom.send`. The token is read from its file, handed to the link and never kept
anywhere else: not in a log, the journal, a notice or the screen.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from ... import player_names
from ...errors import CompanionError, OnlineError
from ...online import api
from ...online.lobby import ChallengeAnswered, ChallengesChanged, GameBegan, SeekEnded
from ...online.play import ConnectionChanged, GameNotTaken, OnlinePlay, RequestFailed
from ...online.token import FILE_NAME, Token, read_token, remove_token, save_token
from ...online.ndjson import KEEP_ALIVE
from ...online.transport import Answered, LineReceived, StreamLost
from .. import online_texts as W
from .display import Display
from .entry import Entry
from .mailbox import Mailbox
from .messages import Bus
from .storage import Storage

#: A token on a USB stick: this file at the top of the stick.
STICK_FILE = "lichess.token"
FRIENDS_FILE = "lichess-friends.json"
#: The clocks the lichess screen offers (minutes, increment s; days for correspondence): lichess's
#: rapid and classical pools, and three days a move.
CLOCKS = ((10, 0, None), (10, 5, None), (15, 10, None), (30, 0, None), (30, 20, None), (None, None, 3))


@dataclass(frozen=True)
class OnlineSetup:
    """How the app reaches lichess: the server's base URL, and the edges built from it (tests
    give the fake lichess's; the product companion.online.link and .page)."""

    server: str
    make_link: Callable[[str, Token, Callable[[Any], None]], Any]
    make_page: Callable[[str, Callable[[Token, str], None]], Any] | None = None


def clock_label(clock: tuple) -> str:
    minutes, increment, days = clock
    return W.DAYS.format(days=days) if days else f"{minutes}+{increment}"


class OnlineRoom:
    def __init__(self, display: Display, mailbox: Mailbox, storage: Storage, bus: Bus, *,
                 setup: OnlineSetup | None, clock_ms: Callable[[], int]) -> None:
        self.display = display
        self.mailbox = mailbox
        self.storage = storage
        self.bus = bus
        self.setup = setup
        self.clock_ms = clock_ms
        self.state = "none"  # none (no token), checking, connected, problem
        self.user = ""  # the account's name as lichess writes it
        self.user_id = ""
        self.problem = ""  # what went wrong, in one line
        self.notice = ""  # what just happened on the lichess screen
        self.link = None
        self.play: OnlinePlay | None = None
        self.page = None
        self.page_url = ""
        self.clock = 1  # the clock chosen on the lichess screen (CLOCKS)
        self.seeking = ""  # the clock sought, while a seek is on its way
        self.friend = ""  # the friend challenged last (for the answer's words)
        self.after_connect: list[Callable[[], None]] = []
        self.back_to = "start"  # where Back goes: the game it was opened from (its link down)
        self._face = ""  # the connection's line last shown (its seconds count down)

    @property
    def token_path(self) -> Path:
        return self.storage.directory / FILE_NAME

    @property
    def available(self) -> bool:
        return self.setup is not None

    # ----- the lichess screen ---------------------------------------------------------------------
    def open(self) -> None:
        """The start screen's lichess button: the account's screen (connect, or the lobby)."""
        self.notice = ""
        self.back_to = "game" if self.display.screen == "game" else "start"
        if self.state in ("none", "problem") and self.link is None:
            self.connect()
        if self.state == "none":
            self.open_page()
        self.display.show("online")

    def close(self) -> None:
        """Back: to the start screen, or to the lichess game the screen was opened from (its
        account connected again: the game goes on)."""
        self.close_page()
        self.display.show(self.back_to)
        self.back_to = "start"

    # ----- the account -------------------------------------------------------------------------------
    def connect(self) -> None:
        """Use the token in the data folder: the link starts and asks lichess who it is."""
        if self.setup is None:
            return
        try:
            token = read_token(self.token_path)
        except OnlineError as e:
            missing = not self.token_path.exists()
            self.state, self.problem = ("none", "") if missing else ("problem", str(e))
            self.display.changed()
            return
        self.stop_link()
        self.state, self.problem = "checking", ""
        self.link = self.setup.make_link(self.setup.server, token, lambda ev: self.mailbox.post("online", ev))
        self.link.start()
        self.link.send(api.account())
        self.display.changed()

    def token_arrived(self, value) -> None:
        """Mail ``online-token``: the board's page received a token (and lichess's name for it)."""
        token, _name = value
        self.keep_token(token)

    def keep_token(self, token: Token) -> str | None:
        """Save ``token`` (0600) and connect with it; what went wrong, or None."""
        try:
            save_token(self.token_path, token)
        except OnlineError as e:
            self.problem = str(e)
            self.display.changed()
            return str(e)
        self.close_page()
        self.connect()
        return None

    def from_stick(self) -> None:
        """A token in ``lichess.token`` at the top of a USB stick, copied into the data folder."""
        for stick in self.storage.sticks():
            path = Path(stick.path) / STICK_FILE
            if path.is_file():
                try:
                    text = path.read_bytes()[:4096].decode("utf-8-sig").strip()
                    token = Token(text.splitlines()[0] if text else "")
                except (OSError, UnicodeDecodeError, CompanionError) as e:
                    self.problem = f"{path}: {getattr(e, 'strerror', None) or e}"
                    self.display.changed()
                    return
                if self.keep_token(token) is None:
                    self.notice = W.STICK_COPIED.format(stick=stick.name)
                return
        self.notice = W.NO_STICK
        self.display.changed()

    def type_token(self) -> None:
        def typed(text: str) -> str | None:
            try:
                token = Token(text)
            except OnlineError as e:
                return str(e)
            return self.keep_token(token)

        self.display.open_entry(Entry(W.TYPE_TOKEN_TITLE, keys="text", upper=False, max_len=1024, on_done=typed))

    def disconnect(self) -> None:
        """Forget the account: the link stops, the token file is deleted."""
        self.stop_link()
        try:
            remove_token(self.token_path)
        except OnlineError as e:
            self.problem = str(e)
        self.state, self.user, self.user_id, self.play = "none", "", "", None
        self.notice = W.DISCONNECTED
        self.open_page()
        self.display.changed()

    def stop_link(self) -> None:
        if self.link is not None:
            self.link.stop()
            self.link = None

    def stop(self) -> None:
        self.close_page()
        self.stop_link()

    def open_page(self) -> None:
        """The page a phone connects the account through (its address is the screen's QR code)."""
        if self.page is not None or self.setup is None or self.setup.make_page is None:
            return
        try:
            self.page = self.setup.make_page(self.setup.server,
                                             lambda token, name: self.mailbox.post("online-token", (token, name)))
            self.page_url = self.page.start()
        except CompanionError as e:
            self.page, self.page_url = None, ""
            self.problem = W.CONNECT_NO_PAGE.format(reason=e)

    def close_page(self) -> None:
        if self.page is not None:
            self.page.stop()
            self.page, self.page_url = None, ""

    # ----- what the link reports ---------------------------------------------------------------------
    def receive(self, event) -> None:
        """Mail ``online``: one report of the link (UI thread)."""
        if isinstance(event, Answered) and event.request.kind == "account":
            self._account(event)
            return
        if self.play is None:
            return
        refused = isinstance(event, (StreamLost, Answered)) and \
            (event.status if isinstance(event, StreamLost) else event.answer.status) == 401
        items = self.play.handle(event, self.clock_ms())
        if not items and isinstance(event, LineReceived) and event.value is KEEP_ALIVE:
            # lichess's empty line, every 6 s on each stream: nothing to show, and no
            # activity, or the main loop would never rest (nor return memory) during a game
            return
        self.publish(items)
        if refused and self.state == "connected":
            self.token_refused()

    def token_refused(self) -> None:
        """lichess answered 401 (the token revoked, or expired): the link stops, the screen says
        so in one line and offers the ways to bring a token; a game on stays as it is (a move
        of ours not yet played is held) and goes on with the new token."""
        self.stop_link()
        self.state, self.problem = "none", W.TOKEN_REFUSED
        self.open_page()
        self.display.changed()

    def _account(self, event: Answered) -> None:
        answer = event.answer
        body = answer.body if isinstance(answer.body, dict) else {}
        if answer.ok and isinstance(body.get("id"), str):
            self.user_id, self.user = body["id"], str(body.get("username") or body["id"])[:40]
            self.state, self.problem = "connected", ""
            before, self.play = self.play, OnlinePlay(self.user_id)
            self.link.follow_events()
            if before is not None and before.game is not None:
                self.publish(self.play.carry_on(before.game))
            waiting, self.after_connect = self.after_connect, []
            for then in waiting:
                then()
        elif answer.status == 401:
            self.token_refused()
            return
        else:
            self.state = "problem"
            self.problem = W.LOST.format(reason=answer.error or f"lichess answered {answer.status}")
            self.stop_link()
        self.display.changed()

    def send(self, items: list) -> list:
        """Hand the link its commands among ``items``; the rest (events) are returned."""
        if self.link is None:
            return [x for x in items if not isinstance(x, api.Request)]
        return self.link.execute(items)

    def publish(self, items: list) -> None:
        """What lichess play said: commands to the link, the lobby's news here, every event on
        the bus (the online game's room hears the game's)."""
        for ev in self.send(items):
            self._lobby_news(ev)
            self.bus.publish(ev)
        self.display.changed()

    def _lobby_news(self, ev) -> None:
        if isinstance(ev, SeekEnded):
            self.notice = W.SEEK_TAKEN if ev.taken and self.seeking else self.notice
            self.seeking = ""
        elif isinstance(ev, ChallengeAnswered):
            name = ev.challenge.dest_user.name if ev.challenge.dest_user else self.friend
            self.notice = (W.CHALLENGE_DECLINED.format(name=name, reason=ev.reason) if ev.declined
                           else W.CHALLENGE_WITHDRAWN.format(name=name))
        elif isinstance(ev, RequestFailed):
            self.notice = W.NOT_SENT_WAIT if ev.status == 429 else W.REFUSED.format(reason=ev.reason)
            if ev.kind == "seek":
                self.seeking = ""
        elif isinstance(ev, GameNotTaken):
            self.notice = W.NOT_TAKEN.format(reason=ev.reason)
        elif isinstance(ev, GameBegan):
            self.seeking, self.notice = "", ""

    def tick(self, t_ms: int) -> None:
        if self.play is not None:
            items = self.play.tick(t_ms)
            if items:
                self.publish(items)
            face = self.connection_line(t_ms)
            if face != self._face:  # lichess's wait and the reconnection count down on the screen
                self._face = face
                self.display.changed(activity=False)

    # ----- the lobby -------------------------------------------------------------------------------------
    def choose_clock(self, index: int) -> None:
        if 0 <= index < len(CLOCKS):
            self.clock = index
            self.display.changed()

    def seek(self) -> None:
        if self.play is None:
            return
        minutes, increment, days = CLOCKS[self.clock]
        try:
            items = self.play.seek_correspondence(days) if days else self.play.seek(minutes, increment)
        except OnlineError as e:
            self.notice = str(e)
            self.display.changed()
            return
        self.seeking = clock_label(CLOCKS[self.clock]) if not days else ""
        self.notice = "" if not days else W.SEEKING.format(clock=W.CORRESPONDENCE.format(days=days))
        self.publish(items)

    def cancel_seek(self) -> None:
        if self.play is not None:
            self.seeking = ""
            self.publish(self.play.cancel_seek())

    def friends(self) -> list[str]:
        return player_names.load(self.storage.directory, FRIENDS_FILE)

    def challenge(self, name: str) -> str | None:
        """Challenge ``name`` on the chosen clock; what is wrong with it, or None."""
        if self.play is None:
            return W.NOT_CONNECTED
        minutes, increment, days = CLOCKS[self.clock]
        name = name.strip()
        try:
            items = self.play.challenge(name, days=days) if days else \
                self.play.challenge(name, limit_s=minutes * 60, increment_s=increment)
        except OnlineError as e:
            return str(e)
        try:
            player_names.remember(self.storage.directory, name, FRIENDS_FILE)
        except OSError:
            pass
        self.friend = name
        self.notice = W.CHALLENGED.format(name=name, clock=clock_label(CLOCKS[self.clock]))
        self.publish(items)
        return None

    def type_friend(self) -> None:
        self.display.open_entry(Entry(W.FRIEND_TITLE, keys="text", upper=False, max_len=30, on_done=self.challenge))

    def accept(self, challenge_id: str) -> None:
        if self.play is not None:
            self.publish(self.play.accept(challenge_id))

    def decline(self, challenge_id: str) -> None:
        if self.play is not None:
            self.publish(self.play.decline(challenge_id))

    def connection_line(self, now_ms: int | None = None) -> str:
        """Whether the board is connected to lichess, in words (every online screen shows it)."""
        if self.state == "checking":
            return W.CHECKING
        if self.play is None or self.state != "connected":
            return self.problem or W.NOT_CONNECTED
        c = self.play.connection()
        now = self.clock_ms() if now_ms is None else now_ms
        if c.held_until_ms is not None and c.held_until_ms > now:
            return W.HELD.format(seconds=(c.held_until_ms - now + 999) // 1000)
        if c.state == "connected":
            return W.CONNECTED_AS.format(name=self.user)
        if c.state == "lost":
            return W.LOST.format(reason=c.reason)
        if c.state == "offline" and c.retry_at_ms is not None and c.retry_at_ms > now:
            return W.RECONNECTING.format(seconds=(c.retry_at_ms - now + 999) // 1000, reason=c.reason)
        return W.RECONNECTING_NOW if c.state != "connecting" or self.play.lobby.connected else W.CHECKING

    def game_banner(self) -> str:
        """The game screen's warning strip while the link is down: the same words, and where to
        connect again when lichess refused the token."""
        if self.state == "none" and self.problem == W.TOKEN_REFUSED:
            return W.TOKEN_REFUSED_IN_GAME
        return self.connection_line()

    def connection_word(self) -> str:
        """The same, short (the game panel's last line; the banner says the rest)."""
        if self.is_connected():
            return W.CONNECTED_AS.format(name=self.user)
        return W.NOT_CONNECTED

    def is_connected(self) -> bool:
        return self.state == "connected" and self.play is not None and self.play.connection().is_connected


__all__ = ["OnlineRoom", "OnlineSetup", "CLOCKS", "clock_label", "ChallengesChanged", "ConnectionChanged"]
