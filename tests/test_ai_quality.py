"""ai-quality: two players' choices on the same positions, scored by a deeper reference search
(node and depth limits make every test here deterministic; nothing is timed)."""

import json
import math
import random
import time

import pytest

from companion.ai import quality
from companion.ai.analysis import SearchAnalyser
from companion.ai.evaluate import Evaluator
from companion.ai.match import make_player, random_opening, replay_actions
from companion.ai.search import Search, SearchInfo, chance_value, score_of_value
from companion.cli import _Parser
from companion.errors import CompanionError
from companion.games import make_rules

#: a tired white knight on c3 can take the undefended black bishop on d5: a fight it loses on average
TIRED = "4k3/8/8/3b4/8/2N5/8/4K3 w - - 0 1 fatigue=c3:4"


def run_cli(argv, capsys):
    parser = _Parser(prog="companion")
    quality.add_parser(parser.add_subparsers(dest="command", parser_class=_Parser))
    args = parser.parse_args(["ai-quality", *argv])
    code = args.func(args)
    return code, capsys.readouterr().out.strip().splitlines()


def chess_spots(n=10, plies=8):
    """``n`` chess positions after seeded random openings (varied middlegame-ish positions)."""
    rules = make_rules("chess")
    spots = []
    for k in range(n):
        opening = random_opening(rules, plies, random.Random(f"quality:{k}"))
        src = quality.Source("test", k + 1, rules, opening, ())
        spots.append(quality.Spot(src, 0, replay_actions(rules, opening)))
    return spots


def write_log(path, games):
    path.write_text("".join(json.dumps(g) + "\n" for g in games), encoding="utf-8")
    return str(path)


# ----- the measure -----------------------------------------------------------------------------------
def test_max_against_a_beginner_is_clearly_better():
    """A = max, B = level 1 (noise, missed captures, no capture search): B's choices cost clearly
    more by the reference, and the paired interval lies above zero."""
    out = []
    q = quality.run_quality(chess_spots(20), "max", "1", "max", 7, now=time.perf_counter,
                            players=quality.Limits(nodes=1500), ref_limits=quality.Limits(depth=2),
                            out=out.append, progress=10)
    assert q.positions == 20 and q.agreed < 20
    assert q.regret_b > q.regret_a and q.difference > 30 and q.low > 0
    assert q.b_better < q.a_better
    assert out[0].startswith("position 10/20: ") and out[1].startswith("position 20/20: ")
    assert out[2] == f"positions 20: the same choice in {q.agreed} ({q.agreed / 20:.1%})"
    assert "paired t, 19 degrees of freedom" in out[4]


def test_max_against_itself_agrees_everywhere_and_differs_by_nothing():
    logged = []
    q = quality.run_quality(chess_spots(6), "max", "max", "max", 3, now=time.perf_counter,
                            players=quality.Limits(nodes=800), ref_limits=quality.Limits(depth=2),
                            out=lambda line: None, log=logged.append)
    assert q.agreed == q.positions == 6
    assert (q.difference, q.low, q.high, q.regret_a, q.regret_b) == (0, 0, 0, 0, 0)
    assert all(r["a_value"] is None and r["a_move"] == r["b_move"] and r["depth"] == 0 for r in logged)
    assert [r["game"] for r in logged] == [1, 2, 3, 4, 5, 6]


class Plays:
    """A player that always chooses ``text`` (a test's stand-in for a weak choice)."""

    name = "fixed"

    def __init__(self, rules, text):
        self.rules, self.text = rules, text

    def choose(self, pos, *, now, budget=None, max_nodes=None, **_unused):
        return SearchInfo(self.rules.parse_move(pos, self.text), 0.0, 0, 0, 0.0)


