"""The arithmetic of a dice fight, exact, with no randomness.

A fighter is a die spec plus modifiers (``Fighter``), so the same code serves any game that
settles a duel by "each side rolls, adds its modifiers, the higher total wins". Human Combat
Chess is one user: ``fighter_dice`` maps its piece kinds to dice and ``weapon_choice_side``
says who gets the +1.

Everything here is a pure function of its arguments and every probability is a
``fractions.Fraction``, so the odds shown before a player commits are exact and the three
outcomes of a fight sum to exactly 1. The same module scores a round from the faces that were
actually rolled (``side_total``, ``round_outcome``), so the odds and the play cannot disagree
about the rules.

Decisions (quoted from the seed in docs/rules/combat-dice.md):
- modified roll = kept die + 1 for weapon choice - fatigue, with no floor: the seed sets no
  minimum and only the comparison matters;
- a tie is re-rolled with the same modifiers; the ``max_ties``-th tie (default 3: "If the
  Combat Roll ties 3 times") ends the fight as a bounce;
- a side of several fighters (King's Prerogative) totals the modified rolls of its fighters.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Sequence

from companion.bounds import whole_number
from companion.errors import DiceError
from companion.i18n import N_, _, ngettext

KEEP_RULES = ("highest", "lowest", "sum")
"""How several dice of one roll combine: keep the highest, keep the lowest, or add them up."""

OUTCOMES = ("attacker", "defender", "tie", "bounce")
"""Result of one round: a side won, a tie to re-roll, or the last allowed tie (fight over)."""

DEFAULT_MAX_TIES = 3
"""Seed: "If the Combat Roll ties 3 times, the fight is ended"."""

MAX_SIDES = 100
"""The most faces a die may have (a d100); a record or notation asking for more is refused."""

MAX_DICE = 10
"""The most dice one fighter may roll at once (the game's largest is 3d6)."""

MAX_FATIGUE = 999
"""The most fatigue tokens a position text or the command line may give a fighter."""

_NOTATION = re.compile(r"([0-9]*)d([0-9]+)(kh|kl)?")
_KEEP_SUFFIX = {"highest": "kh", "lowest": "kl", "sum": ""}


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class DiceSpec:
    """What one fighter rolls: ``count`` dice with ``sides`` faces each, combined by ``keep``.

    ``DiceSpec(8)`` is a d8; ``DiceSpec(6, 2)`` is "roll 2d6 and keep the highest" (the
    "only d6's" stand-in for a d8). With one die the keep rule means nothing, so it is
    normalised to "highest" and ``DiceSpec(6, 1, "sum") == DiceSpec(6)``.
    Notation round trip: ``DiceSpec.from_notation(spec.notation()) == spec``.
    """

    sides: int
    count: int = 1
    keep: str = "highest"

    def __post_init__(self) -> None:
        for name, value, least, most in (("sides", self.sides, 2, MAX_SIDES), ("count", self.count, 1, MAX_DICE)):
            if not _is_int(value) or not least <= value <= most:
                raise DiceError(_("dice {name} must be a whole number from {least} to {most}, got {value!r}").format(name=name, least=least, most=most, value=value))
        if self.keep not in KEEP_RULES:
            raise DiceError(
                _("dice keep rule must be one of {items}, got {keep!r}").format(items=', '.join(KEEP_RULES), keep=self.keep)
            )
        if self.count == 1 and self.keep != "highest":
            object.__setattr__(self, "keep", "highest")

    @classmethod
    def from_notation(cls, text: str) -> DiceSpec:
        """Parse ``d8``, ``2d6kh`` (keep highest), ``2d6kl`` (keep lowest), ``3d6`` (sum)."""
        match = _NOTATION.fullmatch(text.strip()) if isinstance(text, str) else None
        if match is None:
            raise DiceError(
                _("{text!r} is not dice notation; expected e.g. d6, d8, 2d6kh (keep highest), 2d6kl (keep lowest) or 3d6 (sum)").format(text=text)
            )
        count_text, sides_text, suffix = match.groups()
        count = whole_number(count_text, _("dice {text!r}: the count").format(text=text), DiceError, 1, MAX_DICE) if count_text else 1
        sides = whole_number(sides_text, _("dice {text!r}: the sides").format(text=text), DiceError, 2, MAX_SIDES)
        keep = {"kh": "highest", "kl": "lowest", None: "sum"}[suffix]
        return cls(sides, count, keep if count > 1 else "highest")

    def notation(self) -> str:
        """Short text form, e.g. ``d10`` or ``3d6kh``; inverse of ``from_notation``."""
        if self.count == 1:
            return f"d{self.sides}"
        return f"{self.count}d{self.sides}{_KEEP_SUFFIX[self.keep]}"

    def __str__(self) -> str:
        return self.notation()

    def describe(self) -> str:
        """Words for a person entering dice: "a d8", "2d6, keep the highest"."""
        if self.count == 1:
            return _("a d{sides}").format(sides=self.sides)
        return _(_DESCRIBE_KEEP[self.keep]).format(count=self.count, sides=self.sides)

    def check_faces(self, faces: Sequence[int]) -> None:
        """Raise DiceError unless ``faces`` are exactly the dice this spec rolls."""
        if isinstance(faces, (str, bytes)) or not isinstance(faces, Sequence):
            raise DiceError(_("dice faces must be a list of whole numbers, got {faces!r}").format(faces=faces))
        if len(faces) != self.count:
            given = ngettext("{n} number was given", "{n} numbers were given", len(faces)).format(n=len(faces))
            raise DiceError(
                ngettext("{dice} needs {count} die; {given}", "{dice} needs {count} dice; {given}", self.count)
                .format(dice=self.describe(), count=self.count, given=given)
            )
        for face in faces:
            if not _is_int(face):
                raise DiceError(_("a die shows a whole number; {face!r} is not one").format(face=face))
            if not 1 <= face <= self.sides:
                raise DiceError(
                    _("a d{sides} shows 1 to {sides}; {face} is not possible").format(sides=self.sides, face=face)
                )

    def combine(self, faces: Sequence[int]) -> int:
        """The roll these faces make: the kept die, or the sum."""
        self.check_faces(faces)
        if self.keep == "highest":
            return max(faces)
        if self.keep == "lowest":
            return min(faces)
        return sum(faces)


@dataclass(frozen=True)
class Fighter:
    """One fighter's roll: its dice and the modifiers the rules give it.

    Modified roll = combined dice + 1 if it has weapon choice - its fatigue. There is no
    floor: a tired fighter can total 0 or less; totals are only ever compared.
    """

    dice: DiceSpec
    fatigue: int = 0
    weapon_choice: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.dice, DiceSpec):
            raise DiceError(f"a fighter's dice must be a DiceSpec, got {self.dice!r}")
        if not _is_int(self.fatigue) or self.fatigue < 0:
            raise DiceError(_("fatigue must be a whole number of 0 or more, got {fatigue!r}").format(fatigue=self.fatigue))
        if not isinstance(self.weapon_choice, bool):
            raise DiceError(_("weapon_choice must be True or False, got {weapon_choice!r}").format(weapon_choice=self.weapon_choice))

    @property
    def modifier(self) -> int:
        """What is added to the dice: +1 for weapon choice, -1 per fatigue token."""
        return (1 if self.weapon_choice else 0) - self.fatigue

    def total(self, faces: Sequence[int]) -> int:
        """The modified combat roll for these faces."""
        return self.dice.combine(faces) + self.modifier


