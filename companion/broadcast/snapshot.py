"""What a board serves, frozen: one immutable :class:`BoardSnapshot` per change of the game.

The game's owner (the app's flow, on the UI thread) calls :func:`take_snapshot` after every
change it sees (:func:`change_key` says cheaply whether there was one) and hands the value to
the server thread. Everything the server sends is a pure function of that value and the time:
the PGN text (companion.tournament.record, the tournament records' own writer), the JSON
summary with the clocks as they stand at the moment of the request, and the board's SVG. Texts
are computed on first use, on the server's thread, and kept with the snapshot.

A snapshot holds the chess clock itself (an immutable companion.tournament.clock.Clock), not
only its view, so the times served are those of the moment they are asked for.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any

from ..tournament.record import GameSnapshot, snapshot, snapshot_json
from ..tournament.pgn import format_pgn
from .picture import BoardPicture, picture_of
from .svg import board_svg

#: Version of the JSON a board serves (the hall refuses other versions).
FORMAT = 1
STATES = ("idle", "playing", "paused", "over")


@dataclass(frozen=True)
class BoardSnapshot:
    """The game on one board at one change. ``game`` is None while the board has no game."""

    version: int
    name: str
    game: GameSnapshot | None = None
    clock: Any = None  # companion.tournament.clock.Clock or None
    picture: BoardPicture | None = None
    info: tuple[tuple[str, Any], ...] = ()
    fights: tuple[str | None, ...] = ()

    @property
    def has_game(self) -> bool:
        return self.game is not None

    @property
    def state(self) -> str:
        if self.game is None:
            return "idle"
        if self.game.over:
            return "over"
        if self.clock is not None and self.clock.paused:
            return "paused"
        return "playing"

    @cached_property
    def pgn_text(self) -> str:
        return format_pgn(self.game.pgn) if self.game is not None else ""

    @cached_property
    def svg(self) -> str:
        if self.picture is None:
            return ""
        return board_svg(self.picture, title=self._title())

    def _title(self) -> str:
        names = " - ".join(self.game.names) if self.game is not None else ""
        return f"{names} ({self.picture.width}x{self.picture.height})" if names else ""

    def to_json(self, now_ms: int) -> dict[str, Any]:
        """The JSON summary at ``now_ms`` (the same monotonic clock the snapshot was taken on)."""
        out: dict[str, Any] = {"format": FORMAT, "name": self.name, "version": self.version, "state": self.state}
        if self.game is None:
            return out
        game = self.game
        view = None
        if self.clock is not None:
            view = self.clock.view(max(now_ms, game.t_ms))
            game = replace(game, clock=view, t_ms=max(now_ms, game.t_ms))
        data = snapshot_json(game)
        if view is not None:
            data["clock"]["delay_ms"] = view.delay_left
        for move, fight in zip(data["moves"], self.fights):
            if fight is not None:
                move["fight"] = fight
        data.update(dict(self.info))
        data["board_picture"] = self.picture.to_json() if self.picture is not None else None
        out.update(data)
        return out

    def json_text(self, now_ms: int) -> str:
        return json.dumps(self.to_json(now_ms), ensure_ascii=False, separators=(",", ":"))


def take_snapshot(source, version: int, now_ms: int, name: str) -> BoardSnapshot:
    """Freeze ``source`` (a companion.tournament.table.Table, a bare Session, or None) now."""
    if source is None:
        return BoardSnapshot(version, name)
    session = getattr(source, "session", source)
    setup = getattr(source, "setup", None) if session is not source else None
    game = snapshot(source, now_ms)
    info = {"game": session.setup.game, "game_id": session.setup.game_id,
            "round": getattr(setup, "round", "") or "", "board": getattr(setup, "board", "") or "",
            "event": getattr(setup, "event", "") or "", "map": session.setup.board_map or "",
            "ids": list(getattr(setup, "ids", ()) or ()),
            "pending": session.pos.pending.kind if session.pos.pending is not None else None,
            # a game that keeps points (four-player chess) and players out of it: beside the names
            "points": list(session.pos.var("points")) if session.pos.var("points") else None,
            "out": sorted(session.pos.var("out", ()) or ())}
    fights = tuple(m.fight for m in session.moves)
    return BoardSnapshot(version, name, game, getattr(source, "clock", None), picture_of(session),
                         tuple(info.items()), fights)


def change_key(source) -> tuple:
    """A cheap value that changes whenever what a snapshot of ``source`` shows changes: the
    game object, the session's action count and result, a table's clock value (replaced on
    every press, pause or correction) and its notes and draw offers."""
    if source is None:
        return (None,)
    session = getattr(source, "session", source)
    return (id(source), id(session), session.actions, session.result, len(session.moves),
            id(getattr(source, "clock", None)), len(getattr(source, "notes", ())), len(getattr(source, "offers", ())))


def live_json(snap: BoardSnapshot, now_ms: int) -> str:
    """What a page or a hall is sent: the JSON summary with the board's ``svg`` and ``pgn``."""
    data = snap.to_json(now_ms)
    if snap.has_game:
        data["svg"] = snap.svg
        data["pgn"] = snap.pgn_text
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))
