"""The dice record of a game: every round of every fight, what was rolled and what it meant.

One JSON object per line (JSON Lines), so the record can be appended to as the game goes
and a damaged line is easy to point at. Version 2 also carries the game itself (its
options, start position and every move, in order with the rounds), so that an arbiter can
replay the game and check that each fight's fighters and modifiers are the game's:

    {"type": "header", "format": "companion.dice-record", "version": 2, "game_id": ...,
     "game": "combat", "source": "seeded", "commitment": "<sha256 hex>", "max_ties": 3,
     "options": {"d6_only": false}, "board_map": null, "start": "<position text>"}
    {"type": "move", "ply": 1, "text": "e2e4"}
    ...
    {"type": "round", "fight": 1, "round": 1, "move": "e4d5",
     "attacker": {"fighters": [{"piece": "white pawn e4", "dice": "d6", "faces": [5],
                                "fatigue": 0, "weapon_choice": true}], "total": 6},
     "defender": {...}, "result": "attacker"}
    {"type": "reveal", "seed": "<seed hex>"}

Version 1 (still read and written, for a record without its game) has no ``options``,
``board_map`` and ``start`` and no move lines. The rounds are the answers to the game's
fights, so moves and rounds together are the whole game in order.

``parse_record(format_record(r)) == r``. Loading is strict (unknown or missing fields, wrong
types, impossible faces are RecordError naming the line and the field).
companion.dice.verify then checks what a well-formed record claims: totals and results recomputed from the faces,
fights and rounds in order with unchanged modifiers, and for a seeded game the commitment
and every face re-derived from the revealed seed; companion.games.combat_verify replays the
game of a version 2 record and checks every fight against it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from typing import Any, Mapping, Sequence

from companion.bounds import load_json
from companion.dice.odds import (
    DEFAULT_MAX_TIES,
    OUTCOMES,
    DiceSpec,
    Fighter,
    round_outcome,
)
from companion.dice.linked import LinkProof
from companion.dice.sources import DiceSource, seed_bytes
from companion.errors import CompanionError, DiceError, RecordError
from companion.i18n import _, ngettext

FORMAT_NAME = "companion.dice-record"
#: the version written for a record that carries its game; one without it is written as 1
FORMAT_VERSION = 2
VERSIONS = (1, 2)
SOURCES = ("seeded", "system", "entered", "linked")
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
            raise DiceError(_("a fighter's piece description must be text, got {piece!r}").format(piece=self.piece))
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
            raise DiceError(_("a side's total must be a whole number, got {total!r}").format(total=self.total))


@dataclass(frozen=True)
class RoundRecord:
    """One round of one fight. ``result`` is one of OUTCOMES ("bounce" = the last tie).
    ``link``: for linked dice, the chain index and both boards' secrets the faces come from."""

    fight: int
    round: int
    move: str
    attacker: SideRoll
    defender: SideRoll
    result: str
    link: LinkProof | None = None

    def __post_init__(self) -> None:
        for name in ("fight", "round"):
            value = getattr(self, name)
            if not _is_int(value) or value < 1:
                raise DiceError(_("{name} number must be a whole number from 1, got {value!r}").format(name=name, value=value))
        if not isinstance(self.move, str):
            raise DiceError(_("the move must be text, got {move!r}").format(move=self.move))
        if self.result not in OUTCOMES:
            raise DiceError(_("result must be one of {items}, got {result!r}").format(items=', '.join(OUTCOMES), result=self.result))

    def side(self, name: str) -> SideRoll:
        return self.attacker if name == "attacker" else self.defender


Option = tuple[str, bool | int | str]


