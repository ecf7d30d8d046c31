"""Load / Save: a whole game as text, for every game, by one mechanism (docs/game-text.md).

The KoL Chess page's one operational feature, given to every game: the game as text that a
person can copy, show as a QR code, keep in a file or on a USB stick, type back in, and edit to
correct a position. The text is the session's set-up and its history (companion.session: the
journal's actions, with undone turns left out), so it carries whatever a game records: moves,
answers to a game's questions (a back-row trade, a Salamander's step), dice (each round's faces
and where they came from), arbiter corrections, and any action a future feature journals (as a
JSON line). Nothing here knows a game: the rules write and read moves and positions.

    companion game 1
    game: combat
    player 1: Alice
    player 2: Computer (computer, level 3)
    dice: seeded 5f0c...
    id: 20260101-1200

    1. e2e4 e7e5 2. d2d4 e5d4 roll:6/2
    position: rnbqkbnr/pppp1ppp/8/8/3p4/8/PPP2PPP/RNBQKBNR w KQkq - 0 3
    result: unfinished

A game at a table (companion.tournament.table) that is not the default casual one has the
table's set-up as the first JSON line (the event, round, board, ratings, date for its record);
with a clock or in tournament mode its body is every entry of the table, clock presses and
takebacks included (the time spent on a move taken back stays spent), so its text loads back
with its clocks.

Pure functions: :func:`format_game` (a session or a table -> text), :func:`parse_game` (text ->
set-up and actions, checking only the form), :func:`load_table` and :func:`load_game` (text ->
a new table or session, every action played through the rules and the table). Bad text raises one RecordError that names the line and what is wrong, and
nothing is changed: the caller keeps its game until a new one loads. The ``position:`` line is
written for the reader and is the arbiter's handle: loaded text whose position line differs
from the position the moves lead to continues from the written position (a correction).
"""

from __future__ import annotations

import json
import re
import zlib
from dataclasses import dataclass

from .bounds import load_json
from .errors import CompanionError, RecordError
from .i18n import N_, _
from .session import (
    Action, AnswerDraw, GameSetup, OfferDraw, PlayAnswer, PlayMove, PlayPart, Resign, Roll, Seat, Session, SetPosition,
    SOURCE_OF_MODE, action_from_json, action_to_json, level_from_key, level_key,
)
from .tournament.table import Table, TableSetup

#: journal entry types that are session actions (the rest, a later feature's, are kept whole)
_SESSION_TYPES = frozenset({"move", "answer", "roll", "undo", "resign", "offer-draw", "answer-draw", "adjudicate",
                            "part", "position"})

MAGIC = "companion game"
VERSION = 1
#: bounds: a text longer than this is not a game (a 1,000-move Dungeon game is about 15 KB)
MAX_CHARS = 400_000
MAX_LINE = 4_000
MAX_ACTIONS = 20_000

_HEADER = ("game", "map", "dice", "d6 only", "id", "start", "check")
#: the table's set-up (companion.tournament.table.TableSetup) as header lines: key -> field
_TABLE_KEYS = {"mode": "mode", "time control": "time_control", "clock presses itself": "auto_press",
               "last move shown": "last_move", "event": "event", "site": "site", "date": "date", "round": "round",
               "board": "board", "pairing file": "source"}
_YES_NO = {"yes": True, "no": False}
#: digits are ASCII digits only: "²" or "٣" are not numbers here (int() refuses the first)
_PLAYER = re.compile(r"^player ([0-9]{1,2})$")
_PLAYER_TABLE = re.compile(r"^player ([0-9]{1,2}) (rating|id)$")
#: a computer seat: "(computer, level 3)", or Stockfish's "(computer, stockfish:1800)"
_COMPUTER = re.compile(r"^(.*\S) \(computer, (level [0-9]{1,5}|stockfish:[0-9]{1,4})\)$")
_NUMBER = re.compile(r"^[0-9]{1,5}\.$")
_FACES = re.compile(r"^[0-9]{1,3}(,[0-9]{1,3}){0,7}$")
_SOURCE_WORDS = {"system": "system", "seeded": "seeded", "entered": "entered"}
#: characters a game text never holds: control characters (a tab aside) and lone surrogates
#: (half of a character: a text with one cannot be written to a file)
_NOT_TEXT = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\ud800-\udfff]")
#: a game's id names its file (``<id>.txt``): this many bytes at most
MAX_ID_BYTES = 120
#: what Load says of a text that has no check line (one written by hand, or before 2026)
UNCHECKED = N_("This text has no check line, so damage to it cannot be seen: make sure the moves are the game you "
               "meant.")
