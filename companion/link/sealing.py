"""Commit-reveal: a board's secret choice (a duel's bid, an army, a deployment) bound before
the other board's is known, opened once both are in.

A commitment is ``SHA-256("companion sealed v1" LF label LF nonce LF value)`` with the value as
canonical JSON and a 32-byte nonce, so the other board learns nothing of a bid of 0, 1 or 2 from
it (it cannot try the three values without the nonce), and cannot be shown another value later
(that would need a second preimage). Each nonce is derived from the board's own secret root and
the number of the note that carries the commitment, so it is never used twice (a duel taken
back and played again gets a new one) and a board that restarts opens with the same nonce.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from typing import Any


def canonical(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def nonce_for(root: bytes, note_number: int) -> str:
    """The nonce of the commitment carried by this board's note ``note_number``."""
    return hmac.new(root, f"companion sealed nonce {note_number}".encode(), hashlib.sha256).hexdigest()


def commitment(label: str, value: Any, nonce: str) -> str:
    body = b"companion sealed v1\n" + label.encode("utf-8") + b"\n" + nonce.encode("ascii") + b"\n" + canonical(value)
    return hashlib.sha256(body).hexdigest()


def opens(digest: str, label: str, value: Any, nonce: str) -> bool:
    """Does (``value``, ``nonce``) open the commitment ``digest`` made for ``label``?"""
    if not isinstance(nonce, str) or len(nonce) != 64 or not nonce.isascii():
        return False
    try:
        return hmac.compare_digest(commitment(label, value, nonce), digest)
    except (TypeError, ValueError):
        return False


def coin_for(root: bytes) -> str:
    """This board's share of the game's coin (who starts when the players chose "random")."""
    return hmac.new(root, b"companion coin", hashlib.sha256).hexdigest()
