"""PGN text: a game record as a value, written in the PGN export format and read back.

:class:`PgnGame` is a finished or running game as a PGN file holds it: the tags (the seven-tag
roster first), the moves with their comments, and the result. It is an immutable value, so a
broadcast thread can format it while the game goes on. :func:`format_pgn` writes it (lines of
at most 80 characters, comments in braces, a move number after every comment as the export
format wants); :func:`parse_pgn` reads any number of games, skipping variations, NAGs and
``;`` comments, and fails with a RecordError naming the line.

Clock and move times are PGN commands inside comments, as DGT boards and Lichess write them:
``{[%clk 1:29:58] [%emt 0:00:05]}``. A draw offer is FIDE's ``(=)`` (written in a comment,
where parentheses do not start a variation). A Combat Chess fight is a sentence a reader can
follow plus its dice as a command our reader replays: ``[%dice 5/3 6/1]`` (each round's
attacker faces, ``/``, each defender's faces; several dice of one fighter joined by ``.``,
several defenders by ``,``).

What a game's moves are (SAN for chess games, coordinate text for Dungeon Chess) and how they
are replayed is companion.tournament.record's business; this module only reads and writes text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from ..errors import RecordError
from ..i18n import _

SEVEN_TAGS = ("Event", "Site", "Date", "Round", "White", "Black", "Result")
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
DRAW_OFFER = "(=)"
LINE = 80
_COMMAND = re.compile(r"\[%(\w+)\s+([^\]]*)\]")


@dataclass(frozen=True)
class PgnMove:
    """One half-move: its text in the movetext, the comment after it (words and commands), the
    clock after it (``clock_ms``, ``[%clk]``), the time it took (``emt_ms``), a draw offer made
    with it, and other commands (name, value) such as ``dice``."""

    text: str
    comment: str = ""
    clock_ms: int | None = None
    emt_ms: int | None = None
    draw_offer: bool = False
    commands: tuple[tuple[str, str], ...] = ()
    #: who made the move, for numbering the turns of more than two players (not read back)
    seat: int | None = None

    def command(self, name: str) -> str | None:
        return next((v for k, v in self.commands if k == name), None)


@dataclass(frozen=True)
class PgnGame:
    """A game: tags in order, the comment before the first move, the moves, the result."""

    tags: tuple[tuple[str, str], ...]
    moves: tuple[PgnMove, ...] = ()
    result: str = "*"
    intro: str = ""
    #: the first move's number and whether the first move is the second player's (a FEN start)
    first_number: int = 1
    first_is_black: bool = False
    #: players per round of move numbers (2; Dungeon Chess with more seats numbers its rounds)
    per_number: int = 2

    def tag(self, name: str, default: str | None = None) -> str | None:
        return next((v for k, v in self.tags if k == name), default)

    def with_tag(self, name: str, value: str) -> PgnGame:
        tags = [(k, v) for k, v in self.tags if k != name]
        return replace(self, tags=tuple(ordered_tags(dict(tags) | {name: value})))


def ordered_tags(tags: dict[str, str]) -> list[tuple[str, str]]:
    """The seven-tag roster first, in its order (missing ones as "?"), then the rest as given."""
    out = [(name, tags.get(name, "?" if name != "Result" else "*")) for name in SEVEN_TAGS]
    out += [(k, v) for k, v in tags.items() if k not in SEVEN_TAGS]
    return out


# ----- writing ---------------------------------------------------------------------------------------


def format_pgn(game: PgnGame) -> str:
    """The game in PGN export format, ending with a blank line."""
    lines = [f'[{name} "{_escape(value)}"]' for name, value in game.tags]
    words: list[str] = []
    if game.intro:
        words += _comment_words(game.intro)
    per = max(1, game.per_number)
    index = game.first_number * per - per + (1 if game.first_is_black else 0)  # position in the round
    need_number = True
    number, previous = 0, None
    for move in game.moves:
        if per > 2 and move.seat is not None:
            # more than two players: a new number when the turn comes round again (players
            # who are out are skipped, so rounds may be shorter)
            if previous is None or move.seat <= previous:
                number += 1
                words.append(f"{number}.")
            elif need_number:
                words.append(f"{number}...")
            previous = move.seat
        else:
            n, seat = divmod(index, per)
            if seat == 0:
                words.append(f"{n + 1}.")
            elif need_number:
                words.append(f"{n + 1}...")
        words.append(move.text)
        comment = move_comment(move)
        need_number = bool(comment)
        if comment:
            words += _comment_words(comment)
        index += 1
    words.append(game.result)
    lines.append("")
    lines += _wrap(words)
    return "\n".join(lines) + "\n\n"


def move_comment(move: PgnMove) -> str:
    """The comment written after ``move``: draw offer, words, then the commands."""
    from .clock import format_clk, format_emt

    parts = []
    if move.draw_offer:
        parts.append(DRAW_OFFER)
    if move.comment:
        parts.append(move.comment)
    for name, value in move.commands:
        parts.append(f"[%{name} {value}]")
    if move.clock_ms is not None:
        parts.append(f"[%clk {format_clk(move.clock_ms)}]")
    if move.emt_ms is not None:
        parts.append(f"[%emt {format_emt(move.emt_ms)}]")
    return " ".join(parts)


def _escape(value: str) -> str:
    return " ".join(str(value).split()).replace("\\", "\\\\").replace('"', '\\"')


def _comment_words(text: str) -> list[str]:
    text = " ".join(text.replace("{", "(").replace("}", ")").split())
    # keep each [%command value] together so that it is never broken across lines
    pieces = re.split(r"(\[%[^\]]*\])", text)
    words = []
    for piece in pieces:
        if piece.startswith("[%"):
            words.append(piece)
        else:
            words += piece.split()
    if not words:
        return []
    words[0] = "{" + words[0]
    words[-1] = words[-1] + "}"
    return words


def _wrap(words: list[str]) -> list[str]:
    lines, current = [], ""
    for w in words:
        if current and len(current) + 1 + len(w) > LINE:
            lines.append(current)
            current = w
        else:
            current = f"{current} {w}" if current else w
    if current:
        lines.append(current)
    return lines


# ----- reading ---------------------------------------------------------------------------------------

_TAG = re.compile(r'\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]')
_NUMBER = re.compile(r"(\d+)(\.*)")


def parse_pgn(text: str, source: str = "PGN") -> list[PgnGame]:
    """Every game in ``text``; RecordError names ``source`` and the line of a problem."""
    games: list[PgnGame] = []
    reader = _Reader(text, source)
    while True:
        game = reader.game()
        if game is None:
            return games
        games.append(game)


class _Reader:
    def __init__(self, text: str, source: str) -> None:
        if text.startswith("\ufeff"):
            text = text[1:]
        self.text, self.source = text, source
        self.i = 0

    def where(self, at: int | None = None) -> str:
        line = self.text.count("\n", 0, self.i if at is None else at) + 1
        return _("{source}, line {n}").format(source=self.source, n=line)

    def skip_space(self) -> None:
        t = self.text
        while self.i < len(t):
            c = t[self.i]
            if c.isspace():
                self.i += 1
            elif c == ";":
                end = t.find("\n", self.i)
                self.i = len(t) if end < 0 else end + 1
            elif c == "%" and (self.i == 0 or t[self.i - 1] == "\n"):
                end = t.find("\n", self.i)
                self.i = len(t) if end < 0 else end + 1
            else:
                return

    def game(self) -> PgnGame | None:
        self.skip_space()
        if self.i >= len(self.text):
            return None
        start = self.i
        tags: dict[str, str] = {}
        order: list[str] = []
        while self.i < len(self.text) and self.text[self.i] == "[":
            m = _TAG.match(self.text, self.i)
            if m is None:
                raise RecordError(_('{where}: a tag pair looks like [Event "name"]').format(where=self.where()))
            name, value = m.group(1), re.sub(r"\\(.)", r"\1", m.group(2))
            if name not in tags:
                order.append(name)
            tags[name] = value
            self.i = m.end()
            self.skip_space()
        moves: list[PgnMove] = []
        intro_parts: list[str] = []
        first_number, first_black, numbered = 1, False, False
        result = None
        pending_comment: list[str] = []

        def attach() -> None:
            if not pending_comment:
                return
            text = " ".join(pending_comment)
            pending_comment.clear()
            if moves:
                moves[-1] = _with_comment(moves[-1], text)
            else:
                intro_parts.append(text)

        while True:
            self.skip_space()
            if self.i >= len(self.text):
                break
            c = self.text[self.i]
            if c == "[":
                if moves or intro_parts or pending_comment:
                    break  # the next game's tags without a result: take this one as unfinished
                raise RecordError(_("{where}: a tag pair after the moves began").format(where=self.where()))
            if c == "{":
                end = self.text.find("}", self.i)
                if end < 0:
                    raise RecordError(_("{where}: a comment opened with {{ is never closed").format(where=self.where()))
                pending_comment.append(" ".join(self.text[self.i + 1:end].split()))
                self.i = end + 1
                continue
            if c == "(":
                self.skip_variation()
                continue
            if c == ")":
                raise RecordError(_("{where}: ')' without a variation opened before it").format(where=self.where()))
            if c == "}":
                raise RecordError(_("{where}: '}}' without a comment opened before it").format(where=self.where()))
            if c == "$":
                m = re.match(r"\$\d+", self.text[self.i:])
                if m is None:
                    raise RecordError(_("{where}: '$' must be followed by a number (a NAG)").format(where=self.where()))
                self.i += m.end()
                continue
            m = re.match(r"[^\s{}()\[\];$]+", self.text[self.i:])
            token = m.group(0)
            at = self.i
            self.i += len(token)
            if token in RESULTS:
                attach()
                result = token
                break
            number = _NUMBER.fullmatch(token)
            if number is not None and number.group(2):
                if not moves and not numbered:
                    first_number = int(number.group(1))
                    first_black = len(number.group(2)) >= 3
                numbered = True
                continue
            nm = re.match(r"(\d+)(\.+)(.+)", token)
            if nm is not None:  # "1.e4": a number glued to the move
                if not moves and not numbered:
                    first_number = int(nm.group(1))
                    first_black = len(nm.group(2)) >= 3
                numbered = True
                token = nm.group(3)
            token = token.rstrip("!?")
            if not token:
                continue
            attach()
            moves.append(PgnMove(token))
        attach()
        if not tags and not moves and result is None:
            raise RecordError(_('{where}: no game here (expected tags like [Event "..."] and moves)').format(where=self.where(start)))
        tag_result = tags.get("Result")
        final = result or tag_result or "*"
        if result is not None and tag_result is not None and tag_result != result and tag_result in RESULTS:
            raise RecordError(_("{where}: the game ends {result} but its Result tag says {tag_result}").format(where=self.where(), result=result, tag_result=tag_result))
        return PgnGame(tuple((k, tags[k]) for k in order), tuple(moves), final, " ".join(intro_parts),
                       first_number, first_black)

    def skip_variation(self) -> None:
        depth = 0
        start = self.i
        while self.i < len(self.text):
            c = self.text[self.i]
            if c == "{":
                end = self.text.find("}", self.i)
                if end < 0:
                    break
                self.i = end + 1
                continue
            if c == "(":
                depth += 1
            elif c == ")":
                depth -= 1
                if depth == 0:
                    self.i += 1
                    return
            self.i += 1
        raise RecordError(_("{where}: a variation opened with ( is never closed").format(where=self.where(start)))


def _with_comment(move: PgnMove, text: str) -> PgnMove:
    """Split a comment into its words, the draw offer and the commands (clk, emt, others)."""
    from .clock import parse_clk

    clock, emt = move.clock_ms, move.emt_ms
    commands = list(move.commands)
    offer = move.draw_offer
    for name, value in _COMMAND.findall(text):
        value = value.strip()
        if name in ("clk", "emt"):
            try:
                ms = parse_clk(value)
            except Exception:  # noqa: BLE001 - another program's malformed command: keep it as words
                commands.append((name, value))
                continue
            if name == "clk":
                clock = ms
            else:
                emt = ms
        else:
            commands.append((name, value))
    words = " ".join(_COMMAND.sub(" ", text).split())
    if words.startswith(DRAW_OFFER):
        offer = True
        words = words[len(DRAW_OFFER):].strip()
    comment = " ".join(filter(None, (move.comment, words)))
    return replace(move, comment=comment, clock_ms=clock, emt_ms=emt, draw_offer=offer, commands=tuple(commands))


__all__ = ["PgnGame", "PgnMove", "format_pgn", "parse_pgn", "ordered_tags", "move_comment", "SEVEN_TAGS",
           "RESULTS", "DRAW_OFFER", "field"]
