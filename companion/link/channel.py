"""The secure channel between two boards, sans-I/O: frames in, events and frames out.

Like h11's ``Connection``, a :class:`Channel` does no I/O: :meth:`receive` takes one frame (a
TCP record or an MQTT message) and returns events; frames to send pile up in
:meth:`data_to_send`; time comes in as milliseconds. The adapters (companion.link.tcp,
companion.link.mqtt) only move frames.

Frames (the first byte says which):

``P`` role, SPAKE2 message
    pairing (companion.link.pairing); resent until the other side's hello shows it arrived.
``H`` role, epoch (8), nonce (16), seen (16), MAC (32)
    a hello: each side starts an **epoch** at every (re)connection and after any fault it detects,
    with a fresh 16-byte nonce and a number above every epoch it used before (kept on disk by
    the edge: :class:`EpochStarted` comes before the hello is sent). ``seen`` echoes the other
    side's nonce; a side may seal once the other has echoed its nonce. The MAC (HMAC-SHA256
    under a key from the link key) is the pairing's key confirmation: a hello that does not
    verify while pairing means the two codes differed.
``S`` role, sender's epoch (8), receiver's epoch (8), counter (8), ciphertext
    a sealed message: ChaCha20-Poly1305 under a key derived from the link key and both epochs'
    nonces (one key per direction and pair of epochs), the first 26 bytes authenticated as
    associated data, the counter as the AEAD nonce. Counters start at 0 for every pair of epochs
    and must arrive in order: one skipped is a dropped or reordered frame, one seen again a
    replay, a tag that fails a changed frame (or one sealed for another pair of epochs).

Every fault is detected, counted in :attr:`Channel.rejected` by kind, and nothing of the frame is
accepted; a fault in the current epoch closes it: the channel starts a new epoch (a new
hello), and the game above resends what the other side has not acknowledged
(companion.link.game). Frames of an earlier epoch are dropped as ``stale``.
"""

from __future__ import annotations

import hashlib
import hmac
import struct
from collections import Counter
from dataclasses import dataclass
from typing import Callable

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

from ..errors import LinkError
from ..i18n import _
from .code import PairingCode
from .pairing import Pairing, derive

PAKE, HELLO, SEALED = b"P", b"H", b"S"
ROLE_BYTE = {"host": b"a", "guest": b"b"}
NONCE = 16
_HELLO_LEN = 1 + 1 + 8 + NONCE + NONCE + 32
_SEALED_HEAD = 1 + 1 + 8 + 8 + 8
#: The largest frame either side accepts (a mismatch's two positions fit easily).
MAX_FRAME = 64 * 1024
#: A handshake not finished in this long is tried again (its frames were lost).
RESEND_MS = 1000
#: The kinds of refused frames (what :attr:`Channel.rejected` counts).
REJECTIONS = ("bad-seal", "gap", "repeat", "stale", "bad-hello", "old-hello", "pake", "garbage", "early")


@dataclass(frozen=True)
class EpochStarted:
    """A new epoch: write ``epoch`` down before sending anything (a restart must go above it)."""

    epoch: int


@dataclass(frozen=True)
class Paired:
    """The pairing is confirmed: both codes were the same. Keep ``key`` (readable by the app's
    user only): the boards reconnect with it after a restart without a new code."""

    key: bytes

    def __repr__(self) -> str:
        return "Paired(key=...)"


@dataclass(frozen=True)
class PairingFailed:
    reason: str


@dataclass(frozen=True)
class Connected:
    """Both sides know each other's epoch: sealed messages flow."""

    epoch: int
    peer_epoch: int


@dataclass(frozen=True)
class Interrupted:
    """The current epoch was closed by a fault (``reason``); a new handshake has begun."""

    reason: str


@dataclass(frozen=True)
class Received:
    payload: bytes


@dataclass(frozen=True)
class Rejected:
    """A frame refused: ``kind`` one of :data:`REJECTIONS`; nothing of it was accepted."""

    kind: str
    detail: str


