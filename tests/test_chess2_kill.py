"""Never lose a Chess 2 game, a bid or a stone: kill the game process (SIGKILL) at random moments
of games full of duels, more than a hundred times, and check that each resume brings back exactly
the game up to the last action written to disk: the position with its stones, the move list with
each turn's effects, the result, and the sealed bid of a duel whose other bid was not in yet
(its value too, though no screen shows it). The runner is tests/chess2_kill_runner.py; most kills
hit a forked child, some the runner started as its own Python process; a power cut's half-written
line is added now and then."""

from __future__ import annotations

import functools
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.journal import read_journal
from companion.session import Session
from tests.chess2_kill_runner import game_setup, play, step
from tests.journal_kill_runner import Child, fork_child, shoot
from tests.test_journal_kill import tear

pytestmark = pytest.mark.slow

RUNNER = Path(__file__).resolve().parent / "chess2_kill_runner.py"
LIMIT = 120  # actions per game
KILLS = 120


def fingerprint(s: Session):
    """Everything a resume must bring back, the sealed bid's value included."""
    return (s.actions, s.pos.snapshot(), s.rules.stones(s.pos), tuple(s.moves), s.result,
            tuple(sorted(s.duels.sealed.items())))  # the sealed bid itself: the test looks inside


@functools.lru_cache(maxsize=None)
def trajectory(variant: int) -> tuple:
    s, _ = Session.new(game_setup(variant))
    out = [fingerprint(s)]
    while s.actions < LIMIT and not s.is_over:
        step(s, variant)
        out.append(fingerprint(s))
    return tuple(out)


def kill_once(directory: Path, variant: int, rng: random.Random, real_process: bool) -> tuple[int, bool]:
    """Start, wait for a random number of actions, kill at a random instant (the journal kill
    test's Child). Returns (last acknowledged action count, finished)."""
    if real_process:
        child = Child.process(subprocess.Popen([sys.executable, str(RUNNER), str(directory), str(variant), str(LIMIT)],
                                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
    else:
        def run(write) -> None:
            play(directory, variant, LIMIT, lambda n: write(f"{n}\n"), pause=time.sleep)
            write("done\n")

        child = Child.forked(fork_child(run))

    def aim(first: int) -> int:
        """A random number of actions on; one kill in four aimed at the next moment a duel has
        one bid sealed (the runner waits there, as a person bidding would)."""
        if rng.random() < 0.25:
            sealed = [n for n, f in enumerate(trajectory(variant)) if n > first and f[-1]]
            if sealed:
                return sealed[0]
        return first + rng.randint(0, 12)

    return shoot(child, rng, aim, time.sleep)


def check_resume(directory: Path, variant: int, acknowledged: int) -> Session:
    read = read_journal(directory / "current.jsonl")
    session, used, problem = Session.replay(read.entries)
    assert problem is None, problem
    n = session.actions
    assert acknowledged <= n <= acknowledged + 1, (acknowledged, n, read.damage)
    assert fingerprint(session) == trajectory(variant)[n]
    return session


def test_chess2_games_killed_at_random_moments_lose_no_game_bid_or_stone(tmp_path):
    rng = random.Random(20260321)
    kills = torn = with_one_bid_in = 0
    variant = 0
    directory = tmp_path / "game-0"
    while kills < KILLS:
        acknowledged, finished = kill_once(directory, variant, rng, real_process=(kills % 15 == 7))
        kills += 1
        session = check_resume(directory, variant, acknowledged)
        with_one_bid_in += bool(session.sealed_players)
        if kills % 9 == 0 and not finished:
            # a power cut, unlike a kill, can leave half a line: add one and resume past it
            tear(directory / "current.jsonl", rng)
            torn += 1
            assert read_journal(directory / "current.jsonl").damage is not None
            assert check_resume(directory, variant, session.actions).actions == session.actions
        if finished or session.actions == len(trajectory(variant)) - 1:
            variant += 1
            directory = tmp_path / f"game-{variant}"
    duels = sum(1 for v in range(variant + 1) for f in trajectory(v) if any(e[0] == "bids" for m in f[3]
                                                                          for e in m.effects))
    assert kills >= 100 and variant >= 2 and torn >= 10 and duels > 0
    assert with_one_bid_in >= 10, with_one_bid_in  # kills landed between the two bids of a duel (26-29 seen)
