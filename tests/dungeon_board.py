"""Test support for Dungeon Chess: small maps drawn as text, positions from square names."""

from functools import lru_cache

from companion.games.dungeon import DRAW_RULES, DungeonRules, make
from companion.maps import parse_map

# An open 10x10 board with a 2x2 pool at d5-e6 and a void square at h9: room for every unit.
OPEN = """
[map]
name = "test-open"
width = 10
height = 10
players = 2
grid = '''
2222222222
.......#..
..........
..........
...~~.....
...~~.....
..........
..........
..........
1111111111
'''
[players.1]
home = "south"
colour = "blue"
[players.2]
home = "north"
colour = "red"
"""

# The same, for four players (a 10x10 board with a zone on each edge).
OPEN4 = """
[map]
name = "test-open4"
width = 10
height = 10
players = 4
grid = '''
.33333333.
4........2
4........2
4..~~....2
4..~~....2
4........2
4........2
4........2
4........2
.11111111.
'''
[players.1]
home = "south"
colour = "blue"
[players.2]
home = "east"
colour = "red"
[players.3]
home = "north"
colour = "green"
[players.4]
home = "west"
colour = "yellow"
"""


@lru_cache(maxsize=None)
def rules(name: str = "open", **options) -> DungeonRules:
    if name in ("open", "open4") and options.pop("draw_rules", False):
        options = {**DRAW_RULES, **options}
    if name == "open":
        return DungeonRules(parse_map(OPEN), **options)
    if name == "open4":
        return DungeonRules(parse_map(OPEN4), **options)
    return make(name, **options)


def rules_for(field: str) -> DungeonRules:
    """Rules for a map field of the test data: a map name, or ``name:N`` for that map as N
    players use it (``dungeon-four-player:3``)."""
    name, _, players = field.partition(":")
    return rules(name, **({"players": int(players)} if players else {}))


def position(r: DungeonRules, pieces: dict, turn: int = 0, **variables):
    """``pieces``: {"e4": (player, "wizard")} or {"e4": (player, "troll", {"wounded": 1})}."""
    pos = r.new_position()
    g = r.geometry
    for name, spec in pieces.items():
        player, unit = spec[0], spec[1]
        state = spec[2] if len(spec) > 2 else None
        pos.put(g.parse_square(name), pos.new_piece(r.roster_kind(unit).code, player, state))
    pos.set_turn(turn)
    for k, v in variables.items():
        pos.set_var(k, v)
    return pos


def sq(r: DungeonRules, name: str) -> int:
    return r.geometry.parse_square(name)


def names(r: DungeonRules, squares) -> list[str]:
    return sorted(r.geometry.name_of(s) for s in squares)


def targets(r: DungeonRules, pos, square: str, captures: bool | None = None) -> list[str]:
    """Destinations of the legal moves of the piece on ``square`` (hexes excluded)."""
    ms = [m for m in r.moves_from(pos, sq(r, square)) if m.special != "hex"]
    if captures is not None:
        ms = [m for m in ms if (m.capture is not None) == captures]
    return names(r, {m.to for m in ms})


def move(r: DungeonRules, pos, text: str):
    """Play a move given as text (``e2e4``, ``d4e8hex``, ``pass``), checked for legality."""
    m = r.parse_move(pos, text)
    r.play(pos, m)
    return m
