"""A saved game analysed in the review, without Kivy: each move evaluated in the background with
progress, the blunder marked with its best alternative lit on the board, the graph's points, the
counts per player; leaving the review stops it."""

from __future__ import annotations

from companion.ai.analysis import SearchAnalyser, actions_between
from companion.board.palette import Meaning
from companion.games import make_rules
from tests.ui_flow_helpers import App


def blundered_game(app: App) -> None:
    """1.e4 d5 2.Qg4?? Bxg4, then White resigns."""
    app.new_game(game="chess", dice="virtual")
    for taps in (("e2", "e4"), ("d7", "d5"), ("d1", "g4"), ("g4", "c8", "g4")):  # a capture: the taken piece off first
        app.tap(*taps)
    app.flow.play.resign()
    app.flow.display.answer_prompt("0")
    app.pump()
    app.flow.game.leave()
    app.pump()


def reviewing(tmp_path) -> App:
    app = App(tmp_path, computer=False)
    app.flow.analysis.make_analyser = SearchAnalyser
    app.flow.analysis.seconds = 0.15
    blundered_game(app)
    app.start.games()
    app.pump()
    app.games.select(0)
    app.games.review()
    app.pump()
    assert app.flow.display.screen == "review"
    return app


def finish(app: App) -> None:
    app.flow.analysis.worker.join(60)
    app.pump()


def test_the_review_offers_the_analysis_and_shows_its_progress(tmp_path):
    app = reviewing(tmp_path)
    a = app.review.view().analysis
    assert a.can_start and a.progress == -1 and a.graph == () and a.frames == 4
    app.review.analyse()
    a = app.review.view().analysis
    assert not a.can_start and 0 <= a.progress < 1 and a.status.startswith("Analysing: ")
    finish(app)
    a = app.review.view().analysis
    assert a.progress == -1 and len(a.graph) == 4 and [f for f, _ in a.graph] == [1, 2, 3, 4]
    assert a.status.startswith("White: 1 blunder") and "Black: " in a.status


def test_the_blunder_is_marked_and_its_best_alternative_lit(tmp_path):
    app = reviewing(tmp_path)
    app.review.analyse()
    finish(app)
    app.review.first()
    for _ in range(3):
        app.review.forward()
    a = app.review.view().analysis
    assert a.kind == "blunder" and a.verdict.startswith("Qg4?? a blunder") and a.at == 3
    lit = app.flow.board.coach_lights
    assert sorted(lit.values(), key=lambda m: m.value) == [Meaning.HINT_FROM, Meaning.HINT_TO]
    app.pump()
    assert any(app.flow.board.frame[sq] != (0, 0, 0) for sq in lit)
    app.review.forward()  # Bxg4: a good move, nothing else lit
    assert app.review.view().analysis.kind == "" and app.flow.board.coach_lights == {}


def test_leaving_the_review_stops_the_analysis(tmp_path):
    app = reviewing(tmp_path)
    app.review.analyse()
    app.review.close()
    assert app.flow.analysis.analysis is None and app.flow.board.coach_lights == {}
    finish(app)  # a late answer is dropped
    assert app.flow.analysis.analysis is None


def test_the_actions_of_a_game_with_fights_are_found_from_its_positions():
    rules = make_rules("combat")
    pos = rules.start_position()
    positions, lasts, played = [pos.copy()], [None], []
    for frm, to in (("e2", "e4"), ("d7", "d5"), ("e4", "d5")):  # the capture is a fight
        g = rules.geometry
        m = next(m for m in rules.legal_moves(pos) if (m.frm, m.to) == (g.parse_square(frm), g.parse_square(to)))
        rules.play(pos, m)
        played.append(m)
        while pos.pending is not None:
            a = rules.chance_outcomes(pos)[0].answer if pos.pending.chance else rules.answers(pos)[0]
            rules.play(pos, a)
            played.append(a)
        positions.append(pos.copy())
        lasts.append((m.frm, m.to))
    actions, frame_of = actions_between(rules, positions, lasts)
    assert len(actions) == len(played) > 3 and frame_of[:3] == [0, 1, 2]
