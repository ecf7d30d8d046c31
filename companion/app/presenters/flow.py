"""The app's rooms, built and wired together; the main loop's face (start, pump, stop).

Plain Python, no Kivy: the Kivy app (shell.py) calls :meth:`AppFlow.pump` on its clock and
shows ``view_screen``; the screens' presenters (built by companion/app/bootstrap.py) are each
handed the few rooms they use, never the AppFlow. Tests build the same AppFlow with fakes.

Each room owns its own state and is given only what it needs (docs/architecture.md, "The app's
rooms"). What changes the app as a whole goes through the bus (messages.py): a handful of
commands, each with one handler, and events any room may hear. :func:`wire` is the one place
that says who handles and who hears what. Threads never touch the game: they post to the
Mailbox, which ``pump`` drains on the UI thread; every change bumps ``display.version`` and
calls the display's listeners, so a screen redraws only when something changed.
"""

from __future__ import annotations

import os
import secrets
from typing import Any, Callable

from ...board.deployment import DeploymentTracker
from ...board_settings import BoardSettings
from ...journal import JournalStore
from ...match import MatchStore
from ...online import game as online_game
from ...session import (ActionRefused, AnswerPlayed, GameOver, GameStarted, MovePlayed, PartSealed, PlayerResigned,
                        PositionSet, TurnsUndone)
from ...speech.espeak import SilentVoice
from ...tournament.files import MEDIA_ROOTS, find_sticks
from .arbiter_mode import ASKED as ARBITER_ASKED, ArbiterMode
from .archive import Archive
from .board_link import BOARD_EVENTS, GUIDE_EVENTS, BoardLink, BoardRoom
from .coach_room import CoachRoom
from .clock_room import ASKED as CLOCK_ASKED, SHOWN as TABLE_SHOWN, ClockRoom
from .computer_turns import RANDOM_STEPS, ComputerTurns, Thinking
from .display import BOARD, Display
from .dungeon_setup import DungeonSetup
from .game_room import GameRoom
from .hands_free import HandsFree
from .link_return import LinkReturn
from .link_room import ASKED as LINK_ASKED, LinkRoom, default_transport
from .load_save import TYPING_MODES, LoadSave
from .mailbox import Mailbox
from .match_room import MatchRoom
from .menu import Menu
from .messages import (
    Bus, ChooseArmies, ComputerMoveChosen, DraftDungeon, DraftLinkedDungeon, GameClosed, GameFiled, GameFinished,
    GameOpened, JoinLink, LeaveGame, LinkedDraftChanged, LinkedDraftEnded, LinkGame, LoadGame, LookForUnfinished,
    NewGame, NothingToResume, PlaySettled, ShowProblem, UseBoardFor,
)
from .online_game_room import ASKED as ONLINE_ASKED, OnlineGameRoom
from .online_room import OnlineRoom, OnlineSetup
from .play import SHOWN as PLAY_SHOWN, DecisionState, FightState, Play
from .preferences import ASKED as PREFERENCES_ASKED, Preferences
from .problem import Problem, Problems
from .questions import Prompt, PromptOption
from .records import ASKED as RECORDS_ASKED, Records
from .resume import Resume
from .review_analysis import ReviewAnalysis
from .speech_room import SpeechRoom
from .storage import Storage
from .table_settings import ASKED as SETTINGS_ASKED, TableChoice, TableSettings, new_salt, today

__all__ = ["AppFlow", "BoardLink", "Prompt", "PromptOption", "FightState", "Thinking", "DecisionState", "Problem",
           "TableChoice", "RANDOM_STEPS", "TYPING_MODES", "wire"]


