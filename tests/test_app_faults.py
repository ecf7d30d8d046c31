"""The app never waits for ever and says what to do (presenters, no Kivy): every kind of
poisoned journal starts the app with the file set aside and a message; a worker that fails
shows the problem screen; low free space is a warning on the start screen and in the game."""

from __future__ import annotations

import json

import pytest

from companion.app.computer import ComputerFailed
from companion.journal import FULL_SPACE_BYTES, LOW_SPACE_BYTES, format_line, space_level
from companion.tournament.table import Table
from tests.ui_flow_helpers import App
from tests.ui_fakes import FakeComputer

MB = 1024 * 1024


def a_game_on_disk(directory, moves=("e2", "e4", "e7", "e5")) -> bytes:
    app = App(directory)
    app.new_game(game="chess")
    for i in range(0, len(moves), 2):
        app.tap(moves[i], moves[i + 1])
    app.flow.game.journal.close()
    return (directory / "current.jsonl").read_bytes()


def line(seq: int, entry: dict) -> bytes:
    return format_line(seq, entry).encode()


#: What a poisoned current.jsonl holds; each must start the app on a usable screen.
POISONS = {
    "deeply nested JSON": lambda d: ("[" * 100_000 + "]" * 100_000 + "\n").encode(),
    "a 5,000-digit number": lambda d: b'{"seq": ' + b"7" * 5000 + b', "entry": {}, "crc": "0"}\n',
    "a 5,000-digit number inside the entry": lambda d: (
        b'{"seq": 1, "entry": {"type": "start", "n": ' + b"9" * 5000 + b'}, "crc": "00000000"}\n'),
    "binary garbage": lambda d: bytes(range(256)) * 8,
    "an empty file": lambda d: b"",
    "a start entry that is a list": lambda d: line(1, {"type": "start", "version": 1, "setup": [], "commitment": None}),
}


@pytest.mark.parametrize("kind", sorted(POISONS))
def test_a_poisoned_journal_is_set_aside_and_the_app_starts(tmp_path, kind):
    (tmp_path / "current.jsonl").write_bytes(POISONS[kind](tmp_path))
    app = App(tmp_path)
    assert app.flow.display.screen == "problem"
    v = app.problem.view()
    assert v.title == "The last game could not be loaded" and v.reason and "games/damaged.jsonl" in v.advice
    app.problem.go_on()
    assert app.flow.display.screen == "start"
    assert not (tmp_path / "current.jsonl").exists()
    assert len(list((tmp_path / "games").glob("damaged*.jsonl"))) == 1
    app.new_game(game="chess")
    assert app.flow.display.screen == "game"  # usable: a new game starts


@pytest.mark.parametrize("tail", [
    ("[" * 50_000 + "\n").encode(),
    b'{"seq": 99999999999999999999999, "entry": {}, "crc": "x"}\n',
    b'{"seq": 4, "entry": {"type": "move", "move": "g1f3", "x": ' + b"[" * 40 + b"1" + b"]" * 40 + b'}, "crc": "0"}\n',
    b'{"seq": 4, "entry": {"type": "move", "move": "g1f3"}, "crc": NaN}\n',
])
def test_a_poisoned_line_after_good_ones_resumes_the_game_up_to_it(tmp_path, tail):
    data = a_game_on_disk(tmp_path)
    (tmp_path / "current.jsonl").write_bytes(data + tail)
    app = App(tmp_path)
    assert app.flow.display.screen == "resume"
    v = app.resume.view()
    # start, table, two moves: the poisoned line is the fifth
    assert "2 moves played" in v.summary and v.loss.startswith("Part of the record was damaged and is lost: line 5")
    assert (tmp_path / "games" / "damaged.jsonl").read_bytes() == data + tail  # the whole file is kept
    assert (tmp_path / "current.jsonl").read_bytes() == data  # and the game goes on after its last good line
    app.resume.accept()
    app.setup.fill()
    app.pump()
    app.tap("g1", "f3")
    assert [m.san for m in app.flow.game.session.moves] == ["e4", "e5", "Nf3"]


def test_a_folder_where_the_journal_should_be_is_moved_aside(tmp_path):
    (tmp_path / "current.jsonl").mkdir()
    (tmp_path / "current.jsonl" / "inside.txt").write_text("kept")
    app = App(tmp_path)
    assert app.flow.display.screen == "problem"
    assert app.problem.view().reason == "where the saved game goes (current.jsonl) there is a folder"
    app.problem.go_on()
    assert not (tmp_path / "current.jsonl").exists()
    assert (tmp_path / "games" / "damaged.jsonl" / "inside.txt").read_text() == "kept"
    app.new_game(game="chess")
    assert app.flow.display.screen == "game" and (tmp_path / "current.jsonl").is_file()


def test_an_unexpected_error_in_the_replay_sets_the_journal_aside(tmp_path, monkeypatch):
    a_game_on_disk(tmp_path)

    def broken(entries, **kw):
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr(Table, "replay", broken)  # the app replays a game through its table
    app = App(tmp_path)
    assert app.flow.display.screen == "problem"
    assert app.problem.view().reason.startswith("an unexpected error while reading it (RecursionError")
    assert (tmp_path / "games" / "damaged.jsonl").exists() and not (tmp_path / "current.jsonl").exists()


