"""The board's link to lichess: a thread with its own asyncio loop that only posts events.

:class:`OnlineLink` keeps the account's streams open (the event stream, and the game stream of
the game being played), opens them again after a failure (companion.online.backoff: a growing
wait, a full minute after a 429), sends the requests the app's rooms ask for one at a time,
and posts what happened as values through ``post`` (the app's queue, drained on the UI
thread): :class:`StreamOpened`, :class:`LineReceived` (a value of companion.online.events),
:class:`LineRefused`, :class:`StreamLost`, :class:`StreamEnded`, :class:`Answered`. It decides
nothing about the game: the state machines (companion.online.game, .lobby) do, on the UI
thread. Every public method may be called from any thread.
"""

from __future__ import annotations

import asyncio
import random
import threading
from typing import Any, Callable

from ..errors import OnlineError
from ..i18n import _
from . import api
from .api import Request
from .backoff import ENDED, HEALTHY_MS, RATE_LIMIT_MS, Backoff, failure_kind
from .client import LichessClient
from .events import GameFull, GameState, read_event_line, read_game_line
from .ndjson import KEEP_ALIVE
from .token import Token
from .game import Reopen
from .transport import (EVENTS, Answered, CancelSeek, FollowGame, LineReceived, LineRefused, StreamEnded, StreamLost,
                        StreamOpened, Unfollow)
#: Answers that no retry will change: the stream is given up and the reason said.
FATAL = (400, 401, 403, 404)


