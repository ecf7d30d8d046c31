"""A match: several games between the same two players, its score kept across power cuts.

Chess 2's text: "Players choose their armies in a simultaneous, double-blind fashion at the
start of each match. ... in a multiple-game match, the loser of a game may switch to any army
for the next game. The winner of the previous game may not switch." The match holds what any
game needs for that: the two players, how many games, each game's id, who played white, each
player's *choice* for it (a Chess 2 army; a game without choices leaves them empty) and its
result. What a choice means is the game's business (companion/app/presenters/armies.py for
Chess 2); the match only says who may change theirs.

Decisions (docs/rules/chess2.md, "A match"):

* colours alternate: the first player has white in games 1, 3, 5, ...;
* a win is 1 point, a draw half a point each; the match ends when one player cannot be caught
  any more (a lead greater than the points still to play) or after its last game;
* after a draw neither player won, so both may change their choice (again double-blind).

:class:`Match` is a plain value (every change returns a new one). :class:`MatchStore` keeps the
match in progress as ``match.json`` beside the game journal, written whole to a new file, flushed
to the disk and renamed over the old one (a power cut leaves the old match or the new, never
half of one), and files a finished match under ``games/``.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from .bounds import MAX_DATA_FILE_BYTES, load_json, read_text_file
from .errors import RecordError, VariantError
from .i18n import _
from .durable import fsync_dir, write_durably
from .session import Seat
from .tournament.table import TableSetup

MATCH_FILE = "match.json"
ARCHIVE = "games"
VERSION = 1
#: match lengths the start screen offers (any length from 1 to MAX_GAMES is valid)
MAX_GAMES = 25


@dataclass(frozen=True)
class MatchGame:
    """One game of the match: its id (the journal's), which match player had white, each match
    player's choice for it (by match player, not colour), and the winner: 0 or 1 (match
    players), ``"draw"``, or None while it is played."""

    game_id: str
    white: int
    choices: tuple[str, str] = ("", "")
    result: int | str | None = None

    @property
    def finished(self) -> bool:
        return self.result is not None


@dataclass(frozen=True)
class Match:
    match_id: str
    game: str
    players: tuple[Seat, Seat]
    length: int
    bids: str = "screen"
    games: tuple[MatchGame, ...] = ()
    #: every game's table (its clock), as chosen on the start screen; None: no clock
    table: TableSetup | None = None

    def __post_init__(self) -> None:
        if len(self.players) != 2:
            raise VariantError(_("a match is played by 2 players, got {n}").format(n=len(self.players)))
        if isinstance(self.length, bool) or not isinstance(self.length, int) or not 1 <= self.length <= MAX_GAMES:
            raise VariantError(_("a match has 1 to {most} games, got {length!r}").format(most=MAX_GAMES, length=self.length))
        if not self.match_id or "/" in self.match_id:
            raise VariantError(_("a match id is non-empty text without '/', got {match_id!r}").format(match_id=self.match_id))

    # ----- the score ------------------------------------------------------------------------------
    @property
    def finished_games(self) -> tuple[MatchGame, ...]:
        return tuple(g for g in self.games if g.finished)

    @property
    def half_points(self) -> tuple[int, int]:
        """Each player's score in half points (a win 2, a draw 1)."""
        pts = [0, 0]
        for g in self.finished_games:
            if g.result == "draw":
                pts[0] += 1
                pts[1] += 1
            else:
                pts[g.result] += 2
        return pts[0], pts[1]

    @property
    def score(self) -> tuple[float, float]:
        a, b = self.half_points
        return a / 2, b / 2

    @property
    def current(self) -> MatchGame | None:
        """The game being played (started, not finished), if any."""
        return self.games[-1] if self.games and not self.games[-1].finished else None

    @property
    def is_over(self) -> bool:
        """After the last game, or as soon as one player cannot be caught."""
        played = len(self.finished_games)
        if self.current is not None:
            return False
        if played >= self.length:
            return True
        a, b = self.half_points
        return abs(a - b) > 2 * (self.length - played)

    @property
    def winner(self) -> int | None:
        """The match's winner once it is over (None: a tie, or not over)."""
        if not self.is_over:
            return None
        a, b = self.half_points
        return None if a == b else (0 if a > b else 1)

    # ----- the next game --------------------------------------------------------------------------
    @property
    def next_number(self) -> int:
        """The number (1-based) of the game to start next (or being played)."""
        return len(self.finished_games) + 1

    @property
    def next_white(self) -> int:
        """The match player with white in the next game: colours alternate."""
        return len(self.finished_games) % 2

    def colours(self, white: int) -> tuple[int, int]:
        """(match player with white, match player with black)."""
        return white, 1 - white

    def seats_for(self, white: int) -> tuple[Seat, Seat]:
        """The game's seats, white first."""
        return self.players[white], self.players[1 - white]

    def may_choose(self, player: int) -> bool:
        """May ``player`` change their choice (army) for the next game? In the first game
        everyone chooses; then "the loser of a game may switch ... The winner of the previous
        game may not switch"; after a draw both may."""
        last = self.finished_games[-1] if self.finished_games else None
        if last is None or last.result == "draw":
            return True
        return last.result != player

    def last_choice(self, player: int) -> str:
        """``player``'s choice in the last game ("" before the first)."""
        return self.finished_games[-1].choices[player] if self.finished_games else ""

    # ----- changes ------------------------------------------------------------------------------
    def with_game(self, game_id: str, white: int, choices: tuple[str, str]) -> Match:
        """The next game started."""
        if self.current is not None:
            raise VariantError(_("game {game_id} of the match is still being played").format(game_id=self.current.game_id))
        if self.is_over:
            raise VariantError(_('the match is over'))
        for p in (0, 1):
            if not self.may_choose(p) and choices[p] != self.last_choice(p):
                raise VariantError(_("{name} won the last game and may not switch ({kept}, not {chosen})").format(name=self.players[p].name, kept=self.last_choice(p), chosen=choices[p]))
        return replace(self, games=self.games + (MatchGame(game_id, white, tuple(choices)),))

    def with_result(self, game_id: str, winners: frozenset[int] | set[int]) -> Match:
        """Game ``game_id`` ended; ``winners`` are its seat numbers (0 white, 1 black), empty for
        a draw. Recording the same result again changes nothing (a resume may repeat it)."""
        for i, g in enumerate(self.games):
            if g.game_id != game_id:
                continue
            if len(winners) > 1:
                raise VariantError(_("a game of a match has one winner or none, got {winners}").format(winners=sorted(winners)))
            result: int | str = "draw" if not winners else (g.white if next(iter(winners)) == 0 else 1 - g.white)
            if g.finished and g.result != result:
                raise VariantError(_("game {game_id} of the match already ended with {result!r}").format(game_id=game_id, result=g.result))
            games = list(self.games)
            games[i] = replace(g, result=result)
            return replace(self, games=tuple(games))
        raise VariantError(_("game {game_id} is not part of match {match_id}").format(game_id=game_id, match_id=self.match_id))

    def without_current(self) -> Match:
        """The game being played is dropped (taken back to its choice of armies)."""
        return replace(self, games=self.games[:-1]) if self.current is not None else self

    # ----- JSON -------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {"type": "match", "version": VERSION, "id": self.match_id, "game": self.game,
                "length": self.length, "bids": self.bids,
                "players": [{"name": s.recorded, "computer": s.computer, "level": s.level, "word": s.word}
                            for s in self.players],
                "games": [{"id": g.game_id, "white": g.white, "choices": list(g.choices), "result": g.result}
                          for g in self.games],
                "table": self.table.to_json() if self.table is not None else None}

    @classmethod
    def from_json(cls, value: Any, where: str = MATCH_FILE) -> Match:
        def need(obj: Any, keys: tuple[str, ...], at: str, optional: tuple[str, ...] = ()) -> dict:
            if not isinstance(obj, dict):
                raise RecordError(_("{at}: expected a JSON object").format(at=at))
            unknown = sorted(set(obj) - set(keys) - set(optional))
            if unknown:
                raise RecordError(_("{at}: unknown field {field!r}").format(at=at, field=unknown[0]))
            missing = [k for k in keys if k not in obj]
            if missing:
                raise RecordError(_("{at}: field {field!r} is missing").format(at=at, field=missing[0]))
            return obj

        if isinstance(value, dict) and "table" not in value:  # a match written before games had a table
            value = {**value, "table": None}
        v = need(value, ("type", "version", "id", "game", "length", "bids", "players", "games", "table"), where)
        if v["type"] != "match" or v["version"] != VERSION:
            raise RecordError(_("{where}: not a match of version {version}").format(where=where, version=VERSION))
        try:
            players = []
            for i, p in enumerate(v["players"] if isinstance(v["players"], list) else [None]):
                # "word": the name is the app's word (Seat); a match written before: see Seat.read
                p = need(p, ("name", "computer", "level"), _("{where} player {n}").format(where=where, n=i + 1), ("word",))
                if not isinstance(p["computer"], bool) or not isinstance(p["level"], int) or \
                        not isinstance(p.get("word", False), bool):
                    raise RecordError(_("{where} player {number}: computer is true or false, level a number").format(where=where, number=i + 1))
                players.append(Seat.read(p["name"], p["computer"], p["level"], p.get("word")))
            games = []
            for i, g in enumerate(v["games"] if isinstance(v["games"], list) else [None]):
                g = need(g, ("id", "white", "choices", "result"), _("{where} game {n}").format(where=where, n=i + 1))
                choices = g["choices"]
                if (not isinstance(g["id"], str) or g["white"] not in (0, 1) or isinstance(g["white"], bool)
                        or not isinstance(choices, list) or len(choices) != 2
                        or not all(isinstance(c, str) for c in choices)
                        or g["result"] not in (None, "draw", 0, 1) or isinstance(g["result"], bool)):
                    raise RecordError(_('{where} game {number}: expected an id, white 0 or 1, two choices and a result (null, "draw", 0 or 1)').format(where=where, number=i + 1))
                games.append(MatchGame(g["id"], g["white"], (choices[0], choices[1]), g["result"]))
            if not isinstance(v["id"], str) or not isinstance(v["game"], str) or not isinstance(v["bids"], str):
                raise RecordError(_("{where}: id, game and bids are texts").format(where=where))
            if any(g.finished is False for g in games[:-1]):
                raise RecordError(_("{where}: only the last game may be unfinished").format(where=where))
            table = TableSetup.from_json(v["table"], _("{where} table").format(where=where)) if v["table"] is not None else None
            return cls(v["id"], v["game"], tuple(players), v["length"], v["bids"], tuple(games), table)
        except VariantError as e:
            raise RecordError(_("{where}: {problem}").format(where=where, problem=e)) from None


