"""Two board processes linked for real (``python -m companion.link.board``): over loopback TCP
and through a local mosquitto, every kind of game; kills of either board mid-fight and between
duel bids; a cut network; a relay that tampers with frames; a stranger on the broker's topic."""

import json
import os
import time

import pytest

from companion.dice.record import parse_record
from companion.games.combat_verify import verify_game_record
from companion.journal import read_journal
from companion.link.code import PairingCode
from companion.link.match import BoardProcess, free_port, run_match
from companion.session import Session
from tests.link_relay import Relay, start_mosquitto

pytestmark = pytest.mark.slow  # board processes, real sockets and a broker

GAMES = [("chess", {}), ("combat", {}), ("chess2", {"armies": "classic,animals"}), ("kol", {}),
         ("dungeon", {"players": 2}), ("dungeon", {"players": 3}), ("dungeon", {"players": 4}),
         ("chess4", {"players": 4, "options": {"mode": "teams"}}), ("chess", {"options": {"fights": "dice"}})]
CODE = PairingCode("41209337")


def _spec(variant: str, *, players: int = 2, armies=None, max_plies: int = 60, nodes: int | None = 200,
          a: str = "greedy", b: str = "greedy", **extra) -> dict:
    return {"variant": variant, "map": None, "players": players, "a": a, "b": b, "armies": armies,
            "movetime": None if nodes else 10, "nodes": nodes, "seed": 7, "max_plies": max_plies,
            "draw_rules": False, **extra}


@pytest.fixture(scope="module")
def broker(tmp_path_factory):
    try:
        proc, port = start_mosquitto(tmp_path_factory.mktemp("broker"))
    except FileNotFoundError as e:
        pytest.fail(str(e))
    yield f"mqtt://127.0.0.1:{port}"
    proc.kill()
    proc.wait()


@pytest.mark.parametrize("variant, options", GAMES, ids=lambda v: v if isinstance(v, str) else str(v))
@pytest.mark.parametrize("via", ["tcp", "mqtt"])
def test_every_kind_of_game_between_two_board_processes(variant, options, via, broker, tmp_path):
    spec = _spec(variant, players=options.get("players", 2), armies=options.get("armies"),
                 options=options.get("options", {}))
    lines = []
    score = run_match(spec, 1, broker=broker if via == "mqtt" else None, out=lines.append, data=str(tmp_path))
    assert lines[-1] == f"score {score[0]}-{score[1]}-{score[2]}" and sum(score) == 1
    host, guest = (_games(tmp_path / side) for side in ("host", "guest"))
    assert len(host) == len(guest) == 1
    for h, g in zip(host, guest):
        assert read_journal(h).entries == read_journal(g).entries  # the same game, action for action
    if variant == "combat" or options.get("options", {}).get("fights") == "dice":
        records = list((tmp_path / "host" / "games").glob("*.dice.jsonl"))
        assert records
        for d in records:
            assert verify_game_record(parse_record(d.read_text())).status == "verified"


def _games(board_dir) -> list:
    return sorted(p for p in (board_dir / "games").glob("link-*.jsonl") if not p.name.endswith(".dice.jsonl"))


def _journals(tmp_path) -> tuple[list, list]:
    def one(side):
        return [read_journal(p).entries for p in _games(tmp_path / side)]
    return one("host"), one("guest")


def _pair(tmp_path, spec, games=1, *, port=None, connect=None, broker=None, stall_role=None, stall=None):
    port = port or free_port()
    procs = {}
    for role in ("host", "guest"):
        s = dict(spec, stall=stall) if role == stall_role else spec
        procs[role] = BoardProcess(role, str(tmp_path / role), s, games, code=CODE,
                                   listen=None if broker or role == "guest" else f"127.0.0.1:{port}",
                                   connect=None if broker or role == "host" else (connect or f"127.0.0.1:{port}"),
                                   broker=broker)
    return procs, port


def _restart(procs, tmp_path, role, spec, games, port, connect=None, broker=None):
    procs[role].kill()
    procs[role] = BoardProcess(role, str(tmp_path / role), spec, games, code=CODE,
                               listen=None if broker or role == "guest" else f"127.0.0.1:{port}",
                               connect=None if broker or role == "host" else (connect or f"127.0.0.1:{port}"),
                               broker=broker)


