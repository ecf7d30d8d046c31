"""The game bar: the same buttons in the same places in every game (chess, Combat Chess,
Dungeon Chess with two to four players, and any game added later).

    Undo   | Draw?        | Resign
    Info   | (the game's) | Menu

The middle of the lower row is the one slot a game may fill with an action of its own (a
Shaman's "Hex...", "Step?" for a question put aside, Chess 2's "Skip king-turn" while its
king-turn waits, "Clock" back to a clocked game's clock, Chess 2's "Stones" card); it is empty
otherwise. In tournament mode Undo and Draw? stay greyed: takebacks are the
arbiter's, and draws are offered on the clock (docs/tournament.md). A button that
cannot be used now stays where it is, greyed, so a finger never finds another action in its
place.
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import texts as T
from .board import BoardPresenter
from .clock_room import ClockRoom
from .display import Display
from .dungeon_setup import DungeonSetup
from .game_room import GameRoom
from .menu import Menu
from .play import Play


@dataclass(frozen=True)
class GameBarView:
    can_undo: bool
    can_draw: bool
    can_resign: bool
    info_on: bool  # piece info mode: the next tap on the board shows a piece
    action: str  # the game's own slot: "hex", "question", "answer:<option>", "clock", "card" or "" (empty)
    action_label: str


class GameBarPresenter:
    def __init__(self, play: Play, game: GameRoom, dungeon: DungeonSetup, clock: ClockRoom, menu: Menu,
                 display: Display, board: BoardPresenter, online=None) -> None:
        self.play = play
        self.online = online  # a lichess game (online_game_room.py): Undo, Draw? and Resign ask lichess
        self.game = game
        self.dungeon = dungeon  # Undo while deploying: the last unit placed
        self.clock = clock  # the game's own slot may bring back the clock
        self.game_menu = menu
        self.display = display
        self.board = board

    # commands, one per button
    def _lichess(self) -> bool:
        return self.online is not None and self.online.active

    def undo(self) -> None:
        if self._lichess():
            self.online.propose_takeback()
        elif self._deploying():
            self.dungeon.undo()  # the last unit placed
        else:
            self.play.undo()

    def offer_draw(self) -> None:
        if self._lichess():
            self.online.offer_draw()
        else:
            self.play.offer_draw()

    def resign(self) -> None:
        if self._lichess():
            self.online.resign()
        else:
            self.play.resign()

    def info(self) -> None:
        self.board.toggle_info_mode()

    def menu(self) -> None:
        self.game_menu.open()

    def action(self) -> None:
        """The game's own slot: cast a hex, bring back a question put aside, answer the game's
        question (skip a king-turn), the clock, or the game's card."""
        kind = self.view().action
        if kind == "abort":
            self.online.abort()
        elif kind == "claim":
            self.online.claim_victory()
        elif kind.startswith("answer:"):
            self.play.answer_question(kind[len("answer:"):])
        elif kind == "card" and self.game.session is not None:
            self.display.show_card(self.game.extras.card(self.game.session))
        elif kind == "hex":
            self.play.open_screen_moves()
        elif kind == "question":
            self.play.reopen_question()
        elif kind == "clock":
            self.clock.toggle_view()

    def _lichess_view(self, info: bool) -> GameBarView:
        return _lichess_bar(self.online, info)

    def _deploying(self) -> bool:
        prep = self.dungeon.prep
        return self.game.session is None and prep is not None and prep.deployment is not None

    def view(self) -> GameBarView:
        """On the game screens everything that can be done now; on the set-up and deployment
        screens the same bar with Undo (the last unit placed), Info and Menu."""
        s = self.game.session
        info = self.board.info_mode
        if self._deploying():
            return GameBarView(bool(self.dungeon.prep.deployment.placed), False, False, info, "", "")
        if s is None or self.display.screen != "game":
            return GameBarView(False, False, False, info, "", "")
        if self._lichess():
            return self._lichess_view(info)
        live = not s.is_over and s.pos.pending is None
        out = s.pos.var("out", ())
        people_in = any(not seat.computer and i not in out for i, seat in enumerate(s.seats))
        action, label = "", ""
        if self.play.parked is not None:
            action, label = "question", T.OPEN_QUESTION
        elif self.play.screen_moves.options and not s.is_over and self.display.prompt is None:
            action, label = "hex", T.HEX_BUTTON
        elif self.play.question() is not None:  # the game's question (Chess 2: skip the king-turn)
            option, label = self.play.question().buttons[0]
            action = f"answer:{option}"
        elif self.game.table is not None and self.game.table.clock is not None:
            action, label = "clock", T.SHOW_CLOCK
        elif self.game.extras.card(s) is not None:  # the game's card (Chess 2's stones)
            action, label = "card", self.game.extras.card(s).label
        tournament = self.game.table is not None and self.game.table.tournament
        can_draw = live and s.draw_offer is None and len(s.seats) == 2 and not tournament
        return GameBarView(
            self.game.can_undo() and not tournament, can_draw,
            not s.is_over and people_in and (len(s.seats) == 2 or s.pos.pending is None), info, action, label)


def _lichess_bar(online, info: bool) -> GameBarView:
    """A lichess game: Undo asks lichess for a takeback, Draw? offers one, Resign resigns there;
    the game's slot aborts (before both have moved) or claims the win (the opponent left)."""
    from .. import online_texts as W

    m = online.machine
    live = online.live and online.online.is_connected()  # what lichess is asked waits for the link
    action, label = "", ""
    if live and m.can_claim_victory(online.clock_ms()):
        action, label = "claim", W.CLAIM
    elif live and m.can_abort():
        action, label = "abort", W.ABORT
    return GameBarView(live and bool(m.local_moves), live, live, info, action, label)
