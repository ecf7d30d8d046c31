"""The pure rules engine: geometry, pieces, movement vocabulary, positions, rules.

Nothing in this package performs I/O, reads the clock, uses threads or randomness, or imports
Kivy, gpiozero or pyserial. Dice and time come in as values.
"""
