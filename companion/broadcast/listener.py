"""The servers' door: connections taken within the open-file budget, and a log that cannot flood.

A board is a Raspberry Pi whose service runs with 1,024 open files (the default), and the game
needs new files while it is played: the journal's archive, the game's PGN, a copy to a USB
stick, the clock's checkpoint. asyncio's own accept loop takes every connection it is offered
until the process has no file left, then logs the failure over and over (Python 3.11 logs it
once for each of up to 100 waiting connections at every turn of the loop: 204,000 lines in a
minute were seen), and the game can no longer be saved. So each server accepts through a
:class:`Door` of its own instead:

* at most :func:`connection_cap` connections open at once: the ``most`` it is given, within what
  the open-file limit (``RLIMIT_NOFILE``) leaves after the files already open and ``reserve``
  more for the game. When it is full, a new connection takes the place of the oldest one that
  has not sent a whole request head in :data:`EVICT_AFTER_S` (a spectator's browser sends its
  head at once, so an idle flood never keeps one out); when every one is busy or young, the
  next wait in the system's queue until one closes. At most ``per_peer`` from one address;
* a connection that has not sent a whole request head within :data:`HEAD_TIMEOUT_S` is closed
  (aiohttp's keep-alive timer, which also closes a kept-alive connection idle that long);
* a failure to accept (no file left after all: something else used them) stops accepting for a
  second and is logged once a minute at most, with the count;
* :class:`RateLimit` holds asyncio's, aiohttp's and zeroconf's loggers to a few lines a
  minute for each kind of message (the rest counted and said with the next one let through).
"""

from __future__ import annotations

import asyncio
import errno
import logging
import os
import resource
import socket
import time
from collections import Counter
from typing import Callable

from ..i18n import _

#: Seconds a connection may take to send a request head (and stay idle between requests).
HEAD_TIMEOUT_S = 10.0
#: Open files kept free for the game (journal, archive, PGN, a USB copy, Kivy's fonts and
#: images, the serial port, zeroconf's sockets), beyond those open when the server starts.
RESERVE_FILES = 256
#: Connections one address may hold at once (a browser opens up to 6 and an event stream).
PER_PEER = 16
#: Fewest connections a server keeps room for, however low the limit.
MIN_CAP = 8
#: A connection this old without a whole request head gives its place to a new one when full.
EVICT_AFTER_S = 1.0
#: Connections the system keeps waiting at the door (no file of ours each): a long queue, so
#: that a spectator arriving during a flood waits in it for its turn (the idle ones ahead give
#: their places one after another) instead of being turned away by a full one.
BACKLOG = 1024
#: Connections closed to make room in one turn of the loop (so the files open stay near the cap).
EVICT_BATCH = 16
RETRY_S = 0.25
OUT_OF_FILES_RETRY_S = 1.0
LOG_EVERY_S = 60.0
_OUT_OF_FILES = (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM)

log = logging.getLogger("companion.broadcast")


def open_files() -> int:
    """Files this process has open now (without opening one to count them)."""
    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    top = soft if soft != resource.RLIM_INFINITY and soft < 1 << 20 else 1 << 16
    count = 0
    for fd in range(top):
        try:
            os.fstat(fd)
        except OSError:
            continue
        count += 1
    return count


def connection_cap(most: int, reserve: int = RESERVE_FILES, limit: int | None = None,
                   in_use: int | None = None) -> int:
    """How many connections a server may hold: ``most``, within the open-file ``limit``
    (``RLIMIT_NOFILE``'s soft limit) less the files ``in_use`` and ``reserve``; never under
    :data:`MIN_CAP`."""
    if limit is None:
        limit = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        if limit == resource.RLIM_INFINITY:
            limit = 1 << 20
    if in_use is None:
        in_use = open_files()
    return max(MIN_CAP, min(most, limit - in_use - reserve))


