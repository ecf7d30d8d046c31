"""A few seeded games for the dice tests (shared by test_dice_record and test_dice_cli)."""

from __future__ import annotations

from companion.dice.odds import Fighter, fighter_dice
from companion.dice.record import DiceRecord, roll_round, start_record
from companion.dice.sources import SeededDice

SEED = b"seed of a test game, kept secret"


def fighter(kind: str, fatigue: int = 0, weapon: bool = False, d6_only: bool = False) -> Fighter:
    return Fighter(fighter_dice(kind, d6_only), fatigue, weapon)


def play_fight(source, record: DiceRecord, fight: int, move: str, attacker, defender) -> DiceRecord:
    """Roll rounds until a side wins or the last tie; the modifiers stay the same."""
    for number in range(1, record.max_ties + 1):
        entry = roll_round(source, fight, number, move, attacker, defender, record.max_ties)
        record = record.with_round(entry)
        if entry.result != "tie":
            break
    return record


FIGHTS = [
    ("e4d5", [("white pawn e4", fighter("P", weapon=True))], [("black pawn d5", fighter("P"))]),
    ("d1d5", [("white queen d1", fighter("Q", weapon=True))], [("black queen d8", fighter("Q", 1))]),
    ("c6d4", [("black knight c6", fighter("N", 1, True))], [("white king e3", fighter("K", 2, True))]),
    ("e8e7", [("black king e8", fighter("K", 0, True))],
     [("white rook e7", fighter("R", 1)), ("white bishop b4", fighter("B")), ("white pawn f6", fighter("P", 3))]),
    ("a1a7", [("white rook a1", fighter("R", 0, True, d6_only=True))], [("black pawn a7", fighter("P", 0, d6_only=True))]),
]


def seeded_game(fights: int = 12, seed: bytes = SEED) -> DiceRecord:
    """At least ``fights`` fights, and more until one of them has had a tie (re-roll)."""
    dice = SeededDice(seed)
    record = start_record("test-game", "combat", dice)
    number = 0
    while number < fights or not any(r.result == "tie" for r in record.rounds):
        number += 1
        move, attacker, defender = FIGHTS[(number - 1) % len(FIGHTS)]
        record = play_fight(dice, record, number, move, attacker, defender)
    return record.with_reveal(dice.reveal())
