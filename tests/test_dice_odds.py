"""Exact fight odds against brute-force enumeration of every face of every die.

The brute force below shares no code with companion.dice.odds beyond the value types: it
walks every face of every die (``itertools.product``), combines and modifies them with its
own arithmetic, and plays rounds until a side wins or the third tie.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.dice.odds import (
    DiceSpec,
    Fighter,
    chess_kind,
    d6_only_dice,
    distribution,
    fight_odds,
    fighter_dice,
    round_odds,
    round_outcome,
    side_distribution,
    side_total,
    weapon_choice_side,
)
from companion.errors import DiceError

KINDS = ["pawn", "knight", "bishop", "rook", "queen", "king"]


# --- an independent brute force -----------------------------------------------------------


def _kept(spec: DiceSpec, faces: tuple[int, ...]) -> int:
    return {"highest": max, "lowest": min, "sum": sum}[spec.keep](faces)


def _face_ranges(fighters: list[Fighter]) -> list[range]:
    return [range(1, f.dice.sides + 1) for f in fighters for _ in range(f.dice.count)]


def _totals(fighters: list[Fighter], faces: tuple[int, ...]) -> int:
    """Split a flat tuple of faces among fighters; add each one's kept die and modifiers."""
    total, at = 0, 0
    for f in fighters:
        own = faces[at : at + f.dice.count]
        at += f.dice.count
        total += _kept(f.dice, own) + (1 if f.weapon_choice else 0) - f.fatigue
    return total


def every_round(attacker: list[Fighter], defender: list[Fighter]) -> list[tuple[int, int]]:
    """(attacker total, defender total) for every face combination of one round."""
    ranges = _face_ranges(attacker) + _face_ranges(defender)
    split = sum(f.dice.count for f in attacker)
    return [
        (_totals(attacker, faces[:split]), _totals(defender, faces[split:]))
        for faces in product(*ranges)
    ]


def brute_round(attacker, defender) -> tuple[Fraction, Fraction, Fraction]:
    rounds = every_round(attacker, defender)
    n = len(rounds)
    won = sum(a > d for a, d in rounds)
    tied = sum(a == d for a, d in rounds)
    return Fraction(won, n), Fraction(n - won - tied, n), Fraction(tied, n)


def brute_fight_tree(attacker, defender, max_ties=3) -> tuple[Fraction, Fraction, Fraction]:
    """Play every face combination of round 1; after each tie, every combination again.

    Each path of k rounds has probability 1/N^k (N = face combinations of one round).
    """
    ranges = _face_ranges(attacker) + _face_ranges(defender)
    split = sum(f.dice.count for f in attacker)
    n = 1
    for r in ranges:
        n *= len(r)
    won, lost, bounced = [0] * max_ties, [0] * max_ties, 0

    def play(depth: int) -> None:
        nonlocal bounced
        for faces in product(*ranges):
            a, d = _totals(attacker, faces[:split]), _totals(defender, faces[split:])
            if a > d:
                won[depth] += 1
            elif d > a:
                lost[depth] += 1
            elif depth + 1 == max_ties:
                bounced += 1
            else:
                play(depth + 1)

    play(0)
    p = lambda counts: sum(Fraction(c, n ** (k + 1)) for k, c in enumerate(counts))
    return p(won), p(lost), Fraction(bounced, n**max_ties)


def brute_fight_sequences(attacker, defender) -> tuple[Fraction, Fraction, Fraction]:
    """Literally every face of every die in all three rounds, each sequence equally likely;
    the first round that is not a tie decides, three ties bounce."""
    rounds = every_round(attacker, defender)
    won = lost = bounced = 0
    for sequence in product(rounds, repeat=3):
        for a, d in sequence:
            if a != d:
                won, lost = (won + 1, lost) if a > d else (won, lost + 1)
                break
        else:
            bounced += 1
    n = len(rounds) ** 3
    return Fraction(won, n), Fraction(lost, n), Fraction(bounced, n)


