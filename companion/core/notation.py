"""The extended position text for every game (FIDE chess also reads and writes plain FEN).

    <rows> <side> [name=value ...]

``<rows>``: the board's rows from the top (the last rank) down to rank 1, separated by ``/``.
In a row, a number is that many empty squares (it may have several digits; void and water
squares are counted like any other square, since terrain comes from the map), and a piece is

* a single letter, upper case for player 1 and lower case for player 2 (as in FEN), or
* ``(`` player-number code [``:`` state] ``)`` for any player and any code, with the piece's
  state as comma-separated ``key=value`` pairs: ``(3SK)``, ``(1N:fatigue=2)``,
  ``(2TR:hits=1,hex=2)``. State values are integers or words.

``<side>``: the player to move, ``1``..``4`` (``w`` and ``b`` are accepted for 1 and 2).

Then any number of game variables as ``name=value``, the value written as compact JSON
(``castling="KQkq"``, ``stones=[3,2]``, ``out=[3]``). Which variables exist is the game's
business; unknown ones are refused by the game's parser.

Example (Combat Chess after 1.e4 d5 2.exd5 won by the pawn):
``rnbqkbnr/ppp1pppp/8/3(1P:fatigue=1)4/8/8/PPPP1PPP/RNBQKBNR 2 castling="KQkq" halfmove=0 fullmove=2``

Chess 2 (companion/games/chess2_text.py) is played with a standard set, so its text is FEN whose
letters mean what each side's army says, followed by fields of its own::

    <FEN, 4 or 6 fields> armies=<white>,<black> [stones=<w>,<b>] [pending=<what>]

``armies`` names the two armies (classic, nemesis, empowered, reaper, two-kings, animals; Reaper
``Q`` is the Reaper and ``R`` a Ghost, Animals ``N B R Q`` are Wild Horse, Tiger, Elephant and
Jungle Queen, Two Kings has two ``K`` and no ``Q``). ``stones`` defaults to ``3,3``.
``pending`` is ``king-turn`` (a Two Kings player takes or skips its king-turn), or
``duel:<move>``, ``bids:<move>``, ``bluff:<move>``: a duel about the capture ``<move>`` waiting
for the defender's choice, both bids, or the attacker's bluff reward. Castling letters only for a
Classic side. Example (Two Kings after 1.e4, before its king-turn):
``rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBKKBNR w kq e3 0 1 armies=two-kings,classic stones=3,3 pending=king-turn``
"""

from __future__ import annotations

import json
import re

from ..bounds import load_json, whole_number
from ..errors import PositionError
from .position import Position

_TOKEN = re.compile(r"(\d+)|\((\d)([A-Za-z]{1,3})(?::([^)]*))?\)|([A-Za-z])", re.ASCII)


def format_position(pos: Position, variables: dict | None = None, hidden_state: tuple[str, ...] = ()) -> str:
    """The position as text; ``variables`` (default: all of ``pos.vars``) are written after the
    side to move; piece state keys in ``hidden_state`` are left out (the game restores them)."""
    geo = pos.geometry
    rows = []
    two = pos.nplayers == 2
    for rank in range(geo.height - 1, -1, -1):
        row, empty = [], 0
        for f in range(geo.width):
            p = pos.board[rank * geo.width + f]
            if p is None:
                empty += 1
                continue
            if empty:
                row.append(str(empty))
                empty = 0
            code = p.kind.code
            state = {k: v for k, v in p.state.items() if k not in hidden_state} if hidden_state else p.state
            if two and len(code) == 1 and not state:
                row.append(code if p.owner == 0 else code.lower())
            else:
                st = ",".join(f"{k}={v}" for k, v in sorted(state.items()))
                row.append(f"({p.owner + 1}{code}{':' + st if st else ''})")
        if empty:
            row.append(str(empty))
        rows.append("".join(row))
    out = ["/".join(rows), str(pos.turn + 1)]
    items = pos.vars if variables is None else variables
    for k in sorted(items):
        v = items[k]
        if k == "pending" or v is None:
            continue
        out.append(f"{k}={json.dumps(_plain(v), separators=(',', ':'))}")
    return " ".join(out)


