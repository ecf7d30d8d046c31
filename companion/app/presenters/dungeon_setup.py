"""Setting up a Dungeon Chess game in the app: the armies drafted seat by seat, who moves
first (a "random" seat drawn at the edge), the deployment followed on the board; when every
unit stands, the game starts from the deployed position (the NewGame command: journaled like
any game).

:class:`DungeonSetup` owns the game being set up (a DungeonPrep, dungeon_prep.py) until it
starts; the board's events feed its deployment guide meanwhile.
"""

from __future__ import annotations

from typing import Callable

from ...board.deployment import DeploymentCompleted, PlacementUndone, UnitPlaced
from ...errors import CompanionError
from .. import link_texts as L
from .. import texts as T
from .board_link import BoardRoom
from .display import Display
from .dungeon_prep import DungeonPrep
from .messages import (Bus, DraftDungeon, DraftLinkedDungeon, LeaveGame, LinkedDraftChanged, LinkedDraftEnded, NewGame,
                       UseBoardFor)
from .questions import Prompt, PromptOption


class DungeonSetup:
    def __init__(self, display: Display, board: BoardRoom, bus: Bus, *, draw: Callable[[int], int],
                 make_deploy_guide: Callable, clock_ms: Callable[[], int]) -> None:
        self.display = display
        self.board = board
        self.bus = bus
        self.draw = draw  # n -> 0..n-1: a "random" first seat, drawn at the edge
        self.make_deploy_guide = make_deploy_guide
        self.clock_ms = clock_ms
        self.prep: DungeonPrep | None = None  # a Dungeon Chess game being drafted and deployed

    def drop(self, _event=None) -> None:
        """A game opened or closed: nothing is being set up any more."""
        self.prep = None

    @property
    def deploying(self) -> bool:
        return self.prep is not None and self.prep.guide is not None

    def begin(self, c: DraftDungeon) -> None:
        """The DraftDungeon command (from the start screen): draft the armies for the map (one
        seat after another; fewer seats than the map has: the map's seating for that many) with
        or without the optional draw rules."""
        self.bus.handle(LeaveGame(leave_match=False))
        try:
            prep = DungeonPrep(c.board_map, tuple(c.seats), draw_rules=c.draw_rules, dice=c.dice, d6_only=c.d6_only,
                               options=c.options)
            self.bus.handle(UseBoardFor("dungeon", c.board_map))
        except CompanionError as e:
            self.display.start_problem = str(e)
            self.display.show("start")
            return
        self.display.start_problem = ""
        self.prep = prep
        self.display.show("draft")

    def begin_linked(self, c: DraftLinkedDungeon) -> None:
        """The DraftLinkedDungeon command (a linked game, link_room.py): the same draft and
        deployment screens for this board's seats only; no game is put away (the link's game
        has not started) and who starts is the proposal's. Ends with LinkedDraftEnded; every
        change is published (LinkedDraftChanged) to be kept. With ``c.progress`` (kept before
        a power cut) the draft is taken up where it was: DraftError, changing nothing, when it
        cannot be."""
        try:
            prep = DungeonPrep(c.rules.board_map.name, tuple(c.seats), rules=c.rules, here=c.here)
        except CompanionError as e:
            self.display.notice = str(e)
            self.bus.publish(LinkedDraftEnded(None))
            return
        placed = prep.restore(c.progress) if c.progress is not None else None
        if placed is not None:
            outputs = prep.begin_deployment(self.make_deploy_guide, self.board.sensed, self.clock_ms(), placed)
        self.display.notice = ""
        self.prep = prep
        if placed is None:
            self.display.show("draft")
            return
        self.board.reset_guide()
        self.display.notice = L.LINK_PLACE_YOURS
        self.display.screen = "deploy"
        self._guided(outputs)
        if prep.deployment.done and self.prep is prep:  # placed whole before the power went: sealed now
            self._start_deployed_game()
            return
        self.board.request_snapshot()  # the pieces on the table say which placements still stand
        self.display.changed()

    def kept(self) -> None:
        """A linked draft changed: published, to be kept (link_room.py)."""
        if self.prep is not None and self.prep.here is not None:
            self.bus.publish(LinkedDraftChanged(self.prep.progress()))

    @property
    def linked(self) -> bool:
        return self.prep is not None and self.prep.here is not None

    def draft_next(self) -> None:
        """The army on screen is ready: the next seat's, or after the last one, who starts."""
        prep = self.prep
        if prep is None:
            return
        try:
            more = prep.next_seat()
        except CompanionError as e:
            self.display.notice = str(e)
            self.display.changed()
            return
        self.display.notice = ""
        if not more and prep.here is not None:
            self._deploy(L.LINK_PLACE_YOURS)
            return
        self.kept()
        if not more:
            self.display.prompt = Prompt("turn-order", T.WHO_STARTS, tuple(
                PromptOption(key, label) for key, label in self._turn_order_labels()))
        self.display.changed()

    def draft_back(self) -> None:
        prep = self.prep
        if prep is None:
            return
        if not prep.previous_seat():
            if prep.here is not None:  # a linked game: back to the choice of armies
                self.prep = None
                self.bus.publish(LinkedDraftEnded(None))
            else:
                self.bus.handle(LeaveGame())
            return
        self.display.notice = ""
        self.kept()
        self.display.changed()

    def _turn_order_labels(self) -> list[tuple[str, str]]:
        prep = self.prep
        you = prep.you
        after = (you + 1) % prep.nplayers
        return [("first", T.STARTS_FIRST.format(name=prep.seats[you].name)),
                ("second", T.STARTS_FIRST.format(name=prep.seats[after].name)),
                ("random", T.STARTS_RANDOM)]

    def answer(self, prompt: Prompt, key: str | None) -> None:
        """Display.answers_to: who starts."""
        if key is not None:
            self.choose_first(key)

    def choose_first(self, choice: str) -> None:
        """Turn order chosen (a "random" seat is drawn here, at the edge): deploy the armies."""
        prep = self.prep
        if prep is None:
            return
        try:
            drawn = self.draw(prep.nplayers) if choice == "random" else None
            first = prep.choose_first(choice, drawn)
        except CompanionError as e:
            self.display.notice = str(e)
            self.display.changed()
            return
        template = T.FIRST_DRAWN if choice == "random" else T.FIRST_CHOSEN
        self._deploy(template.format(name=prep.seats[first].name))

    def _deploy(self, notice: str) -> None:
        """The armies are drafted: place them on the board, the deployment guide following it."""
        prep = self.prep
        try:
            outputs = prep.begin_deployment(self.make_deploy_guide, self.board.sensed, self.clock_ms())
        except CompanionError as e:
            self.display.notice = str(e)
            self.display.changed()
            return
        self.board.reset_guide()
        self.display.notice = notice
        self.display.screen = "deploy"
        self._guided(outputs)
        self.kept()
        self.board.request_snapshot()
        self.display.changed()

    def undo(self) -> None:
        if self.deploying:
            self._guided(self.prep.guide.undo())
            self.kept()
            self.display.changed()

    def place_rest(self) -> None:
        """Place every unit still to place automatically; the board is then guided (the
        simulated board is simply set)."""
        prep = self.prep
        if prep is None or prep.guide is None:
            return
        try:
            prep.deployment.auto_rest()
        except CompanionError as e:
            self.display.notice = str(e)
            self.display.changed()
            return
        self._guided(prep.guide.deployment_changed())
        self.kept()
        self.board.set_simulated(prep.deployment.occupied())
        self.display.changed()

    def back(self) -> None:
        """Back to the armies (the placements are dropped)."""
        if self.prep is None:
            return
        self.prep.end_deployment()
        self.board.reset_guide()
        self.display.notice = ""
        self.kept()
        self.display.show("draft")

    # ----- the board, while deploying -------------------------------------------------------------
    def feed_board(self, event) -> None:
        if self.deploying:
            self._guided(self.prep.guide.feed(event))

    def tick(self, t_ms: int) -> None:
        if self.deploying:
            self._guided(self.prep.guide.tick(t_ms))

    def _guided(self, outputs: list) -> None:
        done = False
        for ev in outputs:
            if isinstance(ev, DeploymentCompleted):
                done = True
            else:
                self.board.guide(ev)
        if outputs:
            self.display.changed()
        if done:
            self._start_deployed_game()
        elif any(isinstance(ev, (UnitPlaced, PlacementUndone)) for ev in outputs):
            self.kept()

    def _start_deployed_game(self) -> None:
        """Every unit stands: the game starts from the deployed position (journaled)."""
        prep = self.prep
        if prep.here is not None:  # a linked game: the link seals them (link_room.py)
            placed = prep.placed_here()
            self.prep = None
            self.board.reset_guide()
            self.bus.publish(LinkedDraftEnded(placed))
            return
        notice = self.display.notice
        if self.bus.handle(NewGame("dungeon", prep.seats, prep.dice, prep.d6_only, start=prep.start_position(),
                                   board_map=prep.board_map, draw_rules=prep.draw_rules,
                                   options=prep.options)):  # (else the start screen says why not)
            self.display.notice = notice