def as_tuple(odds) -> tuple[Fraction, Fraction, Fraction]:
    return odds.attacker, odds.defender, odds.bounce


def chess_fighters(attacker: str, defender: str, d6_only=False, fa=0, fd=0):
    plus_one = weapon_choice_side(attacker, defender)
    return (
        Fighter(fighter_dice(attacker, d6_only), fa, plus_one == "attacker"),
        Fighter(fighter_dice(defender, d6_only), fd, plus_one == "defender"),
    )


# --- dice --------------------------------------------------------------------------------


def test_pawns_roll_d6_rooks_knights_bishops_d8_queens_and_kings_d10():
    """Seed: "Pawns: 6-Sided die / Rooks, Knights, and Bishops: 8-Sided die / Queens and
    Kings: 10-Sided Die"."""
    expected = {"P": 6, "N": 8, "B": 8, "R": 8, "Q": 10, "K": 10}
    for letter, sides in expected.items():
        assert fighter_dice(letter) == DiceSpec(sides)
        assert fighter_dice(letter.lower()) == DiceSpec(sides)
        assert fighter_dice(chess_kind(letter)) == DiceSpec(sides)
    assert fighter_dice(" Queen ") == DiceSpec(10)


def test_only_d6s_stronger_pieces_roll_several_d6_and_take_the_highest():
    """Seed: "Pieces that normally roll an 8-Sided die roll twice, and pieces that normally
    roll a 10-sided roll 3 dice" ... "roll multiple dice and take the highest result"."""
    assert fighter_dice("P", d6_only=True) == DiceSpec(6)
    for kind in ("N", "B", "R"):
        assert fighter_dice(kind, d6_only=True) == DiceSpec(6, 2, "highest")
    for kind in ("Q", "K"):
        assert fighter_dice(kind, d6_only=True) == DiceSpec(6, 3, "highest")
    assert DiceSpec(6, 3).combine([2, 6, 4]) == 6


def test_only_d6s_has_no_rule_for_other_dice():
    with pytest.raises(DiceError, match="d12"):
        d6_only_dice(12)


@pytest.mark.parametrize(
    "spec",
    [DiceSpec(6), DiceSpec(8), DiceSpec(10), DiceSpec(6, 2), DiceSpec(6, 3),
     DiceSpec(6, 2, "lowest"), DiceSpec(6, 3, "sum"), DiceSpec(4, 2, "sum")],
    ids=str,
)
def test_distribution_of_one_roll_equals_enumerating_every_face(spec):
    counts: dict[int, int] = {}
    for faces in product(range(1, spec.sides + 1), repeat=spec.count):
        value = _kept(spec, faces)
        counts[value] = counts.get(value, 0) + 1
    total = spec.sides**spec.count
    assert distribution(spec) == {v: Fraction(c, total) for v, c in sorted(counts.items())}
    assert sum(distribution(spec).values()) == 1


def test_dice_notation_round_trips_and_is_pasteable():
    for spec in (DiceSpec(6), DiceSpec(10), DiceSpec(6, 2), DiceSpec(6, 3, "lowest"), DiceSpec(6, 3, "sum")):
        assert DiceSpec.from_notation(spec.notation()) == spec
        assert eval(repr(spec)) == spec
    assert DiceSpec.from_notation("2d6kh") == DiceSpec(6, 2, "highest")
    assert DiceSpec.from_notation("1d8") == DiceSpec(8)
    assert DiceSpec(6, 1, "sum") == DiceSpec(6)  # one die: nothing to keep or add


@pytest.mark.parametrize(
    "make, words",
    [
        (lambda: DiceSpec(1), "sides"),
        (lambda: DiceSpec(0), "sides"),
        (lambda: DiceSpec(True), "sides"),
        (lambda: DiceSpec(6, 0), "count"),
        (lambda: DiceSpec(6, 2, "median"), "keep"),
        (lambda: DiceSpec.from_notation("2x6"), "not dice notation"),
        (lambda: DiceSpec.from_notation("d"), "not dice notation"),
        (lambda: DiceSpec.from_notation("d1"), "sides"),
    ],
)
def test_impossible_dice_specs_are_refused(make, words):
    with pytest.raises(DiceError, match=words):
        make()