#: what Load says when such a text's last position line is not where its moves lead
CORRECTED = N_("Its last position line is not where the moves lead: the game goes on from the written position.")


@dataclass(frozen=True)
class GameText:
    """A parsed game text: the set-up and the actions with the line each came from."""

    setup: GameSetup
    #: (line, action): a session action, or a later feature's journal entry kept whole (a dict)
    actions: tuple[tuple[int, Action | dict], ...]
    result: str | None = None  # the result line as written (checked by load_game)
    result_line: int = 0
    #: the table's set-up given as header lines (None: none given), and the first such line
    table: TableSetup | None = None
    table_line: int = 0
    #: the text carries a check line that matched (False: it has none)
    checked: bool = False


@dataclass(frozen=True)
class LoadedText:
    """A game loaded from its text, with what the players should know about the text (that it
    could not be checked; that its last position line was taken as a correction)."""

    table: Table
    warnings: tuple[str, ...] = ()


# ----------------------------------------------------------------------------------- writing

def format_game(game: Session | Table, t_ms: int | None = None) -> str:
    """The game as text: the set-up, every action still on the board, the position now and
    the result. ``game`` is a session, or a table (a game with a clock: its entries; with
    ``t_ms``, a clock that runs is written stopped at that moment, so the text loads back with
    the time each side had then)."""
    table = game if isinstance(game, Table) else None
    session = table.session if table is not None else game
    setup = session.setup
    out = [f"{MAGIC} {VERSION}", f"game: {setup.game}"]
    if setup.board_map:
        out.append(f"map: {setup.board_map}")
    for i, seat in enumerate(setup.seats, start=1):
        key = level_key(seat.level)
        # a word as its English: read back as the app's word (Seat.read), like an old journal's
        name = (f"{seat.recorded} (computer, {key if isinstance(key, str) else f'level {key}'})" if seat.computer
                else seat.recorded)
        out.append(f"player {i}: {name}")
    if setup.has_dice:
        out.append(f"dice: {setup.dice}" + (f" {setup.seed}" if setup.seed else ""))
        if setup.d6_only:
            out.append("d6 only: yes")
    out.append(f"id: {setup.game_id}")
    if setup.start:
        out.append(f"start: {setup.start}")
    head: list[tuple[dict, int]] = []
    if table is not None and not table.is_default:
        lines = _table_lines(table.setup)
        if lines is None:  # a value the lines cannot carry exactly: the table as one JSON line
            head = [(table.setup.to_json(), -1)]
        else:
            out += lines
    extra = {k: v for k, v in setup.to_json().items()
             if k not in ("game", "seats", "dice", "d6_only", "game_id", "seed", "start", "board_map")}
    for key, value in sorted(extra.items()):  # set-up fields added later (a time control ...)
        out.append(f"setup {key}: {json.dumps(value, separators=(',', ':'))}")
    out.append("")
    if table is not None and table.is_timed:
        out += _lines(session, head + table.entries + _stopped_clock(table, t_ms))
    else:
        players = iter(m.player for m in session.moves)  # one per move or correction, in order
        out += _lines(session, head + [(e, next(players) if e.get("type") in ("move", "position") else -1)
                                       for e in session.history])
    out.append(f"position: {session.rules.position_text(session.pos)}")
    out.append(f"result: {describe_result(session)}")
    out.insert(1, f"check: {text_check(out)}")
    return "\n".join(out) + "\n"


