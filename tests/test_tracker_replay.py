"""``companion replay``: real games recorded as sloppy sensor logs replay to the right moves;
a log that ends out of step exits 1; malformed logs exit 2 naming the line."""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from pathlib import Path

import chess  # python-chess: an independent reading of the same games
import pytest

from companion.board import replay as replay_cli
from companion.games import GAMES, make_rules

HERE = Path(__file__).resolve().parent
LOGS = HERE / "data" / "sensor-logs"
sys.path.insert(0, str(HERE))
import make_sensor_log  # noqa: E402

GAME_LOGS = sorted(p.stem for p in LOGS.glob("*.expected"))


def run(capsys, *argv):
    """The command as the main CLI registers it: a subparser added by ``add_parser``."""
    parser = argparse.ArgumentParser(prog="companion")
    sub = parser.add_subparsers(dest="command")
    replay_cli.add_parser(sub)
    args = parser.parse_args(["replay", *map(str, argv)])
    code = args.func(args)
    out = capsys.readouterr()
    return code, out.out, out.err


def variant_of(name: str) -> str:
    return "combat" if name.startswith("combat") else "chess"


# ----- real games ---------------------------------------------------------------------------------


def test_the_logs_cover_every_kind_of_move_and_every_kind_of_sloppiness():
    did = sum((log.did for log in make_sensor_log.all_logs().values()), Counter())
    for needed in ("castling kingside king first", "castling queenside rook first", "promotion",
                   "promotion with capture", "capture victim first", "capture attacker first", "bounce",
                   "slide", "brush", "own piece lifted and put back", "enemy piece touched and put back",
                   "fight lost by the attacker"):
        assert did[needed] >= 1, needed
    assert any(k.startswith("en passant") for k in did)
    assert len(make_sensor_log.game_log("lichess-5uSupub7").moves) > 100


def test_the_committed_logs_are_what_the_script_makes():
    assert make_sensor_log.main(["--check"]) == 0


@pytest.mark.parametrize("name", GAME_LOGS)
def test_a_recorded_game_replays_to_exactly_its_moves(capsys, name):
    code, out, err = run(capsys, "--variant", variant_of(name), LOGS / f"{name}.jsonl")
    assert (code, err) == (0, "")
    assert out == (LOGS / f"{name}.expected").read_text()


@pytest.mark.parametrize("name", sorted(make_sensor_log.GAMES))
def test_the_expected_moves_agree_with_python_chess(name):
    """The expected files come from our engine; python-chess reads the same game
    independently and must reach the same moves and final position."""
    board = chess.Board()
    for san in make_sensor_log.san_moves(make_sensor_log.GAMES[name]["moves"]):
        board.push_san(san)
    lines = (LOGS / f"{name}.expected").read_text().splitlines()
    assert lines[:-1] == [m.uci() for m in board.move_stack]
    assert lines[-1] == f"final {board.fen()}"


@pytest.mark.slow
@pytest.mark.parametrize("think", [(300, 2500), (20, 300)], ids=["normal hands", "very fast hands"])
@pytest.mark.parametrize("name", sorted(make_sensor_log.GAMES))
def test_other_hands_on_the_same_games_replay_to_the_same_moves(name, think):
    """Six more seeds per game: other orders, slides, bounces and pauses; with very fast
    hands the reply often starts before the settle time ran out."""
    for seed in range(100, 106):
        log = make_sensor_log.game_log(name, seed=seed, think=think)
        rules = make_rules("chess")
        result = replay_cli.replay(rules, rules.start_position(), [json.dumps(line) for line in log.lines])
        assert result.moves == log.moves, seed
        assert result.final == log.final and result.in_step, seed


def test_the_real_game_log_is_sloppy():
    text = (LOGS / "lichess-5uSupub7.jsonl").read_text()
    squares = re.findall(r'"square": "(\w+)", "occupied": (\w+)', text)
    changes = len(squares)
    assert changes > 4 * 108  # far more switch changes than the 2-4 a clean move needs
    times = [int(t) for t in re.findall(r'"t": (\d+)', text)]
    assert times == sorted(times)


# ----- out of step ----------------------------------------------------------------------------------


def test_a_log_ending_out_of_step_exits_1_and_says_which_squares(capsys):
    code, out, err = run(capsys, "--variant", "chess", LOGS / "out-of-step.jsonl")
    assert code == 1
    assert out.splitlines() == ["e2e4", "final rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"]
    assert err.count("\n") == 1
    assert "out of step" in err and "empty e5" in err and "fill g8" in err


