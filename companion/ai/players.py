"""The computer players a seat may choose, per game, and how to make one from its key.

``computer_players("chess")`` lists our levels (1 beginner .. 6 strongest, every game) and, for
FIDE chess when Stockfish is installed, Stockfish at a few strengths. Each choice has a key
(what ai-match takes and a saved setting keeps: ``"3"``, ``"max"``, ``"stockfish:1500"``) and
the words a seat control shows. :func:`make_computer` makes the player a key names, with the
same ``choose`` call whatever plays (companion.ai.levels.ComputerPlayer,
companion.ai.stockfish.StockfishPlayer).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable

from ..errors import CompanionError
from .levels import LEVELS, ComputerPlayer, parse_level
from ..i18n import _

#: Stockfish's strengths offered on a seat (UCI_Elo; Stockfish 15.1 takes 1350 to 2850)
STOCKFISH_ELOS = (1350, 1500, 1800, 2100, 2400, 2850)
#: games Stockfish plays (FIDE chess only; Combat Chess and the others are our search's)
STOCKFISH_GAMES = ("chess",)


@dataclass(frozen=True)
class ComputerChoice:
    key: str        # "1".."6" / "max" / "stockfish:1500"
    title: str      # what the seat control shows
    engine: str     # "ours" or "stockfish"
    strength: int   # a rough order for a list: our level, or Stockfish's Elo


def computer_players(variant: str, *, find: Callable[[], str | None] | None = None) -> tuple[ComputerChoice, ...]:
    """Every computer player offered for ``variant`` (a game's registered name), weakest first
    within each engine. ``find`` locates Stockfish (default: companion.ai.stockfish.find_stockfish);
    without it the list holds our levels only."""
    ours = tuple(ComputerChoice("max" if lv.is_strongest else str(lv.number),
                                f"Level {lv.number}: {lv.title}", "ours", lv.number) for lv in LEVELS)
    if variant not in STOCKFISH_GAMES:
        return ours
    if find is None:
        from .stockfish import find_stockfish as find
    if find() is None:
        return ours
    return ours + tuple(ComputerChoice(f"stockfish:{elo}", f"Stockfish, Elo {elo}", "stockfish", elo)
                        for elo in STOCKFISH_ELOS)


def parse_stockfish(key: str) -> int | None:
    """The Elo of a ``stockfish:ELO`` key (None for any other key); a bad number is one line."""
    k = key.strip().lower()
    if not k.startswith("stockfish"):
        return None
    __, sep, text = k.partition(":")
    if not sep or not text.isdigit() or len(text) > 5:
        raise CompanionError(_("{key!r}: write Stockfish's strength as stockfish:ELO, e.g. stockfish:1500").format(
                                 key=key))
    return int(text)


def make_computer(key: str, rules, rng: random.Random, evaluator=None, *, stockfish_path: str | None = None):
    """The player ``key`` names (a level or ``stockfish:ELO``) for a game of ``rules``."""
    elo = parse_stockfish(key)
    if elo is not None:
        from .stockfish import StockfishPlayer

        return StockfishPlayer(rules, elo, path=stockfish_path)
    return ComputerPlayer(rules, parse_level(key), rng, evaluator)
