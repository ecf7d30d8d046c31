"""The first power-on of a board, as questions and what their answers mean (no I/O here).

``companion board-check`` (companion/board/board_check.py) asks a builder two walks and one
test, and this module says what to ask and what the answers show:

* **The LEDs**, one at a time in chain order, lit red as the profile's pixel order sends red.
  The builder says where a light shows and in which colour. Green instead of red: the strip's
  order is the other one (RGB and GRB swap red and green). Nothing from some LED on: the chain
  breaks before it (a data wire, a dead LED's output). A light under another square than the
  profile expects: LEDs swapped in the chain (written as ``[fixes] swap_leds``).
* **The switches**, one square at a time: a piece is put on the square asked for (and moved on
  to the next). What the board senses is compared: nothing (a dead switch or a broken wire),
  another square (swapped switches, or, when a whole rank or file reads as another, row or
  column wires swapped: the profile's ``rows``/``columns`` reordered), two squares (a short).
  Squares closed on the empty board are stuck.
* **Ghosting**, on a diode matrix: three pieces at the corners of a rectangle; without a working
  diode the fourth corner reads as occupied.

Squares are board indices (``rank * width + file``), as everywhere in companion.board.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Sequence

from ..i18n import N_, _

FILES = "abcdefghijklmnopqrstuvwxyz"
#: What the check lights: red as the profile's pixel order sends it.
TEST_COLOUR = (255, 0, 0)
COLOURS = ("red", "green", "blue")
#: What a red sent in one order shows on a strip of the other (red and green trade places).
OTHER_ORDER = {"GRB": "RGB", "RGB": "GRB"}


def square_name(square: int, width: int) -> str:
    return f"{FILES[square % width]}{square // width + 1}"


def parse_square(text: str, width: int, height: int) -> int:
    """``"c4"`` -> its index; ValueError with one line when it is no square of the board."""
    t = text.strip().lower()
    if len(t) >= 2 and t[0] in FILES[:width] and t[1:].isdigit() and 1 <= int(t[1:]) <= height:
        return (int(t[1:]) - 1) * width + FILES.index(t[0])
    raise ValueError(_("{text!r} is not a square of this {width}x{height} board (a1 to {files}{height})").format(
        text=text.strip(), width=width, height=height, files=FILES[width - 1]))


# --- the LEDs -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class LedStep:
    """Light chain LED ``index``, which the profile puts under ``square``."""

    index: int
    square: int


@dataclass(frozen=True)
class LedSeen:
    """What the builder saw: ``colour`` (None: nothing lit) under ``square`` (None: nowhere)."""

    colour: str | None
    square: int | None


def led_steps(led_of_square: Sequence[int]) -> list[LedStep]:
    """Every LED the board's squares use, in chain order (``led_of_square[sq]`` is the chain
    index the profile gives square ``sq``)."""
    return sorted((LedStep(led, sq) for sq, led in enumerate(led_of_square)), key=lambda s: s.index)


LED_HELP = N_("Each LED lights red in turn. Press Enter when it is red under the square named; else type "
              "the colour you see (r, g or b) and/or the square where it shows (e.g. 'g', 'e4', 'g e4'), "
              "or n when nothing is lit.")  # said as _(LED_HELP)


def led_question(step: LedStep, count: int, width: int) -> str:
    return _("LED {n} of {count}: red under {square}?").format(n=step.index + 1, count=count,
                                                              square=square_name(step.square, width))


def parse_led_answer(text: str, step: LedStep, width: int, height: int) -> LedSeen:
    """The builder's answer to :func:`led_question`; ValueError (one line) when unclear."""
    words = text.replace(",", " ").lower().split()
    if not words or words in (["y"], ["yes"], ["ok"]):
        return LedSeen("red", step.square)
    if words in (["n"], ["no"], ["none"], ["nothing"], ["-"]):
        return LedSeen(None, None)
    colour, square = "red", step.square
    seen_colour = seen_square = False
    for w in words:
        named = [c for c in COLOURS if c == w or c[0] == w]
        if named and not seen_colour:
            colour, seen_colour = named[0], True
        elif not seen_square and not named:
            square, seen_square = parse_square(w, width, height), True
        else:
            raise ValueError(_("{text!r}: give one colour (r, g, b) and/or one square, or n").format(
                text=text.strip()))
    return LedSeen(colour, square)