@dataclass(frozen=True)
class RoundOdds:
    """One round: P(attacker higher), P(defender higher), P(tie)."""

    attacker: Fraction
    defender: Fraction
    tie: Fraction


@dataclass(frozen=True)
class FightOdds:
    """A whole fight: P(attacker wins), P(defender wins), P(it bounces on the last tie)."""

    attacker: Fraction
    defender: Fraction
    bounce: Fraction


def distribution(spec: DiceSpec) -> dict[int, Fraction]:
    """Exact probability of each value of one roll of ``spec`` (keys ascending)."""
    s, k = spec.sides, spec.count
    whole = Fraction(1, s**k)
    if spec.keep == "highest":  # P(max <= m) = (m/s)^k
        return {m: (m**k - (m - 1) ** k) * whole for m in range(1, s + 1)}
    if spec.keep == "lowest":  # P(min >= m) = ((s-m+1)/s)^k
        return {m: ((s - m + 1) ** k - (s - m) ** k) * whole for m in range(1, s + 1)}
    counts = {0: 1}
    for _ in range(k):
        step: dict[int, int] = {}
        for total, ways in counts.items():
            for face in range(1, s + 1):
                step[total + face] = step.get(total + face, 0) + ways
        counts = step
    return {total: ways * whole for total, ways in sorted(counts.items())}


