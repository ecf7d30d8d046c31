"""The game as a linked board's screens see it: the session, with every command through the link.

The app's rooms and presenters play a game through its session's commands (``play``,
``play_answer``, ``play_part``, ``resign``, ``undo``, ...). A :class:`LinkedSession` has the
same face: what it is asked is read from the real session, and what it is told to do goes
through the :class:`~companion.link.game.LinkedGame` (which checks it, writes it when this board
is the writer, asks the other board otherwise, and plays it on the real session). So a move
sensed on the board, a promotion tapped, a bid sealed, a resignation, reach the other board by
the same calls the app makes for a game on one board, and nothing in the app needs to know the
game is linked but the room that shows the link (companion/app/presenters/link_room.py).

What differs, in the players' words: the dice are never rolled here (they come from both
boards' secrets: ``roll`` says so); a takeback is asked of the other board; a correction of the
position needs both boards (after a mismatch); only this board's computer players think here.
Pure: no I/O; the events the link produces besides the game's go to ``on_link``.
"""

from __future__ import annotations

from typing import Any, Callable

from ..core.moves import Answer, Move
from ..errors import LinkError
from ..i18n import N_, _
from ..session import (AnswerDraw, OfferDraw, PartSealed, PlayAnswer, PlayMove, PlayPart, Resign)
from .events import Acted, ChoicesSealed
from .game import LinkedGame

NO_ROLL = N_("a linked game's dice come from both boards' secrets: they follow by themselves")
NO_CORRECTION = N_("both boards must agree on a correction: it is offered when the boards disagree")


def game_events(link_events: list, on_link: Callable[[list], None] | None) -> list:
    """The session's events inside the link's (``Acted``), in order; the rest to ``on_link``."""
    out, rest = [], []
    for e in link_events:
        if isinstance(e, Acted):
            out += list(e.events)
        else:
            rest.append(e)
    if rest and on_link is not None:
        on_link(rest)
    return out


class LinkedSession:
    """The real session's face, its commands through ``linked``."""

    def __init__(self, linked: LinkedGame, on_link: Callable[[list], None] | None = None) -> None:
        self._linked = linked
        self._on_link = on_link
        linked.session.board.redirect(self.play, self.play_answer)  # what the board senses, through the link

    def __getattr__(self, name: str) -> Any:
        return getattr(self._linked.session, name)

    @property
    def linked(self) -> LinkedGame:
        return self._linked

    def _run(self, call: Callable[[], list]) -> list:
        return game_events(call(), self._on_link)

    # ----- commands -------------------------------------------------------------------------------------
    def play(self, move: Move | str) -> list:
        s = self._linked.session
        text = move if isinstance(move, str) else s.rules.move_text(s.pos, move)
        return self._run(lambda: self._linked.act(PlayMove(text)))

    def play_answer(self, answer: Answer | str) -> list:
        text = answer if isinstance(answer, str) else self._linked.session.rules.answer_text(answer)
        return self._run(lambda: self._linked.act(PlayAnswer(text)))

    def play_part(self, player: int, part) -> list:
        events = self._run(lambda: self._linked.act(PlayPart(player, str(part))))
        return [PartSealed(player)] + events

    def resign(self, player: int) -> list:
        return self._run(lambda: self._linked.act(Resign(player)))

    def offer_draw(self, player: int) -> list:
        return self._run(lambda: self._linked.act(OfferDraw(player)))

    def answer_draw(self, accept: bool) -> list:
        return self._run(lambda: self._linked.act(AnswerDraw(bool(accept))))

    def undo(self) -> list:
        """A takeback is asked of the other board (its player accepts or declines)."""
        return self._run(self._linked.ask_takeback)

    def roll(self) -> list:
        raise LinkError(_(NO_ROLL))

    def enter_dice(self, attacker, defenders) -> list:
        raise LinkError(_(NO_ROLL))

    def correct_position(self, position: str) -> list:
        raise LinkError(_(NO_CORRECTION))

    def act(self, action, *, record: bool = True) -> list:
        if isinstance(action, (PlayMove, PlayAnswer, PlayPart, Resign, OfferDraw, AnswerDraw)):
            return self._run(lambda: self._linked.act(action))
        raise LinkError(_("that is not a linked game's action"))

    # ----- what differs in what the screens read ------------------------------------------------------
    def computer_to_move(self) -> int | None:
        """Only this board's computer players think here."""
        seat = self._linked.session.computer_to_move()
        return seat if seat is not None and self._linked.is_mine(seat) else None

    def can_undo(self) -> bool:
        s = self._linked.session
        return s.can_undo() and s.result is None and s.pending_fight() is None

    @property
    def sealed_players(self) -> tuple[int, ...]:
        """Who has sealed a part of the pending joint decision: here, or at the other board."""
        linked = self._linked
        d = linked.session.joint_decision()
        if d is None:
            return ()
        st, label = linked.st, linked.parts.label()
        sealed = set(linked.session.sealed_players) | set(linked.parts.chosen)
        for p in d.get("players"):
            if (label, st.board_of(p)) in st.commits:
                sealed.add(p)
        return tuple(sorted(sealed))

    def parts_missing(self) -> tuple[int, ...]:
        """This board's players whose part is still to come (the other board's seal their own)."""
        linked = self._linked
        d = linked.session.joint_decision()
        if d is None:
            return ()
        sealed = set(self.sealed_players)
        return tuple(p for p in d.get("players") if linked.is_mine(p) and p not in sealed)


def sealed_by_the_other_board(events: list, linked: LinkedGame) -> list:
    """The link's ``ChoicesSealed`` of a duel's part, as the session's ``PartSealed`` for the
    other board's players (the duel screen shows them sealed, never what they are)."""
    out = []
    d = linked.session.joint_decision() if linked.session is not None else None
    for e in events:
        if isinstance(e, ChoicesSealed) and e.label.startswith("part@") and d is not None:
            out += [PartSealed(p) for p in d.get("players") if linked.st.board_of(p) == e.board]
    return out
