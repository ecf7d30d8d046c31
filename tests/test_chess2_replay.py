"""``companion replay --variant chess2 --armies A,B LOG``: Chess 2 sensor logs (duels answered on the
screen, Whirlwinds, rampages, pounces, teleports, king-turns skipped by lifting a Warrior King)
replay through the real tracker like the other games' (tests/make_chess2_sensor_log.py makes them)."""

from __future__ import annotations

import json

import pytest

from companion.board import replay as replay_cli
from companion.cli import main as companion_main
from companion.games.chess2 import rules_for
from tests import make_chess2_sensor_log as maker

LOGS = maker.OUT


def run(capsys, *args) -> tuple[int, str, str]:
    code = companion_main(["replay", *map(str, args)])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("name", sorted(maker.GAMES))
def test_a_chess2_log_replays_to_exactly_its_moves_and_answers(capsys, name):
    white, black, *_ = maker.GAMES[name]
    code, out, err = run(capsys, "--variant", "chess2", "--armies", f"{white},{black}", LOGS / f"{name}.jsonl")
    assert (code, err) == (0, "")
    assert out == (LOGS / f"{name}.expected").read_text()


def test_the_committed_chess2_logs_are_what_the_script_makes():
    assert maker.main(["--check"]) == 0


def effects_of(name: str) -> set[str]:
    """What the game of a log did: specials, duel results, king-turns, bluffs."""
    white, black, *_ = maker.GAMES[name]
    rules = rules_for((white, black))
    pos = rules.start_position()
    seen = set()
    lines = (LOGS / f"{name}.expected").read_text().splitlines()[:-1]
    for text in lines:
        if pos.pending is not None:
            if pos.pending.kind == "king-turn":
                seen.add("king-turn " + ("skip" if text == "skip" else "move"))
            rules.play(pos, rules.parse_answer(pos, text))
        else:
            move = rules.parse_move(pos, text)
            mover, victim = pos.board[move.frm], pos.board[move.capture] if move.capture is not None else None
            seen.add(move.special or "plain")
            if victim is not None and victim.owner == mover.owner:
                seen.add("own piece taken")
            if {"reap", "ghost"} & set(mover.kind.abilities):
                seen.add("teleport")
            rules.play(pos, move)
        for e in pos.var("effects", ()):
            if e[0] == "duel_lost":
                seen.add("duel lost by the attacker")
            elif e[0] == "stones" and e[3] == "bluff":
                seen.add("bluff called")
    return seen


def test_the_logs_hold_every_chess2_effect():
    seen = set().union(*(effects_of(name) for name in maker.GAMES))
    assert {"whirlwind", "rampage", "pounce", "castle", "teleport", "own piece taken", "duel lost by the attacker",
            "bluff called", "king-turn skip", "king-turn move"} <= seen, seen


def test_a_king_turn_is_skipped_in_the_logs_by_lifting_a_warrior_king():
    """Most skips in the Animals - Two Kings log are the gesture, not a choose line."""
    lines = [json.loads(x) for x in (LOGS / "chess2-animals-two-kings.jsonl").read_text().splitlines()]
    screen_skips = sum(1 for x in lines if x.get("choose") == "skip")
    skips = (LOGS / "chess2-animals-two-kings.expected").read_text().splitlines().count("skip")
    assert skips > screen_skips > 0


@pytest.mark.parametrize("think", [pytest.param((300, 1500), id="normal hands"),
                                   # the quick loop keeps the normal hands; the whole suite runs both
                                   pytest.param((20, 300), id="very fast hands", marks=pytest.mark.slow)])
# the quick loop keeps one seed of each match-up; the whole suite runs all four
@pytest.mark.parametrize("seed", [100] + [pytest.param(s, marks=pytest.mark.slow) for s in range(101, 104)])
@pytest.mark.parametrize("name", sorted(maker.GAMES))
def test_other_hands_on_other_games_replay_to_the_same_moves(name, think, seed):
    """Four more seeds per match-up, with normal and very fast hands."""
    white, black, *_ = maker.GAMES[name]
    log = maker.game_log(name, seed=seed, think=think)
    rules = rules_for((white, black))
    result = replay_cli.replay(rules, rules.start_position(), [json.dumps(line) for line in log.lines])
    assert result.moves == log.moves, seed
    assert result.final == log.final and result.in_step, seed


def test_replay_without_armies_plays_classic_and_the_log_goes_wrong_naming_its_line(capsys):
    """Without --armies the game is Classic against Classic: the Animals' Elephant rampages from
    a1 on the first move, which a Classic rook cannot; the first answer then has no question."""
    code, out, err = run(capsys, "--variant", "chess2", LOGS / "chess2-animals-two-kings.jsonl")
    assert code == 2 and out == ""
    assert err.startswith("replay: ") and ", line " in err and err.count("\n") == 1


def test_an_unknown_army_is_one_line(capsys):
    code, out, err = run(capsys, "--variant", "chess2", "--armies", "classic,dragons",
                         LOGS / "chess2-classic-nemesis.jsonl")
    assert code == 2 and err == "replay: unknown Chess 2 army 'dragons'; armies: classic, nemesis, empowered, " \
                                "reaper, two-kings, animals\n"


def test_the_armies_may_come_from_the_start_position(capsys, tmp_path):
    log = tmp_path / "one.jsonl"
    log.write_text('{"t": 100, "square": "e2", "occupied": false}\n{"t": 300, "square": "e4", "occupied": true}\n'
                   '{"t": 900, "square": "d1", "occupied": false}\n{"t": 1000, "square": "d1", "occupied": true}\n')
    code, out, err = run(capsys, "--variant", "chess2", "--fen",
                         "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w kq - 0 1 armies=two-kings,classic", log)
    assert (code, err) == (0, "")
    assert out.splitlines()[:2] == ["e2e4", "skip"]  # the king-turn skipped by lifting a Warrior King


@pytest.mark.parametrize("name", sorted(maker.GAMES))
def test_replay_writes_pgn_that_reads_back_with_its_armies(capsys, tmp_path, name):
    """``replay --pgn``: the Chess 2 record names its armies in its FEN, and our reader makes the
    rules with them (a non-classic game was refused: "the position is for ...")."""
    from companion.tournament.pgn import parse_pgn
    from companion.tournament.record import replay_pgn

    white, black, *_ = maker.GAMES[name]
    pgn = tmp_path / "game.pgn"
    code, out, err = run(capsys, "--variant", "chess2", "--armies", f"{white},{black}", LOGS / f"{name}.jsonl",
                         "--pgn", pgn)
    assert (code, err) == (0, "")
    (game,) = parse_pgn(pgn.read_text())
    back = replay_pgn(game)
    assert back.rules.armies == (white, black)
    assert "final " + back.rules.position_text(back.pos) == out.splitlines()[-1]
