"""Fights by the board alone (docs/speech.md): with speech on, a fight with the app's dice rolls
by itself once the board has said it, and the game goes on by itself once its end has been
said, so a player who does not look at the screen never waits for a tap.

The "Roll the dice" and "Continue" buttons stay for whoever is quicker. Real dice typed on the
pad are never rolled for the players, and a tournament game is never spoken (SpeechRoom), so
nothing happens by itself there. Time comes from :meth:`HandsFree.tick` (the app's frame).
"""

from __future__ import annotations

from typing import Callable

from ...speech.announcements import SpeechSettings
from .play import Play

#: Time to say a fight ("Fight on d5: the white pawn against the black pawn. Roll the dice.")
#: or a tie's dice before the next roll, and a fight's end before the game goes on (espeak-ng
#: says about 14 characters a second at its default speed).
SAY_FIGHT_MS = 4000
SAY_END_MS = 4500


class HandsFree:
    def __init__(self, play: Play, speech: Callable[[], SpeechSettings]) -> None:
        """``speech``: the speech settings of the open game (off in a tournament game)."""
        self.play = play
        self.speech = speech
        self._waiting: tuple | None = None  # (what waits: the fight, its rounds, "roll"/"end"), since when
        self._since = 0

    def tick(self, t_ms: int) -> None:
        fight = self.play.fight
        if fight is None or fight.rolling or not self.speech().on or self.play.session.setup.dice == "entered":
            self._waiting = None
            return
        waiting = (id(fight), len(fight.rounds), "end" if fight.ended is not None else "roll")
        if waiting != self._waiting:
            self._waiting, self._since = waiting, t_ms
            return
        if t_ms - self._since < (SAY_END_MS if waiting[2] == "end" else SAY_FIGHT_MS):
            return
        self._waiting = None
        if waiting[2] == "roll":
            self.play.roll()
        else:
            self.play.fight_continue()


__all__ = ["HandsFree", "SAY_FIGHT_MS", "SAY_END_MS"]
