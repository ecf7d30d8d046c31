"""Start from a position: set it up on the board, name each piece on the screen, confirm; the
game starts from its FEN. Presenters without Kivy (the window test: tests/ui_screens_driver.py)."""

from __future__ import annotations

import pytest

from companion.app.presenters.position import PositionPresenter, fen_of
from companion.games import make_rules
from tests.ui_flow_helpers import App


def editor(tmp_path, game="chess"):
    app = App(tmp_path)
    p = PositionPresenter(app.flow.board, app.flow.display, app.start)
    app.start.choose_game(game)
    p.open(game)
    app.pump()
    return app, p


def name(app, p, key, *squares):
    p.choose(key)
    for sq in squares:
        p.tap(app.sq(sq))
    app.pump()


def test_fen_of_a_drawn_position_gives_castling_where_king_and_rooks_stand():
    chess = make_rules("chess")
    start = {sq: (p.kind.code, p.owner) for sq, p in chess.start_position().pieces()}
    assert fen_of(start, 0) == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    assert fen_of({4: ("K", 0), 0: ("R", 0), 60: ("K", 1)}, 1) == "4k3/8/8/8/8/8/8/R3K3 b Q - 0 1"


def test_a_position_set_up_square_by_square_starts_the_game(tmp_path):
    app, p = editor(tmp_path)
    assert app.flow.display.screen == "position" and p.view().title == "Chess from a position"
    name(app, p, "K0", "e1")
    name(app, p, "R0", "a1")
    name(app, p, "K1", "e8")
    name(app, p, "P1", "d7")
    v = p.view()
    assert (v.unnamed, v.missing, v.ready) == (0, 0, True) and v.status == "The board and the screen agree."
    p.toggle_turn()
    assert p.view().turn == "Black to move"
    p.confirm()
    app.pump()
    s = app.flow.game.session
    assert s.setup.start == "4k3/3p4/8/8/8/8/8/R3K3 b Q - 0 1" and s.turn == 1
    assert app.flow.display.screen == "game"  # the simulated board holds it already: no set-up needed


def test_pieces_the_board_senses_but_nobody_named_are_asked_for(tmp_path):
    app, p = editor(tmp_path)
    app.sim.toggle(app.sq("c3"), app.clock())  # a piece put on the real board
    app.pump()
    v = p.view()
    assert v.unnamed == 1 and "1 square(s) with a piece to name (?)" in v.status
    assert p.board().squares[app.sq("c3")].stray and p.board().squares[app.sq("c3")].glyph == "?"


def test_a_position_the_rules_refuse_is_said_in_one_line_and_nothing_starts(tmp_path):
    app, p = editor(tmp_path)
    name(app, p, "K0", "e1", "e2")
    name(app, p, "K1", "e8")
    p.confirm()
    v = p.view()
    assert v.status == "This position cannot be played: white must have exactly one king, found 2"
    assert not v.ready and app.flow.game.session is None and app.flow.display.screen == "position"
    name(app, p, "-", "e2")  # emptied: playable again
    assert p.view().ready


@pytest.mark.parametrize("pieces, turn, words", [
    ({"e1": "K0", "e8": "K1", "a8": "P0"}, 0, "a pawn on rank 8 is impossible"),
    ({"e1": "K0", "e8": "K1", "e7": "Q0"}, 0, "the side not to move is in check, which is impossible"),
])
def test_impossible_positions_are_named(tmp_path, pieces, turn, words):
    app, p = editor(tmp_path)
    for sq, key in pieces.items():
        name(app, p, key, sq)
    if turn:
        p.toggle_turn()
    p.confirm()
    assert p.view().status == f"This position cannot be played: {words}"


def test_the_start_position_fills_in_and_combat_chess_starts_from_it_with_its_dice(tmp_path):
    app, p = editor(tmp_path, "combat")
    p.standard()
    app.pump()
    name(app, p, "-", "e2")
    name(app, p, "P0", "e4")
    p.confirm()
    app.pump()
    s = app.flow.game.session
    assert s.setup.game == "combat" and s.setup.start.startswith("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq")
    assert s.record is not None  # the dice record starts from it too


def test_cancel_goes_back_to_the_start_screen(tmp_path):
    app, p = editor(tmp_path)
    p.cancel()
    assert app.flow.display.screen == "start" and app.flow.game.session is None


def test_a_position_typed_as_fen_on_the_keyboard_fills_the_screen(tmp_path):
    """Load / Save's on-screen keyboard types it (presenters/game_text.py, type_for)."""
    from companion.app.presenters.game_text import GameTextPresenter

    app, p = editor(tmp_path)
    text = GameTextPresenter(app.flow.load_save, app.flow.game, app.flow.display)
    text.type_for("Type the position", p.position_text(), "hint", p.load_text)
    assert app.flow.display.screen == "game_text" and text.view().mode == "other"
    text.clear()
    for key in "4k3/8/8/8/8/8/8/r3k3 w - - 0 1":
        text.press({" ": "space"}.get(key, key))
    text.load_typed()
    assert text.view().message == "This position cannot be played: white must have exactly one king, found 0"
    assert app.flow.display.screen == "game_text"
    text.clear()
    for key in "4k3/8/8/8/8/8/8/R3K3 b Q - 0 1":
        if key.isupper():
            text.press("shift")
        text.press({" ": "space"}.get(key, key.lower()))
    text.load_typed()
    assert app.flow.display.screen == "position"
    assert p.pieces == {4: ("K", 0), 0: ("R", 0), 60: ("K", 1)} and p.turn == 1
    assert p.view().turn == "Black to move"


def test_only_games_of_chess_pieces_offer_a_position_set_up_by_hand(tmp_path):
    app = App(tmp_path)
    for game, offered in (("chess", True), ("combat", True), ("dungeon", False), ("kol", False)):
        app.start.choose_game(game)
        assert app.start.view().positions is offered, game
    p = PositionPresenter(app.flow.board, app.flow.display, app.start)
    p.open("kol")
    assert app.flow.display.screen == "start"