def listening_sockets(host: str, port: int, backlog: int = BACKLOG) -> list[socket.socket]:
    """Bound, listening, non-blocking sockets for ``host`` ("": every interface) and ``port``
    (0: one the system chooses; every socket then gets the first one's); OSError if not."""
    infos = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    sockets: list[socket.socket] = []
    try:
        for family, kind, proto, _name, address in dict.fromkeys(infos):
            try:
                s = socket.socket(family, kind, proto)
            except OSError:  # a family this machine does not have (IPv6 switched off), as asyncio skips it
                continue
            sockets.append(s)
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:
                s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            if port == 0 and len(sockets) > 1:
                address = (address[0], sockets[0].getsockname()[1], *address[2:])
            s.bind(address)
            s.listen(backlog)
            s.setblocking(False)
        if not sockets:
            raise OSError(errno.EADDRNOTAVAIL, f"no address to listen on for {host or '*'}")
    except OSError:
        for s in sockets:
            s.close()
        raise
    return sockets


class Watched(asyncio.Protocol):
    """The server's protocol for one connection (everything passed on to it), and whether a
    whole request head (a blank line) has come on it yet."""

    def __init__(self, inner: asyncio.Protocol, since: float) -> None:
        self.inner, self.since = inner, since
        self.headed = False
        self.transport: asyncio.BaseTransport | None = None
        self._tail = b""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport
        self.inner.connection_made(transport)

    def data_received(self, data: bytes) -> None:
        if not self.headed:
            seen = self._tail + data
            self.headed = b"\r\n\r\n" in seen or b"\n\n" in seen
            self._tail = seen[-3:]
        self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received()

    def connection_lost(self, exc: Exception | None) -> None:
        self.inner.connection_lost(exc)

    def pause_writing(self) -> None:
        self.inner.pause_writing()

    def resume_writing(self) -> None:
        self.inner.resume_writing()


