"""Joint decisions (Chess 2's duels): each player's secret part, sealed until every part is in.

A joint decision (``("players", (p, q))`` in its info, docs/architecture.md) is answered once
by both players at the same time. At the table each part comes in on its own (a bid tapped while
the other looks away, or stones revealed together): :class:`SealedParts` keeps the parts that
are in (the journal holds them, so a power cut loses nothing) and shows them to nobody; the last
part makes the joint answer, which the session then plays like any answer.
"""

from __future__ import annotations

from ..core.moves import Answer
from ..errors import IllegalMoveError
from ..i18n import N_, _
from .actions import PlayPart
from .events import PartSealed
from .state import GameState


#: the kinds of joint secret decision, in words (a rules module names them)
_KIND_WORDS = {"bids": N_("bids")}


def _kind(decision) -> str:
    return _(_KIND_WORDS[decision.kind]) if decision.kind in _KIND_WORDS else decision.kind


class SealedParts:
    """The parts of the pending joint decision that are in: player -> the option's text. Never
    shown (:attr:`sealed_players` says who, not what); cleared when the answer is played, a turn
    is taken back or the position is corrected."""

    def __init__(self, game: GameState) -> None:
        self._game = game
        self.sealed: dict[int, str] = {}

    def decision(self):
        """The pending joint decision (both players answer at once: a duel's secret bids), or None."""
        game = self._game
        d = game.pos.pending
        return d if game.result is None and d is not None and not d.chance and d.get("players") else None

    @property
    def sealed_players(self) -> tuple[int, ...]:
        return tuple(sorted(self.sealed))

    def missing(self) -> tuple[int, ...]:
        """The players whose part is still to come."""
        d = self.decision()
        return tuple(p for p in d.get("players") if p not in self.sealed) if d is not None else ()

    def options(self, player: int) -> tuple:
        """``player``'s options in the pending joint decision (a bid of 0, 1 or 2 stones)."""
        d = self.decision()
        if d is None or player not in d.get("players"):
            return ()
        return tuple(d.get("options")[d.get("players").index(player)])

    def check(self, action: PlayPart) -> None:
        d = self.decision()
        if d is None:
            raise IllegalMoveError(_("no secret choice (a duel's bids) is waiting"))
        if action.player not in d.get("players"):
            raise IllegalMoveError(_("player {number} has no part in this {kind} decision").format(number=action.player + 1, kind=_kind(d)))
        if action.player in self.sealed:
            raise IllegalMoveError(_("player {number}'s {kind} part is in already").format(number=action.player + 1, kind=_kind(d)))
        options = [str(o) for o in self.options(action.player)]
        if action.part not in options:
            raise IllegalMoveError(_("{part!r} is not possible for player {number} (possible: {items})").format(part=action.part, number=action.player + 1, items=', '.join(options)))

    def check_no_parts(self) -> None:
        """A plain answer is refused while parts are being sealed one by one."""
        if self.sealed:
            raise IllegalMoveError(_("the bids are being sealed one by one: enter the other player's bid"))

    def seal(self, action: PlayPart) -> tuple[list, Answer | None]:
        """Seal ``action``'s part: ``(events, answer)``, the answer once every part is in (for
        the session to play), else None."""
        d = self.decision()
        self.sealed[action.player] = action.part
        events: list = [PartSealed(action.player)]
        players = d.get("players")
        if any(p not in self.sealed for p in players):
            return events, None
        parts = tuple(next(o for o in self.options(p) if str(o) == self.sealed[p]) for p in players)
        self.sealed = {}
        game = self._game
        answer = next((a for a in game.rules.answers(game.pos) if a.value == parts), None)
        if answer is None:  # every part is an option: the rules must have their pair
            raise IllegalMoveError(_("the parts {parts} are not an answer to the pending {kind}").format(parts=parts, kind=d.kind))
        return events, answer

    def clear(self) -> None:
        self.sealed = {}
