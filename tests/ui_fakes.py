"""Test doubles for the app: a small stand-in tracker and a computer player.

The stand-in follows the interface of companion.board.tracker (feed / tick / choose /
position_changed / request_move / begin_setup, outputs MoveDetected, LedsChanged,
GuidanceChanged, PromptRequested, InSync, OutOfSync) with the simplest possible inference: a
move is committed as soon as the sensed board equals the board after exactly one legal move
(no settle time), promotions are asked on screen, anything else is guided back. It exists so
the presenters can be tested without the real tracker; it is not used by the product.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.board.palette import Meaning
from companion.board.ports import OccupancySnapshot, SquareChanged


@dataclass(frozen=True)
class MoveDetected:
    move: object
    t_ms: int


@dataclass(frozen=True)
class LedsChanged:
    meanings: dict


@dataclass(frozen=True)
class GuidanceChanged:
    text: str
    remove: frozenset = frozenset()
    place: frozenset = frozenset()
    pairs: tuple = ()


@dataclass(frozen=True)
class PromptRequested:
    kind: str
    options: tuple
    text: str


@dataclass(frozen=True)
class InSync:
    pass


@dataclass(frozen=True)
class OutOfSync:
    pass


class StandInTracker:
    def __init__(self, rules, pos):
        self.rules, self.pos = rules, pos
        self.sensed: set[int] = set(rules.expected_occupancy(pos))
        self.setup = False
        self.requested = None
        self.waiting: list = []  # moves behind an open prompt
        self.t_ms = 0
        self.correcting = False
        self.lifted_since: set[int] = set()  # a capture needs its victim lifted
        self.calls: list[str] = []

    @property
    def expected(self) -> frozenset[int]:
        return self.rules.expected_occupancy(self.pos)

    @property
    def in_sync(self) -> bool:
        return frozenset(self.sensed) == self.expected

    def feed(self, event):
        self.calls.append("feed")
        if isinstance(event, SquareChanged):
            (self.sensed.add if event.occupied else self.sensed.discard)(event.square)
            if not event.occupied:
                self.lifted_since.add(event.square)
            self.t_ms = event.t_ms
        elif isinstance(event, OccupancySnapshot):
            self.sensed = set(event.occupied)
        return self._evaluate()

    def tick(self, t_ms):
        self.t_ms = t_ms
        return []

    def begin_setup(self):
        self.calls.append("begin_setup")
        self.setup = True
        return self._evaluate()

    def position_changed(self):
        self.calls.append("position_changed")
        self.waiting = []
        self.lifted_since = set()
        if self.requested is not None and self.requested not in self.rules.legal_moves(self.pos):
            self.requested = None
        # the game changed under the board (a fight's result, an undo): guide it, detect nothing
        self.correcting = frozenset(self.sensed) != self.expected
        return self._evaluate()

    def request_move(self, move):
        self.calls.append("request_move")
        self.requested = move
        return self._evaluate()

    def choose(self, option):
        self.calls.append(f"choose {option}")
        for m in self.waiting:
            if m.promotion == option or m == option:
                self.waiting = []
                self.requested = None
                return [MoveDetected(m, self.t_ms)]
        return []

    def _evaluate(self):
        sensed = frozenset(self.sensed)
        expected = self.expected
        lights = {}
        if self.setup:
            if sensed == expected:
                self.setup = False
                return [LedsChanged({}), GuidanceChanged("The board is ready."), InSync()]
            for sq in expected - sensed:
                lights[sq] = Meaning.SETUP_PLACE
            for sq in sensed - expected:
                lights[sq] = Meaning.REMOVE
            return [LedsChanged(lights), GuidanceChanged("Put the pieces on the lit squares.",
                                                         frozenset(sensed - expected), frozenset(expected - sensed)),
                    OutOfSync()]
        if sensed == expected:
            self.correcting = False
            self.lifted_since = set()
            if self.requested is not None:
                lights = {self.requested.frm: Meaning.COMPUTER_MOVE_FROM, self.requested.to: Meaning.COMPUTER_MOVE_TO}
            return [LedsChanged(lights), GuidanceChanged(""), InSync()]
        moves = [] if self.correcting else self.rules.legal_moves(self.pos)
        if self.requested is not None:
            moves = [m for m in moves if m == self.requested]
        matching = [m for m in moves if self.rules.occupancy_after(self.pos, m) == sensed
                    and (m.capture is None or m.capture in self.lifted_since)]
        if len(matching) == 1:
            self.requested = None
            return [MoveDetected(matching[0], self.t_ms)]
        if len(matching) > 1:
            self.waiting = matching
            kind = "promotion" if all(m.promotion for m in matching) else "ambiguous"
            options = tuple(m.promotion for m in matching) if kind == "promotion" else tuple(matching)
            return [PromptRequested(kind, options, "Promote the pawn to:" if kind == "promotion" else "Which move?")]
        lifted = [sq for sq in expected - sensed if self.pos.board[sq] is not None
                  and self.pos.board[sq].owner == self.pos.turn]
        if len(lifted) == 1 and not (sensed - expected - {m.to for m in moves if m.frm == lifted[0]}):
            sq = lifted[0]
            lights[sq] = Meaning.LIFTED
            for m in moves:
                if m.frm == sq:
                    lights[m.to] = Meaning.CAPTURE if m.capture is not None else Meaning.MOVE
            return [LedsChanged(lights), GuidanceChanged(""), OutOfSync()]
        for sq in sensed - expected:
            lights[sq] = Meaning.REMOVE
        for sq in expected - sensed:
            lights[sq] = Meaning.PLACE
        return [LedsChanged(lights), GuidanceChanged("Put the board back as lit.", frozenset(sensed - expected),
                                                     frozenset(expected - sensed)), OutOfSync()]


class FakeComputer:
    """Plays the first legal move in coordinate order, at once, reporting progress twice."""

    max_level = 3

    def __init__(self):
        self.started = []
        self.stopped = 0

    def start(self, rules, pos, level, on_progress, on_done):
        self.started.append((level, pos.hash))
        moves = sorted(rules.legal_moves(pos), key=lambda m: rules.move_text(pos, m))
        on_progress(0.5)
        on_done(moves[0] if moves else None)

    def stop(self):
        self.stopped += 1
