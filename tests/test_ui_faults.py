"""Window tests (Xvfb) of faults: the real app started on each kind of poisoned journal reaches
a usable screen with the message, the file set aside; a resume worker that dies and a computer
whose search fails show the problem screen, and the app goes on. (Scenarios:
tests/ui_fault_driver.py; the same faults without a window: tests/test_app_faults.py.)"""

from __future__ import annotations

import pytest

from tests.test_app_faults import POISONS, a_game_on_disk
from tests.ui_scenarios import HERE, SHOTS, run_scenario

pytestmark = pytest.mark.ui

DRIVER = HERE / "ui_fault_driver.py"
DOCS_SHOTS = {("computer-fails", "problem-computer"): "problem.png",
              ("low-space", "low-space-game"): "storage-low.png"}


def run(scenario, data, tmp_path, shots_name=None, expected_errors=()):
    shots, _ = run_scenario(DRIVER, scenario, SHOTS / (shots_name or scenario), data, tmp_path,
                            docs_shots=DOCS_SHOTS, expected_errors=expected_errors)
    return [s.stem for s in shots]


#: every poison of the presenter tests, plus a folder and a poisoned line after good ones
KINDS = sorted(POISONS) + ["a folder"]


@pytest.mark.parametrize("kind", KINDS)
def test_the_app_starts_on_a_poisoned_journal_with_the_message_and_the_file_set_aside(tmp_path, kind):
    data = tmp_path / "data"
    data.mkdir()
    if kind == "a folder":
        (data / "current.jsonl").mkdir()
    else:
        (data / "current.jsonl").write_bytes(POISONS[kind](data))
    shots = run("poisoned", data, tmp_path, shots_name=f"poisoned-{kind.replace(' ', '-').replace(',', '')}")
    assert shots == ["poisoned"]
    assert len(list((data / "games").glob("damaged*.jsonl"))) == 1
    assert (data / "current.jsonl").is_file()  # the new game's journal


def test_a_resume_worker_that_dies_shows_the_problem_screen_and_the_app_goes_on(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    a_game_on_disk(data)
    assert run("resume-dies", data, tmp_path) == ["problem-resume"]
    assert (data / "games" / "damaged.jsonl").exists() and not (data / "current.jsonl").exists()


def test_low_free_space_is_a_warning_on_the_start_screen_and_in_the_game(tmp_path):
    assert run("low-space", tmp_path / "data", tmp_path) == ["low-space-start", "low-space-help", "low-space-game"]


def test_a_computer_whose_search_fails_shows_what_to_do_and_the_game_goes_on(tmp_path):
    shots = run("computer-fails", tmp_path / "data", tmp_path, expected_errors=("the computer's search failed",))
    assert shots == ["problem-computer"]
