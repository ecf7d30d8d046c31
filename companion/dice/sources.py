"""Where dice faces come from: a seed, the operating system, or the players' own dice.

Every source answers the same question, "the faces for this roll", so the rules never know
which one is in use:

- ``SeededDice``: each die is derived on its own from the seed and the roll's address
  ``"{fight_id}/{roll_index}/{side}/{die_index}"`` by HMAC-SHA256, so an arbiter holding the
  revealed seed re-derives any roll in any order with hashlib and hmac alone (the exact
  recipe is in docs/rules/combat-dice.md). ``commitment`` (SHA-256 of the seed) is published
  when the game starts, ``reveal()`` gives the seed when it ends.
- ``SystemDice``: the operating system's secure randomness (``secrets``); not re-derivable.
- ``EnteredDice``: the players roll real dice and type the numbers; ``validate_entry``
  refuses impossible entries with a message naming the die, and nothing changes.

The derivation functions are pure; only ``SystemDice`` and ``new_seed`` touch randomness.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass
from typing import Callable, Iterable, Iterator, Protocol, Sequence

from companion.dice.odds import DiceSpec
from companion.errors import DiceError
from companion.i18n import N_, _

#: a side of a fight in words (prompts, the verification's problems)
SIDE_WORDS = {"attacker": N_("attacker"), "defender": N_("defender")}

_DIGEST_RANGE = 1 << 256  # an HMAC-SHA256 digest read as a big-endian integer
_WHOLE_NUMBER = re.compile(r"\s*[+-]?[0-9]+\s*")


@dataclass(frozen=True)
class DiceRequest:
    """One side's fighter asks for faces: the address of the roll and the dice to roll.

    ``fighter_index`` tells fighters of one side apart (King's Prerogative); ``die_offset``
    is the index of this fighter's first die among all dice of its side in this round.
    """

    spec: DiceSpec
    fight_id: str
    roll_index: int
    side: str
    fighter_index: int = 0
    die_offset: int = 0

    def describe(self) -> str:
        """For a prompt: "fight 3, round 2, defender: a d8"."""
        side = _(SIDE_WORDS[self.side]) if self.side in SIDE_WORDS else self.side
        who = side if self.fighter_index == 0 else f"{side} #{self.fighter_index + 1}"
        return _("fight {fight}, round {round}, {side}: {dice}").format(
            fight=self.fight_id, round=self.roll_index, side=who, dice=self.spec.describe())


class DiceSource(Protocol):
    """What the rules engine asks: faces for a roll. ``name`` goes into the dice record."""

    name: str

    @property
    def commitment(self) -> str | None: ...

    def roll(self, spec: DiceSpec, fight_id: str, roll_index: int, side: str) -> list[int]: ...

    def roll_side(
        self, specs: Sequence[DiceSpec], fight_id: str, roll_index: int, side: str
    ) -> list[list[int]]: ...


def _check_address(fight_id: str, roll_index: int, side: str) -> None:
    """Labels must keep the derivation address unambiguous: no "/" inside a part."""
    for name, label in (("fight id", fight_id), ("side", side)):
        if not isinstance(label, str) or not label or "/" in label:
            raise DiceError(_("{name} must be non-empty text without '/', got {label!r}").format(name=name, label=label))
    if isinstance(roll_index, bool) or not isinstance(roll_index, int) or roll_index < 0:
        raise DiceError(_("roll index must be a whole number of 0 or more, got {roll_index!r}").format(roll_index=roll_index))


def seed_bytes(seed: bytes | str) -> bytes:
    """The seed as bytes (text seeds are UTF-8); this is what is hashed and revealed."""
    if isinstance(seed, str):
        seed = seed.encode("utf-8")
    if not isinstance(seed, bytes) or not seed:
        raise DiceError(_("a dice seed must be non-empty bytes or text, got {seed!r}").format(seed=seed))
    return seed


def commitment_of(seed: bytes | str) -> str:
    """SHA-256 of the seed, lowercase hex: published at game start, checked at the end."""
    return hashlib.sha256(seed_bytes(seed)).hexdigest()


def new_seed() -> bytes:
    """32 bytes from the operating system: a seed nobody can guess from its commitment."""
    return secrets.token_bytes(32)


def derivation_message(
    fight_id: str, roll_index: int, side: str, die_index: int, attempt: int = 0
) -> bytes:
    """The HMAC message for one die; ``attempt`` > 0 only after a rejected draw."""
    text = f"{fight_id}/{roll_index}/{side}/{die_index}"
    return (text if attempt == 0 else f"{text}/{attempt}").encode("utf-8")


def face_from_digests(digests: Iterable[bytes], sides: int) -> int:
    """Map a stream of 32-byte digests to a uniform face 1..sides by rejection sampling.

    A digest is a number v in [0, 2^256); v % sides is uniform only below the largest
    multiple of ``sides``, so a digest at or above it is discarded and the next one used.
    (The chance of a discard is below 10^-74; the rule exists so that the mapping is exact.)
    """
    limit = _DIGEST_RANGE - _DIGEST_RANGE % sides
    for digest in digests:
        value = int.from_bytes(digest, "big")
        if value < limit:
            return value % sides + 1
    raise DiceError("the digest stream ended before an unbiased draw")


def seeded_face(
    seed: bytes | str, fight_id: str, roll_index: int, side: str, die_index: int, sides: int
) -> int:
    """One die of a seeded game, derived from the seed and the die's address alone."""
    _check_address(fight_id, roll_index, side)
    key = seed_bytes(seed)

    def digests() -> Iterator[bytes]:
        attempt = 0
        while True:
            message = derivation_message(fight_id, roll_index, side, die_index, attempt)
            yield hmac.new(key, message, hashlib.sha256).digest()
            attempt += 1

    return face_from_digests(digests(), sides)


class SeededDice:
    """Deterministic dice from a seed: the same seed and address always give the same faces."""

    name = "seeded"

    def __init__(self, seed: bytes | str) -> None:
        self._seed = seed_bytes(seed)

    def __repr__(self) -> str:  # never print the seed before it is revealed
        return f"SeededDice(commitment={self.commitment[:16]}...)"

    @property
    def commitment(self) -> str:
        return commitment_of(self._seed)

    def reveal(self) -> bytes:
        """The seed, for the end of the game."""
        return self._seed

    def roll(self, spec: DiceSpec, fight_id: str, roll_index: int, side: str) -> list[int]:
        return self.roll_side([spec], fight_id, roll_index, side)[0]

    def roll_side(
        self, specs: Sequence[DiceSpec], fight_id: str, roll_index: int, side: str
    ) -> list[list[int]]:
        """Faces for every fighter of a side; die indices run on across the fighters."""
        _check_address(fight_id, roll_index, side)
        faces: list[list[int]] = []
        die_index = 0
        for spec in specs:
            own = []
            for _ in range(spec.count):
                own.append(seeded_face(self._seed, fight_id, roll_index, side, die_index, spec.sides))
                die_index += 1
            faces.append(own)
        return faces


class SystemDice:
    """The operating system's secure randomness. Edge only; not re-derivable afterwards."""

    name = "system"
    commitment = None

    def roll(self, spec: DiceSpec, fight_id: str, roll_index: int, side: str) -> list[int]:
        return self.roll_side([spec], fight_id, roll_index, side)[0]

    def roll_side(
        self, specs: Sequence[DiceSpec], fight_id: str, roll_index: int, side: str
    ) -> list[list[int]]:
        _check_address(fight_id, roll_index, side)
        return [[secrets.randbelow(spec.sides) + 1 for _ in range(spec.count)] for spec in specs]


def validate_entry(spec: DiceSpec, faces: Sequence[object]) -> list[int]:
    """Check what a player typed for one roll; return the faces as ints or raise DiceError.

    Accepts ints and text of whole numbers ("5", " 5 "). Refuses anything else with a
    message a player understands, e.g. "a d8 shows 1 to 8; 9 is not possible". Pure: nothing
    is stored, so a refused entry changes nothing.
    """
    if isinstance(faces, (str, bytes)) or not isinstance(faces, Sequence):
        raise DiceError(_("enter the dice as a list of numbers, got {faces!r}").format(faces=faces))
    numbers: list[int] = []
    for entry in faces:
        if isinstance(entry, int) and not isinstance(entry, bool):
            numbers.append(entry)
        elif isinstance(entry, str) and _WHOLE_NUMBER.fullmatch(entry):
            numbers.append(int(entry))
        else:
            raise DiceError(_("a die shows a whole number; {entry!r} is not one").format(entry=entry))
    spec.check_faces(numbers)
    return numbers


class EnteredDice:
    """The players' own dice: ``ask`` shows the request and returns what was typed.

    ``ask`` is the UI's prompt (a callable taking a ``DiceRequest``); every answer goes
    through ``validate_entry``, so an impossible number raises DiceError before anything is
    recorded, and the caller can ask again.
    """

    name = "entered"
    commitment = None

    def __init__(self, ask: Callable[[DiceRequest], Sequence[object]]) -> None:
        self._ask = ask

    def roll(self, spec: DiceSpec, fight_id: str, roll_index: int, side: str) -> list[int]:
        return self.roll_side([spec], fight_id, roll_index, side)[0]

    def roll_side(
        self, specs: Sequence[DiceSpec], fight_id: str, roll_index: int, side: str
    ) -> list[list[int]]:
        _check_address(fight_id, roll_index, side)
        faces: list[list[int]] = []
        offset = 0
        for index, spec in enumerate(specs):
            request = DiceRequest(spec, fight_id, roll_index, side, index, offset)
            faces.append(validate_entry(spec, self._ask(request)))
            offset += spec.count
        return faces