def test_without_variant_replay_says_which_game_it_assumed_and_how_to_pick_another(capsys):
    log = LOGS / "gundersen-faul-1928.jsonl"
    code, out, err = run(capsys, log)
    assert code == 0 and out.splitlines()[-1].startswith("final ")
    games = " | ".join(GAMES)
    assert err == (f"replay: no --variant given: {log} was read as FIDE chess (chess); for another game give "
                   f"--variant {games}\n")
    code, _, err = run(capsys, LOGS / "malformed-square.jsonl")  # a bad log: still one line, the note in it
    assert code == 2 and err.count("\n") == 1 and err.rstrip().endswith(
        f"(no --variant given: {LOGS / 'malformed-square.jsonl'} was read as FIDE chess (chess); for another game "
        f"give --variant {games})")
    _, _, err = run(capsys, "--variant", "chess", log)
    assert err == ""


def test_a_log_ending_with_a_piece_in_the_hand_is_out_of_step(tmp_path, capsys):
    log = tmp_path / "hand.jsonl"
    log.write_text('{"t": 100, "square": "g1", "occupied": false}\n')
    code, _, err = run(capsys, log)
    assert code == 1 and "fill g1" in err


def test_a_log_ending_with_an_unanswered_promotion_is_out_of_step(tmp_path, capsys):
    log = tmp_path / "promo.jsonl"
    log.write_text('{"t": 100, "square": "a7", "occupied": false}\n{"t": 300, "square": "a8", "occupied": true}\n')
    code, out, err = run(capsys, "--fen", "4k3/P7/8/8/8/8/8/4K3 w - - 0 1", log)
    assert code == 1 and "unanswered: Which piece" in err


def test_a_promotion_answered_in_the_log_is_made(tmp_path, capsys):
    log = tmp_path / "promo.jsonl"
    log.write_text('{"t": 100, "square": "a7", "occupied": false}\n{"t": 300, "square": "a8", "occupied": true}\n'
                   '{"t": 900, "choose": "n"}\n')
    code, out, _ = run(capsys, "--fen", "4k3/P7/8/8/8/8/8/4K3 w - - 0 1", log)
    assert code == 0 and out.splitlines()[0] == "a7a8n"


def test_a_snapshot_line_is_a_full_occupancy(tmp_path, capsys):
    log = tmp_path / "snap.jsonl"
    start = make_rules("chess").start_position()
    names = sorted(make_rules("chess").geometry.name_of(s) for s in start.occupied())
    names = [n for n in names if n != "g1"] + ["f3"]
    log.write_text('{"t": 100, "snapshot": %s}\n' % str(names).replace("'", '"'))
    code, out, _ = run(capsys, log)
    assert code == 0 and out.splitlines()[0] == "g1f3"


def test_a_combat_fight_can_be_decided_by_a_result_line(tmp_path, capsys):
    log = tmp_path / "fight.jsonl"
    log.write_text("\n".join([
        '{"t": 100, "square": "e3", "occupied": false}', '{"t": 300, "square": "d5", "occupied": false}',
        '{"t": 500, "square": "d5", "occupied": true}', '{"t": 1500, "fight": "bounce"}',
        '{"t": 2500, "square": "d5", "occupied": false}', '{"t": 2800, "square": "e3", "occupied": true}',
        '{"t": 3200, "square": "d5", "occupied": true}']) + "\n")
    code, out, err = run(capsys, "--variant", "combat", "--fen", "4k3/8/8/3p4/8/4N3/8/4K3 w - - 0 1", log)
    assert (code, err) == (0, "")
    assert out.splitlines() == ["e3d5", "final 4k3/8/8/3p4/8/4N3/8/4K3 b - - 1 1 fatigue=e3:1,d5:1"]


# ----- malformed logs ----------------------------------------------------------------------------------

