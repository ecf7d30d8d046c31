"""The dice record of a game: every round of every fight, what was rolled and what it meant.

One JSON object per line (JSON Lines), so the record can be appended to as the game goes
and a damaged line is easy to point at:

    {"type": "header", "format": "companion.dice-record", "version": 1, "game_id": ...,
     "game": "combat", "source": "seeded", "commitment": "<sha256 hex>", "max_ties": 3}
    {"type": "round", "fight": 1, "round": 1, "move": "e4d5",
     "attacker": {"fighters": [{"piece": "white pawn e4", "dice": "d6", "faces": [5],
                                "fatigue": 0, "weapon_choice": true}], "total": 6},
     "defender": {...}, "result": "attacker"}
    {"type": "reveal", "seed": "<seed hex>"}

``parse_record(format_record(r)) == r``. Loading is strict (unknown or missing fields, wrong
types, impossible faces are RecordError naming the line and the field).
companion.dice.verify then checks what a well-formed record claims: totals and results recomputed from the faces,
fights and rounds in order with unchanged modifiers, and for a seeded game the commitment
and every face re-derived from the revealed seed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from typing import Any, Sequence

from companion.dice.odds import (
    DEFAULT_MAX_TIES,
    OUTCOMES,
    DiceSpec,
    Fighter,
    round_outcome,
)
from companion.dice.sources import DiceSource, seed_bytes
from companion.errors import CompanionError, DiceError, RecordError

FORMAT_NAME = "companion.dice-record"
FORMAT_VERSION = 1
SOURCES = ("seeded", "system", "entered")
SIDES = ("attacker", "defender")


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_hex64(value: object) -> bool:
    return isinstance(value, str) and len(value) == 64 and all(c in "0123456789abcdef" for c in value)


@dataclass(frozen=True)
class FighterRoll:
    """One fighter's dice in one round: who, which dice, the faces, and its modifiers."""

    piece: str
    dice: DiceSpec
    faces: tuple[int, ...]
    fatigue: int = 0
    weapon_choice: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.piece, str):
            raise DiceError(f"a fighter's piece description must be text, got {self.piece!r}")
        object.__setattr__(self, "faces", tuple(self.faces))
        self.fighter.dice.check_faces(self.faces)

    @property
    def fighter(self) -> Fighter:
        return Fighter(self.dice, self.fatigue, self.weapon_choice)

    @property
    def total(self) -> int:
        """The modified roll these faces give."""
        return self.fighter.total(self.faces)


@dataclass(frozen=True)
class SideRoll:
    """A side's roll in one round: its fighters (several under King's Prerogative), its total.

    ``total`` is what was recorded; companion.dice.verify recomputes it from the faces.
    """

    fighters: tuple[FighterRoll, ...]
    total: int

    def __post_init__(self) -> None:
        object.__setattr__(self, "fighters", tuple(self.fighters))
        if not self.fighters or not all(isinstance(f, FighterRoll) for f in self.fighters):
            raise DiceError("a side needs at least one FighterRoll")
        if not _is_int(self.total):
            raise DiceError(f"a side's total must be a whole number, got {self.total!r}")


@dataclass(frozen=True)
class RoundRecord:
    """One round of one fight. ``result`` is one of OUTCOMES ("bounce" = the last tie)."""

    fight: int
    round: int
    move: str
    attacker: SideRoll
    defender: SideRoll
    result: str

    def __post_init__(self) -> None:
        for name in ("fight", "round"):
            value = getattr(self, name)
            if not _is_int(value) or value < 1:
                raise DiceError(f"{name} number must be a whole number from 1, got {value!r}")
        if not isinstance(self.move, str):
            raise DiceError(f"the move must be text, got {self.move!r}")
        if self.result not in OUTCOMES:
            raise DiceError(f"result must be one of {', '.join(OUTCOMES)}, got {self.result!r}")

    def side(self, name: str) -> SideRoll:
        return self.attacker if name == "attacker" else self.defender


