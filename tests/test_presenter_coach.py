"""The coach at the table without Kivy: the per-seat switch, the hint lit with its progress,
threatened pieces lit, the word after a move that drops material with Undo one tap away, and
nothing in tournament mode."""

from __future__ import annotations

from companion.ai.worker import MoveFound, SearchProgressed
from companion.board.palette import PALETTE, Meaning
from tests.ui_flow_helpers import App


class InlineWorker:
    """The hint's search run at once, to a few thousand nodes, its events posted as the real
    worker posts them (through the Mailbox)."""

    def __init__(self, mailbox):
        self.mailbox = mailbox
        self.request = 0
        self.stopped = 0

    def start(self, player, pos, budget, max_nodes=None):
        self.request += 1
        info = player.choose(pos.copy(), now=lambda: 0.0, budget=None, max_nodes=3000)
        self.mailbox.post("coach-search", SearchProgressed(self.request, info))
        self.mailbox.post("coach-search", MoveFound(self.request, info))
        return self.request

    def stop(self, wait=None):
        self.stopped += 1


def coached_app(tmp_path):
    app = App(tmp_path, computer=False)
    app.flow.coach.worker = InlineWorker(app.flow.mailbox)
    app.flow.coach.check_seconds = 0.3
    app.new_game(game="chess")
    return app


def light(app, name):
    return app.flow.board.frame[app.sq(name)]


def test_the_coach_is_off_until_the_seat_asks_in_the_menu_and_then_offers_a_hint(tmp_path):
    app = coached_app(tmp_path)
    assert app.game.view().coach is None  # no row: the move list keeps its room
    app.flow.menu.open()
    assert "coach" in [o.key for o in app.flow.display.prompt.options]
    app.flow.display.answer_prompt("coach")
    app.pump()
    line = app.game.view().coach
    assert line.on and line.can_hint and line.text == ""
    assert app.flow.coach.coached == {0}


def test_a_hint_is_searched_in_the_background_and_lit_on_the_board(tmp_path):
    app = coached_app(tmp_path)
    app.game.toggle_coach()
    app.game.hint()
    assert app.flow.coach.hinting is not None and app.game.view().coach.progress >= 0
    app.pump()
    coach = app.flow.coach
    assert coach.hinting is None and coach.hint is not None
    assert app.game.view().coach.text.startswith("Hint: ")
    assert light(app, app_name(coach.hint.frm)) == PALETTE[Meaning.HINT_FROM].rgb
    assert light(app, app_name(coach.hint.to)) == PALETTE[Meaning.HINT_TO].rgb
    assert app.flow.animating is False  # the hint is found: nothing moves on its own any more


def app_name(sq):
    return "abcdefgh"[sq % 8] + str(sq // 8 + 1)


def test_the_hint_goes_out_when_the_position_changes(tmp_path):
    app = coached_app(tmp_path)
    app.game.toggle_coach()
    app.game.hint()
    app.pump()
    app.tap("e2")
    app.tap("e4")
    assert app.flow.coach.hint is None and app.flow.board.coach_lights == {}


def test_a_piece_that_can_be_taken_for_free_is_lit_for_a_coached_player(tmp_path):
    app = coached_app(tmp_path)
    for frm, to in (("e2", "e4"), ("e7", "e5"), ("g1", "f3")):
        app.tap(frm)
        app.tap(to)
    app.game.toggle_coach()  # Black asks: its pawn on e5 hangs to the knight
    app.pump()
    assert [t.square for t in app.flow.coach.threats] == [app.sq("e5")]
    assert light(app, "e5") == PALETTE[Meaning.THREAT].rgb
    assert "taken for free" in app.game.view().coach.text


def test_a_move_that_drops_material_is_said_and_undone_in_one_tap(tmp_path):
    app = coached_app(tmp_path)
    app.game.toggle_coach()  # White
    for frm, to in (("e2", "e4"), ("d7", "d5"), ("d1", "g4")):  # 2.Qg4?? Bxg4
        app.tap(frm)
        app.tap(to)
    app.pump()  # the check's answer, posted from its worker
    line = app.game.view().coach
    assert line is not None and line.offer_undo and line.text.startswith("That move drops material")
    app.game.undo_blunder()
    app.pump()
    assert app.game.view().moves == (("1.", "e4", "d5"),)
    assert not app.flow.coach.offer_undo


def test_an_uncoached_seat_hears_nothing(tmp_path):
    app = coached_app(tmp_path)
    for frm, to in (("e2", "e4"), ("d7", "d5"), ("d1", "g4")):
        app.tap(frm)
        app.tap(to)
    app.pump()
    assert app.flow.coach.verdict == "" and app.flow.board.coach_lights == {}


def test_no_coach_in_tournament_mode(tmp_path):
    app = App(tmp_path, computer=False)
    app.start_at_the_table("chess", "blitz", mode="tournament")
    app.flow.menu.open()
    assert "coach" not in [o.key for o in app.flow.display.prompt.options]
    app.flow.display.prompt = None
    assert app.flow.coach.available is False
    assert app.game.view().coach is None
    app.game.toggle_coach()
    assert app.flow.coach.coached == set()
