"""Piece rosters as TOML data (maps/variants/*.toml), validated strictly.

    [variant]
    name = "chess"
    title = "FIDE chess"

    [pieces.knight]
    code = "N"
    both = ["leap 1,2"]
    value = 320

Keys of a piece table: code (required), title, move, capture, both, water, royal, value,
promotes_to, abilities, role, cost, faction, immune, notes. An unknown key, a wrong type or a bad pattern is a
VariantError naming the file, the piece and the key.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..errors import VariantError
from ..toml_locations import parse_toml
from .pieces import PieceKind, parse_pattern

_PIECE_KEYS = {
    "code": str, "title": str, "move": list, "capture": list, "both": list, "water": str,
    "royal": bool, "value": int, "promotes_to": list, "abilities": list, "role": str,
    "cost": int, "faction": str, "immune": list, "notes": str,
}
_TOP_KEYS = {"variant", "pieces"}
_VARIANT_KEYS = {"name": str, "title": str, "notes": str}

DATA_DIR = Path(__file__).resolve().parent.parent.parent / "maps" / "variants"


@dataclass(frozen=True)
class Roster:
    name: str
    title: str
    kinds: tuple[PieceKind, ...]
    source: str

    def by_code(self, code: str) -> PieceKind:
        for k in self.kinds:
            if k.code == code:
                return k
        raise VariantError(f"{self.source}: no piece with code {code!r}")


def load_roster(path: str | Path) -> Roster:
    path = Path(path)
    if not path.suffix:
        path = DATA_DIR / f"{path}.toml"
    where = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise VariantError(f"{where}: no such roster file") from None
    except (OSError, UnicodeDecodeError) as e:
        raise VariantError(f"{where}: cannot read the roster ({getattr(e, 'strerror', None) or e})") from None
    return roster_from_dict(parse_toml(text, where, VariantError), where)


def roster_from_dict(data: dict, where: str) -> Roster:
    for key in data:
        if key not in _TOP_KEYS:
            raise VariantError(f"{where}: unknown table [{key}]; expected [variant] and [pieces.<name>]")
    variant = data.get("variant")
    if not isinstance(variant, dict):
        raise VariantError(f"{where}: missing [variant] table with name = \"...\"")
    _check_keys(variant, _VARIANT_KEYS, f"{where}: [variant]")
    if "name" not in variant:
        raise VariantError(f"{where}: [variant] needs name = \"...\"")
    pieces = data.get("pieces")
    if not isinstance(pieces, dict) or not pieces:
        raise VariantError(f"{where}: no [pieces.<name>] tables")
    kinds = []
    for pname, table in pieces.items():
        at = f"{where}: [pieces.{pname}]"
        if not isinstance(table, dict):
            raise VariantError(f"{at} must be a table")
        _check_keys(table, _PIECE_KEYS, at)
        if "code" not in table:
            raise VariantError(f"{at}: missing code = \"X\" (the piece's letter)")
        pats = {}
        for mode in ("move", "capture", "both"):
            items = table.get(mode, [])
            pats[mode] = tuple(parse_pattern(t, f"{at} {mode}") for t in items)
        try:
            kinds.append(PieceKind(
                name=pname,
                code=table["code"],
                move=pats["move"], capture=pats["capture"], both=pats["both"],
                water=table.get("water", "block"),
                royal=table.get("royal", False),
                value=table.get("value", 0),
                promotes_to=tuple(table.get("promotes_to", ())),
                abilities=tuple(table.get("abilities", ())),
                role=table.get("role", ""),
                title=table.get("title", pname.replace("_", " ").title()),
                cost=table.get("cost", 0),
                faction=table.get("faction", ""),
                immune=tuple(table.get("immune", ())),
                info=(("notes", table.get("notes", "")),),
            ))
        except VariantError as e:
            raise VariantError(f"{where}: {e}") from None
    codes = {k.code for k in kinds}
    for k in kinds:
        for c in k.promotes_to:
            if c not in codes:
                raise VariantError(f"{where}: [pieces.{k.name}] promotes_to names {c!r}, which is not a piece code here")
    return Roster(variant["name"], variant.get("title", variant["name"]), tuple(kinds), where)


def _check_keys(table: dict, allowed: dict, at: str) -> None:
    for key, value in table.items():
        if key not in allowed:
            raise VariantError(f"{at}: unknown key {key!r}; allowed: {', '.join(sorted(allowed))}")
        want = allowed[key]
        if not isinstance(value, want) or (want is int and isinstance(value, bool)):
            raise VariantError(f"{at}: {key} must be {want.__name__}, got {type(value).__name__}")
        if want is list and not all(isinstance(v, str) for v in value):
            raise VariantError(f"{at}: {key} must be a list of strings")
