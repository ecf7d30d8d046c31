"""The Universal Chess Interface as a pure state machine (sans-I/O, like h11).

:class:`UciProtocol` writes the lines to send to an engine and reads the lines it sends back,
turning them into events; it never touches a process, a pipe or a clock. The adapter that
runs a real engine (companion/ai/stockfish.py) only moves text between a subprocess and this
object, and a test drives it with scripted lines (tests/test_ai_uci.py, in the spirit of
python-chess's ``MockTransport``).

The conversation::

    proto = UciProtocol()
    send(proto.start())                  # "uci"
    for line in engine: events = proto.feed(line)   # EngineOption..., UciOk
    send(proto.set_option("UCI_Elo", 1500))         # checked against what the engine declared
    send(proto.position(fen, moves))
    send(proto.go(movetime_ms=1000))
    ... Info events, then BestMove ...

Why our own client and not python-chess's engine module: the product then needs no
third-party package for this (python-chess stays the tests' peer, "never used by the
product"), the protocol part we need is small (a dozen line shapes), and being sans-I/O it is
tested line by line without an engine. docs/ai.md, "Stockfish".
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import CompanionError
from ..i18n import _


class UciError(CompanionError, ValueError):
    """The engine said something the protocol does not allow here, or a command is refused."""


@dataclass(frozen=True)
class EngineOption:
    name: str
    type: str                       # check, spin, combo, button, string
    default: str | None = None
    min: int | None = None
    max: int | None = None
    choices: tuple[str, ...] = ()


@dataclass(frozen=True)
class EngineNamed:
    name: str


@dataclass(frozen=True)
class UciOk:
    """The engine listed its options: it is ready for commands."""


@dataclass(frozen=True)
class ReadyOk:
    pass


@dataclass(frozen=True)
class Info:
    """One ``info`` line: what the engine reports while it thinks (fields it left out are None)."""

    depth: int | None = None
    seldepth: int | None = None
    multipv: int | None = None
    score_cp: int | None = None     # centipawns from the side to move
    score_mate: int | None = None   # moves to mate (negative: being mated)
    bound: str | None = None        # "lowerbound" / "upperbound" when the score is a bound
    nodes: int | None = None
    nps: int | None = None
    time_ms: int | None = None
    pv: tuple[str, ...] = ()
    string: str | None = None


@dataclass(frozen=True)
class BestMove:
    move: str | None                # None: "bestmove (none)" (no legal move)
    ponder: str | None = None


_INT_FIELDS = {"depth", "seldepth", "multipv", "nodes", "nps", "time", "hashfull", "tbhits", "currmovenumber", "cpuload"}


def parse_info(rest: str) -> Info:
    """The fields of an ``info`` line (after the word ``info``)."""
    words = rest.split()
    out: dict = {}
    i = 0
    while i < len(words):
        w = words[i]
        if w == "string":
            out["string"] = " ".join(words[i + 1:])
            break
        if w == "pv":
            out["pv"] = tuple(words[i + 1:])
            break
        if w == "score" and i + 2 < len(words) + 1:
            kind = words[i + 1] if i + 1 < len(words) else ""
            value = _int(words[i + 2]) if i + 2 < len(words) else None
            if kind == "cp":
                out["score_cp"] = value
            elif kind == "mate":
                out["score_mate"] = value
            i += 3
            if i < len(words) and words[i] in ("lowerbound", "upperbound"):
                out["bound"] = words[i]
                i += 1
            continue
        if w in _INT_FIELDS and i + 1 < len(words):
            value = _int(words[i + 1])
            if w == "time":
                out["time_ms"] = value
            elif w in ("depth", "seldepth", "multipv", "nodes", "nps"):
                out[w] = value
            i += 2
            continue
        i += 1  # a field we do not use (currmove, wdl, ...), or its value
    return Info(**out)


def _int(text: str) -> int | None:
    try:
        return int(text)
    except ValueError:
        return None


def parse_option(rest: str) -> EngineOption:
    """An ``option name <name> type <t> [default <d>] [min <m>] [max <M>] [var <v>]...`` line
    (after the word ``option``); a name may hold spaces."""
    words = rest.split()
    keys = ("type", "default", "min", "max", "var")
    if not words or words[0] != "name" or "type" not in words:
        raise UciError(_("engine option line without a name and type: {rest!r}").format(rest=rest))
    t = words.index("type")
    name = " ".join(words[1:t])
    fields: dict = {}
    choices: list[str] = []
    i = t
    while i < len(words):
        key = words[i]
        j = i + 1
        while j < len(words) and words[j] not in keys:
            j += 1
        value = " ".join(words[i + 1:j])
        if key == "var":
            choices.append(value)
        else:
            fields[key] = value
        i = j
    default = fields.get("default")
    return EngineOption(name, fields.get("type", ""), default if default not in (None, "<empty>") else None,
                        _int(fields["min"]) if "min" in fields else None,
                        _int(fields["max"]) if "max" in fields else None, tuple(choices))


@dataclass
class UciProtocol:
    """One engine's side of the conversation, as the GUI sees it.

    States: ``new`` (nothing sent), ``handshake`` (``uci`` sent, waiting for ``uciok``),
    ``idle`` (ready for commands), ``thinking`` (after ``go``, until ``bestmove``).
    """

    state: str = "new"
    name: str | None = None
    options: dict[str, EngineOption] = field(default_factory=dict)
    _ready_pending: int = 0

    # ----- commands (each returns the lines to send) -----------------------------------------------
    def start(self) -> list[str]:
        if self.state != "new":
            raise UciError(_("the UCI handshake was already started"))
        self.state = "handshake"
        return ["uci"]

    def set_option(self, name: str, value: object) -> list[str]:
        """``setoption``; the name must be one the engine declared and a number within its range."""
        self._need("idle", f"setoption {name}")
        opt = self.options.get(name.lower())
        if opt is None:
            raise UciError((_("the engine {engine} has no option {name!r}") if self.name else
                            _("the engine has no option {name!r}")).format(engine=self.name, name=name))
        if opt.type == "check":
            if not isinstance(value, bool):
                raise UciError(_("option {name} is true or false, not {value!r}").format(name=opt.name, value=value))
            text = "true" if value else "false"
        elif opt.type == "spin":
            if isinstance(value, bool) or not isinstance(value, int):
                raise UciError(_("option {name} is a whole number, not {value!r}").format(name=opt.name, value=value))
            if (opt.min is not None and value < opt.min) or (opt.max is not None and value > opt.max):
                raise UciError(_("option {name} must be from {min} to {max}, not {value}").format(
                                   name=opt.name, min=opt.min, max=opt.max, value=value))
            text = str(value)
        elif opt.type == "combo":
            if str(value) not in opt.choices:
                raise UciError(_("option {name} is one of {choices}, not {value!r}").format(
                                   name=opt.name, choices=', '.join(opt.choices), value=value))
            text = str(value)
        elif opt.type == "button":
            return [f"setoption name {opt.name}"]
        else:
            text = str(value)
            if "\n" in text:
                raise UciError(_("option {name}: a value holds no line break").format(name=opt.name))
        return [f"setoption name {opt.name} value {text}"]

    def is_ready(self) -> list[str]:
        if self.state not in ("idle", "thinking"):
            raise UciError(_("isready before the handshake ended (state {state})").format(state=self.state))
        self._ready_pending += 1
        return ["isready"]

    def new_game(self) -> list[str]:
        self._need("idle", "ucinewgame")
        return ["ucinewgame"]

    def position(self, fen: str, moves: tuple[str, ...] | list[str] = ()) -> list[str]:
        self._need("idle", "position")
        if "\n" in fen or any(" " in m or "\n" in m for m in moves):
            raise UciError(_("a position is one line"))
        tail = f" moves {' '.join(moves)}" if moves else ""
        return [f"position fen {fen}{tail}"]

    def go(self, *, movetime_ms: int | None = None, nodes: int | None = None, depth: int | None = None,
           searchmoves: tuple[str, ...] | list[str] = ()) -> list[str]:
        """``go`` with a move time, a node limit or a depth (at least one: an engine told only
        ``go`` thinks until stopped); ``searchmoves``: only these root moves."""
        self._need("idle", "go")
        parts = []
        for word, value in (("movetime", movetime_ms), ("nodes", nodes), ("depth", depth)):
            if value is not None:
                if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                    raise UciError(_("go {word} must be a whole number from 1, not {value!r}").format(
                                       word=word, value=value))
                parts.append(f"{word} {value}")
        if not parts:
            raise UciError(_("go needs a limit: movetime, nodes or depth"))
        if searchmoves:
            if any(not m or " " in m or "\n" in m for m in searchmoves):
                raise UciError(_("searchmoves are moves in coordinate notation (e2e4)"))
            parts.append("searchmoves " + " ".join(searchmoves))
        self.state = "thinking"
        return ["go " + " ".join(parts)]

    def stop(self) -> list[str]:
        """``stop``: the engine answers with its best move so far (nothing to send when idle)."""
        return ["stop"] if self.state == "thinking" else []

    def quit(self) -> list[str]:
        self.state = "closed"
        return ["quit"]

    def _need(self, state: str, what: str) -> None:
        if self.state != state:
            raise UciError(_("{what} is not allowed while the engine is {state}").format(what=what, state=self.state))

    # ----- what the engine says ---------------------------------------------------------------
    def feed(self, line: str) -> list[object]:
        """One line from the engine; returns the events it carries (often none)."""
        text = line.strip()
        if not text:
            return []
        word, __, rest = text.partition(" ")
        if word == "id":
            key, __, value = rest.partition(" ")
            if key == "name":
                self.name = value.strip()
                return [EngineNamed(self.name)]
            return []
        if word == "option":
            if self.state != "handshake":
                return []
            opt = parse_option(rest)
            self.options[opt.name.lower()] = opt
            return [opt]
        if word == "uciok":
            if self.state != "handshake":
                raise UciError(_("the engine said uciok outside the handshake"))
            self.state = "idle"
            return [UciOk()]
        if word == "readyok":
            if self._ready_pending <= 0:
                raise UciError(_("the engine said readyok without isready"))
            self._ready_pending -= 1
            return [ReadyOk()]
        if word == "info":
            return [parse_info(rest)] if self.state == "thinking" else []
        if word == "bestmove":
            if self.state != "thinking":
                raise UciError(_("the engine sent a best move while {state}: {text!r}").format(
                                   state=self.state, text=text))
            self.state = "idle"
            words = rest.split()
            move = words[0] if words and words[0] not in ("(none)", "0000") else None
            ponder = words[2] if len(words) >= 3 and words[1] == "ponder" else None
            return [BestMove(move, ponder)]
        return []  # anything else (copyright lines, "Stockfish 15.1 by ...", unknown words)