def _plain(v):
    if isinstance(v, (frozenset, set, tuple)):
        return sorted(v) if isinstance(v, (frozenset, set)) else list(v)
    return v


def parse_position(rules, text: str, allowed_vars: dict[str, type] | None = None) -> Position:
    """Parse the extended format for ``rules``; errors name the row/field and what is expected."""
    fields = text.split()
    if len(fields) < 2:
        raise PositionError("position text needs at least '<rows> <side>'")
    geo = rules.geometry
    pos = rules.new_position()
    rows = fields[0].split("/")
    if len(rows) != geo.height:
        raise PositionError(f"position has {len(rows)} rows, the board has {geo.height}")
    for i, row in enumerate(rows):
        rank = geo.height - 1 - i
        f = 0
        at = 0
        while at < len(row):
            m = _TOKEN.match(row, at)
            if not m:
                raise PositionError(f"row {i + 1} (rank {rank + 1}): cannot read {row[at:]!r}; expected a number, a letter or (<player><code>[:state])")
            at = m.end()
            if m.group(1):
                f += whole_number(m.group(1), f"row {i + 1} (rank {rank + 1}): empty squares", PositionError,
                                  0, geo.width)
                continue
            if m.group(5):
                ch = m.group(5)
                owner, code, state_text = (0 if ch.isupper() else 1), ch.upper(), None
            else:
                owner, code, state_text = int(m.group(2)) - 1, m.group(3).upper(), m.group(4)
            if not 0 <= owner < pos.nplayers:
                raise PositionError(f"rank {rank + 1}: player {owner + 1} does not exist in a {pos.nplayers}-player game")
            if code not in rules.kind_index:
                raise PositionError(f"rank {rank + 1}: {code!r} is not a piece of {rules.name} (known: {', '.join(sorted(rules.kind_index))})")
            if f >= geo.width:
                raise PositionError(f"rank {rank + 1} has more than {geo.width} squares")
            sq = rank * geo.width + f
            if geo.is_void(sq):
                raise PositionError(f"a piece on {geo.name_of(sq)}, which is void on this map")
            pos.put(sq, pos.new_piece(code, owner, _parse_state(state_text, rank)))
            f += 1
        if f != geo.width:
            raise PositionError(f"rank {rank + 1} has {f} squares, expected {geo.width}")
    side = {"w": "1", "b": "2"}.get(fields[1], fields[1])
    if side not in {str(n) for n in range(1, pos.nplayers + 1)}:
        raise PositionError(f"side to move {fields[1][:24]!r}: expected a player number 1..{pos.nplayers}")
    pos.set_turn(int(side) - 1)
    for item in fields[2:]:
        name, eq, value = item.partition("=")
        if not eq:
            raise PositionError(f"{item!r}: expected name=value")
        if allowed_vars is not None and name not in allowed_vars:
            raise PositionError(f"unknown variable {name!r}; {rules.name} knows: {', '.join(sorted(allowed_vars)) or 'none'}")
        v = load_json(value, f"variable {name}", PositionError)
        if allowed_vars is not None and not isinstance(v, allowed_vars[name]):
            raise PositionError(f"variable {name}: expected {allowed_vars[name].__name__}, got {value!r}")
        pos.set_var(name, tuple(v) if isinstance(v, list) else v)
    return pos


def _parse_state(text: str | None, rank: int) -> dict:
    if not text:
        return {}
    state = {}
    for pair in text.split(","):
        k, eq, v = pair.partition("=")
        if not eq or not k.isidentifier():
            raise PositionError(f"rank {rank + 1}: piece state {pair!r} must be key=value")
        digits = v.removeprefix("-")
        if digits.isascii() and digits.isdigit():
            n = whole_number(digits, f"rank {rank + 1}: piece state {k}", PositionError)
            state[k] = -n if v.startswith("-") else n
        else:
            state[k] = v
    return state