def text_check(lines: list[str]) -> str:
    """The check line's value: CRC-32 of the text's lines as Load reads them (each stripped;
    blank lines, comment lines and the check line left out), 8 hex digits. A changed letter, a
    lost line or a text cut off changes it; line ends, spaces around a line and blank lines
    (a text saved by another editor) do not."""
    kept = [line.strip() for line in lines]
    kept = [line for line in kept if line and not line.startswith("#") and not _is_check_line(line)]
    return f"{zlib.crc32(chr(10).join(kept).encode('utf-8', 'surrogatepass')):08x}"


def _is_check_line(line: str) -> bool:
    key, colon, _ = line.partition(":")
    return bool(colon) and key.strip().lower() == "check"


def _table_lines(t: TableSetup) -> list[str] | None:
    """The table's set-up as header lines, what is at its default left out; None if a value
    would not read back exactly from a line (spaces around it, a line break)."""
    default = TableSetup()
    out = []
    if t.mode != default.mode:
        out.append(f"mode: {t.mode}")
    if t.time_control is not None:
        out.append(f"time control: {t.time_control}")
    if t.auto_press != default.auto_press:
        out.append(f"clock presses itself: {'yes' if t.auto_press else 'no'}")
    if t.last_move != default.last_move:
        out.append(f"last move shown: {'yes' if t.last_move else 'no'}")
    texts = [(key, getattr(t, field)) for key, field in _TABLE_KEYS.items() if field in
             ("event", "site", "date", "round", "board", "source")]
    texts += [(f"player {i} rating", "unrated" if r is None else str(r)) for i, r in enumerate(t.ratings, start=1)]
    texts += [(f"player {i} id", x) for i, x in enumerate(t.ids, start=1)]
    for key, value in texts:
        if value != value.strip() or "\n" in value or "\r" in value:
            return None
        if value or key.startswith("player "):
            out.append(f"{key}: {value}".rstrip())
    if any(len(line) > MAX_LINE for line in out):
        return None
    return out


def describe_result(session: Session) -> str:
    r = session.result
    if r is None:
        return "unfinished"
    if not r.winners:
        return f"draw ({r.reason})"
    return f"{' and '.join(f'player {p + 1}' for p in sorted(r.winners))} won ({r.reason})"


def _stopped_clock(table: Table, t_ms: int | None) -> list[tuple[dict, int]]:
    """A clock that runs at ``t_ms``, stopped there (for the text only: the game goes on)."""
    c = table.clock
    if t_ms is None or c is None or not c.counting or table.is_over:
        return []
    return [({"type": "pause", "why": "text", "spent": c.elapsed(t_ms)}, table.session.turn)]


def _lines(session: Session, entries: list[tuple[dict, int]]) -> list[str]:
    """Journal entries (each with the player to move before it) as the text's lines, numbered
    like a chess score: ``N.`` before each move of the first player (``N...`` when a line
    starts with another player's move), a move's answers and rolls after it; corrections and
    entries of later features (a clock's presses, a takeback) on lines of their own."""
    default_source = SOURCE_OF_MODE.get(session.setup.dice, "system")
    lines: list[str] = []
    row: list[str] = []
    number = 0

    def flush() -> None:
        if row:
            lines.append(" ".join(row))
            row.clear()

    sealed = len(session.sealed_players)
    if sealed:  # a sealed bid of a duel not yet revealed stays out of the text (the last parts)
        parts = [i for i, (e, _) in enumerate(entries) if e.get("type") == "part"]
        hidden = set(parts[-sealed:])
        entries = [pair for i, pair in enumerate(entries) if i not in hidden]
    for entry, player in entries:
        kind = entry.get("type")
        if kind == "move":
            if player == 0:
                number += 1
                if sum(len(t) + 1 for t in row) > 64:
                    flush()
                row.append(f"{number}.")
            elif not row:
                row.append(f"{max(number, 1)}...")
            row.append(entry["move"])
        elif kind == "answer":
            row.append("=" + entry["answer"])
        elif kind == "part":
            row.append(f"part:{entry['player'] + 1}:{entry['part']}")
        elif kind == "roll" and "link" not in entry:  # a linked roll carries its secrets: a line of its own
            faces = "/".join(",".join(str(f) for f in side) for side in [entry["attacker"], *entry["defenders"]])
            src = "" if entry["source"] == default_source else f"@{entry['source']}"
            row.append(f"roll:{faces}{src}")
        elif kind == "resign":
            row.append(f"resign:{entry['player'] + 1}")
        elif kind == "offer-draw":
            row.append(f"draw-offer:{entry['player'] + 1}")
        elif kind == "answer-draw":
            row.append("draw:accept" if entry["accept"] else "draw:decline")
        elif kind == "position":
            flush()
            lines.append(f"position: {entry['position']}")
        else:  # an action of a later feature: kept whole
            flush()
            lines.append(json.dumps(entry, separators=(",", ":"), sort_keys=True))
    flush()
    return lines