@dataclass(frozen=True)
class DiceRecord:
    """A game's dice: the header facts, the rounds in order, and the seed once revealed."""

    game_id: str
    game: str
    source: str
    commitment: str | None = None
    max_ties: int = DEFAULT_MAX_TIES
    rounds: tuple[RoundRecord, ...] = field(default=())
    revealed_seed: bytes | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "rounds", tuple(self.rounds))
        for name in ("game_id", "game"):
            if not isinstance(getattr(self, name), str):
                raise DiceError(f"{name} must be text, got {getattr(self, name)!r}")
        if self.source not in SOURCES:
            raise DiceError(f"dice source must be one of {', '.join(SOURCES)}, got {self.source!r}")
        if self.source == "seeded" and not _is_hex64(self.commitment):
            raise DiceError(
                "a seeded record needs the commitment: 64 lowercase hex digits (SHA-256 of the "
                f"seed), got {self.commitment!r}"
            )
        if self.source != "seeded" and self.commitment is not None:
            raise DiceError(f"only a seeded record has a commitment, not a {self.source} one")
        if self.revealed_seed is not None:
            if self.source != "seeded":
                raise DiceError(f"only a seeded record reveals a seed, not a {self.source} one")
            object.__setattr__(self, "revealed_seed", seed_bytes(self.revealed_seed))
        if not _is_int(self.max_ties) or self.max_ties < 1:
            raise DiceError(f"max_ties must be a whole number of at least 1, got {self.max_ties!r}")
        if not all(isinstance(r, RoundRecord) for r in self.rounds):
            raise DiceError("a record's rounds must be RoundRecord values")

    def with_round(self, entry: RoundRecord) -> DiceRecord:
        if self.revealed_seed is not None:
            raise DiceError("the seed is already revealed: the record is closed")
        return replace(self, rounds=self.rounds + (entry,))

    def with_reveal(self, seed: bytes | str) -> DiceRecord:
        return replace(self, revealed_seed=seed_bytes(seed))


def start_record(
    game_id: str, game: str, source: DiceSource, max_ties: int = DEFAULT_MAX_TIES
) -> DiceRecord:
    """An empty record for a game played with ``source`` (its name and commitment)."""
    return DiceRecord(game_id, game, source.name, source.commitment, max_ties)


def score_round(
    fight: int,
    round_number: int,
    move: str,
    attacker: Sequence[FighterRoll],
    defender: Sequence[FighterRoll],
    max_ties: int = DEFAULT_MAX_TIES,
) -> RoundRecord:
    """Build the record of a round from the faces rolled: totals and result computed here."""
    sides = [SideRoll(tuple(rolls), sum(r.total for r in rolls)) for rolls in (attacker, defender)]
    result = round_outcome(sides[0].total, sides[1].total, round_number, max_ties)
    return RoundRecord(fight, round_number, move, sides[0], sides[1], result)


def roll_round(
    source: DiceSource,
    fight: int,
    round_number: int,
    move: str,
    attacker: Sequence[tuple[str, Fighter]],
    defender: Sequence[tuple[str, Fighter]],
    max_ties: int = DEFAULT_MAX_TIES,
) -> RoundRecord:
    """Ask ``source`` for both sides' faces (address: str(fight), round, side) and score them.

    ``attacker``/``defender`` are (piece description, Fighter) pairs.
    """
    rolled = []
    for side, pairs in zip(SIDES, (attacker, defender)):
        faces = source.roll_side([f.dice for _, f in pairs], str(fight), round_number, side)
        rolled.append(
            [FighterRoll(p, f.dice, tuple(own), f.fatigue, f.weapon_choice)
             for (p, f), own in zip(pairs, faces)]
        )
    return score_round(fight, round_number, move, rolled[0], rolled[1], max_ties)


# --- text form ---------------------------------------------------------------------------


