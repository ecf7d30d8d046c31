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
import signal
import sys
import traceback
from pathlib import Path
from typing import Callable

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


def resume_or_start(directory: str | os.PathLike, variant: int):
    """The game in ``directory`` resumed, or a new one: (session, what resume said)."""
    store = JournalStore(directory)
    back = resume(store, Session.replay)
    if back is not None and back.game is not None:
        session = back.game
        session.recorder = back.journal.append
    else:
        session, _ = Session.new(game_setup(variant), recorder=store.create().append)
    return session, back


def play(directory: str | os.PathLike, variant: int, max_actions: int, ack) -> int:
    """Resume or start the game in ``directory`` and play until ``max_actions`` or its end.
    ``ack(n)`` is called after each applied action."""
    session, _ = resume_or_start(directory, variant)
    ack(session.actions)
    while session.actions < max_actions and not session.is_over:
        step(session, variant)
        ack(session.actions)
    return session.actions


def fork_child(run: Callable[[Callable[[str], None]], None]):
    """``run(write)`` in a forked child (the modules are already imported: cheap to start and
    to kill); returns (pid, a text stream of what it wrote). An exception in the child is
    written as one line starting with ``error``."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        try:
            run(lambda text: os.write(w, text.encode()))
        except BaseException:
            os.write(w, ("error " + traceback.format_exc().replace("\n", " | ") + "\n").encode())
        finally:
            os._exit(0)
    os.close(w)
    return pid, os.fdopen(r, "r")


class Child:
    """A runner the kill tests shoot down: its output, how to kill it and how to reap it (a
    forked child from :func:`fork_child`, or a real process with its stdout piped)."""

    def __init__(self, out, kill: Callable[[], None], reap: Callable[[], None]) -> None:
        self.out, self.kill, self.reap = out, kill, reap

    @classmethod
    def forked(cls, pid_and_out) -> Child:
        pid, out = pid_and_out
        return cls(out, lambda: os.kill(pid, signal.SIGKILL), lambda: os.waitpid(pid, 0))

    @classmethod
    def process(cls, proc) -> Child:
        def reap() -> None:
            proc.wait(timeout=10)
            proc.stderr.close()

        return cls(proc.stdout, proc.kill, reap)

    def read_until(self, lines: list[str], enough: Callable[[list[str]], bool]) -> None:
        """Read lines into ``lines`` until ``enough(lines)``, the end, "done" or an error."""
        while not enough(lines):
            line = self.out.readline().strip()
            if not line:
                return
            lines.append(line)
            if line == "done" or line.startswith("error"):
                return

    def kill_and_collect(self, lines: list[str]) -> list[str]:
        """SIGKILL now; every line it wrote (``lines`` and the rest); no line may be an error."""
        self.kill()
        lines = lines + [x.strip() for x in self.out.read().splitlines()]
        self.out.close()
        self.reap()
        errors = [x for x in lines if x.startswith("error")]
        assert not errors, errors[0]
        return lines


if __name__ == "__main__":
    directory, variant, limit = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])

    def ack(n: int) -> None:
        sys.stdout.write(f"{n}\n")
        sys.stdout.flush()

    play(directory, variant, limit, ack)
    sys.stdout.write("done\n")
    sys.stdout.flush()
