"""Arbiter mode, behind the PIN: the PIN set on the board the first time (kept as a salted hash
in ``arbiter.json``, companion.tournament.arbiter), asked for every time after; then the
arbiter's actions on the table (the clocks, penalties, results, takebacks), each journaled.

:class:`ArbiterMode` owns the way into arbiter mode and the screen to go back to.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from ...errors import RecordError
from ...tournament import arbiter as pins
from ...tournament.files import write_file
from .. import texts as T
from .display import Display
from .entry import Entry, time_ms
from .game_room import GameRoom
from .play import Play
from .questions import Prompt, PromptOption

#: The arbiter's PIN record in the data folder.
PIN_FILE = "arbiter.json"
#: The questions asked here, answered in :meth:`ArbiterMode.answer`.
ASKED = ("arbiter-result",)


class ArbiterMode:
    def __init__(self, game: GameRoom, play: Play, display: Display, directory: Path, *,
                 new_salt: Callable[[], bytes]) -> None:
        self.game = game
        self.play = play  # whether the game's end is on screen (arbiter mode goes back to it)
        self.display = display
        self.directory = Path(directory)
        self.new_salt = new_salt  # the PIN's salt, drawn at the edge
        self._back = "game"

    @property
    def pin_path(self) -> Path:
        return self.directory / PIN_FILE

    # ----- the PIN --------------------------------------------------------------------------------
    def open(self) -> None:
        """Arbiter mode, behind the PIN (set on the board the first time)."""
        record = self._pin_record()
        if record is None:
            self._ask(T.PIN_SET, self._pin_first)
            return
        self._ask(T.PIN_ENTER, lambda pin: self._pin_check(record, pin))

    def _ask(self, title: str, on_done: Callable[[str], str | None]) -> None:
        self.display.open_entry(Entry(title, keys="digits", secret=True, max_len=pins.MAX_PIN, on_done=on_done))

    def _pin_first(self, pin: str) -> str | None:
        if not pins.valid_pin(pin):
            return T.PIN_RULE
        self._ask(T.PIN_AGAIN, lambda again: self._pin_save(pin, again))
        return None

    def _pin_save(self, pin: str, again: str) -> str | None:
        if again != pin:
            return T.PIN_MISMATCH
        try:
            path = self.pin_path
            path.parent.mkdir(parents=True, exist_ok=True)
            write_file(path, pins.make_pin(pin, self.new_salt()).to_json())
        except OSError as e:
            return T.CANNOT_SAVE.format(reason=e)
        self._enter()
        return None

    def _pin_check(self, record, pin: str) -> str | None:
        if not pins.pin_matches(record, pin):
            return T.PIN_WRONG
        self._enter()
        return None

    def _pin_record(self):
        path = self.pin_path
        if not path.exists():
            return None
        try:
            return pins.PinRecord.from_json(path.read_text(encoding="utf-8"))
        except (OSError, RecordError):
            return None

    def change_pin(self) -> None:
        self._ask(T.PIN_SET, self._pin_first)

    # ----- arbiter mode ----------------------------------------------------------------------------
    def _enter(self) -> None:
        if self.display.screen != "arbiter":
            self._back = self.display.screen
        self.display.show("arbiter")

    def close(self) -> None:
        screen = self._back if self._back in ("game", "game_over") else "game"
        table = self.game.table
        if table is not None and table.is_over and self.play.over is not None:
            screen = "game_over"
        self.display.show(screen)

    def do(self, op: str, **args) -> None:
        table = self.game.table
        t = self.game.clock_ms()
        self.game.command(lambda: table.arbiter(op, t, **args))

    def set_time(self, side: int) -> None:
        s = self.game.session
        name = s.seats[side].name if s is not None and 0 <= side < len(s.seats) else T.COLOUR_NAMES[side % 2]
        self.display.open_entry(Entry(T.SET_TIME.format(name=name), keys="digits", kind="time", max_len=6,
                                      on_done=lambda digits: self._set_time(side, digits)))

    def _set_time(self, side: int, digits: str) -> str | None:
        if not digits:
            return T.TIME_RULE
        self.do("set-time", side=side, ms=time_ms(digits))
        return None

    def ask_result(self) -> None:
        self.display.ask(Prompt("arbiter-result", T.ARBITER_RESULTS_TITLE, tuple(
            PromptOption(code, label) for code, label in T.ARBITER_RESULTS.items())))

    def answer(self, prompt: Prompt, key: str | None) -> None:
        """Display.answers_to: the result the arbiter sets."""
        if key is not None:
            self.do("result", result=key)


__all__ = ["ArbiterMode", "PIN_FILE"]
