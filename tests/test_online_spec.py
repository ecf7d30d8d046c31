"""Our requests and the fake lichess's lines held to lichess's OpenAPI description.

The facts below are taken from the spec files named beside them (repository lichess-org/api,
commits listed in docs/online.md): each path and method we send, and each stream line's
required fields and their types. The fake lichess must send nothing less than the schema
requires (so that our readers are tested against lines as lichess sends them), and our
requests must use the spec's paths and fields only.
"""

from __future__ import annotations

import json
import re

import pytest

from companion.online import api
from companion.online.events import read_event_line, read_game_line

from fake_lichess import FakeLichess

# path template -> method (lichess-api.yaml "paths", and each tag file's operation)
SPEC_PATHS = {
    "/api/account": "GET",  # tags/account/api-account.yaml
    "/api/token/test": "POST",  # tags/oauth/api-token-test.yaml
    "/api/token": "POST",  # tags/oauth/api-token.yaml
    "/api/stream/event": "GET",  # tags/board/api-stream-event.yaml
    "/api/board/seek": "POST",  # tags/board/api-board-seek.yaml
    "/api/board/game/stream/{gameId}": "GET",  # tags/board/api-board-game-stream-gameId.yaml
    "/api/board/game/{gameId}/move/{move}": "POST",  # tags/board/api-board-game-gameId-move-move.yaml
    "/api/board/game/{gameId}/chat": "GET",  # tags/board/api-board-game-gameId-chat.yaml (GET: the player chat)
    "/api/board/game/{gameId}/abort": "POST",
    "/api/board/game/{gameId}/resign": "POST",
    "/api/board/game/{gameId}/draw/{accept}": "POST",
    "/api/board/game/{gameId}/takeback/{accept}": "POST",
    "/api/board/game/{gameId}/claim-victory": "POST",
    "/api/board/game/{gameId}/claim-draw": "POST",  # tags/board/api-board-game-gameId-claim-draw.yaml
    "/api/challenge/{username}": "POST",  # tags/challenges/api-challenge-username.yaml
    "/api/challenge/{challengeId}/accept": "POST",
    "/api/challenge/{challengeId}/decline": "POST",
    "/api/challenge/{challengeId}/cancel": "POST",
    "/api/broadcast/round/{broadcastRoundId}/push": "POST",  # tags/broadcasts/broadcast-round-...-push.yaml
}
# form fields each request body may carry (the requestBody schemas)
SPEC_FORMS = {
    "/api/board/seek": {"rated", "variant", "ratingRange", "time", "increment", "color", "days"},
    "/api/challenge/{username}": {"rated", "clock.limit", "clock.increment", "days", "color", "variant", "fen",
                                  "keepAliveStream", "rules"},
    "/api/challenge/{challengeId}/decline": {"reason"},
}
# line type -> required fields and their JSON types (schemas/*.yaml "required")
INT, STR, BOOL, OBJ, NUM = int, str, bool, dict, (int, float)
REQUIRED = {
    "gameFull": {"type": STR, "id": STR, "variant": OBJ, "speed": STR, "perf": OBJ, "rated": BOOL,  # GameFullEvent
                 "createdAt": INT, "white": OBJ, "black": OBJ, "initialFen": STR, "state": OBJ},
    "gameState": {"type": STR, "moves": STR, "wtime": INT, "btime": INT, "winc": INT, "binc": INT,  # GameStateEvent
                  "status": STR},
    "chatLine": {"type": STR, "room": STR, "username": STR, "text": STR},  # ChatLineEvent
    "opponentGone": {"type": STR, "gone": BOOL},  # OpponentGone
    "ChallengeJson": {"id": STR, "url": STR, "status": STR, "challenger": OBJ, "destUser": OBJ,  # ChallengeJson
                  "variant": OBJ, "rated": BOOL, "speed": STR, "timeControl": OBJ, "color": STR, "perf": OBJ},
}
STATUS_NAMES = {"created", "started", "aborted", "mate", "resign", "stalemate", "timeout", "draw", "outoftime",
                "cheat", "noStart", "unknownFinish", "insufficientMaterialClaim", "variantEnd"}  # GameStatusName
SPEEDS = {"ultraBullet", "bullet", "blitz", "rapid", "classical", "correspondence"}  # Speed.yaml


def template_of(path: str) -> str | None:
    for template in SPEC_PATHS:
        pattern = "^" + re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(template)) + "$"
        if re.match(pattern, path):
            return template
    return None


