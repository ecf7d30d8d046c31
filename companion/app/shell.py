"""The Kivy application: loads the .kv files, holds the screens, pumps the flow on the clock.

This is the only module that knows about all screens; it knows nothing about the game. On
every clock tick it drains the flow's inbox (board events, the computer's move, a finished
replay); when the flow reports a change it shows the flow's screen, refreshes it from its
presenter and opens or closes the popups.
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

from . import texts as T
from . import theme
from .screens import (
    board_check, deploy, draft, dungeon_game, fight, game, game_over, game_text, games, loading, position, problem,
    resume, review, setup, start,
)
from .widgets import board as board_widget
from .widgets import common, game_bar, map_thumb, popups

KV_FILES = [common.KV, board_widget.KV, map_thumb.KV, popups.KV, game_bar.KV] + [
    m.KV for m in (start, resume, loading, setup, game, fight, game_over, board_check, draft, deploy, dungeon_game,
                   game_text, problem, games, review, position)
]
PUMP_HZ = 30
#: Seconds after a screen or a popup changes during which touches are ignored: the finger that
#: just tapped, tapping again, must not press whatever appeared under it.
TOUCH_GUARD_S = 0.35
_loaded_kv: set[str] = set()


def load_kv_files() -> None:
    """Load every .kv file once per process (Builder rules are global)."""
    for path in KV_FILES:
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

    def __init__(self, flow, presenters, **kw) -> None:
        super().__init__(**kw)
        self.flow = flow
        self.presenters = presenters
        self.glyph_font = resource_find("data/fonts/DejaVuSans.ttf") or "Roboto"
        self._dirty = True
        self._prompt_popup = None
        self._shown_prompt = None
        self._info_popup = None
        self._guard_until = 0.0
        self._guard_key = None

    # ----- Kivy lifecycle ----------------------------------------------------------------------
    def build(self):
        self.title = T.APP_TITLE
        load_kv_files()
        p = self.presenters
        sm = ScreenManager(transition=NoTransition())
        sm.add_widget(loading.LoadingScreen(name="loading", presenter=p.resume))
        sm.add_widget(start.StartScreen(name="start", presenter=p.start))
        sm.add_widget(resume.ResumeScreen(name="resume", presenter=p.resume))
        sm.add_widget(setup.SetupScreen(name="setup", presenter=p.setup, board_presenter=p.board))
        sm.add_widget(game.GameScreen(name="game", presenter=p.game, board_presenter=p.board))
        sm.add_widget(fight.FightScreen(name="fight", presenter=p.fight))
        sm.add_widget(game_over.GameOverScreen(name="game_over", presenter=p.over, board_presenter=p.board))
        sm.add_widget(board_check.BoardCheckScreen(name="board_check", presenter=p.check))
        sm.add_widget(draft.DraftScreen(name="draft", presenter=p.draft))
        sm.add_widget(deploy.DeployScreen(name="deploy", presenter=p.deploy, board_presenter=p.board))
        sm.add_widget(dungeon_game.DungeonGameScreen(name="dungeon_game", presenter=p.dungeon,
                                                     board_presenter=p.board))
        sm.add_widget(game_text.GameTextScreen(name="game_text", presenter=p.text))
        sm.add_widget(problem.ProblemScreen(name="problem", presenter=p.problem))
        sm.add_widget(games.GamesScreen(name="games", presenter=p.games))
        sm.add_widget(review.ReviewScreen(name="review", presenter=p.review))
        sm.add_widget(position.PositionScreen(name="position", presenter=p.position))
        self.screens = sm
        Window.bind(size=self._scale)
        Window.bind(on_touch_down=self._guard_touch)
        Window.clearcolor = theme.BACKGROUND
        self._scale()
        self.flow.listeners.append(self._changed)
        Clock.schedule_interval(self._tick, 1 / PUMP_HZ)
        return sm

    def on_start(self) -> None:
        self.flow.start()
        self._refresh()

    def on_stop(self) -> None:
        self.flow.stop()

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
        self._dirty = True

    def _tick(self, _dt) -> None:
        self.flow.pump(self.flow.clock_ms())  # one clock for board events and ticks
        if self._dirty:
            self._refresh()

    def _refresh(self) -> None:
        self._dirty = False
        sm = self.screens
        screen = self.flow.view_screen
        if sm.current != screen and sm.has_screen(screen):
            sm.current = screen
        sm.current_screen.refresh()
        self._sync_prompt()
        self._sync_info()
        key = (sm.current, self._shown_prompt is not None, self._info_popup is not None,
               getattr(sm.current_screen, "names_popup", None) is not None)
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
        prompt = self.flow.prompt
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

    def _info_closed(self) -> None:
        self._info_popup = None
        self.presenters.info.close()


def kv_paths() -> list[Path]:
    return list(KV_FILES)
