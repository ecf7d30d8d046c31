"""Replaying a journal, and the game kept as journal entries.

Every action is journaled before it takes effect, so replaying the journal's actions in order
(:func:`replay_journal`, checked like live ones, not recorded again, no tracker) rebuilds the
game exactly, fatigue and dice record included. :class:`History` keeps the game as it stands as
such entries, undone turns and declined draw offers left out: companion.gametext writes it as
the game's text.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

from ..errors import CompanionError, RecordError
from ..i18n import _
from .actions import Action, AnswerDraw, PlayMove, Resign, SetPosition, Undo, action_to_json, start_from_json
from .setup import GameSetup


class History:
    """The game as it stands, as journal action entries (``entries``)."""

    def __init__(self, players: int) -> None:
        self._players = players
        self.entries: list[dict[str, Any]] = []
        self._turn_at: list[int] = []  # where each turn starts in ``entries``

    def keep(self, action: Action) -> None:
        """Keep ``action`` (before it is applied): a takeback cuts its turns off, a declined
        offer takes the offer away."""
        if isinstance(action, Undo):
            cut = self._turn_at[-action.turns]
            del self.entries[cut:]
            del self._turn_at[-action.turns:]
            return
        if isinstance(action, AnswerDraw) and not action.accept:
            if self.entries and self.entries[-1].get("type") == "offer-draw":
                self.entries.pop()  # an offer declined changes nothing
            return
        if isinstance(action, (PlayMove, SetPosition)) or (isinstance(action, Resign) and self._players > 2):
            self._turn_at.append(len(self.entries))  # a turn starts (with 3 or 4 players a resignation is one)
        self.entries.append(action_to_json(action))


def replay_journal(make: Callable[[GameSetup], Any], entries: Sequence[dict],
                   progress: Callable[[int, int], None] | None = None) -> tuple[Any, int, str | None]:
    """Rebuild a game from journal entries (the start entry first) on ``make(setup)``'s session.

    Returns ``(session, used, problem)``: ``used`` entries were applied; ``problem`` says why
    the rest could not be (None when all were). Raises RecordError when not even the start entry
    is usable."""
    if not entries:
        raise RecordError(_('the journal is empty: it has no start entry'))
    setup = start_from_json(entries[0], _("journal entry {n}").format(n=1))
    session = make(setup)
    used = 1
    for i, entry in enumerate(entries[1:], start=2):
        try:
            session.apply_entry(entry, _("journal entry {n}").format(n=i))
        except CompanionError as e:
            return session, used, str(e)
        used += 1
        if progress is not None:
            progress(used, len(entries))
    return session, used, None
