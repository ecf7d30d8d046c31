"""A headless clocked tournament game that the clock kill test shoots down (SIGKILL).

    python tests/clock_kill_runner.py DIR VARIANT MAX_STEPS

It resumes the journal in DIR as the app does (replay, then the clock paused where the last
checkpoint saw it, then started again), or starts a new game, and plays a scripted game at the
table: moves made by sensor events on a quiet board and completed by the clock press, fights
rolled (Combat Chess), illegal presses, wrong claims, draw offers, arbiter time. Time is
virtual: each player thinks a scripted while, during which a clock checkpoint is handed every
INTERVAL ms to the writer thread the app uses (CheckpointWriter: the latest value wins). After
every durable write it prints one JSON line: what is on disk now (journal entries, and the
clock's times at that moment; for a checkpoint, once the writer has it on the disk).

Every choice depends only on the game (moves, position, procedures so far), never on the
clock or on the kills, so the test knows what the game must be after any number of steps.
"""

from __future__ import annotations

import json
import os
import random
import sys
import threading
import time
import zlib
from pathlib import Path

if __name__ == "__main__":  # run as a script from the repository root
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.board.ports import SquareChanged  # noqa: E402
from companion.journal import JournalStore, resume  # noqa: E402
from companion.session import GameSetup, Seat  # noqa: E402
from companion.tournament.checkpoint import (  # noqa: E402
    NAME, CheckpointFile, CheckpointWriter, read_checkpoint, spent_to_restore,
)
from companion.tournament.quiet import QuietBoard  # noqa: E402
from companion.tournament.table import PressNeedsChoice, Table, TableSetup  # noqa: E402
from tests.tournament_helpers import FAST_TRACKER  # noqa: E402

INTERVAL = 400
CONTROL = "3600+30"
HOUSEKEEPING = ("clock-start", "pause", "resume")


def game_setup(variant: int) -> tuple[GameSetup, TableSetup]:
    game = "chess" if variant % 2 == 0 else "combat"
    seed = f"{variant + 1:08x}" * 8 if game == "combat" else None
    gs = GameSetup(game, (Seat("White"), Seat("Black")), "seeded" if seed else "virtual", False, f"clock-{variant}", seed)
    return gs, TableSetup("tournament", CONTROL, event="Kill test", round=str(variant + 1), board="1")


def game_fingerprint(table: Table):
    """The game without its clock: what no power cut may change."""
    s = table.session
    notes = tuple(n for n in table.notes if not n.text.startswith("The board lost power"))
    return (s.pos.snapshot(), tuple(s.moves), s.result, tuple(sorted(table.illegal.items())), tuple(table.offers),
            tuple((p.offender, p.beneficiary, p.ms, p.illegal) for p in table.penalties), notes)


def steps_in(entries) -> int:
    """Game steps in a journal: every entry after the start and table entries but the
    clock's housekeeping after a power cut."""
    return sum(1 for e in entries[2:] if e.get("type") not in HOUSEKEEPING)


class Game:
    """The table, its quiet board, the virtual time."""

    def __init__(self, table: Table, t: int) -> None:
        self.table = table
        self.s = table.session
        self.t = t
        self.board = QuietBoard(self.s.rules, self.s.pos, make_tracker=FAST_TRACKER, t_ms=t)
        self.s.attach_tracker(self.board)

    def feed(self, sq: int, occupied: bool) -> None:
        self.t += 10
        self.s.feed_board(SquareChanged(sq, occupied, self.t))

    def fix_board(self) -> None:
        g = self.board
        for sq in sorted(set(g.guidance.remove) | (g.sensed - g.expected)):
            if sq in g.sensed:
                self.feed(sq, False)
        for sq in sorted(set(g.guidance.place) | (g.expected - g.sensed)):
            if sq not in g.sensed:
                self.feed(sq, True)

    def make(self, move) -> None:
        rules, pos = self.s.rules, self.s.pos
        before = frozenset(rules.expected_occupancy(pos))
        after = frozenset(rules.occupancy_after(pos, move))
        if move.capture is not None and move.capture in after:
            self.feed(move.capture, False)
        for sq in sorted(before - after):
            self.feed(sq, False)
        for sq in sorted(after - before):
            self.feed(sq, True)


