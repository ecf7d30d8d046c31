"""Review findings for the move tracker (found by random sensor-log fuzzing)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from tracker_hands import Table  # noqa: E402


def test_a_fast_reply_onto_the_square_the_move_just_left_commits_both_moves():
    """White Ra1-b1 waits the slow settle (the rook could go on to c1); black's rook, which the
    white rook could have taken from a1, answers 100 ms later onto the square a1 that the
    white rook just left. Only "a1b1 then a8a1" explains the board."""
    table = Table("r3k3/8/8/8/8/8/8/R5K1 w - - 0 1", slow_settle_ms=600)
    table.run([("lift", "a1"), ("put", "b1", 100), ("lift", "a8", 100), ("put", "a1", 150)])
    assert table.moves == ["a1b1", "a8a1"]
    assert table.tracker.in_sync


def test_a_fast_queen_reply_onto_the_vacated_square_from_random_play():
    """Found by fuzzing: black Qe4-d5 (slow: it could go on to c6), then white e3-e4 at once."""
    fen = "1rbnk1n1/3p2pr/1p1bp3/pPp2pPp/2P1q1B1/4PP2/P2PNKQP/RNB4R b - - 1 19"
    table = Table(fen)
    table.run([("lift", "e4"), ("put", "d5", 260), ("lift", "e3", 218), ("put", "e4", 356)])
    assert table.moves == ["e4d5", "e3e4"]
    assert table.tracker.in_sync


# ----- random fast play -------------------------------------------------------------------------------

import random  # noqa: E402

import pytest  # noqa: E402


def _hand_steps(rules, pos, move, rng):
    """The lifts and puts of ``move`` in a random order a hand could use (castling: rook too)."""
    before, after = pos.occupied(), rules.occupancy_after(pos, move)
    relocations = [(move.frm, move.to)]
    if move.special == "castle":
        relocations.append((min(before - after - {move.frm}), min(after - before - {move.to})))
    todo = [("lift", a) for a, _ in relocations] + [("put", b) for _, b in relocations]
    steps = []
    while todo:
        ready = [s for s in todo if s[0] == "lift" or ("lift", dict((b, a) for a, b in relocations)[s[1]]) not in todo]
        step = rng.choice(ready)
        todo.remove(step)
        steps.append(step)
    return steps


# four seeds in the quick loop, all twelve in the whole suite
@pytest.mark.parametrize("seed", [s if s < 4 else pytest.param(s, marks=pytest.mark.slow) for s in range(12)])
def test_random_quiet_games_played_fast_are_followed_move_for_move(seed):
    """Quiet moves (castling included) with 20-400 ms between every lift and put and no pause
    between one player's last put and the other's first lift: the tracker reports exactly
    the moves played (it must commit early on the reply, whatever square the reply uses)."""
    rng = random.Random(seed)
    table = Table(slow_settle_ms=600)
    rules = table.rules
    shadow = rules.start_position()
    played = []
    for _ply in range(100):
        quiet = [m for m in rules.legal_moves(shadow) if m.capture is None and not m.promotion]
        if not quiet or rules.outcome(shadow) is not None:
            break
        move = rng.choice(quiet)
        for kind, sq in _hand_steps(rules, shadow, move, rng):
            getattr(table, kind)(rules.geometry.name_of(sq), rng.randint(20, 400))
        played.append(rules.move_text(shadow, move))
        rules.play(shadow, move)
    table.wait(2000)
    assert table.moves == played
    assert table.tracker.in_sync
