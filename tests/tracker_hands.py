"""Test helpers for the tracker: a session that plays detected moves, and a person's hands.

``Table`` stands for the session around the tracker: it feeds sensor events with timestamps,
applies every MoveDetected with ``rules.play`` and calls ``position_changed`` (the contract),
and records everything. ``interleavings`` produces every order a person might do the physical
steps of a move in (h11's "split the input at every byte", for hands).
"""

from __future__ import annotations

from itertools import combinations
from typing import Iterable, Iterator, Sequence

from companion.board.palette import CONTEXTS, Meaning
from companion.board.ports import OccupancySnapshot, SquareChanged
from companion.board.tracker import (AnswerDetected, GuidanceChanged, IllegalMoveShown, InSync, LedsChanged,
                                     MoveDetected, OutOfSync, PromptRequested, PromptWithdrawn, Tracker)
from companion.games import make_rules

Step = tuple  # ("lift", "e2") | ("put", "e4") | ("wait", ms) | ("choose", "q")


class Table:
    """``rules``: a rules object to play (default: ``variant``'s)."""

    def __init__(self, fen: str | None = None, variant: str = "chess", gap: int = 40, rules=None,
                 **tracker_options):
        self.rules = rules if rules is not None else make_rules(variant)
        self.pos = self.rules.position_from_text(fen) if fen else self.rules.start_position()
        self.tracker = Tracker(self.rules, self.pos, **tracker_options)
        self.t = 0
        self.gap = gap
        self.outputs: list = []
        self.moves: list[str] = []
        self.frames: list[dict[int, Meaning]] = []
        self.handle(self.tracker.tick(0))

    # -- names
    def sq(self, name: str) -> int:
        return self.rules.geometry.parse_square(name)

    def names(self, squares: Iterable[int]) -> set[str]:
        return {self.rules.geometry.name_of(s) for s in squares}

    def lit(self) -> dict[str, str]:
        """The tracker's current LED meanings by square name (values: meaning names)."""
        return {self.rules.geometry.name_of(s): m.value for s, m in self.tracker.meanings.items()}

    # -- the session
    def handle(self, outputs: list) -> list:
        for o in outputs:
            self.outputs.append(o)
            if isinstance(o, LedsChanged):
                self.frames.append(dict(o.meanings))
            if isinstance(o, MoveDetected):
                self.moves.append(self.rules.move_text(self.pos, o.move))
                self.rules.play(self.pos, o.move)
                self.handle(self.tracker.position_changed())
            elif isinstance(o, AnswerDetected):  # a choice the game waited for, made on the board
                self.moves.append(self.rules.answer_text(o.answer))
                self.rules.play(self.pos, o.answer)
                self.handle(self.tracker.position_changed())
        return outputs

    # -- hands
    def lift(self, name: str, dt: int | None = None) -> list:
        self.t += self.gap if dt is None else dt
        return self.handle(self.tracker.feed(SquareChanged(self.sq(name), False, self.t)))

    def put(self, name: str, dt: int | None = None) -> list:
        self.t += self.gap if dt is None else dt
        return self.handle(self.tracker.feed(SquareChanged(self.sq(name), True, self.t)))

    def wait(self, ms: int) -> list:
        self.t += ms
        return self.handle(self.tracker.tick(self.t))

    def snapshot(self, names: Iterable[str]) -> list:
        self.t += self.gap
        occ = frozenset(self.sq(n) for n in names)
        return self.handle(self.tracker.feed(OccupancySnapshot(occ, self.t)))

    def choose(self, option: str) -> list:
        return self.handle(self.tracker.choose(option))

    def answer(self, text: str) -> list:
        """The screen answered the game's pending decision (a duel's, by its answer text):
        the session plays it and tells the tracker."""
        self.moves.append(text)
        self.rules.play(self.pos, self.rules.parse_answer(self.pos, text))
        return self.handle(self.tracker.position_changed())

    def follow(self) -> "Table":
        """Do what the board asks: lift every piece to take off (or to change), then put a
        piece on every square to fill, until it shows the game."""
        for _ in range(3):
            if self.tracker.in_sync:
                break
            g = self.tracker.guidance
            name = self.rules.geometry.name_of
            for sq in sorted(set(g.remove) | (self.tracker.sensed - self.tracker.expected)):
                if sq in self.tracker.sensed:
                    self.lift(name(sq))
            for sq in sorted(set(g.place) | (self.tracker.expected - self.tracker.sensed)):
                if sq not in self.tracker.sensed:
                    self.put(name(sq))
            self.wait(2000)
        return self

    def run(self, steps: Sequence[Step], settle: int = 2000) -> "Table":
        for step in steps:
            kind, arg = step[0], step[1]
            dt = step[2] if len(step) > 2 else None
            if kind == "lift":
                self.lift(arg, dt)
            elif kind == "put":
                self.put(arg, dt)
            elif kind == "wait":
                self.wait(arg)
            elif kind == "choose":
                self.choose(arg)
            else:
                raise ValueError(step)
        if settle:
            self.wait(settle)
        return self

    # -- what was said
    def of(self, cls) -> list:
        return [o for o in self.outputs if isinstance(o, cls)]

    def last_guidance(self) -> GuidanceChanged | None:
        g = self.of(GuidanceChanged)
        return g[-1] if g else None

    def prompts(self) -> list[PromptRequested]:
        return self.of(PromptRequested)

    def fen(self) -> str:
        return self.rules.position_text(self.pos)


def interleavings(*chains: Sequence[Step]) -> Iterator[tuple[Step, ...]]:
    """Every merge of the chains that keeps each chain's own order."""
    chains = [tuple(c) for c in chains if c]
    if not chains:
        yield ()
        return
    if len(chains) == 1:
        yield chains[0]
        return
    first, rest = chains[0], chains[1:]
    for merged_rest in interleavings(*rest):
        total = len(first) + len(merged_rest)
        for positions in combinations(range(total), len(first)):
            out, i, j = [], 0, 0
            pos_set = set(positions)
            for k in range(total):
                if k in pos_set:
                    out.append(first[i])
                    i += 1
                else:
                    out.append(merged_rest[j])
                    j += 1
            yield tuple(out)


def physically_possible(steps: Sequence[Step], occupied: set[str]) -> bool:
    """A piece can only be lifted from an occupied square and put on an empty one."""
    occ = set(occupied)
    for step in steps:
        if step[0] == "lift":
            if step[1] not in occ:
                return False
            occ.discard(step[1])
        elif step[0] == "put":
            if step[1] in occ:
                return False
            occ.add(step[1])
    return True


def chatter(step: Step, ms: int = 3) -> list[Step]:
    """A reed switch bouncing: the change, its undo and the change again, ``ms`` apart."""
    kind, sq = step[0], step[1]
    if kind not in ("lift", "put"):
        return [step]
    back = "put" if kind == "lift" else "lift"
    return [step, (back, sq, ms), (kind, sq, ms)]


def frame_contexts(frame: dict[int, Meaning]) -> list[str]:
    """Palette contexts that contain every meaning of ``frame`` (the colours stay apart there)."""
    used = set(frame.values()) | {Meaning.OFF}
    return [name for name, members in CONTEXTS.items() if used <= members]


__all__ = ["Table", "interleavings", "physically_possible", "chatter", "frame_contexts", "IllegalMoveShown",
           "InSync", "OutOfSync", "PromptRequested", "PromptWithdrawn", "MoveDetected", "GuidanceChanged"]
