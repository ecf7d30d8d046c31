"""Test doubles for the app: a computer player that answers at once."""

from __future__ import annotations


class FakeComputer:
    """Plays the first legal move in coordinate order, at once, reporting progress twice."""

    max_level = 3

    def __init__(self):
        self.started = []
        self.stopped = 0
        self.parts = []

    def start(self, rules, pos, level, on_progress, on_done):
        """The first legal move; while the position waits for a choice, its first answer."""
        self.started.append((level, pos.hash))
        if pos.pending is not None:
            answers = rules.answers(pos)
            on_progress(0.5)
            on_done(answers[0] if answers else None)
            return
        moves = sorted(rules.legal_moves(pos), key=lambda m: rules.move_text(pos, m))
        on_progress(0.5)
        on_done(moves[0] if moves else None)

    def choose_part(self, rules, pos, seat, level, u):
        """Its part of a joint decision (a secret bid): the option at ``u`` of its options."""
        d = pos.pending
        options = d.get("options")[d.get("players").index(seat)]
        self.parts.append((seat, u))
        return options[min(int(u * len(options)), len(options) - 1)]

    def stop(self):
        self.stopped += 1
