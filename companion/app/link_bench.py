"""``companion bench --only link``: a move from one board's reed switch to the other board's LEDs.

Two apps in this process (the product's flow and presenters, no Kivy), each with its simulated
board and the real tracker, linked over loopback TCP exactly as two boards are: the code shown
on one and typed on the other, the game proposed and accepted. Both are pumped 30 times a
second, as the Kivy shell pumps them (companion/app/shell.py), and their link threads run as on
a Pi. A player lifts a knight and puts it down on one board; the clock starts when the reed
switch under its new square closes (the board event, stamped as a board thread stamps it) and
stops when the other board's LED port is handed the frame that guides the move there. Each board's
player then makes the other's move on theirs: 30 quiet moves of one piece each.

Figures: the whole time (median, p99), and its two parts: the moving board's tracker waiting for
the piece to settle (a design choice, companion/board/tracker.py: a piece that is only passing
over a square is not a move; about 150 ms for a knight, 600 ms where the piece could be passing
on, as a pawn's single step or a slider's) and what remains (the link, the other app's pump, tracker and LED
frame). Target (issue 29): within 200 ms over loopback.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

from ..board.simulated import SimulatedBoard
from ..journal import JournalStore
from .bootstrap import build_flow, build_presenters, default_tracker, monotonic_ms
from .presenters.flow import BoardLink

Row = tuple[str, float, str]
PUMP_S = 1 / 30
CODE = 41209337
#: 30 quiet moves of one piece each (no capture, no castling, no position twice)
MOVES = tuple("g1f3 g8f6 b1c3 b8c6 e2e3 e7e6 d2d3 d7d6 f1e2 f8e7 c1d2 c8d7 a2a3 a7a6 h2h3 h7h6 b2b3 b7b6 "
              "g2g3 g7g6 a1b1 a8b8 h1g1 h8g8 e1f1 e8f8 d1c1 d8c8 b1a1 b8a8".split())


class _Leds:
    """The simulated board's LEDs, with the time each frame was handed over."""

    def __init__(self, sim: SimulatedBoard) -> None:
        self.sim, self.shown = sim, []

    def show(self, frame) -> None:
        self.shown.append(time.perf_counter())
        self.sim.show(frame)


class _Board:
    def __init__(self, data: Path, transport) -> None:
        self.sim = SimulatedBoard(8, 8)
        self.leds = _Leds(self.sim)
        self.flow = build_flow(BoardLink(self.sim, self.leds, 8, 8, simulated=self.sim), JournalStore(data),
                               make_tracker=default_tracker(), draw_seat=lambda n: CODE % n,
                               make_link_transport=transport, sticks=lambda: [], free_bytes=lambda: None)
        self.p = build_presenters(self.flow)
        self.flow.start()

    @property
    def moves(self) -> int:
        s = self.flow.game.session
        return len(s.moves) if s is not None else 0


def p99(values: list[float]) -> float:
    return sorted(values)[min(len(values) - 1, int(len(values) * 0.99))]


def _square(name: str) -> int:
    return "abcdefgh".index(name[0]) + 8 * (int(name[1]) - 1)


def bench_link_boards(quick: bool = False) -> list[Row]:
    from ..link.match import free_port
    from ..link.transport import TcpGuest, TcpHost

    port = free_port()

    def transport(role: str, nameplate: str):
        return TcpHost("127.0.0.1", port) if role == "host" else TcpGuest(("127.0.0.1", port))

    with tempfile.TemporaryDirectory(prefix="link-bench-") as folder:
        host, guest = _Board(Path(folder) / "host", transport), _Board(Path(folder) / "guest", transport)
        boards = (host, guest)

        def pump_until(test, seconds: float = 10.0, what: str = "") -> None:
            """Pump both apps 30 times a second until ``test()`` (without ``what``: for ``seconds``)."""
            end = time.monotonic() + seconds
            while time.monotonic() < end:
                for b in boards:
                    b.flow.pump(monotonic_ms())
                if test():
                    return
                time.sleep(PUMP_S)
            if what:
                raise RuntimeError(f"link bench: the boards did not get to {what} in {seconds} s")

        def wait_lit(mover: _Board, other: _Board, n: int, sent: list) -> float:
            """Pump until the other board has move ``n`` and its LEDs are handed the frame that
            guides it: that frame's time (``sent``: when the moving board had checked it)."""
            end = time.monotonic() + 10
            applied = False
            while time.monotonic() < end:
                for b in boards:
                    before = len(other.leds.shown)
                    b.flow.pump(monotonic_ms())
                    if b is mover and not sent and mover.moves == n:
                        sent.append(time.perf_counter())
                    if b is other and (applied or other.moves == n):
                        applied = True
                        if len(other.leds.shown) > before:
                            return other.leds.shown[before]
                time.sleep(PUMP_S)
            raise RuntimeError(f"link bench: move {n} was not lit on the other board within 10 s")

        try:
            host.p.start.choose_game("chess")
            host.p.start.open_kind(1)
            host.p.start.pick_kind("Friend's board")
            host.p.start.start()
            guest.p.start.join()
            for digit in str(CODE):
                guest.p.link.key(digit)
            pump_until(lambda: guest.flow.display.prompt is not None, what="the proposal")
            guest.p.prompt.answer("accept")
            pump_until(lambda: all(b.flow.display.screen == "setup" for b in boards), what="the game agreed")
            for b in boards:
                b.p.setup.fill()
            pump_until(lambda: all(b.flow.display.screen == "game" and b.flow.board.in_sync for b in boards),
                       what="the game")
            whole, settle = [], []
            plies = 16 if quick else len(MOVES)
            for ply in range(plies):
                move = MOVES[ply]
                mover, other = (host, guest) if ply % 2 == 0 else (guest, host)
                frm, to = _square(move[:2]), _square(move[2:])
                mover.sim.lift(frm, monotonic_ms())
                pump_until(lambda: False, 0.2)  # the piece in the hand a moment
                shown = len(other.leds.shown)
                t0 = time.perf_counter()
                mover.sim.place(to, monotonic_ms())  # the reed switch closes
                sent: list[float] = []
                lit = wait_lit(mover, other, ply + 1, sent)
                whole.append((lit - t0) * 1000)
                settle.append(((sent[0] if sent else lit) - t0) * 1000)
                other.sim.lift(frm, monotonic_ms())  # the other board's player makes it there
                pump_until(lambda: False, 0.2)
                other.sim.place(to, monotonic_ms())
                pump_until(lambda: other.flow.board.in_sync and mover.flow.board.in_sync, what="both boards in step")
        finally:
            for b in boards:
                b.flow.stop()
    rest = [w - s for w, s in zip(whole, settle)]
    return [
        ("link: reed switch to the other board's LEDs, loopback, two apps, median", statistics.median(whole), "ms"),
        ("link: reed switch to the other board's LEDs, loopback, two apps, p99", p99(whole), "ms"),
        ("link: of it, the moving board's tracker letting the piece settle, median", statistics.median(settle), "ms"),
        ("link: of it, the link and the other app (pump, tracker, LED frame), median", statistics.median(rest), "ms"),
        ("link: of it, the link and the other app (pump, tracker, LED frame), p99", p99(rest), "ms"),
    ]
