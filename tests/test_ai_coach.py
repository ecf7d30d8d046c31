"""The coach's pure core in every game: a hint, the threats to a player's pieces (fights weighed
by their odds in Combat Chess, a duel that may save a piece in Chess 2), a blunder check, and
the hint on the AI worker thread."""

import time

import pytest

from companion.ai.coach import BLUNDER, Coach, MoveCheck, classify, winning_chance
from companion.ai.search import MATE
from companion.ai.worker import MoveFound, SearchWorker
from companion.games import make_rules
from tests.chess2_helpers import game, pos_of
from tests.kol_board import R as KOL
from tests.kol_board import position as kol_position

BACK_RANK = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"          # Ra8 mates
#: a white knight on c3 can take the undefended black bishop on d5 (black to move: its bishop)
BISHOP = "4k3/8/8/3b4/8/2N5/8/4K3 b - - 0 1"
#: Dungeon Chess, compact map: a Knight two squares from the Red Dragon (g8-h10 takes the King)
DUNGEON_KING = "7(2RD)2/10/6(1KN)3/10/10/10/10/10/10/4(1PR)5 1"
#: player 1's Knight on b5, attacked by player 2's Knight on c7 (undefended; with a Hero on a4
#: defending it, the Knights only trade)
DUNGEON_HANGING = "7(2RD)2/10/10/2(2KN)7/10/1(1KN)8/10/10/10/4(1PR)5 1"
DUNGEON_DEFENDED = "7(2RD)2/10/10/2(2KN)7/10/1(1KN)8/(1HE)9/10/10/4(1PR)5 1"


def hint_text(rules, pos, nodes=3000):
    h = Coach(rules).hint(pos, now=time.perf_counter, max_nodes=nodes)
    return rules.move_text(pos, h.action), h


# ----- hints: the move that wins at once ----------------------------------------------------------
@pytest.mark.parametrize("variant", ["chess", "combat"])
def test_the_hint_is_the_mate_in_one(variant):
    rules = make_rules(variant)
    move, h = hint_text(rules, rules.position_from_text(BACK_RANK))
    assert move == "a1a8" and h.score == MATE - 1


def test_the_hint_in_chess2_is_the_mate_in_one():
    r = game("classic")
    move, h = hint_text(r, pos_of(r, BACK_RANK, stones="3,3"))
    assert move == "a1a8" and h.score >= MATE - 10


def test_the_hint_in_dungeon_chess_takes_the_king():
    d = make_rules("dungeon", "dungeon-compact")
    move, h = hint_text(d, d.position_from_text(DUNGEON_KING))
    assert move == "g8h10" and h.score == MATE - 1


def test_the_hint_in_kol_chess_takes_the_last_legend():
    """Orange's one Legend (Boris on l1, of the test board's base) taken: the second way to lose."""
    move, h = hint_text(KOL, kol_position({"l5": "T"}))
    assert move == "l5l1" and h.score == MATE - 1


def test_a_hint_is_given_for_a_pending_choice_too():
    """A Chess 2 defender asked whether to duel an attacker with no stones: duel (a sure win)."""
    r = game("classic")
    pos = pos_of(r, "4k3/8/3p4/8/8/8/8/3QK3 w - - 0 1", stones="0,3")
    r.play(pos, r.parse_move(pos, "d1d6"))
    h = Coach(r).hint(pos, now=time.perf_counter, max_nodes=3000)
    assert h.action.value == "duel"


def test_the_hint_runs_on_the_ai_worker_and_leaves_the_position_alone():
    rules = make_rules("chess")
    pos = rules.position_from_text(BACK_RANK)
    before = pos.snapshot()
    coach = Coach(rules)
    worker = SearchWorker(time.perf_counter)
    worker.start(coach.hinter(), pos, budget=None, max_nodes=3000)
    worker.join(30)
    found = [e for e in worker.drain() if isinstance(e, MoveFound)]
    assert len(found) == 1 and rules.move_text(pos, found[0].action) == "a1a8"
    assert pos.snapshot() == before


# ----- threats ---------------------------------------------------------------------------------------
def test_chess_a_hanging_piece_is_a_threat_a_defended_one_trades():
    rules = make_rules("chess")
    coach = Coach(rules)
    threats = coach.threats(rules.position_from_text(BISHOP), 1)
    assert [rules.geometry.name_of(t.square) for t in threats] == ["d5"]
    assert threats[0].loss > 300 and rules.move_text(rules.position_from_text(BISHOP), threats[0].capture) == "c3d5"
    # defended by a pawn on e6: bishop for knight is no loss
    assert coach.threats(rules.position_from_text("4k3/8/4p3/3b4/8/2N5/8/4K3 b - - 0 1"), 1) == []
    # nothing of white's is attacked
    assert coach.threats(rules.position_from_text(BISHOP), 0) == []


def test_combat_threats_are_weighed_by_the_fight_odds():
    """The same undefended bishop: a fresh knight's fight still costs black on average, but
    less than the bishop (the knight may lose); a knight with four fatigue tokens loses most of
    its fights, so its capture is no threat at all."""
    rules = make_rules("combat")
    coach = Coach(rules)
    fresh = coach.threats(rules.position_from_text(BISHOP), 1)
    assert [rules.geometry.name_of(t.square) for t in fresh] == ["d5"]
    chess_loss = Coach(make_rules("chess")).threats(make_rules("chess").position_from_text(BISHOP), 1)[0].loss
    assert 0 < fresh[0].loss < chess_loss
    assert coach.threats(rules.position_from_text(BISHOP + " fatigue=c3:4"), 1) == []


