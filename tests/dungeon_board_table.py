"""Test support for Dungeon Chess on the physical board: a session around the tracker, and hands.

``DungeonTable`` is the session (the contract of docs/tracker.md): it feeds sensor events with
timestamps, plays every ``MoveDetected``/``AnswerDetected`` with ``rules.play`` and calls
``position_changed``, and records what was said. Its hands make moves the way a person does
(lift the mover, lift the victim, put the mover down) and follow the tracker's guidance after
an effect (take off what is lit to remove, fill what is lit to place). ``Hands`` does the
same for a deployment (companion/board/deployment.py).
"""

from __future__ import annotations

from typing import Iterable

from companion.board.deployment import DeploymentTracker
from companion.board.palette import Meaning
from companion.board.ports import OccupancySnapshot, SquareChanged
from companion.board.tracker import (AnswerDetected, GuidanceChanged, LedsChanged, MoveDetected, PromptRequested,
                                     ScreenMovesChanged, Tracker)
from companion.core.moves import Move
from companion.games import make_rules
from companion.games.draft import Army, Deployment, auto_placements


class DungeonTable:
    def __init__(self, rules, pos, gap: int = 40, **tracker_options):
        self.rules = rules
        self.pos = pos
        self.tracker = Tracker(rules, pos, **tracker_options)
        self.t = 0
        self.gap = gap
        self.outputs: list = []
        self.actions: list[str] = []  # every move and answer played, as text
        self.frames: list[dict[int, Meaning]] = []
        self.guidance_texts: list[str] = []
        self.handle(self.tracker.tick(0))

    # -- names
    def sq(self, name: str) -> int:
        return self.rules.geometry.parse_square(name)

    def name(self, sq: int) -> str:
        return self.rules.geometry.name_of(sq)

    def names(self, squares: Iterable[int]) -> set[str]:
        return {self.name(s) for s in squares}

    def lit(self, *, terrain: bool = False) -> dict[str, str]:
        """The current LED meanings by square name (water left out unless ``terrain``)."""
        return {self.name(s): m.value for s, m in self.tracker.meanings.items()
                if terrain or m is not Meaning.TERRAIN_WATER}

    # -- the session
    def handle(self, outputs: list) -> list:
        for o in outputs:
            self.outputs.append(o)
            if isinstance(o, LedsChanged):
                self.frames.append(dict(o.meanings))
            elif isinstance(o, GuidanceChanged) and o.text:
                self.guidance_texts.append(o.text)
            elif isinstance(o, MoveDetected):
                self.actions.append(self.rules.move_text(self.pos, o.move))
                self.rules.play(self.pos, o.move)
                self.handle(self.tracker.position_changed())
            elif isinstance(o, AnswerDetected):
                self.actions.append(self.rules.answer_text(o.answer))
                self.rules.play(self.pos, o.answer)
                self.handle(self.tracker.position_changed())
        return outputs

    # -- hands
    def lift(self, name: str | int, dt: int | None = None) -> list:
        self.t += self.gap if dt is None else dt
        sq = name if isinstance(name, int) else self.sq(name)
        return self.handle(self.tracker.feed(SquareChanged(sq, False, self.t)))

    def put(self, name: str | int, dt: int | None = None) -> list:
        self.t += self.gap if dt is None else dt
        sq = name if isinstance(name, int) else self.sq(name)
        return self.handle(self.tracker.feed(SquareChanged(sq, True, self.t)))

    def wait(self, ms: int = 2000) -> list:
        self.t += ms
        return self.handle(self.tracker.tick(self.t))

    def snapshot(self, squares: Iterable[int]) -> list:
        self.t += self.gap
        return self.handle(self.tracker.feed(OccupancySnapshot(frozenset(squares), self.t)))

    def choose(self, option: str) -> list:
        return self.handle(self.tracker.choose(option))

    def run(self, steps, settle: int = 2000) -> "DungeonTable":
        for kind, arg in steps:
            getattr(self, kind)(arg)
        if settle:
            self.wait(settle)
        return self

    def make(self, move: Move, victim_first: bool = True, settle: int = 2000) -> None:
        """Make ``move`` with the hands (only what a hand does: the mover and its victim)."""
        if move.special in ("hex", "pass"):
            self.choose(self.rules.move_text(self.pos, move))
            return
        steps = []
        if move.capture is not None and victim_first:
            steps.append(("lift", move.capture))
        steps.append(("lift", move.frm))
        if move.capture is not None and not victim_first:
            steps.append(("lift", move.capture))
        steps.append(("put", move.to))
        self.run(steps, settle)

    def follow_guidance(self, limit: int = 200) -> None:
        """Do what the lit squares say until the board shows the game: pieces that move go
        square to square, then the rest is taken off and put on."""
        for _ in range(limit):
            if self.tracker.status not in ("out-of-sync", "setup"):
                return
            g = self.tracker.guidance
            sensed = self.tracker.sensed
            if g.pairs:
                a, b = g.pairs[0]
                if a in sensed:
                    self.lift(a)
                if b not in self.tracker.sensed:
                    self.put(b)
                continue
            lifted = [s for s in g.remove if s in sensed]
            if lifted:
                self.lift(lifted[0])
                continue
            placed = [s for s in g.place if s not in sensed]
            if placed:
                self.put(placed[0])
                continue
            raise AssertionError(f"guidance gives nothing to do: {g}")
        raise AssertionError("the board never came back in step")

    # -- what was said
    def of(self, cls) -> list:
        return [o for o in self.outputs if isinstance(o, cls)]

    def prompt(self) -> PromptRequested | None:
        return self.tracker.prompt

    def screen_moves(self) -> ScreenMovesChanged:
        return self.tracker.screen_moves

    def text(self) -> str:
        return self.rules.position_text(self.pos)