# ----------------------------------------------------------------------------------- reading

def parse_game(text: str) -> GameText:
    """The set-up and actions of a game text, checked for form only (the rules check the moves
    in :func:`load_game`). RecordError names the line."""
    if not isinstance(text, str):
        raise RecordError(_("a game text must be text"))
    if len(text) > MAX_CHARS:
        raise RecordError(_("this text is {n:,} characters long; a game text is at most {max_chars:,}").format(
                              n=len(text), max_chars=MAX_CHARS))
    text = text.removeprefix("\ufeff")  # the byte order mark Notepad writes in "UTF-8 with BOM"
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    numbered = [(i, line.strip()) for i, line in enumerate(lines, start=1)]
    numbered = [(i, line) for i, line in numbered if line and not line.startswith("#")]
    for no, line in numbered:
        bad = _NOT_TEXT.search(line)
        if bad:
            raise RecordError(_("line {no}: {character} at column {start} is not part of a game text (the text is "
                                "damaged or not a game text)").format(
                                  no=no, character=_character(bad.group()), start=bad.start() + 1))
    if not numbered:
        raise RecordError(_("the text is empty; a game text starts with the line 'companion game 1'"))
    first_no, first = numbered[0]
    if not first.lower().startswith(MAGIC):
        raise RecordError(_("line {first_no}: expected 'companion game 1' (the first line of a game text), found "
                            "{show}").format(first_no=first_no, show=_show(first)))
    version = first[len(MAGIC):].strip()
    if version != str(VERSION):
        raise RecordError(_("line {first_no}: game text version {show} is not known; this companion reads version "
                            "{version}").format(first_no=first_no, show=_show(version), version=VERSION))
    fields: dict[str, tuple[int, str]] = {}
    seats: dict[int, tuple[int, str]] = {}
    extra: dict[str, tuple[int, str]] = {}
    body_at = len(numbered)
    for k, (no, line) in enumerate(numbered[1:], start=1):
        if len(line) > MAX_LINE:
            raise RecordError(_("line {no}: {n:,} characters; a line is at most {max_line:,}").format(
                                  no=no, n=len(line), max_line=MAX_LINE))
        key, colon, value = line.partition(":")
        key = key.strip().lower()
        if not colon or not (key in _HEADER or key in _TABLE_KEYS or _PLAYER.match(key) or _PLAYER_TABLE.match(key)
                             or key.startswith("setup ")):
            body_at = k
            break
        value = value.strip()
        m = _PLAYER.match(key)
        if m:
            if int(m.group(1)) in seats:
                raise RecordError(_("line {no}: '{key}' is given twice (first on line {first})").format(
                                      no=no, key=key, first=seats[int(m.group(1))][0]))
            seats[int(m.group(1))] = (no, value)
        elif key.startswith("setup "):
            extra[key[6:].strip()] = (no, value)
        elif key in fields:
            raise RecordError(_("line {no}: '{key}' is given twice (first on line {first})").format(
                                  no=no, key=key, first=fields[key][0]))
        else:
            fields[key] = (no, value)
    checked = False
    if "check" in fields:
        no, value = fields["check"]
        have = text_check([line for __, line in numbered])
        if value.lower() != have:
            raise RecordError(_("line {no}: the text does not match its check line (check {show}, the text gives "
                                "{have}): it was damaged or changed since it was saved (a letter changed, a line "
                                "lost, the end cut off); if you changed it on purpose, delete the check line and "
                                "load it").format(no=no, show=_show(value), have=have))
        checked = True
    setup = _setup(fields, seats, extra, first_no)
    table, table_line = _table_setup(fields, len(setup.seats))
    actions: list[tuple[int, Action]] = []
    result = None
    result_line = 0
    body = numbered[body_at:]
    for no, line in body:
        if len(line) > MAX_LINE:
            raise RecordError(_("line {no}: {n:,} characters; a line is at most {max_line:,}").format(
                                  no=no, n=len(line), max_line=MAX_LINE))
        if result is not None:
            raise RecordError(_("line {no}: {show} after the result line; the result comes last").format(
                                  no=no, show=_show(line)))
        low = line.lower()
        if low.startswith("position:"):
            actions.append((no, SetPosition(line[len("position:"):].strip())))
        elif low.startswith("result:"):
            result, result_line = line[len("result:"):].strip(), no
        elif line.startswith("{"):
            actions.append((no, _json_action(line, no)))
        else:
            for token in line.split():
                actions.extend((no, a) for a in _token(token, no, setup))
        if len(actions) > MAX_ACTIONS:
            raise RecordError(_("line {no}: more than {max_actions:,} actions; this is not a game text").format(
                                  no=no, max_actions=MAX_ACTIONS))
    return GameText(setup, tuple(actions), result, result_line, table, table_line, checked)


