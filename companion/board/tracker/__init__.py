"""Move inference from an occupancy-only board, LED guidance and board/game reconciliation.

The board senses *occupancy* (a reed switch per square); it cannot tell a queen from a pawn.
The tracker knows identities because it follows the game: it compares what the switches say
with the occupancy each legal move would leave, and lights the way.

It is *sans-I/O* (the h11 shape): no clock, no threads, no hardware. Sensor events carry their
time; :meth:`Tracker.tick` says that time passed; every call returns the outputs it caused
(frozen dataclasses, past tense). It never changes the game: it reports :class:`MoveDetected`
and the session applies the move with ``rules.play`` and calls :meth:`Tracker.position_changed`.

The rooms, each readable on its own (docs/tracker.md has the long version):

==================  ===========================================================================
``outputs.py``      the values the tracker reports (``MoveDetected``, ``LedsChanged``, ...)
``forms.py``        what each action the game allows does to the occupancy: the physical forms
                    (hand and full form, optional squares, answers, screen moves), settle kinds
``state.py``        what the tracker knows now, in one record the rooms share; the sensing
``reading.py``      inference: matching lifted/placed squares against the forms, settle timing,
                    fast play, wrong placements, handing the action to the session
``prompts.py``      questions for the screen (promotion, which move, a pending choice, a pass)
``correction.py``   guiding the board back to the game after a change it does not show yet
``pairing.py``      pairing pieces with squares (the Hungarian method) and saying it
``setup.py``        guiding any board to the start position
``views.py``        the LED meanings and words for the state the tracker is in
``words.py``        how squares, players, pieces and moves are named
``effects.py``      the reason for a change, from the effects a game records
``tracker.py``      the :class:`Tracker` façade the session uses
==================  ===========================================================================

Where a new game plugs in: nowhere here. The tracker learns every game's moves from the
engine (``legal_moves``, ``expected_occupancy``, ``occupancy_after``, playing a move and taking
it back for games that record effects, ``answers`` for a pending choice); docs/tracker.md
("A new game's effects") walks through an example.
"""

from .forms import PhysicalMove
from .outputs import (Action, AnswerDetected, GuidanceChanged, IllegalMoveShown, InSync, LedsChanged, Look,
                      MoveDetected, Output, OutOfSync, PromptRequested, PromptWithdrawn, ScreenMovesChanged,
                      SetupCompleted)
from .pairing import assign_pairs
from .tracker import Tracker

__all__ = [
    "Action", "AnswerDetected", "GuidanceChanged", "IllegalMoveShown", "InSync", "LedsChanged", "Look",
    "MoveDetected", "Output", "OutOfSync", "PhysicalMove", "PromptRequested", "PromptWithdrawn",
    "ScreenMovesChanged", "SetupCompleted", "Tracker", "assign_pairs",
]
