"""The chess clock of the game at the table, and the players' procedures at it: the taps on
the clock, a draw offered, a claim, a result tapped, a resignation; what the table makes of
them on screen (an illegal move caught, a claim judged, a flag fallen); the running clock's
checkpoint on disk, and the clock restored from it after a power cut.

:class:`ClockRoom` owns how the clock is shown (the clock screen or the board, which side is
left), the checkpoint writer and the running face's timing. The rules of play are in
companion.tournament (a pure core); this is the thin edge that turns taps into table calls.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ...errors import CompanionError
from ...tournament.checkpoint import NAME as CHECKPOINT, CheckpointFile, CheckpointWriter, read_checkpoint_state, \
    set_aside, spent_to_restore
from ...tournament.clock import TENTHS_MS, FlagFell, face_changes_in, format_time
from ...tournament.table import ArbiterActed, ClaimJudged, DrawOfferMade, IllegalMoveCaught, PowerRestored, \
    PressNeedsChoice, ResultTapped
from .. import texts as T
from .display import Display
from .game_room import GameRoom
from .messages import GameOpened
from .play import move_words
from .questions import Prompt, PromptOption

#: How often the running clock's checkpoint is written (ms).
CHECKPOINT_MS = 500
#: The table's events this room shows (flow.py subscribes :meth:`ClockRoom.show` to them).
SHOWN = (PressNeedsChoice, IllegalMoveCaught, ClaimJudged, DrawOfferMade, ResultTapped, ArbiterActed, PowerRestored,
         FlagFell)
#: The questions asked here, answered in :meth:`ClockRoom.answer`.
ASKED = ("press-choice", "claim", "result", "clock-not-restored")


class ClockRoom:
    """``arbiter`` is the ArbiterMode (a paused tournament clock is restarted by the arbiter)."""

    def __init__(self, game: GameRoom, display: Display, arbiter: Any, directory: Path) -> None:
        self.game = game
        self.display = display
        self.arbiter = arbiter
        self.shown = True  # the clock screen rather than the board, in a game with a clock
        self.swapped = False  # Black's half on the left
        # the running clock on disk, written on a thread of its own (an fsync is slow on an SD card)
        self.checkpoints = CheckpointWriter(CheckpointFile(Path(directory) / CHECKPOINT))
        self.path = Path(directory) / CHECKPOINT
        self._checkpoint_t = 0
        self._faces = None
        self.next_face_ms: int | None = None  # when the running clock's face next changes (clock_ms)
        self.at_full_rate = False  # a running clock keeps the main loop at the full rate (tick)

    @property
    def table(self):
        return self.game.table

    # ----- the clock -----------------------------------------------------------------------------
    def tap(self, side: int) -> None:
        """A tap on ``side``'s half of the clock: start the other side's clock, or press."""
        t = self.game.clock_ms()
        self.game.command(lambda: self.table.press(side, t))

    def pause(self) -> None:
        t = self.game.clock_ms()
        self.game.command(lambda: self.table.pause(t, "player"))

    def resume(self) -> None:
        """Restart a paused clock: in casual play by the players; in a tournament by the arbiter."""
        if self.table is not None and self.table.tournament:
            self.arbiter.open()
            return
        t = self.game.clock_ms()
        self.game.command(lambda: self.table.resume(t))

    def toggle_view(self) -> None:
        self.shown = not self.shown
        self.display.changed()

    def swap(self) -> None:
        self.swapped = not self.swapped
        self.display.changed()

    @property
    def on_screen(self) -> bool:
        """The game's screen is the clock (a game with a clock, the board a tap away)."""
        table = self.table
        return self.shown and table is not None and table.clock is not None

    # ----- the players' procedures ----------------------------------------------------------------
    def offer_draw_by(self, side: int) -> None:
        t = self.game.clock_ms()
        self.game.command(lambda: self.table.offer_draw(side, t))

    def claim_by(self, side: int) -> None:
        self.display.ask(Prompt("claim", T.CLAIM_TITLE.format(name=self.seat_name(side)), (
            PromptOption(f"{side}:threefold", T.CLAIM_THREEFOLD), PromptOption(f"{side}:fifty", T.CLAIM_FIFTY))))

    def result_by(self, side: int) -> None:
        tapped = self.table.taps.get(side) if self.table is not None else None
        options = [PromptOption(f"{side}:{code}", T.RESULT_BUTTONS[code], "", 0) for code in ("1-0", "1/2-1/2", "0-1")]
        if tapped is not None:
            options.append(PromptOption(f"{side}:none", T.RESULT_WITHDRAW))
        self.display.ask(Prompt("result", T.RESULT_TITLE.format(name=self.seat_name(side)), tuple(options)))

    def resign_by(self, side: int) -> None:
        self.display.ask(Prompt("resign-confirm", T.CONFIRM_RESIGN.format(name=self.seat_name(side)),
                                (PromptOption(str(side), T.YES_RESIGN),)))

    def answer(self, prompt: Prompt, key: str | None) -> None:
        """Display.answers_to: which move a press completes, a claim, a result tapped."""
        t = self.game.clock_ms()
        table = self.table
        if key is None or table is None:
            return
        if prompt.kind == "clock-not-restored":
            self.arbiter.open()  # behind the PIN: the arbiter sets the times
        elif prompt.kind == "press-choice":
            self.game.command(lambda: table.complete_press(key, t))
        elif prompt.kind == "claim":
            side, what = key.split(":")
            self.game.command(lambda: table.claim(int(side), what, t))
        elif prompt.kind == "result":
            side, code = key.split(":")
            self.game.command(lambda: table.tap_result(int(side), None if code == "none" else code, t))

    # ----- what the table did -------------------------------------------------------------------------
    def show(self, ev) -> None:
        """One of the table's events (SHOWN), on screen."""
        d, name = self.display, self.seat_name
        if isinstance(ev, PressNeedsChoice):
            s = self.game.session
            options = []
            for text in ev.options:
                move = s.rules.parse_move(s.pos, text)
                if ev.kind == "promotion" and move.promotion and move.promotion.upper() in T.PIECE_CODES:
                    kind = T.PIECE_CODES[move.promotion.upper()]
                    options.append(PromptOption(text, T.piece_name(kind).capitalize(), T.PIECE_GLYPHS[kind], ev.side))
                else:
                    options.append(PromptOption(text, move_words(s, text)))
            title = T.PROMOTE if ev.kind == "promotion" else T.WHICH_MOVE
            d.prompt = Prompt("press-choice", title, tuple(options), cancel=False)
        elif isinstance(ev, IllegalMoveCaught):
            if ev.penalty_ms:
                d.notice = T.ILLEGAL_CAUGHT.format(name=name(ev.side), other=name(1 - ev.side),
                                                   time=format_time(ev.penalty_ms))
            else:
                d.notice = T.ILLEGAL_SECOND.format(name=name(ev.side))
        elif isinstance(ev, ClaimJudged):
            d.notice = (T.CLAIM_RIGHT if ev.correct else T.CLAIM_WRONG).format(
                name=name(ev.player), other=name(1 - ev.player), time=format_time(ev.penalty_ms))
        elif isinstance(ev, DrawOfferMade):
            d.notice = T.DRAW_OFFERED.format(name=name(ev.player), other=name(1 - ev.player))
        elif isinstance(ev, ResultTapped):
            d.notice = (T.RESULT_TAPPED.format(name=name(ev.player), result=T.RESULT_BUTTONS[ev.result])
                        if ev.result else T.RESULT_TAKEN_BACK.format(name=name(ev.player)))
        elif isinstance(ev, ArbiterActed):
            d.notice = T.ARBITER_DONE.get(ev.text, "")
        elif isinstance(ev, PowerRestored):
            d.notice = T.POWER_RESTORED.format(times=" \u2013 ".join(format_time(x) for x in ev.times))
        elif isinstance(ev, FlagFell):
            d.notice = T.FLAG_FELL.format(name=name(ev.side))

    def close_questions(self, _event=None) -> None:
        """The game ended (a flag while the promotion piece was being chosen, ...): the table's
        open questions no longer apply."""
        if self.display.prompt is not None and self.display.prompt.kind in ASKED:
            self.display.prompt = None
        if self.table is not None:
            self.table.cancel_press()

    # ----- every frame ------------------------------------------------------------------------------------
    def tick(self, t: int) -> None:
        """Every frame: a fallen flag is shown at once; the running clock's checkpoint."""
        table = self.table
        if table is None or table.clock is None:
            self.next_face_ms, self.at_full_rate = None, False
            return
        if not table.is_over:
            events = table.tick(t)
            if events:
                self.game.handle(events)
        c = table.clock
        view = c.view(t)
        faces = tuple(format_time(ms) for ms in view.times) + (view.flagged, view.delay_left // 100, view.counting)
        if faces != self._faces:
            self._faces = faces
            # the clock screen redraws when a face changes, not every frame; the time running
            # down is no activity: the main loop may rest meanwhile (companion/app/pacing.py)
            self.display.changed(activity=False)
        until = face_changes_in(view)
        self.next_face_ms = None if until is None else t + until
        # the full rate while a clock runs that a person presses by a tap (a tap at rest would be
        # seen, and stamped, up to a rest frame late: the mover would be charged for it), and
        # under ten seconds or in a delay (the face changes ten times a second anyway); a clock
        # that presses itself is pressed by board events, which wake the loop at once
        self.at_full_rate = until is not None and (
            not table.setup.auto_press or view.delay_left > 0 or view.times[view.running] < TENTHS_MS)
        journal = self.game.journal
        if journal is not None and c.counting and not table.is_over and t - self._checkpoint_t >= CHECKPOINT_MS:
            self._checkpoint_t = t
            # handed to the writer thread (the UI thread never waits for the disk)
            self.checkpoints.put(journal.next_seq - 1, c.running, c.moves, c.elapsed(t))
        failed = self.checkpoints.take_error()  # once, until a write succeeds again
        if failed is not None:  # the journal's own entries still hold the game
            self.display.notice = T.CLOCK_NOT_SAVED.format(reason=failed)
            self.display.changed()

    # ----- a game opened, closed, filed ---------------------------------------------------------------------
    def game_opened(self, event: GameOpened) -> None:
        if event.resumed:
            self._restore()
        else:
            self.checkpoints.clear()

    def forget(self, _event=None) -> None:
        """The game was put away or filed: no checkpoint belongs to the next one."""
        self.checkpoints.clear()

    def _restore(self) -> None:
        """After a resume: the clock paused where the checkpoint saw it (the outage is nobody's).
        A damaged checkpoint is said on screen: the times are the journal's (each move's clock is
        there, the thinking time since the last move is not), and the arbiter may set them."""
        table, journal = self.table, self.game.journal
        if table is None or table.clock is None or journal is None:
            return
        c = table.clock
        self.checkpoints.flush()  # a clear or a write still on its way
        state = read_checkpoint_state(self.path)
        was_running = c.counting and not table.is_over
        spent = spent_to_restore(state.checkpoint, journal.next_seq - 1, c.running, c.moves)
        try:
            events = table.after_power_cut(spent, self.game.clock_ms())
        except (OSError, CompanionError) as e:
            self.display.notice = T.CANNOT_SAVE.format(reason=e)
            return
        self.game.handle(events)
        if state.damage:
            set_aside(self.path)  # the next checkpoint is written anew (the damaged one kept as .damaged)
            if was_running:
                self._not_restored(state.damage)

    def _not_restored(self, damage: str) -> None:
        times = " \u2013 ".join(format_time(ms) for ms in self.table.clock.view(self.game.clock_ms()).times)
        self.display.notice = T.CLOCK_NOT_RESTORED_SHORT.format(times=times)  # on the clock screen, until a move
        self.display.ask(Prompt("clock-not-restored", T.CLOCK_NOT_RESTORED.format(reason=damage, times=times),
                                (PromptOption("arbiter", T.SET_CLOCKS),), cancel_label=T.CLOSE))

    def stop(self) -> None:
        self.checkpoints.close()

    def seat_name(self, side: int) -> str:
        s = self.game.session
        return s.seats[side].name if s is not None and 0 <= side < len(s.seats) else T.COLOUR_NAMES[side % 2]


__all__ = ["ClockRoom", "CHECKPOINT_MS", "SHOWN", "ASKED"]