def test_combat_a_capture_with_bad_fight_odds_is_valued_by_its_expectation():
    """The tired knight's capture is valued by the reference as the exact expectation over the
    fight's outcomes (no dice drawn): at depth 1 without a capture search (level 1 as the
    reference) it is sum(p * value of each outcome), as the search's chance nodes average it;
    the strongest player declines the fight, and a deeper reference says it was right."""
    rules = make_rules("combat")
    pos = rules.position_from_text(TIRED)
    spot = quality.Spot(quality.Source("test", 1, rules, (), ()), 0, pos)
    best = make_player("max", rules, random.Random(1))
    shallow = quality.reference_analyser("1", rules, random.Random(1))
    j = quality.judge(spot, 0, Plays(rules, "c3d5"), best, shallow, now=time.perf_counter,
                      players=quality.Limits(nodes=4000), ref=quality.Limits(depth=1))
    assert j.a_move == "c3d5" and j.b_move != "c3d5" and j.depth == 1

    ev = Evaluator(rules)
    curve = (ev.table.win_value, ev.table.risk_scale, ev.table.gain_scale, ev.table.loss_value)
    work = pos.copy()
    rules.apply(work, rules.parse_move(work, "c3d5"))
    outcomes = rules.chance_outcomes(work)
    assert len(outcomes) > 1
    expected = 0.0
    for o in outcomes:
        rules.apply(work, o.answer)
        expected += float(o.probability) * chance_value(ev.evaluate(work, 0), *curve)
        rules.undo(work)
    assert j.a_value == pytest.approx(max(-quality.CLIP, min(quality.CLIP, score_of_value(expected, *curve))))

    deep = quality.reference_analyser("max", rules, random.Random(1))
    j = quality.judge(spot, 1, Plays(rules, "c3d5"), best, deep, now=time.perf_counter,
                      players=quality.Limits(nodes=4000), ref=quality.Limits(depth=3))
    assert j.a_value < j.b_value and j.regret_a > 0 == j.regret_b and j.difference < 0


def test_the_two_choices_are_valued_as_score_of_values_them():
    """The reference's values are SearchAnalyser.score_of's at the same depth, whichever order
    the two are scored in."""
    rules = make_rules("chess")
    spot = chess_spots(1)[0]
    moves = rules.legal_moves(spot.pos)[:2]
    texts = [rules.move_text(spot.pos, m) for m in moves]
    values = [SearchAnalyser(rules, Search(rules)).score_of(spot.pos.copy(), m, 2, now=time.perf_counter,
                                                            budget=None, stop=None) for m in moves]
    for index in (0, 1):
        ref = quality.reference_analyser("max", rules, random.Random(1))
        j = quality.judge(spot, index, Plays(rules, texts[0]), Plays(rules, texts[1]), ref, now=time.perf_counter,
                          players=quality.Limits(nodes=10), ref=quality.Limits(depth=2))
        assert (j.a_value, j.b_value) == (pytest.approx(values[0]), pytest.approx(values[1]))


def test_previous_can_be_the_reference():
    """The previous strongest level scores a restricted root like the current search (its
    root score of one move is kept out of its table)."""
    rules = make_rules("chess")
    spot = chess_spots(1)[0]
    moves = rules.legal_moves(spot.pos)[:2]
    texts = [rules.move_text(spot.pos, m) for m in moves]
    ref = quality.reference_analyser("previous", rules, random.Random(1))
    j = quality.judge(spot, 0, Plays(rules, texts[0]), Plays(rules, texts[1]), ref, now=time.perf_counter,
                      players=quality.Limits(nodes=10), ref=quality.Limits(depth=2))
    again = quality.reference_analyser("previous", rules, random.Random(1))
    alone = again.score_of(spot.pos.copy(), moves[1], 2, now=time.perf_counter, budget=None, stop=None)
    first = quality.reference_analyser("previous", rules, random.Random(1)).score_of(
        spot.pos.copy(), moves[0], 2, now=time.perf_counter, budget=None, stop=None)
    assert (j.a_value, j.b_value) == (pytest.approx(first), pytest.approx(alone))


# ----- the numbers -----------------------------------------------------------------------------------
def test_the_paired_interval_on_a_known_sample():
    """Differences 1, 2, 3, 4, 10: mean 4, sample sd sqrt(12.5), t(0.975, 4) = 2.776445:
    4 +- 2.776445 * sqrt(12.5) / sqrt(5) = 4 +- 4.389945."""
    mean, low, high = quality.paired_interval([1.0, 2.0, 3.0, 4.0, 10.0])
    assert mean == 4.0
    assert low == pytest.approx(4 - 4.389945, abs=1e-5) and high == pytest.approx(4 + 4.389945, abs=1e-5)
    for df, t in ((1, 12.706205), (4, 2.776445), (9, 2.262157), (29, 2.045230), (299, 1.967930)):
        assert quality.t_quantile(0.975, df) == pytest.approx(t, abs=1e-5)
    assert quality.paired_interval([0.0, 0.0, 0.0]) == (0.0, 0.0, 0.0)
    assert quality.paired_interval([5.0])[1:] == (-math.inf, math.inf)


