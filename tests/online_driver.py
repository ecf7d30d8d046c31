"""The board's side of a lichess game without a screen: the link (a real thread, real HTTP on
loopback) and companion.online.play, pumped the way the app's online room pumps them."""

from __future__ import annotations

import queue
import time
from typing import Any, Callable

from companion.online.link import OnlineLink
from companion.online.play import OnlinePlay
from companion.online.token import Token


def clock_ms() -> int:
    return int(time.monotonic() * 1000)


class Board:
    def __init__(self, url: str, token: str = "lip_board0001", me: str = "bobby", **link_options: Any) -> None:
        self.q: queue.Queue = queue.Queue()
        self.play = OnlinePlay(me)
        self.link = OnlineLink(url, Token(token), self.q.put, clock_ms, **link_options)
        self.raw: list[Any] = []  # what the link posted
        self.seen: list[Any] = []  # what the board was told

    def __enter__(self) -> Board:
        self.link.start()
        self.link.follow_events()
        return self

    def __exit__(self, *exc) -> None:
        self.link.stop()

    def do(self, items: list) -> list:
        rest = self.link.execute(items)
        self.seen += rest
        return rest

    def pump(self, until: Callable[[], bool], timeout: float = 10.0, what: str = "") -> None:
        """Handle what the link posts until ``until()`` holds (AssertionError after ``timeout``)."""
        deadline = time.monotonic() + timeout
        while not until():
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"timed out waiting for {what or until}; last seen: {self.seen[-6:]}")
            try:
                event = self.q.get(timeout=min(left, 0.05))
            except queue.Empty:
                self.do(self.play.tick(clock_ms()))
                continue
            self.raw.append(event)
            self.do(self.play.handle(event, clock_ms()))
            self.do(self.play.tick(clock_ms()))

    def saw(self, kind: type, **fields: Any) -> bool:
        return any(isinstance(x, kind) and all(getattr(x, k) == v for k, v in fields.items()) for x in self.seen)

    def count(self, kind: type) -> int:
        return sum(isinstance(x, kind) for x in self.seen)

    def move(self, uci: str) -> None:
        self.do(self.play.play(uci, clock_ms()))
