"""The app's computer player adapter over companion.ai's level players and search worker
(faked here with the same interface: levels.LEVELS / ComputerPlayer, worker.SearchWorker and
its events)."""

from dataclasses import dataclass

import pytest
from types import SimpleNamespace

from companion.app.computer import ComputerFailed, SearchComputer
from companion.games import make_rules


@dataclass(frozen=True)
class Info:
    best: object
    elapsed: float


@dataclass(frozen=True)
class SearchProgressed:
    request: int
    info: Info


@dataclass(frozen=True)
class MoveFound:
    request: int
    info: Info

    @property
    def action(self):
        return self.info.best


@dataclass(frozen=True)
class SearchFailed:
    request: int
    error: str


class SearchWorker:
    made = []

    def __init__(self, now, deliver=None):
        self.deliver, self.stopped = deliver, False
        SearchWorker.made.append(self)

    def start(self, player, pos, budget, max_nodes=None):
        self.player, self.budget = player, budget
        moves = sorted(player.rules.legal_moves(pos), key=lambda m: player.rules.move_text(pos, m))
        if player.level.number == 99:
            self.deliver(SearchFailed(1, "boom"))
            return 1
        self.deliver(SearchProgressed(1, Info(None, budget * player.level.time_share / 2)))
        self.deliver(MoveFound(1, Info(moves[0], budget)))
        return 1

    def stop(self, wait=None):
        self.stopped = True


class ComputerPlayer:
    def __init__(self, rules, level, rng):
        self.rules, self.level, self.rng = rules, level, rng


LEVELS = tuple(SimpleNamespace(number=n, title=t, time_share=s)
               for n, t, s in ((1, "beginner", 0.5), (2, "novice", 0.5), (3, "strongest", 1.0)))
levels = SimpleNamespace(LEVELS=LEVELS, ComputerPlayer=ComputerPlayer)
worker = SimpleNamespace(SearchWorker=SearchWorker, SearchProgressed=SearchProgressed, MoveFound=MoveFound,
                         SearchFailed=SearchFailed)


def test_the_computer_reports_progress_and_its_move():
    c = SearchComputer(levels, worker, seconds=2.0)
    rules = make_rules("chess")
    pos = rules.start_position()
    seen = []
    c.start(rules, pos, 1, lambda f: seen.append(("progress", f)), lambda m: seen.append(("move", m)))
    assert seen[0] == ("progress", 0.5)
    assert seen[1] == ("move", rules.parse_move(pos, "a2a3"))
    assert c.max_level == 3 and c.level_title(3) == "strongest"


def test_each_seat_level_keeps_its_own_player_and_a_new_search_stops_the_old_one():
    c = SearchComputer(levels, worker)
    rules = make_rules("chess")
    pos = rules.start_position()
    c.start(rules, pos, 2, lambda f: None, lambda m: None)
    first = SearchWorker.made[-1]
    c.start(rules, pos, 2, lambda f: None, lambda m: None)
    assert first.stopped and SearchWorker.made[-1].player is first.player
    assert first.player.level.number == 2
    c.stop()
    assert SearchWorker.made[-1].stopped


def test_a_failed_search_answers_what_failed_not_a_move():
    broken = SimpleNamespace(LEVELS=(SimpleNamespace(number=99, title="x", time_share=1.0),),
                             ComputerPlayer=ComputerPlayer)
    c = SearchComputer(broken, worker)
    rules = make_rules("chess")
    done = []
    c.start(rules, rules.start_position(), 1, lambda f: None, done.append)
    assert len(done) == 1 and isinstance(done[0], ComputerFailed) and "boom" in done[0].reason


AI = SearchComputer.available()


def test_with_the_real_search_the_computer_answers_from_its_worker_and_its_move_is_lit(tmp_path):
    import time

    assert AI is not None, "companion.ai must be importable"

    from companion.app import bootstrap
    from companion.journal import JournalStore
    from companion.session import Seat

    link = bootstrap.open_board()
    flow = bootstrap.build_flow(link, JournalStore(tmp_path), make_tracker=bootstrap.default_tracker(), computer=AI)
    flow.start()
    flow.new_game("combat", (Seat("White"), Seat("Computer", True, 1)), "seeded")
    flow.game.fill_simulated_board()
    flow.pump(bootstrap.monotonic_ms())
    for sq in (12, 28):  # e2-e4 on the simulated board
        link.simulated.toggle(sq, bootstrap.monotonic_ms())
    deadline = time.monotonic() + 60  # a long bound on the event: a passing test waits for the answer only
    while flow.ai.requested is None and time.monotonic() < deadline:
        flow.pump(bootstrap.monotonic_ms())
        time.sleep(0.01)
    assert flow.ai.requested in flow.game.session.rules.legal_moves(flow.game.session.pos)
    assert flow.ai.thinking is None and flow.board.guidance.startswith("Move the black")
    flow.stop()