def _character(c: str) -> str:
    if "\ud800" <= c <= "\udfff":
        return _("the character U+{code:04X} (half of a character)").format(code=ord(c))
    return _("the character U+{code:04X} (a control character)").format(code=ord(c))


def _table_setup(fields: dict, seats: int) -> tuple[TableSetup | None, int]:
    """The table's set-up from its header lines (None if the text gives none)."""
    keys = [k for k in fields if k in _TABLE_KEYS or _PLAYER_TABLE.match(k)]
    if not keys:
        return None, 0
    first = min(fields[k][0] for k in keys)
    values: dict = {}
    for key in keys:
        no, value = fields[key]
        name = _TABLE_KEYS.get(key)
        if name in ("auto_press", "last_move"):
            if value not in _YES_NO:
                raise RecordError(_("line {no}: {key}: expected yes or no, found {show}").format(
                                      no=no, key=key, show=_show(value)))
            values[name] = _YES_NO[value]
        elif name is not None:
            values[name] = value
            try:  # the mode and the time control are named at their own line
                if name == "mode":
                    TableSetup(mode=value, time_control=None if value == "casual" else "60")
                elif name == "time_control":
                    TableSetup(time_control=value)
            except CompanionError as e:
                raise RecordError(_("line {no}: {key}: {e}").format(no=no, key=key, e=e)) from None
    for kind in ("rating", "id"):
        given = {int(_PLAYER_TABLE.match(k).group(1)): fields[k] for k in keys
                 if _PLAYER_TABLE.match(k) and k.endswith(kind)}
        if not given:
            continue
        if sorted(given) != list(range(1, len(given) + 1)) or len(given) > seats:
            no = max(no for no, __ in given.values())
            given_for = (_("line {no}: player ratings are given for players 1 to {seats}, one line each")
                         if kind == "rating" else
                         _("line {no}: player ids are given for players 1 to {seats}, one line each"))
            raise RecordError(given_for.format(no=no, seats=seats))
        items = []
        for n in sorted(given):
            no, value = given[n]
            if kind == "id":
                items.append(value)
            elif value == "unrated":
                items.append(None)
            elif re.fullmatch(r"[0-9]{1,4}", value):
                items.append(int(value))
            else:
                raise RecordError(_("line {no}: player {n} rating: expected a rating (0 to 4000) or unrated, found "
                                    "{show}").format(no=no, n=n, show=_show(value)))
        values["ratings" if kind == "rating" else "ids"] = tuple(items)
    try:
        return TableSetup(**values), first
    except CompanionError as e:
        raise RecordError(_("line {first}: {e}").format(first=first, e=e)) from None


