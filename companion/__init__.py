"""Companion: the software inside a sensing, lighting board for chess variants.

Layers (see docs/architecture.md):
  companion.core     pure rules engine (no I/O, no clock, no randomness)
  companion.games    one module per game whose turn structure differs
  companion.board    tracker (pure) and hardware ports/adapters (edge)
  companion.cli      command line
"""

__version__ = "0.1.0"
