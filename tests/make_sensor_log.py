"""Make the sensor logs in tests/data/sensor-logs/ from real games, played by sloppy hands.

    python tests/make_sensor_log.py           write the logs
    python tests/make_sensor_log.py --check   exit 1 if a committed log differs from its recipe

Deterministic: each game has a fixed seed, and the hands' randomness (which order a capture
is made in, slides, bounces, pieces lifted and put back, pauses) comes only from it. The
games are replayed by our own engine (SAN read by matching ``rules.san``), so the script
needs nothing beyond the product itself. tests/test_tracker_replay.py replays every log and
checks the moves and the final position, and that the logs are what this script makes.

What a person's hands do here (see ``Hands``):

* think 0.3-2.5 s between moves; now and then lift one of their own pieces and put it back,
  or touch an enemy piece and put it back, before moving;
* slide riders and double-stepping pawns through the empty squares on the way, sometimes
  brushing an empty neighbouring square;
* make captures victim first or attacker first, castle king first or rook first, take en
  passant in any of its three orders, promote by putting the pawn down, answering the screen
  and swapping the pawn for the new piece (or swapping first);
* let reed switches bounce on some changes (1-3 extra toggles a few ms apart).
"""

from __future__ import annotations

import json
import random
import re
import sys
from collections import Counter
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from companion.core.moves import Answer  # noqa: E402
from companion.games import make_rules  # noqa: E402

OUT = ROOT / "tests" / "data" / "sensor-logs"

#: Real games. ``source`` says where the moves come from.
GAMES = {
    "lichess-5uSupub7": dict(
        seed=11,
        source="Casual rapid game maia1 - soyflourbread, lichess.org/5uSupub7, 2023-03-06, 0-1",
        moves="""1. d4 d5 2. Bf4 c5 3. e3 Nc6 4. dxc5 e5 5. Bg3 Bxc5 6. Bb5 Ne7 7. Bxe5 O-O 8. Nf3 Bg4
        9. h3 Bxf3 10. Qxf3 Nxe5 11. Qf4 N7g6 12. Qg3 Bd6 13. f4 Qh4 14. Qxh4 Nxh4 15. fxe5 Bxe5
        16. c3 Nxg2+ 17. Kf2 Nh4 18. Nd2 Ng6 19. Nf3 Bd6 20. Rad1 a6 21. Bd3 Rad8 22. Bxg6 fxg6
        23. Rxd5 Bg3+ 24. Kxg3 Rxd5 25. e4 Rd3 26. Rf1 h5 27. h4 Kf7 28. e5 Ke6 29. Kg2 Rfxf3
        30. Rxf3 Rxf3 31. Kxf3 Kxe5 32. Ke3 g5 33. hxg5 h4 34. Kf3 Kf5 35. Kg2 Kxg5 36. Kh3 g6
        37. b4 b5 38. a3 Kh5 39. Kh2 Kg4 40. Kg2 h3+ 41. Kh2 g5 42. Kh1 Kg3 43. Kg1 g4 44. Kh1 Kf3
        45. Kg1 g3 46. Kh1 g2+ 47. Kg1 h2+ 48. Kxh2 Kf2 49. Kh3 g1=Q 50. Kh4 Kf3 51. Kh5 Kf4
        52. Kh6 Kf5 53. Kh7 Kf6 54. Kh6 Qg6#""",
    ),
    "queenside-castling-two-promotions": dict(
        seed=23,
        source="The game in the test_evolution test of a public Rust chess engine (moves as published)",
        moves="""1. e4 c5 2. Nc3 Nc6 3. Nf3 e6 4. Bc4 d6 5. d4 cxd4 6. Nxd4 Nxd4 7. Qxd4 Ne7 8. Bg5 Nc6
        9. Qd2 f6 10. Be3 Be7 11. O-O-O Ne5 12. Be2 Bd7 13. Nb5 Bxb5 14. Bxb5+ Nc6 15. Bc4 Qd7
        16. Qe2 O-O 17. Qg4 f5 18. exf5 Ne5 19. Bxe6+ Qxe6 20. Qxg7+ Kxg7 21. fxe6 Kf6 22. Rhe1 Kxe6
        23. f4 Nc6 24. g4 Kf7 25. f5 Ne5 26. g5 Rfe8 27. f6 Bf8 28. Bf4 Kg6 29. h4 a6 30. Bxe5 dxe5
        31. Rd5 e4 32. Rd7 b6 33. Re2 h5 34. a3 Re6 35. Kb1 Bd6 36. Rg7+ Kf5 37. f7 Kg4 38. Rh7 Bg3
        39. g6 Be5 40. Rxe4+ Kf5 41. Rxe5+ Rxe5 42. g7 Ree8 43. fxe8=Q Rxe8 44. Rh8 Re1+ 45. Ka2 Rg1
        46. g8=Q Rxg8 47. Rxg8 Kf4 48. Kb3 Kf5 49. Rg5+ Ke6 50. Rxh5 Kd7""",
    ),
    "gundersen-faul-1928": dict(
        seed=37,
        source="G. Gundersen - A. H. Faul, Christmas tournament 1928, 1-0 (mate by en passant)",
        moves="""1. e4 e6 2. d4 d5 3. e5 c5 4. c3 cxd4 5. cxd4 Bb4+ 6. Nc3 Nc6 7. Nf3 Nge7 8. Bd3 O-O
        9. Bxh7+ Kxh7 10. Ng5+ Kg6 11. h4 Nxd4 12. Qg4 f5 13. h5+ Kh6 14. Nxe6+ g5 15. hxg6#""",
    ),
}