def _finish(procs, timeout=240):
    out = {}
    for role, p in procs.items():
        out[role] = p.wait_for(lambda x: x.get("event") == "done", timeout)
        p.kill()
    return out


@pytest.mark.parametrize("variant, when", [("combat", "fight"), ("chess2", "bid")])
@pytest.mark.parametrize("victim", ["host", "guest"])
def test_a_board_killed_mid_fight_or_between_duel_bids_comes_back_and_nothing_is_lost(variant, when, victim,
                                                                                     tmp_path):
    spec = _spec(variant, armies="classic,animals" if variant == "chess2" else None, max_plies=120,
                 b="duelist" if variant == "chess2" else "greedy", a="duelist" if variant == "chess2" else "greedy")
    procs, port = _pair(tmp_path, spec, stall_role=victim, stall={"when": when, "count": 2})
    stalled = procs[victim].wait_for(lambda x: x.get("event") == "stalled", 120)
    assert stalled["when"] == when
    _restart(procs, tmp_path, victim, spec, 1, port)
    _finish(procs)
    host, guest = _journals(tmp_path)
    assert len(host) == len(guest) == 1 and host[0] == guest[0]
    if variant == "combat":
        record = next((tmp_path / victim / "games").glob("*.dice.jsonl"))
        assert verify_game_record(parse_record(record.read_text())).status == "verified"


def _actions(board_dir) -> int:
    """How many lines the board's game in play has journaled (0 before it starts or after it ends)."""
    try:
        return (board_dir / "current.jsonl").read_bytes().count(b"\n")
    except FileNotFoundError:
        return 0


def test_kills_of_either_board_at_random_moments_lose_and_double_nothing(tmp_path):
    """Twelve SIGKILLs, alternating boards, at random moments of a Combat Chess game: each after
    the game has gone on by one or two more actions since the board came back (progress, not
    wall time, so that a quiet machine does not finish the game before the kills are done)."""
    import random

    spec = _spec("combat", max_plies=200, nodes=400)
    procs, port = _pair(tmp_path, spec)
    rng = random.Random(3)
    kills = 0
    for i in range(12):
        role = ("host", "guest")[i % 2]
        target = _actions(tmp_path / role) + rng.randint(1, 2)
        deadline = time.monotonic() + 120
        while _actions(tmp_path / role) < target and time.monotonic() < deadline:
            if any(x.get("event") == "game" for p in procs.values() for x in p.lines):
                break
            time.sleep(0.02)
        time.sleep(rng.uniform(0, 0.05))  # anywhere in what comes next: writing, sending, thinking
        if any(x.get("event") == "game" for p in procs.values() for x in p.lines):
            break
        _restart(procs, tmp_path, role, spec, 1, port)
        kills += 1
    assert kills >= 6, kills  # a game may end by mate before all twelve (7 and 9 of 12 seen)
    _finish(procs)
    host, guest = _journals(tmp_path)
    assert host[0] == guest[0]
    session, used, problem = Session.replay(host[0])  # every action once, each one legal where it stands
    assert problem is None and used == len(host[0]), problem
    for side in ("host", "guest"):
        record = next((tmp_path / side / "games").glob("*.dice.jsonl"))
        assert verify_game_record(parse_record(record.read_text())).status == "verified"


def test_a_cut_network_pauses_the_game_and_it_goes_on_when_the_network_is_back(tmp_path):
    spec = _spec("combat", max_plies=120)
    host_port = free_port()
    relay = Relay(host_port)
    procs, _ = _pair(tmp_path, spec, port=host_port, connect=f"127.0.0.1:{relay.port}")
    procs["host"].wait_for(lambda x: x.get("event") == "paired", 60)
    time.sleep(1.0)
    relay.cut_for(12)  # past the 10 s after which the other board is shown away
    done = _finish(procs)
    relay.close()
    host, guest = _journals(tmp_path)
    assert host[0] == guest[0]
    assert any(x.get("event") == "away" for x in procs["host"].lines + procs["guest"].lines)
    assert done["host"]["refused"] == done["guest"]["refused"] == 0


