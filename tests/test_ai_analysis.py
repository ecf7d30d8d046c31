"""Review with analysis: each chosen move of a finished game scored against the best, classed,
with the best alternative and the evaluation graph; dice and secret bids played, not judged;
Stockfish for chess, our search for every game; in the background with progress."""

import time

import pytest

from companion.ai.analysis import GameReview, SearchAnalyser, analyser_for, parse_actions, review_game
from companion.ai.stockfish import StockfishAnalyser
from companion.ai.worker import ReviewFinished, ReviewProgressed, ReviewWorker, SearchStarted
from companion.games import make_rules
from tests.chess2_helpers import game, pos_of

#: Black's 3...Nf6?? allows Qxf7 mate (the scholar's mate)
SCHOLAR = ["e2e4", "e7e5", "d1h5", "b8c6", "f1c4", "g8f6", "h5f7"]


def review(rules, actions, analyser=None, **kw):
    kw.setdefault("max_nodes", 3000)
    kw.setdefault("budget", None)
    return review_game(rules, actions, analyser=analyser or SearchAnalyser(rules), now=time.perf_counter, **kw)


def test_the_scholars_mate_blunder_is_found_with_the_best_alternative():
    rules = make_rules("chess")
    seen = []
    r = review(rules, SCHOLAR, on_progress=lambda done, total, m: seen.append((done, total, m.text)))
    assert isinstance(r, GameReview) and r.complete and r.analyser == "our search"
    assert seen == [(i + 1, 7, t) for i, t in enumerate(SCHOLAR)]
    nf6 = r.moves[5]
    assert nf6.text == "g8f6" and nf6.player == 1 and nf6.kind == "blunder" and nf6.best_text != "g8f6"
    assert nf6.drop > 1000
    assert r.moves[6].kind is None and r.moves[6].best_text == "h5f7"  # the mate itself is the best move
    assert r.count(1, "blunder") == 1 and r.count(0, "blunder") == 0
    graph = r.graph()
    assert [i for i, _ in graph] == list(range(7)) and graph[-1][1] == 1000.0  # white's side, mate clipped


def test_stockfish_reviews_chess():
    rules = make_rules("chess")
    analyser = analyser_for(rules)
    assert isinstance(analyser, StockfishAnalyser)
    try:
        r = review_game(rules, SCHOLAR, analyser=analyser, now=time.perf_counter, budget=0.1)
    finally:
        analyser.close()
    assert r.analyser.startswith("Stockfish") and r.moves[5].kind == "blunder" and r.moves[6].best_text == "h5f7"


def test_other_games_are_reviewed_by_our_search():
    for variant in ("combat", "dungeon", "kol"):
        assert isinstance(analyser_for(make_rules(variant)), SearchAnalyser)


def test_combat_a_fight_is_judged_by_its_odds_and_the_dice_are_not_judged():
    """The tired knight's attack on the bishop loses on average whatever the dice then say;
    the fight's outcome is played, not reviewed."""
    rules = make_rules("combat")
    start = rules.position_from_text("4k3/8/8/3b4/8/2N5/8/4K3 w - - 0 1 fatigue=c3:4")
    r = review(rules, ["c3d5", "=attacker"], position=start)
    assert len(r.moves) == 1
    fight = r.moves[0]
    assert fight.text == "c3d5" and fight.played_score < fight.best_score and fight.best_text != "c3d5"


def test_dungeon_a_knight_put_where_the_enemy_knight_takes_it_is_a_blunder():
    """Compact map: player 1's Knight c2-b4 lands where player 2's Knight on c6 takes it."""
    d = make_rules("dungeon", "dungeon-compact")
    start = d.position_from_text("7(2RD)2/10/10/10/2(2KN)7/10/10/10/2(1KN)7/4(1PR)5 1")
    m = review(d, ["c2b4"], position=start).moves[0]
    assert m.kind == "blunder" and m.best_text != "c2b4" and m.drop > 100


def test_chess2_choices_are_reviewed_and_secret_bids_are_not():
    r = game("classic")
    start = pos_of(r, "4k3/8/3p4/8/8/8/8/3QK3 w - - 0 1", stones="0,3")
    rev = review(r, ["d1d6", "=pass"], position=start)
    assert [m.text for m in rev.moves] == ["d1d6", "=pass"]
    # declining a duel the attacker cannot win (it has no stones): the Queen could have been lost
    assert rev.moves[1].best_text == "=duel" and rev.moves[1].kind in ("mistake", "blunder")


def test_a_stopped_review_says_it_is_incomplete_and_keeps_what_it_did():
    rules = make_rules("chess")
    done = []
    r = review(rules, SCHOLAR, stop=lambda: len(done) >= 2, on_progress=lambda d, t, m: done.append(d))
    assert not r.complete and len(r.moves) == 2


def test_actions_as_texts_and_as_objects_review_the_same():
    rules = make_rules("chess")
    objects = parse_actions(rules, SCHOLAR)
    # (what is compared is the path from texts, not the search: 300 nodes a move do, not 3,000)
    assert review(rules, objects, max_nodes=300).moves == review(rules, SCHOLAR, max_nodes=300).moves


def test_the_review_runs_in_the_background_with_progress():
    rules = make_rules("chess")
    worker = ReviewWorker(time.perf_counter)
    worker.start(rules, SCHOLAR, SearchAnalyser(rules), budget=None, max_nodes=1500)
    worker.join(60)
    events = worker.drain()
    assert isinstance(events[0], SearchStarted)
    progress = [e for e in events if isinstance(e, ReviewProgressed)]
    assert [(e.done, e.total) for e in progress] == [(i, 7) for i in range(1, 8)]
    assert isinstance(events[-1], ReviewFinished) and len(events[-1].review.moves) == 7


def test_an_illegal_action_in_the_record_is_a_clear_error():
    rules = make_rules("chess")
    with pytest.raises(Exception, match="e2e5"):
        review(rules, ["e2e5"])
