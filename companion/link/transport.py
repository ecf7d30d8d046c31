"""The thin edge under the link: frames over a direct TCP connection or through an MQTT broker.

A transport only moves frames (companion.link.channel says what is in them): ``start(up,
frame, down)`` calls ``up()`` when a connection stands (the channel then starts a new epoch),
``frame(bytes)`` for each frame that arrives, ``down(reason)`` when it is lost; ``send(frame)``
sends one (dropped while nothing is connected: the game resends by numbers after the next
hello). Each runs in threads of its own and never touches the game.

* :class:`TcpHost` / :class:`TcpGuest` - the same network: the host listens (and announces
  itself with zeroconf, companion.link.discovery), the guest connects and keeps reconnecting
  (every 0.5 s at first, up to every 5 s). A frame is a 4-byte length and the frame.
* :class:`MqttLink` - across the internet, through a broker the players choose
  (``mqtt://host:port``, ``mqtts://`` for TLS, ``user:password@`` if it wants them): each board
  publishes on ``companion/link/<nameplate>/<role>`` and subscribes to the other's, QoS 1, so
  neither board opens a port at home. paho-mqtt reconnects by itself.

:class:`LinkPort` joins a transport and a channel for the board's loop: the channel's calls
under one lock, its events and payloads on a queue (``inbox``) that the board's own thread
drains (the app's on the Kivy clock).
"""

from __future__ import annotations

import queue
import socket
import struct
import threading
import time
from typing import Callable
from urllib.parse import unquote, urlsplit

from ..errors import LinkError
from ..i18n import _
from .channel import MAX_FRAME, Channel, Connected, EpochStarted, Interrupted, Paired, PairingFailed, Received, Rejected

RETRY_S = (0.5, 1.0, 2.0, 5.0)


# ----------------------------------------------------------------------------------- TCP
def read_exactly(sock: socket.socket, n: int) -> bytes | None:
    """``n`` bytes from ``sock`` (None: the connection closed first)."""
    data = b""
    while len(data) < n:
        chunk = sock.recv(n - len(data))
        if not chunk:
            return None
        data += chunk
    return data


def _serve(sock: socket.socket, frame: Callable[[bytes], None]) -> str:
    """Read frames until the connection ends; returns why it ended."""
    try:
        while True:
            head = read_exactly(sock, 4)
            if head is None:
                return _("the connection was closed")
            (length,) = struct.unpack(">I", head)
            if length > MAX_FRAME:
                return _("a frame of {length} bytes (at most {most})").format(length=length, most=MAX_FRAME)
            body = read_exactly(sock, length)
            if body is None:
                return _("the connection was closed in the middle of a frame")
            frame(body)
    except OSError as e:
        return _("the connection failed ({reason})").format(reason=e.strerror or e)


class _Connections:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.socks: list[socket.socket] = []

    def add(self, sock: socket.socket) -> None:
        with self.lock:
            self.socks.append(sock)

    def drop(self, sock: socket.socket) -> None:
        with self.lock:
            if sock in self.socks:
                self.socks.remove(sock)
        try:
            sock.close()
        except OSError:
            pass

    def send(self, frame: bytes) -> None:
        data = struct.pack(">I", len(frame)) + frame
        with self.lock:
            socks = list(self.socks)
        for s in socks:
            try:
                s.sendall(data)
            except OSError:
                self.drop(s)

    def close(self) -> None:
        with self.lock:
            socks, self.socks = self.socks, []
        for s in socks:
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            s.close()


class TcpHost:
    """Listens on ``host:port`` (0: any free port, :attr:`port` says which)."""

    def __init__(self, host: str = "0.0.0.0", port: int = 0) -> None:
        try:
            self._listener = socket.create_server((host, port), reuse_port=False)
        except OSError as e:
            raise LinkError(_("cannot listen on {host}:{port} ({reason})").format(
                host=host, port=port, reason=e.strerror or e)) from None
        self.port = self._listener.getsockname()[1]
        self._conns = _Connections()
        self._stopped = False

    def start(self, up, frame, down) -> None:
        def accept() -> None:
            while not self._stopped:
                try:
                    sock, _ = self._listener.accept()
                except OSError:
                    return
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                self._conns.add(sock)
                threading.Thread(target=self._one, args=(sock, up, frame, down), daemon=True).start()

        threading.Thread(target=accept, name="link-listen", daemon=True).start()

    def _one(self, sock, up, frame, down) -> None:
        up()
        why = _serve(sock, frame)
        self._conns.drop(sock)
        if not self._stopped:
            down(why)

    def send(self, frame: bytes) -> None:
        self._conns.send(frame)

    def stop(self) -> None:
        self._stopped = True
        try:  # wakes the thread waiting in accept(): a listener only closed stays bound while it waits
            self._listener.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self._listener.close()
        self._conns.close()


