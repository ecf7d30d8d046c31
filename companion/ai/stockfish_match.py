"""The match behind issue 30's goal: our strongest level against Stockfish at a limited strength.

    python -m companion.ai.stockfish_match --games 40 --movetime 1000 --elo 1800

FIDE chess, colours alternating (game 1: ours is white), both sides the same wall-clock time a
move (our search gets ``--movetime``; Stockfish ``UCI_LimitStrength`` at ``--elo`` with the
same move time: companion/ai/stockfish.py). It is ``companion ai-match --variant chess --a max
--b stockfish:ELO`` with the match's statistics: one line per game (with our nodes and depth a
move: a busy machine costs our search nodes, while a limited Stockfish picks its move at a
fixed depth), then the score's 95% interval, the Elo difference and the likelihood of
superiority (companion/ai/score.py), last ``score ours-stockfish-draws``. Run it niced in the
background: 40 games at 1 s a move take about an hour and a half.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import time

from ..i18n import _
from .match import DEFAULT_MAX_PLIES, run_match


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m companion.ai.stockfish_match", description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=40)
    p.add_argument("--movetime", type=float, default=1000.0, help=_("milliseconds per move for both sides"))
    p.add_argument("--elo", type=int, default=1800, help=_("UCI_Elo (Stockfish 15.1 accepts 1350..2850)"))
    p.add_argument("--a", default="max", help=_("our player: a level, or previous (the strongest before issue 30)"))
    p.add_argument("--clock", choices=("wall", "cpu"), default="cpu",
                   help=_("what our move time measures: the processor time of our search's thread (default: "
                        "on a shared machine it gets its whole second), or wall-clock time"))
    p.add_argument("--nodes", type=int, default=None,
                   help=_("our search's nodes a move instead of --movetime (Stockfish keeps --movetime): "
                        "fair on a busy machine"))
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--max-plies", type=int, default=DEFAULT_MAX_PLIES)
    p.add_argument("--log", default=None, metavar="FILE", help=_("every game as one JSON line (ai-match's --log)"))
    args = p.parse_args(argv)
    with contextlib.ExitStack() as stack:
        log = None
        if args.log:
            f = stack.enter_context(open(args.log, "a", encoding="utf-8"))

            def log(entry: dict) -> None:
                f.write(json.dumps(entry) + "\n")
                f.flush()

        run_match("chess", None, args.a, f"stockfish:{args.elo}", args.games, args.movetime, args.seed,
                  now=time.thread_time if args.clock == "cpu" else time.perf_counter, cpu=time.thread_time, out=lambda line: print(line, flush=True),
                  max_plies=args.max_plies, log=log, a_nodes=args.nodes)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
