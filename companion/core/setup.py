"""A game's start position drawn as a picture (the ``[setup]`` grid of a roster file).

    [setup]
    grid = '''
    vg de sp b  p  t  k  j  ns kn sv ky
    gn kg g  kg gn g  g  gn kg g  kg gn
    .  .  .  .  .  .  .  .  .  .  .  .
    ...
    KY SV KN NS J  K  T  P  B  SP DE VG
    '''

Rows run from the top (the last rank) down to rank 1, like a map's grid (docs/maps.md); in a
row the cells are separated by spaces, one cell per square: ``.`` for an empty square, or a
piece code. With two players the case says whose piece it is (upper case: player 1, lower
case: player 2, as in FEN); with more, a cell is the player's number and the code (``3KN``).

:func:`parse_setup` returns the position (player 1 to move) or raises a PositionError that names
the file, the line, the row, the column and what was expected, so a person editing the file
sees what to fix. :func:`format_setup` writes a position as such a grid.
"""

from __future__ import annotations

from ..errors import PositionError
from .geometry import FILES
from .position import Position
from ..i18n import _, ngettext


def parse_setup(rules, text: str, where: str = "setup", first_line: int = 0) -> Position:
    """The position the grid draws, for ``rules`` (its board, its piece codes)."""
    geo = rules.geometry
    lines = text.split("\n")
    numbered = [(i, line.split()) for i, line in enumerate(lines) if line.strip()]
    pos = rules.new_position()

    def at(i: int) -> str:
        return _("{where}, line {n}").format(where=where, n=first_line + i) if first_line else where

    if len(numbered) != geo.height:
        raise PositionError(ngettext("{at}: [setup] grid has {n} row, the board has {height} ranks; expected one row "
                                     "per rank, top row first",
                                     "{at}: [setup] grid has {n} rows, the board has {height} ranks; expected one row "
                                     "per rank, top row first", len(numbered)).format(
            at=at(numbered[-1][0] if numbered else 0), n=len(numbered), height=geo.height))
    known = ", ".join(sorted(rules.kind_index))
    for count, (i, cells) in enumerate(numbered):
        rank = geo.height - 1 - count
        here = _("{at} (row {row} from the top, rank {rank})").format(at=at(i), row=count + 1, rank=rank + 1)
        if len(cells) != geo.width:
            raise PositionError(ngettext("{here}: {n} cell, expected {width} (one per file, separated by spaces; '.' "
                                         "for an empty square)",
                                         "{here}: {n} cells, expected {width} (one per file, separated by spaces; '.' "
                                         "for an empty square)", len(cells)).format(
                here=here, n=len(cells), width=geo.width))
        for f, cell in enumerate(cells):
            if cell == ".":
                continue
            square = _("{here}, column {column} (square {square})").format(here=here, column=f + 1,
                                                                          square=f"{FILES[f]}{rank + 1}")
            if cell[:1].isdigit():
                owner, code = int(cell[0]) - 1, cell[1:]
                if not 0 <= owner < pos.nplayers:
                    raise PositionError(_("{square}: {cell!r} names player {owner}; the game has players 1 to "
                                          "{nplayers}").format(
                                            square=square, cell=cell, owner=owner + 1, nplayers=pos.nplayers))
            elif pos.nplayers == 2 and (cell.isupper() or cell.islower()):
                owner, code = (0 if cell.isupper() else 1), cell
            else:
                raise PositionError((_("{square}: {cell!r} is not a piece; expected a code in upper case for "
                                       "player 1, lower case for player 2 (or '.' for an empty square)")
                                     if pos.nplayers == 2 else
                                     _("{square}: {cell!r} is not a piece; expected the player's number and a "
                                       "code, e.g. {example}")).format(
                    square=square, cell=cell, example="1" + next(iter(sorted(rules.kind_index)), "K")))
            code = code.upper()
            if code not in rules.kind_index:
                raise PositionError(_("{square}: {cell!r} is not a piece of {name} (codes: {known})").format(
                                        square=square, cell=cell, name=rules.name, known=known))
            sq = rank * geo.width + f
            if geo.is_void(sq):
                raise PositionError(_("{square}: a piece on a void square").format(square=square))
            pos.put(sq, pos.new_piece(code, owner))
    return pos


def format_setup(pos: Position) -> str:
    """The grid of ``pos`` (as :func:`parse_setup` reads it), columns aligned."""
    geo = pos.geometry
    two = pos.nplayers == 2
    cells = []
    for rank in range(geo.height - 1, -1, -1):
        row = []
        for f in range(geo.width):
            p = pos.board[rank * geo.width + f]
            if p is None:
                row.append(".")
            elif two:
                row.append(p.kind.code if p.owner == 0 else p.kind.code.lower())
            else:
                row.append(f"{p.owner + 1}{p.kind.code}")
        cells.append(row)
    wide = max(len(c) for row in cells for c in row)
    return "\n".join(" ".join(c.ljust(wide) for c in row).rstrip() for row in cells) + "\n"
