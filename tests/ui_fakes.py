"""Test doubles for the app: a computer player that answers at once."""

from __future__ import annotations


class FakeComputer:
    """Plays the first legal move in coordinate order, at once, reporting progress twice."""

    max_level = 3

    def __init__(self):
        self.started = []
        self.stopped = 0

    def start(self, rules, pos, level, on_progress, on_done):
        self.started.append((level, pos.hash))
        moves = sorted(rules.legal_moves(pos), key=lambda m: rules.move_text(pos, m))
        on_progress(0.5)
        on_done(moves[0] if moves else None)

    def stop(self):
        self.stopped += 1
