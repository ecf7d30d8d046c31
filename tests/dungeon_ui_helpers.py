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
        return self.flow.board.link.simulated

    @property
    def rules(self):
        s = self.flow.game.session
        return s.rules if s is not None else self.flow.dungeon.prep.rules

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
        pos = self.flow.game.session.pos
        if pos.board[self.sq(to)] is not None:
            self.tap(to, settle=False)
        self.tap(frm, to)

    def follow_the_lights(self, limit: int = 80):
        """Do what the lit squares say (the game's tracker or the deployment guide) until the
        board shows the game: pieces that move go square to square, the rest off and on."""
        f = self.flow
        for _ in range(limit):
            guide = f.game.session.tracker if f.game.session is not None else f.dungeon.prep.guide
            if guide.status != "out-of-sync":
                self.settle()
                return
            g, sensed = guide.guidance, guide.sensed
            if g.pairs:
                a, b = g.pairs[0]
                if a in sensed:
                    self.tap(a, settle=False)
                if b not in guide.sensed:
                    self.tap(b, settle=False)
            elif [q for q in g.remove if q in sensed]:
                self.tap([q for q in g.remove if q in sensed][0], settle=False)
            elif [q for q in g.place if q not in sensed]:
                self.tap([q for q in g.place if q not in sensed][0], settle=False)
            else:
                raise AssertionError(f"the guidance gives nothing to do: {g}")
        raise AssertionError("the board never came back in step")

    # ----- the screens ---------------------------------------------------------------------------
    def choose_dungeon(self, board_map: str = "dungeon-compact"):
        self.p.start.choose_game("dungeon")
        self.p.start.choose_map(board_map)
        self.p.start.start()
        self.pump()

    def draft_defaults(self, first: str = "first"):
        """Every seat keeps its army; then who starts."""
        while self.flow.display.prompt is None:
            self.p.draft.next()
        self.answer(first)

    def answer(self, key: str):
        self.p.prompt.answer(key)
        self.pump()

    def answer_label(self, label: str):
        prompt = self.flow.display.prompt
        assert prompt is not None, "no question on screen"
        keys = [o.key for o in prompt.options if o.label == label]
        assert keys, f"{label!r} is not one of {[o.label for o in prompt.options]}"
        self.answer(keys[0])

    def deploy_by_taps(self, limit: int = 200):
        """Put each unit on the first lit square of its spawn zone, one tap each."""
        for _ in range(limit):
            prep = self.flow.dungeon.prep
            if prep is None or prep.deployment is None or prep.deployment.next_unit() is None:
                return
            free = sorted(prep.deployment.free_squares())
            self.tap(free[0], settle=False)
            self.settle(300)
        raise AssertionError("deployment did not finish")


# ----- the constructed four-player game (tests/dungeon_board_games.py) ------------------------------

FOUR_SEATS = ("Blue", "Red", "Green", "Yellow")


def quick_four_text() -> str:
    from tests.dungeon_board import position, rules
    from tests.dungeon_board_games import QUICK_FOUR_PIECES

    r = rules("dungeon-four-player")
    return r.position_text(position(r, QUICK_FOUR_PIECES, 0))


def start_quick_four(app: DungeonApp, seats=None) -> None:
    """The constructed position on the 20x20 map, four seats, the board set up for it."""
    from companion.session import Seat

    seats = seats or tuple(Seat(n) for n in FOUR_SEATS)
    app.flow.new_game("dungeon", seats, start=quick_four_text(), board_map="dungeon-four-player")
    app.pump()
    app.p.setup.fill()
    app.pump()
    app.settle()


def play_quick_four(app: DungeonApp, count: int | None = None, start: int = 0) -> None:
    """Play the script's entries ``start`` to ``count`` as people do: moves by hand, the step, the hex
    and the pass on the screen's buttons, effects followed on the board."""
    import re

    from tests.dungeon_board_games import QUICK_FOUR_SCRIPT

    for text, _why in QUICK_FOUR_SCRIPT[start:count]:
        prompt = app.flow.display.prompt
        if prompt is not None and prompt.kind == "step":
            app.answer_label(f"Step to {text}")
        elif prompt is not None and prompt.kind == "pass":
            app.answer_label("Pass")
        elif text.endswith("hex"):
            app.p.bar.action()
            app.pump()
            app.answer("0")
        else:
            frm, to = re.fullmatch(r"([a-t]\d+)([a-t]\d+)", text).groups()
            app.move(frm, to)
        if not app.flow.board.in_sync:
            app.follow_the_lights()


class ScriptedComputer:
    """A computer player that answers at once with the next of ``texts`` (a move, or an answer
    to a choice such as a Salamander's step), like companion.ai's player would."""

    max_level = 3

    def __init__(self, texts):
        self.texts = list(texts)
        self.asked = []

    def start(self, rules, pos, level, on_progress, on_done):
        text = self.texts.pop(0)
        self.asked.append((pos.pending.kind if pos.pending is not None else "move", text))
        if pos.pending is not None:
            on_done(next(a for a in rules.answers(pos) if rules.answer_text(a) == text))
        else:
            on_done(rules.parse_move(pos, text))

    def stop(self):
        pass
