"""Combat Chess's threat term (``threat`` in tables/combat.toml, docs/ai.md "How it evaluates"):
at a leaf the capture search tries the fights of the side to move only; the fights the other
side could start next are judged by their odds. In Combat Chess the attacker is the favourite
(weapon choice): a pawn wins about half its attacks on a knight, defended or not, so a piece
a pawn attacks is not safe the way it is in chess."""

import time

import pytest

from companion.ai.eval_table import table_for
from companion.ai.evaluate import Evaluator
from companion.ai.search import Search
from companion.games import make_rules

# White to move; the black pawn on d5 attacks the white knight on e4 (nothing defends it)
KNIGHT_HANGS = "4k3/8/8/3p4/4N3/8/8/4K3 w - - 0 1"
# the same knight defended by the pawn on f3: a lost fight costs Black its pawn back
KNIGHT_DEFENDED = "4k3/8/8/3p4/4N3/5P2/8/4K3 w - - 0 1"
# the black queen on b4 attacks the pawn on c3, which the pawn on b2 defends, and the pawn on b2
QUEEN_ON_PAWNS = "4k3/8/8/8/1q6/2P5/1P6/4K3 w - - 0 1"


@pytest.fixture(scope="module")
def combat():
    return make_rules("combat")


def evaluators(rules, share=0.5):
    """The game's table without and with the threat term, both with the capture search at the
    leaves (``leaf_fights`` off: the term alone)."""
    return (Evaluator(rules, table_for(rules, {"threat": 0.0, "leaf_fights": False})),
            Evaluator(rules, table_for(rules, {"threat": share, "leaf_fights": False})))


def attack_odds(rules, text, move):
    """The exact chance that Black wins the attack ``move`` (Black to move in ``text``)."""
    pos = rules.position_from_text(text.replace(" w ", " b "))
    return float(rules.odds_of_move(pos, rules.parse_move(pos, move)).attacker)


def test_a_pawn_attacking_a_lone_knight_counts_for_the_side_not_to_move(combat):
    """Black's best attack is worth p x knight - (1 - p) x pawn by the fight's exact odds; one
    threat can be met, so Black earns threat x half of it."""
    off, on = evaluators(combat)
    pos = combat.position_from_text(KNIGHT_HANGS)
    p = attack_odds(combat, KNIGHT_HANGS, "d5e4")
    assert 0.45 < p < 0.55  # d6 + 1 against d8, ties rolled again: about even
    knight, pawn = off.values[combat.kind_index["N"]], off.values[combat.kind_index["P"]]
    expected = 0.5 * 0.5 * (p * knight - (1 - p) * pawn)
    assert off.evaluate(pos, 0) - on.evaluate(pos, 0) == pytest.approx(expected, abs=1e-3)
    assert on.evaluate(pos, 1) - off.evaluate(pos, 1) == pytest.approx(expected, abs=1e-3)


def test_a_defended_knight_is_still_threatened_but_less(combat):
    """A defender wins the pawn back only when its own fight is won: the threat shrinks by that,
    and stays (a pawn attacking a defended knight is a good fight in Combat Chess)."""
    off, on = evaluators(combat)
    alone = off.evaluate(combat.position_from_text(KNIGHT_HANGS), 0) - on.evaluate(combat.position_from_text(KNIGHT_HANGS), 0)
    pos = combat.position_from_text(KNIGHT_DEFENDED)
    defended = off.evaluate(pos, 0) - on.evaluate(pos, 0)
    assert 0 < defended < alone


def test_a_queen_attacking_defended_pawns_is_no_threat(combat):
    """A queen wins most fights against a pawn, but loses the queen too often (and a defender
    wins it back): such an attack is worth less than nothing and earns nothing."""
    off, on = evaluators(combat)
    pos = combat.position_from_text(QUEEN_ON_PAWNS)
    assert combat.attackers(pos, combat.geometry.parse_square("c3"), 1)  # the attack is there
    assert on.evaluate(pos, 0) == off.evaluate(pos, 0)


def test_only_the_side_not_to_move_earns_the_term(combat):
    """The side to move's own fights are the capture search's: with Black to move the knight's
    threat against nothing, and the pawn's attack is Black's to play, not a threat term."""
    off, on = evaluators(combat)
    pos = combat.position_from_text(KNIGHT_HANGS.replace(" w ", " b "))
    assert on.evaluate(pos, 0) == off.evaluate(pos, 0)


def test_off_unless_a_table_sets_it(combat):
    """Both keys default to off: FIDE chess and the previous level's frozen tables do not
    change, nor does Combat Chess's own table (switched off after round 4's final match)."""
    chess = make_rules("chess")
    assert Evaluator(chess).table.threat == 0.0 and not Evaluator(chess).table.leaf_fights
    from companion.ai.previous import previous_table
    assert previous_table(combat).threat == 0.0 and not previous_table(combat).leaf_fights
    assert Evaluator(combat).table.threat == 0.0 and not Search(combat).leaf_fights