class AppFlow:
    """The app assembled from its rooms (each an attribute, named in :func:`wire`)."""

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
        voice: Any = None,
        board_settings: BoardSettings | None = None,
        make_link_transport: Callable[[str, str], Any] = default_transport,
        entropy: Callable[[int], bytes] | None = None,
        online: OnlineSetup | None = None,
    ) -> None:
        #: the seat drawn for a "random" turn order, a computer's secret army or bid: n ->
        #: 0..n-1 (randomness stays at the edge)
        draw = draw_seat or secrets.randbelow
        self.clock_ms = clock_ms
        self.bus = bus = Bus()
        self.display = display = Display()
        self.mailbox = mailbox = Mailbox(run_in_worker)
        self.storage = storage = Storage(store, display, sticks=sticks or (lambda: find_sticks(media_roots)),
                                         free_bytes=free_bytes or (lambda: None))
        self.board = BoardRoom(board, display, mailbox, bus, clock_ms)
        self.game = GameRoom(bus, display, self.board, storage, make_tracker=make_tracker, clock_ms=clock_ms,
                             new_game_id=new_game_id, new_seed=new_seed)
        self.play = Play(self.game, display, self.board, bus)
        self.ai = ComputerTurns(computer, self.game, self.play, display, mailbox, bus, draw=draw)
        self.coach = CoachRoom(self.game, self.play, self.board, display, mailbox,
                               online=lambda: self.online_game.active)
        self.dungeon = DungeonSetup(display, self.board, bus, draw=draw,
                                    make_deploy_guide=make_deploy_guide or DeploymentTracker, clock_ms=clock_ms)
        self.problems = Problems(display, self.game, self.dungeon)
        self.resume = Resume(storage, self.game, display, mailbox, bus)
        self.load_save = LoadSave(display, self.game, storage, bus)
        self.archive = Archive(storage, display, self.board, self.game, mailbox, bus)
        self.analysis = ReviewAnalysis(self.archive, self.board, display, mailbox)
        self.matches = MatchRoom(display, self.game, bus, MatchStore(store.directory), draw=draw,
                                 new_game_id=new_game_id)
        self.settings = TableSettings(display, storage, today=today)
        self.arbiter = ArbiterMode(self.game, self.play, display, store.directory, new_salt=new_salt)
        self.clock = ClockRoom(self.game, display, self.arbiter, store.directory)
        self.records = Records(self.game, display, storage)
        self.preferences = Preferences(display, store.directory, board_settings or BoardSettings())
        self.speech = SpeechRoom(self.game, self.preferences, voice or SilentVoice(), clock_ms)
        self.hands_free = HandsFree(self.play, self.speech.settings)
        self.link = LinkRoom(display, self.game, mailbox, bus, data=store.directory, make_transport=make_link_transport,
                             draw=draw, entropy=entropy or os.urandom, clock_ms=clock_ms)
        self.link_return = LinkReturn(self.link, self.game, display, bus)
        self.online = OnlineRoom(display, mailbox, storage, bus, setup=online, clock_ms=clock_ms)
        self.online_game = OnlineGameRoom(self.online, self.game, display, bus, clock_ms=clock_ms)
        self.menu = Menu(display, self.game, bus, {
            "load-save": self.load_save.open, "board-check": self.board.open_check, "card": self.play.show_card,
            "save-record": self.records.save, "copy-records": self.records.copy, "swap-clock": self.clock.swap,
            "arbiter": self.arbiter.open, "lichess": self.online.open, "coach": self.coach.toggle,
            "settings": self.preferences.open},
            lichess_item=lambda: self.online_game.active and not self.online.is_connected(),
            online=lambda: self.online_game.active)
        wire(self)

    # ----- the main loop's face -----------------------------------------------------------------------
    def start(self) -> None:
        """Start the board and look for an unfinished game (replayed in a worker) and a match
        in progress."""
        self.board.start()
        self.storage.check_space()
        self.matches.load()
        self.resume.look_for_unfinished()

    def pump(self, t_ms: int) -> None:
        """Drain the mailbox, let the tracker and the clock see the time, show the LEDs. UI
        thread only."""
        display = self.display
        before = display.version
        self.mailbox.drain()
        if self.game.tracking:
            self.game.tick(t_ms)
            self.clock.tick(t_ms)
            self.speech.tick(t_ms)
            self.hands_free.tick(t_ms)
        else:
            self.dungeon.tick(t_ms)
        self.storage.tick(t_ms)
        self.link.tick(t_ms)
        self.online.tick(t_ms)
        self.online_game.tick(t_ms)
        self.board.step_walk(t_ms)
        self.board.show_leds(t_ms)
        if display.version == before and self.board.leds_moved:
            display.changed()

    def stop(self) -> None:
        self.link.close()
        if self.ai.computer is not None:
            self.ai.computer.stop()
        self.coach.stop()
        self.analysis.stop()
        self.clock.stop()
        self.speech.voice.close()
        self.online.stop()
        if self.game.journal is not None:
            self.game.journal.close()
        self.board.stop()

    def new_game(self, *args, **kwargs) -> bool:
        """Start a game (the NewGame command; the same arguments)."""
        return self.bus.handle(NewGame(*args, **kwargs))

    @property
    def view_screen(self) -> str:
        """The screen to show: the display's, except that a game with a clock shows the clock
        (the board a tap away) and a game of named units on a map (Dungeon Chess, KoL Chess:
        rules with a ``board_map``) has its own game screen."""
        screen = self.display.screen
        if screen == "game" and self.clock.on_screen:
            return "clock"
        s = self.game.session
        if screen == "game" and s is not None and getattr(s.rules, "board_map", None):
            return "dungeon_game"
        return screen

    @property
    def animating(self) -> bool:
        """Something moves on its own, so the screen needs its full frame rate: the computer
        thinking (its progress bar), the dice rolling, the LED walk of the board check, a light
        flashing fast, a clock running that a person presses. Otherwise the app may rest
        between events (companion/app/pacing.py)."""
        fight = self.play.fight
        return (self.ai.thinking is not None or self.coach.hinting is not None or self.analysis.running or (fight is not None and fight.rolling) or self.board.animating
                or self.clock.at_full_rate)

    @property
    def listeners(self) -> list[Callable[[], None]]:
        return self.display.listeners

    @property
    def change_is_activity(self) -> bool:
        return self.display.change_is_activity

    @property
    def next_face_ms(self) -> int | None:
        return self.clock.next_face_ms

    @property
    def wake(self) -> Callable[[], None] | None:
        return self.mailbox.wake

    @wake.setter
    def wake(self, wake: Callable[[], None] | None) -> None:
        self.mailbox.wake = wake


