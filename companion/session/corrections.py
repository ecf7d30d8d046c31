"""Corrections: an arbiter's :class:`SetPosition`, the game going on from a position given as
text (``rules.position_text``). It counts as a turn (Undo takes it back, and with it the pieces
known before it), stays in the game's record, and the board is guided to it."""

from __future__ import annotations

from ..errors import IllegalMoveError
from ..i18n import _
from .actions import SetPosition
from .events import MoveEntry, PositionSet
from .pieces import KnownPieces
from .state import GameState


class Corrections:
    """Sets the position anew; collaborators: the game and the pieces known."""

    def __init__(self, game: GameState, known: KnownPieces) -> None:
        self._game, self._known = game, known

    def check(self, action: SetPosition) -> None:
        game = self._game
        if game.draw_offer is not None:
            raise IllegalMoveError(_('a draw offer is waiting for an answer'))
        game.rules.position_from_text(action.position)  # PositionError says what is wrong

    def apply(self, action: SetPosition) -> list:
        game = self._game
        pos = game.pos
        player = pos.turn
        new = game.rules.position_from_text(action.position)
        game.begin_turn()
        pos.begin()
        pos.transplant(new)
        game.moves.append(MoveEntry(player, "position set", "position", -1, -1))
        self._known.corrected()  # what was captured before it is not known after
        return [PositionSet(action.position)]
