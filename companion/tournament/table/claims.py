"""Claims and penalties (tournament mode): draw offers recorded (FIDE 9.1.2), results agreed by
both players tapping the same one (FIDE 8.7), draws claimed on the move the board shows or on
the position (FIDE 9.2, 9.3), resignations, and the penalty for an illegal move (FIDE 7.5.5) or
a wrong claim.

:class:`Claims` journals each live command as one entry through ``do`` and applies the entries
``illegal``, ``offer-draw``, ``result``, ``claim`` and ``resign``; what the session does in
answer goes through the clock room's ``observe``.
"""

from __future__ import annotations

from typing import Callable

from ...errors import IllegalMoveError, RecordError
from ...i18n import N_, _
from ...session import Adjudicate, PlayMove, Resign
from .. import texts as W
from ..laws import CLAIM_REASONS, CLAIMS, can_win, judge_claim, penalty_ms
from ..quiet import BoardShowsMove
from .events import ClaimJudged, DrawOfferMade, IllegalMoveCaught, Penalty, ResultTapped
from .setup import RESULT_CODES, TableEntry
from .state import TableState
from .timing import TableClock


class Claims:
    """Claims, offers, agreed results and penalties; collaborators: the table's state, its
    journal (``do``) and the clock room (a penalty's time, observing the session)."""

    def __init__(self, st: TableState, do: Callable[[dict, int], list], clock: TableClock) -> None:
        self._st, self._do, self._clock = st, do, clock

    # ----- live commands ---------------------------------------------------------------------------------
    def offer_draw(self, player: int, t: int) -> list:
        """FIDE 9.1.2: the offer is recorded "(=)"; it stands until the opponent moves."""
        st = self._st
        st.require_tournament(N_("draw offers are recorded in tournament mode; in casual play use the draw offer"))
        st.check_player(player)
        st.check_live()
        if st.offers and st.offers[-1] == (len(st.session.moves), player):
            raise IllegalMoveError(_('this draw offer is already made'))
        return self._do({"type": "offer-draw", "player": player}, t)

    def tap_result(self, player: int, result: str | None, t: int) -> list:
        """``player`` taps a result (None takes the tap back); both tapping the same ends the
        game with it (FIDE 8.7)."""
        st = self._st
        st.require_tournament(N_("results are agreed in tournament mode; in casual play use the draw offer"))
        st.check_player(player)
        if result is not None and result not in RESULT_CODES:
            raise IllegalMoveError(_("a result is one of {items}, got {result!r}").format(items=', '.join(RESULT_CODES), result=result))
        st.check_live()
        return self._do({"type": "result", "player": player, "result": result}, t)

    def claim(self, player: int, kind: str, t: int) -> list:
        """The player to move claims a draw (FIDE 9.2, 9.3): on the move the board shows (not
        yet pressed), or on the position if the board shows none."""
        st = self._st
        st.require_tournament(N_("draws are claimed in tournament mode; in casual play use the draw offer"))
        st.check_player(player)
        if kind not in CLAIMS:
            raise IllegalMoveError(_("a claim is one of {items}, got {kind!r}").format(items=', '.join(CLAIMS), kind=kind))
        st.check_live()
        s = st.session
        if player != s.turn or s.pos.pending is not None:
            raise IllegalMoveError(_('only the player to move may claim a draw'))
        move_text = None
        board = st.board
        if board is not None and hasattr(board, "complete"):
            verdict = board.complete(t)
            if isinstance(verdict, BoardShowsMove):
                if verdict.needs_choice:
                    raise IllegalMoveError(_('the move on the board needs a choice: press the clock or put it back'))
                move_text = s.rules.move_text(s.pos, verdict.moves[0])
        return self._do({"type": "claim", "player": player, "kind": kind, "move": move_text}, t)

    def resign(self, player: int, t: int) -> list:
        st = self._st
        st.check_player(player)
        st.check_live()
        # with three or more players the player leaves and the others play on (the game's own
        # rules: Dungeon Chess removes the army, four-player chess leaves it dead on the board)
        return self._do({"type": "resign", "player": player}, t)

    # ----- penalties ---------------------------------------------------------------------------------------
    def penalise(self, side: int, t: int, illegal_what: str | None) -> list:
        """A completed illegal move (or the arbiter's penalty for one, FIDE 7.5.5): the first
        gives the opponent time, the second loses (draw if the opponent cannot win)."""
        st = self._st
        s = st.session
        other = 1 - side
        count = st.illegal.get(side, 0) + 1
        st.illegal[side] = count
        name, oname = st.name(side), st.name(other)
        events: list = []
        if count == 1:
            ms = penalty_ms(st.category)
            events += st.give(other, ms, t)
            st.penalties.append(Penalty(side, other, ms, True))
            if illegal_what is not None:
                st.note(W.record("illegal first", name=name, what=illegal_what, other=oname, minutes=W.minutes(ms)))
            else:
                st.note(W.record("penalty", name=name, other=oname, minutes=W.minutes(ms)))
            return [IllegalMoveCaught(side, illegal_what or "", count, ms)] + events
        st.penalties.append(Penalty(side, other, 0, True))
        if can_win(s.rules, s.pos, other):
            key = "illegal second" if illegal_what is not None else "penalty loss"
            st.note(W.record(key, name=name, what=illegal_what or ""))
            events += s.act(Adjudicate((other,), "illegal move"), record=False)
        else:
            st.note(W.record("illegal second draw", name=name, what=illegal_what or "", other=oname))
            events += s.act(Adjudicate((), "illegal move, cannot win"), record=False)
        return [IllegalMoveCaught(side, illegal_what or "", count, 0)] + events + self._clock.observe(events, t)

    def _agreed(self, t: int) -> list:
        """Both players tapped the same result: the game ends with it (FIDE 8.7, 9.1.2)."""
        st = self._st
        if len(st.taps) < st.nsides or len(set(st.taps.values())) != 1:
            return []
        (result,) = set(st.taps.values())
        st.note(W.record("agreed", result=result))
        winners = {"1-0": (0,), "0-1": (1,), "1/2-1/2": ()}[result]
        reason = "draw agreed" if result == "1/2-1/2" else "result agreed"
        events = st.session.act(Adjudicate(winners, reason), record=False)
        return events + self._clock.observe(events, t)

    # ----- the entries (live and replay) -----------------------------------------------------------------
    def apply_illegal(self, e, t, where, dry):
        f = TableEntry(e, where, ("type", "side", "what", "spent"))
        side = f.side("side", self._st.nsides)
        what = f.text("what")
        if not self._st.tournament:
            raise RecordError(_("{where}: illegal moves are judged in tournament mode only").format(where=where))
        if dry:
            return []
        return self.penalise(side, t, illegal_what=what)

    def apply_offer_draw(self, e, t, where, dry):
        st = self._st
        player = TableEntry(e, where, ("type", "player", "spent")).side("player", st.nsides)
        if dry:
            return []
        st.offers.append((len(st.session.moves), player))
        st.taps[player] = "1/2-1/2"
        return [DrawOfferMade(player)] + self._agreed(t)

    def apply_result(self, e, t, where, dry):
        st = self._st
        f = TableEntry(e, where, ("type", "player", "result", "spent"))
        player = f.side("player", st.nsides)
        result = f.optional_text("result")
        if result is not None and result not in RESULT_CODES:
            raise RecordError(_("{where}: a result is one of {items}").format(where=where, items=', '.join(RESULT_CODES)))
        if st.is_over:
            raise RecordError(_("{where}: the game is over").format(where=where))
        if dry:
            return []
        if result is None:
            st.taps.pop(player, None)
        else:
            st.taps[player] = result
        return [ResultTapped(player, result)] + self._agreed(t)

    def apply_claim(self, e, t, where, dry):
        st = self._st
        f = TableEntry(e, where, ("type", "player", "kind", "move", "spent"))
        player = f.side("player", st.nsides)
        kind = f.text("kind")
        text = f.optional_text("move")
        s = st.session
        if kind not in CLAIMS:
            raise RecordError(_("{where}: a claim is one of {items}").format(where=where, items=', '.join(CLAIMS)))
        if s.is_over or player != s.turn:
            raise RecordError(_("{where}: only the player to move may claim").format(where=where))
        move = s.rules.parse_move(s.pos, text) if text is not None else None
        if dry:
            return []
        verdict = judge_claim(s.rules, s.pos, kind, move)
        name, other = st.name(player), st.name(1 - player)
        if verdict.correct:
            events: list = []
            if text is not None:
                events += s.act(PlayMove(text), record=False)
            st.note(W.record("claim right", name=name, kind=W.KINDS[kind], article=W.ARTICLES[kind]))
            if not s.is_over:
                events += s.act(Adjudicate((), CLAIM_REASONS[kind]), record=False)
            return [ClaimJudged(player, kind, True, 0)] + events + self._clock.observe(events, t)
        ms = penalty_ms(st.category)
        events = st.give(1 - player, ms, t)
        st.penalties.append(Penalty(player, 1 - player, ms, False))
        st.note(W.record("claim wrong", name=name, kind=W.KINDS[kind], other=other, minutes=W.minutes(ms)))
        return [ClaimJudged(player, kind, False, ms)] + events

    def apply_resign(self, e, t, where, dry):
        st = self._st
        player = TableEntry(e, where, ("type", "player", "spent")).side("player", st.nsides)
        if st.is_over:
            raise RecordError(_("{where}: the game is over").format(where=where))
        if dry:
            return []
        events = st.session.act(Resign(player), record=False)
        return events + self._clock.observe(events, t)
