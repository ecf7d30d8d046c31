"""Dice for fights: exact odds, dice sources (seeded, system, entered), the dice record.

A fighter is a die spec plus modifiers, so the layer serves any game that settles a duel by
comparing modified rolls; Human Combat Chess is its first user (docs/rules/combat-dice.md).

- companion.dice.odds     pure, exact arithmetic: DiceSpec, Fighter, fight_odds, scoring
- companion.dice.sources  where faces come from: SeededDice, SystemDice, EnteredDice
- companion.dice.record   the record of every roll and its text form (JSON Lines)
- companion.dice.verify   verify_record: commitment, re-derived faces, consistency
- companion.dice.cli      ``companion odds`` (``companion verify-dice`` replays the game too, so it
                          lives above the dice and the games: companion/verify_dice.py)
"""