def _fighter_json(roll: FighterRoll) -> dict[str, Any]:
    return {
        "piece": roll.piece,
        "dice": roll.dice.notation(),
        "faces": list(roll.faces),
        "fatigue": roll.fatigue,
        "weapon_choice": roll.weapon_choice,
    }


def _round_json(entry: RoundRecord) -> dict[str, Any]:
    return {
        "type": "round",
        "fight": entry.fight,
        "round": entry.round,
        "move": entry.move,
        **{
            name: {"fighters": [_fighter_json(f) for f in side.fighters], "total": side.total}
            for name, side in zip(SIDES, (entry.attacker, entry.defender))
        },
        "result": entry.result,
    }


def format_record(record: DiceRecord) -> str:
    """The record as JSON Lines (header, rounds, then the reveal if any), newline-terminated."""
    header = {
        "type": "header",
        "format": FORMAT_NAME,
        "version": FORMAT_VERSION,
        "game_id": record.game_id,
        "game": record.game,
        "source": record.source,
        "commitment": record.commitment,
        "max_ties": record.max_ties,
    }
    lines = [header] + [_round_json(r) for r in record.rounds]
    if record.revealed_seed is not None:
        lines.append({"type": "reveal", "seed": record.revealed_seed.hex()})
    return "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)


class _Fields:
    """Strict reading of one JSON object; every complaint names the line and the field path."""

    def __init__(self, value: Any, where: str, path: str, keys: Sequence[str]) -> None:
        self.where, self.path = where, path
        if not isinstance(value, dict):
            raise self.error(path or "the line", "must be a JSON object")
        unknown = sorted(set(value) - set(keys))
        if unknown:
            raise RecordError(
                f"{where}: unknown field {self.name(unknown[0])!r} "
                f"(expected {', '.join(self.name(k) for k in keys)})"
            )
        missing = [k for k in keys if k not in value]
        if missing:
            raise RecordError(f"{where}: field {self.name(missing[0])!r} is missing")
        self.value = value

    def name(self, key: str) -> str:
        return f"{self.path}.{key}" if self.path else key

    def error(self, name: str, problem: str) -> RecordError:
        return RecordError(f"{self.where}: field {name!r} {problem}")

    def integer(self, key: str, least: int | None = None) -> int:
        value = self.value[key]
        if not _is_int(value) or (least is not None and value < least):
            floor = f" of at least {least}" if least is not None else ""
            raise self.error(self.name(key), f"must be a whole number{floor}, got {value!r}")
        return value

    def text(self, key: str) -> str:
        value = self.value[key]
        if not isinstance(value, str):
            raise self.error(self.name(key), f"must be text, got {value!r}")
        return value

    def flag(self, key: str) -> bool:
        value = self.value[key]
        if not isinstance(value, bool):
            raise self.error(self.name(key), f"must be true or false, got {value!r}")
        return value

    def items(self, key: str) -> list[Any]:
        value = self.value[key]
        if not isinstance(value, list) or not value:
            raise self.error(self.name(key), f"must be a non-empty list, got {value!r}")
        return value


_FIGHTER_KEYS = ("piece", "dice", "faces", "fatigue", "weapon_choice")
_ROUND_KEYS = ("type", "fight", "round", "move", "attacker", "defender", "result")
_HEADER_KEYS = ("type", "format", "version", "game_id", "game", "source", "commitment", "max_ties")


def _parse_fighter(value: Any, where: str, path: str) -> FighterRoll:
    f = _Fields(value, where, path, _FIGHTER_KEYS)
    try:
        dice = DiceSpec.from_notation(f.text("dice"))
    except DiceError as error:
        raise f.error(f.name("dice"), str(error)) from None
    faces = f.items("faces")
    if not all(_is_int(face) for face in faces):
        raise f.error(f.name("faces"), f"must hold whole numbers, got {faces!r}")
    try:
        dice.check_faces(faces)
    except DiceError as error:
        raise f.error(f.name("faces"), f"is impossible: {error}") from None
    return FighterRoll(f.text("piece"), dice, tuple(faces), f.integer("fatigue", 0), f.flag("weapon_choice"))