@pytest.mark.parametrize(
    "faces, words",
    [([9], "a d8 shows 1 to 8; 9 is not possible"), ([0], "0 is not possible"),
     ([3, 4], "needs 1 die; 2 numbers"), ([], "needs 1 die; 0 numbers"), ([2.0], "whole number"),
     ([True], "whole number"), ("5", "list")],
)
def test_faces_that_a_die_cannot_show_are_refused(faces, words):
    with pytest.raises(DiceError, match=words):
        DiceSpec(8).combine(faces)


# --- modifiers ---------------------------------------------------------------------------


def test_weapon_choice_adds_one_to_the_combat_roll():
    """Seed: "the piece that gets weapon choice gets to add +1 to their Combat roll"."""
    plain, armed = Fighter(DiceSpec(6)), Fighter(DiceSpec(6), weapon_choice=True)
    assert armed.total([4]) == plain.total([4]) + 1 == 5
    assert side_distribution(armed) == {v + 1: p for v, p in distribution(DiceSpec(6)).items()}
    # d6+1 against d6: the attacker wins on a >= d (21 of 36), ties on a + 1 == d (5 of 36).
    one = round_odds(armed, plain)
    assert (one.attacker, one.defender, one.tie) == brute_round([armed], [plain])
    assert round_odds(armed, plain).attacker == Fraction(21, 36)
    assert round_odds(armed, plain).tie == Fraction(5, 36)


def test_weapon_choice_is_usually_the_attacker_but_kings_always_get_it():
    """Seed: "This is usually the attacker, but the Kings always get weapon choice if/when
    they fight." King against King: the attacking King (rules-notes)."""
    for attacker in KINDS:
        for defender in KINDS:
            expected = "defender" if defender == "king" and attacker != "king" else "attacker"
            assert weapon_choice_side(attacker, defender) == expected
    assert weapon_choice_side("K", "k") == "attacker"


def test_fatigue_takes_one_off_the_roll_for_every_previous_fight():
    """Seed: "for every previous fight a piece has had they will take -1 on their combat
    rolls"."""
    for fatigue in range(4):
        assert Fighter(DiceSpec(8), fatigue).total([5]) == 5 - fatigue
    tired, fresh = Fighter(DiceSpec(8), 2), Fighter(DiceSpec(8))
    assert fight_odds(fresh, tired).attacker > fight_odds(fresh, fresh).attacker


def test_fatigue_has_no_limit_and_no_floor_on_the_roll():
    """Seed: "There is no limit to the number of Fatigue Tokens that may be given to a single
    piece". No floor: a roll may go to 0 or below and is still compared, so two worn-out
    fighters keep their ordinary odds instead of tying at a floor."""
    worn = Fighter(DiceSpec(6), fatigue=20)
    assert worn.total([6]) == -14
    assert fight_odds(worn, Fighter(DiceSpec(6))).attacker == 0
    both_worn = fight_odds(Fighter(DiceSpec(8), 9), Fighter(DiceSpec(8), 9))
    assert both_worn == fight_odds(Fighter(DiceSpec(8)), Fighter(DiceSpec(8)))


@pytest.mark.parametrize(
    "make", [lambda: Fighter(DiceSpec(6), -1), lambda: Fighter(DiceSpec(6), 1.5),
             lambda: Fighter(DiceSpec(6), weapon_choice="yes"), lambda: Fighter("d6")],
)
def test_impossible_fighters_are_refused(make):
    with pytest.raises(DiceError):
        make()


# --- rounds and ties ---------------------------------------------------------------------


