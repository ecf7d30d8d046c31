"""The game's records at the table: its PGN in the games folder (at the end, and on demand from
the menu), the round's results for a game started from a pairing file (a CSV line, and the TRF
with the result entered), and all of them copied to a USB stick.

:class:`Records` keeps no state of its own; it writes when a game is filed (GameFiled) and when
the players ask.
"""

from __future__ import annotations

from pathlib import Path

from ...errors import CompanionError
from ...tournament.files import copy_to_stick, save_game_pgn, write_file
from ...tournament.pairing import Pairing, Player, merge_results, result_line, trf_with_result
from ...tournament.record import pgn_game
from ...tournament.table import Table
from .. import texts as T
from .display import Display
from .game_room import GameRoom
from .messages import GameFiled
from .questions import Prompt, PromptOption
from .storage import Storage

#: The questions asked here, answered in :meth:`Records.answer`.
ASKED = ("stick",)


class Records:
    def __init__(self, game: GameRoom, display: Display, storage: Storage) -> None:
        self.game = game
        self.display = display
        self.storage = storage

    @property
    def results_folder(self) -> Path:
        return self.storage.directory / "results"

    def save(self) -> Path | None:
        """The current game's PGN in the games folder now (on demand)."""
        table = self.game.table
        if table is None:
            return None
        try:
            path = save_game_pgn(self.storage.games_folder, table.game.game_id, pgn_game(table))
        except OSError as e:
            self.display.notice = T.CANNOT_SAVE.format(reason=e)
            self.display.changed()
            return None
        self.display.notice = T.RECORD_SAVED.format(name=path.name)
        self.display.changed()
        return path

    def copy(self) -> None:
        """Copy the games folder's records to a mounted USB stick (asking which, if several)."""
        sticks = self.storage.sticks()
        if not sticks:
            self.display.notice = T.NO_STICK
            self.display.changed()
            return
        if len(sticks) > 1:
            self.display.ask(Prompt("stick", T.WHICH_STICK, tuple(PromptOption(str(s.path), s.name) for s in sticks)))
            return
        self._copy_to(sticks[0].path, sticks[0].name)

    def answer(self, prompt: Prompt, key: str | None) -> None:
        """Display.answers_to: which stick."""
        if key is not None:
            self._copy_to(Path(key), Path(key).name)

    def _copy_to(self, path, name: str) -> None:
        try:
            report = copy_to_stick(self.storage.games_folder, path)
            results = self.results_folder
            if results.is_dir():
                for f in sorted(results.iterdir()):
                    if f.is_file():
                        write_file(report.target / f.name, f.read_text(encoding="utf-8"))
        except OSError as e:
            self.display.notice = T.COPY_FAILED.format(name=name, reason=e.strerror or e)
        else:
            self.display.notice = T.COPIED.format(count=report.copied, name=name)
        self.display.changed()

    def filed(self, event: GameFiled) -> None:
        """A game was filed: its PGN, and for a paired game the round's results."""
        table = event.table
        if table is None:
            return
        try:
            save_game_pgn(self.storage.games_folder, table.game.game_id, pgn_game(table))
            pairing = table_pairing(table)
            if pairing is not None and table.is_over:
                code = _result_for_file(table)
                if code is not None:
                    self._write_results(table, pairing, code)
        except (OSError, CompanionError) as e:
            self.display.notice = T.CANNOT_SAVE.format(reason=e)

    def _write_results(self, table: Table, pairing: Pairing, code: str) -> None:
        """The round's results file (one CSV line per game played here) and, for a TRF
        pairing, the TRF with every result entered here, in the data folder's results/."""
        folder = self.results_folder
        folder.mkdir(parents=True, exist_ok=True)
        csv_path = folder / f"round-{pairing.round}-results.csv"
        existing = csv_path.read_text(encoding="utf-8") if csv_path.exists() else ""
        write_file(csv_path, merge_results(existing, result_line(pairing, code)))
        kind, _, name = table.setup.source.partition(":")
        if kind == "trf":
            trf_path = folder / f"round-{pairing.round}-{name}"
            original = self.storage.directory / "pairings" / name
            base = trf_path.read_text(encoding="utf-8") if trf_path.exists() else original.read_text(encoding="utf-8")
            write_file(trf_path, trf_with_result(base, pairing, code, name))


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
    players = [Player(numbers[i], seats[i].recorded, ratings[i], fide_id="" if kind == "trf" else ids[i]) for i in (0, 1)]
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


__all__ = ["Records", "table_pairing"]
