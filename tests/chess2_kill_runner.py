"""A headless Chess 2 game with duels that the kill test shoots down (tests/test_chess2_kill.py):
it resumes the journal in DIR (or starts a new game) and plays a scripted game one journaled
action at a time, printing the number of applied actions after each.

    python tests/chess2_kill_runner.py DIR VARIANT MAX_ACTIONS

The script prefers captures, so defenders duel often; each duel's two secret bids are sealed
one action at a time (a kill can land between them, with one bid in), a called bluff's reward
is chosen, king-turns are taken or skipped, and now and then a turn is taken back. Every choice
depends only on the game's state, so the test can replay the same script in memory.
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

MATCHUPS = ("animals,two-kings", "reaper,classic", "two-kings,nemesis", "empowered,animals")


def game_setup(variant: int) -> GameSetup:
    armies = MATCHUPS[variant % len(MATCHUPS)]
    return GameSetup("chess2", (Seat("White"), Seat("Black")), game_id=f"kill-c2-{variant}",
                     options={"armies": armies}, bids="screen" if variant % 2 == 0 else "stones")


def step(session: Session, variant: int) -> None:
    """One scripted action."""
    rng = random.Random(variant * 1_000_003 + session.actions * 7919 + session.pos.hash)
    rules, pos = session.rules, session.pos
    if session.joint_decision() is not None:
        missing = session.parts_missing()
        if session.setup.bids == "stones" and not session.sealed_players and rng.random() < 0.5:
            # real stones: both shown at once, one action
            answers = rules.answers(pos)
            session.play_answer(rng.choice(answers))
            return
        player = missing[rng.randrange(len(missing))]
        options = session.part_options(player)
        session.play_part(player, 0 if rng.random() < 0.25 else rng.choice(options))
        return
    d = pos.pending
    r = rng.random()
    if d is not None:
        if r < 0.04 and session.can_undo():
            session.undo()
            return
        answers = rules.answers(pos)
        if d.kind == "duel":
            session.play_answer("duel" if r < 0.75 else "pass")
        else:
            session.play_answer(rng.choice(answers))
        return
    if r < 0.06 and session.can_undo():
        session.undo()
        return
    moves = sorted(rules.legal_moves(pos), key=lambda m: rules.move_text(pos, m))
    captures = [m for m in moves if m.capture is not None and pos.board[m.capture].owner != pos.turn]
    quiet = [m for m in moves if not pos.board[m.frm].kind.royal] or moves  # no early invasion race
    pool = captures if captures and rng.random() < 0.7 else quiet
    session.play(rng.choice(pool))


def resume_or_start(directory: str | os.PathLike, variant: int) -> Session:
    store = JournalStore(directory)
    back = resume(store, Session.replay)
    if back is not None and back.game is not None:
        back.game.recorder = back.journal.append
        return back.game
    session, _ = Session.new(game_setup(variant), recorder=store.create().append)
    return session


#: a person takes a moment to bid: the runner waits this long (seconds) with one bid sealed, so
#: a kill aimed there lands between a duel's two bids however busy the machine is
BID_PAUSE = 0.01


def play(directory: str | os.PathLike, variant: int, max_actions: int, ack, pause=None) -> int:
    session = resume_or_start(directory, variant)
    ack(session.actions)
    while session.actions < max_actions and not session.is_over:
        step(session, variant)
        ack(session.actions)
        if session.sealed_players and pause is not None:
            pause(BID_PAUSE)
    return session.actions


if __name__ == "__main__":
    import time

    from tests.journal_kill_runner import serve

    serve(lambda *args: play(*args, pause=time.sleep))
