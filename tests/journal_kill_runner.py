"""A headless game that the kill test shoots down: it resumes the journal in DIR (or starts a
new game), then plays a scripted Combat Chess game, one journaled action at a time, printing
the number of applied actions after each one. Run as a script or (faster) in a forked child.

    python tests/journal_kill_runner.py DIR VARIANT MAX_ACTIONS

Every choice depends only on the game's state (the number of actions and the position), so
the test can replay the same script in memory and know exactly what the game must be after
any number of actions.
"""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path

if __name__ == "__main__":  # run as a script from the repository root
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.journal import JournalStore, resume  # noqa: E402
from companion.session import GameSetup, Seat, Session  # noqa: E402


def game_setup(variant: int) -> GameSetup:
    seed = f"{variant:08x}" * 8
    return GameSetup("combat", (Seat("White"), Seat("Black")), "seeded", False, f"kill-{variant}", seed)


def step(session: Session, variant: int) -> None:
    """One scripted action: roll a pending fight, answer a draw offer, sometimes take back or
    offer a draw, otherwise a move (captures preferred, to get many fights)."""
    if session.pending_fight() is not None:
        session.roll()
        return
    if session.draw_offer is not None:
        session.answer_draw(False)
        return
    rng = random.Random(variant * 1_000_003 + session.actions * 7919 + session.pos.hash)
    r = rng.random()
    if r < 0.07 and session.can_undo():
        session.undo()
        return
    if r < 0.10:
        session.offer_draw(session.turn)
        return
    moves = sorted(session.rules.legal_moves(session.pos), key=lambda m: session.rules.move_text(session.pos, m))
    captures = [m for m in moves if m.capture is not None]
    pool = captures if captures and rng.random() < 0.6 else moves
    session.play(rng.choice(pool))


def play(directory: str | os.PathLike, variant: int, max_actions: int, ack) -> int:
    """Resume or start the game in ``directory`` and play until ``max_actions`` or its end.
    ``ack(n)`` is called after each applied action."""
    store = JournalStore(directory)
    back = resume(store, Session.replay)
    if back is not None and back.game is not None:
        session = back.game
        session.recorder = back.journal.append
    else:
        setup = game_setup(variant)
        session, _ = Session.new(setup, recorder=store.create().append)
    ack(session.actions)
    while session.actions < max_actions and not session.is_over:
        step(session, variant)
        ack(session.actions)
    return session.actions


if __name__ == "__main__":
    directory, variant, limit = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])

    def ack(n: int) -> None:
        sys.stdout.write(f"{n}\n")
        sys.stdout.flush()

    play(directory, variant, limit, ack)
    sys.stdout.write("done\n")
    sys.stdout.flush()
