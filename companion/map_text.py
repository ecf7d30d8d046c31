"""A board map written back: as TOML text that ``parse_map`` reads back to an equal map
(:func:`format_map`, the round trip tests/test_maps_roundtrip.py checks), and drawn as a
picture for ``companion check-map`` (:func:`draw_map`)."""

from __future__ import annotations

from .core.geometry import FILES, FLOOR, TERRAIN_NAMES, VOID, WATER
from .maps import DEFAULT_LEGEND, BoardMap, Symbol


def _toml_string(text: str) -> str:
    """A TOML basic string (escapes quotes, backslashes and every control character)."""
    out = []
    for char in text:
        if char in '"\\':
            out.append("\\" + char)
        elif char == "\n":
            out.append("\\n")
        elif char == "\t":
            out.append("\\t")
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            out.append(f"\\u{ord(char):04x}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def _grid_symbols(board_map: BoardMap) -> tuple[list[str], dict[str, Symbol]]:
    """One character per square (index order) and the legend entries the default lacks."""
    geometry = board_map.geometry
    owner = {sq: seat.player for seat in board_map.seats for sq in seat.spawn}
    by_meaning = {meaning: char for char, meaning in DEFAULT_LEGEND.items()}
    extra: dict[str, Symbol] = {}
    spare = iter("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    chars = []
    for sq in range(geometry.size):
        meaning = Symbol(geometry.terrain[sq], owner.get(sq))
        if meaning not in by_meaning:
            char = next(spare)
            by_meaning[meaning] = char
            extra[char] = meaning
        chars.append(by_meaning[meaning])
    return chars, extra


def format_map(board_map: BoardMap) -> str:
    """TOML text that ``parse_map`` reads back to an equal ``BoardMap``.

    Spawn zones and terrain go into the grid (default legend, plus a legend entry for any
    spawn square on water); the file's own tags are written as square-name lists."""
    geometry = board_map.geometry
    chars, extra = _grid_symbols(board_map)
    width = geometry.width
    rows = ["".join(chars[rank * width:(rank + 1) * width]) for rank in reversed(range(geometry.height))]
    out = [
        "[map]",
        f"name = {_toml_string(board_map.name)}",
        f"title = {_toml_string(board_map.title)}",
        f"description = {_toml_string(board_map.description)}",
        *([f"game = {_toml_string(board_map.game)}"] if board_map.game else []),
        f"width = {geometry.width}",
        f"height = {geometry.height}",
        f"players = {board_map.players}",
        "grid = '''",
        *rows,
        "'''",
    ]
    if extra:
        out += ["", "[legend]"]
        for char, meaning in extra.items():
            out.append(f'{_toml_string(char)} = {{ terrain = "{TERRAIN_NAMES[meaning.terrain]}", '
                       f"spawn = {meaning.spawn} }}")
    for seat in board_map.seats:
        out += ["", f"[players.{seat.player}]", f'home = "{seat.home}"', f'colour = "{seat.colour}"']
    if board_map.seatings:
        out += ["", "[seatings]"]
        out += [f"{n} = [{', '.join(str(s) for s in seats)}]" for n, seats in board_map.seatings]
    tags = board_map.user_tags()
    if tags:
        out += ["", "[tags]"]
        for name, squares in tags.items():
            names = [f'"{geometry.name_of(sq)}"' for sq in sorted(squares)]
            if len(names) <= 12:
                out.append(f"{name} = [{', '.join(names)}]")
            else:
                out.append(f"{name} = [")
                out += ["    " + ", ".join(names[i:i + 12]) + "," for i in range(0, len(names), 12)]
                out.append("]")
    return "\n".join(out) + "\n"


def draw_map(board_map: BoardMap) -> str:
    """A text picture for ``companion check-map``: ranks down the left, files along the bottom,
    the grid's own symbols (spawn squares as their player's digit), a legend and a summary."""
    geometry = board_map.geometry
    owner = {sq: seat.player for seat in board_map.seats for sq in seat.spawn}
    terrain_char = {FLOOR: ".", WATER: "~", VOID: "#"}
    label = len(str(geometry.height))
    lines = [f"{board_map.title} ({board_map.name})"]
    for rank in reversed(range(geometry.height)):
        cells = []
        for file in range(geometry.width):
            sq = geometry.square(file, rank)
            cells.append(str(owner[sq]) if sq in owner else terrain_char[geometry.terrain[sq]])
        lines.append(f"{rank + 1:>{label}}  " + " ".join(cells))
    lines.append(" " * (label + 2) + " ".join(FILES[:geometry.width]))
    lines.append(f"legend: . floor  ~ water  # void  1-{board_map.players} spawn zone of that player")
    counts = [sum(1 for t in geometry.terrain if t == kind) for kind in (FLOOR, WATER, VOID)]
    spawn_parts = []
    for seat in board_map.seats:
        wet = sum(1 for sq in seat.spawn if geometry.is_water(sq))
        wet_note = f", {wet} on water" if wet else ""
        spawn_parts.append(f"player {seat.player} ({seat.colour}, {seat.home}): {len(seat.spawn)} spawn squares{wet_note}")
    tags = board_map.user_tags()
    tag_note = f"; tags: {', '.join(f'{k} ({len(v)})' for k, v in tags.items())}" if tags else ""
    seating_note = "".join(f"; {n} players: seats {', '.join(str(s) for s in seats)}"
                           for n, seats in board_map.seatings)
    lines.append(
        f"summary: {geometry.width} files x {geometry.height} ranks, {board_map.players} players, "
        f"{counts[0]} floor, {counts[1]} water, {counts[2]} void; " + "; ".join(spawn_parts) + tag_note
        + seating_note
    )
    return "\n".join(lines) + "\n"