@dataclass(frozen=True)
class LedFindings:
    width: int
    configured_order: str  # "GRB", "RGB", or words for an order set elsewhere ("the firmware's PIXEL_ORDER")
    strip_order: str | None  # the order the strip has ("other": not the configured one; None: no LED lit, or blue)
    odd_colour: bool  # blue seen: the strip is neither GRB nor RGB (BRG, ...)
    chain_break: LedStep | None  # the first LED from which nothing lights
    dark: tuple[LedStep, ...]  # single LEDs that stayed dark while later ones lit
    moved: tuple[tuple[int, int], ...]  # (square the profile expects, square where it showed)
    swaps: tuple[tuple[int, int], ...]  # pairs of squares whose LEDs trade places

    @property
    def order_wrong(self) -> bool:
        return self.strip_order is not None and self.strip_order != self.configured_order

    @property
    def ok(self) -> bool:
        return not (self.order_wrong or self.odd_colour or self.chain_break or self.dark or self.moved)

    def lines(self) -> list[str]:
        n = lambda sq: square_name(sq, self.width)  # noqa: E731
        out = []
        if self.order_wrong and self.configured_order in OTHER_ORDER:
            out.append(_("the strip is {strip}, not {configured}: red showed as green").format(
                strip=self.strip_order, configured=self.configured_order))
        elif self.order_wrong:
            out.append(_("red showed as green: the strip's colour order is not {configured}").format(
                configured=self.configured_order))
        if self.odd_colour:
            out.append(_("red showed as blue: the strip is neither GRB nor RGB (a BRG strip?); use WS2812B (GRB)"))
        if self.chain_break is not None:
            s = self.chain_break
            out.append(_("the chain breaks at the very first LED: check the data line from the Pi (level shifter, "
                         "330 Ohm) and the LEDs' 5 V and ground") if s.index == 0 else
                       _("the chain breaks at LED {n} (under {square}): check the data wire from LED {previous} into "
                         "it, and its 5 V and ground").format(n=s.index + 1, square=n(s.square), previous=s.index))
        for s in self.dark:
            out.append(_("LED {n} (under {square}) stays dark while the next ones light: replace it").format(
                n=s.index + 1, square=n(s.square)))
        if self.swaps:
            out.append(_("LEDs swapped in the chain: {pairs} (fixed in the profile: [fixes] swap_leds)").format(
                pairs=", ".join(_("{a} and {b}").format(a=n(a), b=n(b)) for a, b in self.swaps)))
        odd = [(a, b) for a, b in self.moved if not any({a, b} <= set(p) for p in self.swaps)]
        for a, b in odd:
            out.append(_("the LED for {a} shows under {b}: check the chain's wiring there").format(a=n(a), b=n(b)))
        return out or [_("every LED lit in its place, in the right colour")]


def read_leds(steps: Sequence[LedStep], seen: Sequence[LedSeen], configured_order: str, width: int) -> LedFindings:
    """What the answers to the LED walk show (``seen[i]`` answers ``steps[i]``)."""
    if len(seen) != len(steps):
        raise ValueError(f"{len(seen)} answers for {len(steps)} LEDs")
    lit = [i for i, s in enumerate(seen) if s.colour is not None]
    colours = Counter(s.colour for s in seen if s.colour is not None)
    strip = None
    odd = colours.get("blue", 0) > max(colours.get("red", 0), colours.get("green", 0))
    if colours and not odd:
        strip = configured_order if colours["red"] >= colours["green"] else OTHER_ORDER.get(configured_order, "other")
    chain_break = None
    last_lit = lit[-1] if lit else -1
    if last_lit < len(steps) - 1:
        chain_break = steps[last_lit + 1]
    dark = tuple(steps[i] for i in range(last_lit) if seen[i].colour is None)
    moved = tuple((st.square, s.square) for st, s in zip(steps, seen)
                  if s.colour is not None and s.square is not None and s.square != st.square)
    return LedFindings(width, configured_order, strip, odd, chain_break, dark, moved, _pairs(moved))


