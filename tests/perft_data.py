"""Reader for perft suites (python-chess's layout: ``id; fen; perft N count; ...``)."""

from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"


def read_suite(name: str):
    """Yield (id, fen, depth, count, slow) for every perft entry of tests/data/<name>."""
    for line in (DATA / name).read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        parts = [p.strip() for p in line.split(";")]
        ident, fen = parts[0], parts[1]
        for item in parts[2:]:
            words = item.split()
            slow = words[0] == "slow"
            if slow:
                words = words[1:]
            assert words[0] == "perft", item
            yield ident, fen, int(words[1]), int(words[2]), slow
