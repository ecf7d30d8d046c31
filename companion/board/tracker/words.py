"""How the tracker names things in its sentences: squares, players, pieces, moves, answers.

Every phrase comes from companion/board/texts.py (one table, for translation); this module
only picks the right one. Players are named by their seat colour ("the blue Knight"; chess
keeps white and black), pieces by their kind's word ("the white knight" in chess, "the red
Skeleton" for a named unit).
"""

from __future__ import annotations

from typing import Mapping, Sequence

from ...core.moves import Answer, Move
from .. import texts
from . import effects as fx
from .outputs import Action, Look


class Words:
    """Names for one game. ``names``: the colour word of each player."""

    def __init__(self, rules, names: Sequence[str]):
        self.rules = rules
        self.geometry = rules.geometry
        self.names = tuple(names)
        words = texts.kind_words([k.title or k.name for k in rules.kinds])
        self.kinds = {k.code: words[k.title or k.name] for k in rules.kinds}

    def name(self, sq: int) -> str:
        return self.geometry.name_of(sq)

    def colour(self, owner: int | None) -> str:
        return texts.colour_name(owner if owner is not None else -1, self.names)

    def kind_name(self, code: str) -> str:
        """The kind's word in sentences: "knight" in chess, "Skeleton" for a named unit."""
        return self.kinds.get(code, code)  # an unknown code is named by its letter

    def piece(self, look: Look | None) -> str:
        if look is None:
            return texts.piece_phrase(None, None)
        return texts.piece_phrase(self.colour(look[0]), self.kind_name(look[1]))

    def title_word(self, title: str) -> str:
        for k in self.rules.kinds:
            if (k.title or k.name) == title:
                return self.kinds[k.code]
        return title

    def effect_reasons(self, effects, move: Move | None) -> dict[int, fx.Reason]:
        """Square -> why it must change, from the effects the engine recorded (effects.py)."""
        return fx.reasons(effects, move, self.colour,
                          lambda owner, title: texts.piece_phrase(self.colour(owner), self.title_word(title)))

    def action_text(self, pos, action: Action) -> str:
        """What :meth:`Tracker.choose` takes for ``action``: the move text, or the answer text."""
        if isinstance(action, Answer):
            answer_text = getattr(self.rules, "answer_text", None)
            return answer_text(action) if answer_text is not None else str(action.value)
        return self.rules.move_text(pos, action)

    def describe(self, pos, belief: Mapping[int, Look | None], action: Action) -> str:
        """A move (or an answer) in words, for the screen's buttons; ``belief``: which piece
        stands where."""
        if isinstance(action, Answer):
            d = pos.pending
            if d is not None and d.kind == "step":
                if action.value == "stay":
                    return texts.text("step stay", square=self.name(d.get("square")))
                return texts.text("step to", square=self.name(action.value))
            return self.action_text(pos, action)
        if action.frm < 0:
            return texts.text("pass label") if action.special == "pass" else self.action_text(pos, action)
        look = belief.get(action.frm)
        if action.special == "hex":
            target = belief.get(action.to)
            return texts.text("hex label", target=self.piece(target), square=self.name(action.to),
                              piece=self.piece(look))
        text = texts.text("move", piece=self.piece(look), frm=self.name(action.frm), to=self.name(action.to))
        if action.promotion:
            text += " " + texts.text("request promote", kind=self.kind_name(action.promotion))
        return text