def _pairs(moved: Sequence[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """The moves that are exchanges: a shows at b and b shows at a."""
    where = dict(moved)
    return tuple(sorted((a, b) for a, b in where.items() if a < b and where.get(b) == a))


# --- the switches ---------------------------------------------------------------------------------


def switch_steps(width: int, height: int) -> list[int]:
    """Every square in order: a1, b1, ... along rank 1, then rank 2, ..."""
    return list(range(width * height))


def switch_question(square: int, width: int, first: bool) -> str:
    name = square_name(square, width)
    return (_("Put a piece on {square} (s and Enter if the board does not notice it)") if first else
            _("Move the piece to {square} (s and Enter if the board does not notice it)")).format(square=name)


def ghost_probe(width: int, height: int) -> tuple[tuple[int, int, int], int]:
    """Three corners of a rectangle (a1, b1, a2) and the fourth (b2), where a matrix without
    diodes shows a ghost."""
    return (0, 1, width), width + 1


@dataclass(frozen=True)
class SwitchFindings:
    width: int
    height: int
    stuck: tuple[int, ...]  # closed on the empty board
    dead: tuple[int, ...]  # nothing sensed when covered
    moved: tuple[tuple[int, int], ...]  # (square covered, square sensed)
    shorted: tuple[tuple[int, tuple[int, ...]], ...]  # square covered, the several squares sensed
    ghost: bool | None  # None: not tested
    rank_order: tuple[int, ...] | None  # a permutation of ranks explaining every move (rank r reads as rank_order[r])
    file_order: tuple[int, ...] | None
    swaps: tuple[tuple[int, int], ...] = field(default=())

    @property
    def ok(self) -> bool:
        return not (self.stuck or self.dead or self.moved or self.shorted or self.ghost)

    def lines(self) -> list[str]:
        n = lambda sq: square_name(sq, self.width)  # noqa: E731
        out = []
        if self.stuck:
            out.append(_("closed with no piece on it (a stuck reed or a short to the row): {squares}").format(
                squares=", ".join(map(n, self.stuck))))
        if self.dead:
            out.append(_("nothing sensed (a dead reed switch, a broken wire or diode, or the magnet too weak): "
                         "{squares}").format(squares=", ".join(map(n, self.dead))))
        if self.rank_order is not None:
            out.append(_("row wires swapped: {lines} (fixed in the profile: [matrix] rows reordered)").format(
                lines=", ".join(_("rank {a} reads as rank {b}").format(a=r + 1, b=o + 1)
                                for r, o in enumerate(self.rank_order) if r != o)))
        if self.file_order is not None:
            out.append(_("column wires swapped: {lines} (fixed in the profile: [matrix] columns reordered)").format(
                lines=", ".join(_("file {a} reads as file {b}").format(a=FILES[f], b=FILES[o])
                                for f, o in enumerate(self.file_order) if f != o)))
        if self.swaps:
            out.append(_("switches swapped: {pairs} (fixed in the profile: [fixes] swap_switches)").format(
                pairs=", ".join(_("{a} and {b}").format(a=n(a), b=n(b)) for a, b in self.swaps)))
        for a, b in self.moved:
            line = (a // self.width) if self.rank_order is not None else (a % self.width)
            order = self.rank_order or self.file_order
            if order is not None and order[line] != line:
                continue  # explained by the wires
            if not any({a, b} <= set(p) for p in self.swaps):
                out.append(_("a piece on {a} is sensed on {b}: check the wiring of both").format(a=n(a), b=n(b)))
        for a, many in self.shorted:
            out.append(_("a piece on {a} closes {squares}: two switches are joined (a short)").format(
                a=n(a), squares=", ".join(map(n, many))))
        if self.ghost:
            out.append(_("ghosting: pieces on three corners of a rectangle make the fourth read as occupied; "
                         "a diode is missing or reversed (hardware/README.md, 'Why the diodes')"))
        return out or [_("every switch sensed in its place") if self.ghost is None else
                       _("every switch sensed in its place, no ghosting")]


def read_switches(width: int, height: int, seen: dict[int, frozenset[int]], *, stuck: frozenset[int] = frozenset(),
                  ghost: bool | None = None, matrix: bool = False) -> SwitchFindings:
    """What the switch walk shows: ``seen[square]`` is what closed when ``square`` was covered
    (empty: nothing); ``stuck`` what was closed on the empty board; ``ghost`` the ghost probe's
    answer. On a ``matrix`` board a whole permutation of ranks or files is told apart (wires)."""
    dead, moved, shorted = [], [], []
    for sq in sorted(seen):
        closed = seen[sq] - stuck
        if not closed:
            if sq not in stuck:  # (a stuck switch cannot show the piece: said once, as stuck)
                dead.append(sq)
        elif len(closed) > 1:
            shorted.append((sq, tuple(sorted(closed))))
        elif sq not in closed:
            moved.append((sq, next(iter(closed))))
    rank_order = file_order = None
    rest = tuple(moved)
    if matrix and moved:
        rank_order, rest = _line_order(moved, width, height, by_rank=True)
        if rank_order is None:
            file_order, rest = _line_order(moved, width, height, by_rank=False)
    swaps = _pairs(rest)
    return SwitchFindings(width, height, tuple(sorted(stuck)), tuple(dead), tuple(moved), tuple(shorted), ghost,
                          rank_order, file_order, swaps)


def _line_order(moved, width, height, by_rank: bool):
    """Ranks (or files) whose every square reads as the same square of one other line: row (or
    column) wires in the wrong order. Returns the permutation (line r reads as order[r]; None
    when no whole line moved that way) and the moves it does not explain."""
    lines, length = (height, width) if by_rank else (width, height)
    line_of = (lambda s: s // width) if by_rank else (lambda s: s % width)
    along = (lambda s: s % width) if by_rank else (lambda s: s // width)
    targets: dict[int, set] = {}
    counts: Counter = Counter()
    for a, b in moved:
        counts[line_of(a)] += 1
        targets.setdefault(line_of(a), set()).add((line_of(b), along(a) == along(b)))
    whole = {line: next(iter(t))[0] for line, t in targets.items()
             if counts[line] == length and len(t) == 1 and next(iter(t))[1]}
    order = list(range(lines))
    for line, other in whole.items():
        order[line] = other
    if not whole or sorted(order) != list(range(lines)):
        return None, tuple(moved)
    return tuple(order), tuple((a, b) for a, b in moved if line_of(a) not in whole)


def reorder_pins(pins: Sequence[int], order: Sequence[int]) -> tuple[int, ...]:
    """The pin list that reads each line where it is: line ``r`` was read as ``order[r]``, so
    the pin wired to line r is the one the profile gave line order[r]."""
    return tuple(pins[order[r]] for r in range(len(pins)))
