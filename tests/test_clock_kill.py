"""Never lose a game or a second: kill a clocked tournament game (SIGKILL) at random moments,
more than a hundred times, and check each resume.

The game is tests/clock_kill_runner.py (the real table, quiet board, journal and clock
checkpoint, with virtual time). After each kill the journal is replayed here exactly as the
app resumes it, and the clock is paused from the checkpoint. Checked every time:

* the game (position, moves, fights, penalties, offers, result) is the scripted game after
  the number of steps on disk, and that is every step the runner had reported, or one more;
* the clocks are the ones the runner last reported as on disk: the sides not to move to the
  millisecond; the side to move gives away nothing and gains at most one checkpoint interval
  (0.4 s) of the time it thought just before the kill: no second is lost, and the time the
  game was down counts against nobody.
"""

from __future__ import annotations

import functools
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.journal import read_journal
from companion.tournament.checkpoint import NAME, read_checkpoint, spent_to_restore
from companion.tournament.table import Table
from tests.clock_kill_runner import INTERVAL, Game, game_fingerprint, game_setup, play, step, steps_in
from tests.journal_kill_runner import Child, fork_child

pytestmark = pytest.mark.slow  # 110 SIGKILLed processes

RUNNER = Path(__file__).resolve().parent / "clock_kill_runner.py"
LIMIT = 70  # steps per game
KILLS = 110
#: kills whose clocks are checked to the millisecond. A kill that lands after an entry is written
#: but before it is reported checks the game only; under load more kills land there, so the test
#: kills on until this many were checked exactly (at most MAX_KILLS), rather than asking a share
EXACT = 88
MAX_KILLS = 300


@functools.lru_cache(maxsize=None)
def trajectory(variant: int) -> tuple:
    """The scripted game without kills: its fingerprint after each step."""
    gs, ts = game_setup(variant)
    table, _ = Table.new(gs, ts)
    game = Game(table, 0)
    table.start_clock(0)
    out = [game_fingerprint(table)]
    while len(out) <= LIMIT and not table.is_over:
        game.t += 1000
        step(game, variant)
        out.append(game_fingerprint(table))
    return tuple(out)


def start_forked(directory: Path, variant: int):
    def run(write) -> None:  # the child: play until killed
        play(directory, variant, LIMIT, lambda line: write(line + "\n"), pause=0.0005)
        write("done\n")

    return fork_child(run)


def kill_once(directory: Path, variant: int, rng: random.Random, real_process: bool):
    """Run until a random number of reports, kill at a random instant; the reports read."""
    if real_process:
        child = Child.process(subprocess.Popen(
            [sys.executable, str(RUNNER), str(directory), str(variant), str(LIMIT)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env=dict(os.environ, PYTHONHASHSEED=str(rng.randint(1, 999)))))
    else:
        child = Child.forked(start_forked(directory, variant))
    lines = [child.out.readline().strip()]
    assert lines[0].startswith("{"), f"the runner did not start: {lines[0]!r}"
    wanted = rng.randint(1, 25)
    child.read_until(lines, lambda ls: len(ls) > wanted)
    if rng.random() < 0.8:
        time.sleep(rng.uniform(0, 0.003))
    lines = child.kill_and_collect(lines)
    reports = [json.loads(x) for x in lines if x.startswith("{")]
    return reports, "done" in lines


def check_resume(directory: Path, variant: int, last: dict) -> tuple[bool, bool]:
    """Returns (the game is finished, the clocks were checked to the millisecond)."""
    read = read_journal(directory / "current.jsonl")
    table, used, problem = Table.replay(read.entries)
    assert problem is None and used == len(read.entries), problem
    steps = steps_in(read.entries)
    assert game_fingerprint(table) == trajectory(variant)[steps]
    entries = len(read.entries)
    assert last["e"] <= entries <= last["e"] + 1, (last["e"], entries)
    c = table.clock
    spent = spent_to_restore(read_checkpoint(directory / NAME), entries, c.running, c.moves)
    table.after_power_cut(spent, 0)  # in memory (no recorder): what the app does on resume
    times = table.clock.view(0).times
    if entries != last["e"]:
        return table.is_over, False  # an entry written but not yet reported: the game is checked above
    running = last["running"]
    for side, (now, before) in enumerate(zip(times, last["times"])):
        if side == running and not table.is_over:
            assert before - INTERVAL <= now <= before, (side, now, before)
        else:
            assert now == before, (side, now, before)
    return table.is_over, True


def test_clocked_games_killed_at_random_moments_lose_no_move_and_no_second(tmp_path):
    rng = random.Random(20261123)
    kills, exact, variant = 0, 0, 0
    directory = tmp_path / "game-0"
    while kills < KILLS or (exact < EXACT and kills < MAX_KILLS):
        reports, finished = kill_once(directory, variant, rng, real_process=(kills % 15 == 7))
        kills += 1
        over, checked = check_resume(directory, variant, reports[-1])
        exact += checked
        if finished or over:
            variant += 1
            directory = tmp_path / f"game-{variant}"
    assert kills >= KILLS and variant >= 2 and exact >= EXACT, (kills, variant, exact)
