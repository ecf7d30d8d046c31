"""A TCP relay between two linked boards, for the link's fault tests: it passes frames on, and
on demand cuts the network or tampers with sealed frames (flip a bit, drop, reorder, replay,
replay one of an earlier epoch), once per direction and epoch, and counts what it did.
It reads the frames the way the boards write them (a 4-byte length, the frame) and never knows
a key; a local broker is started by :func:`start_mosquitto` (Debian's mosquitto, loopback)."""

from __future__ import annotations

import os
import shutil
import socket
import struct
import subprocess
import threading
import time
from collections import Counter
from pathlib import Path

from companion.link.transport import read_exactly

TAMPERS = ("flip", "drop", "reorder", "replay", "old")


def _read(sock: socket.socket) -> bytes | None:
    """One frame as the boards write it: a 4-byte length, the frame."""
    head = read_exactly(sock, 4)
    return None if head is None else read_exactly(sock, struct.unpack(">I", head)[0])


class Relay:
    """Listens on :attr:`port`, connects each client to ``target``."""

    def __init__(self, target: int, tamper: tuple[str, ...] = (), every: int = 6) -> None:
        self.target, self.tamper, self.every = target, tamper, every
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.done: Counter[str] = Counter()
        self.cut = threading.Event()
        self._socks: list[socket.socket] = []
        self._old: dict[str, list[bytes]] = {"host": [], "guest": []}
        self._turn = 0
        self._lock = threading.Lock()
        #: one tamper at a time: the next waits until both boards have shaken hands again after
        #: it (the fault was detected), so each is counted on its own
        self._armed = True
        self._hellos: set[str] = set()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if self.cut.is_set():
                client.close()
                continue
            try:
                server = socket.create_connection(("127.0.0.1", self.target))
            except OSError:
                client.close()
                continue
            self._socks += [client, server]
            state = {"guest": {"n": 0, "held": None, "done": False, "frames": []},
                     "host": {"n": 0, "held": None, "done": False, "frames": []}}
            threading.Thread(target=self._pipe, args=(client, server, "guest", state), daemon=True).start()
            threading.Thread(target=self._pipe, args=(server, client, "host", state), daemon=True).start()

    def _pipe(self, src: socket.socket, dst: socket.socket, who: str, state: dict) -> None:
        me = state[who]
        try:
            while True:
                frame = _read(src)
                if frame is None or self.cut.is_set():
                    break
                for out in self._decide(frame, who, me):
                    dst.sendall(struct.pack(">I", len(out)) + out)
        except OSError:
            pass
        for s in (src, dst):
            try:
                s.close()
            except OSError:
                pass

    def _decide(self, frame: bytes, who: str, me: dict) -> list[bytes]:
        if frame[:1] == b"H":  # a new handshake: the next tamper may come
            with self._lock:
                if me["frames"]:
                    self._old[who] = list(me["frames"])  # the last epoch's frames, for "old"
                self._hellos.add(who)
                if self._hellos == {"host", "guest"}:
                    self._armed = True
            me["done"], me["frames"] = False, []
            return [frame]
        if frame[:1] != b"S" or not self.tamper:
            return [frame]
        me["frames"].append(frame)
        me["n"] += 1
        if me["held"] is not None:
            held, me["held"] = me["held"], None
            return [frame, held]
        if me["done"] or me["n"] < self.every:
            return [frame]
        with self._lock:
            if not self._armed:
                return [frame]
            kind = self.tamper[self._turn % len(self.tamper)]
            if kind == "old" and not self._old[who]:
                kind = "flip"  # nothing of an earlier epoch yet
            self._turn += 1
            self.done[kind] += 1
            if kind != "old":  # a stale frame changes no epoch: the next may come at once
                self._armed, self._hellos = False, set()
        me["done"], me["n"] = True, 0
        if kind == "flip":
            f = bytearray(frame)
            f[-3] ^= 0x20
            return [bytes(f)]
        if kind == "drop":
            return []
        if kind == "reorder":
            me["held"] = frame
            return []
        if kind == "replay":
            return [frame, me["frames"][-2] if len(me["frames"]) > 1 else frame]
        old = self._old[who][0]  # a sealed frame of the epoch before
        return [old, frame]

    def cut_for(self, seconds: float) -> None:
        """The network goes for ``seconds``: every connection closed, new ones refused."""
        self.cut.set()
        for s in self._socks:
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        time.sleep(seconds)
        self.cut.clear()

    def close(self) -> None:
        self.listener.close()
        for s in self._socks:
            try:
                s.close()
            except OSError:
                pass


def start_mosquitto(directory: Path) -> tuple[subprocess.Popen, int]:
    """Debian's mosquitto on a free loopback port, with a config written here."""
    binary = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
    if not os.path.exists(binary):
        raise FileNotFoundError("mosquitto is not installed (companion/install.sh test installs it)")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    conf = directory / "mosquitto.conf"
    conf.write_text(f"listener {port} 127.0.0.1\nallow_anonymous true\npersistence false\nset_tcp_nodelay true\nlog_dest stderr\n")
    proc = subprocess.Popen([binary, "-c", str(conf)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return proc, port
        except OSError:
            time.sleep(0.05)
    proc.kill()
    raise RuntimeError("mosquitto did not start")
