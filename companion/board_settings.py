"""The board's own settings, kept across games and restarts: the language it shows and speaks,
and its speech (on, volume, moves only; docs/speech.md).

Kept as ``settings.json`` in the data folder, written whole (companion.durable). A file that
cannot be read is as good as none (the defaults: the system's language, speech off), so a
damaged file never stands in the way of a game; the next change writes a good one.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path

from .bounds import MAX_DATA_FILE_BYTES, load_json, read_text_file
from .durable import write_durably
from .errors import CompanionError
from .i18n import LANGUAGES, _
from .speech.announcements import SpeechSettings

FILE = "settings.json"


@dataclass(frozen=True)
class BoardSettings:
    """``language``: a code of companion.i18n.LANGUAGES, None for the system's."""

    language: str | None = None
    speech: SpeechSettings = field(default_factory=SpeechSettings)

    def to_json(self) -> dict:
        return {"language": self.language, "speech": self.speech.to_json()}

    @classmethod
    def from_json(cls, data: object) -> "BoardSettings":
        if not isinstance(data, dict) or set(data) - {"language", "speech"}:
            raise CompanionError(_("{file}: expected an object with 'language' and 'speech'").format(file=FILE))
        language = data.get("language")
        if language is not None and language not in LANGUAGES:
            raise CompanionError(_("{file}: no language {language!r}").format(file=FILE, language=language))
        return cls(language, SpeechSettings.from_json(data.get("speech", {})))


def load(directory: str | os.PathLike) -> BoardSettings:
    try:
        return BoardSettings.from_json(load_json(read_text_file(Path(directory) / FILE, MAX_DATA_FILE_BYTES,
                                                                _("the settings file")), FILE))
    except (OSError, UnicodeDecodeError, CompanionError, TypeError):
        return BoardSettings()


def save(directory: str | os.PathLike, settings: BoardSettings) -> None:
    """OSError when the folder cannot be written (the caller says so)."""
    path = Path(directory) / FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    write_durably(path, json.dumps(settings.to_json(), indent=1).encode("utf-8"))
