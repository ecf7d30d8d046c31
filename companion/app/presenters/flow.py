"""The app's coordinator: which screen is up, the game session, the board, the computer.

Plain Python, no Kivy: the Kivy app calls :meth:`AppFlow.pump` on its clock and the screens'
presenters call the command methods; tests do the same without a window.

Threads never touch the game. Board adapters (a scan thread, the serial reader), the computer's
search and the resume replay run elsewhere and only :meth:`post` values to the inbox; ``pump``
drains it on the UI thread, feeds the session, and renders the LED frame. Every change bumps
:attr:`version` and calls the listeners, so a screen redraws only when something changed.

A worker that fails never leaves a screen waiting: the resume replay and any other work given
to ``run_in_worker`` post ``worker-failed`` on any exception, and a computer that cannot choose
a move reports that too; the flow then shows the ``problem`` screen (:class:`Problem`): what
happened, what the players can do, and a button to go on. The free space where games are saved
is looked at every :data:`SPACE_CHECK_MS` and after a save fails; when it is low, a warning
(:attr:`AppFlow.space_warning`) is on the start screen and in the game's banner.
"""

from __future__ import annotations

import queue
import secrets
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from ... import player_names
from ...board.palette import Meaning, Pattern, blinking, phase, render
from ...board.ports import BoardConnected, BoardDisconnected, OccupancySnapshot, SquareChanged, blank_frame
from ...board.deployment import DeploymentTracker
from ...board.tracker import (
    GuidanceChanged, IllegalMoveShown, InSync, LedsChanged, OutOfSync, PromptRequested, PromptWithdrawn,
    ScreenMovesChanged, SetupCompleted,
)
from ...core.moves import Answer, Move
from ...dice.record import RoundRecord, format_record
from ...errors import CompanionError
from ...gametext import MAX_CHARS, format_game, journal_entries, load_text
from ...journal import ARCHIVE, JournalStore, Resumed, resume, space_level
from ...session import (
    ActionRefused, AnswerPlayed, DiceRolled, DrawDeclined, DrawOffered, FightEnded, FightInfo, FightStarted,
    GameOver, GameSetup, MovePlayed, PartSealed, PlayerResigned, PositionSet, Seat, Session, TurnsUndone,
)
from ...tournament.checkpoint import NAME as CHECKPOINT, CheckpointFile, CheckpointWriter
from ...tournament.files import MEDIA_ROOTS, Stick, find_sticks
from ...tournament.quiet import QuietBoard
from ...tournament.table import Table, TableSetup
from .. import texts as T
from ..computer import ComputerFailed
from .board_size import BoardLink, BoardSizing
from .dungeon_prep import DungeonPrep
from .dungeon_steps import DungeonSteps
from .games_steps import GamesSteps
from .entry import Entry
from .extras import GameExtras, extras_for
from .match_steps import MatchSteps
from .questions import BOARD_QUESTIONS, Prompt, PromptOption
from .table_steps import TableChoice, TableSteps, new_salt, today

#: the Load / Save screen's modes that show the keyboard ("other": another screen's text)
TYPING_MODES = ("type", "correct", "other")

__all__ = ["AppFlow", "BoardLink", "Prompt", "PromptOption", "FightState", "Thinking"]

#: Milliseconds each LED stays lit during the board check's walk.
WALK_STEP_MS = 250
#: Game texts saved on the board (under the journal directory) and listed for loading.
TEXTS_DIR = "texts"
MAX_LISTED = 40
#: Milliseconds between two looks at the free space where games are saved.
SPACE_CHECK_MS = 10_000
#: The computer's secret bid is drawn with a random number k / RANDOM_STEPS (k drawn at the edge).
RANDOM_STEPS = 1 << 30


@dataclass(frozen=True)
class Problem:
    """Something went wrong out of sight (a worker failed): the ``problem`` screen's words,
    and where its buttons lead (``retry``: there is something to try again)."""

    kind: str  # "resume", "computer" or "worker"
    title: str
    reason: str
    advice: str
    retry: bool = False


@dataclass
class FightState:
    """The fight on screen: its info, the rounds rolled, how it ended; ``rolling`` while the
    dice animation runs (the LEDs wait, so they do not tell the result first)."""

    info: FightInfo
    rounds: list[RoundRecord] = field(default_factory=list)
    ended: FightEnded | None = None
    rolling: bool = False


@dataclass
class Thinking:
    seat: int
    key: tuple
    progress: float = 0.0
    part: bool = False  # its part of a joint decision (a secret bid), not a move


@dataclass
class DecisionState:
    """A game's own decision screen (Chess 2's duel) is up: ``start`` is how many effects the
    turn had when it opened; ``done`` once its decision is answered and it shows the result."""

    screen: str
    start: int
    done: bool = False
    memo: dict = field(default_factory=dict)  # what the game's screen remembers of it


