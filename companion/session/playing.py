"""Playing: moves, the answers to choices in the middle of a turn, takebacks, resignations,
draw offers and the game's end.

:class:`Playing` checks and applies these actions on the :class:`GameState`; it tells the
fights' dice record what happened (a move, a takeback, the end) and notes new pieces in the
pieces known. Each ``check_*`` refuses before anything is written; each apply returns events.
"""

from __future__ import annotations

from dataclasses import replace

from ..core.moves import Answer, Move
from ..errors import IllegalMoveError
from ..i18n import _, ngettext
from .actions import Adjudicate, AnswerDraw, OfferDraw, PlayMove, Resign, Undo
from .events import (AnswerPlayed, DrawDeclined, DrawOffered, FightStarted, GameOver, GameResult, MoveEntry,
                     MovePlayed, PlayerResigned, TurnsUndone)
from .fights import Fights
from .pieces import KnownPieces
from .state import GameState

#: The move list's entry for a player who resigned a game of three or more.
RESIGNS = "resigns"


class Playing:
    """The moves and the end of one game; collaborators: the game, its fights (the dice record
    follows every move) and the pieces known."""

    def __init__(self, game: GameState, fights: Fights, known: KnownPieces) -> None:
        self._game, self._fights, self._known = game, fights, known

    # ----- checks ---------------------------------------------------------------------------------------
    def check_open(self, action) -> None:
        """Once the game is over only a takeback may come, and only where it is allowed."""
        game = self._game
        if game.result is not None:
            if not isinstance(action, Undo):
                raise IllegalMoveError(_('the game is over'))
            if game.undo_after_end_refused():
                raise IllegalMoveError(game.undo_after_end_refused())

    def check(self, action) -> None:
        """Refuse a move, takeback, resignation, draw offer or answer, or result that cannot be now."""
        game = self._game
        seats = game.seats
        if isinstance(action, PlayMove):
            if game.draw_offer is not None:
                raise IllegalMoveError(_('a draw offer is waiting for an answer'))
            game.rules.parse_move(game.pos, action.move)
        elif isinstance(action, Undo):
            if not 1 <= action.turns <= len(game.turn_starts):
                raise IllegalMoveError(ngettext("cannot take back {turns} turn; {played}", "cannot take back {turns} turns; {played}", action.turns).format(
                    turns=action.turns, played=ngettext("{n} was played", "{n} were played", len(game.turn_starts)).format(
                        n=len(game.turn_starts))))
        elif isinstance(action, (Resign, OfferDraw)):
            many = len(seats) > 2
            if not 0 <= action.player < len(seats):
                raise IllegalMoveError(_("player must be 0 to {last}, got {player}").format(last=len(seats) - 1, player=action.player))
            if many and isinstance(action, OfferDraw):
                raise IllegalMoveError(_('with more than two players nobody can offer a draw: play on until one King is left, or resign'))
            if many and action.player in game.pos.var("out", ()):
                raise IllegalMoveError(_("{name} is out of the game already").format(name=seats[action.player].name))
            if many and game.pos.pending is not None:
                raise IllegalMoveError(_('finish this turn first'))
            if isinstance(action, OfferDraw):
                if game.draw_offer is not None:
                    raise IllegalMoveError(_('a draw offer is already waiting for an answer'))
                if game.pos.pending is not None:
                    raise IllegalMoveError(_('finish the fight first'))
        elif isinstance(action, AnswerDraw):
            if game.draw_offer is None:
                raise IllegalMoveError(_('no draw was offered'))
        elif isinstance(action, Adjudicate):
            if not all(0 <= w < len(seats) for w in action.winners) or len(set(action.winners)) != len(action.winners):
                raise IllegalMoveError(_("winners must be distinct players 0 to {last}, got {winners}").format(last=len(seats) - 1, winners=action.winners))
            if not action.reason.strip():
                raise IllegalMoveError(_('a result needs a reason'))
        else:
            raise TypeError(f"not an action of play: {action!r}")

    def find_answer(self, text: str) -> Answer:
        """The answer to the pending choice whose text is ``text`` (IllegalMoveError: none)."""
        game = self._game
        d = game.pos.pending
        if d is None or d.chance:
            raise IllegalMoveError(_('no choice is waiting for an answer'))
        answers = game.rules.answers(game.pos)
        for a in answers:
            if game.rules.answer_text(a) == text:
                return a
        choices = ", ".join(game.rules.answer_text(a) for a in answers)
        raise IllegalMoveError(_("{text!r} is not one of the choices ({choices})").format(text=text, choices=choices))

    # ----- moves and answers ------------------------------------------------------------------------------
    def play_move(self, text: str) -> list:
        game = self._game
        pos, rules = game.pos, game.rules
        move = rules.parse_move(pos, text)
        san = game.move_text(move)
        player = pos.turn
        game.begin_turn()
        self._fights.moved(rules.move_text(pos, move))
        before = pos.var("effects")
        rules.apply(pos, move)
        entry = MoveEntry(player, san, text, move.frm, move.to, effects=game.step_effects(before))
        game.moves.append(entry)
        events: list = [MovePlayed(entry, len(game.moves))]
        fight = self._fights.pending()
        if fight is not None:
            events.append(FightStarted(fight))
        self._known.remember()
        return events + self.check_end()

    def play_answer(self, answer: Answer, text: str) -> list:
        """A choice in the middle of the turn: part of the last move's turn (one undo step
        takes both back); the move list shows where the piece went on to."""
        game = self._game
        move_san = None
        if isinstance(answer.value, Move) and answer.value.frm >= 0:  # a move of its own (a king-turn)
            move_san = game.move_text(answer.value)
        before = game.pos.var("effects")
        game.rules.apply(game.pos, answer)
        effects = game.step_effects(before)
        if game.moves:
            last = game.moves[-1]
            if isinstance(answer.value, int):
                last = replace(last, san=f"{last.san}-{text}", to=answer.value)
            elif move_san is not None:
                last = replace(last, san=f"{last.san}, {move_san}")
            game.moves[-1] = replace(last, effects=last.effects + effects)
        self._known.remember()
        return [AnswerPlayed(answer, text)] + self.check_end()

    # ----- takebacks --------------------------------------------------------------------------------------
    def turns_to_undo(self) -> int:
        """The last turn, and more until a person is to move (so a move against the computer
        takes back its reply too)."""
        game = self._game
        if not game.turn_starts:
            raise IllegalMoveError(_('there is no move to take back'))
        if game.result is not None and game.undo_after_end_refused():
            raise IllegalMoveError(game.undo_after_end_refused())
        turns = 1
        turn_players = [m.player for m in game.moves]  # who made each turn still on the board
        while turns < len(game.turn_starts) and game.seats[turn_players[-turns]].computer:
            turns += 1
        return turns

    def undo(self, action: Undo) -> list:
        game = self._game
        target = game.turn_starts[-action.turns]
        while game.pos.depth > target:
            game.rules.undo(game.pos)
        del game.turn_starts[-action.turns:]
        undone = tuple(game.moves[-action.turns:])
        del game.moves[-action.turns:]
        for entry in reversed(undone):
            if entry.move == "position":  # a correction taken back: the pieces known before it
                self._known.correction_undone()
        game.draw_offer = None
        game.result = None  # a finished game taken back goes on (undo_after_end)
        self._fights.taken_back()
        return [TurnsUndone(undone)]

    # ----- resignations, draws, results --------------------------------------------------------------------
    def resign(self, action: Resign) -> list:
        """Two players: the game ends. Three or more: the player leaves, the others play on (a
        turn of the move list, taken back by Undo like any turn)."""
        game = self._game
        if len(game.seats) <= 2:
            return self.finish(GameResult(frozenset({1 - action.player}), "resigned"))
        game.begin_turn()
        game.rules.resign(game.pos, action.player)
        game.moves.append(MoveEntry(action.player, RESIGNS, "", -1, -1))
        self._known.remember()
        return [PlayerResigned(action.player)] + self.check_end()

    def offer_draw(self, action: OfferDraw) -> list:
        self._game.draw_offer = action.player
        return [DrawOffered(action.player)]

    def answer_draw(self, action: AnswerDraw) -> list:
        game = self._game
        by = game.draw_offer
        game.draw_offer = None
        if action.accept:
            return self.finish(GameResult(frozenset(), "draw agreed"))
        return [DrawDeclined(1 - by)]

    def adjudicate(self, action: Adjudicate) -> list:
        self._game.adjudicated = True  # a flag, a claim, the arbiter: no takeback undoes it
        return self.finish(GameResult(frozenset(action.winners), action.reason))

    def finish(self, result: GameResult) -> list:
        game = self._game
        game.result = result
        game.draw_offer = None
        return [GameOver(result, self._fights.reveal())]

    def check_end(self) -> list:
        """The game's end, if the position says it is over."""
        game = self._game
        outcome = game.rules.outcome(game.pos)
        if outcome is None:
            return []
        return self.finish(GameResult(frozenset(outcome.winners), outcome.reason))


def material(rules, pos, player: int) -> int:
    return sum(p.kind.value for _, p in pos.pieces(player))


def computer_accepts_draw(rules, pos, player: int) -> bool:
    """A computer takes a draw when it is behind in material (by a pawn's worth or more)."""
    return material(rules, pos, player) + 100 <= material(rules, pos, 1 - player)
