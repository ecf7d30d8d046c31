"""The arbiter's PIN: set on the board with the on-screen number pad, kept as a salted hash.

Pure functions (the salt is drawn at the edge and passed in); the record lives in
``arbiter.json`` of the data folder, read and written by companion.tournament.pin_file (a file
that is there but is not exactly such a record is damaged: arbiter mode stays locked until the
arbiter resets the PIN, docs/tournament.md).
"""

from __future__ import annotations

import hashlib
import hmac
import json
from dataclasses import dataclass

from ..bounds import load_json
from ..errors import RecordError
from ..i18n import N_, _

MIN_PIN, MAX_PIN = 4, 8
ROUNDS = 100_000
SALT_BYTES, DIGEST_BYTES = 16, 32  # as make_pin writes them (PBKDF2-SHA256)


@dataclass(frozen=True)
class PinRecord:
    salt: str  # hex
    digest: str  # hex

    def to_json(self) -> str:
        return json.dumps({"salt": self.salt, "digest": self.digest, "rounds": ROUNDS})

    @classmethod
    def from_json(cls, text: str, where: str = "arbiter.json") -> PinRecord:
        """The record written by :meth:`to_json`, and nothing else: a JSON object of exactly
        ``salt`` (16 bytes) and ``digest`` (32 bytes) in lowercase hex and ``rounds``; anything
        else is RecordError saying what is wrong."""
        value = load_json(text, where)
        if not isinstance(value, dict):
            kind = _({list: N_("list"), str: N_("string"), bool: N_("true or false"), int: N_("number"),
                      float: N_("number")}.get(type(value), N_("null")))
            raise RecordError(_("{where}: not an arbiter PIN record (a JSON {kind}, not an object)").format(where=where, kind=kind))
        if sorted(value) != ["digest", "rounds", "salt"]:
            raise RecordError(_("{where}: not an arbiter PIN record (its keys are {keys}; expected digest, rounds, salt)").format(where=where, keys=', '.join(sorted(value)) or 'none'))
        rounds = value["rounds"]
        if type(rounds) is not int or rounds != ROUNDS:
            raise RecordError(_("{where}: rounds is {rounds}; expected {expected}").format(where=where, rounds=json.dumps(rounds)[:20], expected=ROUNDS))
        for key, size in (("salt", SALT_BYTES), ("digest", DIGEST_BYTES)):
            v = value[key]
            if not (isinstance(v, str) and len(v) == 2 * size and all(c in "0123456789abcdef" for c in v)):
                raise RecordError(_("{where}: {key} is not {size} bytes in lowercase hex").format(where=where, key=key, size=size))
        return cls(value["salt"], value["digest"])


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
