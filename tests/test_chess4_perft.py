"""Perft of four-player chess (tests/data/perft_chess4.txt), and the same counts from an
independent move generator (tests/chess4_reference.py) written from chess.com's rules."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.cli import main
from companion.core.rules import iter_perft, perft_divide
from companion.games import make_rules
from tests.chess4_reference import from_engine, perft

DATA = Path(__file__).resolve().parent / "data" / "perft_chess4.txt"


def read_cases():
    for line in DATA.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        parts = [p.strip() for p in line.split(";")]
        ident, mode, fights, text = parts[:4]
        for item in parts[4:]:
            words = item.split()
            slow = words[0] == "slow"
            words = words[1:] if slow else words
            yield ident, mode, fights, text, int(words[1]), int(words[2]), slow


CASES = list(read_cases())


def start(mode: str, fights: str, text: str):
    rules = make_rules("chess4", mode=mode, fights=fights)
    return rules, (rules.start_position() if text == "start" else rules.position_from_text(text))


@pytest.mark.parametrize("mode, fights, text, depth, count", [
    pytest.param(m, f, t, d, c, id=f"{i}-d{d}", marks=[pytest.mark.slow] if s else [])
    for i, m, f, t, d, c, s in CASES])
def test_perft(mode, fights, text, depth, count):
    rules, pos = start(mode, fights, text)
    found = iter_perft(rules, pos, depth)
    if found != count:
        divide = {rules.move_text(pos, m): n for m, n in perft_divide(rules, pos, depth)}
        pytest.fail(f"perft {depth}: {found}, expected {count}; below each first move: {divide}")


@pytest.mark.parametrize("mode, text, depth, count", [
    pytest.param(m, t, d, c, id=f"{i}-d{d}", marks=[pytest.mark.slow] if d >= 3 and t != "start" else [])
    for i, m, f, t, d, c, s in CASES if m == "ffa" and f == "none" and d <= 3])
def test_perft_agrees_with_an_independent_generator(mode, text, depth, count):
    rules, pos = start(mode, "none", text)
    assert perft(from_engine(rules, pos), depth) == count


def test_perft_on_the_command_line(capsys):
    assert main(["perft", "--variant", "chess4", "--depth", "2"]) == 0
    assert capsys.readouterr().out.strip() == "395"
    assert main(["perft", "--variant", "chess4", "--fights", "dice", "--depth", "1", "--divide"]) == 0
    assert capsys.readouterr().out.strip().splitlines()[-1] == "20"
