"""Questions the screen asks with big buttons (plain values; the flow decides them, the
prompt popup shows them): a promotion, which move, a draw offer, resigning, the menu, the
turn order, a Salamander's step, a forced pass, a hex."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PromptOption:
    key: str
    label: str
    glyph: str = ""
    owner: int = 0


@dataclass(frozen=True)
class Prompt:
    """A question with big buttons. ``kind``: promotion, which-move, draw, resign-who,
    resign-confirm, new-game, menu. ``cancel``: whether it may be closed unanswered."""

    kind: str
    title: str
    options: tuple[PromptOption, ...]
    cancel: bool = True
    values: tuple = ()  # what each option stands for (a tracker's own option values)
    cancel_label: str = ""  # the closing button's words (default: Cancel)
    board: bool = False  # the tracker asks it (answered with Tracker.choose), whatever its kind


#: Questions about the board that the tracker asks (answered with Tracker.choose).
BOARD_QUESTIONS = ("promotion", "which-move", "step", "pass")