def _setup(fields: dict, seats: dict, extra: dict, first_no: int) -> GameSetup:
    if "game" not in fields:
        raise RecordError(_("line {first_no}: expected 'game: <name>' (chess, combat, dungeon, kol ...)").format(
                              first_no=first_no + 1))
    game_no, game = fields["game"]
    if not seats:
        raise RecordError(_("line {game_no}: expected the players, one line each: 'player 1: <name>'").format(
                              game_no=game_no + 1))
    numbers = sorted(seats)
    if numbers != list(range(1, len(numbers) + 1)):
        missing = next(n for n in range(1, len(numbers) + 2) if n not in seats)
        raise RecordError(_("line {line}: player {missing} is missing; players are numbered 1, 2, ... in the order "
                            "they move").format(line=max(no for no, __ in seats.values()), missing=missing))
    seat_list = []
    for n in numbers:
        no, value = seats[n]
        m = _COMPUTER.match(value)
        try:
            if m is None:
                seat_list.append(Seat.read(value))
            else:
                key = m.group(2)
                level = int(key[6:]) if key.startswith("level ") else level_from_key(key, "the computer")
                seat_list.append(Seat.read(m.group(1), True, level))
        except CompanionError as e:
            raise RecordError(_("line {no}: player {n}: {e}").format(no=no, n=n, e=e)) from None
    dice, seed = "virtual", None
    if "dice" in fields:
        no, value = fields["dice"]
        words = value.split()
        if not words or words[0] not in ("virtual", "seeded", "entered", "linked") or len(words) > 2 or \
                (len(words) == 2) != (words[0] == "seeded"):
            raise RecordError(_("line {no}: dice: expected 'virtual', 'entered', 'seeded <seed in hex>' or "
                                "'linked' (two linked boards), found {show}").format(no=no, show=_show(value)))
        dice, seed = words[0], (words[1] if len(words) == 2 else None)
    d6_only = False
    if "d6 only" in fields:
        no, value = fields["d6 only"]
        if value not in ("yes", "no"):
            raise RecordError(_("line {no}: d6 only: expected yes or no, found {show}").format(
                                  no=no, show=_show(value)))
        d6_only = value == "yes"
    if "id" in fields and len(fields["id"][1].encode("utf-8")) > MAX_ID_BYTES:
        raise RecordError(_("line {line}: the id is {n} bytes long; an id names the game's file and has at most "
                            "{max_id_bytes}").format(
                              line=fields['id'][0], n=len(fields['id'][1].encode('utf-8')),
                              max_id_bytes=MAX_ID_BYTES))
    # each seat as read (Seat.read): a word kept as its English, whatever language reads the text
    data = {"game": game, "seats": [{"name": s.recorded, "computer": s.computer, "level": s.level, "word": s.word}
                                    for s in seat_list],
            "dice": dice, "d6_only": d6_only, "game_id": fields.get("id", (0, "game"))[1] or "game",
            "seed": seed, "start": fields["start"][1] if "start" in fields else None,
            "board_map": fields["map"][1] if "map" in fields else None}
    for key, (no, value) in extra.items():
        data[key] = load_json(value, _("line {no}: setup {key}").format(no=no, key=key), RecordError)
        _check_strings(data[key], no)
    try:
        return GameSetup.from_json(data, "set-up")
    except RecordError as e:
        where = {"game": game_no, "dice": fields.get("dice", (game_no,))[0]}
        line = next((no for key, no in where.items() if key in str(e)), game_no)
        raise RecordError(_("line {line}: {problem}").format(
                              line=line, problem=str(e).removeprefix('set-up: '))) from None