def test_a_resume_worker_that_dies_shows_the_problem_screen_not_an_endless_progress_bar(tmp_path, monkeypatch):
    import companion.app.presenters.resume as resume_module

    a_game_on_disk(tmp_path)

    def dies(*a, **kw):
        raise MemoryError("out of memory")

    monkeypatch.setattr(resume_module, "resume", dies)
    app = App(tmp_path)
    assert app.flow.display.screen == "problem"
    v = app.problem.view()
    assert v.title == "The last game could not be loaded" and "MemoryError: out of memory" in v.reason
    assert "games/damaged.jsonl" in v.advice and v.retry == ""
    assert (tmp_path / "games" / "damaged.jsonl").exists()
    app.problem.go_on()
    assert app.flow.display.screen == "start"


def test_a_worker_that_cannot_even_start_is_reported(tmp_path):
    a_game_on_disk(tmp_path)
    app = App(tmp_path)
    app.flow.mailbox.run_in_worker = lambda work: (_ for _ in ()).throw(RuntimeError("can't start new thread"))
    app.flow.start()
    app.pump()
    assert app.flow.display.screen == "problem" and "can't start new thread" in app.problem.view().reason


class FailingComputer(FakeComputer):
    def __init__(self, failures: int):
        super().__init__()
        self.failures = failures

    def start(self, rules, pos, level, on_progress, on_done):
        if self.failures:
            self.failures -= 1
            self.started.append((level, pos.hash))
            on_done(ComputerFailed("RecursionError: maximum recursion depth exceeded"))
        else:
            super().start(rules, pos, level, on_progress, on_done)


def computer_game(tmp_path, failures):
    app = App(tmp_path)
    app.flow.ai.computer = app.computer = FailingComputer(failures)
    app.new_game(game="chess", computer_black=True)
    app.tap("e2", "e4")
    app.pump()
    return app


def test_a_computer_that_cannot_choose_a_move_shows_what_to_do_and_can_try_again(tmp_path):
    app = computer_game(tmp_path, failures=1)
    assert app.flow.display.screen == "problem" and app.flow.ai.thinking is None
    v = app.problem.view()
    assert v.title == "Computer could not choose a move" and "RecursionError" in v.reason
    assert v.retry == "Try again" and "make a move for Computer on the board" in v.advice
    app.problem.retry()
    app.pump()
    assert app.flow.display.screen == "game" and app.flow.ai.requested is not None  # the second search answered


def test_after_a_failed_search_the_players_may_move_for_the_computer(tmp_path):
    app = computer_game(tmp_path, failures=5)
    app.problem.go_on()
    app.pump()
    assert app.flow.display.screen == "game" and app.flow.ai.thinking is None and len(app.computer.started) == 1
    app.tap("e7", "e5")  # a person makes a move for the computer
    assert [m.san for m in app.flow.game.session.moves] == ["e4", "e5"]
    app.tap("g1", "f3")  # the position changed: the computer is asked again (and fails again)
    app.pump()
    assert len(app.computer.started) == 2 and app.flow.display.screen == "problem"


def test_the_space_levels_and_their_thresholds():
    assert space_level(None) is None and space_level(LOW_SPACE_BYTES) is None
    assert space_level(LOW_SPACE_BYTES - 1) == "low" and space_level(FULL_SPACE_BYTES) == "low"
    assert space_level(FULL_SPACE_BYTES - 1) == "full" and space_level(0) == "full"
    assert (LOW_SPACE_BYTES, FULL_SPACE_BYTES) == (20 * MB, 1 * MB)


def test_low_space_is_a_warning_before_the_game_and_during_it(tmp_path):
    free = [500 * MB]
    app = App(tmp_path / "data", free_bytes=lambda: free[0])
    assert app.start.view().problem == "" and app.flow.display.banner == ""
    free[0] = 12 * MB
    app.clock.t += 10_000
    app.pump()
    assert app.start.view().problem == "Little space left for saved games: 12 MB. Tap here."
    app.prompt.explain_warning()  # the tap: what to do, in a popup
    help_text = app.flow.display.prompt.title
    assert help_text.startswith("Space for saved games is running low: 12 MB free. Games still save.")
    assert str(tmp_path / "data" / "games") in help_text and app.flow.display.prompt.options == ()
    app.prompt.answer(None)
    assert app.flow.display.prompt is None
    app.new_game(game="chess")
    assert app.game.view().banner == "Little space left for saved games: 12 MB. Tap here."
    free[0] = 300 * 1024
    app.clock.t += 10_000
    app.pump()
    assert app.game.view().banner == "Storage almost full: 300 KB left. Tap here."
    app.prompt.explain_warning()
    assert "a move that cannot be saved is refused" in app.flow.display.prompt.title
    app.prompt.answer(None)
    free[0] = 500 * MB
    app.clock.t += 10_000
    app.pump()
    assert app.game.view().banner == ""


def test_a_refused_save_looks_at_the_space_at_once(tmp_path):
    from companion.journal import Journal
    from tests.test_journal_disk_full import no_space

    free = [500 * MB]
    app = App(tmp_path / "data", free_bytes=lambda: free[0])
    app.new_game(game="chess")
    free[0] = 0  # the card filled up between two looks
    app.flow.game.journal._write = no_space
    app.tap("e2", "e4")
    assert app.flow.game.session.moves == [] and "could not be saved" in app.game.view().notice
    assert app.game.view().banner == "Storage almost full: 0 KB left. Tap here."
    del app.flow.game.journal._write
    assert isinstance(app.flow.game.journal, Journal)


def test_the_real_free_space_is_measured_where_the_games_go(tmp_path):
    from companion.journal import free_space

    assert free_space(tmp_path / "not" / "yet" / "made") == free_space(tmp_path) > 0
    assert json.dumps(free_space(tmp_path))  # a plain number