class TcpGuest:
    """Connects to ``host:port`` (or to what ``find()`` returns, e.g. zeroconf), again and again."""

    def __init__(self, address: tuple[str, int] | None = None, find: Callable[[], tuple[str, int] | None] | None = None):
        self._address, self._find = address, find
        self._conns = _Connections()
        self._stopped = threading.Event()

    def start(self, up, frame, down) -> None:
        threading.Thread(target=self._run, args=(up, frame, down), name="link-connect", daemon=True).start()

    def _run(self, up, frame, down) -> None:
        tries = 0
        while not self._stopped.is_set():
            address = self._address or (self._find() if self._find else None)
            sock = None
            if address is not None:
                try:
                    sock = socket.create_connection(address, timeout=5)
                    sock.settimeout(None)
                    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                except OSError:
                    sock = None
            if sock is None:
                self._stopped.wait(RETRY_S[min(tries, len(RETRY_S) - 1)])
                tries += 1
                continue
            tries = 0
            self._conns.add(sock)
            up()
            why = _serve(sock, frame)
            self._conns.drop(sock)
            if not self._stopped.is_set():
                down(why)
                self._stopped.wait(RETRY_S[0])

    def send(self, frame: bytes) -> None:
        self._conns.send(frame)

    def drop(self) -> None:
        """Close the connection: the guest connects again (to the next board ``find`` gives)."""
        self._conns.close()

    def stop(self) -> None:
        self._stopped.set()
        self._conns.close()


# ----------------------------------------------------------------------------------- MQTT
def parse_broker(url: str) -> dict:
    """``mqtt://[user:password@]host[:port]`` or ``mqtts://...``; one line if it is not one."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise LinkError(_("--broker {url!r}: not a broker address (mqtt://host:port)").format(url=url[:60])) from None
    if parts.scheme not in ("mqtt", "mqtts") or not parts.hostname:
        raise LinkError(_("--broker {url!r}: a broker is mqtt://host:port or mqtts://host:port").format(url=url[:60]))
    if parts.path not in ("", "/") or parts.query:
        raise LinkError(_("--broker {url!r}: a broker address has no path").format(url=url[:60]))
    tls = parts.scheme == "mqtts"
    return {"host": parts.hostname, "port": port or (8883 if tls else 1883), "tls": tls,
            "user": unquote(parts.username) if parts.username else None,
            "password": unquote(parts.password) if parts.password else None}


def topic(nameplate: str, role: str) -> str:
    return f"companion/link/{nameplate}/{role}"


class MqttLink:
    """Frames through an MQTT broker (paho-mqtt's own network thread)."""

    def __init__(self, url: str, nameplate: str, role: str, client_id: str) -> None:
        import paho.mqtt.client as mqtt

        self._broker = parse_broker(url)
        self._mine, self._theirs = topic(nameplate, role), topic(nameplate, "guest" if role == "host" else "host")
        self._client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id, clean_session=True)
        self._client.reconnect_delay_set(min_delay=1, max_delay=5)
        if self._broker["user"]:
            self._client.username_pw_set(self._broker["user"], self._broker["password"])
        if self._broker["tls"]:
            self._client.tls_set()
        self._up = False

    def start(self, up, frame, down) -> None:
        client = self._client

        def on_connect(c, userdata, flags, reason, properties=None):
            if reason.is_failure:
                down(_("the broker refused the connection ({reason})").format(reason=reason))
                return
            sock = c.socket()
            if sock is not None and hasattr(sock, "setsockopt"):  # a move is one small frame: no Nagle delay
                try:
                    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                except OSError:
                    pass
            c.subscribe(self._theirs, qos=1)

        def on_subscribe(c, userdata, mid, reasons, properties=None):
            self._up = True
            up()

        def on_message(c, userdata, message):
            frame(bytes(message.payload))

        def on_disconnect(c, userdata, flags, reason, properties=None):
            if self._up:
                self._up = False
                down(_("the broker connection was lost ({reason})").format(reason=reason))

        client.on_connect, client.on_subscribe = on_connect, on_subscribe
        client.on_message, client.on_disconnect = on_message, on_disconnect
        client.connect_async(self._broker["host"], self._broker["port"], keepalive=10)
        client.loop_start()

    def send(self, frame: bytes) -> None:
        if self._up:
            self._client.publish(self._mine, frame, qos=1)

    def stop(self) -> None:
        self._client.disconnect()
        self._client.loop_stop()


