"""ai-match: games between players with seeded dice and a move cap; the baselines; bench."""

import random
import re
import time

import pytest

from companion.ai import match
from companion.ai.baselines import GreedyPlayer, RandomPlayer
from companion.ai.bench import bench_ai
from companion.ai.eval_table import load_table, table_with
from companion.cli import _Parser
from companion.games import make_rules


def run_cli(argv, capsys):
    parser = _Parser(prog="companion")
    match.add_parser(parser.add_subparsers(dest="command", parser_class=_Parser))
    args = parser.parse_args(["ai-match", *argv])
    code = args.func(args)
    return code, capsys.readouterr().out.strip().splitlines()


def test_match_prints_a_line_per_game_and_the_score_last(capsys):
    code, lines = run_cli(["--variant", "chess", "--a", "max", "--b", "random", "--games", "2",
                           "--nodes", "150", "--seed", "3", "--max-plies", "30"], capsys)
    assert code == 0 and len(lines) == 4
    assert lines[0].startswith("game 1/2: A=max as player 1") and lines[1].startswith("game 2/2: A=max as player 2")
    assert "nodes and depth" in lines[0]
    assert lines[2].startswith("2 games: ") and "likelihood of superiority" in lines[2]
    m = re.fullmatch(r"score (\d+)-(\d+)-(\d+)", lines[-1])
    assert m and sum(map(int, m.groups())) == 2


def test_match_with_node_limits_replays_exactly(capsys):
    argv = ["--variant", "combat", "--a", "2", "--b", "greedy", "--games", "2", "--nodes", "120",
            "--seed", "5", "--max-plies", "24"]
    _, first = run_cli(argv, capsys)
    _, again = run_cli(argv, capsys)
    strip = lambda lines: [re.sub(r", [\d.]+ s", "", ln) for ln in lines]  # noqa: E731
    assert strip(first) == strip(again)


def test_move_cap_adjudicates_a_draw(capsys):
    _, lines = run_cli(["--a", "1", "--b", "random", "--games", "1", "--nodes", "50", "--max-plies", "4"], capsys)
    assert "adjudicated draw after 4 plies" in lines[0] and lines[-1] == "score 0-0-1"


@pytest.mark.parametrize("argv,words", [
    (["--a", "11", "--b", "random"], "--a '11': no such player; the players are the levels 1 (beginner) to 6 and "
                                     "max, random, greedy, duelist, previous, and stockfish:ELO (FIDE chess)"),
    (["--a", "max", "--b", "smart"], "--b 'smart': no such player; the players are the levels 1 (beginner) to 6 "
                                     "and max, random, greedy, duelist, previous, and stockfish:ELO (FIDE chess)"),
    (["--a", "max", "--b", "stockfish"], "--b 'stockfish': write Stockfish's strength as stockfish:ELO"),
    (["--a", "max", "--b", "stockfish:x1"], "--b 'stockfish:x1': write Stockfish's strength as stockfish:ELO"),
    (["--a", "stockfish:1500", "--b", "max", "--nodes", "10", "--a-set", "contempt=5"], "side A must be a level"),
    (["--a", "max", "--b", "random", "--clock", "sun"], "--clock: invalid choice"),
    (["--a", "max", "--b", "random", "--games", "0", "--nodes", "10"], "--games: expected a whole number from 1"),
    (["--a", "max", "--b", "random", "--movetime", "0"], "--movetime: expected a number more than 0"),
    (["--a", "max", "--b", "random", "--movetime", "nan"], "--movetime: expected a number more than 0"),
    (["--a", "max", "--b", "random", "--max-plies", "-4"], "--max-plies: expected a whole number from 1 to 100,000"),
    (["--a", "max", "--b", "random", "--nodes", "0"], "--nodes: expected a whole number from 1"),
    (["--a", "max", "--b", "random", "--seed", "9" * 5000], "--seed: expected a whole number from 0"),
    (["--a", "1" * 5000, "--b", "random", "--nodes", "10"], "--a '11111111111111111111...': no such player"),
    (["--variant", "go", "--a", "max", "--b", "random", "--nodes", "10"], "unknown variant 'go'"),
    (["--a", "max", "--b", "random", "--nodes", "10", "--a-set", "gain_scale"], "expected KEY=VALUE"),
    (["--a", "max", "--b", "random", "--nodes", "10", "--a-set", "boldness=3"], "unknown key 'boldness'"),
    (["--a", "max", "--b", "random", "--nodes", "10", "--a-set", "contempt=lots"], "contempt must be a number"),
    (["--a", "max", "--b", "random", "--nodes", "10", "--a-set", "repetition_is_draw=2"], "must be true or false"),
    (["--a", "random", "--b", "max", "--nodes", "10", "--a-set", "contempt=5"], "side A must be a level"),
])
def test_bad_arguments_are_one_clear_line(argv, words, capsys):
    try:
        code = match.main(argv)
    except SystemExit as e:  # refused by the argument parser
        code = e.code
    err = capsys.readouterr().err.strip()
    assert code == 2 and words in err and len(err.splitlines()) == 1


