"""Board maps: TOML files under ``maps/`` turned into validated, immutable values.

A map is data a player may write by hand (docs/maps.md), so every mistake must come back as
one ``MapError`` that names the file, the key (and the line), and what was expected; nothing
half-valid gets through to the engine. The grid in a file is drawn like a picture, top row
first; squares are numbered the engine's way, ``index = rank * width + file`` with rank 0 at
the bottom (the first player's side), so the last text row is rank 0.

Public: ``BoardMap``, ``Seat``, ``load_map``, ``parse_map``, ``find_map``,
``available_maps``, ``MAPS_DIR``, ``COLOURS``, ``HOMES``. A map written back as TOML or drawn
as text: companion.map_text; the checks that a map can be played: companion.map_reach.
"""

from __future__ import annotations

import difflib
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from .bounds import MAX_DATA_FILE_BYTES, read_text_file
from .core.geometry import FILES, FLOOR, MAX_SIZE, MIN_SIZE, TERRAIN_NAMES, VOID, WATER, Geometry
from .errors import MapError
from .i18n import _, ngettext
from .map_reach import cut_off_squares, edges_held, too_small_zones
from .toml_locations import TomlLocations, parse_toml

#: The repository's maps/ folder (next to the companion package).
MAPS_DIR = Path(__file__).resolve().parent.parent / "maps"

MIN_PLAYERS = 2
MAX_PLAYERS = 4

#: The side a player sits at, and the step (file, rank) that is "forward" for them.
HOMES: Mapping[str, tuple[int, int]] = {
    "south": (0, 1),
    "north": (0, -1),
    "west": (1, 0),
    "east": (-1, 0),
}

#: Player colour names a map may use, with the RGB hex the screen draws them in.
COLOURS: Mapping[str, str] = {
    "white": "#ffffff",
    "black": "#202020",
    "red": "#e02020",
    "blue": "#2060e0",
    "green": "#20a040",
    "yellow": "#f0d020",
    "orange": "#f08020",
    "purple": "#8030c0",
    "cyan": "#20c0d0",
    "magenta": "#d020a0",
}

SPAWN_TAG = "spawn:{}"
EDGE_TAG = "edge"

_TOP_KEYS = ("map", "legend", "players", "tags", "seatings")
_MAP_KEYS = ("name", "title", "description", "game", "width", "height", "players", "grid")
_MAP_REQUIRED = ("name", "width", "height", "players", "grid")
_SEAT_KEYS = ("home", "colour")
_LEGEND_KEYS = ("terrain", "spawn", "tags")
_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]*$")
_TAG_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_-]*$")
_TAG_IN, _TAG_OUT = "x", "."
_BAD_SYMBOLS = "\"'\\"


@dataclass(frozen=True)
class Symbol:
    """What one grid character means: a terrain, maybe a spawn zone, maybe extra tags."""

    terrain: int
    spawn: int | None = None
    tags: tuple[str, ...] = ()

    def describe(self) -> str:
        words = TERRAIN_NAMES[self.terrain]
        if self.spawn is not None:
            words += _(" in player {spawn}'s spawn zone").format(spawn=self.spawn)
        if self.tags:
            words += _(" tagged {tags}").format(tags=", ".join(self.tags))
        return words


DEFAULT_LEGEND: Mapping[str, Symbol] = {
    ".": Symbol(FLOOR),
    "~": Symbol(WATER),
    "#": Symbol(VOID),
    **{str(p): Symbol(FLOOR, p) for p in range(1, MAX_PLAYERS + 1)},
}


@dataclass(frozen=True)
class Seat:
    """One player's place at the board: number (1-based), home edge, colour, spawn squares."""

    player: int
    home: str
    colour: str
    spawn: frozenset[int]

    @property
    def forward(self) -> tuple[int, int]:
        """The (file, rank) step away from the home edge."""
        return HOMES[self.home]