def choose(game: Game, variant: int) -> str:
    t = game.table
    s = game.s
    key = (variant, len(s.moves), s.pos.hash, len(game_fingerprint(t)[-1]), len(t.offers), len(t.penalties),
           repr(s.pos.pending))
    rng = random.Random(zlib.crc32(repr(key).encode()))
    if s.pos.pending is not None:
        return "roll"
    r = rng.random()
    if r < 0.03:
        return "no-move"
    if r < 0.06:
        return "claim"
    if r < 0.09:
        return "offer"
    if r < 0.11:
        return "arbiter"
    return f"move {rng.random()}"


def step(game: Game, variant: int) -> None:
    """One scripted step: exactly one journal entry."""
    t, s = game.table, game.s
    what = choose(game, variant)
    if what == "roll":
        s.roll()
        return
    if not game.board.in_sync:
        game.fix_board()
    side = s.turn
    if what == "no-move":
        t.press(side, game.t)
    elif what == "claim":
        t.claim(side, "threefold", game.t)
    elif what == "offer":
        t.offer_draw(side, game.t)
    elif what == "arbiter":
        t.arbiter("add-time", game.t, side=side, ms=10_000)
    else:
        rng = random.Random(what)
        moves = sorted(s.rules.legal_moves(s.pos), key=lambda m: s.rules.move_text(s.pos, m))
        captures = [m for m in moves if m.capture is not None]
        move = rng.choice(captures if captures and rng.random() < 0.5 else moves)
        game.make(move)
        out = t.press(side, game.t)
        if out and isinstance(out[0], PressNeedsChoice):
            t.complete_press(s.rules.move_text(s.pos, move), game.t)


def play(directory: str | os.PathLike, variant: int, max_steps: int, report, pause: float = 0.0) -> int:
    """Resume or start the game in ``directory`` and play it to ``max_steps`` or its end."""
    store = JournalStore(directory)
    lock = threading.Lock()  # reports come from this thread and from the checkpoint writer
    handed: dict[tuple, str] = {}  # a checkpoint handed over -> its report once it is on disk

    def written(cp) -> None:
        with lock:
            line = handed.pop((cp.entries, cp.running, cp.moves, cp.spent), None)
            if line is not None:
                report(line)

    checkpoints = CheckpointWriter(CheckpointFile(Path(directory) / NAME), on_written=written)
    back = resume(store, Table.replay)
    if back is not None and back.game is not None:
        table = back.game
        journal = back.journal
        table.attach(journal.append)
        entries = journal.next_seq - 1
        c = table.clock
        spent = spent_to_restore(read_checkpoint(Path(directory) / NAME), entries,
                                 c.running if c is not None else None, c.moves if c is not None else ())
        powers = sum(1 for n in table.notes if n.text.startswith("The board lost power"))
        game = Game(table, 10 ** 9 * (powers + 1))
        table.after_power_cut(spent, game.t)
        if table.clock.paused and not table.is_over and table.session.pos.pending is None:
            table.resume(game.t)
    else:
        gs, ts = game_setup(variant)
        journal = store.create()
        table, _ = Table.new(gs, ts, recorder=journal.append)
        game = Game(table, 0)
        table.start_clock(game.t)

    def line(kind: str) -> str:
        view = table.clock.view(game.t)
        return json.dumps({"kind": kind, "e": journal.next_seq - 1, "times": list(view.times),
                           "running": view.running, "over": table.is_over})

    def say(kind: str) -> None:
        with lock:
            report(line(kind))

    say("start")
    steps = steps_in(_entries(store))
    while steps < max_steps and not table.is_over:
        rng = random.Random(variant * 1_000_003 + steps)
        think = rng.randint(50, 2500)
        c = table.clock
        if c.counting:
            start = game.t
            for x in range(INTERVAL, think, INTERVAL):
                game.t = start + x
                key = (journal.next_seq - 1, c.running, tuple(c.moves), c.elapsed(game.t))
                # as in the app, where a write (ms) ends long before the next value (every 500 ms
                # of real time): time here is virtual, so wait for the writer before the next one
                checkpoints.flush()
                with lock:
                    handed[key] = line("ck")
                checkpoints.put(*key)
                if pause:
                    time.sleep(pause)
            game.t = start + think
            checkpoints.flush()  # its reports before the next entry's (the test reads them in order)
            with lock:
                handed.clear()  # replaced before they were written: never on disk
        step(game, variant)
        steps += 1
        say("entry")
    checkpoints.close()
    return steps


def _entries(store: JournalStore):
    from companion.journal import read_journal

    return read_journal(store.current).entries if store.current.exists() else []


if __name__ == "__main__":
    directory, variant, limit = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])

    def report(line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    play(directory, variant, limit, report, pause=0.0005)
    sys.stdout.write("done\n")
    sys.stdout.flush()