#: Dice of more than one die in words, by the keep rule.
_DESCRIBE_KEEP = {"sum": N_("{count}d{sides}, added up"), "highest": N_("{count}d{sides}, keep the highest"),
                  "lowest": N_("{count}d{sides}, keep the lowest")}

#: A side without a fighter, by the side's role.
_NO_FIGHTER = {"fighting": N_("a side of the fight has no fighter"), "attacker": N_("the attacker has no fighter"),
               "defender": N_("the defender has no fighter")}


def _as_side(fighters: Fighter | Sequence[Fighter], role: str) -> tuple[Fighter, ...]:
    side = (fighters,) if isinstance(fighters, Fighter) else tuple(fighters)
    if not side:
        raise DiceError(_(_NO_FIGHTER[role]))
    for fighter in side:
        if not isinstance(fighter, Fighter):
            raise DiceError(f"the {role} side holds {fighter!r}, which is not a Fighter")
    return side


def side_distribution(fighters: Fighter | Sequence[Fighter]) -> dict[int, Fraction]:
    """Exact distribution of a side's total: the sum of each fighter's modified roll."""
    result = {0: Fraction(1)}
    for fighter in _as_side(fighters, "fighting"):
        step: dict[int, Fraction] = {}
        for value, p in distribution(fighter.dice).items():
            shifted = value + fighter.modifier
            for total, q in result.items():
                step[total + shifted] = step.get(total + shifted, Fraction(0)) + p * q
        result = step
    return dict(sorted(result.items()))


def round_odds(
    attacker: Fighter | Sequence[Fighter], defender: Fighter | Sequence[Fighter]
) -> RoundOdds:
    """Odds of one round between two sides (a side is one fighter or several summed)."""
    a = side_distribution(_as_side(attacker, "attacker"))
    d = side_distribution(_as_side(defender, "defender"))
    win = tie = Fraction(0)
    below = Fraction(0)  # P(defender total < v), accumulated in ascending v
    d_values = sorted(d)
    i = 0
    for v in sorted(a):
        while i < len(d_values) and d_values[i] < v:
            below += d[d_values[i]]
            i += 1
        win += a[v] * below
        tie += a[v] * d.get(v, Fraction(0))
    return RoundOdds(attacker=win, defender=1 - win - tie, tie=tie)


def fight_odds(
    attacker: Fighter | Sequence[Fighter],
    defender: Fighter | Sequence[Fighter],
    max_ties: int = DEFAULT_MAX_TIES,
) -> FightOdds:
    """Odds of a whole fight: rounds are re-rolled on a tie; the ``max_ties``-th tie bounces.

    P(attacker) = p_a (1 + t + ... + t^(n-1)), likewise the defender, bounce = t^n, with n =
    ``max_ties``; the three add up to exactly 1.
    """
    if not _is_int(max_ties) or max_ties < 1:
        raise DiceError(_("max_ties must be a whole number of at least 1, got {max_ties!r}").format(max_ties=max_ties))
    one = round_odds(attacker, defender)
    reach = Fraction(1)  # P(the fight is still on at the start of this round)
    won = lost = Fraction(0)
    for _round in range(max_ties):
        won += reach * one.attacker
        lost += reach * one.defender
        reach *= one.tie
    return FightOdds(attacker=won, defender=lost, bounce=reach)


