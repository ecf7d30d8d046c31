"""A board that 1,100 idle connections try to take down, under the Pi's default of 1,024 open
files: the game goes on, a move is saved and the game archived (journal, games folder, a copy
to a stick), a spectator still gets the game, and the log stays small.

The board runs in a process of its own held to 1,024 open files (tests/broadcast_load_runner.py:
a clocked game at a table, journaled, with its broadcast server, as the hall's tests build a
board). The flood comes from 110 loopback addresses (127.0.1.1 to 127.0.1.110), 10 connections
each, opened again as soon as the board closes one, so the board always has 1,100 at its
door; some of them send half a request head and stop."""

from __future__ import annotations

import os
import selectors
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tests.broadcast_helpers import get

pytestmark = pytest.mark.slow  # 1,100 connections held for about half a minute

HERE = Path(__file__).resolve().parent
FLOOD = 1100
SOURCES = 110
LIMIT = 1024


class Flood:
    """Keeps ``count`` idle connections open to ``port`` from ``sources`` loopback addresses;
    every third one sends half a request head. Counts what it holds."""

    def __init__(self, port: int, count: int = FLOOD, sources: int = SOURCES) -> None:
        self.port, self.count, self.sources = port, count, sources
        self.held = 0  # connections established (the kernel's handshake done) right now
        self.most = 0
        self.opened = 0
        self.closed_by_board = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(30)

    def _open(self, sel: selectors.BaseSelector, n: int) -> None:
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.setblocking(False)
        s.bind((f"127.0.1.{n % self.sources + 1}", 0))
        s.connect_ex(("127.0.0.1", self.port))
        sel.register(s, selectors.EVENT_WRITE, ["connecting", n])
        self.opened += 1

    def _run(self) -> None:
        sel = selectors.DefaultSelector()
        waiting = list(range(self.count))
        while not self._stop.is_set():
            for n in waiting[:50]:  # 50 at a time: a burst would only overflow the board's queue
                self._open(sel, n)
            del waiting[:50]
            for key, _ in sel.select(0.02 if waiting else 0.2):
                s, state = key.fileobj, key.data
                if state[0] == "connecting":
                    if s.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR) != 0:
                        sel.unregister(s)
                        s.close()
                        self._open(sel, state[1])
                        continue
                    if state[1] % 3 == 0:
                        s.send(b"GET /game.json HTTP/1.1\r\nHost: board\r\n")  # and never the rest
                    state[0] = "open"
                    sel.modify(s, selectors.EVENT_READ, state)
                else:  # the board answered or closed it: open another
                    try:
                        data = s.recv(4096)
                    except OSError:
                        data = b""
                    if not data:
                        self.closed_by_board += 1
                        sel.unregister(s)
                        s.close()
                        self._open(sel, state[1])
            self.held = sum(1 for k in sel.get_map().values() if k.data[0] == "open")
            self.most = max(self.most, self.held)
        for key in list(sel.get_map().values()):
            key.fileobj.close()
        sel.close()


class LoadedBoard:
    def __init__(self, folder: Path) -> None:
        self.stderr_path = folder / "board.log"
        self._stderr = open(self.stderr_path, "wb")
        env = dict(os.environ, PYTHONPATH=str(HERE.parent))
        self.proc = subprocess.Popen([sys.executable, str(HERE / "broadcast_load_runner.py"), str(folder), str(LIMIT)],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._stderr, text=True,
                                     env=env, cwd=HERE.parent)
        words = self.proc.stdout.readline().split()
        assert words[:1] == ["ready"], words
        self.port, self.limit = int(words[1]), int(words[2])

    def ask(self, command: str, timeout: float = 60) -> str:
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()
        answer = [""]
        reader = threading.Thread(target=lambda: answer.__setitem__(0, self.proc.stdout.readline()))
        reader.start()
        reader.join(timeout)
        return answer[0].strip()

    def log_bytes(self) -> int:
        return self.stderr_path.stat().st_size

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                self.ask("quit", 20)
                self.proc.wait(20)
            except (OSError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait(10)
        self._stderr.close()


def test_1100_idle_connections_under_1024_open_files_do_not_stop_the_game(tmp_path):
    board = LoadedBoard(tmp_path)
    flood = Flood(board.port)
    try:
        assert board.limit == LIMIT
        assert board.ask("move e2e4").startswith("ok ")
        flood.start()
        deadline = time.monotonic() + 30
        while (flood.opened < FLOOD or flood.closed_by_board < FLOOD) and time.monotonic() < deadline:
            time.sleep(0.1)  # every one opened, and the board has turned the idle ones away (or not)
        fds = board.ask("fds")
        saved = board.ask("move e7e5")
        finished = board.ask("finish")
        # a spectator from an address of its own still gets the game while the flood goes on
        start = time.monotonic()
        try:
            status, _headers, body = get(board.port, "/game.json")
        except OSError as e:
            status, body = f"no answer ({e})", b""
        waited = time.monotonic() - start
        held, most, closed = flood.held, flood.most, flood.closed_by_board
    finally:
        flood.stop()
        board.close()
    log = board.log_bytes()
    print(f"\nflood: {FLOOD} connections kept at the door, {most} held at most ({held} at the end), "
          f"{closed} closed by the board; board's open files: {fds} (limit {LIMIT}); move saved: {saved}; "
          f"game archived: {finished}; spectator: {status} after {waited:.1f} s; log {log:,} bytes")
    assert saved.startswith("ok "), saved
    assert finished.startswith("ok "), finished  # journal archived, PGN saved, games copied to the stick
    games = tmp_path / "board" / "games"
    assert (games / "fleet-board-1.jsonl").is_file() and (games / "fleet-board-1.pgn").is_file()
    assert "1. e4 {" in (games / "fleet-board-1.pgn").read_text()
    assert (tmp_path / "stick" / "companion-games" / "fleet-board-1.pgn").is_file()
    assert status == 200 and b'"state":"over"' in body
    assert flood.opened >= FLOOD and closed >= FLOOD  # it kept 1,100 at the door; the idle ones were turned away
    assert int(fds.split()[1]) < LIMIT - 128  # the files the game needs were kept free
    assert log < 1_000_000, (board.stderr_path.read_bytes()[:2000]).decode(errors="replace")
