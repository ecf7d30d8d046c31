"""Benchmark of the board-to-board link (``companion bench --only link``).

* **A move made on one board, lit on the other**: from the moment a board's player's move
  enters its link (``LinkedGame.act``) to the moment the other board has checked and applied it
  (its ``Acted`` event, on which the app lights the move): median and p99, over loopback TCP and
  through a local mosquitto (started here on a loopback port when Debian's package is there).
  Target: 200 ms.
* **A fight's commit-reveal**: from the capture to its dice applied on the other board, and
  what that adds to a plain move, in round trips (a round trip = two one-way move latencies).
  Target: at most one.
* **Event to LED while linked**: the tracker's sensor-event-to-LED-frame time (the tracker
  bench's start cycle) on a board whose link is carrying a game at the same moment, p99.
  Target: under 1 ms.

Both boards run in this process, each with the same threads as on a Pi (the transport's, the
channel's ticker, the board's own loop); the clock is read here, at the edge.
"""

from __future__ import annotations

import os
import queue
import random
import statistics
import tempfile
import threading
import time
from pathlib import Path

from ..session import PlayMove, Session
from .channel import Channel
from .code import PairingCode
from .events import Acted
from .game import LinkedGame
from .lobby import LinkSeat, Proposal, default_choices
from .transport import LinkPort, MqttLink, TcpGuest, TcpHost

Row = tuple[str, float, str]


class _Side(threading.Thread):
    """One board: its port and linked game, a player that moves ``pause`` s after its turn comes."""

    def __init__(self, me: int, transport, code: PairingCode, times: dict, pause: float, plies: int) -> None:
        super().__init__(daemon=True)
        self.me, self.times, self.pause, self.plies = me, times, pause, plies
        role = "host" if me == 0 else "guest"
        self.port = LinkPort(Channel(role, os.urandom, code=code), transport, save_epoch=lambda e: None)
        self.game = LinkedGame(me, os.urandom(32), start_game=lambda setup: Session.new(setup)[0])
        self.rng = random.Random(me)
        self.stop = threading.Event()
        self.ready = threading.Event()
        self.turn_since: float | None = None

    def run(self) -> None:
        self.port.start()
        game = self.game
        while not self.stop.is_set():
            try:
                item = self.port.inbox.get(timeout=0.005)
            except queue.Empty:
                item = None
            now = self.port.now_ms()
            events = []
            if item is not None:
                if item[0] == "up":
                    events += game.connected(now)
                    self.ready.set()
                elif item[0] == "payload":
                    events += game.receive(item[1], now)
            events += game.tick(now)
            self._note(events)
            self._move()
            out = game.data_to_send()
            if out:
                self.port.send(out)
        self.port.stop()

    def _note(self, events: list) -> None:
        t = time.perf_counter()
        for e in events:
            if isinstance(e, Acted) and e.remote:
                self.times.setdefault(("applied", self.me), {})[len(self.game.st.log)] = (t, e.entry.get("type"))

    def _move(self) -> None:
        game = self.game
        if game.phase != "playing" or game.to_act() is None or len(game.session.moves) >= self.plies \
                or game.session.result is not None:
            self.turn_since = None
            return
        if self.turn_since is None:
            self.turn_since = time.perf_counter()
        if time.perf_counter() - self.turn_since < self.pause:
            return
        self.turn_since = None
        s = game.session
        moves = s.rules.legal_moves(s.pos)
        captures = [m for m in moves if m.capture is not None]
        move = self.rng.choice(captures if captures and self.rng.random() < 0.5 else moves)
        t = time.perf_counter()
        self._note(game.act(PlayMove(s.rules.move_text(s.pos, move))))
        self.times.setdefault(("sent", self.me), {})[len(game.st.log) - (1 if s.pending_fight() is None else 0)] = t


def _link(transports, plies: int, pause: float, code: PairingCode | None = None) -> dict:
    code = code or PairingCode.from_number(random.randrange(10 ** 8))
    times: dict = {}
    sides = [_Side(me, t, code, times, pause, plies) for me, t in enumerate(transports)]
    for s in sides:
        s.start()
    host, guest = sides
    deadline = time.monotonic() + 30
    while not (host.ready.is_set() and guest.ready.is_set()) and time.monotonic() < deadline:
        time.sleep(0.01)
    proposal = Proposal("combat", (LinkSeat("A", 0), LinkSeat("B", 1)), "bench")
    # the lobby runs on the boards' threads through the same calls the app makes
    _on(host, lambda g: g.propose(proposal))
    _wait(lambda: guest.game.proposal is not None)
    _on(guest, lambda g: g.accept())
    _wait(lambda: host.game.st.accepted)
    for side in sides:
        _on(side, lambda g, side=side: g.choose(default_choices(proposal, side.me)))
    _wait(lambda: all(len(s.game.session.moves) >= plies if s.game.session else False for s in sides)
          or any(s.game.session is not None and s.game.session.result is not None for s in sides), 120)
    time.sleep(0.3)
    for s in sides:
        s.stop.set()
    for s in sides:
        s.join(5)
    return times