@dataclass(frozen=True)
class BoardMap:
    """A validated map. ``geometry.tags`` holds ``spawn:N``, ``edge`` and the file's own tags."""

    name: str
    title: str
    description: str
    geometry: Geometry
    seats: tuple[Seat, ...]
    source: Path | None = field(default=None, compare=False)
    game: str = ""  # the game the map is made for ("" : any); check-map then runs that game's checks
    #: smaller games the map offers: (count, the seat numbers used, in turn order) ([seatings])
    seatings: tuple[tuple[int, tuple[int, ...]], ...] = ()

    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def player_counts(self) -> tuple[int, ...]:
        """How many players can play on this map: its seats, and each seating it offers."""
        return tuple(sorted({self.players, *(n for n, _ in self.seatings)}))

    def for_players(self, count: int) -> BoardMap:
        """The map as ``count`` players use it: all its seats, or the seating the file offers
        for that many ([seatings]). The chosen seats are numbered 1.. in their turn order;
        the other seats' spawn zones are plain squares (no ``spawn:N`` tag)."""
        if count == self.players:
            return self
        chosen = dict(self.seatings).get(count)
        if chosen is None:
            offered = " or ".join(str(n) for n in self.player_counts)
            raise MapError(_("map {name!r} is for {offered} players, not {count} (a map offers smaller games in "
                             "its [seatings] table; docs/maps.md)").format(
                               name=self.name, offered=offered, count=count))
        seats = tuple(Seat(i + 1, self.seats[n - 1].home, self.seats[n - 1].colour, self.seats[n - 1].spawn)
                      for i, n in enumerate(chosen))
        g = self.geometry
        tags = {k: v for k, v in g.tags.items() if not k.startswith("spawn:")}
        tags.update({SPAWN_TAG.format(seat.player): seat.spawn for seat in seats})
        geometry = Geometry(g.width, g.height, g.terrain, tags, name=g.name)
        return BoardMap(self.name, self.title, self.description, geometry, seats, self.source, game=self.game)

    def seat(self, player: int) -> Seat:
        if not 1 <= player <= len(self.seats):
            raise MapError(_("player {player} does not exist on map {name!r} (players 1..{n})").format(
                                 player=player, name=self.name, n=len(self.seats)))
        return self.seats[player - 1]

    def spawn_zone(self, player: int) -> frozenset[int]:
        return self.seat(player).spawn

    def user_tags(self) -> dict[str, frozenset[int]]:
        """Tags the file declared itself (not ``spawn:N`` or ``edge``)."""
        return {k: v for k, v in self.geometry.tags.items() if not _is_reserved_tag(k)}


# --------------------------------------------------------------------------- finding files


def available_maps() -> list[str]:
    """Names of the maps shipped in ``maps/``."""
    return sorted(p.stem for p in MAPS_DIR.glob("*.toml"))


def find_map(name: str | os.PathLike[str]) -> Path:
    """A bare name (``"standard"``) means ``maps/<name>.toml``; anything that looks like a path
    (a separator, a ``.toml`` suffix, or a ``Path``) is used as it is."""
    text = os.fspath(name)
    is_path = isinstance(name, os.PathLike) or "/" in text or os.sep in text or text.endswith(".toml")
    if Path(text).is_dir():
        inside = sorted(p.name for p in Path(text).glob("*.toml"))
        hint = f": {', '.join(inside[:8])}{', ...' if len(inside) > 8 else ''}" if inside else _(" (it holds none)")
        raise MapError(_("{text} is a folder, not a map file; give one .toml map file in it{hint}").format(
                           text=text, hint=hint))
    if is_path:
        path = Path(text)
        if not path.is_file():
            raise MapError(_("map file {text} not found; expected a path to a .toml map file").format(text=text))
        return path
    path = MAPS_DIR / f"{text}.toml"
    if not path.is_file():
        known = ", ".join(available_maps()) or "none"
        raise MapError(_("no map named {text!r} in {maps_dir}; known maps: {known} (or give a path to a .toml "
                         "file)").format(
                           text=text, maps_dir=MAPS_DIR, known=known))
    return path


def load_map(path_or_name: str | os.PathLike[str]) -> BoardMap:
    """Find, read and validate a map; every problem is a ``MapError``."""
    path = find_map(path_or_name)
    try:
        text = read_text_file(path, MAX_DATA_FILE_BYTES, _("a map"), MapError)
    except UnicodeDecodeError as exc:
        raise MapError(_("{path}: not UTF-8 text ({reason} at byte {start}); save the map as UTF-8").format(
                           path=path, reason=exc.reason, start=exc.start)) from None
    except OSError as exc:
        raise MapError(_("cannot read map file {path}: "
                         "{strerror}").format(path=path, strerror=exc.strerror or exc)) from None
    return parse_map(text, source=path)


