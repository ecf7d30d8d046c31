"""The hall's round pushed to a lichess broadcast round as its boards change (``companion hall
--lichess-round ID``; docs/online.md, "A round on a lichess broadcast").

:class:`LichessPusher` runs on the hall's loop: it looks at the hall's round PGN every
quarter second, and :class:`~companion.online.push.PushSchedule` decides when to push (only a
change, one push at a time, at least 2 s apart, a full minute after a 429, never the same text
again after lichess refused it). What happened is said through ``say`` (the hall's console)
when it changes, and shown in ``/hall.json`` (``lichess``). The token comes from its file
(0600) and goes only into the ``Authorization`` header.
"""

from __future__ import annotations

import asyncio
import random
from typing import Callable

from ..i18n import _, ngettext
from ..online import api
from ..online.client import LichessClient
from ..online.push import PushSchedule
from ..online.token import Token

TICK_S = 0.25
#: Seconds the hall waits, when it stops, for the last push of the round's final state.
FINAL_PUSH_S = 5.0


class LichessPusher:
    def __init__(self, round_pgn: Callable[[], str], version: Callable[[], int], round_id: str, base_url: str,
                 token: Token, clock_ms: Callable[[], int], say: Callable[[str], None] = lambda line: None) -> None:
        self.round_pgn, self.version = round_pgn, version
        self.round_id, self.base_url = round_id, base_url
        self._token = token
        self.clock_ms, self.say = clock_ms, say
        self.schedule = PushSchedule()
        self._seen = -1
        self._said = ""
        self._client: LichessClient | None = None
        self._task: asyncio.Task | None = None
        self._rng = random.Random()

    @property
    def url(self) -> str:
        return f"{self.base_url}/broadcast/-/-/{self.round_id}"

    async def start(self) -> None:
        self._client = LichessClient(self.base_url, self._token, self.clock_ms)
        await self._client.__aenter__()
        self._task = asyncio.ensure_future(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        if self._client is not None:
            try:
                await asyncio.wait_for(self._final_push(), FINAL_PUSH_S)
            except asyncio.TimeoutError:
                pass
            await self._client.close()

    def status(self) -> dict:
        s = self.schedule
        not_chess, over = s.left_out
        return {"round": self.round_id, "pushes": s.pushes, "problem": s.problem, "not_chess": not_chess,
                "over_limit": over, "waiting": s.in_flight is not None}

    async def _run(self) -> None:
        while True:
            await self.push_once()
            await asyncio.sleep(TICK_S)

    async def push_once(self) -> None:
        """Look at the round; push it if it is time (one step of the loop, for tests too)."""
        if self.version() != self._seen:
            self._seen = self.version()
            self.schedule.changed(self.round_pgn())
        now = self.clock_ms()
        text = self.schedule.due(now)
        if text is None:
            return
        answer = await self._client.call(api.broadcast_push(self.round_id, text))
        self.schedule.answered(answer.status, answer.error, self.clock_ms(), self._rng.random())
        self._report()

    async def _final_push(self) -> None:
        self.schedule.changed(self.round_pgn())
        self.schedule.last_ms = None
        self.schedule.next_ms = min(self.schedule.next_ms, self.clock_ms())
        text = self.schedule.due(self.clock_ms())
        if text is not None:
            answer = await self._client.call(api.broadcast_push(self.round_id, text))
            self.schedule.answered(answer.status, answer.error, self.clock_ms())
            self._report()

    def _report(self) -> None:
        s = self.schedule
        not_chess, over = s.left_out
        if s.problem:
            line = _("lichess round {round}: {problem}").format(round=self.round_id, problem=s.problem)
        else:
            games = s.pushed.count("[Event ") if s.pushed else 0
            line = ngettext("lichess round {round}: pushed ({n} game)", "lichess round {round}: pushed ({n} games)",
                            games).format(round=self.round_id, n=games)
            if not_chess:
                line += "; " + ngettext("{n} game not of chess left out (lichess shows chess only)",
                                        "{n} games not of chess left out (lichess shows chess only)",
                                        not_chess).format(n=not_chess)
            if over:
                line += "; " + ngettext("{n} game past lichess's 100 left out", "{n} games past lichess's 100 left out",
                                        over).format(n=over)
        key = f"{s.problem or 'pushed'} {s.left_out}"
        if key != self._said:  # said once for each change of state, not for every push
            self._said = key
            self.say(line)
