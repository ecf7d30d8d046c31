"""A game that is chosen before it starts (Chess 2's armies) and a match of several games: the
army choice, the match kept on the disk, its score after each game, the next game, leaving it.

:class:`MatchRoom` owns the match and the army choice on screen. A match survives a power cut:
``match.json`` (companion/match.py) holds the players, every game's id, colours, armies and
result. The game being played is the journal's, as always; when the app starts again it replays
the game (its match is the one whose current game has that id), or, if no game was being played
(NothingToResume), opens the army choice of the next game. A finished game's result goes into
the match (GameFinished) before the game is filed, and again (the same) if a power cut came in
between. Its games are started with the NewGame command.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Callable

from ...errors import CompanionError
from ...games.chess2_armies import ARMIES
from ...match import Match, MatchStore
from .. import texts as T
from .armies import ARMY_ORDER, ArmyChoice
from .display import Display
from .extras import extras_for
from .game_room import GameRoom
from .messages import Bus, ChooseArmies, GameClosed, GameFinished, LeaveGame, NewGame


class MatchRoom:
    def __init__(self, display: Display, game: GameRoom, bus: Bus, store: MatchStore, *,
                 draw: Callable[[int], int], new_game_id: Callable[[], str]) -> None:
        self.display = display
        self.game = game
        self.bus = bus
        self.store = store
        self.draw = draw  # n -> 0..n-1: a computer's secret army, drawn at the edge
        self.new_game_id = new_game_id
        self.match: Match | None = None
        self.army_choice: ArmyChoice | None = None
        self._single: tuple | None = None  # (game, seats white first, bids, table) of a single game

    # ----- from the start screen ------------------------------------------------------------------
    def begin(self, c: ChooseArmies) -> None:
        """The ChooseArmies command: a game whose armies are chosen first (Chess 2), or a match
        of ``games`` games; each at ``table`` (its clock), as chosen on the start screen."""
        game, seats, games, bids, table = c.game, c.seats, c.games, c.bids, c.table
        self.bus.handle(LeaveGame())
        self.display.start_problem = ""
        if games > 1:
            try:
                match = Match(self.new_game_id(), game, (seats[0], seats[1]), games, bids, table=table)
                self.store.save(match)
            except (OSError, CompanionError) as e:
                self.display.start_problem = T.CANNOT_SAVE.format(reason=getattr(e, "strerror", None) or e)
                self.display.show("start")
                return
            self.match = match
            self._open_choice()
        else:
            self._single = (game, tuple(seats), bids, table)
            self.army_choice = self._new_choice(seats, (0, 1), {})
            self.display.screen = extras_for(game).before_game or "start"
        self.display.changed()

    def player(self, colour: int) -> int:
        """The match player who plays ``colour`` in the game being chosen or played."""
        m = self.match
        if m is None:
            return colour
        white = m.current.white if m.current is not None else m.next_white
        return white if colour == 0 else 1 - white

    def _open_choice(self) -> None:
        m = self.match
        white = m.next_white
        seats = m.seats_for(white)
        colour_of = {white: 0, 1 - white: 1}
        choosers = tuple(colour_of[p] for p in (white, 1 - white) if m.may_choose(p))
        kept = {colour_of[p]: m.last_choice(p) for p in (0, 1) if not m.may_choose(p)}
        self.army_choice = self._new_choice(seats, choosers, kept)
        if not self.army_choice.hidden:  # the loser may switch: their army so far is offered
            current = self.army_choice.current
            last = m.last_choice(self.player(current)) if current is not None else ""
            if last and current is not None and not self.army_choice.computers[current]:
                self.army_choice.selected = last
        self.display.screen = extras_for(m.game).before_game or "start"

    def _new_choice(self, seats, choosers: tuple[int, ...], kept: dict[int, str]) -> ArmyChoice:
        """The choice for the next game; a computer chooses at once, in secret (drawn here, at the
        edge)."""
        computers = (seats[0].computer, seats[1].computer)
        choice = ArmyChoice((seats[0].name, seats[1].name), computers, choosers, dict(kept))
        for c in choosers:
            if computers[c]:
                choice.chosen[c] = ARMY_ORDER[self.draw(len(ARMY_ORDER))]
        if choice.complete and not choice.hidden:
            choice.revealed = True
        return choice

    def start_chosen(self) -> None:
        """The armies are revealed: the game starts (and, in a match, is its next game)."""
        choice = self.army_choice
        if choice is None or choice.armies() is None:
            return
        white_army, black_army = choice.armies()
        options = {"armies": f"{white_army},{black_army}"}
        if self.match is not None:
            m = self.match
            white = m.next_white
            game_id = self.new_game_id()
            by_player = {white: white_army, 1 - white: black_army}
            try:
                updated = m.with_game(game_id, white, (by_player[0], by_player[1]))
                self.store.save(updated)
            except (OSError, CompanionError) as e:
                self.display.notice = T.CANNOT_SAVE.format(reason=getattr(e, "strerror", None) or e)
                self.display.changed()
                return
            self.match = updated
            self.army_choice = None
            self.bus.handle(NewGame(m.game, m.seats_for(white), table=m.table, options=options, bids=m.bids,
                                    game_id=game_id))
            return
        game, seats, bids, table = self._single
        self.army_choice = None
        self.bus.handle(NewGame(game, seats, table=table, options=options, bids=bids))

    # ----- after a game ---------------------------------------------------------------------------
    def scored(self, event: GameFinished) -> None:
        """A game ended: if it is the match's current game, its result goes into the match."""
        session = event.session
        m = self.match
        if m is None or m.current is None or m.current.game_id != session.setup.game_id or session.result is None:
            return
        try:
            updated = m.with_result(session.setup.game_id, session.result.winners)
            self.store.save(updated)
        except (OSError, CompanionError) as e:
            self.display.notice = T.CANNOT_SAVE.format(reason=getattr(e, "strerror", None) or e)
            return
        self.match = updated

    def reopened(self, _event=None) -> None:
        """The move that ended a match game was taken back: the game is on again."""
        m = self.match
        s = self.game.session
        if m is None or s is None or not m.games or m.games[-1].game_id != s.setup.game_id or m.current is not None:
            return
        games = m.games[:-1] + (replace(m.games[-1], result=None),)
        updated = replace(m, games=games)
        try:
            self.store.save(updated)
        except OSError as e:
            self.display.notice = T.CANNOT_SAVE.format(reason=e.strerror or e)
            return
        self.match = updated

    def next_game(self) -> None:
        """From the game over screen: the next game of the match (its army choice)."""
        m = self.match
        if m is None or m.is_over or m.current is not None:
            return
        self.bus.handle(LeaveGame(leave_match=False))
        self._open_choice()
        self.display.changed()

    def leave(self) -> None:
        """Stop the match (it is filed under games/ as it stands) and go to the start screen."""
        self.bus.handle(LeaveGame())

    def game_closed(self, event: GameClosed) -> None:
        if event.left_match:
            self.leave_quietly()

    def leave_quietly(self) -> None:
        if self.match is not None:
            try:
                self.store.archive(self.match)
            except OSError as e:
                self.display.start_problem = T.CANNOT_SAVE.format(reason=e.strerror or e)
        self.match = None
        self.army_choice = None

    # ----- after a restart --------------------------------------------------------------------------
    def load(self) -> None:
        try:
            self.match = self.store.load()
        except CompanionError as e:  # damaged: set aside (the games themselves are safe)
            self.match = None
            try:
                self.store.set_aside()
            except OSError:
                pass
            self.display.start_problem = T.MATCH_DAMAGED.format(reason=e)

    def resume(self, _event=None) -> None:
        """NothingToResume: a match in progress opens its next army choice; a finished one is
        filed."""
        if self.match is None:
            self.load()
        m = self.match
        if m is None:
            return
        s = self.game.session
        if m.current is not None and (s is None or s.setup.game_id != m.current.game_id):
            # its game never got a journal (a power cut in between): choose its armies again
            m = m.without_current()
            try:
                self.store.save(m)
            except OSError:
                pass
            self.match = m
        if m.is_over:
            self.leave_quietly()
            return
        if self.game.session is None:
            self._open_choice()


__all__ = ["MatchRoom", "ARMIES"]
