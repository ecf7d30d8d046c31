"""The games the product knows, by name. Each module supplies ``make(board_map=None, **options)``
returning its Rules object; rules objects create, read and write positions."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ..errors import VariantError


@dataclass(frozen=True)
class GameInfo:
    name: str
    title: str
    module: str
    default_map: str


GAMES: dict[str, GameInfo] = {
    "chess": GameInfo("chess", "FIDE chess", "companion.games.chess", "standard"),
    "combat": GameInfo("combat", "Human Combat Chess", "companion.games.combat", "standard"),
    "dungeon": GameInfo("dungeon", "Dungeon Chess", "companion.games.dungeon", "dungeon-compact"),
    "chess2": GameInfo("chess2", "Chess 2", "companion.games.chess2", "standard"),
    "kol": GameInfo("kol", "KoL Chess", "companion.games.kol", "kol"),
}


def register(info: GameInfo) -> None:
    GAMES[info.name] = info


def names() -> list[str]:
    return sorted(GAMES)


def variant_help(default: str = "chess") -> str:
    """The --variant option's help: every game the product knows, by name and title."""
    known = ", ".join(f"{g.name} ({g.title})" for g in GAMES.values())
    return f"the game: {known}; default {default}"


def make_rules(name: str, board_map: str | None = None, **options):
    """Rules for game ``name`` on ``board_map`` (a map name or path); VariantError if unknown."""
    info = GAMES.get(name)
    if info is None:
        raise VariantError(f"unknown variant {name!r}; known: {', '.join(names())}")
    import importlib

    module = importlib.import_module(info.module)
    make: Callable = module.make
    return make(board_map, **options)
