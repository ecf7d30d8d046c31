"""Perft regression data for Dungeon Chess (tests/data/perft_dungeon.txt): the opening position
of each map with the example armies, deployed automatically. The counts are our engine's own,
recorded; what they rest on (move generation, check, legality) is cross-checked against an
independent implementation in test_dungeon_reference.py."""

from pathlib import Path

import pytest

from companion.core.rules import iter_perft, perft_divide
from companion.games.draft import deploy, presets
from tests.dungeon_board import rules_for

DATA = Path(__file__).resolve().parent / "data" / "perft_dungeon.txt"


def read_cases():
    for line in DATA.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        parts = [p.strip() for p in line.split(";")]
        ident, map_name, armies, text = parts[:4]
        for item in parts[4:]:
            words = item.split()
            slow = words[0] == "slow"
            words = words[1:] if slow else words
            assert words[0] == "perft", item
            yield ident, map_name, armies, text, int(words[1]), int(words[2]), slow


CASES = list(read_cases())


def case_map(field: str) -> tuple[str, int | None]:
    """A case's map field: a map name, or ``name:N`` for that map played by N players."""
    name, _, players = field.partition(":")
    return name, int(players) if players else None


def cli_map_args(field: str) -> list[str]:
    name, players = case_map(field)
    return ["--map", name] + (["--players", str(players)] if players else [])


def _params():
    for ident, map_name, armies, text, depth, count, slow in CASES:
        marks = [pytest.mark.slow] if slow else []
        yield pytest.param(map_name, text, depth, count, id=f"{ident}-d{depth}", marks=marks)


@pytest.mark.parametrize("map_name,text,depth,count", list(_params()))
def test_perft_matches_the_recorded_count(map_name, text, depth, count):
    r = rules_for(map_name)
    pos = r.position_from_text(text)
    before = pos.snapshot()
    n = iter_perft(r, pos, depth)
    if n != count:
        divide = ", ".join(f"{r.move_text(pos, m)}:{c}" for m, c in perft_divide(r, pos, depth))
        pytest.fail(f"perft({depth}) = {n}, expected {count}; divide: {divide}")
    assert pos.snapshot() == before, "perft must leave the position exactly as it found it"


def test_the_recorded_positions_are_the_automatic_deployments_of_the_armies():
    known = presets()
    seen = set()
    for ident, map_name, armies, text, *_ in CASES:
        if ident in seen:
            continue
        seen.add(ident)
        r = rules_for(map_name)
        names = r.default_armies if armies == "-" else tuple(armies.split(","))
        assert r.position_text(deploy(r, [known[a] for a in names])) == text, ident
        if armies == "-":
            assert r.position_text(r.start_position()) == text


def test_every_map_has_an_opening_position_with_the_example_armies():
    maps = {c[1] for c in CASES}
    assert maps == {"dungeon-compact", "dungeon-two-player", "dungeon-four-player", "dungeon-four-player:3"}
    used = set()
    for _, map_name, armies, *_ in CASES:
        used |= set(rules_for(map_name).default_armies if armies == "-" else armies.split(","))
    # the three rulebook armies that fit a spawn zone, and the swarm cut to fit
    assert {"human-balanced", "redskin-elite", "greenskin-midrange", "skeleton-swarm-24", "skeleton-swarm-20"} <= used
