"""The clock at the table: starting it, presses (in tournament mode the press completes the
move and the board is judged, FIDE 6.2.1), pauses, flags (FIDE 6.9), and the clock following
what the session does (a fight pauses it, a takeback hands it back, the end stops it).

:class:`TableClock` journals each live command as one entry through ``do`` (the table's
journal) and applies the clock's entries (``clock-start``, ``press``, ``pause``, ``resume``,
``flag``) live and in a replay alike.
"""

from __future__ import annotations

from typing import Callable

from ...core.moves import Move
from ...errors import ClockError, IllegalMoveError, RecordError
from ...i18n import _
from ...session import Adjudicate, AnswerPlayed, FightEnded, FightStarted, GameOver, PlayMove, TurnsUndone
from .. import texts as W
from ..clock import FlagFell, format_time
from ..laws import can_win
from ..quiet import BoardShowsMove
from .events import PlyClock, PressNeedsChoice
from .setup import TableEntry
from .state import TableState, hand_over


class TableClock:
    """The clock room; ``do(entry, t)`` journals an entry and applies it."""

    def __init__(self, st: TableState, do: Callable[[dict, int], list]) -> None:
        self._st, self._do = st, do

    # ----- queries ------------------------------------------------------------------------------------
    def can_press(self, side: int) -> bool:
        """May ``side`` tap its half of the clock now (its clock runs, or it starts the other's)?"""
        st = self._st
        c = st.clock
        if c is None or st.is_over or st.pending_press is not None:
            return False
        if not c.started:
            return side == st.nsides - 1 if st.nsides == 2 else side == 0
        return c.running == side and c.counting and c.flagged is None

    # ----- live commands ---------------------------------------------------------------------------------
    def start_clock(self, t: int) -> list:
        """White's clock starts (a tap on Black's half, as on a real clock)."""
        st = self._st
        if st.clock is None:
            raise ClockError(_('this game has no clock'))
        if st.clock.started:
            raise ClockError(_('the clock is already running'))
        return self._do({"type": "clock-start", "side": st.session.turn}, t)

    def press(self, side: int, t: int) -> list:
        """``side`` taps its half of the clock at ``t``. In tournament mode the board is judged
        (the press completes the move, FIDE 6.2.1); in casual play it is a plain press."""
        st = self._st
        if st.clock is None:
            raise ClockError(_('this game has no clock'))
        if not st.clock.started:
            if self.can_press(side):
                return self.start_clock(t)
            raise ClockError(_('the clock has not been started'))
        st.check_live()
        flag = self.flag_if_due(t)
        if flag is not None:
            return flag
        if st.clock.running != side:
            raise ClockError(_("it is not this side's clock that runs"))
        if not st.clock.counting:
            raise ClockError(_('the clock is paused'))
        if st.pending_press is not None:
            raise IllegalMoveError(_('choose on the screen first'))
        if not st.tournament:
            return self._do({"type": "press", "side": side, "move": None}, t)
        verdict = st.board.complete(t)
        if isinstance(verdict, BoardShowsMove):
            if verdict.needs_choice:
                texts = tuple(st.session.rules.move_text(st.session.pos, m) for m in verdict.moves)
                st.pending_press = PressNeedsChoice(side, "promotion" if verdict.is_promotion else "which-move", texts)
                return [st.pending_press]
            return self._press_move(side, verdict.moves[0], t)
        return self._do({"type": "illegal", "side": side, "what": verdict.what}, t)

    def complete_press(self, option: str, t: int) -> list:
        """The choice a press waited for (a move text of :class:`PressNeedsChoice`)."""
        st = self._st
        pending = st.pending_press
        if pending is None:
            raise IllegalMoveError(_('no press is waiting for a choice'))
        if option not in pending.options:
            raise IllegalMoveError(_("{option!r} is not one of the choices ({items})").format(option=option, items=', '.join(pending.options)))
        st.pending_press = None
        flag = self.flag_if_due(t)
        if flag is not None:
            return flag
        move = st.session.rules.parse_move(st.session.pos, option)
        return self._press_move(pending.side, move, t)

    def pause(self, t: int, by: str = "player") -> list:
        c = self._st.clock
        if c is None or not c.counting:
            return []
        flag = self.flag_if_due(t)
        if flag is not None:
            return flag
        return self._do({"type": "pause", "why": by}, t)

    def resume(self, t: int) -> list:
        st = self._st
        if st.clock is None or not st.clock.paused or st.is_over:
            return []
        if st.session.pos.pending is not None and st.coupled:
            raise ClockError(_('the clock starts again when the fight is over'))
        return self._do({"type": "resume"}, t)

    def tick(self, t: int) -> list:
        """Time passed: a flag that has fallen is shown (and ends the game) at once."""
        if self._st.clock is None or self._st.is_over:
            return []
        return self.flag_if_due(t) or []

    def detected(self, detected) -> list:
        """The tracker saw a legal move; with a clock that presses itself, move and press are
        one entry (the press at the moment the move landed)."""
        s = self._st.session
        c = self._st.clock
        t = detected.t_ms
        text = s.rules.move_text(s.pos, detected.move)
        if c is None or not c.counting or c.running != s.turn:
            return s.play(detected.move)
        flag = self.flag_if_due(t)
        if flag is not None:
            return flag
        s.rules.parse_move(s.pos, text)
        return self._do({"type": "press", "side": s.turn, "move": text}, t)

    def _press_move(self, side: int, move: Move, t: int) -> list:
        s = self._st.session
        text = s.rules.move_text(s.pos, move)
        s.rules.parse_move(s.pos, text)  # refuse before writing
        board = self._st.board
        if board is not None and hasattr(board, "expect"):
            board.expect(move, t)
        return self._do({"type": "press", "side": side, "move": text}, t)

    # ----- flags ------------------------------------------------------------------------------------------
    def flag_if_due(self, t: int) -> list | None:
        """Record a fallen flag (an entry) if the running side's time has run out by ``t``."""
        st = self._st
        c = st.clock
        if c is None or st.is_over or not c.counting:
            return None
        side = c.fallen(t)
        if side is None:
            return None
        move_text = None
        if st.tournament:
            move_text = self._move_that_ends_the_game(t)
        return self._do({"type": "flag", "side": side, "move": move_text}, t)

    def _move_that_ends_the_game(self, t: int) -> str | None:
        """At a flag: a legal move the board shows (not yet pressed) that mates, stalemates or
        leaves a dead position ends the game first (FIDE 6.9 with 5.1.1, 5.2.1, 5.2.2)."""
        board = self._st.board
        if board is None or not hasattr(board, "complete"):
            return None
        verdict = board.complete(t)
        if not isinstance(verdict, BoardShowsMove) or verdict.needs_choice:
            return None
        s = self._st.session
        move = verdict.moves[0]
        s.rules.apply(s.pos, move)
        try:
            ends = s.pos.pending is None and s.rules.outcome(s.pos) is not None
        finally:
            s.rules.undo(s.pos)
        return s.rules.move_text(s.pos, move) if ends else None

    def _flag_result(self, side: int, move_text: str | None, t: int) -> list:
        """FIDE 6.9: the flag loses, unless the opponent cannot win (a draw)."""
        st = self._st
        s = st.session
        events: list = []
        name = st.name(side)
        if move_text is not None:
            events += s.act(PlayMove(move_text), record=False)
            if s.is_over:
                st.note(W.record("flag mate", name=name))
                return events + self.observe(events, t)
        others = [p for p in range(st.nsides) if p != side and p not in s.pos.var("out", ())]
        winners = tuple(p for p in others if can_win(s.rules, s.pos, p))
        if st.nsides == 2 and not winners:
            st.note(W.record("flag draw", name=name, other=st.name(1 - side)))
            events += s.act(Adjudicate((), "time, cannot win"), record=False)
        else:
            st.note(W.record("flag", name=name))
            events += s.act(Adjudicate(winners, "time"), record=False)
        return events + self.observe(events, t)

    def after_flag(self, events: list, t: int) -> list:
        """A flag the clock showed while it changed (a pause) decides the game."""
        for ev in events:
            if isinstance(ev, FlagFell) and not self._st.is_over:
                return self._flag_result(ev.side, None, t)
        return []

    # ----- observing the session -------------------------------------------------------------------------
    def observe(self, events: list, t: int) -> list:
        """React to what the session did (a move the tracker saw, a fight's end, a takeback, the
        game's end): derived only, nothing is journaled, so a replay does the same."""
        st = self._st
        s = st.session
        out: list = []
        c = st.clock
        for ev in events:
            if isinstance(ev, AnswerPlayed) and s.moves:
                st.answers.setdefault(len(s.moves) - 1, []).append(ev.text)
            elif isinstance(ev, TurnsUndone):
                n = len(s.moves)
                st.plies = {k: v for k, v in st.plies.items() if k < n}
                st.answers = {k: v for k, v in st.answers.items() if k < n}
                st.taps.clear()
                if c is not None and st.setup.auto_press and not st.is_over and c.counting:
                    st.clock = c = hand_over(c, s.turn, t)
            elif isinstance(ev, FightEnded) and c is not None and st.coupled and c.paused and not st.is_over:
                # the next player's clock starts when the dice have spoken
                st.clock = c = hand_over(c, s.turn, t)
            elif isinstance(ev, GameOver) and c is not None and not c.stopped:
                st.clock, more = c.stop(t)
                c = st.clock
                out += more
        return out

    # ----- the clock's entries (live and replay) ----------------------------------------------------------
    def apply_clock_start(self, e, t, where, dry):
        st = self._st
        side = TableEntry(e, where, ("type", "side", "spent")).side("side", st.nsides)
        if st.clock is None:
            raise RecordError(_("{where}: this game has no clock").format(where=where))
        if st.clock.started:
            raise RecordError(_("{where}: the clock is already started").format(where=where))
        if dry:
            return []
        st.clock, events = st.clock.start(side, t)
        return events

    def apply_press(self, e, t, where, dry):
        st = self._st
        f = TableEntry(e, where, ("type", "side", "move", "spent"))
        side = f.side("side", st.nsides)
        text = f.optional_text("move")
        c = st.clock
        if c is None or not c.counting or c.running != side:
            raise RecordError(_("{where}: side {side}'s clock is not running").format(where=where, side=side))
        s = st.session
        if text is not None:
            s.rules.parse_move(s.pos, text)
        if dry:
            return []
        spent = c.elapsed(t)
        events: list = []
        if text is not None:
            events += s.act(PlayMove(text), record=False)
            # a move declines what the others offered or tapped (FIDE 9.1.2.3); the mover's
            # own offer, made with this move, stands
            st.taps = {p: r for p, r in st.taps.items() if p == side}
            st.pending_press = None
        nxt = s.turn if (text is not None or s.turn != side) else st.next_after(side)
        if s.pos.pending is not None and s.pos.pending.player >= 0:
            nxt = s.pos.pending.player
        st.clock, clock_events = st.clock.press(side, t, nxt)
        events += clock_events
        if text is not None:
            st.plies[len(s.moves) - 1] = PlyClock(st.clock.left[side], spent)
            if any(isinstance(ev, FightStarted) for ev in events) and not s.is_over:
                st.clock, more = st.clock.pause(t)  # the dice are nobody's thinking time
                events += more
        elif s.moves and s.moves[-1].player == side and (len(s.moves) - 1) not in st.plies:
            st.plies[len(s.moves) - 1] = PlyClock(st.clock.left[side], spent)
        return events + self.observe(events, t)

    def apply_pause(self, e, t, where, dry):
        st = self._st
        why = TableEntry(e, where, ("type", "why", "spent")).text("why")
        if why not in ("player", "arbiter", "power", "text"):
            raise RecordError(_("{where}: 'why' is player, arbiter, power or text").format(where=where))
        if st.clock is None or not st.clock.started:
            raise RecordError(_("{where}: no clock runs").format(where=where))
        if dry:
            return []
        st.clock, events = st.clock.pause(t)
        if why == "arbiter":
            st.note(W.record("pause"))
        flagged = self.after_flag(events, t)
        if why in ("power", "text") and not st.is_over:
            times = " - ".join(format_time(x) for x in st.clock.view(t).times)
            st.note(W.record(why, times=times))
        return events + flagged

    def apply_resume(self, e, t, where, dry):
        st = self._st
        TableEntry(e, where, ("type", "spent"))
        if st.clock is None or not st.clock.paused:
            raise RecordError(_("{where}: the clock is not paused").format(where=where))
        if dry:
            return []
        st.clock, events = st.clock.resume(t)
        return events

    def apply_flag(self, e, t, where, dry):
        st = self._st
        f = TableEntry(e, where, ("type", "side", "move", "spent"))
        side = f.side("side", st.nsides)
        text = f.optional_text("move")
        if st.clock is None:
            raise RecordError(_("{where}: this game has no clock").format(where=where))
        if dry:
            return []
        st.clock, events = st.clock.flag(t)
        if st.clock.flagged is None:
            raise RecordError(_("{where}: side {side}'s time had not run out").format(where=where, side=side))
        return events + self._flag_result(side, text, t)
