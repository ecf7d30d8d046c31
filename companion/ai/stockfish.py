"""Stockfish as a chess opponent: the edge that runs a UCI engine in a subprocess.

:class:`UciEngine` moves lines between the engine's pipes and the sans-I/O
:class:`companion.ai.uci.UciProtocol`; :class:`StockfishPlayer` is a computer seat for FIDE
chess with the same ``choose`` call as our own levels (companion.ai.levels), so ai-match, the
app's worker thread (companion.ai.worker) and the coach use it unchanged.

Strength: ``UCI_LimitStrength`` with ``UCI_Elo`` (Stockfish 15.1, Debian's, accepts 1350 to
2850). A limited Stockfish picks its move at a fixed depth (1 + its skill level; Elo 1800 is
level 4, depth 5) among its four best with a random spread, so more time does not make it
stronger: each move gets at most :data:`MOVE_SECONDS` (1 s, enough on a Raspberry Pi, where
Stockfish reaches that depth in a few milliseconds), one thread and 16 MB of hash.

A missing engine is refused at once, in one line (:class:`StockfishMissing`).
"""

from __future__ import annotations

import os
import select
import shutil
import subprocess
import time
from typing import Callable

from ..errors import CompanionError
from .search import MATE, SearchInfo
from .uci import BestMove, Info, ReadyOk, UciError, UciOk, UciProtocol
from ..i18n import _

#: where Debian puts it (not on a normal user's PATH: /usr/games)
KNOWN_PATHS = ("/usr/games/stockfish", "/usr/local/bin/stockfish", "/usr/bin/stockfish")
#: the longest a limited Stockfish thinks per move (see the module's text)
MOVE_SECONDS = 1.0
#: how long the engine may take to start, answer isready, or send its move past the move time
TIMEOUT_SECONDS = 10.0


class StockfishMissing(CompanionError, FileNotFoundError):
    """No Stockfish on this machine."""


def find_stockfish(path: str | None = None) -> str | None:
    """The engine's path: ``path`` if given and executable, else on PATH or where Debian puts it."""
    if path is not None:
        return path if os.path.isfile(path) and os.access(path, os.X_OK) else None
    found = shutil.which("stockfish")
    if found:
        return found
    return next((p for p in KNOWN_PATHS if os.path.isfile(p) and os.access(p, os.X_OK)), None)


def missing_message(path: str | None = None) -> str:
    if path:
        return _("Stockfish is not installed at {path}: install it (Debian: apt-get install stockfish) or choose one "
                 "of our own levels").format(path=path)
    return _("Stockfish is not installed: install it (Debian: apt-get install stockfish) or choose one of our own "
             "levels")


