"""The computer in four-player chess (free-for-all and teams) and in every game with dice fights,
through the same search and `companion ai-match` (node-limited: the games replay exactly)."""

from __future__ import annotations

import re

import pytest

from companion.ai import match
from companion.ai.eval_table import table_for
from companion.ai.evaluate import Evaluator
from companion.ai.levels import ComputerPlayer, parse_level
from companion.cli import _Parser
from companion.games import make_rules
from tests.chess4_helpers import position


def run_cli(argv, capsys):
    parser = _Parser(prog="companion")
    match.add_parser(parser.add_subparsers(dest="command", parser_class=_Parser))
    args = parser.parse_args(["ai-match", *argv])
    code = args.func(args)
    return code, capsys.readouterr().out.strip().splitlines()


@pytest.mark.parametrize("argv", [
    ["--variant", "chess4", "--players", "4"],
    ["--variant", "chess4", "--players", "4", "--mode", "teams"],
    ["--variant", "chess", "--fights", "dice"],
    ["--variant", "dungeon", "--fights", "dice"],
    ["--variant", "kol", "--fights", "dice", "--d6-only"],
    ["--variant", "chess4", "--players", "4", "--fights", "dice"],
])
def test_ai_match_plays_every_new_game(argv, capsys):
    code, lines = run_cli(argv + ["--a", "2", "--b", "random", "--games", "1", "--nodes", "60", "--seed", "3",
                                  "--max-plies", "40"], capsys)
    assert code == 0 and re.fullmatch(r"score \d+-\d+-\d+", lines[-1])


def test_free_for_all_points_count_for_the_computer():
    rules = make_rules("chess4")
    ev = Evaluator(rules, table_for(rules))
    _, pos = position({"e5": "1R", "j10": "4R"})
    base = ev.evaluate(pos, 0)
    pos.set_var("points", (20, 0, 0, 0))
    assert ev.evaluate(pos, 0) - base == pytest.approx(2000, abs=1)


def test_in_teams_the_partner_counts_as_ones_own_side():
    rules = make_rules("chess4", mode="teams")
    ev = Evaluator(rules, table_for(rules))
    _, pos = position({"e5": "3Q"}, mode="teams")
    _, bare = position({}, mode="teams")
    assert ev.material(pos, 0) - ev.material(bare, 0) > 800  # Yellow's Queen is Red's side's too
    assert ev.material(pos, 1) - ev.material(bare, 1) < -800


def test_the_computer_takes_a_free_queen_and_scores_it():
    rules = make_rules("chess4")
    _, pos = position({"e5": "1R", "e9": "3Q"})
    player = ComputerPlayer(rules, parse_level("max"), None)
    info = player.choose(pos, now=lambda: 0.0, budget=None, max_nodes=2000)
    assert rules.move_text(pos, info.best) == "e5e9"


def test_a_fights_game_lists_the_fights_table():
    assert make_rules("dungeon", fights="dice").evaluation_tables == ("dungeon", "fights")
    assert table_for(make_rules("kol", fights="dice")).state_penalty["fatigue"].per_point == pytest.approx(0.12)
