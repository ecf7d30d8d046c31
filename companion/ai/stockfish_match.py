"""Benchmark: the strongest level against Stockfish at a limited strength (FIDE chess).

    python -m companion.ai.stockfish_match --games 20 --movetime 1000 --elo 1350

Needs python-chess (a test/benchmark dependency, never used by the product) and a UCI engine
(Debian: ``apt-get install stockfish``, /usr/games/stockfish). Stockfish gets
``UCI_LimitStrength = true`` and ``UCI_Elo``; both sides get the same time per move. Colours
alternate; a game still running after ``--max-plies`` moves is adjudicated a draw. The game's
end is judged by our rules; checkmate and stalemate are cross-checked against python-chess. Prints one line per game
and, last, ``score ours-stockfish-draws``.
"""

from __future__ import annotations

import argparse
import random
import time

from ..games import make_rules
from ..i18n import _
from .collector import collector_paused
from .levels import STRONGEST, ComputerPlayer


def play(games: int, movetime: float, elo: int, engine_path: str, seed: int, max_plies: int, out=print) -> tuple[int, int, int]:
    import chess
    import chess.engine

    rules = make_rules("chess")
    engine = chess.engine.SimpleEngine.popen_uci(engine_path)
    try:
        engine.configure({"UCI_LimitStrength": True, "UCI_Elo": elo, "Threads": 1, "Hash": 16})
        ours = theirs = draws = 0
        for g in range(games):
            our_colour = g % 2  # 0: we are white
            player = ComputerPlayer(rules, STRONGEST, random.Random(f"{seed}:{g}"))
            pos = rules.start_position()
            board = chess.Board()
            plies = 0
            longest = 0.0
            t_start = time.perf_counter()
            result = None
            while True:
                o = rules.outcome(pos)
                # python-chess may also allow a claim one move early (FIDE 9.2: announcing the
                # move that repeats); checkmate and stalemate must agree exactly
                if (board.is_checkmate() or board.is_stalemate()) != (o is not None and o.reason in ("checkmate", "stalemate")):
                    raise AssertionError(f"end of game disagrees with python-chess at {board.fen()}: {o}")
                if o is not None:
                    result = "draw" if not o.winners else ("ours" if our_colour in o.winners else "stockfish")
                    reason = o.reason
                    break
                if plies >= max_plies:
                    result, reason = "draw", f"adjudicated after {plies} plies"
                    break
                if pos.turn == our_colour:
                    t0 = time.perf_counter()
                    with collector_paused():
                        info = player.choose(pos, now=time.perf_counter, budget=movetime)
                        longest = max(longest, time.perf_counter() - t0)  # before the collector catches up
                    text = rules.move_text(pos, info.best)
                    rules.play(pos, info.best)
                    board.push_uci(text)
                    player.trim()  # in Stockfish's time
                else:
                    r = engine.play(board, chess.engine.Limit(time=movetime))
                    text = r.move.uci()
                    rules.play(pos, rules.parse_move(pos, text))
                    board.push(r.move)
                plies += 1
            if result == "ours":
                ours += 1
            elif result == "stockfish":
                theirs += 1
            else:
                draws += 1
            out(f"game {g + 1}/{games}: ours as {'white' if our_colour == 0 else 'black'}: "
                f"{result} ({reason}), {plies} plies, {time.perf_counter() - t_start:.0f} s, "
                f"longest move {longest * 1000:.0f} ms; running {ours}-{theirs}-{draws}")
        out(f"score {ours}-{theirs}-{draws}")
        return ours, theirs, draws
    finally:
        engine.quit()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m companion.ai.stockfish_match", description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--movetime", type=float, default=1000.0, help=_("milliseconds per move for both sides"))
    p.add_argument("--elo", type=int, default=1350, help=_("UCI_Elo (Stockfish 15.1 accepts 1350..2850)"))
    p.add_argument("--engine", default="/usr/games/stockfish")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--max-plies", type=int, default=300)
    args = p.parse_args(argv)
    play(args.games, args.movetime / 1000.0, args.elo, args.engine, args.seed, args.max_plies,
         out=lambda line: print(line, flush=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
