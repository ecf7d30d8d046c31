"""Players and pairings from the tournament director's files, and results back to them.

Two inputs, both read from text (the app copies them off a USB stick):

* **TRF-16** (FIDE Tournament Report File, handbook C.04 Annex 2), as Swiss Manager, JaVaFo
  and bbpPairings write it: fixed columns; ``001`` player lines with the starting rank
  (5-8), title (11-13), name (15-47), rating (49-52), federation (54-56), FIDE number
  (58-68), points (81-84), then ten columns per round from column 92: opponent (4), colour
  (``w``/``b``/``-``), result code. A round is *to be played* where a player has an opponent
  and no result yet (blank or ``*``). ``012`` names the tournament, ``022`` the city, ``122``
  the time control in words, ``XXR`` the number of rounds; other lines are kept as they are.
  TRF has no board numbers: boards are numbered as pairing programs list them, the pair with
  the highest score first (the higher of the two scores, then the sum, then the lower
  starting rank).
* **CSV**, a simple table with a header line (comma or semicolon): ``round, board, white,
  black`` and optionally ``white_rating, black_rating, white_id, black_id, time_control``
  (PGN notation), ``event``.

Every malformed line is one :class:`PairingError` naming the file and the line; nothing is
half read.

Results go back as (1) the same TRF with the game's result codes and the two players' points
filled in, for the pairing program, and (2) a CSV line per game
(``round,board,white_id,white,black_id,black,result``) that any program can import.

Either file may carry the round's key for the hall (docs/broadcast.md): one line
``XXK <64 hexadecimal digits>`` (TRF's ``XX`` lines are the programs' own extensions; readers
pass over codes they do not know). The boards that loaded the file sign what they broadcast
with it, and the hall takes results from those only. It is a secret: :class:`Pairings` keeps it
out of its ``repr``, no message quotes it, and the results written back leave it out.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field, replace

from ..errors import ClockError, PairingError
from ..i18n import N_, _
from .timecontrol import parse_time_control

#: Points each TRF result code is worth (the default 1 / 0.5 / 0 scoring).
TRF_POINTS = {"1": 1.0, "+": 1.0, "W": 1.0, "F": 1.0, "U": 1.0, "=": 0.5, "D": 0.5, "H": 0.5,
              "0": 0.0, "-": 0.0, "L": 0.0, "Z": 0.0, " ": 0.0, "*": 0.0}
TRF_CODES = frozenset(TRF_POINTS)
#: Our results as the two players' TRF codes (White, Black).
RESULT_TRF = {"1-0": ("1", "0"), "0-1": ("0", "1"), "1/2-1/2": ("=", "="), "+-": ("+", "-"),
              "-+": ("-", "+"), "--": ("-", "-"), "0-0": ("0", "0")}
MAX_NAME = 80
#: The line that carries the round key for the hall, and the key's length in hex digits.
ROUND_KEY_TAG = "XXK"
ROUND_KEY_HEX = 64


@dataclass(frozen=True)
class Player:
    number: int  # starting rank (TRF) or the line's own order (CSV)
    name: str
    rating: int | None = None
    title: str = ""
    federation: str = ""
    fide_id: str = ""

    def label(self) -> str:
        """"GM Carlsen, Magnus (2830)": how the screen names a player."""
        text = f"{self.title} {self.name}".strip()
        return f"{text} ({self.rating})" if self.rating else text


@dataclass(frozen=True)
class Pairing:
    round: int
    board: int
    white: Player
    black: Player
    time_control: str | None = None
    event: str = ""
    #: for TRF: the starting ranks, to write the result back
    white_no: int = 0
    black_no: int = 0


@dataclass(frozen=True)
class Pairings:
    """What a pairing file says about the round to play: its games, and the tournament."""

    source: str
    kind: str  # "trf" or "csv"
    event: str
    site: str
    round: int
    games: tuple[Pairing, ...]
    rounds: int | None = None
    time_control_words: str = ""
    #: the round key for the hall (64 hex digits; "" when the file has none): a secret
    round_key: str = field(default="", repr=False, compare=False)

    def board(self, number: int) -> Pairing:
        for p in self.games:
            if p.board == number:
                return p
        raise PairingError(_("{source}: round {round} has no board {number}").format(source=self.source, round=self.round, number=number))


# ----- TRF -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _TrfPlayer:
    player: Player
    points: float
    rounds: tuple[tuple[int, str, str], ...]  # (opponent, colour, result) per round
    line: int


def parse_trf(text: str, source: str = "TRF") -> Pairings:
    """The round to be played in a TRF-16 file (see the module docstring)."""
    players = _trf_players(text, source)
    meta = _trf_tags(text)
    if not players:
        raise PairingError(_("{source}: no player lines (001) in this file; is it a TRF file?").format(source=source))
    pending = sorted({r + 1 for p in players.values() for r, (opp, _c, res) in enumerate(p.rounds)
                      if opp and res in (" ", "*")})
    if not pending:
        raise PairingError(_("{source}: no round is waiting to be played (every paired game has a result)").format(source=source))
    rnd = pending[0]
    games = _trf_round(players, rnd, source)
    rounds = None
    if meta.get("XXR", "").strip().isdigit():
        rounds = int(meta["XXR"].strip())
    return Pairings(source, "trf", meta.get("012", "").strip(), meta.get("022", "").strip(), rnd, games, rounds,
                    meta.get("122", "").strip())


def _trf_tags(text: str) -> dict[str, str]:
    out = {}
    for line in text.splitlines():
        if len(line) >= 3 and line[:3] != "001" and not line.startswith("###"):
            out.setdefault(line[:3], line[4:])
    return out


def _trf_players(text: str, source: str) -> dict[int, _TrfPlayer]:
    players: dict[int, _TrfPlayer] = {}
    for n, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip("\r\n")
        if not line.startswith("001"):
            continue
        where = _("{source}, line {n}").format(source=source, n=n)
        if len(line) < 84:
            raise PairingError(_("{where}: a player line (001) needs at least 84 columns (start number to points); this one has {n}").format(where=where, n=len(line)))
        number = _int(line[4:8], where, _("the starting rank (columns 5-8)"))
        if number < 1:
            raise PairingError(_("{where}: the starting rank (columns 5-8) must be 1 or more").format(where=where))
        name = line[14:47].strip()
        if not name:
            raise PairingError(_("{where}: the name (columns 15-47) is empty").format(where=where))
        rating_text = line[48:52].strip()
        rating = _int(rating_text, where, _("the rating (columns 49-52)")) if rating_text else None
        points_text = line[80:84].strip()
        try:
            points = float(points_text) if points_text else 0.0
        except ValueError:
            raise PairingError(_("{where}: the points (columns 81-84) must be a number like 4.5, got {points_text!r}").format(where=where, points_text=points_text)) from None
        rounds = []
        r = 0
        while 91 + r * 10 < len(line):
            block = line[91 + r * 10: 91 + r * 10 + 8].ljust(8)
            col = 92 + r * 10
            opp_text = block[0:4].strip()
            opp = _int(opp_text, where, _("round {round}'s opponent (columns {first}-{last})").format(
                round=r + 1, first=col, last=col + 3)) if opp_text else 0
            colour = block[5]
            result = block[7].upper() if block[7] != " " else " "
            if colour not in "wbWB- ":
                raise PairingError(_("{where}: round {round}'s colour (column {column}) must be w, b or -, got {colour!r}").format(where=where, round=r + 1, column=col + 5, colour=colour))
            if result not in TRF_CODES:
                raise PairingError(_("{where}: round {round}'s result (column {column}) {result!r} is not a TRF result code (1 = 0 + - W D L H F U Z)").format(where=where, round=r + 1, column=col + 7, result=result))
            rounds.append((opp, colour.lower(), result))
            r += 1
        if number in players:
            raise PairingError(_("{where}: starting rank {number} is given twice (also line {line})").format(where=where, number=number, line=players[number].line))
        player = Player(number, name, rating, line[10:13].strip(), line[53:56].strip(), line[57:68].strip())
        players[number] = _TrfPlayer(player, points, tuple(rounds), n)
    for p in players.values():
        for r, (opp, colour, _res) in enumerate(p.rounds):
            if opp and opp not in players:
                raise PairingError(_("{source}, line {line}: round {number}'s opponent {opp} has no player line").format(source=source, line=p.line, number=r + 1, opp=opp))
    return players


def _trf_round(players: dict[int, _TrfPlayer], rnd: int, source: str) -> tuple[Pairing, ...]:
    pairs = []
    seen = set()
    for p in players.values():
        if len(p.rounds) < rnd:
            continue
        opp, colour, result = p.rounds[rnd - 1]
        if not opp or p.player.number in seen:
            continue
        other = players[opp]
        back = other.rounds[rnd - 1] if len(other.rounds) >= rnd else (0, "-", " ")
        if back[0] != p.player.number:
            raise PairingError(_("{source}, line {line}: round {rnd} pairs {number} with {opp}, but line {line2} pairs {opp} with {partner}").format(source=source, line=p.line, rnd=rnd, number=p.player.number, opp=opp, line2=other.line, partner=back[0] or 'nobody'))
        if colour == back[1] or colour not in "wb":
            raise PairingError(_("{source}, line {line}: round {rnd}: {number} and {opp} need one w and one b").format(source=source, line=p.line, rnd=rnd, number=p.player.number, opp=opp))
        white, black = (p, other) if colour == "w" else (other, p)
        seen |= {p.player.number, opp}
        pairs.append((white, black))

    def score(tp: _TrfPlayer) -> float:
        return sum(TRF_POINTS[res] for _o, _c, res in tp.rounds[:rnd - 1])

    pairs.sort(key=lambda wb: (-max(score(wb[0]), score(wb[1])), -(score(wb[0]) + score(wb[1])),
                               min(wb[0].player.number, wb[1].player.number)))
    return tuple(Pairing(rnd, i + 1, w.player, b.player, None, "", w.player.number, b.player.number)
                 for i, (w, b) in enumerate(pairs))


def trf_with_result(text: str, pairing: Pairing, result: str, source: str = "TRF") -> str:
    """``text`` with the game's result codes entered in round ``pairing.round`` of both players'
    lines and their points recomputed (1 / 0.5 / 0). PairingError if the pairing is not there."""
    if result not in RESULT_TRF:
        raise PairingError(_("a result for the file is one of {items}, got {result!r}").format(items=', '.join(RESULT_TRF), result=result))
    codes = dict(zip((pairing.white_no, pairing.black_no), RESULT_TRF[result]))
    lines = [line for line in text.splitlines(keepends=True) if not _is_key_line(line)]  # the key stays behind
    found = set()
    for i, raw in enumerate(lines):
        body = raw.rstrip("\r\n")
        ending = raw[len(body):]
        if not body.startswith("001") or len(body) < 84:
            continue
        number = int(body[4:8])
        if number not in codes:
            continue
        col = 91 + (pairing.round - 1) * 10 + 7
        if len(body) <= col - 7:
            raise PairingError(_("{source}, line {line}: player {player} has no round {round}").format(source=source, line=i + 1, player=number, round=pairing.round))
        body = body.ljust(col + 1)  # an editor stripped the trailing blanks: pad as the reader does
        body = body[:col] + codes[number] + body[col + 1:]
        points = 0.0
        r = 0
        while 91 + r * 10 + 7 < len(body):
            points += TRF_POINTS.get(body[91 + r * 10 + 7].upper(), 0.0)
            r += 1
        body = body[:80] + f"{points:4.1f}" + body[84:]
        lines[i] = body + ending
        found.add(number)
    missing = set(codes) - found
    if missing:
        raise PairingError(_("{source}: no player line for starting rank {rank}").format(source=source, rank=min(missing)))
    return "".join(lines)


# ----- CSV -------------------------------------------------------------------------------------------

CSV_REQUIRED = ("round", "board", "white", "black")
CSV_OPTIONAL = ("white_rating", "black_rating", "white_id", "black_id", "time_control", "event")


def parse_csv(text: str, source: str = "CSV") -> Pairings:
    """A simple pairing table (see the module docstring); the round is the lowest one listed."""
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = text.splitlines()
    first = next((i for i, line in enumerate(lines) if line.strip()), None)
    if first is None:
        raise PairingError(_("{source}: the file is empty").format(source=source))
    delimiter = ";" if lines[first].count(";") > lines[first].count(",") else ","
    header = [h.strip().lower().replace(" ", "_") for h in next(csv.reader([lines[first]], delimiter=delimiter))]
    missing = [c for c in CSV_REQUIRED if c not in header]
    if missing:
        raise PairingError(_("{source}, line {line}: the header needs the columns {items}; {column!r} is missing").format(source=source, line=first + 1, items=', '.join(CSV_REQUIRED), column=missing[0]))
    unknown = [h for h in header if h not in CSV_REQUIRED + CSV_OPTIONAL]
    if unknown:
        raise PairingError(_("{source}, line {line}: unknown column {column!r} (known: {items})").format(source=source, line=first + 1, column=unknown[0], items=', '.join(CSV_REQUIRED + CSV_OPTIONAL)))
    games = []
    boards: dict[tuple[int, int], int] = {}
    for n in range(first + 1, len(lines)):
        line = lines[n]
        if not line.strip():
            continue
        where = _("{source}, line {n}").format(source=source, n=n + 1)
        row = next(csv.reader([line], delimiter=delimiter))
        if len(row) != len(header):
            raise PairingError(_("{where}: {fields} fields where the header has {columns}").format(where=where, fields=len(row), columns=len(header)))
        f = {h: v.strip() for h, v in zip(header, row)}
        rnd = _int(f["round"], where, _("the round"))
        board = _int(f["board"], where, _("the board"))
        if rnd < 1 or board < 1:
            raise PairingError(_("{where}: round and board are counted from 1").format(where=where))
        if (rnd, board) in boards:
            raise PairingError(_("{where}: round {rnd} board {board} is listed twice (also line {line})").format(where=where, rnd=rnd, board=board, line=boards[rnd, board]))
        boards[(rnd, board)] = n + 1
        names = []
        for side in ("white", "black"):
            name = f[side]
            if not name or len(name) > MAX_NAME:
                raise PairingError(_(_SIDE_NAME_LENGTH[side]).format(where=where, most=MAX_NAME))
            rating_text = f.get(f"{side}_rating", "")
            rating = _int(rating_text, where, _(_SIDE_RATING[side])) if rating_text else None
            if rating is not None and not 0 <= rating <= 4000:
                raise PairingError(_("{where}: {what} {rating} is not between 0 and 4000").format(
                    where=where, what=_(_SIDE_RATING[side]), rating=rating))
            names.append(Player(board * 2 - (side == "white"), name, rating, fide_id=f.get(f"{side}_id", "")))
        control = f.get("time_control") or None
        if control is not None:
            try:
                parse_time_control(control)
            except ClockError as e:
                raise PairingError(_("{where}: {problem}").format(where=where, problem=e)) from None
        games.append(Pairing(rnd, board, names[0], names[1], control, f.get("event", "")))
    if not games:
        raise PairingError(_("{source}: no games under the header").format(source=source))
    rnd = min(g.round for g in games)
    chosen = tuple(sorted((g for g in games if g.round == rnd), key=lambda g: g.board))
    event = next((g.event for g in chosen if g.event), "")
    return Pairings(source, "csv", event, "", rnd, chosen)


def parse_pairings(text: str, source: str) -> Pairings:
    """A TRF or CSV file, told apart by its content (TRF: lines that start with ``001``), with
    its round key if it carries one."""
    text, key = split_round_key(text, source)
    if any(line.startswith("001") for line in text.splitlines()):
        pairings = parse_trf(text, source)
    else:
        pairings = parse_csv(text, source)
    return replace(pairings, round_key=key)


# ----- the round key --------------------------------------------------------------------------------------


def _is_key_line(line: str) -> bool:
    return line[:len(ROUND_KEY_TAG)] == ROUND_KEY_TAG and line[len(ROUND_KEY_TAG):len(ROUND_KEY_TAG) + 1] in (" ", "")


def split_round_key(text: str, source: str = "pairing file") -> tuple[str, str]:
    """``text`` without its round-key line, and the key ("" when there is none). A damaged key
    line is a PairingError that names the line, never the key."""
    keys, kept = [], []
    for n, raw in enumerate(text.splitlines(keepends=True), start=1):
        line = raw.lstrip("\ufeff").rstrip("\r\n")
        if not _is_key_line(line):
            kept.append(raw)
            continue
        key = line[len(ROUND_KEY_TAG):].strip().lower()
        if len(key) != ROUND_KEY_HEX or any(c not in "0123456789abcdef" for c in key):
            raise PairingError(_("{source}, line {n}: the round key ({tag}) must be {digits} hexadecimal digits; the hall writes it (companion hall --pairings FILE)").format(source=source, n=n, tag=ROUND_KEY_TAG, digits=ROUND_KEY_HEX))
        keys.append((n, key))
    if len({k for _n, k in keys}) > 1:
        raise PairingError(_("{source}, line {line}: a second, different round key ({tag})").format(source=source, line=keys[1][0], tag=ROUND_KEY_TAG))
    return "".join(kept), keys[0][1] if keys else ""


def with_round_key(text: str, key: str) -> str:
    """``text`` with ``key`` as its round-key line (the last line; any old one taken out)."""
    body, _old = split_round_key(text)
    ending = "\r\n" if "\r\n" in body else "\n"
    if body and not body.endswith(("\n", "\r")):
        body += ending
    return f"{body}{ROUND_KEY_TAG} {key}{ending}"


# ----- results -----------------------------------------------------------------------------------------

RESULT_HEADER = "round,board,white_id,white,black_id,black,result"


def result_line(pairing: Pairing, result: str) -> str:
    """One CSV line for the game (the header is :data:`RESULT_HEADER`)."""
    if result not in RESULT_TRF:
        raise PairingError(_("a result for the file is one of {items}, got {result!r}").format(items=', '.join(RESULT_TRF), result=result))
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    white_id = pairing.white.fide_id or (str(pairing.white_no) if pairing.white_no else "")
    black_id = pairing.black.fide_id or (str(pairing.black_no) if pairing.black_no else "")
    writer.writerow([pairing.round, pairing.board, *map(cell, (white_id, pairing.white.name, black_id,
                                                                pairing.black.name)), result])
    return out.getvalue()


#: What a spreadsheet reads as the start of a formula in a cell (OWASP, "CSV Injection").
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def cell(text: str) -> str:
    """A name or id from outside as a results-file cell a spreadsheet shows as text: one that
    starts like a formula gets a ``'`` in front (OWASP's advice: ``=HYPERLINK(...)`` would
    otherwise run when the arbiter opens the file). A line break inside becomes a space (the
    csv writer would leave a carriage return bare, ending the line there); it quotes the rest.
    The result column is ours (``-+`` and ``--`` are forfeits, as pairing programs read them)
    and is left as it is."""
    safe = "'" + text if text.startswith(FORMULA_START) else text
    return safe.replace("\r", " ").replace("\n", " ")


def merge_results(existing: str, line: str) -> str:
    """The round's results file with ``line`` in it (a game of the same round and board is
    replaced: the arbiter may correct a result)."""
    key = tuple(next(csv.reader([line]))[:2])
    rows = [r for r in existing.splitlines() if r.strip() and r.strip() != RESULT_HEADER]
    rows = [r for r in rows if tuple(next(csv.reader([r]))[:2]) != key]
    return RESULT_HEADER + "\n" + "".join(r + "\n" for r in rows) + line


#: the words a CSV pairing file's error uses for its white and black columns
_SIDE_RATING = {"white": N_("the white rating"), "black": N_("the black rating")}
_SIDE_NAME_LENGTH = {"white": N_("{where}: the white player's name must be 1 to {most} characters"),
                     "black": N_("{where}: the black player's name must be 1 to {most} characters")}


def _int(text: str, where: str, what: str) -> int:
    text = text.strip()
    if not re.fullmatch(r"\d{1,6}", text):
        raise PairingError(_("{where}: {what} must be a whole number, got {text!r}").format(where=where, what=what, text=text))
    return int(text)


__all__ = ["Player", "Pairing", "Pairings", "parse_trf", "parse_csv", "parse_pairings", "trf_with_result",
           "result_line", "merge_results", "split_round_key", "with_round_key", "RESULT_HEADER", "RESULT_TRF"]