@dataclass(frozen=True)
class MoveRecord:
    """One move of the game, as the rules write it (``rules.move_text``).

    ``rounds_before`` is how many rounds the record holds before this move: it places the
    move among the rounds (a fight's rounds follow the move that started it).
    """

    ply: int
    text: str
    rounds_before: int

    def __post_init__(self) -> None:
        for name in ("ply", "rounds_before"):
            value = getattr(self, name)
            if not _is_int(value) or value < (1 if name == "ply" else 0):
                raise DiceError(_("a move's {name} must be a whole number, got {value!r}").format(name=name, value=value))
        if not isinstance(self.text, str):
            raise DiceError(_("a move must be text, got {text!r}").format(text=self.text))


@dataclass(frozen=True)
class GameRecord:
    """The game a version 2 record belongs to: how to set it up and every move, in order.

    ``options`` are the rules' options as (name, value) pairs, sorted (``d6_only`` for
    Human Combat Chess); ``board_map`` is None for the game's usual board; ``start`` is the
    start position as ``rules.position_text`` writes it.
    """

    start: str
    options: tuple[Option, ...] = ()
    board_map: str | None = None
    moves: tuple[MoveRecord, ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.start, str) or not self.start.strip():
            raise DiceError(_("the start position must be its text, got {start!r}").format(start=self.start))
        if self.board_map is not None and not isinstance(self.board_map, str):
            raise DiceError(_("the board map must be a name or None, got {board_map!r}").format(board_map=self.board_map))
        options = dict(self.options)
        for name, value in options.items():
            if not isinstance(name, str) or not isinstance(value, (bool, int, str)):
                raise DiceError(_("an option is a name and true/false, a number or text, got {name!r}: {value!r}").format(name=name, value=value))
        object.__setattr__(self, "options", tuple(sorted(options.items())))
        object.__setattr__(self, "moves", tuple(self.moves))
        if not all(isinstance(m, MoveRecord) for m in self.moves):
            raise DiceError("a game's moves must be MoveRecord values")
        if any(b.rounds_before < a.rounds_before for a, b in zip(self.moves, self.moves[1:])):
            raise DiceError(_("a game's moves must be in the order they were played"))

    @property
    def option_values(self) -> dict[str, bool | int | str]:
        """The options as keyword arguments for ``make_rules``."""
        return dict(self.options)