def test_summary_counts_which_choice_was_better():
    src = quality.Source("test", 1, None, (), ())
    spot = quality.Spot(src, 0, None)
    judged = [quality.Judged(spot, "e2e4", "e2e4", None, None),
              quality.Judged(spot, "e2e4", "d2d4", 30.0, 10.0, 3),     # A better by 20
              quality.Judged(spot, "e2e4", "g1f3", -5.0, 15.0, 3),     # B better by 20
              quality.Judged(spot, "e2e4", "c2c4", 7.0, 7.0, 3)]
    q = quality.summarize(judged)
    assert (q.positions, q.agreed, q.a_better, q.b_better, q.equal) == (4, 1, 1, 1, 1)
    assert q.regret_a == pytest.approx(20 / 4) and q.regret_b == pytest.approx(20 / 4) and q.difference == 0


def test_spread_keeps_first_and_spreads_the_rest():
    assert quality.spread(list(range(10)), 3) == [0, 3, 6]
    assert quality.spread([1, 2], 5) == [1, 2]


# ----- positions from logs ---------------------------------------------------------------------------
def test_positions_from_a_log_skip_the_opening_the_dice_and_forced_moves(tmp_path):
    rules = make_rules("combat")
    # the start of round 5's first logged game (combat_11.jsonl): e5d4 is a fight
    game = {"game": 4, "variant": "combat", "map": None, "options": {}, "opening": ["b2b4", "f7f6", "c2c4", "f6f5"],
            "actions": ["b1c3", "b8c6", "d2d4", "e7e5", "g1f3", "e5d4", "=attacker", "b4b5"]}
    sources = quality.sources_from_log("combat", "g.jsonl", [json.dumps(game)], lambda m, o: rules)
    spots = quality.game_positions(sources)
    # every action but the dice's "=attacker" is a choice of two moves or more
    assert [s.ply for s in spots] == [0, 1, 2, 3, 4, 5, 7]
    assert all(s.pos.pending is None for s in spots)
    assert [s.ply for s in quality.game_positions(sources, every=2)] == [0, 2, 4, 7]
    assert [s.ply for s in quality.game_positions(sources, keep=2)] == [0, 3]
    assert spots[0].source.game == 4
    assert spots[0].pos.hash == replay_actions(rules, ["b2b4", "f7f6", "c2c4", "f6f5"]).hash


def test_self_play_positions_are_the_same_for_the_same_seed():
    rules = make_rules("chess")
    first = quality.game_positions(quality.self_play_sources(rules, 1, 5, max_plies=12), every=3)
    again = quality.game_positions(quality.self_play_sources(rules, 1, 5, max_plies=12), every=3)
    assert first and [s.pos.hash for s in first] == [s.pos.hash for s in again]
    assert all(s.source.name == "self-play" for s in first)


def test_the_command_prints_progress_and_the_result_and_logs_each_position(tmp_path, capsys):
    out_log = tmp_path / "q.jsonl"
    game = {"variant": "chess", "opening": ["e2e4"], "actions": ["e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4"]}
    code, lines = run_cli(["--variant", "chess", "--from", write_log(tmp_path / "g.jsonl", [game]), "--positions", "4",
                           "--a", "max", "--b", "random", "--nodes", "300", "--ref-depth", "1", "--progress", "2",
                           "--log", str(out_log)], capsys)
    assert code == 0
    assert lines[0] == "4 positions from 1 games; A=max, B=random, reference max"
    assert lines[1].startswith("position 2/4: ") and lines[2].startswith("position 4/4: ")
    assert lines[3].startswith("positions 4: ") and lines[4].startswith("mean regret: A=max ")
    records = [json.loads(x) for x in out_log.read_text().splitlines()]
    assert len(records) == 4 and set(records[0]) == {"source", "game", "ply", "a_move", "b_move", "a_value",
                                                     "b_value", "depth"}


