"""A full disk loses nothing: a refused append leaves the journal exactly as it was, and once
there is room again the game goes on and resumes with every acknowledged action.

Three ways to fill the disk, from the most portable to the most real:

* a fault-injecting journal (its system calls replaced): a short write, a failed fsync, a cut
  back that fails;
* a file-size limit (``RLIMIT_FSIZE``, no root needed): a scripted Combat Chess game in a
  forked child hits the limit again and again, is freed, plays on; and the same state shot
  down with SIGKILL at random moments;
* a real 64 KiB tmpfs filled by another file (needs root, as CI has; skipped with the reason
  otherwise - the file-size limit covers the same code path).

The scripted game is tests/journal_kill_runner.py's: each choice depends only on the game's
state, so a refused action is simply chosen again, and the game must end up exactly on the
trajectory of the same script played in memory without any fault.
"""

from __future__ import annotations

import errno
import os
import random
import resource
import shutil
import signal
import subprocess
from pathlib import Path

import pytest

from companion.errors import RecordError
from companion.journal import Journal, JournalStore, read_journal, resume
from companion.session import Seat, Session
from tests.journal_kill_runner import Child, fork_child, game_setup, resume_or_start, step
from tests.test_journal_kill import LIMIT, check_resume, fingerprint, trajectory

ENTRIES = [{"type": "start", "n": 1}, {"type": "move", "move": "e2e4"}, {"type": "move", "move": "e7e5"}]


def journal_with(path: Path, entries=ENTRIES) -> Journal:
    j = Journal(path)
    for e in entries:
        j.append(e)
    return j


def no_space(*_):
    raise OSError(errno.ENOSPC, "No space left on device")


def short_then_full(calls: list):
    """A write that takes the first 10 bytes of a line, then finds the disk full."""

    def write(fd, data):
        calls.append(len(data))
        if len(calls) == 1:
            return os.write(fd, data[:10])
        no_space()

    return write


# ----- a fault-injecting journal ----------------------------------------------------------------


def test_a_short_write_then_a_full_disk_leaves_the_file_exactly_as_it_was(tmp_path):
    path = tmp_path / "j.jsonl"
    j = journal_with(path)
    before = path.read_bytes()
    calls = []
    j._write = short_then_full(calls)  # the disk fills in the middle of the line
    with pytest.raises(OSError) as e:
        j.append({"type": "move", "move": "g1f3"})
    assert e.value.errno == errno.ENOSPC and len(calls) == 2
    assert path.read_bytes() == before and j.next_seq == 4
    del j._write  # room again
    j.append({"type": "move", "move": "b8c6"})
    j.close()
    read = read_journal(path)
    assert read.damage is None and read.entries == ENTRIES + [{"type": "move", "move": "b8c6"}]


def test_a_failed_fsync_is_cut_back_too(tmp_path):
    path = tmp_path / "j.jsonl"
    j = journal_with(path)
    before = path.read_bytes()
    j._fsync = lambda fd: (_ for _ in ()).throw(OSError(errno.EIO, "Input/output error"))
    with pytest.raises(OSError):
        j.append({"type": "move", "move": "g1f3"})
    del j._fsync
    assert path.read_bytes() == before
    j.append({"type": "move", "move": "g1f3"})
    assert read_journal(path).entries[-1] == {"type": "move", "move": "g1f3"}


def test_a_cut_back_that_fails_is_done_before_the_next_line(tmp_path):
    path = tmp_path / "j.jsonl"
    j = journal_with(path)
    before = path.read_bytes()
    j._write = short_then_full([])
    j._truncate = no_space
    with pytest.raises(OSError):
        j.append({"type": "move", "move": "g1f3"})
    assert path.read_bytes().startswith(before) and len(path.read_bytes()) == len(before) + 10  # torn for now
    del j._write, j._truncate
    j.append({"type": "move", "move": "b1c3"})
    read = read_journal(path)
    assert read.damage is None and read.entries == ENTRIES + [{"type": "move", "move": "b1c3"}]


def test_a_journal_that_cannot_be_cut_back_refuses_every_later_line(tmp_path):
    path = tmp_path / "j.jsonl"
    j = journal_with(path)
    j._write = short_then_full([])
    j._truncate = no_space
    with pytest.raises(OSError):
        j.append({"type": "move", "move": "g1f3"})
    del j._write
    writes = []
    j._write = lambda fd, data: writes.append(data) or len(data)
    with pytest.raises(OSError):
        j.append({"type": "move", "move": "b1c3"})
    assert writes == []  # nothing is written after a torn line
    j.close()
    read = read_journal(path)  # as after a power cut: everything acknowledged, then a cut-off line
    assert read.entries == ENTRIES and "cut off" in read.damage.reason