REQUESTS = [api.account(), api.token_test(), api.event_stream(), api.game_stream("Gm8pQz2x"),
            api.move("Gm8pQz2x", "e7e8q", offering_draw=True), api.draw("Gm8pQz2x", True),
            api.takeback("Gm8pQz2x", False), api.resign("Gm8pQz2x"), api.abort("Gm8pQz2x"),
            api.claim_victory("Gm8pQz2x"), api.claim_draw("Gm8pQz2x"), api.chat_read("Gm8pQz2x"), api.seek(15, 10, rated=True, color="white"),
            api.seek_correspondence(7), api.challenge("maia", limit_s=600, increment_s=5), api.challenge("maia", days=3),
            api.accept("Ch4llng1"), api.decline("Ch4llng1", "tooFast"), api.cancel("Ch4llng1"),
            api.broadcast_push("AbCd1234", "*")]


@pytest.mark.parametrize("request_", REQUESTS, ids=lambda r: f"{r.method} {r.path}")
def test_every_request_is_a_path_and_method_of_the_spec(request_):
    template = template_of(request_.path)
    assert template is not None, f"{request_.path} is no path of lichess's API"
    assert SPEC_PATHS[template] == request_.method
    assert {k for k, _ in request_.form} <= SPEC_FORMS.get(template, set())
    assert {k for k, _ in request_.query} <= {"offeringDraw"}


def check_line(line: dict) -> None:
    kind = line["type"]
    fields = REQUIRED["gameState"] if kind == "gameState" else REQUIRED.get(kind, {})
    for name, kinds in fields.items():
        value = line.get(name)
        ok = isinstance(value, bool) if kinds is BOOL else isinstance(value, kinds) and not isinstance(value, bool)
        assert ok, f"{kind}: {name} is {value!r}"
    if kind == "gameFull":
        check_line(dict(line["state"]))
        assert line["speed"] in SPEEDS
    if kind == "gameState":
        assert line["status"] in STATUS_NAMES
    if kind in ("challenge", "challengeCanceled", "challengeDeclined"):
        for name, kinds in REQUIRED["ChallengeJson"].items():
            assert isinstance(line["challenge"][name], kinds), f"{kind}.challenge.{name}"
    if kind in ("gameStart", "gameFinish"):
        assert {"gameId", "color", "status"} <= set(line["game"])


def test_the_fake_sends_every_line_as_the_schemas_require():
    """A game on the fake (every kind of line), read raw off its streams."""
    import asyncio

    from companion.online.client import LichessClient
    from companion.online.ndjson import KEEP_ALIVE
    from companion.online.token import Token

    with FakeLichess(keepalive_s=0.2) as fake:
        fake.add_token("lip_board0001", "bobby")
        fake.add_user("maia")
        lines: list[dict] = []

        async def go():
            async with LichessClient(fake.url, Token("lip_board0001"), lambda: 0) as c:
                opened = asyncio.Event()
                events = asyncio.ensure_future(c.stream(api.event_stream(), lambda x: x is not KEEP_ALIVE
                                                        and lines.append(x), opened.set))
                await opened.wait()
                cid = await asyncio.to_thread(fake.challenge_from, "maia", "bobby")
                await asyncio.to_thread(fake.cancel_challenge, cid)
                gid = await asyncio.to_thread(fake.create_game, "bobby", "maia")
                opened = asyncio.Event()
                game = asyncio.ensure_future(c.stream(api.game_stream(gid), lambda x: x is not KEEP_ALIVE
                                                      and lines.append(x), opened.set))
                await opened.wait()
                await c.call(api.move(gid, "e2e4"))
                await asyncio.to_thread(fake.chat, gid, "maia", "hi")
                await asyncio.to_thread(fake.opponent_gone, gid, "maia", True, 10)
                await asyncio.to_thread(fake.offer_draw, gid, "maia")
                await c.call(api.resign(gid))
                await game
                for _ in range(500):  # the event stream's gameFinish follows the game stream's end
                    if any(x["type"] == "gameFinish" for x in lines):
                        break
                    await asyncio.sleep(0.01)
                events.cancel()

        asyncio.run(go())
    kinds = {line["type"] for line in lines}
    assert kinds >= {"challenge", "challengeCanceled", "gameStart", "gameFull", "gameState", "chatLine",
                     "opponentGone", "gameFinish"}
    for line in lines:
        check_line(line)
        (read_game_line if line["type"] in ("gameFull", "gameState", "chatLine", "opponentGone")
         else read_event_line)(json.loads(json.dumps(line)))
