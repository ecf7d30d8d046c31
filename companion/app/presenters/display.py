"""What is on the touchscreen, apart from any game: which screen is up, the question with big
buttons (a prompt), the popup keyboard, the information card, the small notice line, the
warning strip; and who is told that something changed.

Every room and presenter that shows something is given the Display; it is plain Python (the
Kivy app, shell.py, listens to it and redraws). Answers to a prompt go back to the room that
asked it: each room registers the kinds of prompt it asks (:meth:`Display.answers_to`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Callable

from .entry import Entry
from .questions import BOARD_QUESTIONS, Prompt

#: The route of every question about the board (the tracker asks it; presenters/play.py answers).
BOARD = "board"


class Display:
    def __init__(self) -> None:
        self.screen = "loading"
        self.prompt: Prompt | None = None
        self.notice = ""  # the small line under the status: what just happened
        self.start_problem = ""  # the start screen's line: a game that could not be started or read
        self.entry: Entry | None = None  # the popup keyboard or number pad, while it is open
        self.card = None  # an information card asked for (a game's history: Chess 2's stones)
        self.info_square: int | None = None  # the piece whose information is open
        self.info_mode = False  # the game bar's Info: a tap on the screen's board shows a piece
        self.listeners: list[Callable[[], None]] = []
        self.version = 0
        self.change_is_activity = True
        #: where the warning strip's words come from, first one that has any (flow.py: the
        #: board gone, then little space left)
        self.banners: list[Callable[[], str]] = []
        #: what a tap on the warning strip does (each room's, in order: free space, the link)
        self.banner_taps: list[Callable[[], None]] = []
        self._answers: dict[str, Callable[[Prompt, str | None], None]] = {}

    # ----- telling the listeners ---------------------------------------------------------------
    def changed(self, activity: bool = True) -> None:
        """Something on screen changed: the listeners redraw. ``activity=False``: only a face
        that changes by itself (the running clock's time); the main loop may go on resting
        (``change_is_activity``, companion/app/pacing.py)."""
        self.version += 1
        self.change_is_activity = activity
        try:
            for listener in list(self.listeners):
                listener()
        finally:
            self.change_is_activity = True

    def show(self, screen: str) -> None:
        self.screen = screen
        self.changed()

    @property
    def banner(self) -> str:
        """The warning strip on the game screens: the board is gone, or space is low."""
        return next((text for text in (source() for source in self.banners) if text), "")

    def clear_game_words(self, _event=None) -> None:
        """A game opened or closed: its question, notice, card and piece information go."""
        self.prompt, self.notice, self.info_square, self.card = None, "", None, None

    # ----- prompts --------------------------------------------------------------------------------
    def answers_to(self, kinds: tuple[str, ...], handler: Callable[[Prompt, str | None], None]) -> None:
        """``handler(prompt, key)`` answers prompts of these kinds (``BOARD``: every question
        about the board); it is called with ``key`` None only for board questions closed to
        look at the board."""
        for kind in kinds:
            self._answers[kind] = handler

    def ask(self, prompt: Prompt | None) -> None:
        self.prompt = prompt
        self.changed()

    def answer_prompt(self, key: str | None) -> None:
        """A button of the open prompt was tapped (None: closed without an answer)."""
        prompt, self.prompt = self.prompt, None
        if prompt is None:
            return
        if key is None and not prompt.cancel:
            self.prompt = prompt  # must be answered
            self.changed()
            return
        route = BOARD if prompt.board or prompt.kind in BOARD_QUESTIONS or prompt.kind == "hex" else prompt.kind
        handler = self._answers.get(route)
        if handler is not None and (key is not None or route == BOARD):
            handler(prompt, key)
        self.changed()

    # ----- the popup keyboard ----------------------------------------------------------------------
    def open_entry(self, entry: Entry) -> None:
        self.entry = entry
        self.changed()

    def entry_key(self, key: str) -> None:
        if self.entry is not None:
            self.entry = self.entry.press(key)
            self.changed()

    def entry_done(self) -> None:
        entry = self.entry
        if entry is None:
            return
        self.entry = None
        problem = entry.on_done(entry.text) if entry.on_done is not None else None
        if problem:
            self.entry = replace(entry, problem=problem, text="" if entry.secret else entry.text)
        self.changed()

    def entry_cancel(self) -> None:
        self.entry = None
        self.changed()

    # ----- cards and piece information ----------------------------------------------------------
    def show_card(self, card) -> None:
        """An information card over the screen (None closes it)."""
        self.card = card
        self.changed()

    def show_piece_info(self, square: int | None) -> None:
        self.info_square = square
        self.changed()


__all__ = ["Display", "BOARD"]