@dataclass(frozen=True)
class DiceRecord:
    """A game's dice: the header facts, the rounds in order, the seed once revealed, and (from
    version 2) the game they belong to."""

    game_id: str
    game: str
    source: str
    commitment: str | None = None
    max_ties: int = DEFAULT_MAX_TIES
    rounds: tuple[RoundRecord, ...] = field(default=())
    revealed_seed: bytes | None = None
    game_record: GameRecord | None = None
    #: linked dice: the heads of both boards' hash chains (companion.dice.linked)
    chains: tuple[str, ...] = ()

    @property
    def version(self) -> int:
        """2 when the record carries its game, else 1 (what ``format_record`` writes)."""
        return 1 if self.game_record is None else 2

    def __post_init__(self) -> None:
        object.__setattr__(self, "rounds", tuple(self.rounds))
        for name in ("game_id", "game"):
            if not isinstance(getattr(self, name), str):
                raise DiceError(_("{name} must be text, got {value!r}").format(name=name, value=getattr(self, name)))
        if self.source not in SOURCES:
            raise DiceError(_("dice source must be one of {items}, got {source!r}").format(items=', '.join(SOURCES), source=self.source))
        if self.source == "seeded" and not _is_hex64(self.commitment):
            raise DiceError(
                _("a seeded record needs the commitment: 64 lowercase hex digits (SHA-256 of the seed), got {commitment!r}").format(commitment=self.commitment)
            )
        if self.source != "seeded" and self.commitment is not None:
            raise DiceError(_("only a seeded record has a commitment, not a {source} one").format(source=self.source))
        object.__setattr__(self, "chains", tuple(self.chains))
        if self.source == "linked" and (len(self.chains) != 2 or not all(_is_hex64(c) for c in self.chains)):
            raise DiceError(_("a linked record needs both boards' chain heads: 64 lowercase hex digits each"))
        if self.source != "linked" and self.chains:
            raise DiceError(_("only a linked record has chains, not a {source} one").format(source=self.source))
        if any((r.link is None) != (self.source != "linked") for r in self.rounds):
            raise DiceError(_('every round of a linked record, and only of a linked one, carries its secrets'))
        if self.revealed_seed is not None:
            if self.source != "seeded":
                raise DiceError(_("only a seeded record reveals a seed, not a {source} one").format(source=self.source))
            object.__setattr__(self, "revealed_seed", seed_bytes(self.revealed_seed))
        if not _is_int(self.max_ties) or self.max_ties < 1:
            raise DiceError(_("max_ties must be a whole number of at least 1, got {max_ties!r}").format(max_ties=self.max_ties))
        if not all(isinstance(r, RoundRecord) for r in self.rounds):
            raise DiceError("a record's rounds must be RoundRecord values")
        if self.game_record is not None:
            if not isinstance(self.game_record, GameRecord):
                raise DiceError("a record's game must be a GameRecord")
            moves = self.game_record.moves
            if moves and moves[-1].rounds_before > len(self.rounds):
                raise DiceError(ngettext("move {ply} follows round {rounds_before}, but the record has {n} round",
                                         "move {ply} follows round {rounds_before}, but the record has {n} rounds", len(self.rounds)).format(ply=moves[-1].ply, rounds_before=moves[-1].rounds_before, n=len(self.rounds)))

    def in_order(self) -> list[MoveRecord | RoundRecord]:
        """The game's moves and the rounds, in the order they happened (rounds only for a
        version 1 record)."""
        later = list(self.game_record.moves) if self.game_record is not None else []
        out: list[MoveRecord | RoundRecord] = []
        for index, entry in enumerate(self.rounds):
            while later and later[0].rounds_before <= index:
                out.append(later.pop(0))
            out.append(entry)
        return out + later

    def with_round(self, entry: RoundRecord) -> DiceRecord:
        if self.revealed_seed is not None:
            raise DiceError(_('the seed is already revealed: the record is closed'))
        return replace(self, rounds=self.rounds + (entry,))

    def with_move(self, text: str) -> DiceRecord:
        """The next move of the game (version 2 records only), after the rounds so far."""
        if self.game_record is None:
            raise DiceError(_('this record does not carry its game (version 1): start it with start=...'))
        if self.revealed_seed is not None:
            raise DiceError(_('the seed is already revealed: the record is closed'))
        moves = self.game_record.moves
        move = MoveRecord(len(moves) + 1, text, len(self.rounds))
        return replace(self, game_record=replace(self.game_record, moves=moves + (move,)))

    def taken_back(self, moves: int, fights: int) -> DiceRecord:
        """The record after taking back turns: the first ``moves`` moves and the rounds of
        the first ``fights`` fights stay."""
        rounds = tuple(r for r in self.rounds if r.fight <= fights)
        game = self.game_record
        if game is not None:
            game = replace(game, moves=tuple(m for m in game.moves[:moves] if m.rounds_before <= len(rounds)))
        return replace(self, rounds=rounds, game_record=game)

    def with_reveal(self, seed: bytes | str) -> DiceRecord:
        return replace(self, revealed_seed=seed_bytes(seed))


def start_record(
    game_id: str,
    game: str,
    source: DiceSource,
    max_ties: int = DEFAULT_MAX_TIES,
    *,
    start: str | None = None,
    options: Mapping[str, bool | int | str] | None = None,
    board_map: str | None = None,
) -> DiceRecord:
    """An empty record for a game played with ``source`` (its name and commitment).

    Given the ``start`` position text (and the rules' ``options`` and ``board_map``), the
    record carries the game (version 2): add each move with ``with_move`` as it is played.
    Without it the record holds the dice only (version 1).
    """
    game_record = None
    if start is not None:
        game_record = GameRecord(start, tuple((options or {}).items()), board_map)
    elif options or board_map is not None:
        raise DiceError(_('options and board_map describe the game: give its start position too'))
    return DiceRecord(game_id, game, source.name, source.commitment, max_ties, game_record=game_record,
                      chains=tuple(getattr(source, "chains", ())))


