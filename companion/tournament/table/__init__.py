"""A game at the table: the session, the chess clock, the FIDE procedures and the arbiter.

:class:`Table` wraps a :class:`companion.session.Session` the way the session wraps the rules:
every change is an *entry* written to the journal before it takes effect, and replaying the
journal rebuilds the table exactly. The journal of a game at the table is the session's
(start entry first) with a ``table`` entry second (:class:`TableSetup`: casual or tournament,
the time control, the event, round, board and ratings), then session actions and table
entries in the order they happened.

Every table entry carries ``spent``: how long the side whose clock runs had been thinking on
this move when it happened (null while no clock counts). Timestamps never reach the journal
(the monotonic clock starts again after a power cut); replaying the ``spent`` values gives the
clock back to the millisecond.

Modes:

* **casual**: the session plays the moves the tracker sees. The clock (optional) is pressed by
  tapping it, or presses itself when the tracker has seen a complete legal move
  (``auto_press``: the move and the press are one entry).
* **tournament** (FIDE chess and Combat Chess; Chess 2 joins through
  :data:`TOURNAMENT_GAMES`): the board gives no help (companion.tournament.quiet), the move is
  judged when the clock is pressed, an illegal move is penalised, threefold repetition and
  fifty moves are claimed, a draw offer is recorded and accepted by both players tapping the
  same result, and there is no computer and no undo except the arbiter's.

The FIDE article for each procedure is in docs/tournament.md.

The rooms, each readable on its own (docs/architecture.md, "The table's rooms"):

===================  ==========================================================================
``setup.py``         :class:`TableSetup` (mode, time control, the event's tags), its checks,
                     the strict reading of table entries
``events.py``        what the table tells the screen; the record's values (PlyClock, Note, ...)
``state.py``         :class:`TableState`: what the table knows, the record its rooms share
``timing.py``        the clock: start, presses (the board judged), pauses, flags, power cuts,
                     following what the session does
``claims.py``        claims and penalties: draw offers, agreed results, draw claims,
                     resignations, illegal moves
``arbiter_desk.py``  the arbiter's actions
``table.py``         the :class:`Table` façade: the journal, each entry to its room
===================  ==========================================================================
"""

from .arbiter_desk import ARBITER_OPS, ARBITER_RESULTS
from .events import (ArbiterActed, ClaimJudged, DrawOfferMade, IllegalMoveCaught, Note, Penalty, PlyClock,
                     PowerRestored, PressNeedsChoice, ResultTapped)
from .setup import MODES, RESULT_CODES, TOURNAMENT_GAMES, TableSetup, check_setup
from .state import TableState
from .table import SHARED_TYPES, TABLE_TYPES, Table

__all__ = ["Table", "TableSetup", "TableState", "PressNeedsChoice", "IllegalMoveCaught", "ClaimJudged",
           "DrawOfferMade", "ResultTapped", "ArbiterActed", "PowerRestored", "PlyClock", "Note", "Penalty", "MODES",
           "TOURNAMENT_GAMES", "RESULT_CODES", "ARBITER_RESULTS", "ARBITER_OPS", "SHARED_TYPES", "TABLE_TYPES",
           "check_setup"]