PROMOTION_CHOICE = "q"


def san_moves(text: str) -> list[str]:
    return [t for t in re.sub(r"\d+\.(\.\.)?", " ", text).split() if t not in ("1-0", "0-1", "1/2-1/2", "*")]


def find_move(rules, pos, san: str):
    want = san.rstrip("+#")
    for m in rules.legal_moves(pos):
        if rules.san(pos, m).rstrip("+#") == want:
            return m
    raise ValueError(f"{san} is not legal in {rules.fen(pos)}")


class Hands:
    """A person moving pieces: turns moves into timestamped switch events."""

    def __init__(self, rules, pos, seed: int, think: tuple[int, int] = (300, 2500)):
        self.think = think
        self.rules = rules
        self.g = rules.geometry
        self.pos = pos
        self.rng = random.Random(seed)
        self.t = 0
        self.occ = set(pos.occupied())
        self.lines: list[dict] = []
        self.did: Counter = Counter()  # what the hands did, for the tests to check the log's variety

    # -- primitives
    def _event(self, sq: int, occupied: bool, dt: int) -> None:
        self.t += dt
        assert (sq in self.occ) != occupied, (self.g.name_of(sq), occupied)
        if occupied:
            self.occ.add(sq)
        else:
            self.occ.discard(sq)
        self.lines.append({"t": self.t, "square": self.g.name_of(sq), "occupied": occupied})
        if self.rng.random() < 0.2:  # the reed switch bounces
            self.did["bounce"] += 1
            for _ in range(self.rng.randint(1, 3)):
                for state in (not occupied, occupied):
                    self.t += self.rng.randint(1, 6)
                    self.lines.append({"t": self.t, "square": self.g.name_of(sq), "occupied": state})

    def lift(self, sq: int, dt: int | None = None) -> None:
        self._event(sq, False, self.rng.randint(80, 300) if dt is None else dt)

    def put(self, sq: int, dt: int | None = None) -> None:
        self._event(sq, True, self.rng.randint(80, 300) if dt is None else dt)

    def say(self, key: str, value, dt: int) -> None:
        self.t += dt
        self.lines.append({"t": self.t, key: value})

    # -- sloppiness
    def fidget(self) -> None:
        """Before moving: lift one of your own pieces (or touch an enemy one) and put it back."""
        roll = self.rng.random()
        me = self.pos.turn
        if roll < 0.15:
            self.did["own piece lifted and put back"] += 1
            sq = self.rng.choice(sorted(self.pos.occ[me]))
            self.lift(sq)
            self.put(sq, self.rng.randint(150, 700))
        elif roll < 0.22:
            self.did["enemy piece touched and put back"] += 1
            sq = self.rng.choice(sorted(self.pos.occ[1 - me]))
            self.lift(sq)
            self.put(sq, self.rng.randint(150, 500))

    def path(self, frm: int, to: int) -> list[int]:
        w = self.g.width
        dx, dy = to % w - frm % w, to // w - frm // w
        if not (dx == 0 or dy == 0 or abs(dx) == abs(dy)):
            return []
        n = max(abs(dx), abs(dy))
        sx, sy = (dx > 0) - (dx < 0), (dy > 0) - (dy < 0)
        return [frm + (sx + sy * w) * k for k in range(1, n)]

    def carry(self, frm: int, to: int, already_lifted: bool = False) -> None:
        """Lift a piece (unless in the hand already) and put it on ``to``, maybe sliding."""
        if not already_lifted:
            self.lift(frm)
        piece = self.pos.board[frm]
        slide = piece.kind.code in "RBQP" and self.rng.random() < 0.5
        if slide and self.path(frm, to) and self.path(frm, to)[0] not in self.occ:
            self.did["slide"] += 1
        if slide:
            for sq in self.path(frm, to):
                if sq in self.occ:
                    break
                self.put(sq, self.rng.randint(30, 90))
                if self.rng.random() < 0.25:  # brush an empty neighbour
                    near = [n for n in self._neighbours(sq) if n not in self.occ and n != to
                            and n not in self.pos.occupied()]
                    if near:
                        self.did["brush"] += 1
                        b = self.rng.choice(near)
                        self.put(b, self.rng.randint(5, 20))
                        self.lift(b, self.rng.randint(10, 30))
                self.lift(sq, self.rng.randint(30, 90))
        self.put(to)

    def _neighbours(self, sq: int) -> list[int]:
        w, h = self.g.width, self.g.height
        f, r = sq % w, sq // w
        return [(r + dr) * w + f + df for dr in (-1, 0, 1) for df in (-1, 0, 1)
                if (dr or df) and 0 <= f + df < w and 0 <= r + dr < h]

    # -- a whole move
    def make(self, move) -> None:
        self.t += self.rng.randint(*self.think)  # thinking
        self.fidget()
        if move.special == "castle":
            right = next(r for r, c in self.rules.castles.items() if c[0] == move.frm and c[1] == move.to)
            kf, kt, rf, rt = self.rules.castles[right][:4]
            side = "kingside" if kt % self.g.width == 6 else "queenside"
            if self.rng.random() < 0.5:
                self.did[f"castling {side} king first"] += 1
                self.carry(kf, kt)
                self.t += self.rng.randint(100, 900)
                self.carry(rf, rt)
            else:
                self.did[f"castling {side} rook first"] += 1
                self.carry(rf, rt)
                self.t += self.rng.randint(100, 900)
                self.carry(kf, kt)
        elif move.special == "ep":
            order = self.rng.randint(0, 2)
            self.did[f"en passant order {order}"] += 1
            if order == 0:
                self.lift(move.capture)
                self.carry(move.frm, move.to)
            elif order == 1:
                self.carry(move.frm, move.to)
                self.lift(move.capture)
            else:
                self.lift(move.frm)
                self.lift(move.capture)
                self.carry(move.frm, move.to, already_lifted=True)
        elif move.capture is not None:
            if self.rng.random() < 0.5:  # victim first
                self.did["capture victim first"] += 1
                self.lift(move.capture)
                self.carry(move.frm, move.to)
            else:  # attacker first: hold it, take the victim off, put it down
                self.did["capture attacker first"] += 1
                self.lift(move.frm)
                self.lift(move.capture)
                self.carry(move.frm, move.to, already_lifted=True)
        else:
            self.carry(move.frm, move.to)
        if move.promotion:
            self.did["promotion with capture" if move.capture is not None else "promotion"] += 1
            wait = self.rng.randint(300, 700)  # the question appears after the settle time
            swap = [("lift", self.rng.randint(200, 500)), ("put", self.rng.randint(300, 900))]
            if self.rng.random() < 0.5:
                self.say("choose", move.promotion.lower(), wait)
                self.lift(move.to, swap[0][1])
                self.put(move.to, swap[1][1])
            else:
                self.lift(move.to, wait)
                self.put(move.to, swap[1][1])
                self.say("choose", move.promotion.lower(), self.rng.randint(200, 600))
        self.rules.apply(self.pos, move)


