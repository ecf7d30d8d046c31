"""Build the app's flow and presenters without Kivy: simulated board, the real tracker,
a fake computer, a journal directory, and a clock the test moves."""

from __future__ import annotations

from companion.app.bootstrap import build_presenters
from companion.app.presenters.flow import AppFlow, BoardLink
from companion.board.simulated import SimulatedBoard
from companion.journal import JournalStore
from companion.board.tracker import Tracker
from tests.ui_fakes import FakeComputer


class Clock:
    def __init__(self):
        self.t = 0

    def __call__(self):
        self.t += 10
        return self.t


class App:
    """The flow plus one presenter per screen, driven like the Kivy app drives them."""

    def __init__(self, directory, computer=True, seed=b"\x01" * 32, free_bytes=None, draws=None, media_roots=(),
                 voice=None, board_settings=None, link_transport=None, online=None):
        self.sim = SimulatedBoard(8, 8)
        self.clock = Clock()
        self.computer = FakeComputer() if computer else None
        ids = iter(range(1, 1000))
        self.flow = AppFlow(
            BoardLink(self.sim, self.sim, 8, 8, simulated=self.sim),
            JournalStore(directory),
            make_tracker=Tracker,
            clock_ms=self.clock,
            new_game_id=lambda: f"game-{next(ids)}",
            new_seed=lambda: seed,
            computer=self.computer,
            run_in_worker=lambda work: work(),
            free_bytes=free_bytes,
            draw_seat=(lambda n: next(draws) % n) if draws is not None else (lambda n: 0),
            media_roots=media_roots,
            today=lambda: "2026.11.22",
            new_salt=lambda: b"\x02" * 16,
            voice=voice,
            board_settings=board_settings,
            **({"make_link_transport": link_transport} if link_transport is not None else {}),
            online=online(self.clock) if online is not None else None,
        )
        f = self.flow
        p = build_presenters(f)  # the product's own presenters, each given the rooms it uses
        self.presenters = p
        self.start, self.setup, self.game = p.start, p.setup, p.game
        self.board, self.fight, self.over = p.board, p.fight, p.over
        self.prompt, self.info, self.resume = p.prompt, p.info, p.resume
        self.check, self.problem = p.check, p.problem
        self.bar = p.bar
        self.games, self.review = p.games, p.review
        self.clock_screen, self.table, self.arbiter = p.clock, p.table, p.arbiter
        self.entry = p.entry
        self.armies, self.duel = p.armies, p.duel
        self.text, self.position = p.text, p.position
        self.link = p.link
        self.online = p.online
        f.start()
        self.pump()

    def pump(self):
        self.flow.pump(self.clock())

    def sq(self, name):
        """A square's index on the board as it is now (8x8, or opened for a larger map)."""
        return "abcdefghijklmnopqrst".index(name[0]) + self.flow.board.link.width * (int(name[1:]) - 1)

    def tap(self, *names, settle=True):
        """Taps on the simulated board, then time for the tracker to settle the move."""
        for n in names:
            self.board.tap(self.sq(n))
            self.pump()
        if settle:
            self.clock.t += 2000
            self.pump()

    def start_at_the_table(self, game: str, clock: str, mode: str = "casual") -> None:
        """A game started from the start screen with the table's settings (a clock preset,
        casual or tournament), its board set up."""
        self.start.choose_game(game)
        self.start.table_settings()
        assert self.flow.display.screen == "table_setup"
        self.table.mode(mode)
        self.table.clock(clock)
        self.table.done()
        self.start.start()
        self.pump()
        self.setup.fill()
        self.pump()

    def pair_from(self, path, board: str) -> None:
        """A chess game's players from a pairing file (a stick's ``path``), board ``board``: the
        start screen's table settings, the file, the board, Done."""
        self.start.choose_game("chess")
        self.start.table_settings()
        self.table.pairing()
        self.prompt.answer(str(path))
        self.prompt.answer(board)
        self.table.done()

    def new_game(self, game="combat", dice="seeded", computer_black=False, start=None, fill=True):
        from companion.session import Seat
        seats = (Seat("White"), Seat("Computer", True, 2) if computer_black else Seat("Black"))
        self.flow.new_game(game, seats, dice, False, start)
        self.pump()
        if fill:
            self.setup.fill()
            self.pump()

    def name_seat(self, seat: int, text: str):
        """On the start screen: a tap on the seat's name, "Type a name", ``text`` on the keyboard."""
        self.start.open_names(seat)
        self.start.type_name()
        self.type(text)

    def type(self, text: str):
        """Type on the open on-screen keyboard or number pad, then OK."""
        for ch in text:
            self.entry.key("space" if ch == " " else ch)
        self.entry.done()
        self.pump()

    def fight_through(self):
        """Roll until the fight ends, finishing each animation, then continue."""
        while self.fight.phase() in ("ready", "again", "rolling"):
            if self.fight.phase() == "rolling":
                self.fight.animation_done()
            else:
                self.fight.act()
            self.pump()
        self.fight.act()
        self.pump()