def score_round(
    fight: int,
    round_number: int,
    move: str,
    attacker: Sequence[FighterRoll],
    defender: Sequence[FighterRoll],
    max_ties: int = DEFAULT_MAX_TIES,
    link: LinkProof | None = None,
) -> RoundRecord:
    """Build the record of a round from the faces rolled: totals and result computed here."""
    sides = [SideRoll(tuple(rolls), sum(r.total for r in rolls)) for rolls in (attacker, defender)]
    result = round_outcome(sides[0].total, sides[1].total, round_number, max_ties)
    return RoundRecord(fight, round_number, move, sides[0], sides[1], result, link)


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


def _move_json(move: MoveRecord) -> dict[str, Any]:
    return {"type": "move", "ply": move.ply, "text": move.text}


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
        **({"link": entry.link.to_json()} if entry.link is not None else {}),
    }


def format_record(record: DiceRecord) -> str:
    """The record as JSON Lines (header; moves and rounds in the order they happened; then
    the reveal if any), newline-terminated. Version 2 when the record carries its game."""
    header: dict[str, Any] = {
        "type": "header",
        "format": FORMAT_NAME,
        "version": record.version,
        "game_id": record.game_id,
        "game": record.game,
        "source": record.source,
        "commitment": record.commitment,
        "max_ties": record.max_ties,
    }
    if record.chains:
        header["chains"] = list(record.chains)
    if record.game_record is not None:
        header["options"] = dict(record.game_record.options)
        header["board_map"] = record.game_record.board_map
        header["start"] = record.game_record.start
    lines = [header] + [
        _move_json(item) if isinstance(item, MoveRecord) else _round_json(item) for item in record.in_order()
    ]
    if record.revealed_seed is not None:
        lines.append({"type": "reveal", "seed": record.revealed_seed.hex()})
    return "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)


def _versions() -> str:
    """The record versions this companion reads, as words ("1 and 2")."""
    *first, last = map(str, VERSIONS)
    return _("{first} and {last}").format(first=", ".join(first), last=last) if first else last


class _Fields:
    """Strict reading of one JSON object; every complaint names the line and the field path."""

    def __init__(self, value: Any, where: str, path: str, keys: Sequence[str]) -> None:
        self.where, self.path = where, path
        if not isinstance(value, dict):
            raise self.error(path or _("the line"), _("must be a JSON object"))
        unknown = sorted(set(value) - set(keys))
        if unknown:
            raise RecordError(
                _("{where}: unknown field {field!r} (expected {items})").format(where=where, field=self.name(unknown[0]), items=', '.join((self.name(k) for k in keys)))
            )
        missing = [k for k in keys if k not in value]
        if missing:
            raise RecordError(_("{where}: field {field!r} is missing").format(where=where, field=self.name(missing[0])))
        self.value = value

    def name(self, key: str) -> str:
        return f"{self.path}.{key}" if self.path else key

    def error(self, name: str, problem: str) -> RecordError:
        return RecordError(_("{where}: field {name!r} {problem}").format(where=self.where, name=name, problem=problem))

    def integer(self, key: str, least: int | None = None) -> int:
        value = self.value[key]
        if not _is_int(value) or (least is not None and value < least):
            problem = (_("must be a whole number of at least {least}, got {value!r}") if least is not None
                       else _("must be a whole number, got {value!r}"))
            raise self.error(self.name(key), problem.format(least=least, value=value))
        return value

    def text(self, key: str) -> str:
        value = self.value[key]
        if not isinstance(value, str):
            raise self.error(self.name(key), _("must be text, got {value!r}").format(value=value))
        return value

    def flag(self, key: str) -> bool:
        value = self.value[key]
        if not isinstance(value, bool):
            raise self.error(self.name(key), _("must be true or false, got {value!r}").format(value=value))
        return value

    def items(self, key: str) -> list[Any]:
        value = self.value[key]
        if not isinstance(value, list) or not value:
            raise self.error(self.name(key), _("must be a non-empty list, got {value!r}").format(value=value))
        return value


