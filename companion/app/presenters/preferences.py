"""The board's preferences (the Menu's last items): the language it shows and speaks, and its
speech (on, volume, moves only), kept in the data folder (companion/board_settings.py).

A language chosen here is used at once (companion.i18n.use): the screens are built again in it
(the shell sees the language change) and the board speaks it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from ... import board_settings
from ...board_settings import BoardSettings
from ...i18n import LANGUAGES, Language, current, use
from ...speech.announcements import SpeechSettings
from .. import texts as T
from .display import Display
from .questions import Prompt, PromptOption

ASKED = ("settings", "language")


class Preferences:
    def __init__(self, display: Display, directory: Path, settings: BoardSettings) -> None:
        self.display = display
        self.directory = directory
        self.settings = settings
        self.listeners: list[Callable[[BoardSettings], None]] = []  # told of every change

    @property
    def speech(self) -> SpeechSettings:
        return self.settings.speech

    # ----- the menu's items -------------------------------------------------------------------------
    def labels(self) -> dict[str, str]:
        s = self.speech
        return {"speech": T.SPEECH_ON if s.on else T.SPEECH_OFF,
                "volume": T.SPEECH_VOLUME.format(percent=s.volume),
                "moves-only": T.SPEECH_MOVES_ONLY_ON if s.moves_only else T.SPEECH_MOVES_ONLY_OFF,
                "language": T.LANGUAGE_ITEM.format(name=current().name)}

    def toggle_speech(self) -> None:
        s = self.speech
        self._set_speech(SpeechSettings(not s.on, s.volume, s.moves_only))

    def louder(self) -> None:
        self._set_speech(self.speech.louder())

    def toggle_moves_only(self) -> None:
        s = self.speech
        self._set_speech(SpeechSettings(s.on, s.volume, not s.moves_only))

    def open(self) -> None:
        """The Menu's "Settings…": speech on or off, its volume, moves only, the language."""
        now = self.labels()
        self.display.ask(Prompt("settings", T.SETTINGS, tuple(
            PromptOption(key, now[key]) for key in ("speech", "volume", "moves-only", "language"))))

    def choose_language(self) -> None:
        self.display.ask(Prompt("language", T.LANGUAGE_TITLE, tuple(
            PromptOption(code, name) for code, name in LANGUAGES.items())))

    def answer(self, prompt: Prompt, key: str | None) -> None:
        """Display.answers_to: a setting changed (the settings shown again, with it), the language
        chosen."""
        if prompt.kind == "settings":
            action = {"speech": self.toggle_speech, "volume": self.louder, "moves-only": self.toggle_moves_only,
                      "language": self.choose_language}.get(key)
            if action is not None:
                action()
                if key != "language":
                    self.open()
            return
        if key in LANGUAGES:
            use(Language.load(key))
            self._save(BoardSettings(key, self.speech))

    # ----- keeping them -------------------------------------------------------------------------------
    def _set_speech(self, speech: SpeechSettings) -> None:
        self._save(BoardSettings(self.settings.language, speech))

    def _save(self, settings: BoardSettings) -> None:
        self.settings = settings
        try:
            board_settings.save(self.directory, settings)
        except OSError as e:
            self.display.notice = T.SETTINGS_NOT_SAVED.format(reason=e.strerror or e)
        for hear in self.listeners:
            hear(settings)
        self.display.changed()


__all__ = ["Preferences", "ASKED"]
