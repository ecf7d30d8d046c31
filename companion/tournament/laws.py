"""What the FIDE Laws of Chess (2023) decide at a tournament table, as pure functions.

* Penalties (7.5.5 for a completed illegal move, 9.5.3 for a wrong draw claim): two minutes
  added to the opponent in standard play, one minute in rapid and blitz (Appendices A.3 and
  B.3). The issue text asked for two minutes in rapid; the Laws say one, and the Laws win
  (docs/tournament.md).
* Draw claims: threefold repetition (9.2) and fifty moves (9.3), on the position on the board
  or the one an intended move would give. Fivefold repetition, seventy-five moves (9.6) and a
  dead position (5.2.2) end the game by themselves.
* Whether a side can still win (6.9, 7.5.5): the rules' ``can_win`` hook.

:class:`ClaimedDraws` wraps a game's rules so that threefold repetition and fifty moves no
longer end the game by themselves: in tournament play they must be claimed.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.moves import Move

PENALTY_MS = {"standard": 120_000, "rapid": 60_000, "blitz": 60_000}
CLAIMS = ("threefold", "fifty")
#: the reason a correct claim ends the game with (a key of the screen's RESULT_REASONS)
CLAIM_REASONS = {"threefold": "threefold repetition", "fifty": "fifty-move rule"}


def penalty_ms(category: str) -> int:
    """Time added to the opponent for a first illegal move (7.5.5) or a wrong claim (9.5.3)."""
    return PENALTY_MS.get(category, PENALTY_MS["standard"])


def can_win(rules, pos, player: int) -> bool:
    """Could ``player`` still win by any series of legal moves (the rules' hook; yes if the
    game has none)."""
    hook = getattr(rules, "can_win", None)
    return True if hook is None else bool(hook(pos, player))


class ClaimedDraws:
    """A game's rules in tournament play: everything as the game's own rules, except that
    ``outcome`` no longer ends the game at a threefold repetition or after fifty moves (FIDE
    9.2, 9.3: the player to move must claim them). Fivefold and seventy-five (9.6) still do."""

    def __init__(self, rules) -> None:
        self._rules = rules

    def __getattr__(self, name):
        return getattr(self._rules, name)

    def outcome(self, pos, claim_draw: bool = False):
        return self._rules.outcome(pos, claim_draw)

    @property
    def inner(self):
        return self._rules

    def __repr__(self) -> str:
        return f"ClaimedDraws({self._rules!r})"


def base_rules(rules):
    """The game's own rules under any :class:`ClaimedDraws` wrapper."""
    return rules.inner if isinstance(rules, ClaimedDraws) else rules


@dataclass(frozen=True)
class ClaimVerdict:
    """Whether a claim is right, and why in words for the record."""

    correct: bool
    kind: str
    repetitions: int
    halfmoves: int


def judge_claim(rules, pos, kind: str, intended: Move | None = None) -> ClaimVerdict:
    """A draw claim by the player to move: on the position now (it has just appeared) or, with
    ``intended``, on the one that move would give (9.2.1, 9.3.1). The position is restored."""
    if kind not in CLAIMS:
        raise ValueError(f"a claim is one of {', '.join(CLAIMS)}, got {kind!r}")
    base = base_rules(rules)
    if intended is not None:
        base.apply(pos, intended)
    try:
        repetitions = base.repetitions(pos) if hasattr(base, "repetitions") else 1
        clock = base.draw_clock(pos)
        halfmoves = clock[0] if clock is not None else 0
        limit = clock[1] if clock is not None else None
    finally:
        if intended is not None:
            base.undo(pos)
    if kind == "threefold":
        correct = repetitions >= 3
    else:
        correct = limit is not None and halfmoves >= limit
    return ClaimVerdict(correct, kind, repetitions, halfmoves)