def _token(token: str, no: int, setup: GameSetup) -> list[Action]:
    if _NUMBER.match(token) or re.match(r"^\d{1,5}\.\.\.$", token):
        return []
    if token.startswith("="):
        if len(token) == 1:
            raise RecordError(_("line {no}: '=' must be followed by an answer, e.g. =keep or =NS").format(no=no))
        return [PlayAnswer(token[1:])]
    word, colon, value = token.partition(":")
    if colon and word == "roll":
        return [_roll(value, no, setup)]
    if colon and word == "part":
        player, colon2, part = value.partition(":")
        if not colon2 or not part or not re.match(r"^[A-Za-z0-9-]{1,12}$", part):
            raise RecordError(_("line {no}: {show}: expected part:<player>:<their part>, e.g. part:1:2 (player 1 "
                                "bid 2 stones)").format(no=no, show=_show(token)))
        return [PlayPart(_player(player, no, token), part)]
    if colon and word == "resign":
        return [Resign(_player(value, no, token))]
    if colon and word == "draw-offer":
        return [OfferDraw(_player(value, no, token))]
    if colon and word == "draw":
        if value not in ("accept", "decline"):
            raise RecordError(_("line {no}: {show}: expected draw:accept or draw:decline").format(
                                  no=no, show=_show(token)))
        return [AnswerDraw(value == "accept")]
    if not re.match(r"^[A-Za-z0-9+#=-]{1,20}$", token):
        raise RecordError(_("line {no}: {show} is not a move (coordinate notation like e2e4), an answer (=keep), a "
                            "roll (roll:6/3) or a move number (12.)").format(no=no, show=_show(token)))
    return [PlayMove(token)]


def _player(value: str, no: int, token: str) -> int:
    if value not in ("1", "2", "3", "4"):
        raise RecordError(_("line {no}: {show}: expected a player number 1 to 4").format(no=no, show=_show(token)))
    return int(value) - 1


def _roll(value: str, no: int, setup: GameSetup) -> Roll:
    faces, at, source = value.partition("@")
    source = _SOURCE_WORDS.get(source) if at else SOURCE_OF_MODE.get(setup.dice, "system")
    sides = faces.split("/")
    if source is None or len(sides) < 2 or len(sides) > 8 or not all(_FACES.match(s) for s in sides):
        raise RecordError(_("line {no}: roll:{show}: expected roll:<attacker's dice>/<defender's dice>, e.g. "
                            "roll:6/3 or roll:5/2/4 (faces separated by commas, @entered for real dice)").format(
                              no=no, show=_show(value)))
    dice = [tuple(int(f) for f in s.split(",")) for s in sides]
    return Roll(dice[0], tuple(dice[1:]), source)


def _json_action(line: str, no: int) -> Action | dict:
    """A JSON line: a session action, or a later feature's entry (an object with a type), kept
    whole for whoever replays it (the table: a clock's press) to check."""
    value = load_json(line, _("line {no}").format(no=no), RecordError)
    _check_strings(value, no)
    if isinstance(value, dict) and isinstance(value.get("type"), str) and value["type"] not in _SESSION_TYPES:
        return value
    return action_from_json(value, _("line {no}").format(no=no))


def _check_strings(value, no: int) -> None:
    """JSON may spell what the text itself may not hold (``\\u0000``, ``\\ud800``): refused too."""
    if isinstance(value, str):
        bad = _NOT_TEXT.search(value)
        if bad:
            raise RecordError(_("line {no}: {character} in a JSON value is not part of a game text").format(
                                  no=no, character=_character(bad.group())))
    elif isinstance(value, list):
        for item in value:
            _check_strings(item, no)
    elif isinstance(value, dict):
        for key, item in value.items():
            _check_strings(key, no)
            _check_strings(item, no)


def _show(text: str) -> str:
    return repr(text if len(text) <= 40 else text[:37] + "...")


# ----------------------------------------------------------------------------------- loading

def load_game(text: str, *, source=None) -> Session:
    """A new session with the game the text describes (see :func:`load_table`)."""
    return load_table(text, source=source).session


