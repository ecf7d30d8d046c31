"""What a game adds to the common screens, as one object per game (:class:`GameExtras`).

The start, set-up, game and game-over screens are the same for every game. A game whose turns
ask questions of their own (Chess 2's duel, its king-turn) or that keeps something per player
(Chess 2's stones) says so here, and the common screens show it; nothing in the flow or the
screens names a game. A game that needs nothing of this has no entry: :func:`extras_for`
returns the empty :class:`GameExtras`.

* ``decision_screens``: decision kinds answered on a screen of the game's own (kind -> the
  screen's name in companion/app/shell.py), e.g. Chess 2's ``duel``, ``bids`` and ``bluff`` on
  its duel screen. The tracker's standing question for them is not shown as a popup.
* ``question(session)``: a decision the game screen asks itself, with the buttons that answer
  it on the screen (Chess 2's king-turn: its text and "Skip king-turn"; its moves are made on
  the board). Its answers go to the tracker (``Tracker.choose``) like any screen answer.
* ``counter(session, player)``: a few words beside the player's name ("3 stones").
* ``move_mark(entry)``: a word after a move in the move list ("duel won").
* ``result_shown(session, start)``: whether the decision screen stays up, after its decision
  was answered, to show what happened (the bids revealed); ``start`` is how many effects the
  turn had when the screen opened.
* ``before_game``: the screen that comes between the start screen and the game (Chess 2's
  army choice), or "" for none.
* ``card(session)``: an information card the game screen offers with a button of the game's
  own (Chess 2's stones and where each came from): :class:`Card`, or None.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Mapping

#: game -> the module whose ``EXTRAS`` is the game's :class:`GameExtras` (loaded when needed)
APP_MODULES: Mapping[str, str] = {"chess2": "companion.app.presenters.chess2"}


@dataclass(frozen=True)
class Question:
    """A decision asked on the game screen: the words, and (option, label) buttons."""

    kind: str
    text: str
    buttons: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Card:
    """An information card: its button's label, a title and lines."""

    label: str
    title: str
    lines: tuple[str, ...]


class GameExtras:
    decision_screens: Mapping[str, str] = {}
    before_game: str = ""

    def card(self, session) -> Card | None:
        return None

    def question(self, session) -> Question | None:
        return None

    def counter(self, session, player: int) -> str:
        return ""

    def move_mark(self, entry) -> str:
        return ""

    def result_shown(self, session, start: int) -> bool:
        return False

    def zone(self, session, square: int) -> frozenset[int]:
        """Squares the screen's board marks while the piece on ``square`` has its info card open
        (Chess 2: the Elephant's 5x5 box)."""
        return frozenset()


NONE = GameExtras()
_LOADED: dict[str, GameExtras] = {}


def extras_for(game: str | None) -> GameExtras:
    """The game's extras (the empty ones for a game that has none)."""
    if game is None or game not in APP_MODULES:
        return NONE
    if game not in _LOADED:
        _LOADED[game] = importlib.import_module(APP_MODULES[game]).EXTRAS
    return _LOADED[game]