# From a timed match against the previous level (tuning seed 100): positions where a two-ply
# search picks another move with the term than without, and a three-ply search without the term
# agrees with the term (the reply's attack that two plies leave beyond the horizon)
DEEPER = [
    ("r2qkb1r/2p1pppp/1pn5/p3P3/3Pp1P1/4B2P/PPPN1P2/R2QKB1R b KQkq - 1 11 fatigue=e5:1,e4:1", "b6b5"),
    ("3r2k1/1r3ppp/2RPp3/q2nP1P1/p7/P2B1Q1P/1P3P2/3R2K1 w - - 7 36 fatigue=d3:1,e5:1,d6:1,a5:1,d5:1", "d1c1"),
    ("4r1r1/kp3p1p/p2b2b1/P1pRBqP1/2Q2P2/7P/1P4B1/4R1K1 b - - 0 39 fatigue=e5:1,g6:2", "d6e5"),
]


@pytest.mark.parametrize("text,deeper", DEEPER)
def test_two_plies_with_the_term_play_what_three_plies_without_it_play(combat, text, deeper):
    off, on = evaluators(combat)
    pos = combat.position_from_text(text)
    plain = Search(combat, off).run(pos, now=time.perf_counter, max_depth=2)
    judged = Search(combat, on).run(pos, now=time.perf_counter, max_depth=2)
    assert combat.move_text(pos, plain.best) != deeper
    assert combat.move_text(pos, judged.best) == deeper


def test_a_good_fight_is_still_taken_with_the_term(combat):
    """The term must not make the computer timid: a fresh knight still attacks the lone bishop
    (tests/test_ai_chance.py's position), with the threat term as with none."""
    __, on = evaluators(combat)
    pos = combat.position_from_text("4k3/8/8/3b4/8/2N5/8/4K3 w - - 0 1")
    info = Search(combat, on).run(pos, now=time.perf_counter, max_depth=3)
    assert combat.move_text(pos, info.best) == "c3d5"


def test_fight_gain_is_the_side_to_moves_best_fight_by_the_odds(combat):
    """``leaf_fights``' estimate: with Black to move, the pawn's attack on the lone knight is
    worth p x knight - (1 - p) x pawn; with White to move (the knight attacks nothing) 0."""
    __, on = evaluators(combat)
    p = attack_odds(combat, KNIGHT_HANGS, "d5e4")
    knight, pawn = on.values[combat.kind_index["N"]], on.values[combat.kind_index["P"]]
    black = combat.position_from_text(KNIGHT_HANGS.replace(" w ", " b "))
    assert on.fight_gain(black) == pytest.approx(p * knight - (1 - p) * pawn)
    assert on.fight_gain(combat.position_from_text(KNIGHT_HANGS)) == 0.0
    # the queen's attacks on defended pawns do not pay: no gain to stand on
    queen = combat.position_from_text(QUEEN_ON_PAWNS.replace(" w ", " b "))
    assert on.fight_gain(queen) == 0.0


def test_leaf_fights_values_a_leaf_without_a_capture_search(combat):
    """With ``leaf_fights`` a depth-1 search scores each move by the evaluation after it plus
    the reply's best fight (no capture search): the knight that steps next to the pawn (d5xe4
    next) scores lower than one that stays out of reach, and the capture search's nodes are
    not visited (fewer nodes than with it)."""
    text = "4k3/8/8/3p4/8/2N5/8/4K3 w - - 0 1"
    pos = combat.position_from_text(text)
    plain = Evaluator(combat, table_for(combat, {"threat": 0.5, "leaf_fights": False}))
    leafy = Evaluator(combat, table_for(combat, {"threat": 0.5, "leaf_fights": True}))
    s = Search(combat, leafy)
    assert s.leaf_fights
    info = s.run(pos, now=time.perf_counter, max_depth=1, exact_root=True)
    scores = {combat.move_text(pos, m): v for m, v in info.root_scores}
    combat.apply(pos, combat.parse_move(pos, "c3e4"))
    expected = leafy.evaluate(pos, 0) - leafy.fight_gain(pos)
    combat.undo(pos)
    assert scores["c3e4"] == pytest.approx(expected)
    assert scores["c3e4"] < scores["c3e2"]
    full = Search(combat, plain).run(pos, now=time.perf_counter, max_depth=1, exact_root=True)
    assert info.nodes < full.nodes


def test_leaf_fights_still_searches_a_leaf_in_check(combat):
    """A leaf where the side to move is in check (or must attack a King) is not a quiet
    position: the capture search (every move, in check) decides it exactly as without
    ``leaf_fights``; a quiet leaf is scored by the estimate instead."""
    text = "6k1/5p2/8/8/8/3B4/8/4K2Q w - - 0 1"  # Qh7+ (guarded by the bishop): Black in check
    pos = combat.position_from_text(text)
    plain = Evaluator(combat, table_for(combat, {"threat": 0.5, "leaf_fights": False}))
    leafy = Evaluator(combat, table_for(combat, {"threat": 0.5, "leaf_fights": True}))
    scores = []
    for ev in (plain, leafy):
        info = Search(combat, ev).run(pos, now=time.perf_counter, max_depth=1, exact_root=True)
        scores.append({combat.move_text(pos, m): v for m, v in info.root_scores})
    assert scores[0]["h1h7"] == pytest.approx(scores[1]["h1h7"])
    assert any(scores[0][m] != pytest.approx(scores[1][m]) for m in scores[0])