def _parse_side(value: Any, where: str, path: str) -> SideRoll:
    f = _Fields(value, where, path, ("fighters", "total"))
    fighters = tuple(
        _parse_fighter(item, where, f"{path}.fighters[{i}]")
        for i, item in enumerate(f.items("fighters"))
    )
    return SideRoll(fighters, f.integer("total"))


def _parse_round(value: dict[str, Any], where: str) -> RoundRecord:
    f = _Fields(value, where, "", _ROUND_KEYS)
    result = f.text("result")
    if result not in OUTCOMES:
        raise f.error("result", f"must be one of {', '.join(OUTCOMES)}, got {result!r}")
    return RoundRecord(
        f.integer("fight", 1),
        f.integer("round", 1),
        f.text("move"),
        _parse_side(value["attacker"], where, "attacker"),
        _parse_side(value["defender"], where, "defender"),
        result,
    )


def _parse_header(value: dict[str, Any], where: str) -> DiceRecord:
    f = _Fields(value, where, "", _HEADER_KEYS)
    if value["type"] != "header" or value["format"] != FORMAT_NAME:
        raise RecordError(f"{where}: not a dice record header (expected format {FORMAT_NAME!r})")
    version = f.integer("version")
    if version != FORMAT_VERSION:
        raise f.error("version", f"is {version}; this companion reads version {FORMAT_VERSION}")
    source = f.text("source")
    if source not in SOURCES:
        raise f.error("source", f"must be one of {', '.join(SOURCES)}, got {source!r}")
    commitment = value["commitment"]
    if source == "seeded" and not _is_hex64(commitment):
        raise f.error("commitment", f"must be 64 lowercase hex digits, got {commitment!r}")
    if source != "seeded" and commitment is not None:
        raise f.error("commitment", f"must be null for a {source} record, got {commitment!r}")
    return DiceRecord(f.text("game_id"), f.text("game"), source, commitment, f.integer("max_ties", 1))


def parse_record(text: str, name: str = "dice record") -> DiceRecord:
    """Read a record written by ``format_record``; RecordError names ``name``, line and field."""
    record: DiceRecord | None = None
    rounds: list[RoundRecord] = []
    seed: bytes | None = None
    for number, line in enumerate(text.split("\n"), start=1):  # not splitlines: U+2028 etc.
        where = f"{name} line {number}"
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except json.JSONDecodeError as error:
            raise RecordError(f"{where}: not valid JSON ({error.msg} at column {error.colno})") from None
        except RecursionError:
            raise RecordError(f"{where}: not valid JSON for a dice record (nested too deeply)") from None
        kind = value.get("type") if isinstance(value, dict) else None
        if record is None:
            if kind != "header":
                raise RecordError(f"{where}: the first line must be the dice record header")
            record = _parse_header(value, where)
        elif seed is not None:
            raise RecordError(f"{where}: nothing may follow the reveal of the seed")
        elif kind == "round":
            rounds.append(_parse_round(value, where))
        elif kind == "reveal":
            f = _Fields(value, where, "", ("type", "seed"))
            if record.source != "seeded":
                raise f.error("seed", f"cannot be revealed: the dice source is {record.source}")
            try:
                seed = seed_bytes(bytes.fromhex(f.text("seed")))
            except (ValueError, CompanionError):
                raise f.error("seed", "must be the seed as non-empty hex") from None
        else:
            raise RecordError(f"{where}: field 'type' must be 'round' or 'reveal', got {kind!r}")
    if record is None:
        raise RecordError(f"{name}: empty; the first line must be the dice record header")
    return replace(record, rounds=tuple(rounds), revealed_seed=seed)