def wire(f: AppFlow) -> None:
    """Who handles each command, who hears each event (in this order), which room takes each
    kind of mail and answers each kind of question."""
    bus, display, mailbox = f.bus, f.display, f.mailbox
    board, game, play, ai, clock = f.board, f.game, f.play, f.ai, f.clock

    # commands: one handler each
    bus.handles(NewGame, game.new_game)
    bus.handles(DraftDungeon, f.dungeon.begin)
    bus.handles(DraftLinkedDungeon, f.dungeon.begin_linked)
    bus.handles(ChooseArmies, f.matches.begin)
    bus.handles(LoadGame, game.load)
    bus.handles(LeaveGame, game.leave)
    bus.handles(UseBoardFor, board.use_board_for)
    bus.handles(ShowProblem, f.problems.show)
    bus.handles(LookForUnfinished, f.resume.look_for_unfinished)
    bus.handles(LinkGame, f.link.host)
    bus.handles(JoinLink, f.link.join)

    # the app's own events (the clock comes last after an opening: it may tell the power cut)
    for event in (GameOpened, GameClosed):
        for hears in (display.clear_game_words, board.reset_guide, play.reset, ai.reset, f.coach.reset, f.dungeon.drop):
            bus.subscribe(event, hears)
    bus.subscribe(GameOpened, clock.game_opened)
    bus.subscribe(GameOpened, f.link_return.game_opened)  # a linked game taken up after a power cut
    bus.subscribe(GameClosed, clock.forget)
    bus.subscribe(GameClosed, f.matches.game_closed)
    bus.subscribe(GameClosed, f.link.game_closed)
    bus.subscribe(LinkedDraftEnded, f.link.drafted)
    bus.subscribe(LinkedDraftChanged, f.link.keep_draft)
    bus.subscribe(GameFinished, ai.stop)
    bus.subscribe(GameFinished, clock.close_questions)
    bus.subscribe(GameFinished, f.matches.scored)  # before the game is filed
    bus.subscribe(GameFiled, f.records.filed)
    bus.subscribe(GameFiled, clock.forget)
    bus.subscribe(NothingToResume, f.matches.resume)
    bus.subscribe(NothingToResume, f.link_return.lobby)  # a linked game still being set up, taken up
    bus.subscribe(PlaySettled, play.sync_decision)  # the game's own screen first, then the computer
    bus.subscribe(PlaySettled, ai.maybe_think)
    bus.subscribe(GameOpened, f.speech.opened)
    bus.subscribe(PlaySettled, f.speech.settled)
    bus.subscribe(ComputerMoveChosen, f.speech.computer_move)
    bus.subscribe(PlaySettled, f.coach.settled)
    bus.subscribe(MovePlayed, f.coach.moved)

    # the game's, the table's, the tracker's and the board's events
    bus.subscribe_all(PLAY_SHOWN, play.show)
    bus.subscribe_all(TABLE_SHOWN, clock.show)
    bus.subscribe_all(GUIDE_EVENTS, board.guide)
    bus.subscribe_all((MovePlayed, AnswerPlayed, TurnsUndone, PartSealed, PlayerResigned), ai.position_changed)
    bus.subscribe_all((MovePlayed, AnswerPlayed, TurnsUndone), ai.move_made)
    bus.subscribe_all((TurnsUndone, PlayerResigned, PositionSet), ai.stop)
    bus.subscribe(TurnsUndone, f.matches.reopened)
    bus.subscribe(ActionRefused, f.storage.check_space)  # a save that failed: is the storage full?
    bus.subscribe_all(BOARD_EVENTS, game.feed_board)
    # speech hears what the game, the table, the tracker and the sensors say (after the LEDs)
    bus.subscribe_all(PLAY_SHOWN + TABLE_SHOWN + GUIDE_EVENTS + BOARD_EVENTS + (GameStarted, PartSealed), f.speech.heard)
    bus.subscribe_all(BOARD_EVENTS, f.dungeon.feed_board)

    # a lichess game: what lichess says, and the board's moves (online_game_room.py)
    og, online = f.online_game, f.online
    bus.subscribe(GameOpened, og.game_opened)
    bus.subscribe(GameClosed, og.game_closed)
    bus.subscribe(MovePlayed, og.move_made)
    bus.subscribe(GameOver, og.game_over)
    bus.subscribe(PlaySettled, og.settled)
    bus.subscribe(online_game.GameLoaded, og.loaded)
    bus.subscribe(online_game.MovePlayed, og.moved)
    bus.subscribe(online_game.MovesUndone, og.undone)
    bus.subscribe(online_game.GameEnded, og.ended_on_lichess)
    bus.subscribe_all((online_game.MoveConfirmed, online_game.MoveWaiting, online_game.MoveRefused,
                       online_game.OffersChanged, online_game.OpponentLeft, online_game.ActionRefused), og.said)

    # mail from other threads
    mailbox.route("board", board.receive)
    mailbox.route("link", f.link.receive)
    mailbox.route("ai-progress", ai.progress)
    mailbox.route("ai-done", ai.done)
    mailbox.route("ai-part", ai.part_done)
    mailbox.route("coach-search", f.coach.search_event)
    mailbox.route("coach-threats", f.coach.threats_found)
    mailbox.route("coach-check", f.coach.checked)
    mailbox.route("review-analysis", f.analysis.event)
    mailbox.route("resume-progress", f.resume.progressed)
    mailbox.route("resumed", f.resume.replayed)
    mailbox.route("games-progress", f.archive.progressed)
    mailbox.route("games-listed", f.archive.listed)
    mailbox.route("online", online.receive)
    mailbox.route("online-token", online.token_arrived)
    mailbox.on_failure("resume", f.resume.failed)
    mailbox.on_failure("coach", f.coach.failed)
    mailbox.on_any_failure(f.problems.worker_failed)

    # answers to the questions each room asks
    display.answers_to((BOARD, "draw", "resign-who", "resign-confirm"), play.answer)
    display.answers_to(("turn-order",), f.dungeon.answer)
    display.answers_to(("menu", "new-game"), f.menu.answer)
    display.answers_to(("delete-game",), f.archive.answer)
    display.answers_to(CLOCK_ASKED, clock.answer)
    display.answers_to(RECORDS_ASKED, f.records.answer)
    display.answers_to(SETTINGS_ASKED, f.settings.answer)
    display.answers_to(ARBITER_ASKED, f.arbiter.answer)
    display.answers_to(PREFERENCES_ASKED, f.preferences.answer)
    display.answers_to(LINK_ASKED, f.link.answer)
    display.answers_to(ONLINE_ASKED, og.answer)

    display.banners += [board.banner, lambda: online.game_banner() if og.live and not online.is_connected() else "",
                        lambda: f.storage.space_warning, f.link.banner]
    display.banner_taps.append(f.link.away_choices)
    f.problems.after("computer", close=ai.hold, retry=ai.retry)
