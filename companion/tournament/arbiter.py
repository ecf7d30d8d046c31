"""The arbiter's PIN: set on the board with the on-screen number pad, kept as a salted hash.

Pure functions (the salt is drawn at the edge and passed in); the app keeps the record in
``arbiter.json`` of its data folder (companion.app.presenters.table_steps).
"""

from __future__ import annotations

import hashlib
import hmac
import json
from dataclasses import dataclass

from ..errors import RecordError

MIN_PIN, MAX_PIN = 4, 8
ROUNDS = 100_000


@dataclass(frozen=True)
class PinRecord:
    salt: str  # hex
    digest: str  # hex

    def to_json(self) -> str:
        return json.dumps({"salt": self.salt, "digest": self.digest, "rounds": ROUNDS})

    @classmethod
    def from_json(cls, text: str) -> PinRecord:
        try:
            value = json.loads(text)
            if value["rounds"] != ROUNDS:
                raise ValueError
            salt, digest = value["salt"], value["digest"]
            bytes.fromhex(salt), bytes.fromhex(digest)
        except (ValueError, KeyError, TypeError):
            raise RecordError("arbiter.json: not an arbiter PIN record (set the PIN again)") from None
        return cls(salt, digest)


def valid_pin(pin: str) -> bool:
    return pin.isdigit() and MIN_PIN <= len(pin) <= MAX_PIN


def make_pin(pin: str, salt: bytes) -> PinRecord:
    if not valid_pin(pin):
        raise ValueError(f"a PIN is {MIN_PIN} to {MAX_PIN} digits")
    return PinRecord(salt.hex(), _digest(pin, salt).hex())


def pin_matches(record: PinRecord, pin: str) -> bool:
    return hmac.compare_digest(_digest(pin, bytes.fromhex(record.salt)).hex(), record.digest)


def _digest(pin: str, salt: bytes) -> bytes:
    return hashlib.pbkdf2_hmac("sha256", pin.encode(), salt, ROUNDS)