class OnlineLink:
    def __init__(self, base_url: str, token: Token, post: Callable[[Any], None], clock_ms: Callable[[], int],
                 rng: random.Random | None = None, rate_limit_ms: int = RATE_LIMIT_MS) -> None:
        self.base_url = base_url
        self.rate_limit_ms = rate_limit_ms
        self.post = post
        self.clock_ms = clock_ms
        self.rng = rng or random.Random()
        self._token = token
        self._client: LichessClient | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._streams: dict[str, asyncio.Task] = {}
        self._seek: asyncio.Task | None = None
        self._stop: asyncio.Event | None = None

    # ----- any thread -----------------------------------------------------------------------------------
    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="lichess", daemon=True)
        self._thread.start()
        self._ready.wait(10.0)

    def stop(self, timeout: float = 5.0) -> None:
        self._call(lambda: self._stop.set() if self._stop else None)
        if self._thread is not None:
            self._thread.join(timeout)

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def follow_events(self) -> None:
        self._call(lambda: self._follow(EVENTS, api.event_stream()))

    def follow_game(self, game_id: str) -> None:
        request = api.game_stream(game_id)
        self._call(lambda: self._follow(game_id, request))

    def reopen(self, stream: str) -> None:
        """Read a stream afresh now (a game stream starts again with gameFull)."""
        self._call(lambda: self._restart(stream))

    def unfollow(self, stream: str) -> None:
        self._call(lambda: self._cancel(stream))

    def send(self, request: Request) -> None:
        """Send ``request``; its answer is posted as :class:`Answered`. A stream request (a
        real-time seek) stays open until the server closes it or :meth:`cancel_seek`."""
        if request.stream:
            self._call(lambda: self._start_seek(request))
        else:
            self._call(lambda: asyncio.ensure_future(self._send(request)))

    def cancel_seek(self) -> None:
        self._call(self._cancel_seek)

    def execute(self, items: list) -> list:
        """Carry out the commands among ``items`` (what companion.online.play returns); the
        rest (the events for the board) are returned in order."""
        rest = []
        for item in items:
            if isinstance(item, Request):
                self.send(item)
            elif isinstance(item, Reopen):
                self.reopen(item.game_id)
            elif isinstance(item, FollowGame):
                self.follow_game(item.game_id)
            elif isinstance(item, Unfollow):
                self.unfollow(item.stream)
            elif isinstance(item, CancelSeek):
                self.cancel_seek()
            else:
                rest.append(item)
        return rest

    def _call(self, fn: Callable[[], Any]) -> None:
        loop = self._loop
        if loop is not None and not loop.is_closed():
            try:
                loop.call_soon_threadsafe(fn)
            except RuntimeError:  # the loop closed meanwhile
                pass

    # ----- the loop ---------------------------------------------------------------------------------------
    def _run(self) -> None:
        loop = asyncio.new_event_loop()
        self._loop = loop
        try:
            loop.run_until_complete(self._main())
        finally:
            loop.close()

    async def _main(self) -> None:
        self._stop = asyncio.Event()
        async with LichessClient(self.base_url, self._token, self.clock_ms, self.rate_limit_ms) as client:
            self._client = client
            self._ready.set()
            await self._stop.wait()
            tasks = list(self._streams.values()) + ([self._seek] if self._seek else [])
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

    async def _send(self, request: Request) -> None:
        answer = await self._client.call(request)
        self.post(Answered(request, answer))

    def _start_seek(self, request: Request) -> None:
        self._cancel_seek()

        async def seek() -> None:
            answer = await self._client.stream(request, lambda line: None, where=_("the seek"))
            self.post(Answered(request, answer))

        self._seek = asyncio.ensure_future(seek())

    def _cancel_seek(self) -> None:
        if self._seek is not None:
            self._seek.cancel()
            self._seek = None

    def _follow(self, name: str, request: Request) -> None:
        task = self._streams.get(name)
        if task is None or task.done():
            self._streams[name] = asyncio.ensure_future(self._keep_open(name, request))

    def _restart(self, name: str) -> None:
        task = self._streams.pop(name, None)
        if task is None:
            return
        task.cancel()
        request = api.event_stream() if name == EVENTS else api.game_stream(name)
        self.post(StreamLost(name, _("reading the game afresh"), self.clock_ms()))
        self._streams[name] = asyncio.ensure_future(self._keep_open(name, request))

    def _cancel(self, name: str) -> None:
        task = self._streams.pop(name, None)
        if task is not None:
            task.cancel()

    async def _keep_open(self, name: str, request: Request) -> None:
        backoff = Backoff(rate_limit_ms=self.rate_limit_ms)
        read = read_event_line if name == EVENTS else read_game_line
        while True:
            opened = [None]
            over = [False]

            def on_open() -> None:
                opened[0] = self.clock_ms()
                self.post(StreamOpened(name))

            def on_line(line: Any) -> None:
                if line is KEEP_ALIVE:
                    value = line
                else:
                    try:
                        value = read(line)
                    except OnlineError as e:
                        self.post(LineRefused(name, str(e)))
                        return
                    state = value.state if isinstance(value, GameFull) else value
                    if isinstance(state, GameState):
                        over[0] = not state.is_playing
                self.post(LineReceived(name, value, self.clock_ms()))

            answer = await self._client.stream(request, on_line, on_open, where=_("the {name} stream").format(name=name))
            now = self.clock_ms()
            if name != EVENTS and over[0] and answer.status == 200:
                self._streams.pop(name, None)
                self.post(StreamEnded(name))
                return
            if answer.status in FATAL:
                self._streams.pop(name, None)
                self.post(StreamLost(name, answer.error, None, answer.status))
                return
            healthy = opened[0] is not None and now - opened[0] >= HEALTHY_MS
            kind = ENDED if answer.status == 200 and healthy and not answer.error else failure_kind(
                None if answer.status == 200 else answer.status)
            if answer.status == 429 and answer.retry_at_ms is not None:
                retry = answer.retry_at_ms  # the whole client waits until then (lichess's full minute)
            else:
                retry = max(backoff.failed(kind, now, self.rng.random()), self._client.backoff.hold_until_ms)
            self.post(StreamLost(name, answer.error or _("the stream closed"), retry, answer.status))
            await asyncio.sleep(max(0.0, (retry - now) / 1000))
