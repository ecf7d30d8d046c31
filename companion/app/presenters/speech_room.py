"""Speech as a listener of the game (docs/speech.md): every event the game, the table, the
tracker and the board publish on the bus goes to the pure announcer
(companion.speech.announcer), and what it says goes to the voice, which speaks on its own
thread (companion.speech.espeak.Voice): nothing here waits for speech.

The wiring (flow.py) subscribes :meth:`SpeechRoom.heard` to those events, :meth:`settled` to
``PlaySettled`` (whose turn it is now), :meth:`opened` to ``GameOpened`` and calls
:meth:`tick` every frame (guidance that has stood, a piece held up, the clock's warnings). A
tournament game is never spoken (FIDE: no help from the board).
"""

from __future__ import annotations

from typing import Callable

from ...board_settings import BoardSettings
from ...i18n import current
from ...speech.announcements import SpeechSettings
from ...speech.announcer import Announcer, TurnView
from ...speech.moves import SpokenMove
from .game_room import GameRoom
from .preferences import Preferences


class SpeechRoom:
    def __init__(self, game: GameRoom, preferences: Preferences, voice, clock_ms: Callable[[], int]) -> None:
        self.game = game
        self.preferences = preferences
        self.voice = voice
        self.clock_ms = clock_ms
        self.announcer: Announcer | None = None
        self._language = None
        preferences.listeners.append(self._changed)
        voice.configure(self.settings())

    def settings(self) -> SpeechSettings:
        """The board's speech settings, off in a tournament game."""
        table = self.game.table
        if table is not None and getattr(getattr(table, "setup", None), "mode", "casual") == "tournament":
            return SpeechSettings(False, self.preferences.speech.volume, self.preferences.speech.moves_only)
        return self.preferences.speech

    def _changed(self, _settings: BoardSettings) -> None:
        self.voice.configure(self.settings())
        if self._language is not current():
            self.opened()

    # ----- the bus ---------------------------------------------------------------------------------------
    def opened(self, *_event) -> None:
        """A game was opened (or the language changed): a new announcer for it."""
        self.voice.configure(self.settings())
        s = self.game.session
        self._language = current()
        if s is None:
            self.announcer = None
            return
        board_map = getattr(s.rules, "board_map", None)
        colours = [board_map.seat(p + 1).colour for p in range(len(s.seats))] if board_map is not None \
            else ["white", "black"]
        self.announcer = Announcer(self._language, colours, s.rules, lambda: s.pos)

    def heard(self, event) -> None:
        if self.announcer is not None and self.settings().on:
            self.voice.say(self.announcer.hear([event], self.clock_ms()))

    def settled(self, *_event) -> None:
        s = self.game.session
        if self.announcer is None or s is None or not self.settings().on:
            return
        pending = s.pos.pending
        decision = pending.kind if pending is not None and not pending.chance else None
        if s.joint_decision() is not None:
            deciders = tuple(s.parts_missing())
        else:
            deciders = (pending.player,) if decision is not None and pending.player >= 0 else ()
        self.voice.say(self.announcer.turn(TurnView(s.turn, decision, deciders, s.is_over)))

    def computer_move(self, event) -> None:
        """The computer chose a move: said now (before a person makes it on the board)."""
        s = self.game.session
        if self.announcer is None or s is None or not self.settings().on:
            return
        move = event.move
        spoken = SpokenMove.from_rules(s.rules, s.pos, move)
        self.voice.say(self.announcer.computer_move(s.turn, spoken, move.frm, move.to))

    def tick(self, t_ms: int) -> None:
        if self.announcer is None or not self.settings().on:
            return
        said = self.announcer.tick(t_ms)
        table = self.game.table
        if table is not None and table.clock is not None and not table.is_over:
            view = table.clock.view(t_ms)
            said += self.announcer.clock(view.times, view.running if view.counting else None)
        if said:
            self.voice.say(said)


__all__ = ["SpeechRoom"]