def parse_map(text: str, source: str | os.PathLike[str] = "<map text>") -> BoardMap:
    """Validate map ``text``; ``source`` names it in errors (and, if a path, must match
    ``map.name``: the file ``maps/foo.toml`` holds the map named ``foo``)."""
    return _Reader(text, source).read()


# --------------------------------------------------------------------------- reading


class MapProblems(MapError):
    """Every problem of one map file, found in one pass. As text it is the first problem and
    how many more there are (one line, as every error); ``problems`` holds them all, each
    naming the file, the key and its line (``companion check-map`` prints them one a line)."""

    def __init__(self, problems: list[MapError]) -> None:
        self.problems = tuple(sorted(problems, key=lambda e: getattr(e, "line", None) or 0))
        first = str(problems[0])
        more = len(problems) - 1
        if more:
            first += ngettext(" (and {n} more problem: companion check-map lists them all)",
                              " (and {n} more problems: companion check-map lists them all)", more).format(n=more)
        super().__init__(first)


def _is_reserved_tag(name: str) -> bool:
    return name == EDGE_TAG or name.startswith("spawn:")


def _type_name(value: object) -> str:
    return {bool: _("a boolean"), int: _("an integer"), float: _("a number"), str: _("a string"),
            list: _("a list"), dict: _("a table")}.get(type(value), type(value).__name__)


def _hint(word: str, choices: tuple[str, ...] | list[str]) -> str:
    close = difflib.get_close_matches(word, list(choices), n=1)
    return _(" (did you mean {close!r}?)").format(close=close[0]) if close else ""


