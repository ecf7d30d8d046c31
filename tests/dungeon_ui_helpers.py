"""The app's flow and presenters for Dungeon Chess, without Kivy: the product's wiring
(bootstrap.build_flow / build_presenters) on the simulated board, the real tracker and
deployment guide, a journal directory, a clock the test moves and a scripted random draw."""

from __future__ import annotations

from companion.app import bootstrap
from companion.app.presenters.flow import BoardLink
from companion.board.simulated import SimulatedBoard
from companion.journal import JournalStore
from tests.ui_fakes import FakeComputer


class Clock:
    def __init__(self):
        self.t = 0

    def __call__(self):
        self.t += 10
        return self.t


class DungeonApp:
    """The flow plus every presenter, driven as the Kivy app drives them."""

    def __init__(self, directory, computer: bool = False, drawn: int = 1):
        self.clock = Clock()
        sim = SimulatedBoard(8, 8)
        ids = iter(range(1, 1000))
        self.draws: list[int] = []

        def draw(n: int) -> int:
            self.draws.append(n)
            return drawn % n

        self.flow = bootstrap.build_flow(
            BoardLink(sim, sim, 8, 8, simulated=sim), JournalStore(directory),
            make_tracker=bootstrap.default_tracker(), computer=FakeComputer() if computer else None,
            clock_ms=self.clock, new_game_id=lambda: f"game-{next(ids)}", seed=lambda: b"\x01" * 32,
            run_in_worker=lambda work: work(), draw_seat=draw,
        )
        self.p = bootstrap.build_presenters(self.flow)
        self.flow.start()
        self.pump()

    # ----- the clock and the board -------------------------------------------------------------
    def pump(self):
        self.flow.pump(self.clock())

    def settle(self, ms: int = 2000):
        self.clock.t += ms
        self.pump()

    @property
    def sim(self) -> SimulatedBoard:
        return self.flow.board.simulated

    @property
    def rules(self):
        s = self.flow.session
        return s.rules if s is not None else self.flow.prep.rules

    def sq(self, name: str) -> int:
        return self.rules.geometry.parse_square(name)

    def name(self, sq: int) -> str:
        return self.rules.geometry.name_of(sq)

    def tap(self, *names, settle: bool = True):
        """Taps on the on-screen board (each lifts or puts a piece), then settle time."""
        for n in names:
            self.p.board.tap(self.sq(n) if isinstance(n, str) else n)
            self.pump()
        if settle:
            self.settle()

    def move(self, frm: str, to: str):
        """A move by hand: the victim lifted first, then the mover lifted and put down."""
        pos = self.flow.session.pos
        if pos.board[self.sq(to)] is not None:
            self.tap(to, settle=False)
        self.tap(frm, to)

    def follow_the_lights(self):
        """Do what the board asks: empty the squares that should be empty, fill the others."""
        s = self.flow.session
        expected = s.rules.expected_occupancy(s.pos)
        for sq in sorted(self.flow.sensed - expected):
            self.tap(sq, settle=False)
        for sq in sorted(expected - self.flow.sensed):
            self.tap(sq, settle=False)
        self.settle()

    # ----- the screens ---------------------------------------------------------------------------
    def choose_dungeon(self, board_map: str = "dungeon-compact"):
        self.p.start.choose_game("dungeon")
        self.p.start.choose_map(board_map)
        self.p.start.start()
        self.pump()

    def draft_defaults(self, first: str = "first"):
        """Every seat keeps its army; then who starts."""
        while self.flow.prompt is None:
            self.p.draft.next()
        self.answer(first)

    def answer(self, key: str):
        self.p.prompt.answer(key)
        self.pump()

    def answer_label(self, label: str):
        prompt = self.flow.prompt
        assert prompt is not None, "no question on screen"
        keys = [o.key for o in prompt.options if o.label == label]
        assert keys, f"{label!r} is not one of {[o.label for o in prompt.options]}"
        self.answer(keys[0])

    def deploy_by_taps(self, limit: int = 200):
        """Put each unit on the first lit square of its spawn zone, one tap each."""
        for _ in range(limit):
            prep = self.flow.prep
            if prep is None or prep.deployment is None or prep.deployment.next_unit() is None:
                return
            free = sorted(prep.deployment.free_squares())
            self.tap(free[0], settle=False)
            self.settle(300)
        raise AssertionError("deployment did not finish")