def test_the_session_refuses_an_action_it_cannot_save_and_changes_nothing(tmp_path):
    store = JournalStore(tmp_path)
    journal = store.create()
    session, _ = Session.new(game_setup(7), recorder=journal.append)
    session.play(session.rules.parse_move(session.pos, "e2e4"))
    snapshot = fingerprint(session)
    journal._write = no_space
    with pytest.raises(RecordError, match=r"could not be saved \(No space left on device\); nothing was changed"):
        session.play(session.rules.parse_move(session.pos, "e7e5"))
    assert fingerprint(session) == snapshot
    del journal._write
    session.play(session.rules.parse_move(session.pos, "e7e5"))
    journal.close()
    back = resume(store, Session.replay)
    back.journal.close()
    assert back.loss is None and fingerprint(back.game) == fingerprint(session)


def test_a_game_whose_start_cannot_be_saved_leaves_no_empty_journal_behind(tmp_path):
    from tests.ui_flow_helpers import App

    app = App(tmp_path / "data")
    real = Journal._write
    Journal._write = staticmethod(no_space)
    try:
        app.new_game(fill=False)
    finally:
        Journal._write = real
    assert app.flow.display.screen == "start" and "cannot be saved" in app.start.view().problem
    assert not (tmp_path / "data" / "current.jsonl").exists()


# ----- a file-size limit (no root needed) -------------------------------------------------------


def _limit_to(path: Path, slack: int) -> None:
    """The disk is full: the journal may grow by ``slack`` bytes more, no further."""
    resource.setrlimit(resource.RLIMIT_FSIZE, (path.stat().st_size + slack, resource.RLIM_INFINITY))


def _room_again() -> None:
    resource.setrlimit(resource.RLIMIT_FSIZE, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))


def play_on_a_filling_disk(directory: Path, variant: int, seed: int, write) -> None:
    """The kill runner's game, in a process whose disk fills now and then (the file-size
    limit) and is freed after a few refused actions; it may start with the disk still full.
    Writes the action count after each acknowledged action, ``refused`` after each refusal."""
    rng = random.Random(seed)
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # past the limit a write fails (EFBIG), the process lives
    current = directory / "current.jsonl"
    full = False
    if current.exists() and rng.random() < 0.4:  # the disk is still full at the restart
        _limit_to(current, rng.randint(0, 60))
        full = True
    session, back = resume_or_start(directory, variant)
    assert back is None or back.game is not None, back.loss  # nothing acknowledged may be set aside
    write(f"{session.actions}\n")
    refusals, patience = 0, rng.randint(1, 5)
    while session.actions < LIMIT and not session.is_over:
        if not full and rng.random() < 0.12:
            _limit_to(current, rng.randint(0, 120))  # less than a line, or room for one more
            full, refusals, patience = True, 0, rng.randint(1, 5)
        try:
            step(session, variant)
        except RecordError as e:
            assert full and "could not be saved" in str(e), e
            refusals += 1
            write("refused\n")
            if refusals >= patience:
                _room_again()
                full = False
            continue
        write(f"{session.actions}\n")
    write("done\n")


def start_child(directory: Path, variant: int, seed: int):
    return fork_child(lambda write: play_on_a_filling_disk(directory, variant, seed, write))


def test_a_game_on_a_disk_that_fills_and_is_freed_again_and_again_loses_nothing(tmp_path):
    """Acceptance: the disk fills during the game (a file-size limit), actions are refused,
    it is freed, play goes on; the resumed game has every acknowledged action, on exactly the
    trajectory of the same game played without a fault."""
    directory = tmp_path / "game"
    pid, out = start_child(directory, 3, seed=11)
    lines = [line.strip() for line in out]
    out.close()
    os.waitpid(pid, 0)
    assert not [x for x in lines if x.startswith("error")], lines[-1]
    assert lines[-1] == "done"
    refused = lines.count("refused")
    acks = [int(x) for x in lines if x.isdigit()]
    assert refused >= 5, f"the disk never filled ({refused} refusals)"
    read = read_journal(directory / "current.jsonl")
    assert read.damage is None
    n = check_resume(directory, 3, acks[-1])
    assert n == acks[-1] and n == min(LIMIT, len(trajectory(3)) - 1)
    back = resume(JournalStore(directory), Session.replay)
    back.journal.close()
    assert back.loss is None and fingerprint(back.game) == trajectory(3)[n]