# ----- bad input: one line, nothing run ----------------------------------------------------------------
def cli_error(argv, capsys):
    with pytest.raises(CompanionError) as e:
        run_cli(argv, capsys)
    msg = str(e.value)
    assert "\n" not in msg
    return msg


def test_a_corrupt_log_line_is_refused(tmp_path, capsys):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"variant": "combat", "actions": []}\n{"variant": "comb\n', encoding="utf-8")
    msg = cli_error(["--variant", "combat", "--from", str(path), "--a", "max", "--b", "previous"], capsys)
    assert msg.startswith(f"{path} line 2: not valid JSON (")
    path.write_text('{"variant": "combat", "actions": "e2e4"}\n', encoding="utf-8")
    assert "line 1: not a game of ai-match --log" in cli_error(
        ["--variant", "combat", "--from", str(path), "--a", "max", "--b", "previous"], capsys)
    for opening in ('5', '"e2e4"', '{"e2e4": 1}'):  # an opening not a list of actions (5 was a traceback)
        path.write_text('{"variant": "combat", "actions": [], "opening": %s}\n' % opening, encoding="utf-8")
        assert "line 1: not a game of ai-match --log" in cli_error(
            ["--variant", "combat", "--from", str(path), "--a", "max", "--b", "previous"], capsys)


def test_a_log_of_another_variant_is_refused(tmp_path, capsys):
    path = write_log(tmp_path / "d.jsonl", [{"variant": "dungeon", "map": "dungeon-compact", "actions": []}])
    msg = cli_error(["--variant", "combat", "--from", path, "--a", "max", "--b", "previous"], capsys)
    assert msg == f"{path} line 1: a game of dungeon, not of combat"


def test_a_logged_game_whose_map_or_options_cannot_be_played_is_refused_naming_its_line(tmp_path, capsys):
    """A map that is not a name (was a TypeError's traceback), an option the game does not take
    or a map that is not there: one line naming the file and the line."""
    for bad, words in (({"map": 5}, "its map is not a name"), ({"options": {"foo": 1}}, "foo"),
                       ({"map": "no-such-map"}, "no-such-map")):
        path = write_log(tmp_path / "m.jsonl", [{"variant": "combat", "actions": []},
                                                 {"variant": "combat", "actions": [], **bad}])
        msg = cli_error(["--variant", "combat", "--from", path, "--a", "max", "--b", "previous"], capsys)
        assert msg.startswith(f"{path} line 2: ") and words in msg


def test_an_illegal_logged_move_is_refused_with_its_game_and_ply(tmp_path, capsys):
    path = write_log(tmp_path / "c.jsonl", [{"game": 3, "variant": "chess", "actions": ["e2e4", "e2e4"]}])
    msg = cli_error(["--from", path, "--a", "max", "--b", "1"], capsys)
    assert msg.startswith(f"{path} game 3 ply 2: ")


def test_unknown_players_and_a_non_searching_reference_are_refused(tmp_path, capsys):
    assert "--b 'nobody': no such player" in cli_error(["--games", "1", "--a", "max", "--b", "nobody"], capsys)
    assert "--ref 'greedy': the reference must search" in cli_error(
        ["--games", "1", "--a", "max", "--b", "1", "--ref", "greedy"], capsys)
    assert "--ref 'x': no such player" in cli_error(["--games", "1", "--a", "max", "--b", "1", "--ref", "x"], capsys)


def test_zero_positions_are_refused(tmp_path, capsys):
    empty = write_log(tmp_path / "e.jsonl", [{"variant": "chess", "actions": []}])
    assert cli_error(["--from", empty, "--a", "max", "--b", "1"], capsys) == \
        "no positions to judge: the games hold no choice of two actions or more"
    assert cli_error(["--a", "max", "--b", "1"], capsys) == "no positions: give --from FILE (an ai-match --log) or --games N"
    assert "--from" in cli_error(["--from", str(tmp_path / "missing.jsonl"), "--a", "max", "--b", "1"], capsys)


def test_the_command_is_wired_into_companion():
    from companion.cli import build_parser

    args = build_parser().parse_args(["ai-quality", "--a", "max", "--b", "previous", "--games", "1"])
    assert args.func is quality.run and args.ref == "max" and args.ref_depth is None