class Door:
    """Accepts connections on ``sockets`` for ``factory`` (an aiohttp server) on ``loop``,
    holding at most ``cap`` open, ``per_peer`` from one address."""

    def __init__(self, loop: asyncio.AbstractEventLoop, factory: Callable[[], asyncio.BaseProtocol],
                 sockets: list[socket.socket], cap: int, per_peer: int = PER_PEER, name: str = "server",
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.loop, self.factory, self.sockets = loop, factory, sockets
        self.cap, self.per_peer, self.name, self.clock = cap, per_peer, name, clock
        self.open: dict[socket.socket, tuple[str, Watched]] = {}
        self.peers: Counter[str] = Counter()
        self.turned_away = 0  # closed at once: their address had its share
        self.evicted = 0  # closed to make room: no request head in EVICT_AFTER_S
        self.out_of_files = 0  # accept() failed for want of files
        self._reading = False
        self._waking: asyncio.TimerHandle | None = None
        self._said = -LOG_EVERY_S
        self._tasks: set[asyncio.Task] = set()

    def start(self) -> None:
        self._read(True)

    def close(self) -> None:
        self._read(False)
        if self._waking is not None:
            self._waking.cancel()
        for s in self.sockets:
            s.close()
        for task in self._tasks:
            task.cancel()

    def _read(self, on: bool) -> None:
        if on == self._reading:
            return
        for s in self.sockets:
            if on:
                self.loop.add_reader(s.fileno(), self._accept, s)
            else:
                self.loop.remove_reader(s.fileno())
        self._reading = on

    def _prune(self) -> None:
        """Forget the connections closed since (their transport closed the socket)."""
        for conn in [c for c in self.open if c.fileno() == -1]:
            self._forget(conn)

    def _forget(self, conn: socket.socket) -> None:
        peer, _ = self.open.pop(conn)
        self.peers[peer] -= 1
        if not self.peers[peer]:
            del self.peers[peer]

    def _make_room(self) -> bool:
        """Close the oldest connection without a request head for :data:`EVICT_AFTER_S`, if
        there is one (its file is free at once)."""
        now = self.clock()
        idle = [(w.since, c, w) for c, (_p, w) in self.open.items()
                if not w.headed and w.transport is not None and now - w.since >= EVICT_AFTER_S]
        if not idle:
            return False
        _since, conn, watched = min(idle, key=lambda t: t[0])
        watched.transport.abort()  # its socket closes on the loop's next turn
        self._forget(conn)
        self.evicted += 1
        return True

    def _accept(self, listening: socket.socket) -> None:
        self._prune()
        made = 0  # connections closed this turn to make room
        while True:
            if len(self.open) >= self.cap:
                if made >= EVICT_BATCH:
                    return  # more on the loop's next turn, once the files of those closed are free
                if not self._make_room():
                    self._wait(RETRY_S)  # full: the next connections wait until one closes
                    return
                made += 1
            try:
                conn, address = listening.accept()
            except (BlockingIOError, InterruptedError):
                return
            except ConnectionAbortedError:
                continue
            except OSError as e:  # no file left (something else used them), or the system's own trouble
                self.out_of_files += e.errno in _OUT_OF_FILES
                said = (_("the server ({name}) has no open file left to take a connection ({reason}); it stops "
                          "taking them for a second ({n} times without a file so far)")
                        if e.errno in _OUT_OF_FILES else
                        _("the server ({name}) cannot take a connection ({reason}); it stops taking them for a second "
                          "({n} times without a file so far)"))
                self._say(said.format(name=self.name, reason=e.strerror or e, n=self.out_of_files))
                self._wait(OUT_OF_FILES_RETRY_S)
                return
            peer = str(address[0]) if isinstance(address, tuple) else str(address)
            if self.peers[peer] >= self.per_peer:
                self.turned_away += 1  # counted before the peer can see the close
                conn.close()
                continue
            conn.setblocking(False)
            watched = Watched(self.factory(), self.clock())
            self.open[conn] = (peer, watched)
            self.peers[peer] += 1
            task = self.loop.create_task(self._serve(conn, watched))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _serve(self, conn: socket.socket, watched: Watched) -> None:
        try:
            await self.loop.connect_accepted_socket(lambda: watched, conn)
        except OSError:
            conn.close()

    def _wait(self, seconds: float) -> None:
        self._read(False)
        if self._waking is None:
            self._waking = self.loop.call_later(seconds, self._wake)

    def _wake(self) -> None:
        self._waking = None
        self._prune()
        if len(self.open) < self.cap or any(not w.headed and self.clock() - w.since >= EVICT_AFTER_S
                                            for _p, w in self.open.values()):
            self._read(True)
        else:
            self._waking = self.loop.call_later(RETRY_S, self._wake)

    def _say(self, text: str) -> None:
        now = self.clock()
        if now - self._said >= LOG_EVERY_S:
            self._said = now
            log.warning(text)


class RateLimit(logging.Filter):
    """Lets ``burst`` records of each kind (logger, message) through a ``window`` of seconds,
    counts the rest and says how many with the next one let through."""

    def __init__(self, burst: int = 5, window: float = LOG_EVERY_S, clock: Callable[[], float] = time.monotonic,
                 kinds: int = 200) -> None:
        super().__init__()
        self.burst, self.window, self.clock, self.kinds = burst, window, clock, kinds
        self._seen: dict[tuple[str, str], list] = {}  # kind -> [window start, let through, left out]

    def filter(self, record: logging.LogRecord) -> bool:
        now = self.clock()
        key = (record.name, str(record.msg)[:80])
        if key not in self._seen and len(self._seen) >= self.kinds:
            key = (record.name, "")  # past so many kinds, the rest share one count
        seen = self._seen.setdefault(key, [now, 0, 0])
        if now - seen[0] >= self.window:
            seen[0], seen[1] = now, 0
        if seen[1] >= self.burst:
            seen[2] += 1
            return False
        seen[1] += 1
        if seen[2]:
            record.msg = f"{record.msg} ({seen[2]} more like this were left out of the log)"
            seen[2] = 0
        return True


#: The loggers of the libraries the servers run on.
NOISY = ("asyncio", "aiohttp.server", "aiohttp.web", "aiohttp.access", "aiohttp.internal", "aiohttp.client",
         "zeroconf", "companion.broadcast")
_limit = RateLimit()


def limit_logs() -> None:
    """Hold the :data:`NOISY` loggers to :class:`RateLimit` (once; any thread)."""
    for name in NOISY:
        logger = logging.getLogger(name)
        if _limit not in logger.filters:
            logger.addFilter(_limit)