@pytest.mark.slow
def test_a_game_killed_while_the_disk_is_full_resumes_with_every_acknowledged_action(tmp_path):
    """The same state shot down: SIGKILL at random moments, also while actions are being
    refused and while the disk is still full at the restart."""
    rng = random.Random(20260523)
    variant, kills, refused_seen = 10, 0, 0
    directory = tmp_path / f"game-{variant}"
    while kills < 40:
        child = Child.forked(start_child(directory, variant, seed=rng.randrange(10**9)))
        lines = [child.out.readline().strip()]
        assert lines[0].isdigit(), lines
        target = rng.randint(1, 14)
        child.read_until(lines, lambda ls: len(ls) > target)
        if rng.random() < 0.7:
            for _ in range(rng.randint(0, 3000)):  # land anywhere inside the next write
                pass
        lines = child.kill_and_collect(lines)
        kills += 1
        refused_seen += lines.count("refused")
        acknowledged = [int(x) for x in lines if x.isdigit()][-1]
        n = check_resume(directory, variant, acknowledged)
        if "done" in lines or n == len(trajectory(variant)) - 1 or n >= LIMIT:
            variant += 1
            directory = tmp_path / f"game-{variant}"
    assert refused_seen >= 20, refused_seen


def _under_a_size_limit(limit: int, act) -> str:
    """``act()`` in a forked child whose files may not grow past ``limit`` bytes: "ok", or the
    errno's name of the OSError it raised."""

    def run(write) -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, resource.RLIM_INFINITY))
        try:
            act()
        except OSError as e:
            write(f"{errno.errorcode.get(e.errno, e.errno)}\n")
            return
        write("ok\n")

    pid, out = fork_child(run)
    text = out.read().strip()
    os.waitpid(pid, 0)
    return text


def test_a_pgn_record_the_full_disk_refuses_leaves_no_temporary_file_and_the_old_one_whole(tmp_path):
    """Issue 26: ``games/game-N.pgn.tmp`` was left behind when the disk filled as a match game
    ended. Every durable write (the PGN records, a match's score, the names remembered) goes
    through companion.journal.write_durably, which removes its temporary file on failure."""
    from companion.match import MATCH_FILE, Match, MatchStore
    from companion.player_names import FILE, remember
    from companion.tournament.files import save_game_pgn

    games = tmp_path / "games"
    save_game_pgn(games, "game-3", "[Event \"?\"]\n\n1. e4 *\n")
    before = (games / "game-3.pgn").read_bytes()
    long_game = "[Event \"?\"]\n\n" + "1. e4 e5 " * 500 + "*\n"
    assert _under_a_size_limit(1000, lambda: save_game_pgn(games, "game-3", long_game)) == "EFBIG"
    assert sorted(p.name for p in games.iterdir()) == ["game-3.pgn"]
    assert (games / "game-3.pgn").read_bytes() == before
    assert _under_a_size_limit(5, lambda: remember(tmp_path, "Alice")) == "EFBIG"
    match = Match("m1", "chess2", (Seat("A" * 600), Seat("B" * 600)), 3)
    assert _under_a_size_limit(1000, lambda: MatchStore(tmp_path).save(match)) == "EFBIG"
    assert not [p.name for p in tmp_path.rglob("*") if p.name.endswith((".tmp", ".new"))]
    assert not (tmp_path / FILE).exists() and not (tmp_path / MATCH_FILE).exists()


# ----- a real full file system (root) -----------------------------------------------------------


@pytest.fixture
def small_tmpfs(tmp_path):
    mount = tmp_path / "tmpfs"
    mount.mkdir()
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("mounting a 64 KiB tmpfs needs root; the file-size limit tests cover the same path")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(mount)], capture_output=True,
                          text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here ({done.stderr.strip()}); the file-size limit tests cover the same path")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "--lazy", str(mount)], check=True)


def fill_up(directory: Path) -> Path:
    """Take every free block with another file (as logs or photos would)."""
    filler = directory / "filler"
    with open(filler, "wb", buffering=0) as f:
        try:
            while True:
                f.write(b"x" * 512)
        except OSError as e:
            assert e.errno == errno.ENOSPC
    return filler


def test_a_real_file_system_filled_during_a_game_loses_nothing(small_tmpfs):
    variant = 5
    store = JournalStore(small_tmpfs / "data")
    journal = store.create()
    session, _ = Session.new(game_setup(variant), recorder=journal.append)
    refused, played_on = 0, 0
    filler = None
    while session.actions < LIMIT and not session.is_over:
        if filler is None and not refused and session.actions == 5:
            filler = fill_up(small_tmpfs)
        try:
            step(session, variant)
        except RecordError as e:
            assert "No space left on device" in str(e)
            refused += 1
            if refused == 3:
                filler.unlink()  # room again
            continue
        played_on += refused == 3
    journal.close()
    assert refused == 3 and played_on >= 10, (refused, played_on)
    n = session.actions
    back = resume(store, Session.replay)
    back.journal.close()
    assert back.loss is None and back.game.actions == n and fingerprint(back.game) == trajectory(variant)[n]