def _on(side: _Side, call) -> None:
    """Run ``call(game)`` between two turns of the side's loop (its thread owns the game)."""
    done = threading.Event()
    original = side._move

    def once():
        side._note(call(side.game))
        side._move = original
        done.set()
        original()
    side._move = once
    done.wait(10)


def _wait(test, timeout: float = 20) -> None:
    end = time.monotonic() + timeout
    while not test() and time.monotonic() < end:
        time.sleep(0.01)


def _latencies(times: dict) -> tuple[list[float], list[float]]:
    """(plain moves, fights: capture to dice) in seconds, both directions."""
    plain, fights = [], []
    for me in (0, 1):
        sent = times.get(("sent", me), {})
        applied = times.get(("applied", 1 - me), {})
        for n, t0 in sent.items():
            if n not in applied:
                continue
            t1, kind = applied[n]
            if kind == "move":
                plain.append(t1 - t0)
            if kind == "roll" or (n + 1 in applied and applied[n + 1][1] == "roll"):
                end = applied[n + 1][0] if n + 1 in applied and applied[n + 1][1] == "roll" else t1
                fights.append(end - t0)
    return plain, fights


def _p99(samples: list[float]) -> float:
    samples = sorted(samples)
    return samples[min(len(samples) - 1, int(len(samples) * 0.99))] if samples else float("nan")


def _rows(label: str, times: dict) -> list[Row]:
    plain, fights = _latencies(times)
    if not plain:
        return [(f"link {label}: no moves measured", float("nan"), "")]
    rtt = 2 * statistics.median(plain)
    rows = [(f"link {label}: move lit on the other board, median", statistics.median(plain) * 1000, "ms"),
            (f"link {label}: move lit on the other board, p99", _p99(plain) * 1000, "ms")]
    if fights:
        extra = statistics.median(fights) - statistics.median(plain)
        rows += [(f"link {label}: capture to its dice on the other board, median", statistics.median(fights) * 1000, "ms"),
                 (f"link {label}: what a fight's commit-reveal adds, in round trips", extra / rtt, "RTT")]
    return rows


def _led_while_linked(quick: bool) -> list[Row]:
    from ..board.tracker_bench import START, _measure, _start_cycle

    host = TcpHost("127.0.0.1", 0)
    result: dict = {}

    def measure():
        time.sleep(1.0)  # the game is under way
        result["wall"], result["cpu"] = _measure(START, _start_cycle, 2_000 if quick else 20_000)

    t = threading.Thread(target=measure)
    t.start()
    _link([host, TcpGuest(("127.0.0.1", host.port))], 60 if quick else 200, 0.01)
    t.join()
    wall = result["wall"]
    alone, _ = _measure(START, _start_cycle, 2_000 if quick else 20_000)  # the peer: the same, no link
    return [("link: tracker event to LED frame while linked, median", statistics.median(wall) * 1000, "ms"),
            ("link: tracker event to LED frame while linked, p99", _p99(wall) * 1000, "ms"),
            ("link: tracker event to LED frame while linked, p99 (CPU time)", _p99(result["cpu"]) * 1000, "ms"),
            ("link: tracker event to LED frame not linked, p99", _p99(alone) * 1000, "ms"),
            ("link: event to LED p99, linked / not linked", _p99(wall) / _p99(alone), "x")]


def bench_link(quick: bool = False) -> list[Row]:
    plies = 40 if quick else 160
    host = TcpHost("127.0.0.1", 0)
    rows = _rows("loopback TCP", _link([host, TcpGuest(("127.0.0.1", host.port))], plies, 0.02))
    rows += _broker_rows(plies)
    rows += _led_while_linked(quick)
    return rows


def _broker_rows(plies: int) -> list[Row]:
    import shutil
    import socket
    import subprocess

    binary = shutil.which("mosquitto") or ("/usr/sbin/mosquitto" if os.path.exists("/usr/sbin/mosquitto") else None)
    if binary is None:
        return [("link local broker: mosquitto is not installed (bash companion/install.sh test)", float("nan"), "")]
    folder = Path(tempfile.mkdtemp(prefix="companion-broker-"))
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    (folder / "m.conf").write_text(f"listener {port} 127.0.0.1\nallow_anonymous true\npersistence false\nset_tcp_nodelay true\n")
    proc = subprocess.Popen([binary, "-c", str(folder / "m.conf")], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        _wait(lambda: _connects(port), 5)
        url = f"mqtt://127.0.0.1:{port}"
        code = PairingCode.from_number(random.randrange(10 ** 8))
        transports = [MqttLink(url, code.nameplate, "host", "bench-host"),
                      MqttLink(url, code.nameplate, "guest", "bench-guest")]
        return _rows("local broker", _link(transports, plies, 0.02, code))
    finally:
        proc.kill()
        proc.wait()


def _connects(port: int) -> bool:
    import socket

    try:
        socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
        return True
    except OSError:
        return False
