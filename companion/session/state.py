"""The game as it stands: the one record the session's rooms share.

:class:`GameState` holds what every room reads: the set-up, the rules, the position, the move
list, where each turn began (what Undo goes back to), the result and a standing draw offer.
The rooms change it only through the actions the session hands them, one at a time.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..i18n import N_, _
from ..core.moves import Move
from .events import GameResult, MoveEntry
from .setup import GameSetup, Seat

#: Results the players decided rather than the position: taking a move back does not undo them.
DECIDED_RESULTS = frozenset({"resigned", "draw agreed"})
#: why a game decided by the players cannot be taken back, by its reason
_ENDED_BY_AGREEMENT = {"resigned": N_("the game ended by agreement (resigned); start a new one"),
                       "draw agreed": N_("the game ended by agreement (draw agreed); start a new one")}


@dataclass(eq=False)
class GameState:
    """The game: set-up, rules and position (never replaced: a correction changes the position
    in place), the move list, the undo depth at which each turn still on the board began, the
    result (None while the game goes on), the player whose draw offer stands, and whether the
    game was ended off the board (Adjudicate: a flag, a claim, the arbiter's result)."""

    setup: GameSetup
    rules: Any
    pos: Any
    moves: list[MoveEntry] = field(default_factory=list)
    turn_starts: list[int] = field(default_factory=list)
    result: GameResult | None = None
    draw_offer: int | None = None
    adjudicated: bool = False

    @property
    def seats(self) -> tuple[Seat, ...]:
        return self.setup.seats

    def begin_turn(self) -> None:
        """A turn starts here (Undo goes back to this depth)."""
        self.turn_starts.append(self.pos.depth)

    def step_effects(self, before) -> tuple:
        """What the step just applied recorded in the position variable ``effects`` (a game
        sets it anew at each step; a step that set nothing leaves the same object)."""
        after = self.pos.var("effects")
        return tuple(after) if after is not before and after else ()

    def move_text(self, move: Move) -> str:
        """``move`` as the move list shows it (before it is applied): SAN where the game has it."""
        rules = self.rules
        return move_words(self.rules, self.pos, move)

    def can_undo(self) -> bool:
        return bool(self.turn_starts) and (self.result is None or self.undo_after_end_refused() is None)

    def undo_after_end_refused(self) -> str | None:
        """Why the finished game's last move cannot be taken back (None: it can)."""
        if not self.setup.undo_after_end:
            return (_("the game is over and its dice seed is revealed; start a new one") if self.setup.seed
                    else _("the game is over; start a new one"))
        if self.result.reason in DECIDED_RESULTS:
            return _(_ENDED_BY_AGREEMENT[self.result.reason])
        if self.adjudicated:
            return _("the game ended off the board ({reason}); start a new one").format(reason=self.result.reason)
        return None


def move_words(rules, pos, move: Move) -> str:
    """``move`` as the move list shows it (before it is applied): SAN where the game has it
    (chess: ``Nf3``), else the unit's code and the squares (``KN b5-c7``)."""
    return rules.san(pos, move) if hasattr(rules, "san") else unit_move_text(rules, pos, move)


def unit_move_text(rules, pos, move: Move) -> str:
    """A move for the move list of a game of named units (Dungeon Chess): the unit's code, the
    squares, ``x`` for a capture, ``hex`` for a Shaman's hex: ``KN k14xm13``, ``SM r12 hex q11``,
    ``pass``. (Before the move is applied.)"""
    if move.special == "pass" or move.frm < 0:
        return "pass"
    g = rules.geometry
    piece = pos.board[move.frm]
    code = piece.kind.code if piece is not None else "?"
    if move.special == "hex":
        return f"{code} {g.name_of(move.frm)} hex {g.name_of(move.to)}"
    sep = "x" if move.capture is not None else "-"
    return f"{code} {g.name_of(move.frm)}{sep}{g.name_of(move.to)}"