MALFORMED = [
    ('{"t": 10, "square": "e2" "occupied": false}', "line 1: not valid JSON"),
    ('[1, 2]', "line 1: expected a JSON object"),
    ('{"square": "e2", "occupied": false}', 'line 1: missing "t"'),
    ('{"t": -5, "square": "e2", "occupied": false}', 'line 1: "t" must be a whole number'),
    ('{"t": 1.5, "square": "e2", "occupied": false}', 'line 1: "t" must be a whole number'),
    ('{"t": 10, "square": "e2", "occupied": "no"}', 'line 1: "occupied" must be true or false'),
    ('{"t": 10, "square": "k2", "occupied": false}', "line 1: square 'k2' is off this 8x8 board"),
    ('{"t": 10, "square": "2e", "occupied": false}', "line 1: '2e' is not a square name"),
    ('{"t": 10, "square": 12, "occupied": false}', 'line 1: a square is named like "e2"'),
    ('{"t": 10, "square": "e2", "occupied": false, "choose": "q"}', "line 1: expected exactly one of"),
    ('{"t": 10}', "line 1: expected exactly one of"),
    ('{"t": 10, "square": "e2", "occupied": false, "speed": 3}', "line 1: unknown key 'speed'"),
    ('{"t": 10, "choose": "q"}', "line 1: no question is waiting for an answer"),
    ('{"t": 10, "choose": 5}', 'line 1: "choose" must be text'),
    ('{"t": 10, "fight": "attacker"}', "line 1: a fight result, but no fight is waiting"),
    ('{"t": 10, "fight": "draw"}', 'line 1: "fight" must be one of attacker, defender, bounce'),
    ('{"t": 10, "dice": [5, 3]}', 'line 1: "dice" must look like'),
    ('{"t": 10, "snapshot": "e2"}', 'line 1: "snapshot" must be a list of square names'),
    ('{"note": "fine"}\n{"t": 10, "square": "e2", "occupied": false}\n\n{"t": 5, "square": "e4", "occupied": true}',
     "line 4: time 5 ms goes back"),
]


@pytest.mark.parametrize("text,message", MALFORMED, ids=[m for _, m in MALFORMED])
def test_a_malformed_log_exits_2_with_one_line_naming_the_line(tmp_path, capsys, text, message):
    log = tmp_path / "bad.jsonl"
    log.write_text(text + "\n")
    code, out, err = run(capsys, log)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("replay: ")
    assert f"bad.jsonl, {message}" in err, err


@pytest.mark.parametrize("name,line", [("malformed-not-json", 3), ("malformed-square", 2),
                                       ("malformed-time-goes-back", 3)])
def test_the_committed_malformed_logs_exit_2(capsys, name, line):
    code, _, err = run(capsys, LOGS / f"{name}.jsonl")
    assert code == 2 and f"line {line}:" in err and "Traceback" not in err


def test_a_wrong_promotion_letter_names_the_line(tmp_path, capsys):
    log = tmp_path / "promo.jsonl"
    log.write_text('{"t": 100, "square": "a7", "occupied": false}\n{"t": 300, "square": "a8", "occupied": true}\n'
                   '{"t": 900, "choose": "k"}\n')
    code, _, err = run(capsys, "--fen", "4k3/P7/8/8/8/8/8/4K3 w - - 0 1", log)
    assert code == 2 and "line 3: 'k' is not one of the choices" in err


def test_dice_out_of_range_name_the_line(tmp_path, capsys):
    log = tmp_path / "dice.jsonl"
    log.write_text('{"t": 100, "square": "e3", "occupied": false}\n{"t": 300, "square": "d5", "occupied": false}\n'
                   '{"t": 500, "square": "d5", "occupied": true}\n{"t": 900, "dice": [[99], [[1]]]}\n')
    code, _, err = run(capsys, "--variant", "combat", "--fen", "4k3/8/8/3p4/8/4N3/8/4K3 w - - 0 1", log)
    assert code == 2 and "line 4:" in err


def test_a_missing_file_and_a_bad_fen_exit_2(tmp_path, capsys):
    code, _, err = run(capsys, tmp_path / "nope.jsonl")
    assert code == 2 and "cannot read" in err
    log = tmp_path / "ok.jsonl"
    log.write_text("")
    code, _, err = run(capsys, "--fen", "not a fen", log)
    assert code == 2 and err.startswith("replay: FEN")


def test_the_module_runs_on_its_own(capsys):
    code = replay_cli.main([str(LOGS / "out-of-step.jsonl")])
    assert code == 1


def test_the_command_plugs_into_the_main_cli(monkeypatch, capsys):
    """``companion replay`` is a command of the main CLI."""
    from companion import cli

    code = cli.main(["replay", "--variant", "chess", str(LOGS / "gundersen-faul-1928.jsonl")])
    out = capsys.readouterr()
    assert code == 0 and out.out == (LOGS / "gundersen-faul-1928.expected").read_text()
    assert cli.main(["replay", str(LOGS / "malformed-square.jsonl")]) == 2
    with pytest.raises(SystemExit) as exc:
        cli.main(["replay", "--help"])
    assert exc.value.code == 0 and "sensor log" in capsys.readouterr().out