def test_greedy_takes_the_most_valuable_piece():
    rules = make_rules("chess")
    pos = rules.position_from_text("4k3/8/8/3q4/8/8/1n1R4/4K3 w - - 0 1")  # Rxb2 (knight) or Rxd5 (queen)
    info = GreedyPlayer(rules, random.Random(1)).choose(pos, now=time.perf_counter)
    assert rules.move_text(pos, info.best) == "d2d5"


def test_greedy_weighs_fight_odds_in_combat():
    rules = make_rules("combat")
    pos = rules.position_from_text("4k3/8/8/3b4/8/2N5/8/4K3 w - - 0 1 fatigue=c3:5")
    info = GreedyPlayer(rules, random.Random(1)).choose(pos, now=time.perf_counter)
    assert info.best.capture is None  # an exhausted knight loses the fight nearly always


def test_random_player_is_seeded():
    rules = make_rules("chess")
    pos = rules.start_position()
    a = [RandomPlayer(rules, random.Random(7)).choose(pos, now=time.perf_counter).best for _ in range(3)]
    b = [RandomPlayer(rules, random.Random(7)).choose(pos, now=time.perf_counter).best for _ in range(3)]
    assert a == b and all(m in rules.legal_moves(pos) for m in a)


def test_settle_chance_draws_from_the_exact_outcomes():
    rules = make_rules("combat")
    pos = rules.position_from_text("4k3/8/8/3b4/8/2N5/8/4K3 w - - 0 1")
    rules.apply(pos, rules.parse_move(pos, "c3d5"))
    rng = random.Random(0)
    counts = {}
    for _ in range(2000):
        a = match.settle_chance(rules, pos, rng)
        counts[a.value] = counts.get(a.value, 0) + 1
    odds = rules.odds(pos)
    assert abs(counts["attacker"] / 2000 - float(odds.attacker)) < 0.05


@pytest.mark.slow
def test_bench_reports_nodes_per_second_for_each_game():
    rows = bench_ai(quick=True)
    games = {name.split()[1] for name, _, _ in rows}
    assert {"chess", "combat"} <= games
    assert any(name.startswith("ai previous chess start") for name, _, _ in rows)  # the peer, same run
    assert all(unit == "nodes/s" and value > 0 for _, value, unit in rows)


def test_a_set_changes_side_a_s_table_only():
    """--a-set: side A's [evaluation] keys for this match, checked like a table file."""
    t = table_with("combat", match.parse_settings(["gain_scale=800", "win_value=800",
                                                         "repetition_is_draw=false"]))
    assert (t.gain_scale, t.win_value, t.repetition_is_draw) == (800.0, 800.0, False)
    assert t.contempt == load_table("combat").contempt and t.pst == load_table("combat").pst
    assert table_with("no-such-game", {}).source == "<defaults>"  # a game without a table file


def test_a_set_reaches_side_a_only(monkeypatch):
    seen = []
    real = match.make_player

    def spy(spec, rules, rng, evaluator=None):
        seen.append((spec, evaluator.table.contempt))
        return real(spec, rules, rng, evaluator)

    monkeypatch.setattr(match, "make_player", spy)
    match.run_match("chess", None, "max", "greedy", 2, None, 1, now=time.perf_counter, out=lambda _: None,
                    max_nodes=50, max_plies=4, a_settings={"contempt": 77.0})
    default = load_table("chess").contempt
    assert sorted(seen) == [("greedy", default), ("greedy", default), ("max", 77.0), ("max", 77.0)]