# ----- deployment ------------------------------------------------------------------------------

SMALL = {
    "human": Army("human", ("princess", "wizard", "hero", "hero")),
    "undead": Army("undead", ("warlock", "reaper", "skeleton", "skeleton")),
    "redskin": Army("redskin", ("red_dragon", "salamander", "kobold")),
    "greenskin": Army("greenskin", ("warlord", "shaman", "troll", "goblin")),
}


class Hands:
    """A person at the board during deployment, and the screen reading the outputs."""

    def __init__(self, map_name: str, armies, **options):
        self.rules = make_rules("dungeon", map_name)
        self.deployment = Deployment(self.rules, armies)
        self.guide = DeploymentTracker(self.rules, self.deployment, **options)
        self.t = 0
        self.outputs: list = []
        self.frames: list = []
        self.take(self.guide.tick(0))

    def take(self, outputs):
        for o in outputs:
            self.outputs.append(o)
            if isinstance(o, LedsChanged):
                self.frames.append(dict(o.meanings))
        return outputs

    def sq(self, name):
        return self.rules.geometry.parse_square(name) if isinstance(name, str) else name

    def name(self, sq):
        return self.rules.geometry.name_of(sq)

    def put(self, square, settle=200):
        self.t += 40
        out = self.take(self.guide.feed(SquareChanged(self.sq(square), True, self.t)))
        return out + self.wait(settle)

    def lift(self, square, settle=200):
        self.t += 40
        out = self.take(self.guide.feed(SquareChanged(self.sq(square), False, self.t)))
        return out + self.wait(settle)

    def wait(self, ms):
        if not ms:
            return []
        self.t += ms
        return self.take(self.guide.tick(self.t))

    def lit(self):
        return {self.name(s): m.value for s, m in self.guide.meanings.items() if m.value != "terrain-water"}

    def of(self, cls):
        return [o for o in self.outputs if isinstance(o, cls)]


def deploy_everything(hands: Hands) -> list:
    """Put every unit where the automatic deployment would, one piece at a time."""
    placed = []
    while hands.deployment.next_unit() is not None:
        player, _ = hands.deployment.next_unit()
        rest = [u for p, u in hands.deployment.queue[len(hands.deployment.placed):] if p == player]
        name, sq = auto_placements(hands.rules, player, rest, hands.deployment.placed)[0]
        hands.put(sq)
        placed.append((player, name, sq))
    return placed
