"""Records on disk: ``companion pgn JOURNAL``, ``companion replay --pgn``, the games folder, USB
sticks found under the media folders (a folder stands in for a stick)."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from argparse import Namespace
from pathlib import Path

import chess.pgn

from companion.cli import main
from companion.journal import JournalStore, format_line
from companion.session import GameSetup, Seat
from companion.tournament import cli as pgn_cli
from companion.tournament.files import copy_to_stick, find_sticks, save_game_pgn
from companion.tournament.pgn import parse_pgn
from companion.tournament.record import pgn_game
from companion.tournament.table import Table, TableSetup
from tests.conftest import ROOT

LOGS = Path(__file__).parent / "data" / "sensor-logs"


def clocked_journal(directory: Path) -> Path:
    store = JournalStore(directory)
    journal = store.create()
    table, _ = Table.new(GameSetup("chess", (Seat("Ann"), Seat("Bob")), game_id="g7"),
                         TableSetup("casual", "300+3", event="Club night", round="2"), recorder=journal.append)
    table.start_clock(0)
    for i, move in enumerate(("e2e4", "e7e5", "g1f3", "b8c6")):
        table.session.play(move)
        table.press(i % 2, 1000 * (i + 1))
    journal.close()
    return store.current


def test_companion_pgn_turns_a_journal_into_pgn_with_its_clocks(tmp_path, capsys):
    path = clocked_journal(tmp_path)
    assert main(["pgn", str(path)]) == 0
    text = capsys.readouterr().out
    game = chess.pgn.read_game(io.StringIO(text))
    assert [m.uci() for m in game.mainline_moves()] == ["e2e4", "e7e5", "g1f3", "b8c6"]
    assert game.headers["Event"] == "Club night" and game.headers["TimeControl"] == "300+3"
    assert [round(n.clock()) for n in game.mainline()] == [302, 302, 304, 304]


def test_companion_pgn_writes_a_file_and_says_what_a_damaged_journal_lost(tmp_path, capsys):
    path = clocked_journal(tmp_path)
    with open(path, "ab") as f:
        f.write(format_line(99, {"type": "move", "move": "f1c4"}).encode()[:20])
    out = tmp_path / "out.pgn"
    assert main(["pgn", str(path), "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("pgn: ") and "damaged" in err and "cut off" in err and err.count("\n") == 1
    assert len(parse_pgn(out.read_text())[0].moves) == 4


def test_companion_pgn_refuses_what_is_not_a_journal_in_one_line(tmp_path, capsys):
    bad = tmp_path / "x.jsonl"
    bad.write_text("hello\n")
    assert main(["pgn", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("pgn: ") and err.count("\n") == 1
    assert main(["pgn", str(tmp_path / "missing.jsonl")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_companion_pgn_writes_only_a_regular_file_in_a_folder_that_exists(tmp_path, capsys):
    """Issue 26: ``-o`` onto a symbolic link or a device replaced it with a regular file, and
    ``-o /nonexistent/x.pgn`` made the folders. Now each is refused in one line and nothing on
    the disk changes; an existing regular file is replaced (durably)."""
    path = clocked_journal(tmp_path / "data")
    target = tmp_path / "kept.pgn"
    target.write_text("mine\n")
    link = tmp_path / "link.pgn"
    link.symlink_to(target)
    cases = [
        (link, f"pgn: {link} is a symbolic link; give the file it points to (the link is not replaced)"),
        ("/dev/null", "pgn: /dev/null is not a regular file (a folder, a device or a pipe); give a file name, "
                      "or leave the option out to write to the standard output"),
        (tmp_path, f"pgn: {tmp_path} is not a regular file"),
        (tmp_path / "nowhere" / "x.pgn", f"pgn: {tmp_path / 'nowhere' / 'x.pgn'}: the folder {tmp_path / 'nowhere'} "
                                         f"does not exist (folders are not created: make it first)"),
    ]
    for out, words in cases:
        assert main(["pgn", str(path), "-o", str(out)]) == 2
        captured = capsys.readouterr()
        assert captured.out == "" and captured.err.startswith(words) and captured.err.count("\n") == 1, captured.err
    assert link.is_symlink() and target.read_text() == "mine\n" and not (tmp_path / "nowhere").exists()
    assert os.path.exists("/dev/null") and not os.path.isfile("/dev/null")
    assert main(["pgn", str(path), "-o", str(target)]) == 0
    assert "Club night" in target.read_text() and sorted(p.name for p in tmp_path.iterdir()) == \
        ["data", "kept.pgn", "link.pgn"]
    out = tmp_path / "g.pgn"  # replay --pgn keeps the same rules
    assert main(["replay", "--variant", "chess", str(LOGS / "gundersen-faul-1928.jsonl"), "--pgn", str(link)]) == 2
    assert capsys.readouterr().err.startswith(f"replay: {link} is a symbolic link")
    assert not out.exists()


def test_companion_pgn_onto_a_full_disk_says_so_in_one_line(tmp_path):
    """``companion pgn J > /dev/full`` ended in a traceback: now one line, exit status 1; and
    every command writing to stdout does the same (here ``moves``)."""
    argv = ["pgn", str(clocked_journal(tmp_path))]
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "companion", *argv], cwd=ROOT, stdout=full,
                              stderr=subprocess.PIPE, text=True, timeout=60)
    assert done.returncode == 1, done.stderr
    assert done.stderr == "companion pgn: cannot write the output: No space left on device\n"


def test_companion_moves_onto_a_full_disk_says_so_in_one_line(capsys, monkeypatch):
    """The same for ``moves``, through main in this process (its stdout a stream onto /dev/full)."""
    with open("/dev/full", "w") as full:
        monkeypatch.setattr(sys, "stdout", full)
        code = main(["moves"])
        monkeypatch.undo()
    assert code == 1
    assert capsys.readouterr().err == "companion moves: cannot write the output: No space left on device\n"


def test_replay_writes_the_replayed_game_as_pgn(tmp_path, capsys):
    out = tmp_path / "g.pgn"
    assert main(["replay", "--variant", "chess", str(LOGS / "gundersen-faul-1928.jsonl"), "--pgn", str(out)]) == 0
    game = chess.pgn.read_game(io.StringIO(out.read_text()))
    board = game.end().board()
    final = capsys.readouterr().out.splitlines()[-1].removeprefix("final ")
    assert board.fen() == final and game.headers["Result"] == "1-0"


def test_replay_pgn_of_a_combat_log_reads_back_to_the_same_position(tmp_path, capsys):
    from companion.tournament.record import replay_pgn

    out = tmp_path / "c.pgn"
    assert main(["replay", "--variant", "combat", str(LOGS / "combat-fight-lost.jsonl"), "--pgn", str(out)]) == 0
    final = capsys.readouterr().out.splitlines()[-1].removeprefix("final ")
    replayed = replay_pgn(parse_pgn(out.read_text())[0])
    assert replayed.rules.position_text(replayed.pos) == final


def test_a_game_is_saved_in_the_games_folder_and_copied_to_a_stick(tmp_path):
    table, _ = Table.new(GameSetup("chess", (Seat("A"), Seat("B")), game_id="club 1"), TableSetup())
    table.session.play("e2e4")
    path = save_game_pgn(tmp_path / "games", "club 1", pgn_game(table))
    assert path.name == "club-1.pgn"
    stick = tmp_path / "media" / "pi" / "USB"
    stick.mkdir(parents=True)
    (stick / ".companion-stick").write_text("")
    (found,) = find_sticks([tmp_path / "media", tmp_path / "nowhere"])
    assert found.path == stick and found.name == "USB"
    report = copy_to_stick(tmp_path / "games", found)
    assert report.copied == 1 and (stick / "companion-games" / "club-1.pgn").exists()
    assert parse_pgn((stick / "companion-games" / "games.pgn").read_text())[0].moves[0].text == "e4"


def test_only_mounted_or_marked_writable_folders_are_sticks(tmp_path):
    (tmp_path / "media" / "pi" / "not-a-stick").mkdir(parents=True)
    assert find_sticks([tmp_path / "media"]) == []
    marked = tmp_path / "media" / "ro"
    marked.mkdir()
    (marked / ".companion-stick").write_text("")
    os.chmod(marked, 0o500)
    try:
        assert find_sticks([tmp_path / "media"]) == [] or os.geteuid() == 0  # root may write anywhere
    finally:
        os.chmod(marked, 0o700)


def test_the_cli_function_reports_on_a_given_stream(tmp_path):
    path = clocked_journal(tmp_path)
    out, err = io.StringIO(), io.StringIO()
    assert pgn_cli.run(Namespace(journals=[str(path)], output=None), out, err) == 0
    assert out.getvalue().startswith('[Event "Club night"]') and err.getvalue() == ""
