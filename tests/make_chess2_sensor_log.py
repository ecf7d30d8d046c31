"""Make Chess 2 sensor logs: seeded games played through the real tracker by sloppy hands.

    python tests/make_chess2_sensor_log.py           write the logs to tests/data/sensor-logs/chess2/
    python tests/make_chess2_sensor_log.py --check   exit 1 if a committed log differs

Each game is a seeded Chess 2 game between two armies that prefers captures and special moves
(duels, Whirlwinds, rampages, pounces, teleports, king-turns), so its log holds every effect.
The hands: captures victim first or mover first; a Whirlwind's neighbours taken off around the
King lifted and put back; a rampage's victims in any order; a pounce with the Tiger set down on
its victim now and then (and guided home); a king-turn skipped by lifting a Warrior King or on
the screen; after a duel, the board is corrected as the lights say. The screen's answers (a duel
offered or not, the bids, a bluff's reward, a promotion) are ``choose`` lines. The log is made
by feeding the real tracker as it is written, so what it detects is what the log says; the
``.expected`` file is what ``companion replay --variant chess2 --armies A,B LOG`` prints.
"""

from __future__ import annotations

import json
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from companion.board.ports import SquareChanged  # noqa: E402
from companion.board.tracker import AnswerDetected, MoveDetected, Tracker  # noqa: E402
from companion.core.moves import Answer, Move  # noqa: E402
from companion.games.chess2 import rules_for  # noqa: E402

OUT = ROOT / "tests" / "data" / "sensor-logs" / "chess2"
#: name -> (white's army, black's army, seed, plies)
GAMES = {
    "chess2-animals-two-kings": ("animals", "two-kings", 1, 70),
    "chess2-reaper-empowered": ("reaper", "empowered", 1, 60),
    "chess2-classic-nemesis": ("classic", "nemesis", 14, 60),
}
SPECIAL = ("whirlwind", "rampage", "pounce", "castle", "ep")


@dataclass
class Log:
    lines: list[dict] = field(default_factory=list)
    moves: list[str] = field(default_factory=list)
    final: str = ""


