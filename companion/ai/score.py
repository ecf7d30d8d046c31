"""A match score with its uncertainty: how sure a result of N games is.

``match_stats(wins, losses, draws)`` gives the score (a draw counts half), its 95% confidence
interval, the Elo difference that score means (logistic model, 400 points per factor 10)
with the interval carried through, and the likelihood of superiority (LOS: the chance that
the first side is really the stronger, from wins and losses only). The interval uses the
games' own spread (the trinomial variance of a win, a draw or a loss per game), the usual
normal approximation of match statistics (as cutechess-cli and BayesElo's simple mode report
it); for the share of wins alone :func:`wilson` is the interval that stays inside [0, 1] for
small counts.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

Z95 = 1.959963984540054


@dataclass(frozen=True)
class MatchStats:
    games: int
    score: float            # share of the points, 0..1
    low: float              # 95% interval of the score
    high: float
    elo: float              # Elo difference the score means (inf at 100%)
    elo_low: float
    elo_high: float
    los: float              # likelihood of superiority, 0..1

    def line(self) -> str:
        return (f"{self.games} games: {self.score:.1%} of the points (95%: {self.low:.1%} to {self.high:.1%}), "
                f"Elo {_elo_text(self.elo)} (95%: {_elo_text(self.elo_low)} to {_elo_text(self.elo_high)}), "
                f"likelihood of superiority {self.los:.1%}")


def elo_of(score: float) -> float:
    """The Elo difference at which the logistic model expects ``score`` (0..1)."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def match_stats(wins: int, losses: int, draws: int) -> MatchStats:
    n = wins + losses + draws
    if n <= 0:
        raise ValueError("no games")
    score = (wins + 0.5 * draws) / n
    var = (wins * (1.0 - score) ** 2 + draws * (0.5 - score) ** 2 + losses * score ** 2) / n
    half = Z95 * math.sqrt(var / n)
    low, high = max(0.0, score - half), min(1.0, score + half)
    decisive = wins + losses
    los = 0.5 if decisive == 0 else 0.5 * (1.0 + math.erf((wins - losses) / math.sqrt(2.0 * decisive)))
    return MatchStats(n, score, low, high, elo_of(score), elo_of(low), elo_of(high), los)


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for a proportion ``successes / n``."""
    if n <= 0:
        raise ValueError("no trials")
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def _elo_text(v: float) -> str:
    if math.isinf(v):
        return "+inf" if v > 0 else "-inf"
    return f"{round(v) or 0:+d}"