_FIGHTER_KEYS = ("piece", "dice", "faces", "fatigue", "weapon_choice")
_ROUND_KEYS = ("type", "fight", "round", "move", "attacker", "defender", "result")
_HEADER_KEYS = ("type", "format", "version", "game_id", "game", "source", "commitment", "max_ties")
_GAME_KEYS = ("options", "board_map", "start")  # version 2
_MOVE_KEYS = ("type", "ply", "text")


def _parse_fighter(value: Any, where: str, path: str) -> FighterRoll:
    f = _Fields(value, where, path, _FIGHTER_KEYS)
    try:
        dice = DiceSpec.from_notation(f.text("dice"))
    except DiceError as error:
        raise f.error(f.name("dice"), str(error)) from None
    faces = f.items("faces")
    if not all(_is_int(face) for face in faces):
        raise f.error(f.name("faces"), _("must hold whole numbers, got {faces!r}").format(faces=faces))
    try:
        dice.check_faces(faces)
    except DiceError as error:
        raise f.error(f.name("faces"), _("is impossible: {error}").format(error=error)) from None
    return FighterRoll(f.text("piece"), dice, tuple(faces), f.integer("fatigue", 0), f.flag("weapon_choice"))


def _parse_side(value: Any, where: str, path: str) -> SideRoll:
    f = _Fields(value, where, path, ("fighters", "total"))
    fighters = tuple(
        _parse_fighter(item, where, f"{path}.fighters[{i}]")
        for i, item in enumerate(f.items("fighters"))
    )
    return SideRoll(fighters, f.integer("total"))


def _parse_round(value: dict[str, Any], where: str, linked: bool) -> RoundRecord:
    f = _Fields(value, where, "", _ROUND_KEYS + (("link",) if linked else ()))
    result = f.text("result")
    if result not in OUTCOMES:
        raise f.error("result", _("must be one of {items}, got {result!r}").format(items=', '.join(OUTCOMES), result=result))
    return RoundRecord(
        f.integer("fight", 1),
        f.integer("round", 1),
        f.text("move"),
        _parse_side(value["attacker"], where, "attacker"),
        _parse_side(value["defender"], where, "defender"),
        result,
        LinkProof.from_json(value["link"], _("{where}: field 'link'").format(where=where)) if linked else None,
    )


def _parse_game(f: _Fields) -> GameRecord:
    """The version 2 header fields that describe the game: options, board map, start."""
    options = f.value["options"]
    if not isinstance(options, dict):
        raise f.error("options", _('must be a JSON object of option names and values, e.g. {{"d6_only": false}}, got {options!r}').format(options=options))
    for name, value in options.items():
        if not isinstance(value, (bool, int, str)):
            raise f.error(f"options.{name}", _("must be true or false, a whole number or text, got {value!r}").format(value=value))
    board_map = f.value["board_map"]
    if board_map is not None and not isinstance(board_map, str):
        raise f.error("board_map", _("must be a map name, or null for the game's usual board, got {board_map!r}").format(board_map=board_map))
    start = f.text("start")
    if not start.strip():
        raise f.error("start", _('must be the start position text, got an empty text'))
    return GameRecord(start, tuple(options.items()), board_map)