class Channel:
    """One board's end. Give ``key`` (a paired link, after a restart) or ``code`` (pairing now);
    ``epoch``: the last epoch this board used (from the disk); ``entropy(n)``: n random bytes."""

    def __init__(self, role: str, entropy: Callable[[int], bytes], *, key: bytes | None = None,
                 code: PairingCode | None = None, epoch: int = 0) -> None:
        if role not in ROLE_BYTE:
            raise LinkError(_("a board links as host or guest, not {role!r}").format(role=role))
        if (key is None) == (code is None):
            raise LinkError(_("a channel needs either the link key or a pairing code"))
        self.role, self._entropy = role, entropy
        self._me, self._peer = ROLE_BYTE[role], ROLE_BYTE["guest" if role == "host" else "host"]
        self._pairing = Pairing(code, role, entropy) if code is not None else None
        self._peer_pake: bytes | None = None
        self.key: bytes | None = key
        self.confirmed = key is not None  # a hello verified with this key
        self.failed: str | None = None
        self.epoch = epoch
        self._nonce = b""
        self.peer_epoch = -1
        self._peer_nonce = b""
        self._peer_seen_mine = False
        self._send: ChaCha20Poly1305 | None = None
        self._recv: ChaCha20Poly1305 | None = None
        self._sent = self._expect = 0
        self._out: list[bytes] = []
        self._last_try = 0
        self.rejected: Counter[str] = Counter()
        self.accepted = 0

    # ----- the state -------------------------------------------------------------------------------
    @property
    def connected(self) -> bool:
        return self._send is not None and self._peer_seen_mine and self.failed is None

    def data_to_send(self) -> list[bytes]:
        out, self._out = self._out, []
        return out

    # ----- driving it --------------------------------------------------------------------------------
    def start(self, now_ms: int) -> list:
        """Begin (at a new connection): the pairing message, or a new epoch's hello."""
        self._last_try = now_ms
        if self.failed is not None:
            return []
        if self.key is None:
            self._out.append(PAKE + self._me + self._pairing.message)
            return []
        return self._new_epoch()

    def tick(self, now_ms: int) -> list:
        """Try an unfinished handshake again (its frames may have been lost)."""
        if self.failed is not None or self.connected or now_ms - self._last_try < RESEND_MS:
            return []
        self._last_try = now_ms
        if self._pairing is not None and not self.confirmed:
            self._out.append(PAKE + self._me + self._pairing.message)
        if self.key is not None:
            self._out.append(self._hello())
        return []

    def send(self, payload: bytes) -> None:
        """Seal ``payload`` for the other board (LinkError while not connected)."""
        if not self.connected:
            raise LinkError(_("the other board is not connected"))
        head = SEALED + self._me + struct.pack(">QQQ", self.epoch, self.peer_epoch, self._sent)
        nonce = b"\0\0\0\0" + struct.pack(">Q", self._sent)
        self._out.append(head + self._send.encrypt(nonce, payload, head))
        self._sent += 1

    def receive(self, frame: bytes, now_ms: int) -> list:
        if self.failed is not None:
            return []
        if not isinstance(frame, (bytes, bytearray)) or len(frame) < 2 or len(frame) > MAX_FRAME:
            return self._reject("garbage", "not a frame of the link")
        frame = bytes(frame)
        kind, role = frame[:1], frame[1:2]
        if role != self._peer:
            return self._reject("garbage" if role not in ROLE_BYTE.values() else "stale",
                                "a frame not from the other board's side")
        if kind == PAKE:
            return self._pake(frame[2:], now_ms)
        if kind == HELLO:
            return self._hello_in(frame, now_ms)
        if kind == SEALED:
            return self._sealed(frame)
        return self._reject("garbage", f"unknown frame type {kind!r}")

    # ----- pairing -------------------------------------------------------------------------------------
    def _pake(self, message: bytes, now_ms: int) -> list:
        if self._pairing is None:
            return self._reject("pake", "a pairing message on a paired link")
        if self._peer_pake is not None:
            if message != self._peer_pake:
                return self._reject("pake", "a second, different pairing message")
            if not self.confirmed:  # the other side may not have ours yet
                self._out.append(PAKE + self._me + self._pairing.message)
            return []
        self._peer_pake = message
        try:
            self.key = self._pairing.finish(message)
        except LinkError as e:
            self.failed = str(e)
            return [PairingFailed(str(e))]
        self._out.append(PAKE + self._me + self._pairing.message)
        self._last_try = now_ms
        return self._new_epoch()

    # ----- epochs -----------------------------------------------------------------------------------------
    def _new_epoch(self) -> list:
        self.epoch += 1
        self._nonce = self._entropy(NONCE)
        self._peer_seen_mine = False
        self._rekey()
        self._out.append(self._hello())
        return [EpochStarted(self.epoch)]

    def _hello(self) -> bytes:
        body = HELLO + self._me + struct.pack(">Q", self.epoch) + self._nonce + (self._peer_nonce or b"\0" * NONCE)
        return body + hmac.new(derive(self.key, "hello"), body, hashlib.sha256).digest()

    def _rekey(self) -> None:
        self._sent = self._expect = 0
        if not self._peer_nonce or not self._nonce:
            self._send = self._recv = None
            return
        me, peer = self._me.decode(), self._peer.decode()
        self._send = ChaCha20Poly1305(derive(self.key, "seal " + me, self._nonce + self._peer_nonce))
        self._recv = ChaCha20Poly1305(derive(self.key, "seal " + peer, self._peer_nonce + self._nonce))

    def _hello_in(self, frame: bytes, now_ms: int) -> list:
        if self.key is None:
            return self._reject("early", "a hello before the pairing finished")
        if len(frame) != _HELLO_LEN:
            return self._reject("garbage", "a hello of the wrong length")
        body, mac = frame[:-32], frame[-32:]
        if not hmac.compare_digest(mac, hmac.new(derive(self.key, "hello"), body, hashlib.sha256).digest()):
            if not self.confirmed:
                self.failed = _("the codes did not match")
                return [PairingFailed(self.failed)]
            return self._reject("bad-hello", "a hello not made with the link's key")
        (epoch,) = struct.unpack(">Q", body[2:10])
        nonce, seen = body[10:10 + NONCE], body[10 + NONCE:]
        events: list = []
        if not self.confirmed:
            self.confirmed = True
            events.append(Paired(self.key))
        if epoch < self.peer_epoch or (epoch == self.peer_epoch and nonce != self._peer_nonce):
            return events + self._reject("old-hello", f"a hello of the other board's epoch {epoch}, "
                                                      f"which is past (now {self.peer_epoch})")
        was = self.connected
        fresh = epoch != self.peer_epoch or nonce != self._peer_nonce
        if fresh:
            self.peer_epoch, self._peer_nonce = epoch, nonce
            self._peer_seen_mine = False
            self._rekey()
        if seen == self._nonce:
            self._peer_seen_mine = True
        if fresh or seen != self._nonce:
            self._out.append(self._hello())
            self._last_try = now_ms
        if self.connected and (fresh or not was):
            events.append(Connected(self.epoch, self.peer_epoch))
        return events

    # ----- sealed frames --------------------------------------------------------------------------------
    def _sealed(self, frame: bytes) -> list:
        if len(frame) < _SEALED_HEAD + 16:
            return self._fault("garbage", "a sealed frame too short to hold its tag")
        head = frame[:_SEALED_HEAD]
        sender, receiver, counter = struct.unpack(">QQQ", head[2:])
        if self._recv is None or sender != self.peer_epoch or receiver != self.epoch:
            return self._reject("stale", f"sealed for epochs {sender}/{receiver}, now {self.peer_epoch}/{self.epoch}")
        try:
            payload = self._recv.decrypt(b"\0\0\0\0" + struct.pack(">Q", counter), frame[_SEALED_HEAD:], head)
        except InvalidTag:
            return self._fault("bad-seal", f"message {counter} does not open with the link's key: changed on "
                                           f"the way, or sealed for another connection")
        if counter > self._expect:
            return self._fault("gap", f"message {counter} came where {self._expect} was due: "
                                      f"{counter - self._expect} dropped or reordered")
        if counter < self._expect:
            return self._fault("repeat", f"message {counter} again (now at {self._expect}): a replay")
        self._expect += 1
        self.accepted += 1
        return [Received(payload)]

    def _reject(self, kind: str, detail: str) -> list:
        self.rejected[kind] += 1
        return [Rejected(kind, detail)]

    def _fault(self, kind: str, detail: str) -> list:
        """A fault in the current epoch: refuse the frame and start a new epoch."""
        events = self._reject(kind, detail)
        if self.key is None:
            return events
        return events + [Interrupted(detail)] + self._new_epoch()
