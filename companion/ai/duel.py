"""Secret simultaneous choices (Chess 2's duel bids) as a zero-sum matrix game, solved exactly.

Both players bid at once, unseen, so no single bid is "best": a bid that is known can be
beaten. The computer builds the payoff matrix from its search (one cell per pair of bids: the
position after that duel, searched) and plays the game's **mixed-strategy equilibrium**: a
probability for each of its bids such that no bid of the opponent does better against it on
average. Its bid is then drawn from those probabilities with a random number it is *given*
(the game's seeded random source; nothing here draws one).

The solver is a small linear program (von Neumann's: maximise the guaranteed value) in exact
:class:`fractions.Fraction` arithmetic, by the simplex method with Bland's rule (which cannot
cycle on degenerate games): at most 3x3 here, a few hundred exact operations.

* :func:`solve` -- a matrix (rows: the maximiser's options) -> both strategies and the value.
* :func:`pick` -- an option from a strategy and a number in [0, 1).
* :class:`JointPlan` -- the computer's strategy for its part; the search builds it
  (``Search.joint_plan``), and ``companion.ai.levels.computer_part`` is the pure entry for a
  screen that must fix the computer's bid before a person bids: position + seat + random
  number -> bid (deterministic with a node limit).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Sequence

Number = Fraction | float | int


@dataclass(frozen=True)
class MatrixSolution:
    """Optimal mixed strategies of a zero-sum game and its value (for the row player)."""

    rows: tuple[Fraction, ...]
    cols: tuple[Fraction, ...]
    value: Fraction


def solve(matrix: Sequence[Sequence[Number]]) -> MatrixSolution:
    """Equilibrium of the zero-sum game whose payoffs to the row player (the maximiser) are
    ``matrix``; the column player minimises. Exact: floats are converted to the Fractions they
    are (no rounding), and the result satisfies the equilibrium inequalities exactly."""
    a = [[Fraction(v) for v in row] for row in matrix]
    m = len(a)
    if not m or not a[0] or any(len(r) != len(a[0]) for r in a):
        raise ValueError("a matrix game needs a non-empty rectangular matrix")
    n = len(a[0])
    low = min(min(r) for r in a)
    shift = 1 - low  # every entry >= 1: the game's value is positive and the LP below bounded
    b = [[v + shift for v in row] for row in a]
    # maximise sum(y) subject to b y <= 1, y >= 0 (the column player's LP, scaled); its dual
    # gives the row player's strategy. Tableau: m constraint rows over n + m columns (y, slack).
    width = n + m
    tab = [b[i] + [Fraction(int(i == j)) for j in range(m)] + [Fraction(1)] for i in range(m)]
    obj = [Fraction(-1)] * n + [Fraction(0)] * m + [Fraction(0)]
    basis = [n + i for i in range(m)]
    while True:
        entering = next((j for j in range(width) if obj[j] < 0), None)  # Bland: lowest index
        if entering is None:
            break
        best = None
        for i in range(m):
            coef = tab[i][entering]
            if coef > 0:
                ratio = tab[i][-1] / coef
                if best is None or ratio < best[0] or (ratio == best[0] and basis[i] < basis[best[1]]):
                    best = (ratio, i)
        if best is None:  # cannot happen with a positive matrix: the LP is bounded
            raise ArithmeticError("unbounded matrix game LP")
        r = best[1]
        piv = tab[r][entering]
        tab[r] = [v / piv for v in tab[r]]
        for i in range(m):
            if i != r and tab[i][entering] != 0:
                f = tab[i][entering]
                tab[i] = [x - f * y for x, y in zip(tab[i], tab[r])]
        f = obj[entering]
        obj = [x - f * y for x, y in zip(obj, tab[r])]
        basis[r] = entering
    total = obj[-1]  # = sum(y) = 1 / (value + shift)
    y = [Fraction(0)] * n
    for i, var in enumerate(basis):
        if var < n:
            y[var] = tab[i][-1]
    duals = [obj[n + i] for i in range(m)]
    cols = tuple(v / total for v in y)
    rows = tuple(v / total for v in duals)
    value = 1 / total - shift
    return MatrixSolution(rows, cols, value)


def pick(options: Sequence, strategy: Sequence[Number], u: float):
    """The option whose probability interval holds ``u`` (0 <= u < 1), in the options' order."""
    if not 0 <= u < 1:
        raise ValueError(f"the random number must be in [0, 1), got {u!r}")
    acc = Fraction(0)
    x = Fraction(u)
    chosen = None
    for opt, p in zip(options, strategy):
        if p <= 0:
            continue
        chosen = opt
        acc += Fraction(p)
        if x < acc:
            return opt
    return chosen  # u above the last bound only by rounding of the probabilities given


@dataclass(frozen=True)
class JointPlan:
    """The computer's view of a joint decision: its options, the equilibrium probability of
    each, the game's value for it (centipawns), the payoff matrix (rows: its options), and the
    search effort behind it."""

    seat: int
    options: tuple
    strategy: tuple[Fraction, ...]
    value: float
    matrix: tuple[tuple[float, ...], ...]
    depth: int
    nodes: int

    def choose(self, u: float):
        return pick(self.options, self.strategy, u)
