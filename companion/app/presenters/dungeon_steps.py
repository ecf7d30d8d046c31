"""Setting up a Dungeon Chess game in the app: the armies drafted seat by seat, who moves
first (a "random" seat drawn at the edge), the deployment followed on the board; when every
unit stands, the game starts from the deployed position (journaled like any game).

:class:`DungeonSteps` is part of companion.app.presenters.flow.AppFlow (a mixin: the screens'
presenters call these methods on the flow; they use its ``prep``, ``prompt``, ``notice``,
``screen``, board and LED state). The state itself is a DungeonPrep (dungeon_prep.py).
"""

from __future__ import annotations

from ...board.deployment import DeploymentCompleted
from ...board.tracker import GuidanceChanged, IllegalMoveShown, InSync, LedsChanged, OutOfSync
from ...errors import CompanionError
from ...session import Seat
from .. import texts as T
from .dungeon_prep import DungeonPrep
from .questions import Prompt, PromptOption


class DungeonSteps:
    def begin_dungeon(self, board_map: str, seats: tuple[Seat, ...], draw_rules: bool = False) -> None:
        """From the start screen: draft the armies for ``board_map`` (one seat after another;
        fewer seats than the map has: the map's seating for that many) with or without the
        optional draw rules."""
        self._stop_thinking()
        self._close_game()
        try:
            prep = DungeonPrep(board_map, tuple(seats), draw_rules=draw_rules)
            self._use_board_for("dungeon", board_map)
        except CompanionError as e:
            self.resume_problem = str(e)
            self.screen = "start"
            self.changed()
            return
        self.resume_problem = ""
        self.prep = prep
        self.screen = "draft"
        self.changed()

    def draft_next(self) -> None:
        """The army on screen is ready: the next seat's, or after the last one, who starts."""
        prep = self.prep
        if prep is None:
            return
        try:
            more = prep.next_seat()
        except CompanionError as e:
            self.notice = str(e)
            self.changed()
            return
        self.notice = ""
        if not more:
            self.prompt = Prompt("turn-order", T.WHO_STARTS, tuple(
                PromptOption(key, label) for key, label in self._turn_order_labels()))
        self.changed()

    def draft_back(self) -> None:
        prep = self.prep
        if prep is None:
            return
        if not prep.previous_seat():
            self.go_to_start()
            return
        self.notice = ""
        self.changed()

    def _turn_order_labels(self) -> list[tuple[str, str]]:
        prep = self.prep
        you = prep.you
        after = (you + 1) % prep.nplayers
        return [("first", T.STARTS_FIRST.format(name=prep.seats[you].name)),
                ("second", T.STARTS_FIRST.format(name=prep.seats[after].name)),
                ("random", T.STARTS_RANDOM)]

    def choose_first(self, choice: str) -> None:
        """Turn order chosen (a "random" seat is drawn here, at the edge): deploy the armies."""
        prep = self.prep
        if prep is None:
            return
        try:
            drawn = self.draw_seat(prep.nplayers) if choice == "random" else None
            first = prep.choose_first(choice, drawn)
            outputs = prep.begin_deployment(self.make_deploy_guide, self.sensed, self.clock_ms())
        except CompanionError as e:
            self.notice = str(e)
            self.changed()
            return
        self.meanings, self.guidance, self.in_sync = {}, "", True
        template = T.FIRST_DRAWN if choice == "random" else T.FIRST_CHOSEN
        self.notice = template.format(name=prep.seats[first].name)
        self.screen = "deploy"
        self._handle_deploy(outputs)
        self.board.sensors.request_snapshot()
        self.changed()

    def deploy_undo(self) -> None:
        if self.prep is not None and self.prep.guide is not None:
            self._handle_deploy(self.prep.guide.undo())
            self.changed()

    def deploy_rest(self) -> None:
        """Place every unit still to place automatically; the board is then guided (the
        simulated board is simply set)."""
        prep = self.prep
        if prep is None or prep.guide is None:
            return
        try:
            prep.deployment.auto_rest()
        except CompanionError as e:
            self.notice = str(e)
            self.changed()
            return
        self._handle_deploy(prep.guide.deployment_changed())
        if self.board.simulated is not None:
            self.board.simulated.set_occupancy(prep.deployment.occupied(), self.clock_ms())
        self.changed()

    def deploy_back(self) -> None:
        """Back to the armies (the placements are dropped)."""
        if self.prep is None:
            return
        self.prep.end_deployment()
        self.meanings, self.guidance, self.in_sync = {}, "", True
        self.notice = ""
        self.screen = "draft"
        self.changed()

    def _handle_deploy(self, outputs: list) -> None:
        done = False
        for ev in outputs:
            if isinstance(ev, LedsChanged):
                self.meanings = dict(ev.meanings)
            elif isinstance(ev, (GuidanceChanged, IllegalMoveShown)):
                self.guidance = ev.text
            elif isinstance(ev, OutOfSync):
                self.in_sync = False
            elif isinstance(ev, InSync):
                self.in_sync = True
            elif isinstance(ev, DeploymentCompleted):
                done = True
        if outputs:
            self.changed()
        if done:
            self._start_deployed_game()

    def _start_deployed_game(self) -> None:
        """Every unit stands: the game starts from the deployed position (journaled)."""
        prep = self.prep
        start = prep.start_position()
        notice = self.notice
        self.new_game("dungeon", prep.seats, start=start, board_map=prep.board_map, draw_rules=prep.draw_rules)
        if self.session is not None:
            self.notice = notice
