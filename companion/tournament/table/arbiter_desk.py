"""The arbiter's actions (behind the PIN on the screen): setting and adding time, setting the
move counts, pausing and resuming, giving and cancelling penalties, setting a result
(forfeits, 0-0 included), taking moves back and ending the game unfinished. Each is one
``arbiter`` entry; docs/tournament.md has the FIDE articles."""

from __future__ import annotations

from typing import Callable

from ...errors import IllegalMoveError, RecordError
from ...i18n import _, ngettext, pgettext
from ...session import Adjudicate, Undo
from .. import texts as W
from ..clock import format_time
from .claims import Claims
from .events import ArbiterActed
from .setup import TableEntry
from .state import TableState, hand_over
from .timing import TableClock

#: What the arbiter may set: the usual results, forfeits ("+-": White wins by forfeit, "--":
#: both forfeit) and 0-0 (both lose).
ARBITER_RESULTS = ("1-0", "0-1", "1/2-1/2", "+-", "-+", "--", "0-0")
ARBITER_OPS = ("set-time", "add-time", "set-moves", "pause", "resume", "penalty", "cancel-penalty", "result",
               "takeback", "end")
#: The fields each arbiter action carries besides its type, op and spent.
_FIELDS = {"set-time": ("side", "ms"), "add-time": ("side", "ms"), "set-moves": ("side", "moves"),
           "pause": (), "resume": (), "penalty": ("side",), "cancel-penalty": ("index",),
           "result": ("result",), "takeback": ("turns",), "end": ()}
#: result code -> (winners, score, forfeit)
_SCORES = {
    "1-0": ((0,), (1.0, 0.0), False),
    "0-1": ((1,), (0.0, 1.0), False),
    "1/2-1/2": ((), (0.5, 0.5), False),
    "+-": ((0,), (1.0, 0.0), True),
    "-+": ((1,), (0.0, 1.0), True),
    "--": ((), (0.0, 0.0), True),
    "0-0": ((), (0.0, 0.0), False),
}