def load_table(text: str, *, source=None) -> Table:
    """A new game at its table (see :func:`load_text`, which also says what Load should warn of)."""
    return load_text(text, source=source).table


def load_text(text: str, *, source=None) -> LoadedText:
    """A new game at its table (the default casual one unless the text gives the table's
    set-up), every action played through the rules and every entry through the table. A
    clock that still runs at the end of the text is stopped there (the text's last moment).
    RecordError (with the line) when the text is not a game, its check line does not match,
    or an action cannot be played. The warnings: a text without a check line cannot be
    checked, and its last position line, if not where the moves lead, was a correction."""
    game = parse_game(text)
    body = list(game.actions)
    setup = game.table or TableSetup()
    table_line = game.table_line or 2
    if body and isinstance(body[0][1], dict) and body[0][1].get("type") == "table":
        if game.table is not None:
            raise RecordError(_("line {line}: the table's set-up is given twice (first on line {table_line})").format(
                                  line=body[0][0], table_line=table_line))
        table_line, entry = body.pop(0)
        setup = TableSetup.from_json(entry, _("line {no}").format(no=table_line))
    try:
        table = Table.blank(game.setup, setup, source=source)
    except CompanionError as e:
        raise RecordError(_("line {table_line}: {e}").format(table_line=table_line, e=e)) from None
    session = table.session
    warnings = [] if game.checked else [_(UNCHECKED)]
    last = max((i for i, (__, a) in enumerate(body) if not isinstance(a, SetPosition)), default=-1)
    for i, (no, action) in enumerate(body):
        try:
            if isinstance(action, SetPosition):
                now = session.rules.position_text(session.pos)
                # the position the moves lead to: nothing to correct (compared as written first: a
                # position in the middle of a turn, a choice still to make, reads back on its own
                # only with the moves before it, e.g. the opponent in check while the mover trades)
                if action.position == now or \
                        session.rules.position_text(session.rules.position_from_text(action.position)) == now:
                    continue
                if i > last and not game.checked:
                    warnings.append(_(CORRECTED))
            table.apply_entry(action if isinstance(action, dict) else action_to_json(action), _("line {no}").format(no=no))
        except CompanionError as e:
            message = str(e)
            if not message.startswith(_("line {no}:").format(no=no)):
                message = _("line {no}: {action}: {problem}").format(no=no, action=_describe(session, action),
                                                                     problem=message)
            raise RecordError(message) from None
    if table.clock is not None and table.clock.counting and not table.is_over:
        table.apply_entry({"type": "pause", "why": "text", "spent": None}, _("the end of the text"))
    if game.result is not None:
        have = describe_result(session)
        if game.result != have:
            raise RecordError(_("line {result_line}: the moves end with the result {show}, not {show2}").format(
                                  result_line=game.result_line, show=_show(have), show2=_show(game.result)))
    return LoadedText(table, tuple(warnings))


def _describe(session: Session, action: Action | dict) -> str:
    if isinstance(action, PlayMove):
        return _("move {n} ({move})").format(n=len(session.moves) + 1, move=action.move)
    if isinstance(action, SetPosition):
        return _("position")
    if isinstance(action, dict):
        return str(action.get("type"))
    return type(action).__name__.lower()


def journal_entries(game: Session | Table) -> list[dict]:
    """The journal of a loaded game (its start, its table's set-up when not the default one,
    and its history or its table's entries), for companion.journal."""
    from .session import start_to_json

    if isinstance(game, Table):
        head = [start_to_json(game.game)] + ([] if game.is_default else [game.setup.to_json()])
        if game.is_timed:
            return head + [dict(e) for e, _ in game.entries]
        return head + [dict(e) for e in game.session.history]
    return [start_to_json(game.setup)] + [dict(e) for e in game.history]


__all__ = ["GameText", "LoadedText", "format_game", "parse_game", "load_game", "load_table", "load_text",
           "journal_entries", "describe_result", "text_check", "action_to_json"]
