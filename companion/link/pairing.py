"""Pairing two boards: a password-authenticated key exchange (SPAKE2) from the pairing code.

Why SPAKE2 rather than TLS with certificate fingerprints checked through the code: a fingerprint
check needs the code to carry enough of the fingerprint to resist a forged certificate made to
match it (a six-digit code would be found in a few million tries, offline), so the code would
have to be long; SPAKE2 turns a short code into a strong key because an attacker gets exactly
one online guess per pairing, and nothing seen on the network lets anyone test guesses offline.
It also works the same over a direct TCP connection and through an MQTT broker, where there is
no TLS session between the boards at all. (The ``spake2`` package: pure Python, Ed25519 group.)

The host (the board that shows the code) is side A, the guest (the board it is typed on) side B.
Each sends one message; both derive the same 32-byte key if and only if the codes were the same.
Nothing here knows it yet: the first authenticated hello of companion.link.channel confirms it,
and a hello that does not verify means the codes differed. Pure apart from the entropy function
the edge hands in (``os.urandom``; a fixed one in tests).
"""

from __future__ import annotations

import hashlib
import hmac
from typing import Callable

from spake2 import SPAKE2_A, SPAKE2_B

from ..errors import LinkError
from ..i18n import _
from .code import PairingCode

ROLES = ("host", "guest")
_ID_HOST = b"companion board host"
_ID_GUEST = b"companion board guest"


def derive(key: bytes, label: str, salt: bytes = b"") -> bytes:
    """A 32-byte key for one purpose from ``key`` (HKDF-SHA256 with one block, RFC 5869)."""
    prk = hmac.new(salt or b"\0" * 32, key, hashlib.sha256).digest()
    return hmac.new(prk, label.encode("utf-8") + b"\x01", hashlib.sha256).digest()


class Pairing:
    """One side of one key exchange. ``message`` is what to send; :meth:`finish` takes the other
    side's and returns the link key (32 bytes)."""

    def __init__(self, code: PairingCode, role: str, entropy: Callable[[int], bytes]) -> None:
        if role not in ROLES:
            raise LinkError(_("a board pairs as host or guest, not {role!r}").format(role=role))
        self.role, self.nameplate = role, code.nameplate
        make = SPAKE2_A if role == "host" else SPAKE2_B
        self._spake = make(code.password, idA=_ID_HOST, idB=_ID_GUEST, entropy_f=entropy)
        self.message = self._spake.start()
        self.key: bytes | None = None

    def finish(self, theirs: bytes) -> bytes:
        if self.key is not None:
            return self.key
        try:
            shared = self._spake.finish(theirs)
        except Exception as e:  # noqa: BLE001 - the library raises its own and ValueError for bad points
            raise LinkError(_("the other board's pairing message cannot be used ({kind})").format(
                kind=type(e).__name__)) from None
        self.key = derive(shared, "companion link key " + self.nameplate)
        return self.key
