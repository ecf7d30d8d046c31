"""Never lose a game: kill the game process (SIGKILL) at random moments, many times, and check
that each resume brings back exactly the game up to the last action written to disk.

The process is a scripted headless game (tests/journal_kill_runner.py) using the real session
and journal. Most kills hit a forked child (cheap: the modules are already imported); some hit
the runner started as its own Python process. After each kill the journal is replayed here and
compared with the same script played in memory: position (pieces, fatigue, turn, history),
dice record, move list and result must be identical, and no acknowledged action may be
missing. The next child resumes the same journal, so resumes of resumes are covered too.
"""

from __future__ import annotations

import functools
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.dice.record import format_record
from companion.journal import format_line, read_journal
from companion.session import Session
from tests.journal_kill_runner import Child, fork_child, game_setup, play, shoot, step

RUNNER = Path(__file__).resolve().parent / "journal_kill_runner.py"
LIMIT = 90  # actions per game
KILLS = 110


def fingerprint(s: Session):
    return (s.actions, s.pos.snapshot(), format_record(s.record), tuple(s.moves), s.result, s.draw_offer)


@functools.lru_cache(maxsize=None)
def trajectory(variant: int) -> tuple:
    s, _ = Session.new(game_setup(variant))
    out = [fingerprint(s)]
    while s.actions < LIMIT and not s.is_over:
        step(s, variant)
        out.append(fingerprint(s))
    return tuple(out)


def start_forked(directory: Path, variant: int):
    def run(write) -> None:  # the child: play until killed
        play(directory, variant, LIMIT, lambda n: write(f"{n}\n"))
        write("done\n")

    return fork_child(run)


def start_process(directory: Path, variant: int):
    return subprocess.Popen([sys.executable, str(RUNNER), str(directory), str(variant), str(LIMIT)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def kill_once(directory: Path, variant: int, rng: random.Random, real_process: bool) -> tuple[int, bool]:
    """Start, wait for a random number of actions, kill at a random instant.
    Returns (last acknowledged action count, finished)."""
    child = Child.process(start_process(directory, variant)) if real_process else \
        Child.forked(start_forked(directory, variant))
    return shoot(child, rng, lambda first: first + rng.randint(0, 10), time.sleep)


def tear(path: Path, rng: random.Random) -> None:
    """Append the first part of a plausible next line, as a write cut by a power loss."""
    line = format_line(10_000, {"type": "move", "move": "e2e4"}).encode()
    with open(path, "ab") as f:
        f.write(line[: rng.randint(1, len(line) - 1)])


def check_resume(directory: Path, variant: int, acknowledged: int) -> int:
    read = read_journal(directory / "current.jsonl")
    session, used, problem = Session.replay(read.entries)
    assert problem is None, problem
    assert used == len(read.entries)
    n = session.actions
    # everything acknowledged is there; at most the one action being written is extra
    assert acknowledged <= n <= acknowledged + 1, (acknowledged, n, read.damage)
    assert fingerprint(session) == trajectory(variant)[n]
    return n


@pytest.mark.slow
def test_a_game_killed_at_random_moments_resumes_exactly_where_it_was(tmp_path):
    rng = random.Random(20261122)
    kills = 0
    variant = 0
    directory = tmp_path / "game-0"
    torn = 0
    tear_due = False
    while kills < KILLS:
        acknowledged, finished = kill_once(directory, variant, rng, real_process=(kills % 12 == 5))
        kills += 1
        n = check_resume(directory, variant, acknowledged)
        tear_due |= kills % 9 == 0
        if tear_due and not finished:
            tear_due = False
            # a power cut, unlike a kill, can leave half a line: add one and resume past it
            tear(directory / "current.jsonl", rng)
            torn += 1
            assert read_journal(directory / "current.jsonl").damage is not None
            assert check_resume(directory, variant, n) == n
        if finished or n == len(trajectory(variant)) - 1:
            variant += 1
            directory = tmp_path / f"game-{variant}"
    assert kills >= 100 and variant >= 1 and torn >= 10
