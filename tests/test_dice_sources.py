"""Dice sources: seeded (re-derivable), system (secure), entered (the players' own dice)."""

from __future__ import annotations

import hashlib
import hmac

import pytest

from companion.dice.odds import DiceSpec
from companion.dice.sources import (
    DiceRequest,
    EnteredDice,
    SeededDice,
    SystemDice,
    commitment_of,
    derivation_message,
    face_from_digests,
    new_seed,
    seeded_face,
    validate_entry,
)
from companion.errors import DiceError

SEED = b"tournament seed for tests, 32 b."


def arbiter_face(seed: bytes, address: str, sides: int) -> int:
    """The arbiter's recipe, written from the documentation with hashlib and hmac only."""
    attempt = 0
    while True:
        message = address if attempt == 0 else f"{address}/{attempt}"
        value = int.from_bytes(hmac.new(seed, message.encode(), hashlib.sha256).digest(), "big")
        if value < 2**256 - 2**256 % sides:
            return value % sides + 1
        attempt += 1


# --- seeded ------------------------------------------------------------------------------


def test_seeded_dice_are_reproducible_roll_for_roll():
    """Issue: "Seeded games are reproducible roll for roll"."""
    first, second = SeededDice(SEED), SeededDice(SEED)
    rolls = [(DiceSpec(s), str(f), r, side) for s in (6, 8, 10) for f in (1, 2) for r in (1, 2, 3)
             for side in ("attacker", "defender")]
    assert [first.roll(*x) for x in rolls] == [second.roll(*x) for x in rolls]
    assert [first.roll(*x) for x in rolls] != [SeededDice(b"another seed").roll(*x) for x in rolls]


def test_a_seeded_roll_does_not_depend_on_the_order_of_rolls():
    forward, backward = SeededDice(SEED), SeededDice(SEED)
    addresses = [(str(f), r, side) for f in range(1, 6) for r in (1, 2) for side in ("attacker", "defender")]
    ahead = {a: forward.roll(DiceSpec(10), *a) for a in addresses}
    behind = {a: backward.roll(DiceSpec(10), *a) for a in reversed(addresses)}
    assert ahead == behind


def test_a_seeded_face_is_hmac_sha256_of_its_address_mapped_without_bias():
    dice = SeededDice(SEED)
    for fight in range(1, 30):
        for side in ("attacker", "defender"):
            faces = dice.roll(DiceSpec(6, 3), str(fight), 2, side)
            assert faces == [arbiter_face(SEED, f"{fight}/2/{side}/{i}", 6) for i in range(3)]


def test_die_indices_run_on_across_the_fighters_of_a_side():
    """King's Prerogative: the defending side's dice are numbered 0, 1, 2, ... in order."""
    faces = SeededDice(SEED).roll_side([DiceSpec(8), DiceSpec(6, 2), DiceSpec(6)], "7", 1, "defender")
    assert faces == [
        [seeded_face(SEED, "7", 1, "defender", 0, 8)],
        [seeded_face(SEED, "7", 1, "defender", 1, 6), seeded_face(SEED, "7", 1, "defender", 2, 6)],
        [seeded_face(SEED, "7", 1, "defender", 3, 6)],
    ]


def test_rejection_sampling_discards_a_draw_above_the_largest_multiple():
    top = (2**256 - 1).to_bytes(32, "big")  # 2^256 mod 6 = 4: the top 4 values are rejected
    seven = (7).to_bytes(32, "big")
    assert face_from_digests([top, seven], 6) == 7 % 6 + 1
    assert face_from_digests([top], 8) == 8  # 8 divides 2^256: nothing is ever rejected
    with pytest.raises(DiceError, match="digest stream"):
        face_from_digests([top], 10)
    assert derivation_message("3", 1, "attacker", 0) == b"3/1/attacker/0"
    assert derivation_message("3", 1, "attacker", 0, attempt=2) == b"3/1/attacker/0/2"


def test_seeded_faces_cover_every_face_about_equally():
    """A sanity check of the mapping (deterministic: fixed seed, 6,000 addresses)."""
    dice = SeededDice(SEED)
    counts = {face: 0 for face in range(1, 7)}
    for fight in range(1, 1001):
        for face in dice.roll(DiceSpec(6, 6, "sum"), str(fight), 1, "attacker"):
            counts[face] += 1
    assert all(900 <= n <= 1100 for n in counts.values()), counts


