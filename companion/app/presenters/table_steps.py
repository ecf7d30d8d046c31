"""The game at the table in the app: the chess clock, tournament procedures, the arbiter,
game records, players and pairings, and typing on the screen.

:class:`TableSteps` is part of companion.app.presenters.flow.AppFlow (a mixin, as DungeonSteps
is): the screens' presenters call these methods on the flow; they use its ``table``,
``session``, ``prompt``, ``notice``, ``screen``, ``store`` and clock. The rules of play are in
companion.tournament (a pure core); this is the thin edge that turns taps into table calls,
writes the records to the games folder and to a USB stick, and keeps the clock checkpoint.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass, field
from pathlib import Path

from ...bounds import MAX_PAIRING_BYTES, read_text_file
from ...errors import ClockError, CompanionError, PairingError, RecordError
from ...tournament import arbiter as pins
from ...tournament.checkpoint import NAME as CHECKPOINT, read_checkpoint, spent_to_restore
from ...tournament.clock import TENTHS_MS, FlagFell, face_changes_in, format_time
from ...tournament.files import copy_to_stick, save_game_pgn, write_file, write_private
from ...tournament.pairing import Pairing, Player, merge_results, parse_pairings, result_line, trf_with_result
from ...tournament.record import pgn_game
from ...tournament.table import (
    ArbiterActed, ClaimJudged, DrawOfferMade, IllegalMoveCaught, PowerRestored, PressNeedsChoice, ResultTapped, Table,
    TableSetup,
)
from ...tournament.timecontrol import PRESET_KEYS, parse_time_control, preset
from .. import texts as T
from .entry import Entry, time_ms
from .questions import Prompt, PromptOption

#: How often the running clock's checkpoint is written (ms).
CHECKPOINT_MS = 500
#: Files a pairing program writes.
PAIRING_SUFFIXES = (".trf", ".txt", ".csv", ".trfx")


@dataclass
class TableChoice:
    """The table settings for the next game, edited on the table screen."""

    mode: str = "casual"
    clock: str | None = None  # PGN TimeControl, None: no clock
    auto_press: bool = False
    last_move: bool = True
    event: str = ""
    round: int = 0
    board: int = 0
    ratings: list = field(default_factory=lambda: [None, None])
    names: list = field(default_factory=lambda: [None, None])  # from a pairing file
    pairing: Pairing | None = None
    pairing_file: str = ""  # where the pairing came from
    pairing_text: str = ""  # the TRF, to write the results back into
    pairing_kind: str = ""

    def setup(self, date: str, players: int = 2) -> TableSetup:
        ratings = tuple(self.ratings[:players]) if any(r is not None for r in self.ratings[:players]) else ()
        ids: tuple = ()
        source = ""
        if self.pairing is not None:
            p = self.pairing
            if self.pairing_kind == "trf":
                ids = (str(p.white_no), str(p.black_no))
            else:
                ids = (p.white.fide_id, p.black.fide_id)
            source = f"{self.pairing_kind}:{Path(self.pairing_file).name}"
        return TableSetup(self.mode, self.clock, self.auto_press and self.mode == "casual", self.last_move,
                          self.event, "", date, str(self.round) if self.round else "",
                          str(self.board) if self.board else "", ratings, ids, source)


class TableSteps:
    # ----- the clock -----------------------------------------------------------------------------
    def clock_tap(self, side: int) -> None:
        """A tap on ``side``'s half of the clock: start the other side's clock, or press."""
        t = self._now()
        self._command(lambda: self.table.press(side, t))

    def clock_pause(self) -> None:
        t = self._now()
        self._command(lambda: self.table.pause(t, "player"))

    def clock_resume(self) -> None:
        """Restart a paused clock: in casual play by the players; in a tournament by the arbiter."""
        if self.table is not None and self.table.tournament:
            self.open_arbiter()
            return
        t = self._now()
        self._command(lambda: self.table.resume(t))

    def toggle_clock_view(self) -> None:
        self.clock_shown = not self.clock_shown
        self.changed()

    def swap_clock(self) -> None:
        self.clock_swapped = not self.clock_swapped
        self.changed()

    # ----- tournament procedures ----------------------------------------------------------------
    def offer_draw_by(self, side: int) -> None:
        t = self._now()
        self._command(lambda: self.table.offer_draw(side, t))

    def claim_by(self, side: int) -> None:
        self.prompt = Prompt("claim", T.CLAIM_TITLE.format(name=self._seat_name(side)), (
            PromptOption(f"{side}:threefold", T.CLAIM_THREEFOLD), PromptOption(f"{side}:fifty", T.CLAIM_FIFTY)))
        self.changed()

    def result_by(self, side: int) -> None:
        tapped = self.table.taps.get(side) if self.table is not None else None
        options = [PromptOption(f"{side}:{code}", T.RESULT_BUTTONS[code], "", 0) for code in ("1-0", "1/2-1/2", "0-1")]
        if tapped is not None:
            options.append(PromptOption(f"{side}:none", T.RESULT_WITHDRAW))
        self.prompt = Prompt("result", T.RESULT_TITLE.format(name=self._seat_name(side)), tuple(options))
        self.changed()

    def resign_by(self, side: int) -> None:
        self.prompt = Prompt("resign-confirm", T.CONFIRM_RESIGN.format(name=self._seat_name(side)),
                             (PromptOption(str(side), T.YES_RESIGN),))
        self.changed()

    # ----- records ----------------------------------------------------------------------------------
    @property
    def games_folder(self) -> Path:
        return Path(self.store.directory) / "games"

    def save_record(self) -> Path | None:
        """The current game's PGN in the games folder now (on demand)."""
        if self.table is None:
            return None
        try:
            path = save_game_pgn(self.games_folder, self.table.game.game_id, pgn_game(self.table))
        except OSError as e:
            self.notice = T.CANNOT_SAVE.format(reason=e)
            self.changed()
            return None
        self.notice = T.RECORD_SAVED.format(name=path.name)
        self.changed()
        return path

    def copy_records(self) -> None:
        """Copy the games folder's records to a mounted USB stick (asking which, if several)."""
        sticks = self.sticks()
        if not sticks:
            self.notice = T.NO_STICK
            self.changed()
            return
        if len(sticks) > 1:
            self.prompt = Prompt("stick", T.WHICH_STICK, tuple(PromptOption(str(s.path), s.name) for s in sticks))
            self.changed()
            return
        self._copy_to(sticks[0].path, sticks[0].name)

    def _copy_to(self, path, name: str) -> None:
        try:
            report = copy_to_stick(self.games_folder, path)
            results = Path(self.store.directory) / "results"
            if results.is_dir():
                for f in sorted(results.iterdir()):
                    if f.is_file():
                        write_file(report.target / f.name, f.read_text(encoding="utf-8"))
        except OSError as e:
            self.notice = T.COPY_FAILED.format(name=name, reason=e.strerror or e)
        else:
            self.notice = T.COPIED.format(count=report.copied, name=name)
        self.changed()

    def _write_records(self, table: Table) -> None:
        """At the end of a game: its PGN, and for a paired game the round's results."""
        try:
            save_game_pgn(self.games_folder, table.game.game_id, pgn_game(table))
            pairing = table_pairing(table)
            if pairing is not None and table.is_over:
                code = _result_for_file(table)
                if code is not None:
                    self._write_results(table, pairing, code)
        except (OSError, CompanionError) as e:
            self.notice = T.CANNOT_SAVE.format(reason=e)

    def _write_results(self, table: Table, pairing: Pairing, code: str) -> None:
        """The round's results file (one CSV line per game played here) and, for a TRF
        pairing, the TRF with every result entered here, in the data folder's results/."""
        folder = Path(self.store.directory) / "results"
        folder.mkdir(parents=True, exist_ok=True)
        csv_path = folder / f"round-{pairing.round}-results.csv"
        existing = csv_path.read_text(encoding="utf-8") if csv_path.exists() else ""
        write_file(csv_path, merge_results(existing, result_line(pairing, code)))
        kind, _, name = table.setup.source.partition(":")
        if kind == "trf":
            trf_path = folder / f"round-{pairing.round}-{name}"
            original = Path(self.store.directory) / "pairings" / name
            base = trf_path.read_text(encoding="utf-8") if trf_path.exists() else original.read_text(encoding="utf-8")
            write_file(trf_path, trf_with_result(base, pairing, code, name))

    # ----- the arbiter --------------------------------------------------------------------------------
    def open_arbiter(self) -> None:
        """Arbiter mode, behind the PIN (set on the board the first time)."""
        record = self._pin_record()
        if record is None:
            self.open_entry(Entry(T.PIN_SET, keys="digits", secret=True, max_len=pins.MAX_PIN,
                                  on_done=self._pin_first))
            return
        self.open_entry(Entry(T.PIN_ENTER, keys="digits", secret=True, max_len=pins.MAX_PIN,
                              on_done=lambda pin: self._pin_check(record, pin)))

    def _pin_first(self, pin: str) -> str | None:
        if not pins.valid_pin(pin):
            return T.PIN_RULE
        self.open_entry(Entry(T.PIN_AGAIN, keys="digits", secret=True, max_len=pins.MAX_PIN,
                              on_done=lambda again: self._pin_save(pin, again)))
        return None

    def _pin_save(self, pin: str, again: str) -> str | None:
        if again != pin:
            return T.PIN_MISMATCH
        try:
            path = Path(self.store.directory) / "arbiter.json"
            path.parent.mkdir(parents=True, exist_ok=True)
            write_file(path, pins.make_pin(pin, self.new_salt()).to_json())
        except OSError as e:
            return T.CANNOT_SAVE.format(reason=e)
        self._enter_arbiter()
        return None

    def _pin_check(self, record, pin: str) -> str | None:
        if not pins.pin_matches(record, pin):
            return T.PIN_WRONG
        self._enter_arbiter()
        return None

    def _pin_record(self):
        path = Path(self.store.directory) / "arbiter.json"
        if not path.exists():
            return None
        try:
            return pins.PinRecord.from_json(path.read_text(encoding="utf-8"))
        except (OSError, RecordError):
            return None

    def _enter_arbiter(self) -> None:
        self._arbiter_back = self.screen if self.screen != "arbiter" else self._arbiter_back
        self.screen = "arbiter"
        self.arbiter_takeback = 1
        self.changed()

    def close_arbiter(self) -> None:
        self.screen = self._arbiter_back if self._arbiter_back in ("game", "game_over") else "game"
        if self.table is not None and self.table.is_over and self.over is not None:
            self.screen = "game_over"
        self.changed()

    def change_pin(self) -> None:
        self.open_entry(Entry(T.PIN_SET, keys="digits", secret=True, max_len=pins.MAX_PIN, on_done=self._pin_first))

    def arbiter_do(self, op: str, **args) -> None:
        t = self._now()
        self._command(lambda: self.table.arbiter(op, t, **args))

    def arbiter_set_time(self, side: int) -> None:
        self.open_entry(Entry(T.SET_TIME.format(name=self._seat_name(side)), keys="digits", kind="time", max_len=6,
                              on_done=lambda digits: self._arbiter_time(side, digits)))

    def _arbiter_time(self, side: int, digits: str) -> str | None:
        if not digits:
            return T.TIME_RULE
        self.arbiter_do("set-time", side=side, ms=time_ms(digits))
        return None

    # ----- the table screen: settings, players, pairings -------------------------------------------------
    def table_summary(self) -> str:
        """One line for the start screen: "Tournament, 15+10 - Round 3 · Board 7"."""
        from ...tournament.timecontrol import PRESETS

        c = self.next_table
        if c.clock is None and c.mode == "casual":
            text = T.TABLE_SUMMARY_NONE
        else:
            current = next((p.key for p in PRESETS if p.control.pgn() == c.clock), None)
            clock = T.CLOCK_SHORT.get(current) or T.CLOCK_PRESETS.get(current) or c.clock or T.NO_CLOCK
            text = T.TABLE_SUMMARY.format(mode=T.MODE_NAMES[c.mode], clock=clock)
        if c.round and c.board:
            text += "  \u2013  " + T.TABLE_PAIRED.format(round=c.round, board=c.board)
        return text

    def open_table_setup(self) -> None:
        self.screen = "table_setup"
        self.changed()

    def close_table_setup(self) -> None:
        self.screen = "start"
        self.changed()

    def table_mode(self, mode: str) -> None:
        c = self.next_table
        c.mode = mode
        if mode == "tournament" and c.clock is None:
            c.clock = preset("fide-standard").pgn()
        self.changed()

    def table_clock(self, key: str | None) -> None:
        c = self.next_table
        if key is None:
            if c.mode == "tournament":
                self.notice = T.TOURNAMENT_NEEDS_CLOCK
            else:
                c.clock = None
        else:
            c.clock = preset(key).pgn() if key in PRESET_KEYS else parse_time_control(key).pgn()
        self.changed()

    def more_clocks(self) -> None:
        self.prompt = Prompt("clock-preset", T.CLOCK_PRESETS_TITLE, tuple(
            PromptOption(key, T.CLOCK_PRESETS[key]) for key in PRESET_KEYS))
        self.changed()

    def toggle_auto_press(self) -> None:
        self.next_table.auto_press = not self.next_table.auto_press
        self.changed()

    def toggle_last_move(self) -> None:
        self.next_table.last_move = not self.next_table.last_move
        self.changed()

    def step_round(self, step: int) -> None:
        self.next_table.round = max(0, min(999, self.next_table.round + step))
        self.changed()

    def step_board(self, step: int) -> None:
        self.next_table.board = max(0, min(999, self.next_table.board + step))
        self.changed()

    def edit_event(self) -> None:
        self.open_entry(Entry(T.EVENT_TITLE, self.next_table.event, max_len=60, on_done=self._set_event))

    def _set_event(self, text: str) -> None:
        self.next_table.event = " ".join(text.split())

    def edit_rating(self, side: int) -> None:
        current = self.next_table.ratings[side]
        self.open_entry(Entry(T.RATING_TITLE.format(colour=T.COLOUR_NAMES[side]), str(current or ""), keys="digits",
                              max_len=4, on_done=lambda text: self._set_rating(side, text)))

    def _set_rating(self, side: int, text: str) -> str | None:
        if text and not 0 <= int(text) <= 4000:
            return T.RATING_RULE
        self.next_table.ratings[side] = int(text) if text else None
        return None

    def open_pairing_files(self) -> None:
        """The pairing files on the mounted USB sticks (and in the data folder's pairings/)."""
        files = self.pairing_files()
        if not files:
            self.notice = T.NO_PAIRING_FILES
            self.changed()
            return
        self.prompt = Prompt("pairing-file", T.PAIRING_FILES_TITLE, tuple(
            PromptOption(str(path), label) for path, label in files[:12]))
        self.changed()

    def pairing_files(self) -> list[tuple[Path, str]]:
        places = [(s.path, s.name) for s in self.sticks()]
        places += [(s.path / "companion-games", s.name) for s in self.sticks()]
        places.append((Path(self.store.directory) / "pairings", T.DATA_FOLDER))
        out = []
        for folder, name in places:
            try:
                files = sorted(p for p in folder.iterdir() if p.is_file() and p.suffix.lower() in PAIRING_SUFFIXES)
            except OSError:
                continue
            out += [(p, f"{p.name} ({name})") for p in files if "results" not in p.name]
        return out

    def load_pairing(self, path) -> None:
        """Read a pairing file; a malformed line is one message and nothing changes."""
        path = Path(path)
        try:
            text = read_text_file(path, MAX_PAIRING_BYTES, "a pairing file", PairingError, "utf-8-sig")
            pairings = parse_pairings(text, path.name)
        except (OSError, UnicodeDecodeError) as e:
            self.notice = T.PAIRING_UNREADABLE.format(name=path.name, reason=getattr(e, "strerror", None) or e)
            self.changed()
            return
        except PairingError as e:
            self.notice = str(e)
            self.changed()
            return
        self._pairings = (pairings, text)
        self.prompt = Prompt("pairing-board", T.PAIRING_BOARDS_TITLE.format(round=pairings.round), tuple(
            PromptOption(str(g.board), T.PAIRING_LINE.format(board=g.board, white=g.white.label(), black=g.black.label()))
            for g in pairings.games[:20]))
        self.changed()

    def choose_board(self, board: int) -> None:
        pairings, text = self._pairings
        game = pairings.board(board)
        c = self.next_table
        try:  # a copy for writing the results back, even after a power cut (the user's only: the hall's round key)
            write_private(Path(self.store.directory) / "pairings" / Path(pairings.source).name, text)
        except OSError as e:
            self.notice = T.CANNOT_SAVE.format(reason=e)
            self.changed()
            return
        c.pairing, c.pairing_file, c.pairing_text, c.pairing_kind = game, pairings.source, text, pairings.kind
        c.round, c.board = game.round, game.board
        c.names = [game.white.name, game.black.name]
        c.ratings = [game.white.rating, game.black.rating]
        c.event = pairings.event or game.event or c.event
        control = game.time_control or _words_to_control(pairings.time_control_words)
        if control is not None:
            c.clock = control
        if pairings.kind == "trf" and c.mode == "casual":
            c.mode = "tournament"
            c.clock = c.clock or preset("fide-standard").pgn()
        self.notice = T.PAIRING_CHOSEN.format(round=game.round, board=game.board)
        self.changed()

    def clear_pairing(self) -> None:
        c = self.next_table
        c.pairing, c.names, c.pairing_text, c.pairing_file, c.pairing_kind = None, [None, None], "", "", ""
        self.changed()

    # ----- typing ---------------------------------------------------------------------------------------
    def open_entry(self, entry: Entry) -> None:
        self.entry = entry
        self.changed()

    def entry_key(self, key: str) -> None:
        if self.entry is not None:
            self.entry = self.entry.press(key)
            self.changed()

    def entry_done(self) -> None:
        entry = self.entry
        if entry is None:
            return
        self.entry = None
        problem = entry.on_done(entry.text) if entry.on_done is not None else None
        if problem:
            from dataclasses import replace

            self.entry = replace(entry, problem=problem, text="" if entry.secret else entry.text)
        self.changed()

    def entry_cancel(self) -> None:
        self.entry = None
        self.changed()

    # ----- wiring with the flow ---------------------------------------------------------------------------
    def _answer_table_prompt(self, prompt: Prompt, key: str) -> bool:
        """Answers to the questions asked here; False if ``prompt`` is not one of them."""
        t = self._now()
        kind = prompt.kind
        if kind == "press-choice":
            self._command(lambda: self.table.complete_press(key, t))
        elif kind == "claim":
            side, what = key.split(":")
            self._command(lambda: self.table.claim(int(side), what, t))
        elif kind == "result":
            side, code = key.split(":")
            self._command(lambda: self.table.tap_result(int(side), None if code == "none" else code, t))
        elif kind == "stick":
            self._copy_to(Path(key), Path(key).name)
        elif kind == "clock-preset":
            self.table_clock(key)
        elif kind == "pairing-file":
            self.load_pairing(key)
        elif kind == "pairing-board":
            self.choose_board(int(key))
        elif kind == "arbiter-result":
            self.arbiter_do("result", result=key)
        else:
            return False
        return True

    def _table_event(self, ev) -> bool:
        """Show what the table did; False if ``ev`` is not the table's."""
        s = self.session
        if isinstance(ev, PressNeedsChoice):
            options = []
            for i, text in enumerate(ev.options):
                move = s.rules.parse_move(s.pos, text)
                if ev.kind == "promotion" and move.promotion and move.promotion.upper() in T.PIECE_CODES:
                    kind = T.PIECE_CODES[move.promotion.upper()]
                    options.append(PromptOption(text, T.piece_name(kind).capitalize(), T.PIECE_GLYPHS[kind], ev.side))
                else:
                    options.append(PromptOption(text, self._move_words(text)))
            title = T.PROMOTE if ev.kind == "promotion" else T.WHICH_MOVE
            self.prompt = Prompt("press-choice", title, tuple(options), cancel=False)
        elif isinstance(ev, IllegalMoveCaught):
            name, other = self._seat_name(ev.side), self._seat_name(1 - ev.side)
            if ev.penalty_ms:
                self.notice = T.ILLEGAL_CAUGHT.format(name=name, other=other, time=format_time(ev.penalty_ms))
            else:
                self.notice = T.ILLEGAL_SECOND.format(name=name)
        elif isinstance(ev, ClaimJudged):
            name, other = self._seat_name(ev.player), self._seat_name(1 - ev.player)
            self.notice = (T.CLAIM_RIGHT if ev.correct else T.CLAIM_WRONG).format(
                name=name, other=other, time=format_time(ev.penalty_ms))
        elif isinstance(ev, DrawOfferMade):
            self.notice = T.DRAW_OFFERED.format(name=self._seat_name(ev.player),
                                                other=self._seat_name(1 - ev.player))
        elif isinstance(ev, ResultTapped):
            self.notice = (T.RESULT_TAPPED.format(name=self._seat_name(ev.player), result=T.RESULT_BUTTONS[ev.result])
                           if ev.result else T.RESULT_TAKEN_BACK.format(name=self._seat_name(ev.player)))
        elif isinstance(ev, ArbiterActed):
            self.notice = T.ARBITER_DONE.get(ev.text, "")
        elif isinstance(ev, PowerRestored):
            self.notice = T.POWER_RESTORED.format(times=" \u2013 ".join(format_time(x) for x in ev.times))
        elif isinstance(ev, FlagFell):
            self.notice = T.FLAG_FELL.format(name=self._seat_name(ev.side))
        else:
            return False
        return True

    def _close_table_questions(self) -> None:
        """The game ended (a flag while the promotion piece was being chosen, ...): the table's
        open questions no longer apply."""
        if self.prompt is not None and self.prompt.kind in ("press-choice", "claim", "result"):
            self.prompt = None
        if self.table is not None:
            self.table.cancel_press()

    def _tick_table(self, t: int) -> None:
        """Every frame: a fallen flag is shown at once; the running clock's checkpoint."""
        table = self.table
        if table is None or table.clock is None:
            self.next_face_ms, self.clock_at_full_rate = None, False
            return
        if not table.is_over:
            events = table.tick(t)
            if events:
                self._handle(events)
        c = table.clock
        view = c.view(t)
        faces = tuple(format_time(ms) for ms in view.times) + (view.flagged, view.delay_left // 100, view.counting)
        if faces != self._faces:
            self._faces = faces
            # the clock screen redraws when a face changes, not every frame; the time running
            # down is no activity: the main loop may rest meanwhile (companion/app/pacing.py)
            self.changed(activity=False)
        until = face_changes_in(view)
        self.next_face_ms = None if until is None else t + until
        # the full rate while a clock runs that a person presses by a tap (a tap at rest would be
        # seen, and stamped, up to a rest frame late: the mover would be charged for it), and
        # under ten seconds or in a delay (the face changes ten times a second anyway); a clock
        # that presses itself is pressed by board events, which wake the loop at once
        self.clock_at_full_rate = until is not None and (
            not table.setup.auto_press or view.delay_left > 0 or view.times[view.running] < TENTHS_MS)
        if self.checkpoints is not None and self.journal is not None and c.counting and not table.is_over \
                and t - self._checkpoint_t >= CHECKPOINT_MS:
            self._checkpoint_t = t
            # handed to the writer thread (the UI thread never waits for the disk)
            self.checkpoints.put(self.journal.next_seq - 1, c.running, c.moves, c.elapsed(t))
        if self.checkpoints is not None:
            failed = self.checkpoints.take_error()  # once, until a write succeeds again
            if failed is not None:  # the journal's own entries still hold the game
                self.notice = T.CLOCK_NOT_SAVED.format(reason=failed)
                self.changed()

    def _restore_clock(self) -> None:
        """After a resume: the clock paused where the checkpoint saw it (the outage is nobody's)."""
        table = self.table
        if table is None or table.clock is None or self.journal is None:
            return
        c = table.clock
        self.checkpoints.flush()  # a clear or a write still on its way
        cp = read_checkpoint(Path(self.store.directory) / CHECKPOINT)
        spent = spent_to_restore(cp, self.journal.next_seq - 1, c.running, c.moves)
        try:
            events = table.after_power_cut(spent, self._now())
        except (OSError, CompanionError) as e:
            self.notice = T.CANNOT_SAVE.format(reason=e)
            return
        self._handle(events)

    def _now(self) -> int:
        return self.clock_ms()

    def _seat_name(self, side: int) -> str:
        s = self.session
        return s.seats[side].name if s is not None and 0 <= side < len(s.seats) else T.COLOUR_NAMES[side % 2]


def table_pairing(table: Table) -> Pairing | None:
    """The pairing a game was started from (its table entry names it), to write its result."""
    s = table.setup
    if not s.source or not s.round.isdigit() or not s.board.isdigit():
        return None
    kind = s.source.partition(":")[0]
    seats = table.game.seats
    ids = s.ids if len(s.ids) == 2 else ("", "")
    ratings = s.ratings if len(s.ratings) == 2 else (None, None)
    numbers = [int(i) if kind == "trf" and i.isdigit() else 0 for i in ids]
    players = [Player(numbers[i], seats[i].name, ratings[i], fide_id="" if kind == "trf" else ids[i]) for i in (0, 1)]
    return Pairing(int(s.round), int(s.board), players[0], players[1], s.time_control, s.event, numbers[0], numbers[1])


def _result_for_file(table: Table) -> str | None:
    score = table.score()
    if score is None or len(score) != 2:
        return None
    if table.override is not None:
        codes = {(1.0, 0.0): "+-" if table.forfeit else "1-0", (0.0, 1.0): "-+" if table.forfeit else "0-1",
                 (0.0, 0.0): "--" if table.forfeit else "0-0", (0.5, 0.5): "1/2-1/2"}
        return codes.get(tuple(score))
    return table.result_code() if table.result_code() != "*" else None


def _words_to_control(words: str) -> str | None:
    """A TRF ``122`` line in words, when it reads as minutes plus seconds per move ("15 min +
    10 sec", "15'+10''", "90 min/40 moves + 30 min + 30 sec"); else None (the TD sets it)."""
    import re

    text = words.lower().replace("minutes", "min").replace("seconds", "sec").replace("\u2032", "'")
    m = re.fullmatch(r"\s*(\d+)\s*(?:min|')?\s*(?:/\s*(\d+)\s*moves?)?\s*(?:\+\s*(\d+)\s*(?:min|')\s*)?"
                     r"(?:\+\s*(\d+)\s*(?:sec|s|''|\")?\s*(?:per move|/move|/ move)?)?\s*", text)
    if m is None:
        return None
    base, moves, second, inc = m.groups()
    inc_text = f"+{inc}" if inc else ""
    try:
        if moves and second:
            return parse_time_control(f"{moves}/{int(base) * 60}{inc_text}:{int(second) * 60}{inc_text}").pgn()
        if not moves and not second:
            return parse_time_control(f"{int(base) * 60}{inc_text}").pgn()
    except ClockError:
        return None
    return None


def today() -> str:
    """The date for the PGN Date tag (at the edge: the wall clock)."""
    return time.strftime("%Y.%m.%d")


def new_salt() -> bytes:
    return secrets.token_bytes(16)


__all__ = ["TableSteps", "TableChoice", "today", "new_salt"]
