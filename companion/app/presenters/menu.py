"""The game's Menu (the game bar's button, the clock screen's): Load / Save, the board check, a
new game, the game's card, and at a table the records, the clock's sides and the arbiter.

:class:`Menu` decides which items a game offers; what each item does is handed to it by the
wiring (flow.py), so this room touches nothing but the display and the game it looks at.
"""

from __future__ import annotations

from typing import Callable, Mapping

from .. import online_texts as W, texts as T
from .display import Display
from .game_room import GameRoom
from .messages import Bus, LeaveGame
from .questions import Prompt, PromptOption

#: Every item, in the menu's order: key -> its words (the card's come from the game), read when
#: the menu opens, in the language of that moment.
ITEMS = {"load-save": lambda: T.LOAD_SAVE, "board-check": lambda: T.BOARD_CHECK, "new-game": lambda: T.NEW_GAME,
         "card": lambda: "", "save-record": lambda: T.SAVE_RECORD, "copy-records": lambda: T.COPY_RECORDS,
         "swap-clock": lambda: T.SWAP_CLOCK, "arbiter": lambda: T.ARBITER, "lichess": lambda: W.MENU_ITEM,
         "coach": lambda: T.COACH_MENU, "settings": lambda: T.SETTINGS}
#: The board's preferences, last: one item that opens them (preferences.py).
PREFERENCE_ITEMS = ("settings",)


class Menu:
    def __init__(self, display: Display, game: GameRoom, bus: Bus, actions: Mapping[str, Callable[[], None]],
                 lichess_item: Callable[[], bool] = lambda: False, online: Callable[[], bool] = lambda: False) -> None:
        self.display = display
        self.game = game
        self.bus = bus
        self.actions = dict(actions)  # item key -> what it does ("new-game" asks first)
        self.lichess_item = lichess_item  # a lichess game whose link is down: its account's screen
        self.online = online  # the open game is played online (no coach there)

    def open(self) -> None:
        s, table = self.game.session, self.game.table
        card = self.game.extras.card(s) if s is not None else None
        shown = ["load-save", "board-check", "new-game"]
        casual = table is None or not table.tournament
        if "coach" in self.actions and s is not None and not s.is_over and casual and not self.online():
            shown.append("coach")  # the coach for the player to move (never in tournament mode nor online)
        if self.lichess_item():
            shown.insert(0, "lichess")
        if card is not None:  # the game's card (Chess 2's stones) here too: a clock may hold its button
            shown.append("card")
        if table is not None:
            shown += ["save-record", "copy-records"]
            if table.clock is not None:
                shown += ["swap-clock", "arbiter"]
        shown += [key for key in PREFERENCE_ITEMS if key in self.actions]
        self.display.ask(Prompt("menu", T.MENU, tuple(
            PromptOption(key, card.label if key == "card" else ITEMS[key]()) for key in shown)))

    def answer(self, prompt: Prompt, key: str | None) -> None:
        """Display.answers_to: the menu's items, and "Start a new game?"."""
        if prompt.kind == "new-game":
            if key == "yes":
                self.bus.handle(LeaveGame())
        elif key == "new-game":
            self.display.prompt = Prompt("new-game", T.CONFIRM_NEW, (PromptOption("yes", T.YES_NEW),))
        elif key in self.actions:
            self.actions[key]()


__all__ = ["Menu", "ITEMS"]