def side_total(fighters: Fighter | Sequence[Fighter], faces: Sequence[Sequence[int]]) -> int:
    """A side's total for one round: each fighter's modified roll for its own faces, summed."""
    side = _as_side(fighters, "fighting")
    if isinstance(faces, (str, bytes)) or len(faces) != len(side):
        raise DiceError(
            ngettext("a side of {n} fighter needs {n} list of faces, got {faces!r}",
                     "a side of {n} fighters needs {n} lists of faces, got {faces!r}", len(side)).format(n=len(side), faces=faces)
        )
    return sum(fighter.total(own) for fighter, own in zip(side, faces))


def round_outcome(
    attacker_total: int, defender_total: int, round_number: int, max_ties: int = DEFAULT_MAX_TIES
) -> str:
    """"attacker"/"defender" for the higher total; a tie is "tie", or "bounce" in the last round.

    ``round_number`` counts from 1; round ``max_ties`` is the last one a tie can happen in.
    """
    if not _is_int(max_ties) or max_ties < 1:
        raise DiceError(_("max_ties must be a whole number of at least 1, got {max_ties!r}").format(max_ties=max_ties))
    if not _is_int(round_number) or not 1 <= round_number <= max_ties:
        raise DiceError(_("round number must be 1 to {max_ties}, got {round_number!r}").format(max_ties=max_ties, round_number=round_number))
    if attacker_total > defender_total:
        return "attacker"
    if defender_total > attacker_total:
        return "defender"
    return "bounce" if round_number == max_ties else "tie"


# --- Human Combat Chess: which dice each piece rolls and who has weapon choice -------------

CHESS_KINDS = {"pawn": 6, "knight": 8, "bishop": 8, "rook": 8, "queen": 10, "king": 10}
"""Seed: "Pawns: 6-Sided die / Rooks, Knights, and Bishops: 8-Sided die / Queens and Kings:
10-Sided Die"."""

_LETTERS = {"p": "pawn", "n": "knight", "b": "bishop", "r": "rook", "q": "queen", "k": "king"}

D6_ONLY = {6: DiceSpec(6), 8: DiceSpec(6, 2, "highest"), 10: DiceSpec(6, 3, "highest")}
"""Seed: "Pieces that normally roll an 8-Sided die roll twice, and pieces that normally roll a
10-sided roll 3 dice" and "take the highest result"."""


def chess_kind(kind: str) -> str:
    """Canonical name ("pawn" ... "king") for a name or letter (P N B R Q K, either case)."""
    key = kind.strip() if isinstance(kind, str) else ""
    name = _LETTERS.get(key.lower()) if len(key) == 1 else key.lower()
    if name not in CHESS_KINDS:
        raise DiceError(
            _("{kind!r} is not a chess piece; use one of P N B R Q K (or pawn, knight, bishop, rook, queen, king)").format(kind=kind)
        )
    return name


def d6_only_dice(sides: int) -> DiceSpec:
    """The "only d6's" stand-in for a die of ``sides`` faces (6, 8 or 10)."""
    if sides not in D6_ONLY:
        raise DiceError(_("'only d6's' mode covers d6, d8 and d10; there is no rule for a d{sides}").format(sides=sides))
    return D6_ONLY[sides]


def fighter_dice(kind: str, d6_only: bool = False) -> DiceSpec:
    """The dice a chess piece rolls, in the normal or the "only d6's" mode."""
    sides = CHESS_KINDS[chess_kind(kind)]
    return d6_only_dice(sides) if d6_only else DiceSpec(sides)


def weapon_choice_side(attacker_kind: str, defender_kind: str) -> str:
    """Who adds +1: the attacker, unless only the defender is a King (King vs King: attacker).

    Seed: "This is usually the attacker, but the Kings always get weapon choice if/when they
    fight."
    """
    attacker_is_king = chess_kind(attacker_kind) == "king"
    defender_is_king = chess_kind(defender_kind) == "king"
    return "defender" if defender_is_king and not attacker_is_king else "attacker"
