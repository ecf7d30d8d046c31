"""The app's rooms on their own (docs/architecture.md, "The app's rooms"): the bus and the
mailbox, and presenters built from the few rooms they are given, with fakes for the rest,
never the whole app."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from companion.app.presenters.display import BOARD, Display
from companion.app.presenters.entry import Entry, EntryPresenter
from companion.app.presenters.games import GamesPresenter
from companion.app.presenters.mailbox import Mailbox
from companion.app.presenters.messages import Bus, GameClosed, LeaveGame, NewGame
from companion.app.presenters.problem import Problem, ProblemPresenter, Problems
from companion.app.presenters.questions import Prompt, PromptOption
from companion.app.presenters.resume import ResumePresenter
from companion.errors import CompanionError


def test_a_command_has_one_handler_that_answers_and_events_reach_every_subscriber_in_order():
    bus = Bus()
    bus.handles(NewGame, lambda c: f"started {c.game}")
    with pytest.raises(CompanionError, match="NewGame has a handler already"):
        bus.handles(NewGame, lambda c: None)
    assert bus.handle(NewGame("chess", ())) == "started chess"
    with pytest.raises(KeyError):
        bus.handle(LeaveGame())  # a command nobody handles is a wiring mistake, not silence
    heard = []
    bus.subscribe(GameClosed, lambda e: heard.append(("first", e.left_match)))
    bus.subscribe(GameClosed, lambda e: heard.append(("second", e.left_match)))
    bus.publish(GameClosed(True))
    bus.publish(NewGame("chess", ()))  # an event nobody hears: nothing happens
    assert heard == [("first", True), ("second", True)]


def test_the_mailbox_hands_each_kind_to_its_room_and_a_failed_worker_to_whoever_asked():
    ran = []
    box = Mailbox(run_in_worker=lambda work: work())
    woken = []
    box.wake = lambda: woken.append(1)
    box.route("board", lambda v: ran.append(("board", v)))
    box.on_failure("resume", lambda reason: ran.append(("resume failed", reason)))
    box.on_any_failure(lambda task, reason: ran.append((f"{task} failed", reason)))
    box.post("board", 1)
    box.post("nobody", 2)  # no room takes it: dropped
    box.in_worker("resume", lambda: 1 / 0)
    box.in_worker("games", lambda: [][1])
    assert len(woken) == 4 and ran == []  # nothing happens off the UI thread
    box.drain()
    assert ran == [("board", 1), ("resume failed", "ZeroDivisionError: division by zero"),
                   ("games failed", "IndexError: list index out of range")]
    box.post("board", 3)
    box.post("ai-done", 4)
    box.drop("board")  # the old board's events, after the board was opened again
    box.route("ai-done", lambda v: ran.append(("ai", v)))
    box.drain()
    assert ran[-1] == ("ai", 4) and ("board", 3) not in ran


def test_a_prompt_goes_back_to_the_room_that_asks_its_kind():
    display = Display()
    answers = []
    display.answers_to(("draw",), lambda prompt, key: answers.append((prompt.kind, key)))
    display.answers_to((BOARD,), lambda prompt, key: answers.append(("board", prompt.kind, key)))
    display.ask(Prompt("draw", "Draw?", (PromptOption("accept", "Yes"),), cancel=False))
    display.answer_prompt(None)  # it must be answered
    assert display.prompt is not None and answers == []
    display.answer_prompt("accept")
    display.ask(Prompt("step", "Step?", (PromptOption("0", "a1"),)))
    display.answer_prompt(None)  # a board question closed to look at the board: its room hears it
    display.ask(Prompt("menu", "Menu", (PromptOption("x", "X"),)))
    display.answer_prompt("x")  # nobody answers menus here: closed, nothing else
    assert answers == [("draw", "accept"), ("board", "step", None)] and display.prompt is None


def test_the_keyboard_presenter_needs_only_the_display():
    display = Display()
    typed = []
    p = EntryPresenter(display)
    display.open_entry(Entry("PIN", keys="digits", secret=True, on_done=lambda t: typed.append(t) or "wrong"))
    for key in "1234":
        p.key(key)
    p.done()
    assert typed == ["1234"] and p.view().problem == "wrong" and display.entry.text == ""  # a secret is cleared


@dataclass
class FakeResume:
    resumed: object = None
    progress: float = 0.25
    accepted: bool = False

    def accept(self) -> None:
        self.accepted = True


def test_presenters_are_built_from_a_fake_or_two():
    resume = FakeResume()
    view = ResumePresenter(resume).view()
    assert view.loading and view.title == "Loading the last game\u2026 25%"
    ResumePresenter(resume).accept()
    assert resume.accepted

    class Archive:
        saved, selected = None, staticmethod(lambda: None)

    assert GamesPresenter(Archive()).view().status  # "Reading the games..."

    class Game:
        session = None

    display = Display()
    problems = Problems(display, Game(), dungeon=None)
    retried = []
    problems.after("computer", close=lambda: None, retry=lambda: retried.append(1))
    display.screen = "game"
    problems.show(Problem("computer", "The computer could not move", "RecursionError", "Move for it", retry=True))
    p = ProblemPresenter(problems)
    assert display.screen == "problem" and p.view().retry == "Try again"
    p.retry()
    assert retried == [1] and display.screen == "start"  # no game open: back to the start screen
