"""The Kivy application: loads the .kv files, holds the screens, pumps the flow on the clock.

This is the only module that knows about all screens; it knows nothing about the game. On
every clock tick it drains the flow's mailbox (board events, the computer's move, a finished
replay); when the flow reports a change it shows the flow's screen, refreshes it from its
presenter and opens or closes the popups. Between events the main loop rests at a low frame
rate (pacing.py); a post from another thread wakes it at once.
"""

from __future__ import annotations

import time
from pathlib import Path

from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.lang import Builder
from kivy.properties import NumericProperty, ObjectProperty, StringProperty
from kivy.resources import resource_find
from kivy.uix.screenmanager import NoTransition, ScreenManager

from ..i18n import current
from . import texts as T
from . import theme
from .heap import HeapTrim, glibc
from .pacing import REST_FPS, FlowPacing, LoopWaker
from .screens import (
    arbiter, armies, board_check, clock, deploy, draft, duel, dungeon_game, fight, game, game_over, game_text, games,
    link, loading, online, position, problem, resume, review, setup, start, table_setup,
)
from .widgets import board as board_widget
from .widgets import coach_panel, common, game_bar, map_thumb, popups

#: Every screen: name -> (module, class, presenter, shows the board). A screen (and its .kv
#: rules) is built the first time it is shown: a chess game never builds the draft screen
#: (quicker start, less memory at rest; companion/app/rest_bench.py).
SCREENS = {
    "loading": (loading, "LoadingScreen", "resume", False),
    "start": (start, "StartScreen", "start", False),
    "resume": (resume, "ResumeScreen", "resume", False),
    "setup": (setup, "SetupScreen", "setup", True),
    "game": (game, "GameScreen", "game", True),
    "fight": (fight, "FightScreen", "fight", False),
    "game_over": (game_over, "GameOverScreen", "over", True),
    "board_check": (board_check, "BoardCheckScreen", "check", False),
    "draft": (draft, "DraftScreen", "draft", False),
    "deploy": (deploy, "DeployScreen", "deploy", True),
    "dungeon_game": (dungeon_game, "DungeonGameScreen", "dungeon", True),
    "game_text": (game_text, "GameTextScreen", "text", False),
    "problem": (problem, "ProblemScreen", "problem", False),
    "games": (games, "GamesScreen", "games", False),
    "review": (review, "ReviewScreen", "review", False),
    "position": (position, "PositionScreen", "position", False),
    "clock": (clock, "ClockScreen", "clock", False),
    "table_setup": (table_setup, "TableSetupScreen", "table", False),
    "arbiter": (arbiter, "ArbiterScreen", "arbiter", False),
    "armies": (armies, "ArmiesScreen", "armies", False),
    "duel": (duel, "DuelScreen", "duel", False),
    "link": (link, "LinkScreen", "link", False),
    "online": (online, "OnlineScreen", "online", False),
}
COMMON_KV = [common.KV, board_widget.KV, map_thumb.KV, popups.KV, game_bar.KV, coach_panel.KV]
KV_FILES = COMMON_KV + [module.KV for module, *_ in SCREENS.values()]
PUMP_HZ = 30
#: Seconds after a screen or a popup changes during which touches are ignored: the finger that
#: just tapped, tapping again, must not press whatever appeared under it.
TOUCH_GUARD_S = 0.35
_loaded_kv: set[str] = set()


def load_kv_files(paths=None) -> None:
    """Load .kv files (default: all) once per process (Builder rules are global)."""
    for path in KV_FILES if paths is None else paths:
        key = str(path)
        if key not in _loaded_kv:
            Builder.load_file(key)
            _loaded_kv.add(key)