class AppFlow(MatchSteps, DungeonSteps, GamesSteps, BoardSizing, TableSteps):
    def __init__(
        self,
        board: BoardLink,
        store: JournalStore,
        *,
        make_tracker: Callable,
        clock_ms: Callable[[], int],
        new_game_id: Callable[[], str],
        new_seed: Callable[[], bytes],
        computer: Any = None,
        run_in_worker: Callable[[Callable[[], None]], None] | None = None,
        draw_seat: Callable[[int], int] | None = None,
        make_deploy_guide: Callable | None = None,
        sticks: Callable[[], list] | None = None,
        free_bytes: Callable[[], int | None] | None = None,
        media_roots=MEDIA_ROOTS,
        today: Callable[[], str] = today,
        new_salt: Callable[[], bytes] = new_salt,
    ) -> None:
        self.board = board
        self.store = store
        self.make_tracker = make_tracker
        self.clock_ms = clock_ms
        self.new_game_id = new_game_id
        self.new_seed = new_seed
        self.computer = computer
        self.run_in_worker = run_in_worker or _thread
        #: the seat drawn for a "random" turn order: n -> 0..n-1 (randomness stays at the edge)
        self.draw_seat = draw_seat or secrets.randbelow
        self.make_deploy_guide = make_deploy_guide or DeploymentTracker
        #: the USB sticks plugged in now (companion.tournament.files.Stick: folder and name);
        #: the edge looks under ``media_roots`` (tests: a folder), or ``sticks`` is asked
        self.sticks: Callable[[], list[Stick]] = sticks or (lambda: find_sticks(media_roots))
        #: free bytes where the games are saved (None: not known); an edge function
        self.free_bytes = free_bytes or (lambda: None)
        self.inbox: queue.SimpleQueue = queue.SimpleQueue()
        self.listeners: list[Callable[[], None]] = []
        self.version = 0

        self.screen = "loading"
        self.session: Session | None = None
        self.journal = None
        self.sensed: frozenset[int] = frozenset()
        self.connected = True
        self.disconnect_reason = ""
        self.meanings: dict[int, Meaning] = {}
        self.frame = blank_frame(board.size)
        self.leds_held = False
        self.guidance = ""
        self.in_sync = True
        self.prompt: Prompt | None = None
        self.notice = ""
        self.fight: FightState | None = None
        self.over: GameOver | None = None
        self.thinking: Thinking | None = None
        self.requested: Move | None = None
        self.resumed: Resumed | None = None
        self.resume_progress = 0.0
        self.resume_problem = ""
        self.info_square: int | None = None
        self.info_mode = False  # the game bar's Info: a tap on the screen's board shows a piece
        self.walk: int | None = None
        self._walk_t = 0
        self._last_leds = None
        self._leds_moved = False
        self._led_meanings: dict | None = None  # what the last LED frame was rendered from
        self._led_patterns: frozenset = frozenset()
        self._led_key: tuple | None = None
        #: called from any thread after each post (the Kivy app wakes its main loop with it)
        self.wake: Callable[[], None] | None = None
        self._return_to = "start"
        self._text_return_to = "start"
        self.text_mode = "show"  # the Load / Save screen: show, files, type or correct
        self.text_entry: Entry | None = None  # the game text on its keyboard (type, correct)
        self.prep: DungeonPrep | None = None  # a Dungeon Chess game being drafted and deployed
        self.screen_moves = ScreenMovesChanged(())  # moves only the screen can make (a hex)
        self.parked: Prompt | None = None  # a board question closed to look at the board
        # the game at the table (companion.tournament): clock, procedures, records, pairings
        self.table: Table | None = None
        self.next_table = TableChoice()
        self.today = today
        self.new_salt = new_salt
        self.entry = None  # what is being typed on the on-screen keyboard or number pad
        self.clock_shown = True  # the clock screen rather than the board, in a game with a clock
        self.clock_swapped = False  # Black's half on the left
        # the running clock on disk, written on a thread of its own (an fsync is slow on an SD card)
        self.checkpoints = CheckpointWriter(CheckpointFile(Path(store.directory) / CHECKPOINT))
        self._checkpoint_t = 0
        self._arbiter_back = "game"
        self._pairings = None
        self._faces = None
        self.next_face_ms: int | None = None  # when the running clock's face next changes (clock_ms)
        self.change_is_activity = True
        self.clock_at_full_rate = False  # a running clock keeps the loop at the full rate (TableSteps._tick_table)
        self.problem: Problem | None = None  # the problem screen's words
        self._before_problem = "start"
        self.space_warning = ""  # free space is low where games are saved (short; tap: space_help)
        self.space_help = ""
        self._space_t: int | None = None
        self.computer_held = False  # its search failed: it waits until the position changes
        self.decision: DecisionState | None = None  # a game's own decision screen is up
        self.card = None  # an information card asked for (a game's history: Chess 2's stones)
        self._init_match()
        self.saved_as = None  # where the finished game was saved (games/<id>.jsonl)
        self.saved = None  # the games screen's list (games_steps.SavedList)
        self.review = None  # a saved game under review (saved_games.Review), and its move
        self.review_at = 0
        self.play_on = False  # the journal was taken up from the games screen: no need to ask

    # ----- plumbing -----------------------------------------------------------------------------
    def post(self, kind: str, value: Any = None) -> None:
        """Thread-safe: hand a value to the UI thread (board events, search results, ...),
        and wake it (a resting main loop would otherwise see it at its next frame only)."""
        self.inbox.put((kind, value))
        wake = self.wake
        if wake is not None:
            wake()

    @property
    def animating(self) -> bool:
        """Something moves on its own, so the screen needs its full frame rate: the computer
        thinking (its progress bar), the dice rolling, the LED walk of the board check, a light
        flashing fast (a piece put where it may not go). Otherwise the app may rest between
        events (companion/app/pacing.py)."""
        return (self.thinking is not None or (self.fight is not None and self.fight.rolling)
                or self.walk is not None or Pattern.FLASH in self._led_patterns or self.clock_at_full_rate)

    def board_sink(self, event) -> None:
        self.post("board", event)

    def changed(self, activity: bool = True) -> None:
        """Something on screen changed: the listeners redraw. ``activity=False``: only a face
        that changes by itself (the running clock's time); the main loop may go on resting
        (``change_is_activity``, companion/app/pacing.py)."""
        self.version += 1
        self.change_is_activity = activity
        try:
            for listener in list(self.listeners):
                listener()
        finally:
            self.change_is_activity = True

    @property
    def view_screen(self) -> str:
        """The screen to show: ``screen``, except that a game with a clock shows the clock (the
        board a tap away) and a game of named units on a map (Dungeon Chess, KoL Chess: rules
        with a ``board_map``) has its own game screen."""
        if self.screen == "game" and self.clock_shown and self.table is not None and self.table.clock is not None:
            return "clock"
        if self.screen == "game" and self.session is not None and getattr(self.session.rules, "board_map", None):
            return "dungeon_game"
        return self.screen

    def start(self) -> None:
        """Start the board and look for an unfinished game (replayed in a worker) and a match
        in progress."""
        self.board.sensors.start(self.board_sink)
        self.check_space()
        self._load_match()
        self.look_for_unfinished()

    def look_for_unfinished(self) -> None:
        """The current journal, if there is one, replayed in a worker and offered (the resume
        screen); else the start screen."""
        if self.store.has_current():
            self.screen = "loading"

            def work() -> None:
                self.post("resumed", resume(self.store, lambda entries: Table.replay(
                    entries, progress=lambda i, n: self.post("resume-progress", i / max(n, 1)))))

            self.in_worker("resume", work)
        else:
            self.screen = "start"
            self._resume_match()
        self.changed()

    def in_worker(self, task: str, work: Callable[[], None]) -> None:
        """Run ``work`` in a worker; any exception it raises comes back as ``worker-failed``
        (the problem screen), never as a screen that waits for ever."""

        def guarded() -> None:
            try:
                work()
            except Exception as e:  # noqa: BLE001 - reported to the players, whatever it is
                self.post("worker-failed", (task, f"{type(e).__name__}: {str(e)[:200]}"))

        try:
            self.run_in_worker(guarded)
        except Exception as e:  # noqa: BLE001 - no thread could be started
            self.post("worker-failed", (task, f"{type(e).__name__}: {str(e)[:200]}"))

    def stop(self) -> None:
        if self.computer is not None:
            self.computer.stop()
        self.checkpoints.close()
        if self.journal is not None:
            self.journal.close()
        for port in (self.board.sensors, self.board.leds):
            try:
                port.stop()
            except Exception:  # noqa: BLE001 - shutting down: a port that fails to stop must not block the other
                pass

    def pump(self, t_ms: int) -> None:
        """Drain the inbox, let the tracker see the time, show the LEDs. UI thread only."""
        before = self.version
        while True:
            try:
                kind, value = self.inbox.get_nowait()
            except queue.Empty:
                break
            self._receive(kind, value)
        if self.session is not None and self.session.tracker is not None:
            self._handle(self.session.tick(t_ms))
            self._tick_table(t_ms)
        elif self.prep is not None and self.prep.guide is not None:
            self._handle_deploy(self.prep.guide.tick(t_ms))
        if self._space_t is None or t_ms - self._space_t >= SPACE_CHECK_MS:
            self._space_t = t_ms
            self.check_space()
        self._step_walk(t_ms)
        self._show_leds(t_ms)
        if self.version == before and self._leds_moved:
            self.changed()

    def _receive(self, kind: str, value: Any) -> None:
        if kind == "board":
            self._on_board(value)
        elif kind == "ai-progress":
            key, fraction = value
            if self.thinking is not None and self.thinking.key == key:
                self.thinking.progress = fraction
                self.changed()
        elif kind == "ai-done":
            self._on_computer_move(*value)
        elif kind == "ai-part":
            self._on_computer_part(*value)
        elif kind == "resume-progress":
            self.resume_progress = value
            self.changed()
        elif kind == "resumed":
            self._on_resumed(value)
        elif kind == "worker-failed":
            self._on_worker_failed(*value)
        elif kind == "games-progress":
            self._on_games_progress(value)
        elif kind == "games-listed":
            self._on_games_listed(value)

    # ----- the board ------------------------------------------------------------------------------
    def _on_board(self, event) -> None:
        if isinstance(event, SquareChanged):
            s = set(self.sensed)
            (s.add if event.occupied else s.discard)(event.square)
            self.sensed = frozenset(s)
        elif isinstance(event, OccupancySnapshot):
            self.sensed = frozenset(event.occupied)
        elif isinstance(event, BoardDisconnected):
            self.connected, self.disconnect_reason = False, event.reason
        elif isinstance(event, BoardConnected):
            self.connected, self.disconnect_reason = True, ""
        if self.session is not None:
            self._handle(self.session.feed_board(event))
        elif self.prep is not None and self.prep.guide is not None:
            self._handle_deploy(self.prep.guide.feed(event))
        self.changed()

    def tap_square(self, square: int) -> None:
        """A tap on the screen's board: on the simulated board it lifts or places a piece."""
        if self.board.simulated is None:
            self.show_piece_info(square)
            return
        self.board.simulated.toggle(square, self.clock_ms())

    def fill_simulated_board(self) -> None:
        """Set the simulated board to what the game expects (no 32 taps to set up)."""
        if self.board.simulated is None or self.session is None:
            return
        expected = self.session.rules.expected_occupancy(self.session.pos)
        self.board.simulated.set_occupancy(expected, self.clock_ms())

    def _show_leds(self, t_ms: int) -> None:
        """Render the LED frame, unless it would be the last one again: the same meanings (the
        same dict, or an equal one) in the same blink phase (at rest the pump runs for nothing
        but this check; rendering 400 squares each time cost the 20x20 board 0.5% of a core)."""
        self._leds_moved = False
        if self.leds_held:
            return
        if self.screen == "board_check":
            meanings = {self.walk: Meaning.DIAG_TEST} if self.walk is not None else {}
        else:
            meanings = self.meanings
        if meanings is not self._led_meanings and meanings != self._led_meanings:
            self._led_meanings, self._led_patterns = meanings, blinking(meanings)
            self._led_key = None
        key = (self.board.size, phase(self._led_patterns, t_ms))
        if key == self._led_key and self._last_leds is not None:
            return
        self._led_key = key
        frame = render(meanings, self.board.size, t_ms=t_ms)
        if frame != self.frame:
            self.frame = frame
            self._leds_moved = True
        if frame != self._last_leds:
            self._last_leds = frame
            self.board.leds.show(frame)

    # ----- starting and resuming --------------------------------------------------------------------
    def new_game(self, game: str, seats: tuple[Seat, ...], dice: str = "virtual", d6_only: bool = False,
                 start: str | None = None, board_map: str | None = None, draw_rules: bool = False,
                 table: TableSetup | None = None, *, options: dict[str, str] | None = None, bids: str = "screen",
                 game_id: str | None = None) -> None:
        """Start a game from the start screen's choices (a Dungeon Chess game: from its
        deployed armies, ``start``; a Chess 2 game: its armies in ``options``, how bids are
        entered); the board is then set up with the LEDs."""
        self._stop_thinking()
        self._close_game()
        self.prep = None
        seed = self.new_seed().hex() if dice == "seeded" and game == "combat" else None
        if game != "combat":
            dice, d6_only = "virtual", False
        try:
            self._use_board_for(game, board_map)
            setup = GameSetup(game, tuple(seats), dice, d6_only, game_id or self.new_game_id(), seed, start,
                              board_map, draw_rules=draw_rules, options=options or {}, bids=bids)
        except CompanionError as e:  # a board too small for the map, a wrong set-up: say it
            self.resume_problem = str(e)
            self.screen = "start"
            self.changed()
            return
        try:
            self.journal = self.store.create()
            game_table, _ = Table.new(setup, table or TableSetup(), recorder=self.journal.append)
            session = game_table.session
        except (OSError, CompanionError) as e:  # no game without its journal: say why
            if self.journal is not None:
                self.journal.close()
                self.store.discard_if_empty()
            self.journal = None
            self.resume_problem = T.CANNOT_SAVE.format(reason=getattr(e, "strerror", None) or e)
            self.check_space()
            self.screen = "start"
            self.changed()
            return
        self._reset_game_state()
        self.session, self.table = session, game_table
        self.checkpoints.clear()
        self._attach_tracker()
        self.screen = "setup"
        self._handle(session.begin_setup())
        self.changed()

    def _attach_tracker(self) -> None:
        """A new tracker for the session, told at once what the board senses now (it may have
        been set up, or knocked, while no game was running); a fresh snapshot follows."""
        s = self.session
        t = self.clock_ms()
        if self.table is not None and self.table.tournament:  # no help from the board (FIDE 11.3)
            tracker = QuietBoard(s.rules, s.pos, make_tracker=self.make_tracker, sensed=self.sensed, t_ms=t,
                                 last_move=self.table.setup.last_move)
        else:
            tracker = self.make_tracker(s.rules, s.pos, sensed=self.sensed, t_ms=t)
        self._handle(s.attach_tracker(tracker))
        self._handle(s.feed_board(OccupancySnapshot(self.sensed, t)))
        self.board.sensors.request_snapshot()

    def start_playing(self) -> None:
        """Leave the set-up: to the fight screen when a resumed game stopped mid-fight."""
        if self.session is None or self.screen != "setup":
            return
        fight = self.session.pending_fight()
        if fight is not None:
            self.fight = FightState(fight, list(fight.rounds))
            self.screen = "fight"
        else:
            self.screen = "game"
            self._sync_decision()
        self._maybe_think()
        self.changed()

    def _on_resumed(self, back: Resumed | None) -> None:
        self.resumed = back
        if back is None:
            self.screen = "start"
        elif back.game is None:  # set aside: say why and where, then the start screen
            advice = T.PROBLEM_RESUME_ADVICE.format(where=back.kept) if back.kept else T.PROBLEM_RESUME_KEPT
            self._show_problem(Problem("resume", T.PROBLEM_RESUME_TITLE, back.loss, advice))
            return
        elif back.game.is_over:
            back.journal.close()
            self.journal = None
            self._match_result(back.game.session)
            self._archive(back.game)
            self.resumed = None
            self.screen = "start"
            self._resume_match()
        elif self.play_on:
            self.play_on = False
            self.accept_resume()
            return
        else:
            self.screen = "resume"
        self.changed()

    def accept_resume(self) -> None:
        """Continue the unfinished game: first the board is set up as the game stands (at
        once when the pieces are still in place), then play goes on where it stopped."""
        back = self.resumed
        if back is None or back.game is None:
            return
        try:
            self._use_board_for(back.game.game.game, back.game.game.board_map)
        except CompanionError as e:
            self.resume_problem = str(e)
            self.discard_resume()
            return
        self._reset_game_state()
        self.table, self.journal = back.game, back.journal
        self.session = self.table.session
        self.table.attach(self.journal.append)
        self.resumed = None
        self._restore_clock()
        self._attach_tracker()
        self.screen = "setup"
        self._handle(self.session.begin_setup())
        self.changed()

    def discard_resume(self) -> None:
        back = self.resumed
        if back is not None and back.journal is not None:
            back.journal.close()
            self._set_aside(f"{back.game.game.game_id}-unfinished" if back.game else "abandoned")
        self.resumed = None
        self._leave_match_quietly()  # its game is put away: the match ends here
        self.screen = "start"
        self.changed()

    # ----- playing ------------------------------------------------------------------------------------
    def _handle(self, events: list) -> None:
        if self.table is not None and events:
            events = list(events) + self.table.observe(events, self.clock_ms())
        for ev in events:
            if self._table_event(ev):
                continue
            if isinstance(ev, (MovePlayed, AnswerPlayed, TurnsUndone, PartSealed, PlayerResigned)):
                self.computer_held = False  # the position changed: the computer may try again
            if isinstance(ev, MovePlayed):
                self.notice = ""
                self.requested = None
            elif isinstance(ev, AnswerPlayed):
                self.requested = None
            elif isinstance(ev, ScreenMovesChanged):
                self.screen_moves = ev
            elif isinstance(ev, FightStarted):
                self.fight = FightState(ev.fight)
                self.screen = "fight"
            elif isinstance(ev, DiceRolled):
                if self.fight is not None:
                    self.fight.rounds.append(ev.round)
                    if ev.fight is not None:
                        self.fight.info = ev.fight
                    self.fight.rolling = self._animated
                    self.leds_held = self.fight.rolling
            elif isinstance(ev, FightEnded):
                if self.fight is not None:
                    self.fight.ended = ev
            elif isinstance(ev, TurnsUndone):
                self.fight = None
                self.decision = None
                self.leds_held = False
                self.requested = None
                self._match_reopened()
                self.notice = T.UNDONE.format(moves=", ".join(e.san for e in ev.entries))
                if self.over is not None and self.session.result is None:
                    self.over = None  # the move that ended the game was taken back: play on
                if self.screen in ("fight", "game_over") or self.screen in self.extras.decision_screens.values():
                    self.screen = "game"
            elif isinstance(ev, PositionSet):
                self.notice = T.POSITION_SET
            elif isinstance(ev, DrawOffered):
                self._ask_draw(ev.player)
            elif isinstance(ev, PlayerResigned):
                self.notice = T.PLAYER_RESIGNED.format(name=self.session.seats[ev.player].name)
            elif isinstance(ev, DrawDeclined):
                self.notice = T.DRAW_DECLINED.format(name=self.session.seats[ev.player].name)
            elif isinstance(ev, GameOver):
                self.over = ev
                self._stop_thinking()
                self._close_table_questions()
                self._match_result(self.session)
                if not self.can_undo():  # else kept open for a takeback, archived on leaving
                    self._archive(self.table if self.table is not None else self.session)
                if self.screen != "fight" and not (self.decision is not None and self._decision_result_shown()):
                    self.screen = "game_over"
            elif isinstance(ev, ActionRefused):
                self.notice = T.MOVE_REFUSED.format(reason=ev.reason)
                self.check_space()  # a save that failed: is the storage full?
            elif isinstance(ev, LedsChanged):
                self.meanings = dict(ev.meanings)
            elif isinstance(ev, GuidanceChanged):
                self.guidance = ev.text
            elif isinstance(ev, IllegalMoveShown):
                self.guidance = ev.text
            elif isinstance(ev, PromptRequested):
                self._ask_tracker(ev)
            elif isinstance(ev, PromptWithdrawn):
                if self.prompt is not None and self.prompt.kind == ev.kind:
                    self.prompt = None
                if self.parked is not None and self.parked.kind == ev.kind:
                    self.parked = None
            elif isinstance(ev, InSync):
                self.in_sync = True
            elif isinstance(ev, OutOfSync):
                self.in_sync = False
            elif isinstance(ev, SetupCompleted):
                self.in_sync = True
                if self.screen == "setup":
                    self.start_playing()
        if events:
            self._sync_decision()
            self._maybe_think()
            self.changed()

    # ----- a game's own decisions (Chess 2's duel, its king-turn) ---------------------------------------
    @property
    def extras(self) -> GameExtras:
        """What the game being played adds to the common screens (companion/app/presenters/extras.py)."""
        s = self.session
        return extras_for(s.setup.game if s is not None else None)

    def _sync_decision(self) -> None:
        """Open the game's own screen for a decision it asks there (a duel), keep it up after the
        answer while it shows what happened, and go back to the game otherwise."""
        s = self.session
        if s is None or self.screen not in ("game", "game_over") + tuple(self.extras.decision_screens.values()):
            return
        d = s.pos.pending
        screen = self.extras.decision_screens.get(d.kind) if d is not None and s.result is None else None
        turn_effects = len(s.moves[-1].effects) if s.moves else 0
        if screen is not None:
            if self.decision is None or self.decision.screen != screen:
                self.decision = DecisionState(screen, turn_effects)
            elif self.decision.done:
                return  # the last one's result is on screen: Continue opens this one
            self.screen = screen
            return
        if self.decision is not None and not self.decision.done:
            if self._decision_result_shown():
                self.decision.done = True
                return
            self.decision = None
            self.screen = "game_over" if self.over is not None else "game"

    def _decision_result_shown(self) -> bool:
        return self.session is not None and self.extras.result_shown(self.session, self.decision.start)

    def decision_continue(self) -> None:
        """Leave the result of a game's own decision (the duel's): the next decision, the game
        or the game over screen."""
        if self.decision is None or not self.decision.done:
            return
        self.decision = None
        self.screen = "game_over" if self.over is not None else "game"
        self._sync_decision()
        self._maybe_think()
        self.changed()

    def answer_decision(self, text: str) -> None:
        """The game's own screen answered the pending decision (``duel``, ``gain``, ``1-2``)."""
        self._command(lambda: self.session.play_answer(text))

    def seal_part(self, player: int, part) -> None:
        """A person's part of the pending joint decision (a secret bid), sealed."""
        self._command(lambda: self.session.play_part(player, part))

    def question(self):
        """The decision the game screen asks itself now (Chess 2's king-turn), if any."""
        s = self.session
        if s is None or s.is_over or self.screen != "game" or s.computer_to_move() is not None:
            return None
        if not self.in_sync:  # the board is fixed first (the tracker asks nothing meanwhile)
            return None
        return self.extras.question(s)

    def answer_question(self, option: str) -> None:
        """A button of the game screen's question: answered like a question of the board."""
        self._command(lambda: self.session.choose(option))

    def show_card(self, card) -> None:
        """An information card over the screen (None closes it)."""
        self.card = card
        self.changed()

    @property
    def _animated(self) -> bool:
        return self.session is not None and self.session.setup.dice != "entered"

    def roll(self) -> None:
        self._command(lambda: self.session.roll())

    def enter_dice(self, attacker, defenders) -> None:
        self._command(lambda: self.session.enter_dice(attacker, defenders))

    def fight_shown(self) -> None:
        """The dice animation is over: the result is on screen, the LEDs may tell it too."""
        if self.fight is not None:
            self.fight.rolling = False
        self.leds_held = False
        self.changed()

    def fight_continue(self) -> None:
        """Leave the fight screen once the fight is over."""
        if self.fight is None or self.fight.ended is None:
            return
        self.fight = None
        self.leds_held = False
        self.screen = "game_over" if self.over is not None else "game"
        self._maybe_think()
        self.changed()

    def can_undo(self) -> bool:
        """May the players take a move back now (at a table: not in tournament mode, and not
        once a clocked game has ended)?"""
        if self.session is None:
            return False
        return self.table.can_undo() if self.table is not None else self.session.can_undo()

    def undo(self) -> None:
        self._stop_thinking()
        if self.table is not None:
            self._command(lambda: self.table.undo(self.clock_ms()))
        else:
            self._command(lambda: self.session.undo())

    def offer_draw(self) -> None:
        s = self.session
        if s is None or s.is_over:
            return
        humans = [i for i, seat in enumerate(s.seats) if not seat.computer]
        player = s.turn if s.turn in humans else humans[0]
        self._command(lambda: s.offer_draw(player))

    def resign(self) -> None:
        s = self.session
        if s is None or s.is_over:
            return
        out = s.pos.var("out", ())
        humans = [i for i, seat in enumerate(s.seats) if not seat.computer and i not in out]
        if not humans:
            return
        if len(humans) == 1:
            name = s.seats[humans[0]].name
            self.prompt = Prompt("resign-confirm", T.CONFIRM_RESIGN.format(name=name),
                                 (PromptOption(str(humans[0]), T.YES_RESIGN),))
        else:
            self.prompt = Prompt("resign-who", T.WHO_RESIGNS, tuple(
                PromptOption(str(i), s.seats[i].name, T.PIECE_GLYPHS["king"], i) for i in humans))
        self.changed()

    def open_menu(self) -> None:
        options = [PromptOption("load-save", T.LOAD_SAVE), PromptOption("board-check", T.BOARD_CHECK),
                   PromptOption("new-game", T.NEW_GAME)]
        card = self.extras.card(self.session) if self.session is not None else None
        if card is not None:  # the game's card (Chess 2's stones) here too: a clock may hold its button
            options.append(PromptOption("card", card.label))
        if self.table is not None:
            options += [PromptOption("save-record", T.SAVE_RECORD), PromptOption("copy-records", T.COPY_RECORDS)]
            if self.table.clock is not None:
                options += [PromptOption("swap-clock", T.SWAP_CLOCK), PromptOption("arbiter", T.ARBITER)]
        self.prompt = Prompt("menu", T.MENU, tuple(options))
        self.changed()

    def answer_prompt(self, key: str | None) -> None:
        """A button of the open prompt was tapped (None: closed without an answer)."""
        prompt, self.prompt = self.prompt, None
        if prompt is None:
            return
        if key is None:
            if not prompt.cancel:
                self.prompt = prompt  # must be answered
            elif prompt.kind in BOARD_QUESTIONS:
                self.parked = prompt  # still open on the board; a button brings it back
            self.changed()
            return
        if prompt.board or prompt.kind in BOARD_QUESTIONS or prompt.kind == "hex":
            index = [o.key for o in prompt.options].index(key)
            self.parked = None
            self._command(lambda: self.session.choose(prompt.values[index]))
        elif prompt.kind == "turn-order":
            self.choose_first(key)
        elif prompt.kind == "draw":
            self._command(lambda: self.session.answer_draw(key == "accept"))
        elif prompt.kind in ("resign-who", "resign-confirm"):
            self._stop_thinking()  # with three or more players the game goes on without them
            if self.table is not None:
                self._command(lambda: self.table.resign(int(key), self.clock_ms()))
            else:
                self._command(lambda: self.session.resign(int(key)))
        elif self._answer_table_prompt(prompt, key):
            pass
        elif prompt.kind == "menu":
            if key == "load-save":
                self.open_game_text()
            elif key == "board-check":
                self.open_board_check()
            elif key == "new-game":
                self.prompt = Prompt("new-game", T.CONFIRM_NEW, (PromptOption("yes", T.YES_NEW),))
            elif key == "save-record":
                self.save_record()
            elif key == "copy-records":
                self.copy_records()
            elif key == "swap-clock":
                self.swap_clock()
            elif key == "arbiter":
                self.open_arbiter()
            elif key == "card" and self.session is not None:
                self.show_card(self.extras.card(self.session))
        elif prompt.kind == "new-game" and key == "yes":
            self.go_to_start()
        elif prompt.kind == "delete-game" and key == "yes":
            self.delete_game()
        self.changed()

    def go_to_start(self) -> None:
        """Leave the game for the start screen (an unfinished game is kept in games/; a match
        is left, and filed as it stands)."""
        self._stop_thinking()
        self._close_game()
        self._leave_match_quietly()
        self.prep = None
        self.screen = "start"
        self.changed()

    def reopen_question(self) -> None:
        """Show again a board question that was closed to look at the board."""
        if self.parked is not None and self.prompt is None:
            self.prompt, self.parked = self.parked, None
            self.changed()

    def open_screen_moves(self) -> None:
        """The moves only the screen can make (a Shaman's hex) as big buttons."""
        offer = self.screen_moves
        if not offer.options or self.session is None:
            return
        labels = offer.labels or offer.options
        self.prompt = Prompt("hex", T.HEX_TITLE, tuple(PromptOption(str(i), label) for i, label in enumerate(labels)),
                             values=tuple(offer.options))
        self.changed()
    def show_piece_info(self, square: int | None) -> None:
        self.info_square = square
        self.changed()

    def _command(self, action: Callable[[], list]) -> None:
        if self.session is None:
            return
        try:
            events = action()
        except CompanionError as e:
            self.notice = str(e)
            self.check_space()
            self.changed()
            return
        self._handle(events)
        self.changed()

    def _ask_draw(self, player: int) -> None:
        s = self.session
        other = 1 - player
        if s.seats[other].computer:
            return  # the session has the computer's answer already
        self.prompt = Prompt("draw", T.DRAW_OFFER.format(name=s.seats[other].name, other=s.seats[player].name),
                             (PromptOption("accept", T.ACCEPT), PromptOption("decline", T.DECLINE)), cancel=False)

    def _ask_tracker(self, ev: PromptRequested) -> None:
        """A tracker question as big buttons: a piece for a promotion, or which of two moves.
        A decision the game asks on a screen of its own (a duel) or on the game screen (a
        king-turn) is not asked again in a popup."""
        extras = self.extras
        if ev.kind in extras.decision_screens:
            return
        own = extras.question(self.session) if self.session is not None else None
        if own is not None and own.kind == ev.kind:
            return
        options = []
        owner = self.session.turn if self.session else 0
        for i, value in enumerate(ev.options):
            code = str(value).upper()
            if ev.kind == "promotion" and code in T.PIECE_CODES:
                kind = T.PIECE_CODES[code]
                options.append(PromptOption(str(i), T.piece_name(kind).capitalize(), T.PIECE_GLYPHS[kind], owner))
            else:
                label = ev.labels[i] if i < len(ev.labels) else self._move_words(str(value))
                options.append(PromptOption(str(i), label))
        if ev.kind in ("promotion", "which-move"):
            title = T.PROMOTE if ev.kind == "promotion" else T.WHICH_MOVE
            self.prompt = Prompt(ev.kind, title, tuple(options), cancel=False, values=tuple(ev.options))
            return
        if ev.kind == "trade":  # KoL Chess's back-row trade: the pieces by name
            title, options = self._trade_words(ev)
            self.parked = None
            self.prompt = Prompt(ev.kind, title, options, cancel=False, values=tuple(ev.options), board=True)
            return
        # a question the game waits for (a Salamander's step, a forced pass): the tracker's
        # words; a step may also be made on the board, so the question can be put aside
        may_close = ev.kind != "pass"
        self.parked = None
        self.prompt = Prompt(ev.kind, ev.text, tuple(options), cancel=may_close, values=tuple(ev.options),
                             cancel_label=T.LOOK_AT_BOARD if may_close else "")

    def _trade_words(self, ev: PromptRequested) -> tuple[str, tuple[PromptOption, ...]]:
        """A back-row trade as the screen asks it: the pawn, and each piece offered by name."""
        s = self.session
        d = s.pos.pending
        square = d.get("square") if d is not None else None
        pawn = s.pos.board[square] if isinstance(square, int) else None
        unit = pawn.kind.title if pawn is not None else ""
        where = s.rules.geometry.name_of(square) if isinstance(square, int) else ""
        options = []
        for i, value in enumerate(ev.options):
            if value == "keep":
                label = T.TRADE_KEEP.format(unit=unit)
            else:
                label = T.TRADE_FOR.format(unit=s.rules.kind(str(value)).title)
            options.append(PromptOption(str(i), label))
        return T.TRADE_QUESTION.format(unit=unit, square=where), tuple(options)

    def _move_words(self, text: str) -> str:
        s = self.session
        try:
            m = s.rules.parse_move(s.pos, text)
        except CompanionError:
            return text
        g = s.rules.geometry
        return f"{g.name_of(m.frm)} \u2192 {g.name_of(m.to)}"

    # ----- the computer --------------------------------------------------------------------------------
    def _maybe_think(self) -> None:
        s = self.session
        if s is None or self.computer is None or self.thinking is not None:
            return
        if self.screen != "game" and self.screen not in self.extras.decision_screens.values():
            return
        if self.decision is not None and self.decision.done:
            return  # the duel's result is on screen: the computer waits for Continue
        if self.computer_held:
            return
        if self.requested is not None:
            return
        if s.joint_decision() is not None:
            self._maybe_seal_computer_part()
            return
        seat = s.computer_to_move()
        if seat is None:
            return
        key = (s.actions, s.pos.hash)
        self.thinking = Thinking(seat, key)
        self.computer.start(
            s.rules, s.pos.copy(), s.seats[seat].level,
            lambda fraction: self.post("ai-progress", (key, fraction)),
            lambda move: self.post("ai-done", (key, move)),
        )

    def _on_computer_move(self, key, move) -> None:
        if self.thinking is None or self.thinking.key != key or self.session is None:
            return  # an old search (the game moved on, or was taken back)
        self.thinking = None
        if move is None or isinstance(move, ComputerFailed):
            name = self.session.seats[self.session.turn].name
            reason = move.reason if isinstance(move, ComputerFailed) else T.COMPUTER_NO_MOVE
            self._show_problem(Problem("computer", T.PROBLEM_COMPUTER_TITLE.format(name=name), reason,
                                       T.PROBLEM_COMPUTER_ADVICE.format(name=name), retry=True))
            return
        if isinstance(move, Answer):  # the computer's choice in the middle of its turn
            self._command(lambda: self.session.play_answer(move))
            return
        self.requested = move
        self._handle(self.session.request_move(move))
        self.changed()

    def _maybe_seal_computer_part(self) -> None:
        """A computer's part of the pending joint decision (its secret bid), fixed and journaled
        before any person bids: drawn from its equilibrium with a random number drawn here."""
        s = self.session
        seat = next((p for p in s.parts_missing() if s.seats[p].computer), None)
        if seat is None or not hasattr(self.computer, "choose_part"):
            return
        key = (s.actions, s.pos.hash, "part", seat)
        self.thinking = Thinking(seat, key, part=True)
        u = self.draw_seat(RANDOM_STEPS) / RANDOM_STEPS
        rules, pos, level = s.rules, s.pos.copy(), s.seats[seat].level

        def work() -> None:
            self.post("ai-part", (key, seat, self.computer.choose_part(rules, pos, seat, level, u)))

        self.in_worker("computer", work)

    def _on_computer_part(self, key, seat: int, part) -> None:
        if self.thinking is None or self.thinking.key != key or self.session is None:
            return
        self.thinking = None
        self._command(lambda: self.session.play_part(seat, part))

    def _stop_thinking(self) -> None:
        if self.thinking is not None and self.computer is not None:
            self.computer.stop()
        self.thinking = None

    # ----- Load / Save: the game as text (companion.gametext) ------------------------------------------
    def open_game_text(self, mode: str = "show") -> None:
        if self.screen != "game_text":
            self._text_return_to = self.screen
        self.screen = "game_text"
        self.text_mode = mode
        if mode not in TYPING_MODES:
            self.text_entry = None
        self.changed()

    def close_game_text(self) -> None:
        back = self._text_return_to
        if self.session is None and back != "position":  # a position being set up has no game yet
            back = "start"
        self.screen = back if back in ("start", "game", "setup", "fight", "game_over", "arbiter", "position") \
            else "start"
        self.text_mode, self.text_entry = "show", None
        self.changed()

    def set_text_mode(self, mode: str) -> None:
        self.text_mode = mode
        if mode not in TYPING_MODES:
            self.text_entry = None
        self.changed()

    def text_back_to_show(self) -> bool:
        """From the file list or the keyboard back to the game's text (False: already there)."""
        if self.text_mode == "show":
            return False
        if self.text_mode == "other":  # back to the screen that asked for the text
            self.close_game_text()
            return True
        self.set_text_mode("show")
        return True

    def type_for_other(self, title: str, text: str, take: Callable[[str], str | None]) -> None:
        """The keyboard for another screen's text (a position to start from): ``text`` to edit;
        ``take(text)`` returns what is wrong (one line) or None, and then that screen comes back."""
        self.text_entry = Entry.for_text(title, text, on_done=take)
        self.open_game_text("other")

    def start_text_typing(self) -> None:
        """A game's text on the on-screen keyboard, to load."""
        self.text_entry = Entry.for_text(T.TEXT_TYPE_TITLE, on_done=self.load_game_text)
        self.open_game_text("type")

    def can_correct_here(self) -> bool:
        """May the Load / Save screen correct the position? Not in tournament mode: there the
        arbiter does it, behind the PIN (the arbiter's screen opens the same correction)."""
        s = self.session
        return s is not None and not s.is_over and not (self.table is not None and self.table.tournament)

    def open_correction(self) -> bool:
        """The arbiter's correction: the game's position line on the keyboard, to edit."""
        s = self.session
        if s is None or s.is_over:
            return False
        text = s.rules.position_text(s.pos)
        self.text_entry = Entry.for_text(T.TEXT_CORRECT_TITLE, text, on_done=self.correct_position)
        self.open_game_text("correct")
        return True

    def text_key(self, key: str) -> None:
        if self.text_entry is not None:
            self.text_entry = self.text_entry.press(key)
            self.changed()

    def text_done(self) -> str | None:
        """Load or apply the typed text: None when done (back to the game's text), else what is
        wrong (the text stays on the keyboard)."""
        entry = self.text_entry
        if entry is None or entry.on_done is None:
            return None
        text = entry.text.strip() if self.text_mode == "correct" else entry.text
        problem = entry.on_done(text)
        if problem:
            self.changed()
            return problem
        if self.text_mode == "other":
            self.close_game_text()
            return None
        self.text_mode, self.text_entry = "show", None
        self.changed()
        return None

    def game_text(self) -> str:
        """The current game as text (empty when there is none): at its table, so a clock that
        runs is written as it stands now."""
        if self.session is None:
            return ""
        return format_game(self.table if self.table is not None else self.session, self.clock_ms())

    def save_game_text(self, to_stick: bool) -> tuple[str, bool]:
        """Write the game's text to the first USB stick, or to the board's own folder: (what
        happened in words, whether it went wrong)."""
        s = self.session
        if s is None:
            return T.TEXT_NO_GAME, True
        folders = [s.path for s in self.sticks()] if to_stick else [self.store.directory / TEXTS_DIR]
        if not folders:
            return T.NO_STICK, True
        path = Path(folders[0]) / f"{s.setup.game_id}.txt"
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(self.game_text(), encoding="utf-8")
        except (OSError, ValueError) as e:  # ValueError: a name the file system refuses (Load refuses them)
            return T.CANNOT_WRITE.format(path=path, reason=getattr(e, "strerror", None) or e), True
        return T.TEXT_SAVED.format(where=T.ON_STICK if to_stick else T.ON_BOARD, name=path.name), False

    def game_text_files(self) -> list[tuple[Path, str, str]]:
        """Game texts on the USB sticks and on the board, newest first: (path, label, where)."""
        found = []
        for folder, where in [(s.path, T.ON_STICK) for s in self.sticks()] + \
                [(self.store.directory / TEXTS_DIR, T.ON_BOARD)]:
            try:
                files = [p for p in folder.glob("*.txt") if p.is_file()]
                files.sort(key=lambda p: p.stat().st_mtime, reverse=True)
            except OSError:
                continue
            found += [(p, p.stem, where) for p in files]
        return found[:MAX_LISTED]

    def load_game_text_file(self, path: Path) -> str | None:
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read(MAX_CHARS + 1)
        except OSError as e:
            return T.CANNOT_READ.format(name=Path(path).name, reason=e.strerror or e)
        except UnicodeDecodeError:
            return T.NOT_TEXT.format(name=Path(path).name)
        problem = self.load_game_text(text)
        return f"{Path(path).name}: {problem}" if problem else None

    def load_game_text(self, text: str) -> str | None:
        """Load a game from its text: None when it is loaded (the board is then set up for it),
        else what is wrong (one line); nothing changes then."""
        try:
            loaded = load_text(text)
            table = loaded.table
            session = table.session
            entries = journal_entries(table)
            self._use_board_for(session.setup.game, session.setup.board_map)
        except CompanionError as e:
            return str(e)
        self._stop_thinking()
        self._close_game()
        self.prep = None
        try:
            self.journal = self.store.create()
            for entry in entries:
                self.journal.append(entry)
        except (OSError, CompanionError) as e:  # no game without its journal: say why
            if self.journal is not None:
                self.journal.close()
                self.store.discard_if_empty()
            self.journal = None
            self.check_space()
            return T.CANNOT_SAVE.format(reason=getattr(e, "strerror", None) or e)
        table.attach(self.journal.append)
        self._reset_game_state()
        self.notice = " ".join(loaded.warnings)  # the text could not be checked, a correction
        self.session, self.table = session, table
        self.text_mode, self.text_entry = "show", None
        self.checkpoints.clear()
        self._attach_tracker()
        if session.is_over:
            self.over = GameOver(session.result, session.setup.seed)
            self._archive(table)
            self.screen = "game_over"
        else:
            self.screen = "setup"
            self._handle(session.begin_setup())
        self.changed()
        return None

    def correct_position(self, position: str) -> str | None:
        """The arbiter's correction: None when the game goes on from ``position``, else what
        is wrong with it (nothing changes)."""
        s = self.session
        if s is None:
            return T.TEXT_NO_GAME
        self._stop_thinking()
        try:
            events = s.correct_position(position)
        except CompanionError as e:
            return str(e)
        self._handle(events)
        self.changed()
        return None

    # ----- something went wrong out of sight -------------------------------------------------------------
    def _show_problem(self, problem: Problem) -> None:
        if self.screen != "problem":
            self._before_problem = self.screen
        self.problem = problem
        self.screen = "problem"
        self.changed()

    def _on_worker_failed(self, task: str, reason: str) -> None:
        if task == "resume":  # the journal could not even be looked at: set it aside, start
            where = ""
            try:
                archived = self.store.archive("damaged")
                where = f"{ARCHIVE}/{archived.name}" if archived else ""
            except OSError as e:
                reason += f"; it could not be moved aside ({e.strerror or e})"
            advice = T.PROBLEM_RESUME_ADVICE.format(where=where) if where else T.PROBLEM_RESUME_KEPT
            self._show_problem(Problem("resume", T.PROBLEM_RESUME_TITLE, reason, advice))
        else:
            self._show_problem(Problem("worker", T.PROBLEM_TITLE, reason, T.PROBLEM_ADVICE))

    def close_problem(self) -> None:
        """Go on after a problem: to the game if one is open (the computer waits until the
        position changes, so the players may move for it or take back), else to the start."""
        problem, self.problem = self.problem, None
        if problem is not None and problem.kind == "computer":
            self.computer_held = True
        self._leave_problem()

    def _leave_problem(self) -> None:
        back = self._before_problem
        if self.session is None:
            back = "start" if back not in ("draft", "deploy") or self.prep is None else back
        elif back in ("loading", "resume", "start", "problem"):
            back = "game_over" if self.session.is_over else "game"
        self.screen = back
        self.changed()

    def retry_problem(self) -> None:
        """Try again what failed (the computer's search)."""
        problem = self.problem
        if problem is None or not problem.retry:
            return
        self.problem = None
        self.computer_held = False
        self._leave_problem()
        self._maybe_think()
        self.changed()

    # ----- names typed on this board ---------------------------------------------------------------------
    def remembered_names(self) -> list[str]:
        """Names typed before on this board, newest first (companion/player_names.py)."""
        return player_names.load(self.store.directory)

    def remember_name(self, name: str) -> None:
        """Keep a typed name for next time; a folder that cannot be written costs nothing but that."""
        try:
            player_names.remember(self.store.directory, name)
        except OSError:
            pass

    def check_space(self) -> None:
        """Look at the free space where games are saved; warn when it is low (the start screen
        and the game's banner show :attr:`space_warning`)."""
        try:
            free = self.free_bytes()
        except OSError:
            free = None
        level = space_level(free)
        warning = help_text = ""
        if level is not None:
            words = {"free": T.amount_of_bytes(free), "folder": self.store.directory / ARCHIVE}
            warning = (T.SPACE_FULL if level == "full" else T.SPACE_LOW).format(**words)
            help_text = (T.SPACE_FULL_HELP if level == "full" else T.SPACE_LOW_HELP).format(**words)
        self.space_help = help_text
        if warning != self.space_warning:
            self.space_warning = warning
            self.changed()

    def explain_space(self) -> None:
        """The short space warning was tapped: what it means and what the players can do."""
        if self.space_help and self.prompt is None:
            self.prompt = Prompt("space", self.space_help, (), cancel_label=T.CLOSE)
            self.changed()

    @property
    def banner(self) -> str:
        """The warning strip on the game screens: the board is gone, or space is low."""
        return T.BOARD_DISCONNECTED if not self.connected else self.space_warning

    # ----- board check -----------------------------------------------------------------------------------
    def open_board_check(self) -> None:
        if self.screen != "board_check":
            self._return_to = self.screen
        self.screen = "board_check"
        self.walk = None
        self.changed()

    def close_board_check(self) -> None:
        self.walk = None
        back = ("start", "game", "setup", "fight", "game_over", "draft", "deploy")
        self.screen = self._return_to if self._return_to in back else "start"
        self.changed()

    def toggle_led_walk(self) -> None:
        self.walk = None if self.walk is not None else -1
        self._walk_t = -WALK_STEP_MS
        self.changed()

    def _step_walk(self, t_ms: int) -> None:
        if self.screen != "board_check" or self.walk is None:
            return
        if self.walk == -1 or t_ms - self._walk_t >= WALK_STEP_MS:
            self.walk = (self.walk + 1) % self.board.size
            self._walk_t = t_ms
            self.changed()

    # ----- bookkeeping -----------------------------------------------------------------------------------
    def _reset_game_state(self) -> None:
        self.meanings, self.guidance, self.in_sync = {}, "", True
        self.prompt, self.notice, self.fight, self.over = None, "", None, None
        self.thinking, self.requested, self.info_square = None, None, None
        self.leds_held = False
        self.screen_moves, self.parked = ScreenMovesChanged(()), None
        self.decision, self.card = None, None
        self.saved_as = None

    def _close_game(self) -> None:
        """Put the current game away: archived when finished, kept as unfinished otherwise."""
        s = self.session
        if s is not None and self.journal is not None and not self.journal.closed:
            if s.is_over:  # a finished game still open for a takeback (GameSetup.undo_after_end)
                self._archive(self.table if self.table is not None else s)
            else:
                self.journal.close()
                self._set_aside(f"{s.setup.game_id}-unfinished")
        self.session, self.journal, self.table = None, None, None
        self.checkpoints.clear()
        self._reset_game_state()

    def _set_aside(self, name: str) -> None:
        """Keep an unfinished game in games/ (a failure leaves it as the current journal)."""
        try:
            self.store.archive(name)
        except OSError as e:
            self.resume_problem = T.CANNOT_SAVE.format(reason=e)

    def _archive(self, game) -> None:
        """A finished game: its journal (and dice record) into games/, its PGN beside it, the
        round's results for a paired game."""
        session = getattr(game, "session", game)
        if self.journal is not None:
            self.journal.close()
        extra = {".dice.jsonl": format_record(session.record)} if session.record is not None else None
        try:
            self.saved_as = self.store.archive(session.setup.game_id, extra)
        except OSError as e:  # the game stays in current.jsonl and is archived at the next start
            self.notice = T.CANNOT_SAVE.format(reason=e)
        if isinstance(game, Table):
            self._write_records(game)
        self.checkpoints.clear()



def _thread(work: Callable[[], None]) -> None:
    threading.Thread(target=work, name="companion-worker", daemon=True).start()