def _parse_header(value: dict[str, Any], where: str) -> DiceRecord:
    version = value.get("version")
    if _is_int(version) and version not in VERSIONS and value.get("format") == FORMAT_NAME:
        raise RecordError(_("{where}: field 'version' is {version}; this companion reads versions {items}").format(where=where, version=version, items=_versions()))
    linked = value.get("source") == "linked"
    f = _Fields(value, where, "", _HEADER_KEYS + (_GAME_KEYS if version == 2 else ()) + (("chains",) if linked else ()))
    if value["type"] != "header" or value["format"] != FORMAT_NAME:
        raise RecordError(_("{where}: not a dice record header (expected format {format!r})").format(where=where, format=FORMAT_NAME))
    version = f.integer("version")
    if version not in VERSIONS:
        raise f.error("version", _("is {version}; this companion reads versions {items}").format(version=version, items=_versions()))
    source = f.text("source")
    if source not in SOURCES:
        raise f.error("source", _("must be one of {items}, got {source!r}").format(items=', '.join(SOURCES), source=source))
    commitment = value["commitment"]
    if source == "seeded" and not _is_hex64(commitment):
        raise f.error("commitment", _("must be 64 lowercase hex digits, got {commitment!r}").format(commitment=commitment))
    if source != "seeded" and commitment is not None:
        raise f.error("commitment", _("must be null for a {source} record, got {commitment!r}").format(source=source, commitment=commitment))
    game = _parse_game(f) if version == 2 else None
    chains = value.get("chains", [])
    if linked and (not isinstance(chains, list) or len(chains) != 2 or not all(_is_hex64(c) for c in chains)):
        raise f.error("chains", _("must be both boards' chain heads, 64 lowercase hex digits each, got {chains!r}").format(chains=chains))
    return DiceRecord(f.text("game_id"), f.text("game"), source, commitment, f.integer("max_ties", 1),
                      game_record=game, chains=tuple(chains))


def parse_record(text: str, name: str = "dice record") -> DiceRecord:
    """Read a record written by ``format_record``; RecordError names ``name``, line and field."""
    record: DiceRecord | None = None
    rounds: list[RoundRecord] = []
    moves: list[MoveRecord] = []
    seed: bytes | None = None
    for number, line in enumerate(text.split("\n"), start=1):  # not splitlines: U+2028 etc.
        where = _("{name} line {number}").format(name=name, number=number)
        if not line.strip():
            continue
        value = load_json(line, where)
        kind = value.get("type") if isinstance(value, dict) else None
        if record is None:
            if kind != "header":
                raise RecordError(_("{where}: the first line must be the dice record header").format(where=where))
            record = _parse_header(value, where)
        elif seed is not None:
            raise RecordError(_("{where}: nothing may follow the reveal of the seed").format(where=where))
        elif kind == "round":
            rounds.append(_parse_round(value, where, record.source == "linked"))
        elif kind == "move" and record.game_record is not None:
            f = _Fields(value, where, "", _MOVE_KEYS)
            moves.append(MoveRecord(f.integer("ply", 1), f.text("text"), len(rounds)))
        elif kind == "move":
            raise RecordError(_("{where}: a move line belongs in a version 2 record; the header says version 1").format(where=where))
        elif kind == "reveal":
            f = _Fields(value, where, "", ("type", "seed"))
            if record.source != "seeded":
                raise f.error("seed", _("cannot be revealed: the dice source is {source}").format(source=record.source))
            try:
                seed = seed_bytes(bytes.fromhex(f.text("seed")))
            except (ValueError, CompanionError):
                raise f.error("seed", _('must be the seed as non-empty hex')) from None
        else:
            wrong = (_("{where}: field 'type' must be 'move', 'round' or 'reveal', got {kind!r}") if record.game_record is not None
                     else _("{where}: field 'type' must be 'round' or 'reveal', got {kind!r}"))
            raise RecordError(wrong.format(where=where, kind=kind))
    if record is None:
        raise RecordError(_("{name}: empty; the first line must be the dice record header").format(name=name))
    game = record.game_record
    if game is not None:
        game = replace(game, moves=tuple(moves))
    return replace(record, rounds=tuple(rounds), revealed_seed=seed, game_record=game)