@pytest.mark.slow
def test_log_writes_each_game_so_it_can_be_replayed_move_by_move(tmp_path, capsys):
    """--log: one JSON line per game; its actions (moves and dice outcomes) played again
    through the rules give the logged final position."""
    import json

    log = tmp_path / "games.jsonl"
    code, lines = run_cli(["--variant", "combat", "--a", "max", "--b", "random", "--games", "2", "--nodes", "150",
                           "--seed", "3", "--max-plies", "40", "--log", str(log)], capsys)
    assert code == 0 and lines[-1].startswith("score")
    games = [json.loads(line) for line in log.read_text().splitlines()]
    assert [g["game"] for g in games] == [1, 2] and [g["seat_a"] for g in games] == [1, 2]
    rules = make_rules("combat")
    for g in games:
        assert any(a.startswith("=") for a in g["actions"])  # fights were fought and logged
        pos = match.replay_actions(rules, g["actions"])
        assert rules.position_text(pos) == g["final"]


def test_replaying_a_bad_log_says_which_action(tmp_path):
    rules = make_rules("combat")
    with pytest.raises(match.IllegalMoveError, match="'e2e5' is not a legal move"):
        match.replay_actions(rules, ["e2e4", "e7e5", "e2e5"])
    with pytest.raises(match.IllegalMoveError, match="no decision is pending"):
        match.replay_actions(rules, ["e2e4", "=attacker"])
    with pytest.raises(match.IllegalMoveError, match="not an answer"):
        match.replay_actions(rules, ["e2e4", "d7d5", "e4d5", "=winner"])


def test_log_that_cannot_be_written_is_one_clear_line(tmp_path, capsys):
    code = match.main(["--a", "max", "--b", "random", "--nodes", "10", "--games", "1",
                       "--log", str(tmp_path / "no" / "such" / "dir" / "x.jsonl")])
    err = capsys.readouterr().err.strip()
    assert code == 2 and "cannot write there" in err and len(err.splitlines()) == 1


def test_match_statistics_give_the_score_its_interval_and_elo():
    from companion.ai.score import elo_of, match_stats, wilson

    s = match_stats(22, 14, 4)
    assert s.games == 40 and s.score == pytest.approx(0.6)
    assert s.low < 0.6 < s.high and s.high - s.low == pytest.approx(2 * 1.96 * ((22 * 0.16 + 4 * 0.01 + 14 * 0.36) / 40 / 40) ** 0.5, rel=1e-3)
    assert s.elo == pytest.approx(elo_of(0.6)) and s.elo_low < s.elo < s.elo_high
    assert elo_of(0.5) == 0 and elo_of(0.75) == pytest.approx(190.85, abs=0.01)
    assert 0.5 < s.los < 1.0 and match_stats(0, 0, 10).los == 0.5
    assert "40 games: 60.0% of the points" in s.line()
    lo, hi = wilson(0, 10)
    assert lo == 0.0 and 0.25 < hi < 0.35  # Wilson stays inside [0, 1] for small counts
    with pytest.raises(ValueError):
        match_stats(0, 0, 0)


def test_random_openings_give_each_round_its_own_start_for_both_colours(capsys):
    rules = make_rules("chess")
    a = match.random_opening(rules, 6, random.Random("1:opening:0"))
    assert len(a) == 6 and a == match.random_opening(rules, 6, random.Random("1:opening:0"))
    assert a != match.random_opening(rules, 6, random.Random("1:opening:1"))
    combat = make_rules("combat")
    assert rules.outcome(match.replay_actions(combat, match.random_opening(combat, 10, random.Random(3)))) is None
    _, lines = run_cli(["--variant", "chess", "--a", "2", "--b", "2", "--games", "4", "--nodes", "30",
                        "--opening-plies", "4", "--max-plies", "2"], capsys)
    assert len(lines) == 6


def test_a_nodes_gives_side_a_a_node_budget_and_side_b_the_clock():
    """--a-nodes: side A searches a fixed number of nodes a move (fair on a busy machine),
    side B keeps its move time."""
    rules = make_rules("chess")
    seen = []

    class Spy(RandomPlayer):
        def choose(self, pos, *, now, budget, max_nodes=None, **_):
            seen.append((pos.turn, budget, max_nodes))
            return super().choose(pos, now=now, budget=budget, max_nodes=max_nodes)

    players = {0: Spy(rules, random.Random(1)), 1: Spy(rules, random.Random(2))}
    match.play_game(rules, players, random.Random(3), now=time.perf_counter, budget=0.5, max_plies=4,
                    seats_of_a=frozenset({0}), a_nodes=777)
    assert set(seen) == {(0, None, 777), (1, 0.5, None)}
