"""The on-screen board's presenter: pieces, LED colours, fatigue badges, lifted pieces,
stray pieces, odds badges, last move and check."""

from companion.board.palette import Meaning, PALETTE
from tests.ui_flow_helpers import App


def test_the_start_position_is_drawn_with_glyphs_owners_and_square_colours(tmp_path):
    app = App(tmp_path)
    app.new_game(game="chess")
    v = app.board.view()
    assert (v.width, v.height, v.files[0], v.ranks[-1]) == (8, 8, "a", "8")
    a1, e8, e4 = v.squares[0], v.squares[app.sq("e8")], v.squares[app.sq("e4")]
    assert (a1.glyph, a1.owner, a1.dark) == ("\u265c", 0, True)
    assert (e8.glyph, e8.owner, e8.dark) == ("\u265a", 1, False)
    assert e4.glyph == "" and e4.light is None and not e4.lifted


def test_a_lifted_piece_is_faded_and_its_moves_take_the_led_colours(tmp_path):
    app = App(tmp_path)
    app.new_game(game="chess")
    app.tap("g1", settle=False)
    v = app.board.view()
    assert v.squares[app.sq("g1")].lifted and v.squares[app.sq("g1")].glyph == "\u265e"
    assert v.squares[app.sq("f3")].light == PALETTE[Meaning.MOVE].rgb
    assert v.squares[app.sq("h3")].light == PALETTE[Meaning.MOVE].rgb


def test_a_piece_put_where_the_game_has_none_shows_the_piece_in_hand(tmp_path):
    app = App(tmp_path)
    app.new_game(game="chess")
    app.tap("g1", "f3", settle=False)
    f3 = app.board.view().squares[app.sq("f3")]
    assert f3.stray and f3.glyph == "\u265e" and f3.owner == 0


def test_fatigue_badges_and_the_last_move_after_a_fight(tmp_path):
    app = App(tmp_path)
    app.new_game(dice="seeded")
    app.tap("e2", "e4")
    app.tap("d7", "d5")
    app.tap("d5", "e4", "d5")
    app.fight_through()
    app.flow.game.fill_simulated_board()
    app.pump()
    v = app.board.view()
    d5 = v.squares[app.sq("d5")]
    assert d5.fatigue == 1 and d5.glyph == "\u265f"
    assert d5.last_move and v.squares[app.sq("e4")].last_move


def test_during_a_fight_the_board_shows_the_attacker_on_the_square_it_attacked(tmp_path):
    app = App(tmp_path)
    app.new_game(dice="seeded")
    app.tap("e2", "e4")
    app.tap("d7", "d5")
    app.tap("d5", "e4", "d5")
    v = app.board.view()
    assert v.squares[app.sq("d5")].owner == 0 and v.squares[app.sq("e4")].glyph == ""


def test_lifting_a_piece_that_can_attack_shows_its_chance_of_winning(tmp_path):
    app = App(tmp_path)
    app.new_game(dice="seeded")
    app.tap("e2", "e4")
    app.tap("d7", "d5")
    app.tap("e4", settle=False)
    v = app.board.view()
    odds = app.flow.game.session.rules.odds_of_move(app.flow.game.session.pos, app.flow.game.session.rules.parse_move(
        app.flow.game.session.pos, "e4d5")).attacker
    assert v.squares[app.sq("d5")].odds == f"{round(float(odds) * 100)}%" == "68%"
    assert v.squares[app.sq("e5")].odds == ""


def test_the_king_in_check_is_marked(tmp_path):
    app = App(tmp_path)
    app.new_game(game="chess")
    app.tap("e2", "e4")
    app.tap("f7", "f6")
    app.tap("d1", "h5")
    v = app.board.view()
    assert v.squares[app.sq("e8")].check and not v.squares[app.sq("e1")].check


def test_on_real_hardware_a_tap_shows_the_piece_instead_of_moving_it(tmp_path):
    app = App(tmp_path)
    app.new_game(game="chess")
    app.board.toggle_info_mode()
    app.board.tap(app.sq("e2"))
    assert app.info.view().title == "White pawn on e2" and app.info.view().fights == ("No fights yet.",)
    assert app.sq("e2") in app.flow.board.sensed  # nothing was lifted
