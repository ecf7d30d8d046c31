"""Which die each piece rolls in a dice fight, and how fighters are named (any game).

The dice per piece are data: ``maps/variants/fights.toml`` has one table per piece roster
listing the codes that roll a d6, a d8 and a d10 (Human Combat Chess's "Fighter Strength"
carried over to every game, docs/rules/combat.md). The file is read once and checked strictly:
an unknown key, a code the roster does not have, a code given twice or a piece left without a
die is a VariantError naming the file, the table and the fix.

A fighter is named on screen and in the dice record as its side's colour and its kind
("white pawn", "red knight"); :func:`piece_label` adds the square ("white knight on f3").
The colours are the board map's seat colours, or white and black for a game on the standard
board: the dice record of Human Combat Chess keeps the words it always had.
"""

from __future__ import annotations

from functools import lru_cache

from ..core.roster import DATA_DIR
from ..dice.odds import DiceSpec, d6_only_dice
from ..errors import VariantError
from ..i18n import _
from ..toml_locations import parse_toml

FIGHT_DICE_FILE = DATA_DIR / "fights.toml"
#: "If the Combat Roll ties 3 times, the fight is ended": the third tie bounces
MAX_TIES = 3
#: the dice a fighter may roll (the seed's three): key in the file -> sides
DIE_KEYS = {"d6": 6, "d8": 8, "d10": 10}


@lru_cache(maxsize=None)
def _tables() -> dict[str, dict[str, int]]:
    where = str(FIGHT_DICE_FILE)
    try:
        text = FIGHT_DICE_FILE.read_text(encoding="utf-8")
    except OSError as e:
        raise VariantError(_("{where}: cannot read the fight dice ({strerror})").format(
                               where=where, strerror=e.strerror or e)) from None
    data = parse_toml(text, where, VariantError)
    out: dict[str, dict[str, int]] = {}
    for roster, table in data.items():
        if not isinstance(table, dict):
            raise VariantError(_("{where}: [{roster}] must be a table of d6 = [...], d8 = [...], d10 = [...]").format(
                                   where=where, roster=roster))
        dice: dict[str, int] = {}
        for key, codes in table.items():
            if key not in DIE_KEYS:
                raise VariantError(_("{where}: [{roster}] unknown key {key!r}; allowed: {die_keys}").format(
                                       where=where, roster=roster, key=key, die_keys=', '.join(DIE_KEYS)))
            if not isinstance(codes, list) or not all(isinstance(c, str) for c in codes):
                raise VariantError(_("{where}: [{roster}] {key} must be a list of piece codes").format(
                                       where=where, roster=roster, key=key))
            for code in codes:
                if code in dice:
                    raise VariantError(_("{where}: [{roster}] piece {code!r} is given two dice; give it one").format(
                                           where=where, roster=roster, code=code))
                dice[code] = DIE_KEYS[key]
        out[roster] = dice
    return out


def roster_dice(roster: str, codes) -> dict[str, int]:
    """Code -> sides of the die for every piece code of ``roster`` (VariantError if the file
    has no table for it, misses a code or names one the roster does not have)."""
    where = str(FIGHT_DICE_FILE)
    table = _tables().get(roster)
    if table is None:
        raise VariantError(_("{roster}: no fight dice for its pieces; add a [{roster}] table to {where} (d6 = "
                             "[...], d8 = [...], d10 = [...])").format(roster=roster, where=where))
    codes = list(codes)
    missing = [c for c in codes if c not in table]
    if missing:
        raise VariantError(_("{where}: [{roster}] gives no die to {missing}; list each piece under d6, d8 or "
                             "d10").format(
                               where=where, roster=roster, missing=', '.join(missing)))
    unknown = sorted(set(table) - set(codes))
    if unknown:
        raise VariantError(_("{where}: [{roster}] names {unknown}, which the roster has no piece for").format(
                               where=where, roster=roster, unknown=', '.join(unknown)))
    return {c: table[c] for c in codes}


def die_spec(sides: int, d6_only: bool) -> DiceSpec:
    """The dice of a fighter whose die has ``sides`` faces, normally or with only d6's."""
    return d6_only_dice(sides) if d6_only else DiceSpec(sides)


def seat_colour(rules, player: int) -> str:
    """The colour word of ``player``: the board map's seat colour, else white and black."""
    board_map = getattr(rules, "board_map", None)
    seats = getattr(board_map, "seats", None)
    if seats and player < len(seats):
        return seats[player].colour
    if player in (0, 1):
        return ("white", "black")[player]
    return f"player {player + 1}"


def fighter_name(rules, piece) -> str:
    """"white pawn", "red knight": the fighter as the dice record names it."""
    return f"{seat_colour(rules, piece.owner)} {piece.kind.name.replace('_', ' ')}"


def piece_label(rules, pos, sq: int) -> str:
    """"white knight on f3": how a fighter is named on screen and in the dice record."""
    return f"{fighter_name(rules, pos.board[sq])} on {rules.geometry.name_of(sq)}"


def roll_pending_round(rules, pos, source):
    """Roll one round of the pending fight from a dice ``source`` (seeded, system or entered).

    Returns ``(round_record, answer)``: the record entry for the dice record (addressed by the
    fight number and round, so a seeded game re-derives roll for roll) and the Answer to give
    the engine. Nothing in the position changes here.
    """
    from ..core.moves import Answer
    from ..dice.record import roll_round
    from ..errors import IllegalMoveError

    d = pos.pending
    if d is None or d.kind != "fight":
        raise IllegalMoveError(_("no fight is waiting for dice"))
    attacker, defenders = rules.fighters(pos, d)
    move = d.get("move")
    entry = roll_round(
        source, d.get("number"), d.get("round"), rules.move_text(pos, move),
        [(piece_label(rules, pos, d.get("attacker")), attacker)],
        [(piece_label(rules, pos, s), f) for s, f in zip(d.get("defenders"), defenders)],
        MAX_TIES,
    )
    answer = Answer("fight", ("roll", tuple(entry.attacker.fighters[0].faces),
                              tuple(tuple(f.faces) for f in entry.defender.fighters)))
    return entry, answer