class CompanionApp(App):
    """``flow`` is a companion.app.presenters.flow.AppFlow, ``presenters`` the bootstrap's
    Presenters (one per screen)."""

    unit = NumericProperty(1.0)
    fs = NumericProperty(theme.FONT)
    fs_small = NumericProperty(theme.FONT_SMALL)
    fs_large = NumericProperty(theme.FONT_LARGE)
    fs_title = NumericProperty(theme.FONT_TITLE)
    button_h = NumericProperty(theme.BUTTON_HEIGHT)
    pad = NumericProperty(theme.PADDING)
    glyph_font = StringProperty("")
    presenters = ObjectProperty(None)

    def __init__(self, flow, presenters, kiosk=None, **kw) -> None:
        super().__init__(**kw)
        self.flow = flow
        self.kiosk = kiosk  # systemd's watchdog and the backlight (kiosk.py); None: neither
        self.presenters = presenters
        self.glyph_font = resource_find("data/fonts/DejaVuSans.ttf") or "Roboto"
        self._dirty = True
        self._prompt_popup = None
        self._shown_prompt = None
        self._info_popup = None
        self._guard_until = 0.0
        self._guard_key = None
        self._entry_popup = None
        self._language = current().code  # the language the screens are built in
        self._heap = HeapTrim(glibc())  # freed memory back to the system (heap.py)

    # ----- Kivy lifecycle ----------------------------------------------------------------------
    def build(self):
        self.title = T.APP_TITLE
        load_kv_files(COMMON_KV)
        self.screens = ScreenManager(transition=NoTransition())
        self.screen("loading")
        self.screen("start")
        Window.bind(size=self._scale)
        Window.bind(on_touch_down=self._guard_touch)
        Window.clearcolor = theme.BACKGROUND
        self._scale()
        self.flow.listeners.append(self._changed)
        self._pacing = FlowPacing(self.flow)
        # a post from a board or search thread runs the pump now, not at the next frame
        waker = self._waker = LoopWaker(Clock)
        self._face_due: int | None = None  # the running clock's next face change, woken for
        self._face_event = None
        pump_now = Clock.create_trigger(self._tick)  # thread-safe

        kiosk = self.kiosk

        def wake() -> None:
            pump_now()
            waker.wake()
            if kiosk is not None:
                kiosk.woken()  # a sensor change wakes a dimmed screen

        self.flow.wake = wake
        if kiosk is not None and kiosk.watchdog_period_s is not None:
            # WATCHDOG=1 from the Kivy clock: none while the UI loop is stuck, so systemd restarts it
            Clock.schedule_interval(lambda _dt: kiosk.loop_turned(time.monotonic()), kiosk.watchdog_period_s)
        Window.bind(on_motion=self._input)
        Clock.schedule_interval(self._tick, 1 / PUMP_HZ)
        return self.screens

    def on_start(self) -> None:
        self.flow.start()
        self._refresh()
        if self.kiosk is not None:
            self.kiosk.started()
            self.kiosk.loop_turned(time.monotonic())

    def on_stop(self) -> None:
        self.flow.stop()
        if self.kiosk is not None:
            self.kiosk.stopping()

    # ----- sizes ---------------------------------------------------------------------------------
    def _scale(self, *_) -> None:
        w, h = Window.size
        dw, dh = theme.DESIGN_SIZE
        self.unit = max(0.6, min(w / dw, h / dh))
        u = self.unit
        self.fs, self.fs_small = theme.FONT * u, theme.FONT_SMALL * u
        self.fs_large, self.fs_title = theme.FONT_LARGE * u, theme.FONT_TITLE * u
        self.button_h, self.pad = theme.BUTTON_HEIGHT * u, theme.PADDING * u

    # ----- the clock ------------------------------------------------------------------------------
    def _changed(self) -> None:
        self._dirty = True  # (whether it is activity: self._pacing, a listener too)

    def _input(self, *_args) -> None:
        """A touch (or the mouse): full frame rate at once."""
        t_ms = self.flow.clock_ms()
        set_frame_rate(Clock, self._pacing.touched(t_ms))
        if self.kiosk is not None:
            self.kiosk.touched(t_ms)

    def _tick(self, _dt) -> None:
        t_ms = self.flow.clock_ms()
        before = self._pacing.pacer.last_activity
        self.flow.pump(t_ms)  # one clock for board events and ticks
        if self._dirty:
            self._refresh()
        rate, face_in = self._pacing.plan(t_ms)
        if self.kiosk is not None:
            self.kiosk.tick(t_ms, changed=self._pacing.pacer.last_activity != before,
                            busy=self.flow.animating or face_in is not None)
        self._heap.pumped(went_to_rest=set_frame_rate(Clock, rate) and rate == REST_FPS)
        self._wake_for_face(t_ms, face_in)

    def _wake_for_face(self, t_ms: int, face_in: int | None) -> None:
        """A frame (and a pump) the moment the running clock's face changes, at rest too: the
        clock is redrawn at the second it turns and not kept at the full frame rate."""
        due = None if face_in is None else t_ms + face_in
        if due == self._face_due:
            return
        if self._face_event is not None:
            self._face_event.cancel()
            self._face_event = None
        self._face_due = due
        if due is not None:
            seconds = face_in / 1000 + 0.002  # just past the turn (the flow's clock is in ms)
            self._face_event = Clock.schedule_once(self._face_turned, seconds)
            self._waker.wake_at(seconds)

    def _face_turned(self, dt) -> None:
        self._face_event = self._face_due = None
        self._tick(dt)

    def screen(self, name: str):
        """The screen ``name``, built (with its .kv rules) the first time it is asked for."""
        sm = self.screens
        if not sm.has_screen(name):
            module, cls, presenter, board = SCREENS[name]
            load_kv_files([module.KV])
            extra = {"board_presenter": self.presenters.board} if board else {}
            sm.add_widget(getattr(module, cls)(name=name, presenter=getattr(self.presenters, presenter), **extra))
            self._heap.built()  # its first frames compile the renderer's shaders: trimmed after them
        return sm.get_screen(name)

    def _refresh(self) -> None:
        self._dirty = False
        sm = self.screens
        screen = self.flow.view_screen
        language = current().code
        if language != self._language:  # a language chosen in the menu: every screen is built again in it
            self._language = language
            self.title = T.APP_TITLE
            for built in list(sm.screens):
                sm.remove_widget(built)
            self._heap.replaced()  # the next rest unfreezes and walks everything (heap.py)
        if (sm.current != screen or not sm.has_screen(screen)) and screen in SCREENS:
            self.screen(screen)
            sm.current = screen
        sm.current_screen.refresh()
        self._sync_prompt()
        self._sync_info()
        self._sync_entry()
        key = (sm.current, self._shown_prompt is not None, self._info_popup is not None,
               self._entry_popup is not None, getattr(sm.current_screen, "names_popup", None) is not None)
        if key != self._guard_key:
            self._guard_key = key
            self._guard_until = time.monotonic() + TOUCH_GUARD_S

    # ----- a finger that just tapped -----------------------------------------------------------------
    def touch_guarded(self) -> bool:
        """True while a new screen or popup ignores touches (TOUCH_GUARD_S after it came)."""
        return time.monotonic() < self._guard_until

    def _guard_touch(self, _window, _touch) -> bool:
        return self.touch_guarded()  # True: the touch stops here, nothing under it is pressed

    def _sync_prompt(self) -> None:
        prompt = self.flow.display.prompt
        if prompt is self._shown_prompt:
            return
        if self._prompt_popup is not None:
            self._prompt_popup.dismiss()
            self._prompt_popup = None
        self._shown_prompt = prompt
        if prompt is not None:
            self._prompt_popup = popups.PromptPopup()
            self._prompt_popup.show(prompt, self._answer)

    def _answer(self, key) -> None:
        self._prompt_popup = None
        self._shown_prompt = None
        self.presenters.prompt.answer(key)

    def _sync_info(self) -> None:
        view = self.presenters.info.view()
        if view is None:
            if self._info_popup is not None:
                self._info_popup.dismiss()
                self._info_popup = None
            return
        if self._info_popup is None:
            self._info_popup = popups.PieceInfoPopup()
            self._info_popup.show(view, self._info_closed)

    def _sync_entry(self) -> None:
        """The on-screen keyboard or number pad, open while the flow has an entry."""
        view = self.presenters.entry.view()
        if view is None:
            if self._entry_popup is not None:
                self._entry_popup.dismiss()
                self._entry_popup = None
            return
        if self._entry_popup is None:
            self._entry_popup = popups.EntryPopup()
            self._entry_popup.show(view, self.presenters.entry)
        else:
            self._entry_popup.update(view)

    def _info_closed(self) -> None:
        self._info_popup = None
        self.presenters.info.close()


def set_frame_rate(clock, fps: float) -> bool:
    """Kivy reads its frame cap (Config graphics/maxfps) once, into the clock's ``_max_fps``,
    and reads that attribute on every frame; it has no public way to change the cap of a
    running app, so this is it (Kivy 2.x). A Kivy without the attribute keeps its fixed rate.
    Returns whether the rate changed."""
    if getattr(clock, "_max_fps", None) in (None, float(fps)):
        return False
    clock._max_fps = float(fps)
    return True


def kv_paths() -> list[Path]:
    return list(KV_FILES)