class UciEngine:
    """A UCI engine in a subprocess, spoken to through :class:`UciProtocol`."""

    def __init__(self, path: str, *, clock: Callable[[], float] = time.monotonic, timeout: float = TIMEOUT_SECONDS):
        self.clock = clock
        self.timeout = timeout
        self.proto = UciProtocol()
        try:
            self.proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.DEVNULL, bufsize=0)
        except OSError as e:
            raise StockfishMissing(missing_message(path) + f" ({e.strerror})") from None
        self._buffer = b""
        try:
            self._send(self.proto.start())
            self._until(UciOk)
        except BaseException:
            self.close()
            raise

    @property
    def name(self) -> str:
        return self.proto.name or "engine"

    def configure(self, options: dict[str, object]) -> None:
        for name, value in options.items():
            self._send(self.proto.set_option(name, value))
        self._send(self.proto.is_ready())
        self._until(ReadyOk)

    def new_game(self) -> None:
        self._send(self.proto.new_game())
        self._send(self.proto.is_ready())
        self._until(ReadyOk)

    def think(self, fen: str, *, moves: tuple[str, ...] = (), movetime_ms: int | None = None, nodes: int | None = None,
              depth: int | None = None, searchmoves: tuple[str, ...] = (), stop: Callable[[], bool] | None = None,
              on_info: Callable[[Info], None] | None = None) -> tuple[BestMove, Info | None]:
        """Search ``fen`` after ``moves``; returns the best move and the last info line with a
        score. ``stop`` is polled (every 20 ms): once true the engine is told to answer now."""
        self._send(self.proto.position(fen, moves))
        self._send(self.proto.go(movetime_ms=movetime_ms, nodes=nodes, depth=depth, searchmoves=searchmoves))
        last: Info | None = None
        stopped = False
        limit = (movetime_ms or 0) / 1000.0 + self.timeout
        start = self.clock()
        while True:
            if not stopped and stop is not None and stop():
                self._send(self.proto.stop())
                stopped = True
            line = self._line(0.02, start + limit)
            if line is None:
                continue
            for event in self.proto.feed(line):
                if isinstance(event, Info) and (event.score_cp is not None or event.score_mate is not None):
                    last = event
                    if on_info is not None:
                        on_info(event)
                elif isinstance(event, BestMove):
                    return event, last

    def close(self) -> None:
        proc = getattr(self, "proc", None)
        if proc is None or proc.poll() is not None:
            return
        try:
            self._send(self.proto.quit())
            proc.wait(timeout=2.0)
        except (OSError, subprocess.TimeoutExpired):
            proc.kill()
            proc.wait()
        finally:
            for f in (proc.stdin, proc.stdout):
                if f is not None:
                    f.close()

    # ----- pipes ------------------------------------------------------------------------------
    def _send(self, lines: list[str]) -> None:
        try:
            for line in lines:
                self.proc.stdin.write((line + "\n").encode())
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise UciError(_("{name} stopped answering (it quit or crashed)").format(name=self.name)) from None

    def _until(self, kind: type) -> object:
        deadline = self.clock() + self.timeout
        while True:
            line = self._line(deadline - self.clock(), deadline)
            if line is None:
                continue
            for event in self.proto.feed(line):
                if isinstance(event, kind):
                    return event

    def _line(self, wait: float, deadline: float) -> str | None:
        """The next line, or None if none came within ``wait`` seconds; past ``deadline`` (or
        when the engine has gone) a UciError."""
        while b"\n" not in self._buffer:
            if self.clock() > deadline:
                raise UciError(_("{name} did not answer within {timeout:.0f} s").format(
                                   name=self.name, timeout=self.timeout))
            fd = self.proc.stdout.fileno()
            ready, __, __ = select.select([fd], [], [], max(0.0, min(wait, deadline - self.clock())))
            if not ready:
                return None
            chunk = os.read(fd, 65536)
            if not chunk:
                raise UciError(_("{name} stopped answering (it quit or crashed)").format(name=self.name))
            self._buffer += chunk
        line, __, self._buffer = self._buffer.partition(b"\n")
        return line.decode("utf-8", "replace")