def test_the_higher_roll_wins_each_round_for_every_pair_of_pieces_and_modifiers():
    """Seed: "Each side rolls a die for their Combat Roll, applies a few modifiers, and the
    higher roll wins." Every face of both dice, every pair of pieces, fatigue 0-2."""
    for attacker in KINDS:
        for defender in KINDS:
            for fa, fd in ((0, 0), (2, 0), (0, 1), (1, 2)):
                a, d = chess_fighters(attacker, defender, fa=fa, fd=fd)
                one = round_odds(a, d)
                assert (one.attacker, one.defender, one.tie) == brute_round([a], [d])


def test_a_tie_rolls_again_and_the_third_tie_ends_the_fight_for_every_pair_of_pieces():
    """Seed: "If a Combat Roll is a tie, each fighter should roll again using the same
    modifiers. If the Combat Roll ties 3 times, the fight is ended". Every face of every die
    in every round that is played (up to three), for every pair of pieces."""
    for attacker in KINDS:
        for defender in KINDS:
            for fa, fd in ((0, 0), (1, 3)):
                a, d = chess_fighters(attacker, defender, fa=fa, fd=fd)
                assert as_tuple(fight_odds(a, d)) == brute_fight_tree([a], [d])


@pytest.mark.parametrize("pair", [("P", "P"), ("N", "P"), ("P", "K")])
def test_three_ties_means_the_third_consecutive_tie_over_all_three_rounds_of_faces(pair):
    """Seed: "If the Combat Roll ties 3 times, the fight is ended". Every sequence of faces
    across three rounds, equally likely: the fight bounces exactly when all three tie."""
    a, d = chess_fighters(*pair)
    assert as_tuple(fight_odds(a, d)) == brute_fight_sequences([a], [d])
    t = round_odds(a, d).tie
    assert fight_odds(a, d).bounce == t**3


def test_max_ties_sets_how_many_ties_end_the_fight():
    a, d = Fighter(DiceSpec(6)), Fighter(DiceSpec(6))
    assert as_tuple(fight_odds(a, d, max_ties=1)) == brute_fight_tree([a], [d], max_ties=1)
    assert as_tuple(fight_odds(a, d, max_ties=2)) == brute_fight_tree([a], [d], max_ties=2)
    assert fight_odds(a, d, max_ties=1).bounce == Fraction(1, 6)
    for bad in (0, -1, 2.5, True):
        with pytest.raises(DiceError, match="max_ties"):
            fight_odds(a, d, max_ties=bad)


def test_round_outcome_the_third_tie_is_a_bounce():
    assert round_outcome(5, 3, 1) == "attacker"
    assert round_outcome(3, 5, 3) == "defender"
    assert round_outcome(4, 4, 1) == "tie"
    assert round_outcome(4, 4, 2) == "tie"
    assert round_outcome(4, 4, 3) == "bounce"
    assert round_outcome(4, 4, 1, max_ties=1) == "bounce"
    for bad in (0, 4, "1"):
        with pytest.raises(DiceError, match="round number"):
            round_outcome(4, 4, bad)


def test_only_d6s_keeps_the_usual_modifiers_in_every_round():
    """Seed: "The usual modifiers still apply." Rounds of d6-only fights, every face; whole
    fights (up to three rounds) where the face space is small enough to walk."""
    for attacker in KINDS:
        for defender in KINDS:
            a, d = chess_fighters(attacker, defender, d6_only=True, fa=1)
            one = round_odds(a, d)
            if a.dice.count + d.dice.count <= 4:
                assert (one.attacker, one.defender, one.tie) == brute_round([a], [d])
    for pair in (("N", "P"), ("P", "B")):
        a, d = chess_fighters(*pair, d6_only=True, fd=1)
        assert as_tuple(fight_odds(a, d)) == brute_fight_tree([a], [d])


