"""The :class:`Session`: one small façade over the session's rooms.

Every action goes the same way (the package docstring): checked by the room it belongs to,
handed to the ``recorder`` before it takes effect, applied by that room, then the board is told.
This module only orders that; the rooms do the work and own their state.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

from ..core.moves import Answer, Move
from ..errors import RecordError, VariantError
from ..i18n import _, pgettext
from .actions import (Action, Adjudicate, AnswerDraw, OfferDraw, PlayAnswer, PlayMove, PlayPart, Resign, Roll,
                      SetPosition, Undo, action_from_json, action_to_json, start_to_json)
from .board import BoardLink
from .corrections import Corrections
from .duels import SealedParts
from .events import FightInfo, GameStarted
from .fights import Fights
from .pieces import KnownPieces
from .playing import Playing, computer_accepts_draw
from .replaying import History, replay_journal
from .setup import GameSetup, Seat, rules_for
from .state import GameState


class Session:
    """A game in progress. Build it with :meth:`new` or :meth:`replay`.

    Its rooms, each given only what it uses: ``state`` (the game as it stands), ``known`` (the
    pieces seen), ``fights`` (dice source and record), ``duels`` (sealed parts of a joint
    decision), ``playing`` (moves, answers, takebacks, the end), ``corrections`` (an arbiter's
    SetPosition), ``kept`` (the game kept as journal entries), ``board`` (the tracker)."""

    def __init__(self, setup: GameSetup, *, rules=None, recorder: Callable[[dict], None] | None = None,
                 source=None) -> None:
        rules = rules or rules_for(setup)
        if len(setup.seats) != rules.nplayers:
            raise VariantError(_("{game} on this map is played by {nplayers} players; {n} seats were given").format(game=setup.game, nplayers=rules.nplayers, n=len(setup.seats)))
        pos = rules.position_from_text(setup.start) if setup.start else rules.start_position()
        self.state = GameState(setup, rules, pos)
        self.known = KnownPieces(rules, pos)
        self.fights = Fights(self.state, self.known, source)
        self.duels = SealedParts(self.state)
        self.playing = Playing(self.state, self.fights, self.known)
        self.corrections = Corrections(self.state, self.known)
        self.kept = History(len(setup.seats))
        self.board = BoardLink(self.play, self.play_answer)
        #: called with each action's JSON before it takes effect (the journal's append)
        self.recorder = recorder
        self.actions = 0

    # ----- construction -------------------------------------------------------------------------
    @classmethod
    def new(cls, setup: GameSetup, *, recorder: Callable[[dict], None] | None = None, source=None, rules=None):
        """A fresh game; the start entry goes to ``recorder`` first. Returns (session, events).
        ``rules``: the game's rules object when the caller builds it (a tournament's)."""
        if recorder is not None:
            recorder(start_to_json(setup))
        session = cls(setup, rules=rules, recorder=recorder, source=source)
        return session, [GameStarted(setup, setup.commitment)] + session.playing.check_end()

    @classmethod
    def replay(cls, entries: Sequence[dict], *, source=None,
               progress: Callable[[int, int], None] | None = None) -> tuple[Session, int, str | None]:
        """Rebuild a game from journal entries: ``(session, used, problem)`` (see
        companion.session.replaying.replay_journal). A review that keeps each position replays
        through companion.tournament.table.Table.replay's ``after``."""
        return replay_journal(lambda setup: cls(setup, source=source), entries, progress)

    def apply_entry(self, entry: dict, where: str | None = None) -> list:
        """Apply one journaled action while replaying (checked, not recorded again, no tracker):
        RecordError or IllegalMoveError say why it cannot be."""
        where = pgettext("where in a record", "journal entry") if where is None else where
        action = action_from_json(entry, where)
        self._check(action)
        return self._apply(action)

    # ----- the game as it stands (the rooms' state, read here) --------------------------------------
    setup = property(lambda self: self.state.setup)
    rules = property(lambda self: self.state.rules)
    pos = property(lambda self: self.state.pos)
    moves = property(lambda self: self.state.moves, doc="The move list: a MoveEntry per turn still on the board.")
    result = property(lambda self: self.state.result, doc="How the game ended (None while it goes on).")
    draw_offer = property(lambda self: self.state.draw_offer, doc="The player whose draw offer stands.")
    adjudicated = property(lambda self: self.state.adjudicated,
                           doc="The game was ended off the board (a flag, a claim, the arbiter's result).")
    source = property(lambda self: self.fights.source, doc="Where the dice come from (None: real dice).")
    record = property(lambda self: self.fights.record, doc="The dice record (None for a game without dice).")
    history = property(lambda self: self.kept.entries,
                       doc="The game as journal action entries, undone turns and declined offers left out.")
    tracker = property(lambda self: self.board.tracker)

    @property
    def on_move_detected(self) -> Callable | None:
        """When set, a move the tracker detects goes here instead of :meth:`play` (a clock that
        presses itself records the move with its press)."""
        return self.board.on_move_detected

    @on_move_detected.setter
    def on_move_detected(self, handler: Callable | None) -> None:
        self.board.on_move_detected = handler

    @property
    def turn(self) -> int:
        return self.state.pos.turn

    @property
    def is_over(self) -> bool:
        return self.state.result is not None

    @property
    def seats(self) -> tuple[Seat, ...]:
        return self.state.setup.seats

    # ----- queries ----------------------------------------------------------------------------------
    def in_check(self) -> bool:
        return self.result is None and self.pos.pending is None and self.rules.in_check(self.pos)

    def last_move(self) -> tuple[int, int] | None:
        """(from, to) of the last move still on the board, for the 'last move' marks (None
        after a resignation or a position set by the arbiter: no piece moved)."""
        last = self.moves[-1] if self.moves else None
        return (last.frm, last.to) if last is not None and last.frm >= 0 else None

    def pending_fight(self) -> FightInfo | None:
        return self.fights.pending()

    def joint_decision(self):
        """The pending joint decision (both players answer at once: a duel's secret bids), or None."""
        return self.duels.decision()

    @property
    def sealed_players(self) -> tuple[int, ...]:
        """Who has sealed their part of the pending joint decision (never what it is)."""
        return self.duels.sealed_players

    def parts_missing(self) -> tuple[int, ...]:
        """The players whose part of the pending joint decision is still to come."""
        return self.duels.missing()

    def part_options(self, player: int) -> tuple:
        """``player``'s options in the pending joint decision (a bid of 0, 1 or 2 stones)."""
        return self.duels.options(player)

    def computer_to_move(self) -> int | None:
        """The seat index of a computer that should choose a move now (or answer a choice it
        waits for in the middle of its turn, such as a Salamander's step), else None."""
        if self.result is not None or self.draw_offer is not None:
            return None
        d = self.pos.pending
        if d is not None:
            if d.chance or not 0 <= d.player < len(self.seats):
                return None
            return d.player if self.seats[d.player].computer else None
        return self.turn if self.seats[self.turn].computer else None

    def captured(self, player: int) -> list[str]:
        """Kind names of ``player``'s pieces no longer on the board, in the order of value."""
        return self.known.captured(player)

    def fight_history(self, uid: int) -> list[dict[str, Any]]:
        """Every finished fight of piece ``uid``: number, move, role, opponent(s), result, rounds."""
        return self.fights.history(uid)

    def can_undo(self) -> bool:
        return self.state.can_undo()

    # ----- player commands -----------------------------------------------------------------------------
    def play(self, move: Move | str) -> list:
        """A move from the board (tracker) or a test; refused moves raise IllegalMoveError."""
        text = move if isinstance(move, str) else self.rules.move_text(self.pos, move)
        return self._act(PlayMove(text))

    def play_answer(self, answer: Answer | str) -> list:
        """The answer to the choice the game waits for (from the board, the screen or the
        computer): an Answer or its text (``stay``, ``i8``); IllegalMoveError if it is none."""
        text = answer if isinstance(answer, str) else self.rules.answer_text(answer)
        return self._act(PlayAnswer(text))

    def play_part(self, player: int, part) -> list:
        """``player``'s part of the pending joint decision (a bid), sealed until every part is
        in; the last part plays the joint answer. IllegalMoveError (nothing changes) if it is not
        one of the player's options, or the player's part is in already."""
        return self._act(PlayPart(player, str(part)))

    def roll(self) -> list:
        """Roll the pending fight's dice with the game's source (virtual or seeded dice)."""
        return self._act(self.fights.draw())

    def enter_dice(self, attacker: Sequence[int], defenders: Sequence[Sequence[int]]) -> list:
        """Faces of real dice, typed on the screen; DiceError (nothing changes) if impossible."""
        return self._act(Roll(tuple(attacker), tuple(tuple(d) for d in defenders), "entered"))

    def undo(self) -> list:
        """Take back the last turn, and more until a person is to move (so a move against the
        computer takes back its reply too)."""
        return self._act(Undo(self.playing.turns_to_undo()))

    def resign(self, player: int) -> list:
        return self._act(Resign(player))

    def offer_draw(self, player: int) -> list:
        """``player`` offers a draw; a computer opponent answers at once."""
        events = self._act(OfferDraw(player))
        other = 1 - player
        if self.seats[other].computer:
            events += self._act(AnswerDraw(computer_accepts_draw(self.rules, self.pos, other)))
        return events

    def answer_draw(self, accept: bool) -> list:
        return self._act(AnswerDraw(bool(accept)))

    def correct_position(self, position: str) -> list:
        """An arbiter's correction (``rules.position_text`` of the position to go on from);
        PositionError (nothing changes) when the text is not a position of this game."""
        return self._act(SetPosition(position))

    def check(self, action: Action) -> None:
        """Refuse ``action`` now if it cannot be applied (IllegalMoveError, DiceError, ...),
        without writing or changing anything (a caller that journals first checks first)."""
        self._check(action)

    def act(self, action: Action, *, record: bool = True) -> list:
        """Check, record (unless ``record`` is false: the caller's own journal entry already
        holds it, e.g. a clock press that completes a move) and apply ``action``."""
        return self._act(action, record=record)

    # ----- the tracker ---------------------------------------------------------------------------------
    def attach_tracker(self, tracker) -> list:
        """Follow the physical board with ``tracker`` (which reads this session's ``rules`` and
        ``pos``); returns its first outputs (what to light, what to fix)."""
        return self.board.attach(tracker)

    def begin_setup(self) -> list:
        """Guide the players to set up the game's position on the board (SetupCompleted when
        it stands)."""
        return self.board.begin_setup()

    def feed_board(self, event) -> list:
        """A sensor event from the board (SquareChanged, OccupancySnapshot, ...)."""
        return self.board.feed(event)

    def tick(self, t_ms: int) -> list:
        return self.board.tick(t_ms)

    def choose(self, option) -> list:
        """The answer to a tracker prompt (promotion piece, which of two moves)."""
        return self.board.choose(option)

    def request_move(self, move: Move) -> list:
        """The computer chose ``move``: light it so that a person makes it on the board."""
        return self.board.request_move(move)

    # ----- actions: check, record, apply, tell the board ---------------------------------------------------
    def _act(self, action: Action, record: bool = True) -> list:
        self._check(action)
        if record and self.recorder is not None:
            try:
                self.recorder(action_to_json(action))
            except OSError as e:  # a full or failing SD card: refuse rather than lose it later
                raise RecordError(_("the game could not be saved ({reason}); nothing was changed").format(reason=e.strerror or e)) from e
        return self._apply(action) + self.board.position_changed()

    def _check(self, action: Action) -> None:
        """Refuse an action that cannot be applied now, before anything is written."""
        self.playing.check_open(action)
        if isinstance(action, PlayAnswer):
            self.duels.check_no_parts()
            self.playing.find_answer(action.answer)
        elif isinstance(action, PlayPart):
            self.duels.check(action)
        elif isinstance(action, Roll):
            self.fights.check(action)
        elif isinstance(action, SetPosition):
            self.corrections.check(action)
        else:
            self.playing.check(action)

    def _apply(self, action: Action) -> list:
        self.actions += 1
        self.kept.keep(action)
        playing = self.playing
        if isinstance(action, PlayMove):
            return playing.play_move(action.move)
        if isinstance(action, PlayAnswer):
            return playing.play_answer(playing.find_answer(action.answer), action.answer)
        if isinstance(action, PlayPart):
            events, answer = self.duels.seal(action)
            return events if answer is None else events + playing.play_answer(answer, self.rules.answer_text(answer))
        if isinstance(action, Roll):
            events, ended = self.fights.apply(action)
            return events + playing.check_end() if ended else events
        if isinstance(action, Undo):
            self.duels.clear()
            return playing.undo(action)
        if isinstance(action, SetPosition):
            self.duels.clear()
            return self.corrections.apply(action) + playing.check_end()
        if isinstance(action, Resign):
            return playing.resign(action)
        if isinstance(action, OfferDraw):
            return playing.offer_draw(action)
        if isinstance(action, AnswerDraw):
            return playing.answer_draw(action)
        if isinstance(action, Adjudicate):
            return playing.adjudicate(action)
        raise TypeError(action)