class Log(NamedTuple):
    lines: list[dict]
    moves: list[str]  # UCI
    final: str  # the final position text
    did: Counter  # what the hands did


def game_log(name: str, seed: int | None = None, think: tuple[int, int] = (300, 2500)) -> Log:
    """The log of game ``name``: its lines, moves, final position and what the hands did.
    ``seed`` and ``think`` (ms between moves) vary the hands (tests try other seeds too)."""
    spec = GAMES[name]
    rules = make_rules("chess")
    pos = rules.start_position()
    seed = spec["seed"] if seed is None else seed
    hands = Hands(rules, pos, seed, think)
    uci = []
    for san in san_moves(spec["moves"]):
        move = find_move(rules, pos, san)
        uci.append(rules.move_text(pos, move))
        hands.make(move)
    lines = [{"note": f"{spec['source']}. Made by tests/make_sensor_log.py (seed {seed})."}]
    return Log(lines + hands.lines, uci, rules.fen(pos), hands.did)


def combat_log() -> Log:
    """Combat Chess, scripted: 1.e4 d5 2.exd5 and the defender wins the fight (dice rolled);
    the board is put right (the white pawn off d5, the black one back); 2...Nf6 3.a3 d4 4.Nc3
    dxc3 and the attacker wins (an abstract result): nothing to put right."""
    rules = make_rules("combat")
    pos = rules.start_position()
    lines: list[dict] = [{"note": "Combat Chess: a fight lost by the attacker, guided back. Made by "
                                  "tests/make_sensor_log.py."}]
    uci: list[str] = []
    t = 0

    def ev(name: str, occupied: bool, dt: int = 250) -> None:
        nonlocal t
        t += dt
        lines.append({"t": t, "square": name, "occupied": occupied})

    def say(key: str, value, dt: int = 400) -> None:
        nonlocal t
        t += dt
        lines.append({"t": t, key: value})

    def move(text: str, victim_first: bool = False) -> None:
        m = rules.parse_move(pos, text)
        frm, to = text[:2], text[2:4]
        if m.capture is None:
            ev(frm, False, 900)
            ev(to, True)
        elif victim_first:
            ev(to, False, 900)
            ev(frm, False)
            ev(to, True)
        else:
            ev(frm, False, 900)
            ev(to, False)
            ev(to, True)
        uci.append(text)
        rules.apply(pos, m)

    move("e2e4")
    move("d7d5")
    move("e4d5")
    attacker, (defender,) = rules.fighters(pos)
    a, d = next(((a,), (d,)) for a in range(1, attacker.dice.sides + 1) for d in range(1, defender.dice.sides + 1)
                if attacker.total((a,)) < defender.total((d,)))
    say("dice", [list(a), [list(d)]])
    rules.apply(pos, Answer("fight", ("roll", a, (d,))))
    ev("d5", False, 1500)  # the white pawn taken off (it lost) ...
    ev("d5", True, 800)  # ... and the black pawn put back
    move("g8f6")
    move("a2a3")
    move("d5d4")
    move("b1c3")
    move("d4c3", victim_first=True)
    say("fight", "attacker")
    rules.apply(pos, Answer("fight", "attacker"))
    return Log(lines, uci, rules.position_text(pos), Counter({"fight lost by the attacker": 1}))


def render(lines: list[dict]) -> str:
    return "".join(json.dumps(line, separators=(", ", ": ")) + "\n" for line in lines)


def expected_file(name: str) -> Path:
    return OUT / f"{name}.expected"


def all_logs() -> dict[str, Log]:
    out = {name: game_log(name) for name in GAMES}
    out["combat-fight-lost"] = combat_log()
    return out


def main(argv: list[str]) -> int:
    check = "--check" in argv
    OUT.mkdir(parents=True, exist_ok=True)
    differ = []
    for name, (lines, uci, final, _) in all_logs().items():
        text = render(lines)
        expected = "".join(m + "\n" for m in uci) + f"final {final}\n"
        for path, content in ((OUT / f"{name}.jsonl", text), (expected_file(name), expected)):
            if check:
                if not path.exists() or path.read_text() != content:
                    differ.append(path.name)
            else:
                path.write_text(content)
    if differ:
        print(f"make_sensor_log: out of date: {', '.join(differ)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