def test_commitment_is_sha256_of_the_seed_and_reveal_gives_the_seed():
    """Issue: "a seeded game publishes the SHA-256 of its seed when it starts and reveals the
    seed when it ends"."""
    dice = SeededDice(SEED)
    assert dice.commitment == hashlib.sha256(SEED).hexdigest() == commitment_of(SEED)
    assert dice.reveal() == SEED
    assert SeededDice("text seed").reveal() == b"text seed"
    assert SeededDice("text seed").commitment == hashlib.sha256(b"text seed").hexdigest()
    assert SEED.hex() not in repr(dice) and "tournament" not in repr(dice)
    assert len(new_seed()) == 32 and new_seed() != new_seed()


@pytest.mark.parametrize(
    "call, words",
    [
        (lambda: SeededDice(b""), "seed"),
        (lambda: SeededDice(42), "seed"),
        (lambda: SeededDice(SEED).roll(DiceSpec(6), "1/2", 1, "attacker"), "fight id"),
        (lambda: SeededDice(SEED).roll(DiceSpec(6), "", 1, "attacker"), "fight id"),
        (lambda: SeededDice(SEED).roll(DiceSpec(6), "1", 1, "att/acker"), "side"),
        (lambda: SeededDice(SEED).roll(DiceSpec(6), "1", -1, "attacker"), "roll index"),
        (lambda: SystemDice().roll(DiceSpec(6), "1", True, "attacker"), "roll index"),
    ],
)
def test_bad_seeds_and_ambiguous_addresses_are_refused(call, words):
    with pytest.raises(DiceError, match=words):
        call()


# --- system ------------------------------------------------------------------------------


def test_system_dice_give_the_right_number_of_faces_in_range():
    dice = SystemDice()
    assert dice.name == "system" and dice.commitment is None
    seen = set()
    for _ in range(300):
        faces = dice.roll(DiceSpec(10, 2), "1", 1, "attacker")
        assert len(faces) == 2 and all(1 <= f <= 10 for f in faces)
        seen.update(faces)
    assert seen == set(range(1, 11))
    assert [len(f) for f in dice.roll_side([DiceSpec(8), DiceSpec(6, 3)], "2", 1, "defender")] == [1, 3]


# --- entered -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "spec, faces, message",
    [
        (DiceSpec(8), [9], "a d8 shows 1 to 8; 9 is not possible"),
        (DiceSpec(10), [0], "a d10 shows 1 to 10; 0 is not possible"),
        (DiceSpec(6), ["-1"], "a d6 shows 1 to 6; -1 is not possible"),
        (DiceSpec(6, 2), [3, 7], "a d6 shows 1 to 6; 7 is not possible"),
        (DiceSpec(6, 2), [3], "2d6, keep the highest needs 2 dice; 1 number was given"),
        (DiceSpec(6, 3), [1, 2, 3, 4], "3d6, keep the highest needs 3 dice; 4 numbers were given"),
        (DiceSpec(8), [], "a d8 needs 1 die; 0 numbers were given"),
        (DiceSpec(8), ["five"], "'five' is not one"),
        (DiceSpec(8), ["5.5"], "'5.5' is not one"),
        (DiceSpec(8), [5.0], "5.0 is not one"),
        (DiceSpec(8), [True], "True is not one"),
        (DiceSpec(8), [None], "None is not one"),
        (DiceSpec(8), ["--3"], "'--3' is not one"),
        (DiceSpec(8), "5", "list of numbers"),
    ],
)
def test_entered_dice_out_of_range_wrong_count_or_not_a_number_are_refused(spec, faces, message):
    """Issue: "a number outside the die's range is refused with a clear message"."""
    with pytest.raises(DiceError) as refused:
        validate_entry(spec, faces)
    assert message in str(refused.value)


def test_entered_dice_accept_typed_text_and_numbers():
    assert validate_entry(DiceSpec(8), ["8"]) == [8]
    assert validate_entry(DiceSpec(6, 3), [" 1", 6, "+4 "]) == [1, 6, 4]


def test_a_refused_entry_changes_nothing_and_can_be_entered_again():
    """Issue: "... refused with a clear message and nothing changes"."""
    answers = iter([["9"], ["7"], ["2", "6"]])
    asked: list[DiceRequest] = []

    def ask(request: DiceRequest):
        asked.append(request)
        return next(answers)

    dice = EnteredDice(ask)
    specs = [DiceSpec(8), DiceSpec(6, 2)]
    with pytest.raises(DiceError, match="a d8 shows 1 to 8; 9 is not possible"):
        dice.roll_side(specs, "4", 2, "defender")
    assert dice.roll_side(specs, "4", 2, "defender") == [[7], [2, 6]]
    assert asked[1] == DiceRequest(DiceSpec(8), "4", 2, "defender", 0, 0)
    assert asked[2] == DiceRequest(DiceSpec(6, 2), "4", 2, "defender", 1, 1)
    assert asked[2].describe() == "fight 4, round 2, defender #2: 2d6, keep the highest"
    assert dice.name == "entered" and dice.commitment is None
