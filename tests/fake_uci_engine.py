"""A UCI engine that speaks the protocol's published lines and misbehaves on demand, for the
tests of companion/ai/stockfish.py's adapter (run as ``python fake_uci_engine.py MODE``).

Modes: ``good`` (answers everything; its best move is the first of "e2e4 d2d4", or the first of
``searchmoves``), ``crash-on-go`` (exits when asked to think), ``mute`` (never says uciok),
``slow`` (thinks until told to stop)."""

import sys


def main(mode: str) -> None:
    out = sys.stdout
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        cmd = words[0]
        if cmd == "uci":
            if mode == "mute":
                continue
            out.write("id name Fake 1.0\nid author tests\n")
            out.write("option name Hash type spin default 16 min 1 max 1024\n")
            out.write("option name UCI_LimitStrength type check default false\n")
            out.write("option name UCI_Elo type spin default 1350 min 1350 max 2850\n")
            out.write("option name Threads type spin default 1 min 1 max 8\n")
            out.write("uciok\n")
        elif cmd == "isready":
            out.write("readyok\n")
        elif cmd == "go":
            if mode == "crash-on-go":
                sys.exit(3)
            if mode == "slow":
                out.flush()
                continue
            move = words[words.index("searchmoves") + 1] if "searchmoves" in words else "e2e4"
            out.write(f"info depth 1 score cp 12 nodes 20 pv {move}\n")
            out.write(f"info depth 2 score cp 15 nodes 80 pv {move} e7e5\n")
            out.write(f"bestmove {move} ponder e7e5\n")
        elif cmd == "stop" and mode == "slow":
            out.write("info depth 3 score mate 2 nodes 300 pv d2d4\nbestmove d2d4\n")
        elif cmd == "quit":
            return
        out.flush()


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "good")