# ----------------------------------------------------------------------------------- the port
class LinkPort:
    """A channel on a transport, for one board's loop: what happens comes on :attr:`inbox` as
    ``("up", epoch)``, ``("payload", bytes)``, ``("paired", key)``, ``("failed", reason)``,
    ``("down", reason)``, ``("rejected", kind, detail)``, ``("epoch", n)``; :meth:`send` seals
    and sends payloads (dropped while not connected)."""

    def __init__(self, channel: Channel, transport, *, save_epoch: Callable[[int], None],
                 clock: Callable[[], float] = time.monotonic, post: Callable[[tuple], None] | None = None) -> None:
        self.channel, self.transport = channel, transport
        self._save_epoch, self._clock = save_epoch, clock
        self._lock = threading.Lock()
        self.inbox: queue.Queue = queue.Queue()
        #: where what happens goes (the app: its Mailbox); default: :attr:`inbox`
        self._post = post or self.inbox.put
        self._ticker = threading.Event()

    def now_ms(self) -> int:
        return int(self._clock() * 1000)

    def start(self) -> None:
        self.transport.start(self._up, self._frame, self._down)
        threading.Thread(target=self._tick, name="link-tick", daemon=True).start()

    def stop(self) -> None:
        self._ticker.set()
        self.transport.stop()

    @property
    def connected(self) -> bool:
        return self.channel.connected

    def try_another(self, channel: Channel) -> None:
        """After a pairing that failed with one board (a stranger's with the same nameplate):
        a fresh channel, and the transport moves on to the next board it finds."""
        with self._lock:
            self.channel = channel
        drop = getattr(self.transport, "drop", None)
        if drop is not None:
            drop()

    def send(self, payloads: list[bytes]) -> None:
        with self._lock:
            for p in payloads:
                if not self.channel.connected:
                    break
                self.channel.send(p)
            self._flush()

    # ----- from the transport's threads ---------------------------------------------------------------
    def _up(self) -> None:
        with self._lock:
            self._handle(self.channel.start(self.now_ms()))

    def _frame(self, frame: bytes) -> None:
        with self._lock:
            self._handle(self.channel.receive(frame, self.now_ms()))

    def _down(self, reason: str) -> None:
        self._post(("down", reason))

    def _tick(self) -> None:
        while not self._ticker.wait(0.25):
            with self._lock:
                self._handle(self.channel.tick(self.now_ms()))

    def _handle(self, events: list) -> None:
        for e in events:
            if isinstance(e, EpochStarted):
                self._save_epoch(e.epoch)  # on the disk before its hello goes out
                self._post(("epoch", e.epoch))
            elif isinstance(e, Received):
                self._post(("payload", e.payload))
            elif isinstance(e, Connected):
                self._post(("up", e.epoch))
            elif isinstance(e, Paired):
                self._post(("paired", e.key))
            elif isinstance(e, PairingFailed):
                self._post(("failed", e.reason))
            elif isinstance(e, Rejected):
                self._post(("rejected", e.kind, e.detail))
            elif isinstance(e, Interrupted):
                self._post(("down", e.reason))
        self._flush()

    def _flush(self) -> None:
        for f in self.channel.data_to_send():
            self.transport.send(f)
