"""The coach on the map screen without Kivy (Dungeon Chess, KoL Chess: the screen of a game on a
map of seats): the same row as on the chess screen, driven by the same CoachRoom: off until the
seat asks, a hanging unit lit and said, a hint searched and lit, the word after a move that drops
material with Undo one tap away (tests/test_presenter_coach.py for chess)."""

from __future__ import annotations

from companion.board.palette import PALETTE, Meaning
from companion.games import make_rules
from companion.session import Seat, unit_move_text
from tests.dungeon_ui_helpers import DungeonApp
from tests.kol_board import position as kol_position
from tests.test_ai_coach import DUNGEON_HANGING
from tests.test_presenter_coach import InlineWorker


def coached(app):
    app.flow.coach.worker = InlineWorker(app.flow.mailbox)
    app.flow.coach.check_seconds = 0.3
    return app


def start(app, game, text, board_map=None):
    app.flow.new_game(game, (Seat("Ann"), Seat("Bob")), start=text, **({"board_map": board_map} if board_map else {}))
    app.pump()
    app.p.setup.fill()
    app.pump()
    app.settle()
    assert app.flow.view_screen == "dungeon_game"


def light(app, name):
    return app.flow.board.frame[app.sq(name)]


def dungeon(tmp_path):
    app = coached(DungeonApp(tmp_path))
    start(app, "dungeon", DUNGEON_HANGING, "dungeon-compact")
    return app


def kol(tmp_path, pieces, turn=0):
    app = coached(DungeonApp(tmp_path))
    start(app, "kol", make_rules("kol").position_text(kol_position(pieces, turn)))
    return app


def test_dungeon_the_coach_row_is_off_until_asked_then_lights_the_hanging_knight(tmp_path):
    app = dungeon(tmp_path)
    assert app.p.dungeon.view().coach is None  # no row: the panel keeps its room
    seat = app.flow.game.session.turn
    app.flow.menu.open()
    assert "coach" in [o.key for o in app.flow.display.prompt.options]
    app.flow.display.answer_prompt("coach")
    app.pump()
    assert app.flow.coach.coached == {seat}
    line = app.p.dungeon.view().coach
    assert line.on and line.can_hint and not line.offer_undo
    squares = [app.name(t.square) for t in app.flow.coach.threats]
    assert squares == ["b5"], squares
    assert "taken for free" in line.text
    assert light(app, "b5") == PALETTE[Meaning.THREAT].rgb
    app.p.dungeon.toggle_coach()  # the row's own switch turns it off again
    assert app.p.dungeon.view().coach is None and app.flow.board.coach_lights == {}


def test_dungeon_a_hint_is_searched_and_lit_from_the_row(tmp_path):
    app = dungeon(tmp_path)
    app.p.dungeon.toggle_coach()
    app.p.dungeon.hint()
    assert app.flow.coach.hinting is not None and app.p.dungeon.view().coach.progress >= 0
    app.pump()
    hint = app.flow.coach.hint
    assert hint is not None and app.p.dungeon.view().coach.text.startswith("Hint: ")
    # in the move list's own words ("KN b5-c7"), not the text a move is typed in ("b5c7")
    s = app.flow.game.session
    words = unit_move_text(s.rules, s.pos, hint)
    assert " " in words and app.p.dungeon.view().coach.text == f"Hint: {words} (lit on the board)"
    assert light(app, app.name(hint.frm)) == PALETTE[Meaning.HINT_FROM].rgb
    assert light(app, app.name(hint.to)) == PALETTE[Meaning.HINT_TO].rgb
    assert app.p.board.view().focus == hint.frm  # a map shown in part brings the hint into view


def test_kol_a_hanging_tower_is_lit_and_a_move_that_leaves_it_is_said_and_undone(tmp_path):
    """A Blue Tower on e5 in front of Orange's Tower on e8: lit as a threat; Blue's King steps
    aside instead of saving it (or taking first): the coach says so, Undo it takes it back."""
    app = kol(tmp_path, {"e5": "T", "e8": "t"})
    app.p.dungeon.toggle_coach()
    app.pump()
    assert "e5" in [app.name(t.square) for t in app.flow.coach.threats]
    assert light(app, "e5") == PALETTE[Meaning.THREAT].rgb
    before = len(app.flow.game.session.moves)
    app.move("c2", "d2")
    app.pump()
    line = app.p.dungeon.view().coach
    assert line is not None and line.offer_undo and line.text.startswith("That move drops material"), line
    assert line.text.endswith("Better was T e5xe8."), line.text
    app.p.dungeon.undo_blunder()
    app.pump()
    app.settle()
    assert len(app.flow.game.session.moves) == before and not app.flow.coach.offer_undo


def test_no_coach_row_on_the_map_screen_in_tournament_mode(tmp_path):
    app = dungeon(tmp_path)
    app.flow.game.table = type("Table", (), {"tournament": True})()
    assert app.flow.coach.available is False and app.p.dungeon.view().coach is None
    app.p.dungeon.toggle_coach()
    assert app.flow.coach.coached == set()
