"""Rectangular boards of any size, per-square terrain and free tags.

Squares are plain ints: ``index = rank * width + file``, with file 0 / rank 0 at the first
player's lower left corner. Names follow algebraic notation extended past 8: files ``a``..``t``
(up to 26 are named), ranks ``1``..``N``; so ``a1`` is index 0 and ``t20`` on a 20x20 board is 399.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

from ..errors import MapError, PositionError
from ..i18n import _

FLOOR = 0
WATER = 1
VOID = 2
TERRAIN_NAMES = ("floor", "water", "void")

MIN_SIZE = 5
MAX_SIZE = 26
FILES = "abcdefghijklmnopqrstuvwxyz"


@dataclass(frozen=True)
class Geometry:
    """The static board: size, terrain per square, named square sets (tags)."""

    width: int
    height: int
    terrain: tuple[int, ...] = ()
    tags: Mapping[str, frozenset[int]] = field(default_factory=dict)
    name: str = ""

    def __post_init__(self) -> None:
        for what, n in (("width", self.width), ("height", self.height)):
            if not isinstance(n, int) or not MIN_SIZE <= n <= MAX_SIZE:
                raise MapError(_("board {what} must be an integer from {min_size} to {max_size}, got {n!r}").format(
                                   what=what, min_size=MIN_SIZE, max_size=MAX_SIZE, n=n))
        if not self.terrain:
            object.__setattr__(self, "terrain", (FLOOR,) * (self.width * self.height))
        if len(self.terrain) != self.width * self.height:
            raise MapError(
                _("terrain has {n} squares, expected {width}x{height}").format(
                    n=len(self.terrain), width=self.width, height=self.height)
            )
        if any(t not in (FLOOR, WATER, VOID) for t in self.terrain):
            raise MapError(_("terrain values must be FLOOR, WATER or VOID"))
        object.__setattr__(self, "tags", {k: frozenset(v) for k, v in self.tags.items()})
        for tag, squares in self.tags.items():
            bad = [s for s in squares if not 0 <= s < self.size]
            if bad:
                raise MapError(_("tag {tag!r} names squares outside the board: {bad}").format(tag=tag, bad=bad[:3]))

    @property
    def size(self) -> int:
        return self.width * self.height

    def square(self, file: int, rank: int) -> int:
        return rank * self.width + file

    def file_of(self, sq: int) -> int:
        return sq % self.width

    def rank_of(self, sq: int) -> int:
        return sq // self.width

    def on_board(self, file: int, rank: int) -> bool:
        return 0 <= file < self.width and 0 <= rank < self.height

    def is_void(self, sq: int) -> bool:
        return self.terrain[sq] == VOID

    def is_water(self, sq: int) -> bool:
        return self.terrain[sq] == WATER

    def playable(self) -> list[int]:
        """Every square that is not void."""
        return [s for s in range(self.size) if self.terrain[s] != VOID]

    def name_of(self, sq: int) -> str:
        if not 0 <= sq < self.size:
            raise ValueError(f"square index {sq} is off a {self.width}x{self.height} board")
        return f"{FILES[sq % self.width]}{sq // self.width + 1}"

    def parse_square(self, text: str) -> int:
        """``"e2"`` -> index; raises PositionError (a ValueError) naming the board size when off the board."""
        t = text.strip().lower()
        if len(t) < 2 or t[0] not in FILES or not (t[1:].isascii() and t[1:].isdigit()) or len(t) > 4:
            shown = text if len(text) <= 12 else text[:12] + "..."
            raise PositionError(_("{shown!r} is not a square name (expected a file letter and a rank number, e.g. "
                                  "e2)").format(shown=shown))
        f = FILES.index(t[0])
        r = int(t[1:]) - 1
        if not self.on_board(f, r):
            last = f"{FILES[self.width - 1]}{self.height}"
            raise PositionError(_("square {text!r} is off this {width}x{height} board (a1..{last})").format(
                text=text, width=self.width, height=self.height, last=last))
        return r * self.width + f

    def distance(self, a: int, b: int) -> int:
        """King-step (Chebyshev) distance."""
        return max(abs(a % self.width - b % self.width), abs(a // self.width - b // self.width))

    def tagged(self, tag: str) -> frozenset[int]:
        return self.tags.get(tag, frozenset())


def square_name(sq: int, width: int) -> str:
    return f"{FILES[sq % width]}{sq // width + 1}"
