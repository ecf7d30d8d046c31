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
from ..i18n import _, ngettext

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
        raise PositionError(_("position text needs at least '<rows> <side>'"))
    geo = rules.geometry
    pos = rules.new_position()
    rows = fields[0].split("/")
    if len(rows) != geo.height:
        raise PositionError(ngettext("position has {n} row, the board has {height}",
                                     "position has {n} rows, the board has {height}", len(rows)).format(
            n=len(rows), height=geo.height))
    for i, row in enumerate(rows):
        rank = geo.height - 1 - i
        f = 0
        at = 0
        while at < len(row):
            m = _TOKEN.match(row, at)
            if not m:
                raise PositionError(_("row {i} (rank {rank}): cannot read {row!r}; expected a number, a letter or "
                                      "(<player><code>[:state])").format(i=i + 1, rank=rank + 1, row=row[at:]))
            at = m.end()
            if m.group(1):
                f += whole_number(m.group(1), _("row {row} (rank {rank}): empty squares").format(row=i + 1, rank=rank + 1), PositionError,
                                  0, geo.width)
                continue
            if m.group(5):
                ch = m.group(5)
                owner, code, state_text = (0 if ch.isupper() else 1), ch.upper(), None
            else:
                owner, code, state_text = int(m.group(2)) - 1, m.group(3).upper(), m.group(4)
            if not 0 <= owner < pos.nplayers:
                raise PositionError(_("rank {rank}: player {owner} does not exist in a {nplayers}-player game").format(
                                        rank=rank + 1, owner=owner + 1, nplayers=pos.nplayers))
            if code not in rules.kind_index:
                raise PositionError(_("rank {rank}: {code!r} is not a piece of {name} (known: {kind_index})").format(
                                        rank=rank + 1, code=code, name=rules.name,
                                        kind_index=', '.join(sorted(rules.kind_index))))
            if f >= geo.width:
                raise PositionError(_("rank {rank} has more than {width} squares").format(
                                        rank=rank + 1, width=geo.width))
            sq = rank * geo.width + f
            if geo.is_void(sq):
                raise PositionError(_("a piece on {square}, which is void on this map").format(
                                        square=geo.name_of(sq)))
            pos.put(sq, pos.new_piece(code, owner, _parse_state(state_text, rank)))
            f += 1
        if f != geo.width:
            raise PositionError(ngettext("rank {rank} has {n} square, expected {width}",
                                         "rank {rank} has {n} squares, expected {width}", f).format(
                rank=rank + 1, n=f, width=geo.width))
    side = {"w": "1", "b": "2"}.get(fields[1], fields[1])
    if side not in {str(n) for n in range(1, pos.nplayers + 1)}:
        raise PositionError(_("side to move {fields!r}: expected a player number 1..{nplayers}").format(
                                fields=fields[1][:24], nplayers=pos.nplayers))
    pos.set_turn(int(side) - 1)
    for item in fields[2:]:
        name, eq, value = item.partition("=")
        if not eq:
            raise PositionError(_("{item!r}: expected name=value").format(item=item))
        if allowed_vars is not None and name not in allowed_vars:
            raise PositionError(_("unknown variable {name!r}; {rules_name} knows: {allowed_vars}").format(
                                    name=name, rules_name=rules.name,
                                    allowed_vars=', '.join(sorted(allowed_vars)) or 'none'))
        v = load_json(value, _("variable {name}").format(name=name), PositionError)
        if allowed_vars is not None and not isinstance(v, allowed_vars[name]):
            raise PositionError(_("variable {name}: expected {type}, got {value!r}").format(
                                    name=name, type=allowed_vars[name].__name__, value=value))
        pos.set_var(name, tuple(v) if isinstance(v, list) else v)
    return pos


def _parse_state(text: str | None, rank: int) -> dict:
    if not text:
        return {}
    state = {}
    for pair in text.split(","):
        k, eq, v = pair.partition("=")
        if not eq or not k.isidentifier():
            raise PositionError(_("rank {rank}: piece state {pair!r} must be key=value").format(
                                    rank=rank + 1, pair=pair))
        digits = v.removeprefix("-")
        if digits.isascii() and digits.isdigit():
            n = whole_number(digits, _("rank {rank}: piece state {key}").format(rank=rank + 1, key=k), PositionError)
            state[k] = -n if v.startswith("-") else n
        else:
            state[k] = v
    return state
