"""A game at the table driven by sensor events and clock presses, as the app drives it (tests only)."""

from __future__ import annotations

import functools

from companion.board.ports import SquareChanged
from companion.board.tracker import Tracker
from companion.session import GameSetup, Seat
from companion.tournament.quiet import QuietBoard
from companion.tournament.table import Table, TableSetup

S = 1000
MIN = 60 * S

#: the product's tracker with short settle times (as the window tests use)
FAST_TRACKER = functools.partial(Tracker, settle_ms=40, slow_settle_ms=80, castle_settle_ms=120)


class Harness:
    """A table, its quiet board (tournament) or tracker (casual), and the journal as a list."""

    def __init__(self, game: str = "chess", mode: str = "tournament", control: str | None = "5400+30",
                 start: str | None = None, names=("Ann", "Bob"), auto_press: bool = False, dice: str = "seeded",
                 **setup):
        seed = "5a" * 32 if game == "combat" and dice == "seeded" else None
        gs = GameSetup(game, tuple(Seat(n) for n in names), dice if game == "combat" else "virtual", False,
                       "h1", seed, start)
        self.journal: list[dict] = []
        self.table, self.events = Table.new(gs, TableSetup(mode, control, auto_press, **setup),
                                            recorder=self.journal.append)
        self.s = self.table.session
        self.t = 0
        if mode == "tournament":
            self.board = QuietBoard(self.s.rules, self.s.pos, make_tracker=FAST_TRACKER)
        else:
            self.board = FAST_TRACKER(self.s.rules, self.s.pos)
        self.outputs = list(self.s.attach_tracker(self.board))

    # ----- the board ---------------------------------------------------------------------------------
    def sq(self, name: str) -> int:
        return self.s.rules.geometry.parse_square(name)

    def lift(self, name: str, dt: int = 100) -> list:
        self.t += dt
        out = self.s.feed_board(SquareChanged(self.sq(name), False, self.t))
        self.outputs += out
        return self.table.observe(out, self.t) + out

    def put(self, name: str, dt: int = 100) -> list:
        self.t += dt
        out = self.s.feed_board(SquareChanged(self.sq(name), True, self.t))
        self.outputs += out
        return self.table.observe(out, self.t) + out

    def move(self, frm: str, to: str, capture: bool = False) -> list:
        """A move by hand (a capture lifts the victim first)."""
        out = []
        if capture:
            out += self.lift(to)
        out += self.lift(frm)
        out += self.put(to)
        return out

    def settle(self, ms: int = 2000) -> list:
        self.t += ms
        out = self.s.tick(self.t)
        return self.table.observe(out, self.t) + out

    def fix_board(self) -> None:
        """Do what the lights ask: empty and fill until the board shows the game."""
        expected = self.s.rules.expected_occupancy(self.s.pos)
        sensed = self.board.sensed
        for sq in sorted(sensed - expected):
            self.lift(self.s.rules.geometry.name_of(sq))
        for sq in sorted(expected - sensed):
            self.put(self.s.rules.geometry.name_of(sq))

    # ----- the clock ---------------------------------------------------------------------------------
    def start(self) -> list:
        return self.table.start_clock(self.t)

    def press(self, side: int | None = None, dt: int = 100) -> list:
        self.t += dt
        side = self.s.turn if side is None else side
        return self.table.press(side, self.t)

    def play(self, frm: str, to: str, capture: bool = False, think: int = 1000) -> list:
        """A move made and pressed (``think`` ms after the last event)."""
        self.t += think
        out = self.move(frm, to, capture)
        return out + self.press()

    def sans(self) -> list[str]:
        return [m.san for m in self.s.moves]

    def replayed(self) -> Table:
        """The table rebuilt from its journal (as after a power cut)."""
        table, used, problem = Table.replay(self.journal)
        assert problem is None and used == len(self.journal), problem
        return table


def fingerprint(table: Table):
    s = table.session
    c = table.clock
    clock = None if c is None else (c.left, c.moves, c.running, c.spent, c.flagged, c.stopped, c.paused)
    return (s.pos.snapshot(), tuple(s.moves), s.result, clock, tuple(table.notes), dict(table.plies),
            dict(table.illegal), tuple(table.offers), table.override, table.unfinished)
