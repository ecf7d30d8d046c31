"""Shared set-ups for the session and journal tests (not a test module)."""

from __future__ import annotations

from companion.session import GameSetup, Seat, Session

HUMANS = (Seat("White"), Seat("Black"))
VS_COMPUTER = (Seat("Player 1"), Seat("Computer", computer=True, level=2))
SEED_HEX = "5eed" * 16


def setup(game="combat", dice="seeded", seats=HUMANS, start=None, d6_only=False, game_id="test-game"):
    return GameSetup(game, seats, dice, d6_only, game_id, SEED_HEX if dice == "seeded" else None, start)


def new_session(recorder=None, **kw) -> Session:
    session, _ = Session.new(setup(**kw), recorder=recorder)
    return session


def play_all(session: Session, *moves: str) -> list:
    events = []
    for m in moves:
        events += session.play(m)
    return events


def event_types(events) -> list[str]:
    return [type(e).__name__ for e in events]


class FixedDice:
    """A dice source that returns the faces it is given, in order (for exact fight tests)."""

    name = "system"
    commitment = None

    def __init__(self, *faces):
        self.faces = list(faces)

    def roll_side(self, specs, fight_id, roll_index, side):
        out = []
        for spec in specs:
            out.append([self.faces.pop(0) for _ in range(spec.count)])
        return out
