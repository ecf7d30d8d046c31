"""A game's actions as text and back: the notation of ``companion ai-match --log`` and of the
review (companion.ai.analysis): a move in coordinate notation (``e2e4``), an answer as ``=``
and its text (``=attacker``, ``=duel``, ``=1-2``)."""

from __future__ import annotations

from ..core.moves import Answer
from ..errors import IllegalMoveError
from ..i18n import _


def action_text(rules, pos, action) -> str:
    """A move in coordinate notation (``e2e4``), an answer as ``=`` and its text (``=attacker``)."""
    if isinstance(action, Answer):
        return "=" + rules.answer_text(action)
    return rules.move_text(pos, action)


def action_of(rules, pos, text: str):
    """The action :func:`action_text` wrote as ``text`` in ``pos``; IllegalMoveError if none."""
    if text.startswith("="):
        pend = pos.pending
        if pend is None:
            raise IllegalMoveError(_("{text!r}: no decision is pending").format(text=text))
        options = [o.answer for o in rules.chance_outcomes(pos)] if pend.chance else list(rules.answers(pos))
        found = [a for a in options if rules.answer_text(a) == text[1:]]
        if not found:
            raise IllegalMoveError(_("{text!r} is not an answer to the pending {kind}").format(
                                       text=text, kind=pend.kind))
        return found[0]
    return rules.parse_move(pos, text)