def test_chess2_a_duel_may_save_the_piece():
    """White's undefended knight, attacked by black's queen: with 3 stones against none, white
    duels and wins for sure (the Queen dies): no threat; with stones on both sides the duel only
    lowers what the capture costs; with none for white, the knight is simply lost."""
    r = game("classic")
    coach = Coach(r)
    text = "4k3/8/8/3q4/4N3/8/8/4K3 w - - 0 1"
    saved = coach.threats(pos_of(r, text, stones="3,0"), 0)
    both = coach.threats(pos_of(r, text, stones="3,3"), 0)
    lost = coach.threats(pos_of(r, text, stones="0,3"), 0)
    assert saved == []
    assert [t.square for t in both] == [t.square for t in lost] == [r.geometry.parse_square("e4")]
    assert 0 < both[0].loss < lost[0].loss


def test_dungeon_a_hanging_knight_is_a_threat_a_defended_one_trades():
    d = make_rules("dungeon", "dungeon-compact")
    coach = Coach(d)
    threats = coach.threats(d.position_from_text(DUNGEON_HANGING), 0)
    assert [d.geometry.name_of(t.square) for t in threats] == ["b5"] and threats[0].by == 1
    assert coach.threats(d.position_from_text(DUNGEON_DEFENDED), 0) == []


def test_kol_a_hanging_monster_is_a_threat():
    """A Blue Tower on e5 in front of Orange's Tower on e8, nothing between and nothing defending."""
    pos = kol_position({"e5": "T", "e8": "t"})
    threats = Coach(KOL).threats(pos, 0)
    assert KOL.geometry.parse_square("e5") in [t.square for t in threats]


def test_no_threats_while_a_decision_is_pending_or_the_game_is_over():
    rules = make_rules("chess")
    pos = rules.position_from_text("R5k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1")  # black is mated
    assert Coach(rules).threats(pos, 1) == []


def test_threats_leave_the_position_as_it_was():
    rules = make_rules("combat")
    pos = rules.position_from_text(BISHOP)
    before = pos.snapshot()
    Coach(rules).threats(pos, 1)
    assert pos.snapshot() == before


# ----- the blunder check --------------------------------------------------------------------------
def test_a_move_that_hangs_the_queen_is_a_blunder_and_the_best_move_is_none():
    rules = make_rules("chess")
    pos = rules.position_from_text("4k3/8/8/8/8/8/3Q4/4K3 w - - 0 1")
    coach = Coach(rules)
    bad = coach.check_move(pos, rules.parse_move(pos, "d2d7"), now=time.perf_counter, max_nodes=4000)
    assert isinstance(bad, MoveCheck) and bad.kind == "blunder" and bad.drop > 700
    best = coach.check_move(pos, coach.hint(pos, now=time.perf_counter, max_nodes=4000).action,
                            now=time.perf_counter, max_nodes=4000)
    assert best.kind is None and best.drop == 0


def test_missing_the_mate_in_one_is_at_least_a_mistake():
    rules = make_rules("chess")
    pos = rules.position_from_text(BACK_RANK)
    check = Coach(rules).check_move(pos, rules.parse_move(pos, "g1f1"), now=time.perf_counter, max_nodes=3000)
    assert check.best_action == rules.parse_move(pos, "a1a8") and check.kind in ("mistake", "blunder")


def test_a_fight_with_bad_odds_is_checked_by_its_expectation():
    """Combat Chess: the tired knight's capture of the bishop loses on average: flagged against
    the best alternative, whatever the dice would have said."""
    rules = make_rules("combat")
    pos = rules.position_from_text(BISHOP.replace(" b ", " w ") + " fatigue=c3:4")
    check = Coach(rules).check_move(pos, rules.parse_move(pos, "c3d5"), now=time.perf_counter, max_nodes=6000)
    assert check.played < check.best and check.best_action != rules.parse_move(pos, "c3d5")


def test_classes_follow_the_loss_of_winning_chances():
    assert classify(0, -20) is None
    assert classify(30, -30) == "inaccuracy"     # winning chances 0.055 to -0.055
    assert classify(60, -60) == "mistake"        # 0.11 to -0.11
    assert classify(100, -100) == "blunder"      # 0.18 to -0.18
    assert classify(900, 700) is None            # still winning: nothing lost that matters
    assert classify(200, -300) == "blunder"
    assert classify(MATE - 1, 500) in ("mistake", "blunder")
    assert winning_chance(MATE - 3) == 1.0 and winning_chance(-(MATE - 3)) == -1.0
    assert winning_chance(0) == 0.0
    assert winning_chance(200) - winning_chance(-200) > BLUNDER


def test_three_players_threats_name_the_opponent_and_each_capture_is_its_move():
    """Dungeon Chess, three players on the four-player map: each opponent in turn is asked what
    it could take; every threat's capture is a legal move of that opponent."""
    import random

    from companion.ai.match import random_opening, replay_actions

    rules = make_rules("dungeon", "dungeon-four-player", players=3)
    pos = replay_actions(rules, random_opening(rules, 30, random.Random(2)))
    before = pos.snapshot()
    coach = Coach(rules)
    found = [(p, t) for p in range(3) for t in coach.threats(pos, p)]
    assert found and pos.snapshot() == before
    for player, t in found:
        assert t.by != player and t.square in pos.occ[player]
        work = pos.copy()
        work.set_turn(t.by)
        assert t.capture in rules.legal_moves(work)
    assert coach.hint(pos, now=time.perf_counter, max_nodes=500).action in rules.legal_moves(pos)
