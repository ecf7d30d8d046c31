"""One game from the first move to the result: rules, position, players, dice, the board.

The session is the app's single owner of the game. Everything that changes the game is an
*action*, a small value (:class:`PlayMove`, :class:`PlayAnswer`, :class:`PlayPart`,
:class:`Roll`, :class:`Undo`, :class:`Resign`, :class:`OfferDraw`, :class:`AnswerDraw`,
:class:`Adjudicate`, :class:`SetPosition`), and every action goes the same way:

1. it is checked (an illegal move or an impossible die is refused, nothing is written);
2. it is handed to the ``recorder`` (the crash-safe journal, companion.journal) *before* it
   takes effect, so a power cut never loses an action that the players saw happen;
3. it is applied, and the session returns what happened as event values (``MovePlayed``,
   ``FightStarted``, ``DiceRolled``, ``FightEnded``, ``GameOver``, ...) for the presenters.

Replaying the journal's actions through :meth:`Session.replay` therefore rebuilds the game
exactly, fatigue and dice record included. Randomness never happens inside an action: the
faces of a virtual roll are drawn first (by the dice source, at the edge) and the action
carries them. No clock, no threads, no I/O here.

The rooms, each readable on its own (docs/architecture.md, "The session's rooms"):

==================  ===========================================================================
``setup.py``        the game's set-up (:class:`GameSetup`, :class:`Seat`) and its rules
``actions.py``      the actions, as values and as journal entries; the start entry
``events.py``       what the presenters are told (``MovePlayed``, ``GameOver``, ...)
``fields.py``       strict reading of the journal's JSON (the table's entries use it too)
``state.py``        :class:`GameState`: the game as it stands, the record the rooms share
``pieces.py``       the pieces seen this game (captured lists, a fight's opponents)
``playing.py``      moves, answers, takebacks, resignations, draw offers, the end
``fights.py``       Combat Chess's fights: dice source, dice record, rolls
``duels.py``        joint decisions (Chess 2's bids): parts sealed until every part is in
``corrections.py``  an arbiter's :class:`SetPosition`
``replaying.py``    replaying a journal; the game kept as journal entries (its text)
``board.py``        the tracker: sensor events in, detected moves played, outputs passed on
``session.py``      the :class:`Session` façade: orders each action through the rooms
==================  ===========================================================================
"""

from .actions import (Action, Adjudicate, AnswerDraw, OfferDraw, PlayAnswer, PlayMove, PlayPart, Resign, Roll,
                      SetPosition, Undo, action_from_json, action_to_json, start_from_json, start_to_json)
from .events import (ActionRefused, AnswerPlayed, DiceRolled, DrawDeclined, DrawOffered, FightEnded, FighterInfo,
                     FightInfo, FightStarted, GameOver, GameResult, GameStarted, MoveEntry, MovePlayed, PartSealed,
                     PlayerResigned, PositionSet, TurnsUndone)
from .fields import JsonFields
from .fights import default_source, record_options
from .playing import RESIGNS, computer_accepts_draw, material
from .session import Session
from .setup import (BID_MODES, COLOURS, DICE_MODES, FIGHTS_OPTION, GAME_OPTIONS, GAMES_WITH_BIDS, GAMES_WITH_DICE,
                    GAMES_WITH_DRAW_OPTION, MAX_TIES, OPTION_VALUES, PLAYER_COUNTS, SOURCE_OF_MODE, GameSetup, Seat,
                    STOCKFISH_BASE, game_options, has_dice_fights, level_from_key, level_key, rules_for,
                    stockfish_elo)
from .state import DECIDED_RESULTS, GameState, move_words, unit_move_text

__all__ = [
    "Action", "ActionRefused", "Adjudicate", "AnswerDraw", "AnswerPlayed", "BID_MODES", "COLOURS", "DECIDED_RESULTS",
    "DICE_MODES", "DiceRolled", "FIGHTS_OPTION", "DrawDeclined", "DrawOffered", "FightEnded", "FighterInfo", "FightInfo",
    "FightStarted", "GAME_OPTIONS", "GAMES_WITH_BIDS", "GAMES_WITH_DICE", "GAMES_WITH_DRAW_OPTION", "GameOver",
    "GameResult", "GameSetup", "GameStarted", "GameState", "JsonFields", "MAX_TIES", "MoveEntry", "MovePlayed",
    "OfferDraw", "PartSealed", "PLAYER_COUNTS", "PlayAnswer", "PlayMove", "PlayPart", "PlayerResigned",
    "PositionSet", "RESIGNS", "Resign", "Roll", "SOURCE_OF_MODE", "STOCKFISH_BASE", "Seat", "Session", "SetPosition", "TurnsUndone",
    "Undo", "OPTION_VALUES", "action_from_json", "action_to_json", "computer_accepts_draw", "default_source", "game_options",
    "has_dice_fights", "level_from_key", "level_key", "material", "record_options", "rules_for", "stockfish_elo",
    "start_from_json", "start_to_json", "unit_move_text", "move_words",
]
