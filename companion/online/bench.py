"""``companion bench --only lichess``: what playing on lichess costs the board.

A scripted lichess peer runs in this process on loopback (:class:`ScriptedLichess`: the
account, the event stream, one game's stream with an empty line every 50 ms, the move
endpoint; the lines as lichess's API describes them), so its clock is the bench's. The app's
own flow (simulated board, the real tracker, the journal on disk, the real link thread) plays
a 40-ply game as White from the board, Black's moves coming from the peer:

* **opponent's move to LED frame**: from the peer writing the ``gameState`` line with Black's
  move to the LED port receiving the frame that lights its from and to squares (the line read
  by the link thread, posted, the UI thread woken, the move asked of the player, the tracker's
  frame rendered);
* **board settled to move sent**: from the pump in which the tracker's settle time ends for
  White's move to the peer receiving ``POST /api/board/game/{id}/move/{uci}``; a move is
  journaled (one line, fsync) before it is played and sent, so the journal's write alone is
  timed beside it in the same folder;
* **sensor event to LED frame** of every lift and placement, with the game's stream open, and
  the same game played locally with no stream as the peer in the same run;
* **resident memory** of the app in a real window (companion.app.rest_bench's way: the child
  started as ``companion`` starts, measured from /proc) with a lichess game open, and of it the
  software OpenGL renderer's code, which a Pi does not have.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import tempfile
import threading
import time
from pathlib import Path
from typing import Callable

from ..broadcast.bench import GAME, hand_move

Row = tuple[str, float, str]

GAME_ID = "BenchGm1"
TOKEN = "lip_benchtoken01"
KEEPALIVE_S = 0.05


def _p99(samples: list[float]) -> float:
    s = sorted(samples)
    return s[max(0, int(len(s) * 0.99) - 1)]


class ScriptedLichess:
    """A lichess for the bench: one account, one game that starts at once, Black's moves
    written when :meth:`reply` is called; every move POST stamped with ``perf_counter``."""

    def __init__(self) -> None:
        self.moves: list[str] = []
        self.posted: list[tuple[str, float]] = []
        self.written: list[float] = []
        self.loop: asyncio.AbstractEventLoop | None = None
        self.queues: set[asyncio.Queue] = set()
        self.port = 0
        self._ready = threading.Event()
        self._stop: asyncio.Event | None = None
        self._thread = threading.Thread(target=self._run, name="bench-lichess", daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> str:
        self._thread.start()
        self._ready.wait(10)
        return self.url

    def stop(self) -> None:
        if self.loop is not None:
            self.loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(10)

    def reply(self, uci: str) -> None:
        """Black moves: the gameState line is written now (its time kept in ``written``)."""
        self.loop.call_soon_threadsafe(self._move, uci)

    def _run(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.loop.run_until_complete(self._serve())
        self.loop.close()

    async def _serve(self) -> None:
        from aiohttp import web

        self._stop = asyncio.Event()
        app = web.Application()
        app.router.add_get("/api/account", self._account)
        app.router.add_get("/api/stream/event", self._events)
        app.router.add_get("/api/board/game/stream/{id}", self._game)
        app.router.add_post("/api/board/game/{id}/move/{uci}", self._post)
        runner = web.AppRunner(app, access_log=None, shutdown_timeout=0.2)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]
        self._ready.set()
        await self._stop.wait()
        for q in self.queues:
            q.put_nowait(None)
        await runner.cleanup()

    def _state(self) -> dict:
        return {"type": "gameState", "moves": " ".join(self.moves), "wtime": 600000, "btime": 600000, "winc": 5000,
                "binc": 5000, "status": "started"}

    def _move(self, uci: str) -> None:
        self.moves.append(uci)
        line = json.dumps(self._state()).encode() + b"\n"
        self.written.append(time.perf_counter())
        for q in self.queues:
            q.put_nowait(line)

    async def _account(self, request):
        from aiohttp import web

        return web.json_response({"id": "bench", "username": "Bench"})

    async def _stream(self, request, first: list[dict]):
        from aiohttp import web

        resp = web.StreamResponse(headers={"Content-Type": "application/x-ndjson"})
        await resp.prepare(request)
        q: asyncio.Queue = asyncio.Queue()
        self.queues.add(q)
        try:
            for line in first:
                await resp.write(json.dumps(line).encode() + b"\n")
            while True:
                try:
                    item = await asyncio.wait_for(q.get(), KEEPALIVE_S)
                except asyncio.TimeoutError:
                    await resp.write(b"\n")
                    continue
                if item is None:
                    break
                if request.path.startswith("/api/board/game/stream/"):
                    await resp.write(item)
        except (ConnectionResetError, asyncio.CancelledError):
            pass
        finally:
            self.queues.discard(q)
        return resp

    async def _events(self, request):
        info = {"gameId": GAME_ID, "fullId": GAME_ID + "abcd", "color": "white", "fen": "startpos", "lastMove": "",
                "source": "friend", "status": {"id": 20, "name": "started"},
                "variant": {"key": "standard", "name": "Standard"}, "speed": "rapid", "perf": "rapid",
                "rated": False, "hasMoved": False, "opponent": {"id": "peer", "username": "Peer", "rating": 1500},
                "isMyTurn": True, "secondsLeft": 600, "compat": {"bot": False, "board": True}, "id": GAME_ID}
        return await self._stream(request, [{"type": "gameStart", "game": info}])

    async def _game(self, request):
        player = {"id": "bench", "name": "Bench", "title": None, "rating": 1500}
        full = {"type": "gameFull", "id": GAME_ID, "variant": {"key": "standard", "name": "Standard", "short": "Std"},
                "speed": "rapid", "perf": {"name": "Rapid"}, "rated": False, "createdAt": 0, "white": player,
                "black": {"id": "peer", "name": "Peer", "title": None, "rating": 1500}, "initialFen": "startpos",
                "clock": {"initial": 600000, "increment": 5000}, "state": self._state()}
        return await self._stream(request, [full])

    async def _post(self, request):
        from aiohttp import web

        uci = request.match_info["uci"]
        self.posted.append((uci, time.perf_counter()))
        self.loop.call_soon(self._move, uci)
        return web.json_response({"ok": True})


# ----- the app's flow, headless ----------------------------------------------------------------------------


def _flow(folder: Path, server: str | None):
    from ..app.presenters.flow import AppFlow, BoardLink
    from ..app.presenters.online_room import OnlineSetup
    from ..board.simulated import SimulatedBoard
    from ..board.tracker import Tracker
    from ..journal import JournalStore
    from ..session import Seat
    from .link import OnlineLink
    from .token import Token, save_token

    sim = SimulatedBoard(8, 8)
    clock = [0]
    woken = threading.Event()
    online = None
    if server is not None:
        save_token(folder / "lichess.token", Token(TOKEN))
        online = OnlineSetup(server, lambda base, token, post: OnlineLink(base, token, post, lambda: clock[0]))
    flow = AppFlow(BoardLink(sim, sim, 8, 8, simulated=sim), JournalStore(folder), make_tracker=Tracker,
                   clock_ms=lambda: clock[0], new_game_id=lambda: "bench", new_seed=lambda: b"\x01" * 32,
                   run_in_worker=lambda work: work(), online=online)
    flow.wake = woken.set
    flow.start()
    shown: list[tuple[float, tuple]] = []
    leds = flow.board.link.leds
    original = leds.show

    def show(frame) -> None:
        original(frame)
        shown.append((time.perf_counter(), frame))

    leds.show = show
    if server is None:
        flow.new_game("chess", (Seat("White"), Seat("Black")))
    else:
        flow.online.open()
        _pump_until(flow, clock, woken, lambda: flow.display.screen == "setup", 20)
    flow.game.fill_simulated_board()
    flow.pump(clock[0])
    _pump_until(flow, clock, woken, lambda: flow.display.screen == "game", 5)
    return flow, sim, clock, woken, shown


def _pump_until(flow, clock, woken, done: Callable[[], bool], seconds: float) -> None:
    end = time.monotonic() + seconds
    while not done():
        if time.monotonic() > end:
            raise RuntimeError(f"the bench game did not go on (screen {flow.display.screen})")
        woken.wait(0.01)
        woken.clear()
        clock[0] += 1
        flow.pump(clock[0])


def _online_game(folder: Path) -> tuple[list[float], list[float], list[float]]:
    peer = ScriptedLichess()
    peer.start()
    flow = None
    try:
        flow, sim, clock, woken, shown = _flow(folder, peer.url)
        g = flow.game.session.rules.geometry
        lit, sent, events = [], [], []
        for ply, uci in enumerate(GAME):
            if ply % 2 == 0:  # White: the player, from the board
                hand_move(flow, sim, clock, uci, events)
                clock[0] += 2000  # the tracker's settle time is over in this pump
                before = len(peer.posted)
                t0 = time.perf_counter()
                flow.pump(clock[0])
                end = time.monotonic() + 5
                while len(peer.posted) == before and time.monotonic() < end:
                    time.sleep(0.0002)
                if len(peer.posted) == before:
                    raise RuntimeError(f"{uci} was not sent")
                sent.append(peer.posted[-1][1] - t0)
                _pump_until(flow, clock, woken, lambda: len(flow.online_game.machine.moves) == ply + 1, 5)
            else:  # Black: the peer's move, lit on the board, then made there
                frm, to = g.parse_square(uci[:2]), g.parse_square(uci[2:4])
                mark = len(shown)
                peer.reply(uci)
                _pump_until(flow, clock, woken, lambda: any(f[frm] != (0, 0, 0) and f[to] != (0, 0, 0)
                                                            for _, f in shown[mark:]), 5)
                t_lit = next(t for t, f in shown[mark:] if f[frm] != (0, 0, 0) and f[to] != (0, 0, 0))
                lit.append(t_lit - peer.written[-1])
                hand_move(flow, sim, clock, uci, events)
                clock[0] += 2000
                flow.pump(clock[0])
        if len(flow.game.session.moves) != len(GAME):
            raise RuntimeError("the bench game was not played through")
        return lit, sent, events
    finally:
        if flow is not None:
            flow.stop()
        peer.stop()


def _local_game(folder: Path) -> list[float]:
    flow, sim, clock, woken, shown = _flow(folder, None)
    events: list[float] = []
    try:
        for uci in GAME:
            hand_move(flow, sim, clock, uci, events)
            clock[0] += 2000
            flow.pump(clock[0])
    finally:
        flow.stop()
    return events


def _journal_appends(folder: Path, n: int) -> list[float]:
    """The journal's own write of a move (one line, fsync), timed alone in the same folder: what
    a move costs before it may be sent (a move is journaled before it is played)."""
    from ..journal import JournalStore

    journal = JournalStore(folder).create()
    out = []
    try:
        for i in range(n):
            t = time.perf_counter()
            journal.append({"type": "move", "move": GAME[i % len(GAME)], "n": i})
            out.append(time.perf_counter() - t)
    finally:
        journal.close()
    return out


def bench_online(quick: bool = False) -> list[Row]:
    rounds = 1 if quick else 3
    lit, sent, online_events, local_events, appends = [], [], [], [], []
    with tempfile.TemporaryDirectory() as folder:
        for r in range(rounds):
            a, b, c = _online_game(Path(folder) / f"online-{r}")
            lit += a
            sent += b
            online_events += c
            local_events += _local_game(Path(folder) / f"local-{r}")
            appends += _journal_appends(Path(folder) / f"journal-{r}", len(b))
    ms = 1000
    rows = [
        ("lichess: opponent's move line to LED frame, median", statistics.median(lit) * ms, "ms"),
        ("lichess: opponent's move line to LED frame, p99", _p99(lit) * ms, "ms"),
        ("lichess: opponent's move line to LED frame, worst", max(lit) * ms, "ms"),
        ("lichess: board settled to move sent, median", statistics.median(sent) * ms, "ms"),
        ("lichess: board settled to move sent, p99", _p99(sent) * ms, "ms"),
        ("lichess: board settled to move sent, worst", max(sent) * ms, "ms"),
        ("lichess: of it the journal's write (fsync) alone, median", statistics.median(appends) * ms, "ms"),
        ("lichess: of it the journal's write (fsync) alone, p99", _p99(appends) * ms, "ms"),
        ("lichess: sensor event to LED, stream open, median", statistics.median(online_events) * ms, "ms"),
        ("lichess: sensor event to LED, stream open, p99", _p99(online_events) * ms, "ms"),
        ("lichess: sensor event to LED, local game, p99 (peer)", _p99(local_events) * ms, "ms"),
        ("lichess: p99 ratio stream open / local", _p99(online_events) / max(_p99(local_events), 1e-9), "x"),
        ("lichess: moves timed each way", float(len(lit) + len(sent)), ""),
    ]
    return rows + bench_online_memory(quick)


def bench_online_memory(quick: bool = False) -> list[Row]:
    """The app in a real window with a lichess game open (companion.app.rest_bench's scene
    ``lichess``): resident memory, and of it the software renderer's code."""
    from ..app import rest_bench

    peer = ScriptedLichess()
    peer.start()
    try:
        return rest_bench.measure_memory("lichess", extra_env={"COMPANION_LICHESS_URL": peer.url},
                                         prepare=_save_bench_token)
    finally:
        peer.stop()


def _save_bench_token(data: str) -> None:
    from .token import Token, save_token

    save_token(Path(data) / "lichess.token", Token(TOKEN))