def test_a_relay_that_flips_drops_reorders_and_replays_frames_is_caught_every_time(tmp_path):
    """The same match as a clean one (nodes-limited, seeded): every tamper is counted by the board
    that received it, nothing of it was accepted, and the game is the clean game, action for action."""
    spec = _spec("chess2", armies="classic,animals", max_plies=100, a="duelist", b="duelist", nodes=300)
    clean_dir = tmp_path / "clean"
    run_match(spec, 1, broker=None, out=lambda line: None, data=str(clean_dir))
    clean = read_journal(_games(clean_dir / "host")[0]).entries
    host_port = free_port()
    relay = Relay(host_port, tamper=("flip", "drop", "reorder", "replay", "old"), every=12)
    procs, _ = _pair(tmp_path, spec, port=host_port, connect=f"127.0.0.1:{relay.port}")
    done = _finish(procs)
    relay.close()
    host, guest = _journals(tmp_path)
    assert host[0] == guest[0] == clean  # nothing tampered was accepted
    rejected = {}
    for d in done.values():
        for kind, n in d["rejected"].items():
            rejected[kind] = rejected.get(kind, 0) + n
    tampered = dict(relay.done)
    print("tampered", tampered, "detected", rejected)
    assert sum(tampered.values()) >= 10 and all(tampered.get(k, 0) >= 2 for k in ("flip", "drop", "reorder", "replay"))
    assert rejected.get("bad-seal", 0) == tampered.get("flip", 0)
    assert rejected.get("gap", 0) == tampered.get("drop", 0) + tampered.get("reorder", 0)
    # a replayed frame is refused as a repeat, or as stale when a fault just before it closed its
    # epoch on the way (which one depends on timing: under load the replay can come after the close)
    assert rejected.get("repeat", 0) <= tampered.get("replay", 0)
    assert rejected.get("repeat", 0) + rejected.get("stale", 0) >= tampered.get("replay", 0) + tampered.get("old", 0)


def test_a_stranger_on_the_broker_topic_without_the_code_learns_and_changes_nothing(tmp_path, broker):
    import paho.mqtt.client as mqtt

    spec = _spec("combat", max_plies=160, nodes=600)
    clean_dir = tmp_path / "clean"
    run_match(spec, 1, broker=broker, out=lambda line: None, data=str(clean_dir))
    clean = read_journal(_games(clean_dir / "host")[0]).entries
    host_broker = broker.removeprefix("mqtt://").split(":")
    seen: list[bytes] = []
    mallory = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="stranger")
    mallory.on_message = lambda c, u, m: seen.append(bytes(m.payload))
    mallory.connect(host_broker[0], int(host_broker[1]))
    mallory.subscribe("companion/link/41/#", qos=1)
    mallory.loop_start()
    procs, _ = _pair(tmp_path, spec, broker=broker)
    procs["host"].wait_for(lambda x: x.get("event") == "paired", 60)
    sent = 0
    from companion.link.channel import Channel
    from tests.link_helpers import entropy_of

    fake = Channel("host", entropy_of("m"), code=PairingCode("41000000"))  # a guess at the code
    fake.start(0)
    for _ in range(30):
        time.sleep(0.1)
        if any(x.get("event") == "game" for p in procs.values() for x in p.lines):
            break  # the game is over: what is sent now is not counted by the boards
        batch = list(seen[-5:])
        for frame in fake.data_to_send() + batch + [b"Sa" + os.urandom(60), b"Hb" + os.urandom(72)]:
            for t in ("host", "guest"):
                mallory.publish(f"companion/link/41/{t}", frame, qos=1)
                sent += 1
    done = _finish(procs)
    mallory.loop_stop()
    mallory.disconnect()
    host, guest = _journals(tmp_path)
    assert host[0] == guest[0] == clean
    assert not any(b"move" in f or b"e2e4" in f or b"secret" in f for f in seen)
    rejected = sum(n for d in done.values() for n in d["rejected"].values())
    print("stranger sent", sent, "frames; the boards refused", rejected, done["host"]["rejected"],
          done["guest"]["rejected"])
    assert rejected >= sent - 14  # all of them, but the last round's, still on its way at the end