def test_only_d6s_queen_against_king_one_round_every_face():
    """3d6 keep highest against 3d6 keep highest (+1 for the King): all 46,656 faces."""
    a, d = chess_fighters("Q", "K", d6_only=True)
    one = round_odds(a, d)
    assert (one.attacker, one.defender, one.tie) == brute_round([a], [d])


# --- King's Prerogative ------------------------------------------------------------------


@pytest.mark.slow
def test_kings_prerogative_one_king_die_against_the_sum_of_their_dice():
    """Seed: "The King rolls one Combat die as normal, while the opposing pieces roll all
    necessary dice and add them together. All of the usual modifiers apply, so the King will
    receive a bonus for Weapon Choice, and all fatigue markers will deduct from that side's
    Combat Roll." King (d10 +1, 1 fatigue) against a rook (d8, 2 fatigue) defended by a pawn
    (d6, 1 fatigue): every face of all three dice in every round played."""
    king = Fighter(DiceSpec(10), fatigue=1, weapon_choice=True)
    rook, pawn = Fighter(DiceSpec(8), fatigue=2), Fighter(DiceSpec(6), fatigue=1)
    odds = fight_odds(king, [rook, pawn])
    assert as_tuple(odds) == brute_fight_tree([king], [rook, pawn])
    assert sum(as_tuple(odds)) == 1
    assert side_distribution([rook, pawn]) == {
        v: p for v, p in _convolve(distribution(DiceSpec(8)), -2, distribution(DiceSpec(6)), -1).items()
    }


def _convolve(first, shift_first, second, shift_second):
    out: dict[int, Fraction] = {}
    for a, p in first.items():
        for b, q in second.items():
            out[a + shift_first + b + shift_second] = out.get(a + shift_first + b + shift_second, 0) + p * q
    return dict(sorted(out.items()))


def test_kings_prerogative_against_three_pieces_one_round_every_face():
    king = Fighter(DiceSpec(10), weapon_choice=True)
    defenders = [Fighter(DiceSpec(8), 1), Fighter(DiceSpec(6)), Fighter(DiceSpec(6), 3)]
    one = round_odds([king], defenders)
    assert (one.attacker, one.defender, one.tie) == brute_round([king], defenders)
    assert side_total(defenders, [[8], [1], [6]]) == 7 + 1 + 3


def test_a_side_needs_a_fighter_and_faces_for_each_fighter():
    with pytest.raises(DiceError, match="no fighter"):
        fight_odds([], Fighter(DiceSpec(6)))
    with pytest.raises(DiceError, match="not a Fighter"):
        fight_odds([DiceSpec(6)], Fighter(DiceSpec(6)))
    with pytest.raises(DiceError, match="needs 2 list"):
        side_total([Fighter(DiceSpec(6)), Fighter(DiceSpec(6))], [[3]])


@pytest.mark.parametrize("kind", ["X", "", "pawns", "queenside", None])
def test_unknown_piece_kinds_are_refused_with_the_choices(kind):
    with pytest.raises(DiceError, match="P N B R Q K"):
        fighter_dice(kind)


# --- properties --------------------------------------------------------------------------

specs = st.builds(
    DiceSpec, st.integers(2, 12), st.integers(1, 3), st.sampled_from(["highest", "lowest", "sum"])
)
fighters = st.builds(Fighter, specs, st.integers(0, 12), st.booleans())


@settings(max_examples=60, deadline=None)
@given(st.lists(fighters, min_size=1, max_size=2), st.lists(fighters, min_size=1, max_size=3),
       st.integers(1, 4))
def test_the_three_outcomes_of_any_fight_sum_to_exactly_one(attacker, defender, max_ties):
    odds = fight_odds(attacker, defender, max_ties)
    assert odds.attacker + odds.defender + odds.bounce == 1
    assert all(isinstance(p, Fraction) and 0 <= p <= 1 for p in as_tuple(odds))
    mirrored = fight_odds(defender, attacker, max_ties)
    assert (mirrored.attacker, mirrored.defender, mirrored.bounce) == (odds.defender, odds.attacker, odds.bounce)
