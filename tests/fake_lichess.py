"""A lichess on loopback for the tests: the Board API's endpoints and payloads, misbehaving on demand.

It follows lichess's OpenAPI description (the files docs/online.md names): the account
(``/api/account``, ``/api/token/test``), the event stream (``/api/stream/event``: every current
challenge and game when it opens, then ``gameStart``, ``gameFinish``, ``challenge``,
``challengeCanceled``, ``challengeDeclined``, an empty line every ``keepalive_s``), a game's
stream (``/api/board/game/stream/{id}``: ``gameFull`` first, then ``gameState``, ``chatLine``,
``opponentGone``; closed when the game ends), the move, draw, takeback, resign, abort,
claim-victory and chat endpoints, seeks (real-time: streamed until taken; correspondence: the
seek's id), challenges (create, accept, decline, cancel) and a broadcast round's push. Moves
are checked with python-chess.

The test plays the other side through the control methods (``opponent_move``,
``offer_draw``, ``propose_takeback``, ``chat``, ``opponent_gone`` ...), each run on the
server's loop and waited for. Misbehaviour: :meth:`FakeLichess.fault` (the next requests of a
kind answered 429, 5xx or 400 with lichess-like words, slowly, or played and then left
unanswered), :meth:`FakeLichess.cut_streams` (every open stream of a kind cut in the middle of
a line). Every request is recorded (``requests``) for tests that count what was sent.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import threading
import time
from dataclasses import dataclass, field
from typing import Any

import chess
import chess.pgn
from aiohttp import web

OK = {"ok": True}


def _id(n: int = 8) -> str:
    alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
    return "".join(secrets.choice(alphabet) for _ in range(n))


@dataclass
class Fault:
    kind: str
    status: int = 0  # 0: answer normally (after ``delay_s``)
    times: int = 1
    delay_s: float = 0.0
    error: str = ""
    apply_then_drop: bool = False  # play the request, then close the connection unanswered


@dataclass
class User:
    id: str
    username: str
    rating: int = 1500


@dataclass
class Game:
    id: str
    white: str
    black: str
    initial_ms: int | None
    increment_ms: int | None
    days: int | None
    rated: bool
    board: chess.Board = field(default_factory=chess.Board)
    moves: list[str] = field(default_factory=list)
    wtime: int = 0
    btime: int = 0
    last_ms: int = 0
    status: str = "started"
    winner: str = ""
    wdraw: bool = False
    bdraw: bool = False
    wtakeback: bool = False
    btakeback: bool = False
    gone: dict[str, float] = field(default_factory=dict)  # user -> claim time (ms)
    chat: list[dict[str, str]] = field(default_factory=list)
    created_ms: int = 0

    def colour_of(self, user: str) -> str:
        return "white" if user == self.white else "black" if user == self.black else ""

    def to_move(self) -> str:
        return self.white if self.board.turn == chess.WHITE else self.black

    @property
    def playing(self) -> bool:
        return self.status in ("created", "started")


class FakeLichess:
    def __init__(self, keepalive_s: float = 6.0, clock_ms=None) -> None:
        self.keepalive_s = keepalive_s
        self.clock_ms = clock_ms or (lambda: int(time.monotonic() * 1000))
        self.users: dict[str, User] = {}
        self.tokens: dict[str, tuple[str, str]] = {}  # token -> (user id, scopes)
        self.games: dict[str, Game] = {}
        self.challenges: dict[str, dict[str, Any]] = {}
        self.seeks: list[dict[str, Any]] = []
        self.pushes: list[tuple[int, str, str]] = []  # (ms, round id, pgn)
        self.broadcast_rounds: set[str] = set()
        self.requests: list[tuple[str, str, dict[str, str]]] = []
        self.faults: list[Fault] = []
        self.auto_pair: tuple[str, float] | None = None  # (opponent, seconds) for seeks
        self.oauth_user: str | None = None  # who allows a board at /oauth (None: the player says no)
        self._codes: dict[str, dict[str, str]] = {}
        self._event_subs: dict[str, set[asyncio.Queue]] = {}
        self._game_subs: dict[str, set[asyncio.Queue]] = {}
        self._seek_waiters: dict[str, asyncio.Future] = {}
        self.loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._runner: web.AppRunner | None = None
        self.port = 0
        self._ready = threading.Event()
        self._stop: asyncio.Event | None = None

    # ----- running ------------------------------------------------------------------------------------
    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> str:
        self._thread = threading.Thread(target=self._run, name="fake-lichess", daemon=True)
        self._thread.start()
        assert self._ready.wait(10), "the fake lichess did not start"
        return self.url

    def stop(self) -> None:
        if self.loop is not None and self._stop is not None:
            self.loop.call_soon_threadsafe(self._stop.set)
        if self._thread is not None:
            self._thread.join(10)

    def __enter__(self) -> FakeLichess:
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    def _run(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.loop.run_until_complete(self._serve())
        self.loop.close()

    async def _serve(self) -> None:
        self._stop = asyncio.Event()
        app = web.Application()
        r = app.router
        r.add_get("/api/account", self._account)
        r.add_post("/api/token/test", self._token_test)
        r.add_get("/api/stream/event", self._event_stream)
        r.add_get("/api/board/game/stream/{id}", self._game_stream)
        r.add_post("/api/board/game/{id}/move/{move}", self._move)
        r.add_post("/api/board/game/{id}/draw/{accept}", self._draw)
        r.add_post("/api/board/game/{id}/takeback/{accept}", self._takeback)
        r.add_post("/api/board/game/{id}/resign", self._resign)
        r.add_post("/api/board/game/{id}/abort", self._abort)
        r.add_post("/api/board/game/{id}/claim-victory", self._claim_victory)
        r.add_post("/api/board/game/{id}/claim-draw", self._claim_draw)
        r.add_get("/api/board/game/{id}/chat", self._chat_read)
        r.add_post("/api/board/seek", self._seek)
        r.add_post("/api/challenge/{id}/accept", self._challenge_accept)
        r.add_post("/api/challenge/{id}/decline", self._challenge_decline)
        r.add_post("/api/challenge/{id}/cancel", self._challenge_cancel)
        r.add_post("/api/challenge/{username}", self._challenge_create)
        r.add_post("/api/broadcast/round/{id}/push", self._push)
        r.add_get("/oauth", self._oauth)
        r.add_post("/api/token", self._oauth_token)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=0.5)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]
        self._ready.set()
        await self._stop.wait()
        for subs in list(self._event_subs.values()) + list(self._game_subs.values()):
            for q in subs:
                q.put_nowait(("close", None))
        await self._runner.cleanup()

    def run(self, fn, *args):
        """Run ``fn(*args)`` on the server's loop and return its result (any thread)."""
        async def call():
            return fn(*args)

        return asyncio.run_coroutine_threadsafe(call(), self.loop).result(10)

    # ----- accounts -------------------------------------------------------------------------------------
    def add_user(self, user_id: str, username: str | None = None, rating: int = 1500) -> User:
        u = self.users.setdefault(user_id, User(user_id, username or user_id.capitalize(), rating))
        return u

    def add_token(self, token: str, user_id: str, scopes: str = "board:play") -> None:
        self.add_user(user_id)
        self.tokens[token] = (user_id, scopes)

    def revoke(self, token: str) -> None:
        self.tokens.pop(token, None)

    def _user_of(self, request: web.Request, scope: str | None = None) -> str:
        auth = request.headers.get("Authorization", "")
        token = auth[len("Bearer "):] if auth.startswith("Bearer ") else ""
        if token not in self.tokens:
            raise web.HTTPUnauthorized(text=json.dumps({"error": "No such token"}), content_type="application/json")
        user, scopes = self.tokens[token]
        if scope and scope not in scopes.split(","):
            raise web.HTTPForbidden(text=json.dumps({"error": f"Missing scope: {scope}"}),
                                    content_type="application/json")
        return user

    # ----- faults -----------------------------------------------------------------------------------------
    def fault(self, kind: str, status: int = 0, times: int = 1, delay_s: float = 0.0, error: str = "",
              apply_then_drop: bool = False) -> None:
        self.faults.append(Fault(kind, status, times, delay_s, error, apply_then_drop))

    async def _faulted(self, kind: str, request: web.Request) -> Fault | None:
        form = dict(await request.post()) if request.method == "POST" and request.content_type != "text/plain" else {}
        self.requests.append((request.method, request.path, {k: str(v) for k, v in form.items()}))
        for f in self.faults:
            if f.kind == kind and f.times > 0:
                f.times -= 1
                if f.delay_s:
                    await asyncio.sleep(f.delay_s)
                if f.status:
                    body = {"error": f.error or ("Too many requests. Try again later." if f.status == 429
                                                 else "Internal server error")}
                    raise _status(f.status, body)
                return f
        return None

    def cut_streams(self, kind: str = "game", mid_line: bool = True) -> None:
        """Every open stream of ``kind`` (``game`` or ``events``) ends now, in the middle of a
        line when ``mid_line``."""
        def cut():
            subs = self._game_subs.values() if kind == "game" else self._event_subs.values()
            for queues in subs:
                for q in list(queues):
                    q.put_nowait(("cut" if mid_line else "close", None))
        self.run(cut)

    # ----- pushing to streams -------------------------------------------------------------------------
    def _to_user(self, user: str, line: dict[str, Any]) -> None:
        for q in self._event_subs.get(user, ()):
            q.put_nowait(("line", line))

    def _to_game(self, game: Game, line: dict[str, Any] | None = None) -> None:
        for q in self._game_subs.get(game.id, ()):
            q.put_nowait(("line", line or self._state_json(game)))
            if not game.playing:
                q.put_nowait(("close", None))

    async def _stream(self, request: web.Request, first: list[dict[str, Any]], subs: dict[str, set],
                      key: str, close_after_first: bool = False) -> web.StreamResponse:
        resp = web.StreamResponse(headers={"Content-Type": "application/x-ndjson"})
        await resp.prepare(request)
        q: asyncio.Queue = asyncio.Queue()
        subs.setdefault(key, set()).add(q)
        try:
            for line in first:
                await resp.write(json.dumps(line).encode() + b"\n")
            if close_after_first:
                return resp
            while True:
                try:
                    what, line = await asyncio.wait_for(q.get(), self.keepalive_s)
                except asyncio.TimeoutError:
                    await resp.write(b"\n")
                    continue
                if what == "close":
                    break
                if what == "cut":
                    text = json.dumps(self._state_json(self.games[key]) if key in self.games else {"type": "gameStart"})
                    await resp.write(text[:len(text) // 2].encode())
                    request.transport.close()
                    break
                await resp.write(json.dumps(line).encode() + b"\n")
        except (ConnectionResetError, asyncio.CancelledError):
            pass
        finally:
            subs[key].discard(q)
        return resp

    # ----- JSON the API describes ----------------------------------------------------------------------
    def _player_json(self, user_id: str) -> dict[str, Any]:
        u = self.users[user_id]
        return {"id": u.id, "name": u.username, "title": None, "rating": u.rating}

    def _state_json(self, g: Game) -> dict[str, Any]:
        s: dict[str, Any] = {"type": "gameState", "moves": " ".join(g.moves), "wtime": self._time(g, "white"),
                             "btime": self._time(g, "black"), "winc": g.increment_ms or 0, "binc": g.increment_ms or 0,
                             "status": g.status}
        if g.winner:
            s["winner"] = g.winner
        for flag in ("wdraw", "bdraw", "wtakeback", "btakeback"):
            if getattr(g, flag):
                s[flag] = True
        return s

    def _time(self, g: Game, colour: str) -> int:
        base = g.wtime if colour == "white" else g.btime
        if g.initial_ms is None:
            return 2147483647
        running = g.playing and len(g.moves) >= 2 and (g.board.turn == chess.WHITE) == (colour == "white")
        return max(0, base - (self.clock_ms() - g.last_ms)) if running else base

    def _full_json(self, g: Game) -> dict[str, Any]:
        speed = "correspondence" if g.days else _speed(g.initial_ms // 1000, (g.increment_ms or 0) // 1000)
        full: dict[str, Any] = {"type": "gameFull", "id": g.id, "variant": {"key": "standard", "name": "Standard",
                                                                            "short": "Std"},
                                "speed": speed, "perf": {"name": speed.capitalize()}, "rated": g.rated,
                                "createdAt": g.created_ms, "white": self._player_json(g.white),
                                "black": self._player_json(g.black), "initialFen": "startpos",
                                "state": self._state_json(g)}
        if g.initial_ms is not None:
            full["clock"] = {"initial": g.initial_ms, "increment": g.increment_ms}
        if g.days:
            full["daysPerTurn"] = g.days
        return full

    def _info_json(self, g: Game, user: str) -> dict[str, Any]:
        colour = g.colour_of(user)
        other = g.black if colour == "white" else g.white
        speed = "correspondence" if g.days else _speed(g.initial_ms // 1000, (g.increment_ms or 0) // 1000)
        ids = {10: "created", 20: "started", 25: "aborted", 30: "mate", 31: "resign", 32: "stalemate",
               33: "timeout", 34: "draw", 35: "outoftime"}
        status_id = next((k for k, v in ids.items() if v == g.status), 20)
        info = {"fullId": g.id + "abcd", "gameId": g.id, "fen": g.board.fen(), "color": colour,
                "lastMove": g.moves[-1] if g.moves else "", "source": "lobby", "status": {"id": status_id,
                                                                                          "name": g.status},
                "variant": {"key": "standard", "name": "Standard"}, "speed": speed, "perf": speed, "rated": g.rated,
                "hasMoved": any(g.colour_of(user) == ("white" if i % 2 == 0 else "black")
                                for i in range(len(g.moves))),
                "opponent": {"id": other, "username": self.users[other].username, "rating": self.users[other].rating},
                "isMyTurn": g.playing and g.to_move() == user, "compat": {"bot": False, "board": True}, "id": g.id}
        if g.initial_ms is not None:
            info["secondsLeft"] = self._time(g, colour) // 1000
        if g.winner:
            info["winner"] = g.winner
        return info

    def _challenge_json(self, c: dict[str, Any], direction: str | None = None) -> dict[str, Any]:
        tc = ({"type": "clock", "limit": c["limit"], "increment": c["increment"],
               "show": f"{c['limit'] // 60}+{c['increment']}"} if c.get("limit") is not None
              else {"type": "correspondence", "daysPerTurn": c["days"]})
        speed = "correspondence" if c.get("limit") is None else _speed(c["limit"], c["increment"])
        out = {"id": c["id"], "url": f"{self.url}/{c['id']}", "status": c["status"],
               "challenger": self._player_json(c["from"]), "destUser": self._player_json(c["to"]),
               "variant": {"key": "standard", "name": "Standard", "short": "Std"}, "rated": c["rated"],
               "speed": speed, "timeControl": tc, "color": c["color"], "finalColor": "white",
               "perf": {"icon": "#", "name": speed.capitalize()}, "compat": {"bot": False, "board": True}}
        if direction:
            out["direction"] = direction
        if c.get("reason"):
            out["declineReason"], out["declineReasonKey"] = c["reason"], c.get("reason_key", "generic")
        return out

    # ----- the game (control from tests) ----------------------------------------------------------------
    def create_game(self, white: str, black: str, clock: tuple[int, int] | None = (600, 5), days: int | None = None,
                    rated: bool = False, game_id: str | None = None) -> str:
        return self.run(self._create_game, white, black, clock, days, rated, game_id)

    def _create_game(self, white, black, clock, days, rated, game_id) -> str:
        for u in (white, black):
            self.add_user(u)
        initial = clock[0] * 1000 if clock and not days else None
        g = Game(game_id or _id(), white, black, initial, clock[1] * 1000 if initial is not None else None,
                 days, rated, created_ms=self.clock_ms())
        g.wtime = g.btime = initial if initial is not None else 2147483647
        g.last_ms = self.clock_ms()
        self.games[g.id] = g
        for u in (white, black):
            self._to_user(u, {"type": "gameStart", "game": self._info_json(g, u)})
        return g.id

    def _play(self, g: Game, user: str, uci: str) -> str | None:
        """Play ``uci`` for ``user``; lichess-like words when it cannot be played."""
        if not g.playing or g.to_move() != user:
            return "Not your turn, or game already over"
        try:
            move = chess.Move.from_uci(uci)
        except ValueError:
            return f"Invalid UCI move: {uci}"
        if move not in g.board.legal_moves:
            return f"Piece on {uci[:2]} cannot move to {uci[2:4]}"
        now = self.clock_ms()
        colour = g.colour_of(user)
        if len(g.moves) >= 2 and g.initial_ms is not None:
            left = self._time(g, colour) + (g.increment_ms or 0)
            setattr(g, "wtime" if colour == "white" else "btime", left)
        g.last_ms = now
        g.board.push(move)
        g.moves.append(uci)
        g.wdraw = g.bdraw = g.wtakeback = g.btakeback = False
        outcome = g.board.outcome()
        if outcome is not None:
            g.status = "mate" if outcome.termination == chess.Termination.CHECKMATE else \
                "stalemate" if outcome.termination == chess.Termination.STALEMATE else "draw"
            g.winner = "" if outcome.winner is None else ("white" if outcome.winner else "black")
        self._changed(g)
        return None

    def _changed(self, g: Game) -> None:
        self._to_game(g)
        if not g.playing:
            for u in (g.white, g.black):
                self._to_user(u, {"type": "gameFinish", "game": self._info_json(g, u)})

    def opponent_move(self, game_id: str, uci: str) -> None:
        g = self.games[game_id]
        error = self.run(lambda: self._play(g, g.to_move(), uci))
        assert error is None, error

    def offer_draw(self, game_id: str, user: str) -> None:
        self.run(self._draw_flag, self.games[game_id], user, True)

    def answer_draw(self, game_id: str, user: str, yes: bool) -> None:
        self.run(self._draw_flag, self.games[game_id], user, yes)

    def propose_takeback(self, game_id: str, user: str) -> None:
        self.run(self._takeback_flag, self.games[game_id], user, True)

    def answer_takeback(self, game_id: str, user: str, yes: bool) -> None:
        self.run(self._takeback_flag, self.games[game_id], user, yes)

    def resign_as(self, game_id: str, user: str) -> None:
        self.run(self._end, self.games[game_id], "resign", "black" if self.games[game_id].colour_of(user) == "white"
                 else "white")

    def chat(self, game_id: str, user: str, text: str, room: str = "player") -> None:
        g = self.games[game_id]

        def say():
            g.chat.append({"text": text, "user": user})
            self._to_game(g, {"type": "chatLine", "room": room, "username": self.users[user].username, "text": text})
        self.run(say)

    def opponent_gone(self, game_id: str, user: str, gone: bool, claim_in_s: int = 0) -> None:
        g = self.games[game_id]

        def mark():
            if gone:
                g.gone[user] = self.clock_ms() + claim_in_s * 1000
            else:
                g.gone.pop(user, None)
            line = {"type": "opponentGone", "gone": gone}
            if gone:
                line["claimWinInSeconds"] = claim_in_s
            self._to_game(g, line)
        self.run(mark)

    def _draw_flag(self, g: Game, user: str, yes: bool) -> str | None:
        if not g.playing:
            return "Not your turn, or game already over"
        colour = g.colour_of(user)
        other = "bdraw" if colour == "white" else "wdraw"
        if yes and getattr(g, other):
            self._end(g, "draw", "")
            return None
        if yes:
            setattr(g, "wdraw" if colour == "white" else "bdraw", True)
        else:
            setattr(g, other, False)
        self._to_game(g)
        return None

    def _takeback_flag(self, g: Game, user: str, yes: bool) -> str | None:
        if not g.playing or not g.moves:
            return "Not your turn, or game already over"
        colour = g.colour_of(user)
        mine, other = ("wtakeback", "btakeback") if colour == "white" else ("btakeback", "wtakeback")
        if yes and getattr(g, other):
            proposer = g.black if colour == "white" else g.white
            plies = 2 if g.to_move() == proposer and len(g.moves) >= 2 else 1
            for _ in range(plies):
                g.board.pop()
                g.moves.pop()
            g.wtakeback = g.btakeback = False
            g.last_ms = self.clock_ms()
        elif yes:
            setattr(g, mine, True)
        else:
            setattr(g, other, False)
        self._to_game(g)
        return None

    def _end(self, g: Game, status: str, winner: str) -> None:
        g.status, g.winner = status, winner
        self._changed(g)

    # ----- challenges (control from tests) -------------------------------------------------------------
    def challenge_from(self, user: str, to: str, limit_s: int | None = 600, increment_s: int = 5,
                       days: int | None = None, rated: bool = False) -> str:
        def make():
            self.add_user(user)
            c = {"id": _id(), "from": user, "to": to, "limit": None if days else limit_s,
                 "increment": None if days else increment_s, "days": days, "rated": rated, "color": "random",
                 "status": "created"}
            self.challenges[c["id"]] = c
            self._to_user(to, {"type": "challenge", "challenge": self._challenge_json(c, "in")})
            self._to_user(user, {"type": "challenge", "challenge": self._challenge_json(c, "out")})
            return c["id"]
        return self.run(make)

    def cancel_challenge(self, challenge_id: str) -> None:
        def cancel():
            c = self.challenges.pop(challenge_id)
            c["status"] = "canceled"
            self._to_user(c["to"], {"type": "challengeCanceled", "challenge": self._challenge_json(c)})
        self.run(cancel)

    def answer_challenge(self, challenge_id: str, accept: bool, reason: str = "I'm not accepting challenges "
                                                                               "at the moment.") -> None:
        def answer():
            c = self.challenges.pop(challenge_id)
            if accept:
                self._create_game(c["from"], c["to"], (c["limit"], c["increment"]) if c["limit"] is not None else None,
                                  c["days"], c["rated"], c["id"])
            else:
                c["status"], c["reason"] = "declined", reason
                self._to_user(c["from"], {"type": "challengeDeclined", "challenge": self._challenge_json(c)})
        self.run(answer)

    def take_seek(self, opponent: str) -> str:
        """Someone takes the open seek: the game starts, the seek's stream closes."""
        def take():
            seek = self.seeks.pop(0)
            white, black = (seek["user"], opponent)
            game_id = self._create_game(white, black, (int(seek["time"] * 60), seek["increment"]), None,
                                        seek["rated"], None)
            waiter = self._seek_waiters.pop(seek["id"], None)
            if waiter is not None and not waiter.done():
                waiter.set_result(game_id)
            return game_id
        return self.run(take)

    # ----- the handlers -----------------------------------------------------------------------------------
    async def _account(self, request: web.Request) -> web.Response:
        await self._faulted("account", request)
        user = self.users[self._user_of(request)]
        return web.json_response({"id": user.id, "username": user.username,
                                  "perfs": {"rapid": {"games": 16, "rating": user.rating, "rd": 45, "prog": 9}},
                                  "createdAt": 1741604475808, "seenAt": 1743531507166,
                                  "url": f"{self.url}/@/{user.username}"})

    async def _token_test(self, request: web.Request) -> web.Response:
        await self._faulted("token", request)
        tokens = (await request.text()).split(",")
        out = {}
        for t in tokens[:1000]:
            t = t.strip()
            if t in self.tokens:
                user, scopes = self.tokens[t]
                out[t] = {"scopes": scopes, "userId": user, "expires": None}
            else:
                out[t] = None
        return web.json_response(out)

    async def _event_stream(self, request: web.Request) -> web.StreamResponse:
        await self._faulted("events", request)
        user = self._user_of(request, "board:play")
        first = [{"type": "challenge", "challenge": self._challenge_json(c, "in" if c["to"] == user else "out")}
                 for c in self.challenges.values() if user in (c["from"], c["to"])]
        first += [{"type": "gameStart", "game": self._info_json(g, user)} for g in self.games.values()
                  if g.playing and user in (g.white, g.black)]
        return await self._stream(request, first, self._event_subs, user)

    async def _game_stream(self, request: web.Request) -> web.StreamResponse:
        await self._faulted("game", request)
        user = self._user_of(request, "board:play")
        g = self.games.get(request.match_info["id"])
        if g is None or user not in (g.white, g.black):
            raise _status(404, {"error": "No such game"})
        return await self._stream(request, [self._full_json(g)], self._game_subs, g.id, close_after_first=not g.playing)

    def _game_of(self, request: web.Request, user: str) -> Game:
        g = self.games.get(request.match_info["id"])
        if g is None or user not in (g.white, g.black):
            raise _status(404, {"error": "No such game"})
        return g

    async def _move(self, request: web.Request) -> web.Response:
        fault = await self._faulted("move", request)
        user = self._user_of(request, "board:play")
        g = self._game_of(request, user)
        error = self._play(g, user, request.match_info["move"])
        if fault is not None and fault.apply_then_drop:
            request.transport.close()  # played, and the board never hears so
        if error:
            raise _status(400, {"error": error})
        return web.json_response(OK)

    async def _yes_no(self, request: web.Request, kind: str, flag) -> web.Response:
        await self._faulted(kind, request)
        user = self._user_of(request, "board:play")
        g = self._game_of(request, user)
        accept = request.match_info["accept"]
        if accept not in ("yes", "no", "true", "false"):
            raise _status(400, {"error": f"Invalid value: {accept}"})
        error = flag(g, user, accept in ("yes", "true"))
        if error:
            raise _status(400, {"error": error})
        return web.json_response(OK)

    async def _draw(self, request):
        return await self._yes_no(request, "draw", self._draw_flag)

    async def _takeback(self, request):
        return await self._yes_no(request, "takeback", self._takeback_flag)

    async def _resign(self, request: web.Request) -> web.Response:
        await self._faulted("resign", request)
        user = self._user_of(request, "board:play")
        g = self._game_of(request, user)
        if not g.playing:
            raise _status(400, {"error": "Not your turn, or game already over"})
        self._end(g, "resign", "black" if g.colour_of(user) == "white" else "white")
        return web.json_response(OK)

    async def _abort(self, request: web.Request) -> web.Response:
        await self._faulted("abort", request)
        user = self._user_of(request, "board:play")
        g = self._game_of(request, user)
        if not g.playing or len(g.moves) >= 2:
            raise _status(400, {"error": "This game cannot be aborted"})
        self._end(g, "aborted", "")
        return web.json_response(OK)

    async def _claim_victory(self, request: web.Request) -> web.Response:
        await self._faulted("claim-victory", request)
        user = self._user_of(request, "board:play")
        g = self._game_of(request, user)
        other = g.black if g.colour_of(user) == "white" else g.white
        if not g.playing or other not in g.gone or self.clock_ms() < g.gone[other]:
            raise _status(400, {"error": "You cannot claim the win yet"})
        self._end(g, "timeout", g.colour_of(user))
        return web.json_response(OK)

    async def _claim_draw(self, request: web.Request) -> web.Response:
        await self._faulted("claim-draw", request)
        user = self._user_of(request, "board:play")
        g = self._game_of(request, user)
        other = g.black if g.colour_of(user) == "white" else g.white
        if not g.playing or other not in g.gone or self.clock_ms() < g.gone[other]:
            raise _status(400, {"error": "You cannot claim the draw yet"})
        self._end(g, "draw", "")
        return web.json_response(OK)

    async def _chat_read(self, request: web.Request) -> web.Response:
        await self._faulted("chat", request)
        user = self._user_of(request, "board:play")
        return web.json_response(self._game_of(request, user).chat)

    async def _seek(self, request: web.Request) -> web.StreamResponse:
        await self._faulted("seek", request)
        user = self._user_of(request, "board:play")
        form = await request.post()
        if "days" in form:
            seek_id = _id()
            self.seeks.append({"id": seek_id, "user": user, "days": int(form["days"])})
            return web.json_response({"id": seek_id})
        try:
            minutes, inc = float(form["time"]), int(form["increment"])
        except (KeyError, ValueError):
            raise _status(400, {"error": "Invalid time control"}) from None
        if _speed(int(minutes * 60), inc) not in ("rapid", "classical"):
            raise _status(400, {"error": "Invalid time control: the Board API allows rapid and classical seeks"})
        seek = {"id": _id(), "user": user, "time": minutes, "increment": inc, "rated": form.get("rated") == "true"}
        self.seeks.append(seek)
        waiter = self.loop.create_future()
        self._seek_waiters[seek["id"]] = waiter
        if self.auto_pair is not None:
            opponent, after = self.auto_pair
            self.loop.call_later(after, lambda: self._take_now(opponent))
        resp = web.StreamResponse(headers={"Content-Type": "application/x-ndjson"})
        await resp.prepare(request)
        try:
            while not waiter.done():
                await asyncio.wait([waiter], timeout=self.keepalive_s)
                if not waiter.done():
                    await resp.write(b"\n")
        except (ConnectionResetError, asyncio.CancelledError):
            if seek in self.seeks:
                self.seeks.remove(seek)
        return resp

    def _take_now(self, opponent: str) -> None:
        if self.seeks:
            seek = self.seeks.pop(0)
            game_id = self._create_game(seek["user"], opponent, (int(seek["time"] * 60), seek["increment"]), None,
                                        seek["rated"], None)
            waiter = self._seek_waiters.pop(seek["id"], None)
            if waiter is not None and not waiter.done():
                waiter.set_result(game_id)

    async def _challenge_create(self, request: web.Request) -> web.Response:
        await self._faulted("challenge", request)
        user = self._user_of(request, "board:play")
        dest = request.match_info["username"].lower()
        form = await request.post()
        if dest not in self.users:
            raise _status(400, {"error": f"No such user: {dest}"})
        limit = int(form["clock.limit"]) if "clock.limit" in form else None
        c = {"id": _id(), "from": user, "to": dest, "limit": limit,
             "increment": int(form["clock.increment"]) if limit is not None else None,
             "days": int(form["days"]) if "days" in form else None, "rated": form.get("rated") == "true",
             "color": form.get("color", "random"), "status": "created"}
        self.challenges[c["id"]] = c
        self._to_user(dest, {"type": "challenge", "challenge": self._challenge_json(c, "in")})
        self._to_user(user, {"type": "challenge", "challenge": self._challenge_json(c, "out")})
        return web.json_response(self._challenge_json(c, "out"))

    async def _challenge_accept(self, request: web.Request) -> web.Response:
        await self._faulted("accept", request)
        user = self._user_of(request, "board:play")
        c = self.challenges.get(request.match_info["id"])
        if c is None or c["to"] != user:
            raise _status(404, {"error": "Not found"})
        del self.challenges[c["id"]]
        self._create_game(c["from"], c["to"], (c["limit"], c["increment"]) if c["limit"] is not None else None,
                          c["days"], c["rated"], c["id"])
        return web.json_response(OK)

    async def _challenge_decline(self, request: web.Request) -> web.Response:
        await self._faulted("decline", request)
        user = self._user_of(request, "board:play")
        c = self.challenges.get(request.match_info["id"])
        if c is None or c["to"] != user:
            raise _status(404, {"error": "Not found"})
        del self.challenges[c["id"]]
        form = await request.post()
        c["status"], c["reason"], c["reason_key"] = "declined", "I'm not accepting challenges at the moment.", \
            form.get("reason", "generic")
        self._to_user(c["from"], {"type": "challengeDeclined", "challenge": self._challenge_json(c)})
        return web.json_response(OK)

    async def _challenge_cancel(self, request: web.Request) -> web.Response:
        await self._faulted("cancel", request)
        user = self._user_of(request, "board:play")
        c = self.challenges.pop(request.match_info["id"], None)
        if c is None or c["from"] != user:
            raise _status(404, {"error": "Not found"})
        c["status"] = "canceled"
        self._to_user(c["to"], {"type": "challengeCanceled", "challenge": self._challenge_json(c)})
        return web.json_response(OK)

    async def _push(self, request: web.Request) -> web.Response:
        await self._faulted("push", request)
        self._user_of(request, "study:write")
        round_id = request.match_info["id"]
        if self.broadcast_rounds and round_id not in self.broadcast_rounds:
            raise _status(404, {"error": "Not found"})
        text = await request.text()
        self.pushes.append((self.clock_ms(), round_id, text))
        games = []
        import io

        stream = io.StringIO(text)
        while True:
            game = chess.pgn.read_game(stream)
            if game is None:
                break
            if game.errors:
                raise _status(400, {"error": "Cannot parse moves"})
            games.append({"tags": dict(game.headers), "moves": len(list(game.mainline_moves()))})
        if len(games) > 100:
            raise _status(400, {"error": "Too many games (max: 100)"})
        return web.json_response({"games": games})


    async def _oauth(self, request: web.Request) -> web.Response:
        """The authorization page, answered at once by ``oauth_user`` (no one: access denied)."""
        q = request.query
        for name in ("response_type", "client_id", "redirect_uri", "code_challenge_method", "code_challenge"):
            if not q.get(name):
                raise _status(400, {"error": f"missing {name}"})
        if q["code_challenge_method"] != "S256" or q["response_type"] != "code":
            raise _status(400, {"error": "unsupported"})
        sep = "&" if "?" in q["redirect_uri"] else "?"
        if self.oauth_user is None:
            raise web.HTTPFound(f"{q['redirect_uri']}{sep}error=access_denied&error_description=denied&state="
                                f"{q.get('state', '')}")
        code = "liu_" + _id(24)
        self._codes[code] = dict(q)
        raise web.HTTPFound(f"{q['redirect_uri']}{sep}code={code}&state={q.get('state', '')}")

    async def _oauth_token(self, request: web.Request) -> web.Response:
        import base64
        import hashlib

        form = await request.post()
        asked = self._codes.pop(str(form.get("code", "")), None)
        verifier = str(form.get("code_verifier", ""))
        challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
        if asked is None or form.get("grant_type") != "authorization_code" or challenge != asked["code_challenge"] \
                or form.get("redirect_uri") != asked["redirect_uri"] or form.get("client_id") != asked["client_id"]:
            raise _status(400, {"error": "invalid_grant", "error_description": "bad code or verifier"})
        token = "lio_" + _id(32)
        self.tokens[token] = (self.oauth_user, ",".join(asked.get("scope", "").split()))
        return web.json_response({"token_type": "Bearer", "access_token": token, "expires_in": 31536000})


def _speed(limit_s: int, increment_s: int) -> str:
    estimate = limit_s + 40 * increment_s
    for name, below in (("ultraBullet", 30), ("bullet", 180), ("blitz", 480), ("rapid", 1500)):
        if estimate < below:
            return name
    return "classical"


def _status(status: int, body: dict[str, Any]) -> web.HTTPException:
    classes = {400: web.HTTPBadRequest, 401: web.HTTPUnauthorized, 403: web.HTTPForbidden, 404: web.HTTPNotFound,
               429: web.HTTPTooManyRequests, 500: web.HTTPInternalServerError, 502: web.HTTPBadGateway,
               503: web.HTTPServiceUnavailable}
    return classes[status](text=json.dumps(body), content_type="application/json")