class Player:
    """Plays a seeded game through the tracker, writing every sensor change as a log line."""

    def __init__(self, armies: tuple[str, str], seed: int, think: tuple[int, int] = (300, 1500)) -> None:
        self.rules = rules_for(armies)
        self.pos = self.rules.start_position()
        self.tracker = Tracker(self.rules, self.pos)
        self.rng = random.Random(seed)
        self.think = think
        self.t = 0
        self.log = Log()
        self.sensed = set(self.tracker.sensed)

    # ----- the log and the tracker ----------------------------------------------------------------
    def _handle(self, outputs) -> None:
        for o in outputs:
            if isinstance(o, MoveDetected):
                self.log.moves.append(self.rules.move_text(self.pos, o.move))
                self.rules.play(self.pos, o.move)
                self._handle(self.tracker.position_changed())
            elif isinstance(o, AnswerDetected):
                self.log.moves.append(self.rules.answer_text(o.answer))
                self.rules.play(self.pos, o.answer)
                self._handle(self.tracker.position_changed())

    def _at(self, dt: int) -> int:
        self.t += dt
        self._handle(self.tracker.tick(self.t))
        return self.t

    def change(self, sq: int, occupied: bool, dt: int | None = None) -> None:
        t = self._at(self.rng.randint(60, 250) if dt is None else dt)
        self.log.lines.append({"t": t, "square": self.rules.geometry.name_of(sq), "occupied": occupied})
        (self.sensed.add if occupied else self.sensed.discard)(sq)
        self._handle(self.tracker.feed(SquareChanged(sq, occupied, t)))
        if self.rng.random() < 0.08:  # a reed switch bounces
            for _ in range(self.rng.randint(1, 2)):
                self.change(sq, not occupied, 3)
                self.change(sq, occupied, 3)

    def choose(self, option: str) -> None:
        t = self._at(self.rng.randint(400, 1200))
        self.log.lines.append({"t": t, "choose": option})
        self._handle(self.tracker.choose(option))

    def settle(self) -> None:
        self._at(1700)

    # ----- hands ---------------------------------------------------------------------------------
    def make(self, move: Move) -> None:
        """One move by hand, in one of the orders a person might use."""
        rules, pos, rng = self.rules, self.pos, self.rng
        base = set(rules.expected_occupancy(pos))
        after = set(rules.occupancy_after(pos, move))
        gone = sorted(base - after - {move.frm})
        self._at(rng.randint(*self.think))
        if move.special == "castle":
            rook_from = next(iter(base - after - {move.frm}))
            rook_to = next(iter(after - base - {move.to}))
            pieces = [(move.frm, move.to), (rook_from, rook_to)]
            rng.shuffle(pieces)
            for a, b in pieces:
                self.change(a, False)
                self.change(b, True)
        elif move.frm == move.to or move.special == "pounce":
            # the Whirlwind's King, the Tiger: lifted, victims off, back home (a Tiger set
            # down on its victim now and then, then guided home)
            if move.special == "pounce" and rng.random() < 0.3:
                self.change(move.capture, False)
                self.change(move.frm, False)
                self.change(move.capture, True)
            else:
                first = gone[:1 + rng.randrange(len(gone))]
                if rng.random() < 0.5:
                    self.change(move.frm, False)
                    for v in first:
                        self.change(v, False)
                else:
                    for v in first:
                        self.change(v, False)
                    self.change(move.frm, False)
                self.change(move.frm, True)
                for v in gone:
                    if v in self.sensed:
                        self.change(v, False)
        else:
            victims = list(gone)
            if move.to in base:  # the mover lands where a victim stands: it goes first
                victims.append(move.to)
            rng.shuffle(victims)
            split = rng.randrange(len(victims) + 1)
            for v in victims[:split]:
                self.change(v, False)
            self.change(move.frm, False)
            for v in victims[split:]:
                if v == move.to or rng.random() < 0.5:
                    self.change(v, False)
            if move.to in self.sensed:
                self.change(move.to, False)
            self.change(move.to, True)
            for v in victims[split:]:
                if v in self.sensed and v != move.to:
                    self.change(v, False)
        self.settle()
        if move.promotion and self.tracker.prompt is not None and self.tracker.prompt.kind == "promotion":
            self.choose(move.promotion)
            self.change(move.to, False)  # the pawn swapped for the new piece
            self.change(move.to, True)
            self.settle()
        self.follow()

    def follow(self) -> None:
        """Do what the lights say until the board shows the game again."""
        for _ in range(4):
            if self.tracker.in_sync:
                return
            g = self.tracker.guidance
            for sq in sorted(set(g.remove) | (self.sensed - self.tracker.expected)):
                if sq in self.sensed:
                    self.change(sq, False)
            for sq in sorted(set(g.place) | (self.tracker.expected - self.sensed)):
                if sq not in self.sensed:
                    self.change(sq, True)
            self.settle()

    def answer(self) -> None:
        """A question of the game: a duel (on the screen), a king-turn (on the board or screen)."""
        rules, pos, rng = self.rules, self.pos, self.rng
        d = pos.pending
        answers = rules.answers(pos)
        if d.kind == "king-turn":
            moves = [a for a in answers if isinstance(a.value, Move)]
            whirls = [a for a in moves if a.value.special == "whirlwind"]
            r = rng.random()
            if whirls and r < 0.6:
                self.make(whirls[0].value)
            elif moves and r < 0.35:
                self.make(rng.choice(moves).value)
            elif r < 0.75:
                king = rng.choice(sorted(pos.royals[d.player]))
                self._at(rng.randint(*self.think))
                self.change(king, False)
                self.change(king, True)
                self.settle()
            else:
                self.choose("skip")
            return
        if d.kind == "duel":
            self.choose("duel" if rng.random() < 0.7 else "pass")
        elif d.kind == "bids":  # a bluff now and then (0 against 0)
            bluff = Answer("bids", (0, 0))
            self.choose(rules.answer_text(bluff if bluff in answers and rng.random() < 0.3 else rng.choice(answers)))
        else:
            self.choose(rules.answer_text(rng.choice(answers)))
        self.settle()
        self.follow()

    def play(self, plies: int) -> Log:
        rules, pos, rng = self.rules, self.pos, self.rng
        self.log.lines.append({"note": f"Chess 2, {rules.armies[0]} against {rules.armies[1]}. "
                                       f"Made by tests/make_chess2_sensor_log.py."})
        while (len(self.log.moves) < plies or pos.pending is not None) and rules.outcome(pos) is None:
            if pos.pending is not None:
                self.answer()
                continue
            moves = sorted(rules.legal_moves(pos), key=lambda m: rules.move_text(pos, m))
            special = [m for m in moves if m.special in SPECIAL]
            captures = [m for m in moves if m.capture is not None]
            kings = [m for m in moves if pos.board[m.frm].kind.royal and m.frm != m.to]
            r = rng.random()
            pool = special if special and r < 0.5 else captures if captures and r < 0.8 else moves
            if len(self.log.moves) > plies * 0.6:  # late: no invasion race, keep the game going
                pool = [m for m in pool if m not in kings] or pool
            self.make(rng.choice(pool))
        self.log.final = rules.position_text(pos)
        return self.log


def game_log(name: str, seed: int | None = None, think: tuple[int, int] = (300, 1500)) -> Log:
    white, black, default_seed, plies = GAMES[name]
    return Player((white, black), default_seed if seed is None else seed, think).play(plies)


def write(name: str, log: Log) -> tuple[str, str]:
    body = "".join(json.dumps(line) + "\n" for line in log.lines)
    expected = "".join(m + "\n" for m in log.moves) + f"final {log.final}\n"
    return body, expected


def main(argv: list[str]) -> int:
    check = "--check" in argv
    bad = 0
    for name in GAMES:
        body, expected = write(name, game_log(name))
        files = {OUT / f"{name}.jsonl": body, OUT / f"{name}.expected": expected}
        for path, text in files.items():
            if check:
                if not path.exists() or path.read_text() != text:
                    print(f"{path.name} differs from what the script makes", file=sys.stderr)
                    bad = 1
            else:
                path.write_text(text)
    return bad


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
