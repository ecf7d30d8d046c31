"""The games the product knows, by name. Each module supplies ``make(board_map=None, **options)``
returning its Rules object; rules objects create, read and write positions.

Every game takes the option ``fights="dice"`` (Human Combat Chess's dice fights on its captures,
companion/games/fights.py) with ``d6_only``, handled here once; a game whose rules refuse them
says why (``GameInfo.no_fights``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ..errors import VariantError
from ..i18n import N_, _


@dataclass(frozen=True)
class GameInfo:
    name: str
    title: str
    module: str
    default_map: str
    #: why the game cannot be played with dice fights ("": it can; marked ``N_``, shown through ``_()``)
    no_fights: str = ""
    #: the game this one is with dice fights, when that is a game of its own (chess: combat)
    with_fights: str = ""


GAMES: dict[str, GameInfo] = {
    "chess": GameInfo("chess", "FIDE chess", "companion.games.chess", "standard", with_fights="combat"),
    "combat": GameInfo("combat", "Human Combat Chess", "companion.games.combat", "standard"),
    "dungeon": GameInfo("dungeon", "Dungeon Chess", "companion.games.dungeon", "dungeon-compact"),
    "chess2": GameInfo("chess2", "Chess 2", "companion.games.chess2", "standard",
                       N_("Chess 2 settles a contested capture with its own duel (stones bid in secret), so it "
                          "takes no dice fights (docs/rules/combat.md)")),
    "kol": GameInfo("kol", "KoL Chess", "companion.games.kol", "kol"),
    "chess4": GameInfo("chess4", "Four-player chess", "companion.games.chess4", "chess4"),
}
#: the values of the ``fights`` option: no fights, or dice fights
FIGHTS = ("none", "dice")


def register(info: GameInfo) -> None:
    GAMES[info.name] = info


def names() -> list[str]:
    return sorted(GAMES)


def variant_help(default: str = "chess") -> str:
    """The --variant option's help: every game the product knows, by name and title."""
    known = ", ".join(f"{g.name} ({g.title})" for g in GAMES.values())
    return f"the game: {known}; default {default}"


def make_rules(name: str, board_map: str | None = None, **options):
    """Rules for game ``name`` on ``board_map`` (a map name or path); VariantError if unknown.
    ``fights="dice"`` (with ``d6_only``) adds dice fights to any game that takes them."""
    info = GAMES.get(name)
    if info is None:
        raise VariantError(_("unknown variant {name!r}; known: {names}").format(name=name, names=', '.join(names())))
    fights = options.pop("fights", "none") or "none"
    if fights not in FIGHTS:
        raise VariantError(_("fights={fights!r}: expected one of {fights2}").format(
                               fights=fights, fights2=', '.join(FIGHTS)))
    if fights == "dice" and info.no_fights:
        raise VariantError(_(info.no_fights))
    if fights == "dice" and info.with_fights:  # FIDE chess with dice fights is Human Combat Chess
        info = GAMES[info.with_fights]
    d6_only = False
    if fights == "dice" and info.name != "combat":
        d6_only = bool(options.pop("d6_only", False))
    import importlib

    module = importlib.import_module(info.module)
    make: Callable = module.make
    rules = make(board_map, **options)
    if fights == "dice":
        from .fights import add_fights

        add_fights(rules, d6_only or getattr(rules, "d6_only", False))
    return rules