class MatchStore:
    """The match in progress, as ``match.json`` in the journal's directory."""

    def __init__(self, directory: str | os.PathLike) -> None:
        self.directory = Path(directory)

    @property
    def path(self) -> Path:
        return self.directory / MATCH_FILE

    def load(self) -> Match | None:
        """The match in progress, or None. RecordError when the file is damaged (say so, and
        :meth:`set_aside` it: the game journals are untouched)."""
        try:
            text = read_text_file(self.path, MAX_DATA_FILE_BYTES, _("a match's score"))
        except FileNotFoundError:
            return None
        except (OSError, UnicodeDecodeError) as e:
            raise RecordError(_("{file}: it cannot be read ({reason})").format(file=MATCH_FILE, reason=getattr(e, 'strerror', None) or e)) from None
        return Match.from_json(load_json(text, MATCH_FILE), MATCH_FILE)

    def save(self, match: Match) -> None:
        """Write the match durably: a new file, flushed, renamed over the old one, the folder
        flushed. OSError leaves the old file as it was."""
        self.directory.mkdir(parents=True, exist_ok=True)
        data = json.dumps(match.to_json(), ensure_ascii=False, indent=1).encode("utf-8")
        write_durably(self.path, data, ".new")

    def archive(self, match: Match | None = None, name: str | None = None) -> Path | None:
        """File the match under ``games/`` (a finished match, or one left unfinished)."""
        if not self.path.exists():
            return None
        folder = self.directory / ARCHIVE
        folder.mkdir(parents=True, exist_ok=True)
        stem = name or (match.match_id if match is not None else "match")
        target = folder / f"{stem}.match.json"
        n = 1
        while target.exists():
            n += 1
            target = folder / f"{stem}-{n}.match.json"
        os.replace(self.path, target)
        fsync_dir(self.directory)
        fsync_dir(folder)
        return target

    def set_aside(self) -> Path | None:
        """Move a damaged match file out of the way (kept as ``games/damaged.match.json``)."""
        return self.archive(name="damaged")