class _Reader:
    """One pass over one map text; knows the file and its line numbers for messages."""

    def __init__(self, text: str, source: str | os.PathLike[str]) -> None:
        self.text = text
        self.source = source
        self.where = os.fspath(source)
        self.lines = TomlLocations.scan(text)
        self.problems: list[MapError] = []

    # -- errors

    def fail(self, key: str, problem: str, line: int | None = None) -> MapError:
        if line is None:
            line = self.lines.line_of(*key.split("."))
        at = _("{where}, line {line}").format(where=self.where, line=line) if line else self.where
        error = MapError(f"{at}: {key}: {problem}")
        error.line = line  # type: ignore[attr-defined]  # check-map lists problems in file order
        return error

    def table(self, value: Any, key: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(key, _("expected a table ([{key}]), got {type_name}").format(
                key=key, type_name=_type_name(value)))
        return value

    def known_keys(self, table: dict[str, Any], key: str, allowed: tuple[str, ...], required: tuple[str, ...]) -> bool:
        """Notes every unknown and every missing key; True when there was none."""
        before = len(self.problems)
        for k in table:
            if k not in allowed:
                full = f"{key}.{k}" if key else k
                self.note(self.fail(full, _("unknown key{hint}; expected one of: {allowed}").format(
                                              hint=_hint(k, allowed), allowed=', '.join(allowed))))
        for k in required:
            if k not in table:
                if not key:
                    self.note(self.fail(k, _("missing table [{k}]; every map has [map] and [players] "
                                             "(docs/maps.md)").format(
                                               k=k)))
                else:
                    self.note(self.fail(key, _("missing key {k!r} in [{key}]").format(k=k, key=key)))
        return len(self.problems) == before

    def integer(self, value: Any, key: str, low: int, high: int) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(key, _("expected an integer from {low} to {high}, got {type_name} {value!r}").format(
                                     low=low, high=high, type_name=_type_name(value), value=value))
        if not low <= value <= high:
            raise self.fail(key, _("expected an integer from {low} to {high}, got {value}").format(
                                     low=low, high=high, value=value))
        return value

    def string(self, value: Any, key: str) -> str:
        if not isinstance(value, str):
            raise self.fail(key, _("expected a string, got {type_name} {value!r}").format(
                type_name=_type_name(value), value=value))
        return value

    def choice(self, value: Any, key: str, choices: tuple[str, ...] | list[str]) -> str:
        word = self.string(value, key)
        if word not in choices:
            raise self.fail(key, _("unknown value {word!r}{hint}; expected one of: {choices}").format(
                                     word=word, hint=_hint(word, choices), choices=', '.join(choices)))
        return word

    # -- the whole file

    def read(self) -> BoardMap:
        """The map, or every problem found in one pass (:class:`MapProblems`): each part that
        does not depend on a broken one is still checked, so a copied map with a stale name
        shows its real errors too."""
        data = parse_toml(self.text, self.where, MapError)
        board_map = self._read(data)
        if self.problems:
            raise MapProblems(self.problems)
        assert board_map is not None
        return board_map

    def note(self, error: MapError) -> None:
        """Keep a problem and go on with the parts that do not depend on it."""
        self.problems.append(error)

    def soft(self, check, *args, default=None):
        """``check(*args)``, or ``default`` once its problem is noted."""
        try:
            return check(*args)
        except MapError as e:
            self.note(e)
            return default

    def _read(self, data: dict[str, Any]) -> BoardMap | None:
        if "map" not in data and ("variant" in data or "armies" in data or "draft" in data):
            raise self.not_a_map(data)
        self.known_keys(data, "", _TOP_KEYS, ("map", "players"))
        if "map" not in data:
            return None
        head = self.soft(self.table, data["map"], "map")
        if head is None:
            return None
        self.known_keys(head, "map", _MAP_KEYS, _MAP_REQUIRED)

        name = self.soft(self.map_name, head["name"]) if "name" in head else None
        title = self.soft(self.string, head.get("title", name or ""), "map.title")
        description = self.soft(self.string, head.get("description", ""), "map.description")
        game = self.soft(self.map_game, head.get("game", ""), default="")
        width, height, players = (
            self.soft(self.integer, head[key], f"map.{key}", low, high) if key in head else None
            for key, low, high in (("width", MIN_SIZE, MAX_SIZE), ("height", MIN_SIZE, MAX_SIZE),
                                   ("players", MIN_PLAYERS, MAX_PLAYERS)))

        legend = self.legend(data.get("legend", {}), players or MAX_PLAYERS)
        grid_text = self.soft(self.string, head["grid"], "map.grid") if "grid" in head else None
        grid = None
        if width is not None and height is not None and grid_text is not None:
            known = ", ".join(f"{s!r} {m.describe()}" for s, m in legend.items() if (m.spawn or 0) <= (players or 0))
            grid = self.grid(grid_text, "map.grid", width, height, legend, known)
        if grid is None:  # the seats' own words can still be checked
            if players is not None and "players" in data:
                self.seats(data["players"], players, None, None)
            return None
        symbols, row_lines = grid
        terrain = tuple(legend[s].terrain for s in symbols)
        geometry = Geometry(width, height, terrain, name=name or "")

        spawns: dict[int, set[int]] = {p: set() for p in range(1, MAX_PLAYERS + 1)}
        tags: dict[str, set[int]] = {}
        for square, s in enumerate(symbols):
            meaning = legend[s]
            if meaning.spawn is not None:
                spawns[meaning.spawn].add(square)
            for tag in meaning.tags:
                tags.setdefault(tag, set()).add(square)
        user_tags = self.tags(data.get("tags", {}), geometry)
        if players is None or "players" not in data:
            return None
        for player in range(players + 1, MAX_PLAYERS + 1):
            if spawns[player]:
                square = min(spawns[player])
                self.note(self.fail("map.grid", _("square {square} is in the spawn zone of player {player}, but "
                                                  "map.players = {players}; expected spawn zones for players 1 to "
                                                  "{players} only").format(
                                                    square=geometry.name_of(square), player=player, players=players),
                                    line=row_lines[height - 1 - geometry.rank_of(square)]))

        seats = self.seats(data["players"], players, spawns, geometry)
        if seats is None:
            return None
        for square, text in (*too_small_zones(geometry, seats), *cut_off_squares(geometry, seats)):
            self.note(self.fail("map.grid", text, line=row_lines[height - 1 - geometry.rank_of(square)]))
        for tag, squares in user_tags.items():
            tags.setdefault(tag, set()).update(squares)
        if self.problems:
            return None

        assert name is not None and title is not None and description is not None and game is not None
        all_tags: dict[str, frozenset[int]] = {SPAWN_TAG.format(s.player): s.spawn for s in seats}
        all_tags[EDGE_TAG] = frozenset(
            sq for sq in geometry.playable()
            if geometry.file_of(sq) in (0, width - 1) or geometry.rank_of(sq) in (0, height - 1)
        )
        all_tags.update({k: frozenset(v) for k, v in sorted(tags.items())})
        geometry = Geometry(width, height, terrain, all_tags, name=name)
        path = Path(self.source) if isinstance(self.source, os.PathLike) else None
        seatings = self.seatings(data.get("seatings", {}), players)
        return BoardMap(name, title, description, geometry, seats, source=path, game=game, seatings=seatings)

    def not_a_map(self, data: dict[str, Any]) -> MapError:
        """A file of the game's pieces or armies (maps/variants/) given where a map belongs."""
        head = data.get("variant")
        game = head.get("name") if isinstance(head, dict) and isinstance(head.get("name"), str) else None
        if game is None and isinstance(self.source, os.PathLike):  # dungeon-armies.toml: Dungeon Chess's
            game = Path(self.source).stem.split("-")[0] or None
        what = _("a piece roster ([variant] and [pieces])") if "variant" in data else _("a list of armies ([armies])")
        check = f"companion moves --variant {game}" if game else "companion moves --variant GAME"
        return MapError(_("{where} is {what}, a variant file, not a board map: check-map reads maps (maps/*.toml, "
                          "docs/maps.md). A variant file is checked when its game loads it: {check} reads it and "
                          "names any mistake").format(where=self.where, what=what, check=check))

    def map_game(self, value: Any) -> str:
        game = self.string(value, "map.game")
        if game and not _NAME.match(game):
            raise self.fail("map.game", _("{game!r} is not a game name; expected lower-case letters and digits "
                                          "(e.g. \"kol\")").format(game=game))
        return game

    def map_name(self, value: Any) -> str:
        name = self.string(value, "map.name")
        if not _NAME.match(name):
            raise self.fail("map.name", _("{name!r} is not a map name; expected lower-case letters, digits, '-' or "
                                          "'_'").format(name=name))
        if isinstance(self.source, os.PathLike) and Path(self.source).stem != name:
            stem = Path(self.source).stem
            self.note(self.fail("map.name", _("is {name!r} but the file is {stem}.toml; expected name = \"{stem}\" "
                                              "(a map is found by its file name)").format(name=name, stem=stem)))
        return name

    # -- pieces of the file

    def legend(self, value: Any, players: int) -> dict[str, Symbol]:
        """The grid's alphabet; a broken entry is noted and its symbol read as plain floor (so
        the grid's rows are not reported again for it)."""
        legend = dict(DEFAULT_LEGEND)
        table = self.soft(self.table, value, "legend", default={})
        for char, entry in table.items():
            symbol = self.soft(self.symbol, char, entry, players)
            legend[char] = symbol if symbol is not None else Symbol(FLOOR)
        return legend

    def symbol(self, char: str, entry: Any, players: int) -> Symbol:
        key = f"legend.{char}"
        if len(char) != 1 or char.isspace() or char in _BAD_SYMBOLS or not char.isprintable():
            raise self.fail(key, _("legend symbols must be one visible character other than {bad}, got "
                                   "{char!r}").format(bad=' '.join(_BAD_SYMBOLS), char=char))
        if char in DEFAULT_LEGEND:
            raise self.fail(key, _("{char!r} is built in ({describe}); expected a new character for a new "
                                   "meaning").format(
                                     char=char, describe=DEFAULT_LEGEND[char].describe()))
        entry = self.table(entry, key)
        if not self.known_keys(entry, key, _LEGEND_KEYS, ("terrain",)):
            return Symbol(FLOOR)
        terrain = TERRAIN_NAMES.index(self.choice(entry["terrain"], f"{key}.terrain", TERRAIN_NAMES))
        spawn = None
        if "spawn" in entry:
            spawn = self.integer(entry["spawn"], f"{key}.spawn", 1, MAX_PLAYERS)
            if spawn > players:
                raise self.fail(f"{key}.spawn", _("player {spawn} does not exist (map.players = {players}); "
                                                  "expected a player from 1 to {players}").format(
                                                    spawn=spawn, players=players))
            if terrain == VOID:
                raise self.fail(f"{key}.spawn", _("a void square cannot be in a spawn zone; expected terrain floor "
                                                  "or water"))
        tags = entry.get("tags", [])
        if not isinstance(tags, list):
            raise self.fail(f"{key}.tags", _("expected a list of tag names, got {type_name}").format(
                                               type_name=_type_name(tags)))
        for tag in tags:
            self.tag_name(tag, f"{key}.tags")
        return Symbol(terrain, spawn, tuple(tags))

    def tag_name(self, tag: Any, key: str) -> str:
        tag = self.string(tag, key)
        if _is_reserved_tag(tag):
            raise self.fail(key, _("tag name {tag!r} is reserved (spawn zones and the edge are computed from the "
                                   "grid); expected another name").format(tag=tag))
        if not _TAG_NAME.match(tag):
            raise self.fail(key, _("{tag!r} is not a tag name; expected a letter, then letters, digits, '-' or "
                                   "'_'").format(
                                     tag=tag))
        return tag

    def grid(self, text: str, key: str, width: int, height: int, alphabet: Mapping[str, object],
             known: str) -> tuple[list[str], list[int | None]] | None:
        """The grid's characters in square-index order (bottom row first), and the file line of
        each text row (top row first; ``None`` where the line is unknown); None once every bad
        row is noted (one problem a row)."""
        numbered = [(i, row.strip()) for i, row in enumerate(text.split("\n"))]
        while numbered and not numbered[0][1]:
            numbered.pop(0)
        while numbered and not numbered[-1][1]:
            numbered.pop()
        path = key.split(".")
        lines = [self.lines.value_line(*path, row=i) for i, __ in numbered]
        before = len(self.problems)
        for count, ((__, row), line) in enumerate(zip(numbered, lines), start=1):
            rank = _(" (rank {rank})").format(rank=height - count + 1) if count <= height else ""
            if not row:
                self.note(self.fail(key, _("row {count} from the top is blank; expected {height} rows of {width} "
                                           "characters with no blank line between them").format(
                                             count=count, height=height, width=width), line=line))
                continue
            if len(row) != width:
                self.note(self.fail(key, ngettext("row {count} from the top{rank} has {n} square, expected {width} "
                                                  "(map.width = {width})",
                                                  "row {count} from the top{rank} has {n} squares, expected {width} "
                                                  "(map.width = {width})", len(row)).format(
                    count=count, rank=rank, n=len(row), width=width), line=line))
            for column, char in enumerate(row):
                if char not in alphabet:
                    self.note(self.fail(key, _("row {count} from the top{rank}, column {column} (file {file}): "
                                               "unknown letter {char!r}; known: {known}").format(
                        count=count, rank=rank, column=column + 1,
                        file=FILES[column] if column < len(FILES) else column + 1, char=char, known=known), line=line))
                    break
        if len(numbered) != height:
            self.note(self.fail(key, ngettext("has {n} row, expected {height} (map.height = {height})",
                                              "has {n} rows, expected {height} (map.height = {height})",
                                              len(numbered)).format(n=len(numbered), height=height),
                                line=lines[-1] if lines else None))
        if len(self.problems) != before:
            return None
        rows = [row for __, row in numbered]
        return [char for row in reversed(rows) for char in row], lines

    def seats(self, value: Any, players: int, spawns: dict[int, set[int]] | None,
              geometry: Geometry | None) -> tuple[Seat, ...] | None:
        """One seat per player, or None once every problem with them is noted (without a grid,
        ``spawns`` and ``geometry`` None, only the seats' own words are checked)."""
        table = self.soft(self.table, value, "players")
        if table is None:
            return None
        before = len(self.problems)
        expected = tuple(str(p) for p in range(1, players + 1))
        for k in table:
            if k not in expected:
                if k in {str(n) for n in range(1, MAX_PLAYERS + 1)}:
                    problem = _("describes player {k}, but map.players = {players}").format(k=k, players=players)
                else:
                    problem = _("is not a player number")
                self.note(self.fail(f"players.{k}", _("{problem}; expected tables [players.1] to "
                                                      "[players.{players}]").format(problem=problem, players=players)))
        seats = []
        for p in expected:
            if p not in table:
                self.note(self.fail("players", _("missing table [players.{p}] (home and colour of player {p}); "
                                                 "expected one table per player, [players.1] to "
                                                 "[players.{players}]").format(p=p, players=players)))
                continue
            seat = self.soft(self.seat, p, table[p], spawns, geometry)
            if seat is not None:
                seats.append(seat)
        for a in seats:
            for b in seats:
                if a.player < b.player and a.home == b.home:
                    self.note(self.fail(f"players.{b.player}.home", _("players {player} and {b_player} both sit at "
                                                                      "the {home} edge; expected a different edge "
                                                                      "per player").format(
                                                                        player=a.player, b_player=b.player,
                                                                        home=a.home)))
                if a.player < b.player and a.colour == b.colour:
                    self.note(self.fail(f"players.{b.player}.colour", _("players {player} and {b_player} are both "
                                                                        "{colour}; expected a different colour per "
                                                                        "player").format(
                                                                          player=a.player, b_player=b.player,
                                                                          colour=a.colour)))
        return tuple(seats) if len(self.problems) == before else None

    def seat(self, p: str, value: Any, spawns: dict[int, set[int]] | None, geometry: Geometry | None) -> Seat | None:
        key = f"players.{p}"
        entry = self.table(value, key)
        if not self.known_keys(entry, key, _SEAT_KEYS, _SEAT_KEYS):
            return None
        home = self.choice(entry["home"], f"{key}.home", tuple(HOMES))
        colour = self.choice(entry["colour"], f"{key}.colour", tuple(COLOURS))
        if spawns is None or geometry is None:
            return Seat(int(p), home, colour, frozenset())
        spawn = frozenset(spawns[int(p)])
        if not spawn:
            raise self.fail(key, _("player {p} has no spawn zone; expected some squares marked {p!r} (or a legend "
                                   "symbol with spawn = {p}) in map.grid").format(p=p))
        held = edges_held(geometry, spawn)
        if home not in held:
            hint = _("expected the edge the spawn zone lies at: {held}").format(held=', '.join(held)) if held else \
                _("the spawn zone lies at no edge; expected it to touch the player's edge")
            raise self.fail(f"{key}.home", _("is {home!r} but player {p}'s spawn zone does not lie at the {home} "
                                             "edge (touching it, within that half of the board); {hint}").format(
                                               home=home, p=p, hint=hint))
        return Seat(int(p), home, colour, spawn)

    def seatings(self, value: Any, players: int) -> tuple[tuple[int, tuple[int, ...]], ...]:
        """``[seatings]``: ``3 = [1, 2, 3]``: a game of 3 players uses seats 1, 2 and 3, in that
        turn order. Only counts below ``map.players`` (down to 2)."""
        table = self.table(value, "seatings")
        out = []
        for k, seats in table.items():
            key = f"seatings.{k}"
            if not (k.isdigit() and MIN_PLAYERS <= int(k) < players and str(int(k)) == k):
                raise self.fail(key, _("{k!r} is not a smaller number of players; expected a number from "
                                       "{min_players} to {players} (map.players = {players2})").format(
                                         k=k, min_players=MIN_PLAYERS, players=players - 1, players2=players))
            count = int(k)
            if not isinstance(seats, list):
                raise self.fail(key, _("expected a list of {count} seat numbers, got {type_name}").format(
                                         count=count, type_name=_type_name(seats)))
            for n in seats:
                self.integer(n, key, 1, players)
            if len(seats) != count or len(set(seats)) != count:
                raise self.fail(key, _("expected {count} different seat numbers (1 to {players}), got {seats}").format(
                                         count=count, players=players, seats=seats))
            out.append((count, tuple(seats)))
        return tuple(sorted(out))

    def tags(self, value: Any, geometry: Geometry) -> dict[str, frozenset[int]]:
        """The file's own tags; a broken one is noted and left out."""
        table = self.soft(self.table, value, "tags", default={})
        found = {}
        for name, spec in table.items():
            squares = self.soft(self.tag, name, spec, geometry)
            if squares is not None:
                found[name] = squares
        return found

    def tag(self, name: str, spec: Any, geometry: Geometry) -> frozenset[int] | None:
        key = f"tags.{name}"
        self.tag_name(name, key)
        if isinstance(spec, str):
            grid = self.grid(spec, key, geometry.width, geometry.height, {_TAG_IN: 1, _TAG_OUT: 0},
                             _("{inside!r} in the tag, {outside!r} not").format(inside=_TAG_IN, outside=_TAG_OUT))
            if grid is None:
                return None
            return frozenset(sq for sq, m in enumerate(grid[0]) if m == _TAG_IN)
        if isinstance(spec, list):
            squares: set[int] = set()
            for entry in spec:
                text = self.string(entry, key)
                try:
                    square = geometry.parse_square(text)
                except ValueError as exc:
                    raise self.fail(key, f"{exc}") from None
                if square in squares:
                    raise self.fail(key, _("names {square} twice; expected each square once").format(
                                             square=geometry.name_of(square)))
                squares.add(square)
            return frozenset(squares)
        raise self.fail(key, _("expected a list of square names or a grid string of {inside!r} and {outside!r}, "
                               "got {type_name}").format(
                                 inside=_TAG_IN, outside=_TAG_OUT, type_name=_type_name(spec)))