class ArbiterDesk:
    """The arbiter's actions; collaborators: the table's state, its journal (``do``), the clock
    room (flags at a pause, observing the session) and the claims room (a penalty)."""

    def __init__(self, st: TableState, do: Callable[[dict, int], list], clock: TableClock, claims: Claims) -> None:
        self._st, self._do, self._clock, self._claims = st, do, clock, claims

    def act(self, op: str, t: int, **args) -> list:
        """An arbiter's action: see ARBITER_OPS."""
        if op not in ARBITER_OPS:
            raise IllegalMoveError(_("unknown arbiter action {op!r}").format(op=op))
        entry = {"type": "arbiter", "op": op, **args, "spent": None}
        self.check(entry)
        return self._do(entry, t)

    def check(self, e: dict, where: str | None = None) -> None:
        where = pgettext("where in a record", "arbiter") if where is None else where
        st = self._st
        op = e.get("op")
        if op not in _FIELDS:
            raise RecordError(_("{where}: unknown arbiter action {op!r}").format(where=where, op=op))
        f = TableEntry(e, where, ("type", "op", "spent") + _FIELDS[op])
        c = st.clock
        if op in ("set-time", "add-time", "set-moves", "pause", "resume") and (c is None or not c.started):
            raise IllegalMoveError(_('the clock has not been started'))
        if op != "result" and op != "end" and st.is_over:
            raise IllegalMoveError(_('the game is over'))
        if op in ("set-time", "add-time", "set-moves", "penalty"):
            f.side("side", st.nsides)
        if op in ("set-time", "add-time"):
            f.integer("ms", 0, 100 * 3600 * 1000)
        if op == "set-moves":
            f.integer("moves", 0, 10_000)
        if op == "pause" and not c.counting:
            raise IllegalMoveError(_('the clock is not running'))
        if op == "resume" and (not c.paused or c.stopped):
            raise IllegalMoveError(_('the clock is not paused'))
        if op == "resume" and c.flagged is not None:
            raise IllegalMoveError(_("a flag has fallen: set that clock's time first"))
        if op == "cancel-penalty":
            index = f.integer("index", 0, 10_000)
            if index >= len(st.penalties) or st.penalties[index].cancelled or not st.penalties[index].ms:
                raise IllegalMoveError(_("there is no penalty {number} to cancel").format(number=index + 1))
        if op == "result":
            if f.text("result") not in ARBITER_RESULTS:
                raise IllegalMoveError(_("a result is one of {items}").format(items=', '.join(ARBITER_RESULTS)))
            if st.nsides != 2:
                raise IllegalMoveError(_('results are set for two-player games'))
        if op == "takeback":
            turns = f.integer("turns", 1, 10_000)
            if turns > len(st.session.moves) or st.is_over:
                raise IllegalMoveError(ngettext("cannot take back {turns} move; {played}", "cannot take back {turns} moves; {played}", turns).format(
                    turns=turns, played=ngettext("{n} was played", "{n} were played", len(st.session.moves)).format(
                        n=len(st.session.moves))))
        if op == "end" and st.is_over:
            raise IllegalMoveError(_('the game is over'))

    def apply(self, e, t, where, dry):
        """The ``arbiter`` entry (live and replay)."""
        self.check(e, where)
        if dry:
            return []
        st = self._st
        op = e["op"]
        s = st.session
        c = st.clock
        events: list = []
        if op in ("set-time", "add-time"):
            side, ms = e["side"], e["ms"]
            if op == "set-time":
                st.clock, events = c.set_time(side, ms, t)
                st.note(W.record("set time", name=st.name(side), time=format_time(ms)))
            else:
                st.clock, events = c.add_time(side, ms, t)
                st.note(W.record("add time", name=st.name(side), time=format_time(ms)))
        elif op == "set-moves":
            st.clock, events = c.set_moves(e["side"], e["moves"])
            st.note(W.record("set moves", name=st.name(e["side"]), moves=e["moves"]))
        elif op == "pause":
            st.clock, events = c.pause(t)
            st.note(W.record("pause"))
            events += self._clock.after_flag(events, t)
        elif op == "resume":
            st.clock, events = c.resume(t)
            st.note(W.record("resume"))
        elif op == "penalty":
            events = self._claims.penalise(e["side"], t, illegal_what=None)
        elif op == "cancel-penalty":
            p = st.penalties[e["index"]]
            p.cancelled = True
            if p.illegal:
                st.illegal[p.offender] = max(0, st.illegal.get(p.offender, 0) - 1)
            if c is not None:
                now = max(0, c.remaining(p.beneficiary, t))
                st.clock, events = c.set_time(p.beneficiary, max(0, now - p.ms), t)
            st.note(W.record("penalty cancelled", name=st.name(p.offender), other=st.name(p.beneficiary),
                             minutes=W.minutes(p.ms)))
        elif op == "result":
            events = self._result(e["result"], t)
        elif op == "takeback":
            turns = e["turns"]
            events = s.act(Undo(turns), record=False)
            st.taps.clear()
            st.pending_press = None
            if c is not None and c.started and not c.stopped:
                st.clock = hand_over(c, s.turn, t, paused=True)
                counts = [sum(1 for m in s.moves if m.player == p) for p in range(st.nsides)]
                for p, k in enumerate(counts):
                    st.clock, _ = st.clock.set_moves(p, k)
            st.note(W.record("takeback", count=f"{turns} move{'s' if turns != 1 else ''}"))
        elif op == "end":
            st.unfinished = True
            st.note(W.record("end"))
            events = s.act(Adjudicate((), "ended by the arbiter"), record=False)
        return [ArbiterActed(op)] + events + self._clock.observe(events, t)

    def _result(self, code: str, t: int) -> list:
        st = self._st
        winners, score, forfeit = _SCORES[code]
        st.override = score
        st.forfeit = forfeit
        if code in ("+-", "-+"):
            st.note(W.record("forfeit", winner=st.name(winners[0])))
        elif code == "--":
            st.note(W.record("double forfeit"))
        elif code == "0-0":
            st.note(W.record("both lose"))
        else:
            st.note(W.record("result", result=code))
        events = st.session.act(Adjudicate(winners, "forfeit" if forfeit else "set by the arbiter"), record=False)
        return events + self._clock.observe(events, t)