class StockfishPlayer:
    """A computer seat for FIDE chess played by Stockfish at a given Elo."""

    def __init__(self, rules, elo: int, *, path: str | None = None, seconds: float = MOVE_SECONDS,
                 engine: UciEngine | None = None):
        if rules.name != "chess":
            raise CompanionError(_("Stockfish plays FIDE chess only, not {name}; choose one of our own levels").format(
                                     name=rules.name))
        self.rules = rules
        self.elo = elo
        self.seconds = seconds
        self.name = f"stockfish:{elo}"
        if engine is None:
            found = find_stockfish(path)
            if found is None:
                raise StockfishMissing(missing_message(path))
            engine = UciEngine(found)
        self.engine = engine
        self._after = None  # (the position after its last move, the game's start FEN, the moves to it)
        try:
            opt = engine.proto.options.get("uci_elo")
            if opt is not None and opt.min is not None and opt.max is not None and not opt.min <= elo <= opt.max:
                raise CompanionError(_("stockfish:{elo}: this {name} plays from Elo {min} to {max}").format(
                                         elo=elo, name=engine.name, min=opt.min, max=opt.max))
            settings = {"Threads": 1, "Hash": 16, "UCI_LimitStrength": True, "UCI_Elo": elo}
            engine.configure({k: v for k, v in settings.items() if k.lower() in engine.proto.options})
            engine.new_game()
        except BaseException:
            engine.close()
            raise

    def choose(self, pos, *, now: Callable[[], float], budget: float | None, stop: Callable[[], bool] | None = None,
               max_nodes: int | None = None, on_progress: Callable[[SearchInfo], None] | None = None) -> SearchInfo:
        """Stockfish's move in ``pos`` (left unchanged): ``budget`` seconds, at most
        :attr:`seconds`; or ``max_nodes`` nodes."""
        start = now()
        rules = self.rules
        seconds = self.seconds if budget is None else min(budget, self.seconds)
        movetime = None if max_nodes is not None else max(1, int(seconds * 1000))

        def report(info: Info) -> None:
            if on_progress is not None:
                on_progress(SearchInfo(None, _score(info), info.depth or 0, info.nodes or 0, now() - start))

        fen, moves = self._game(pos)
        best, last = self.engine.think(fen, moves=moves, movetime_ms=movetime, nodes=max_nodes, stop=stop,
                                       on_info=report)
        move = rules.parse_move(pos, best.move) if best.move is not None else None
        if move is not None:
            after = pos.copy()
            rules.apply(after, move)
            self._after = (after, fen, moves + (best.move,))
        info = last or Info()
        return SearchInfo(move, _score(info), info.depth or 0, info.nodes or 0, now() - start,
                          (move,) if move is not None else ())

    def _game(self, pos) -> tuple[str, tuple[str, ...]]:
        """The game so far as UCI gives it (a start position and the moves since), so that
        Stockfish sees repetitions: the moves it played and the reply that led from its last
        move to ``pos`` (found among that position's legal moves); anything else (a new game, a
        takeback) starts again from ``pos``."""
        if self._after is not None:
            after, fen, moves = self._after
            if after.hash == pos.hash:
                return fen, moves
            for m in self.rules.legal_moves(after):
                self.rules.apply(after, m)
                same = after.hash == pos.hash and _placement(after) == _placement(pos)
                self.rules.undo(after)
                if same:
                    return fen, moves + (self.rules.move_text(after, m),)
        return self.rules.fen(pos), ()

    def trim(self) -> None:
        """Nothing to tidy between moves (the engine keeps its own tables)."""

    def close(self) -> None:
        self.engine.close()


def _placement(pos) -> tuple:
    return tuple((p.kid, p.owner) if p is not None else None for p in pos.board)


def _score(info: Info) -> float:
    """An info line's score as ours: centipawns from the side to move, a mate as MATE - plies."""
    if info.score_mate is not None:
        plies = 2 * abs(info.score_mate) - (1 if info.score_mate > 0 else 0)
        return MATE - plies if info.score_mate > 0 else -(MATE - plies)
    return float(info.score_cp or 0)


class StockfishAnalyser:
    """Stockfish at full strength as the review's analyser (companion.ai.analysis), FIDE chess."""

    def __init__(self, rules, path: str, *, hash_mb: int = 32):
        self.rules = rules
        self.engine = UciEngine(path)
        try:
            settings = {"Threads": 1, "Hash": hash_mb, "UCI_LimitStrength": False}
            self.engine.configure({k: v for k, v in settings.items() if k.lower() in self.engine.proto.options})
            self.engine.new_game()
        except BaseException:
            self.engine.close()
            raise
        self.name = self.engine.name

    def best(self, pos, *, now, budget, max_nodes, stop):
        movetime = None if max_nodes is not None else max(1, int((budget or 1.0) * 1000))
        best, info = self.engine.think(self.rules.fen(pos), movetime_ms=movetime, nodes=max_nodes, stop=stop)
        move = self.rules.parse_move(pos, best.move) if best.move is not None else None
        info = info or Info()
        return move, _score(info), info.depth or 0

    def score_of(self, pos, action, depth, *, now, budget, stop):
        movetime = max(1, int((budget or 1.0) * 1000))
        _, info = self.engine.think(self.rules.fen(pos), depth=max(1, depth), movetime_ms=movetime,
                                    searchmoves=(self.rules.move_text(pos, action),), stop=stop)
        return _score(info or Info())

    def close(self) -> None:
        self.engine.close()
