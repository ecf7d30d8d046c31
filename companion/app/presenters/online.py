"""The lichess screen: connecting the board's account (a QR code for the phone, a USB stick, the
keyboard), and once connected, seeking a game, challenging a friend, answering challenges.
Every state says whether the board is connected (docs/online.md)."""

from __future__ import annotations

from dataclasses import dataclass

from .. import online_texts as W
from .display import Display
from .game_text import qr_matrix
from .online_room import CLOCKS, OnlineRoom, clock_label

MAX_FRIENDS = 3
MAX_INCOMING = 2


@dataclass(frozen=True)
class ChallengeLine:
    id: str
    text: str


@dataclass(frozen=True)
class OnlineView:
    mode: str  # connect (no token: the QR code), checking, lobby, problem
    title: str
    connection: str
    qr: tuple[tuple[bool, ...], ...]
    page: str
    steps: str
    clocks: tuple[tuple[str, bool], ...]
    seeking: str
    friends: tuple[str, ...]
    incoming: tuple[ChallengeLine, ...]
    games: tuple[ChallengeLine, ...]  # lichess games going on that the board is not playing
    notice: str
    problem: str
    no_challenges: str = ""


class OnlinePresenter:
    def __init__(self, online: OnlineRoom, display: Display) -> None:
        self.online = online
        self.display = display
        self._qr = ("", ())

    # commands, one per button
    def back(self) -> None:
        self.online.close()

    def from_stick(self) -> None:
        self.online.from_stick()

    def type_token(self) -> None:
        self.online.type_token()

    def retry(self) -> None:
        self.online.connect()
        if self.online.state == "none":
            self.online.open_page()
        self.display.changed()

    def disconnect(self) -> None:
        self.online.disconnect()

    def choose_clock(self, index: int) -> None:
        self.online.choose_clock(index)

    def seek(self) -> None:
        self.online.seek()

    def stop_seeking(self) -> None:
        self.online.cancel_seek()

    def challenge(self, name: str) -> None:
        problem = self.online.challenge(name)
        if problem:
            self.online.notice = problem
            self.display.changed()

    def another_name(self) -> None:
        self.online.type_friend()

    def accept(self, challenge_id: str) -> None:
        self.online.accept(challenge_id)

    def decline(self, challenge_id: str) -> None:
        self.online.decline(challenge_id)

    def play_here(self, game_id: str) -> None:
        play = self.online.play
        if play is not None:
            self.online.publish(play.follow(game_id))

    def view(self) -> OnlineView:
        o = self.online
        mode = {"none": "connect", "checking": "checking", "connected": "lobby", "problem": "problem"}[o.state]
        qr: tuple = ()
        if mode == "connect" and o.page_url:
            if self._qr[0] != o.page_url:
                self._qr = (o.page_url, qr_matrix(o.page_url))
            qr = self._qr[1]
        clocks = tuple((clock_label(c), i == o.clock) for i, c in enumerate(CLOCKS))
        incoming, games, none = (), (), ""
        if o.play is not None:
            lobby = o.play.lobby
            incoming = tuple(ChallengeLine(c.id, W.INCOMING.format(
                name=c.challenger.shown, rating=c.challenger.rating or "?", clock=c.time_control,
                rated=W.RATED if c.rated else "")) for c in list(lobby.incoming.values())[:MAX_INCOMING])
            playing = o.play.game.game_id if o.play.game is not None else None
            games = tuple(ChallengeLine(g.game_id, W.GAMES_ON.format(name=g.opponent.shown))
                          for g in lobby.games.values() if g.game_id != playing)[:1]
            none = "" if incoming else W.NO_CHALLENGES.format(name=o.user)
        title = W.TITLE if mode == "lobby" else W.CONNECT_TITLE
        # the connect screen says what went wrong in full beside the code: its first line is short
        connection = W.NOT_CONNECTED if mode == "connect" and o.problem else o.connection_line()
        return OnlineView(mode, title, connection, qr, o.page_url, W.CONNECT_STEPS, clocks,
                          W.SEEKING.format(clock=o.seeking) if o.seeking else "",
                          tuple(o.friends()[:MAX_FRIENDS]) if mode == "lobby" else (), incoming, games,
                          o.notice, o.problem, none)
