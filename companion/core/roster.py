"""Piece rosters as TOML data (maps/variants/*.toml), validated strictly.

    [variant]
    name = "chess"
    title = "FIDE chess"

    [pieces.knight]
    code = "N"
    both = ["leap 1,2"]
    value = 320

``[variant]`` keys: name (required), title, notes, water (the water rule, stop/cross/block, of
every piece that does not set its own; default block). Keys of a piece table: code (required), title, move, capture, both, water, royal, value,
promotes_to, abilities, role, cost, faction, immune, passable_by, captured_only_by,
cannot_capture, notes. An unknown key, a wrong type or a bad pattern is a VariantError naming
the file, the piece and the key.

An optional ``[setup]`` table gives the game's start position as a picture
(companion.core.setup reads it against a board)::

    [setup]
    grid = '''
    ky sv kn . . . . k
    ...
    KY SV KN . . . . K
    '''
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..bounds import MAX_DATA_FILE_BYTES, read_text_file
from ..errors import VariantError
from ..i18n import _
from ..toml_locations import parse_toml
from .pieces import WATER_RULES, PieceKind, parse_pattern

_PIECE_KEYS = {
    "code": str, "title": str, "move": list, "capture": list, "both": list, "water": str,
    "royal": bool, "value": int, "promotes_to": list, "abilities": list, "role": str,
    "cost": int, "faction": str, "immune": list, "notes": str,
    "passable_by": str, "captured_only_by": list, "cannot_capture": list, "shown_as": str,
}
_TOP_KEYS = {"variant", "pieces", "setup"}
_SETUP_KEYS = {"grid": str, "notes": str}
_VARIANT_KEYS = {"name": str, "title": str, "notes": str, "water": str}

DATA_DIR = Path(__file__).resolve().parent.parent.parent / "maps" / "variants"


@dataclass(frozen=True)
class Roster:
    name: str
    title: str
    kinds: tuple[PieceKind, ...]
    source: str
    setup: str = ""  # the [setup] grid, as written (companion.core.setup reads it)
    setup_line: int = 0  # the file line where the grid text starts (0: unknown)

    def by_code(self, code: str) -> PieceKind:
        for k in self.kinds:
            if k.code == code:
                return k
        raise VariantError(_("{source}: no piece with code {code!r}").format(source=self.source, code=code))


def load_roster(path: str | Path) -> Roster:
    path = Path(path)
    if not path.suffix:
        path = DATA_DIR / f"{path}.toml"
    where = str(path)
    try:
        text = read_text_file(path, MAX_DATA_FILE_BYTES, _("a roster"), VariantError)
    except FileNotFoundError:
        raise VariantError(_("{where}: no such roster file").format(where=where)) from None
    except (OSError, UnicodeDecodeError) as e:
        raise VariantError(_("{where}: cannot read the roster ({reason})").format(
                               where=where, reason=getattr(e, 'strerror', None) or e)) from None
    return roster_from_dict(parse_toml(text, where, VariantError), where, _grid_line(text))


def _grid_line(text: str) -> int:
    """The line of ``grid =`` inside ``[setup]`` (for messages that name a row), or 0."""
    inside = False
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if stripped.startswith("["):
            inside = stripped.split("#")[0].strip() == "[setup]"
        elif inside and stripped.startswith("grid"):
            return number
    return 0


def roster_from_dict(data: dict, where: str, setup_line: int = 0) -> Roster:
    for key in data:
        if key not in _TOP_KEYS:
            raise VariantError(_("{where}: unknown table [{key}]; expected [variant], [pieces.<name>] and "
                                 "optionally [setup]").format(where=where, key=key))
    variant = data.get("variant")
    if not isinstance(variant, dict):
        raise VariantError(_("{where}: missing [variant] table with name = \"...\"").format(where=where))
    _check_keys(variant, _VARIANT_KEYS, f"{where}: [variant]")
    if "name" not in variant:
        raise VariantError(_("{where}: [variant] needs name = \"...\"").format(where=where))
    water = variant.get("water", "block")  # the water rule of every piece that sets none
    if water not in WATER_RULES:
        raise VariantError(_("{where}: [variant] water must be one of {water_rules}, got {water!r}").format(
                               where=where, water_rules=', '.join(WATER_RULES), water=water))
    pieces = data.get("pieces")
    if not isinstance(pieces, dict) or not pieces:
        raise VariantError(_("{where}: no [pieces.<name>] tables").format(where=where))
    kinds = []
    for pname, table in pieces.items():
        at = f"{where}: [pieces.{pname}]"
        if not isinstance(table, dict):
            raise VariantError(_("{at} must be a table").format(at=at))
        _check_keys(table, _PIECE_KEYS, at)
        if "code" not in table:
            raise VariantError(_("{at}: missing code = \"X\" (the piece's letter)").format(at=at))
        pats = {}
        for mode in ("move", "capture", "both"):
            items = table.get(mode, [])
            pats[mode] = tuple(parse_pattern(t, f"{at} {mode}") for t in items)
        try:
            kinds.append(PieceKind(
                name=pname,
                code=table["code"],
                move=pats["move"], capture=pats["capture"], both=pats["both"],
                water=table.get("water", water),
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
                passable_by=table.get("passable_by", ""),
                captured_only_by=tuple(table["captured_only_by"]) if "captured_only_by" in table else None,
                cannot_capture=tuple(table.get("cannot_capture", ())),
                shown_as=table.get("shown_as", ""),
            ))
        except VariantError as e:
            raise VariantError(f"{where}: {e}") from None
    codes = {k.code for k in kinds}
    for k in kinds:
        if k.shown_as and (k.shown_as not in codes or k.shown_as == k.code):
            raise VariantError(_("{where}: [pieces.{name}] shown_as = {shown_as!r} must be the code of another "
                                 "piece here").format(where=where, name=k.name, shown_as=k.shown_as))
        for c in k.promotes_to:
            if c not in codes:
                raise VariantError(_("{where}: [pieces.{name}] promotes_to names {c!r}, which is not a piece code "
                                     "here").format(where=where, name=k.name, c=c))
    roles = {k.role for k in kinds if k.role}
    for k in kinds:
        for key, words in (("captured_only_by", k.captured_only_by or ()), ("cannot_capture", k.cannot_capture)):
            for role in words:
                if role not in roles:
                    raise VariantError(_("{where}: [pieces.{name}] {key} names the role {role!r}, which no piece "
                                         "here has (roles: {roles})").format(
                                           where=where, name=k.name, key=key, role=role,
                                           roles=', '.join(sorted(roles)) or 'none'))
    setup = data.get("setup", {})
    if not isinstance(setup, dict):
        raise VariantError(_("{where}: [setup] must be a table with grid = \"\"\"...\"\"\"").format(where=where))
    _check_keys(setup, _SETUP_KEYS, f"{where}: [setup]")
    if setup and "grid" not in setup:
        raise VariantError(_("{where}: [setup] needs grid = \"\"\"...\"\"\" (the start position, top row first)").format(
                               where=where))
    return Roster(variant["name"], variant.get("title", variant["name"]), tuple(kinds), where,
                  setup.get("grid", ""), setup_line)


def _check_keys(table: dict, allowed: dict, at: str) -> None:
    for key, value in table.items():
        if key not in allowed:
            raise VariantError(_("{at}: unknown key {key!r}; allowed: {allowed}").format(
                                   at=at, key=key, allowed=', '.join(sorted(allowed))))
        want = allowed[key]
        if not isinstance(value, want) or (want is int and isinstance(value, bool)):
            raise VariantError(_("{at}: {key} must be {type}, got {got}").format(
                                   at=at, key=key, type=want.__name__, got=type(value).__name__))
        if want is list and not all(isinstance(v, str) for v in value):
            raise VariantError(_("{at}: {key} must be a list of strings").format(at=at, key=key))
