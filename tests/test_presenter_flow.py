"""The app's flow without Kivy: screens, the simulated board, fights, the computer, prompts,
resume, the board check."""

from companion.board.palette import COLOURS, Meaning, PALETTE
from companion.board.ports import BoardConnected, BoardDisconnected
from companion.journal import read_journal
from tests.ui_flow_helpers import App


def test_without_a_saved_game_the_app_opens_on_the_start_screen(tmp_path):
    app = App(tmp_path)
    assert app.flow.display.screen == "start"


def test_a_new_game_guides_the_setup_with_the_leds_and_starts_when_the_board_is_right(tmp_path):
    app = App(tmp_path)
    app.new_game(fill=False)
    assert app.flow.display.screen == "setup"
    view = app.setup.view()
    assert view.counts == "32 squares to fill, 0 to empty" and view.simulated
    assert app.flow.board.frame[app.sq("e2")] == PALETTE[Meaning.SETUP_PLACE].rgb
    assert app.board.view().squares[app.sq("e2")].light == PALETTE[Meaning.SETUP_PLACE].rgb
    app.setup.fill()
    app.pump()
    assert app.flow.display.screen == "game"


def test_two_taps_on_the_simulated_board_make_a_move(tmp_path):
    app = App(tmp_path)
    app.new_game(game="chess")
    app.tap("e2")
    sq = app.board.view().squares[app.sq("e2")]
    assert sq.lifted and sq.light == PALETTE[Meaning.LIFTED].rgb
    assert app.board.view().squares[app.sq("e4")].light == PALETTE[Meaning.MOVE].rgb
    app.tap("e4")
    view = app.game.view()
    assert view.moves == (("1.", "e4", ""),) and view.status == "Black to move"
    e4 = app.board.view().squares[app.sq("e4")]
    assert e4.glyph == "\u265f" and e4.owner == 0 and e4.last_move


def test_a_capture_opens_the_fight_and_the_leds_wait_for_the_dice_animation(tmp_path):
    app = App(tmp_path)
    app.new_game()
    app.tap("e2", "e4", "d7", "d5", "d5", "e4", "d5")  # lift the victim, lift the attacker, put it down
    assert app.flow.display.screen == "fight"
    assert app.fight.phase() == "ready"
    app.fight.act()
    app.pump()
    if app.fight.phase() == "rolling":
        assert app.flow.board.leds_held
        app.fight.animation_done()
        app.pump()
    assert not app.flow.board.leds_held
    app.fight_through()
    assert app.flow.display.screen == "game"
    view = app.game.view()
    assert view.moves[1][1] == "exd5" and view.marks[1][0] in ("won", "lost", "bounced")


def test_the_computer_move_is_lit_and_made_by_a_person(tmp_path):
    app = App(tmp_path)
    app.new_game(game="chess", computer_black=True)
    app.tap("e2", "e4")
    assert app.computer.started  # the fake answers at once: a7a5 comes first in order
    app.clock.t = (app.clock.t // 1000 + 1) * 1000 + 600  # a blink's off half, by the clock
    app.pump()
    assert app.flow.ai.requested is not None
    view = app.game.view()
    assert view.status == "Computer plays a7\u2013a5" and "a7" in view.guidance and "a5" in view.guidance
    # lit at once, whatever the time: a light that starts blinking starts in its on phase
    assert app.flow.board.frame[app.sq("a7")] == PALETTE[Meaning.COMPUTER_MOVE_FROM].rgb
    assert app.flow.board.frame[app.sq("a5")] == PALETTE[Meaning.COMPUTER_MOVE_TO].rgb
    app.tap("a7", "a5")
    assert app.game.view().moves == (("1.", "e4", "a5"),) and app.flow.ai.requested is None


def test_undo_against_the_computer_takes_back_both_moves(tmp_path):
    app = App(tmp_path)
    app.new_game(game="chess", computer_black=True)
    app.tap("e2", "e4")
    app.pump()
    app.tap("a7", "a5")
    app.bar.undo()
    app.pump()
    assert app.game.view().moves == () and "Taken back" in app.game.view().notice
    assert not app.flow.board.in_sync  # the board still shows the moves: the tracker guides it back
    assert app.flow.board.frame[app.sq("e4")] != (0, 0, 0) or app.flow.board.frame[app.sq("e2")] != (0, 0, 0)


def test_a_search_result_that_arrives_after_an_undo_is_ignored(tmp_path):
    app = App(tmp_path)
    app.new_game(game="chess", computer_black=True)
    app.tap("e2", "e4")  # the fake computer has posted its answer, not yet pumped
    app.flow.play.undo()
    app.pump()
    assert app.flow.ai.requested is None


def test_a_promotion_is_asked_with_big_buttons(tmp_path):
    app = App(tmp_path)
    app.new_game(game="chess", start="8/4P3/8/8/8/8/8/k3K3 w - - 0 1")
    app.tap("e7", "e8")
    prompt = app.prompt.view()
    assert prompt.kind == "promotion" and [o.label for o in prompt.options] == ["Queen", "Rook", "Bishop", "Knight"]
    app.prompt.answer(None)  # cannot be dismissed
    assert app.prompt.view() is not None
    app.prompt.answer(prompt.options[3].key)
    app.pump()
    assert app.game.view().moves[0][1] == "e8=N"


def test_a_draw_offer_between_people_is_answered_on_screen(tmp_path):
    app = App(tmp_path)
    app.new_game(game="chess")
    app.bar.offer_draw()
    prompt = app.prompt.view()
    assert prompt.kind == "draw" and prompt.title == "Black, White offers a draw."
    app.prompt.answer("decline")
    assert app.game.view().notice == "Black declines the draw."


def test_resigning_asks_who_and_ends_the_game_and_archives_it_with_the_dice(tmp_path):
    app = App(tmp_path)
    app.new_game()
    app.bar.resign()
    prompt = app.prompt.view()
    assert prompt.kind == "resign-who" and [o.label for o in prompt.options] == ["White", "Black"]
    app.prompt.answer("1")
    assert app.flow.display.screen == "game_over"
    view = app.over.view()
    assert view.headline == "White wins" and view.reason == "by resignation" and "Dice seed" in view.seed
    assert not (tmp_path / "current.jsonl").exists()
    assert (tmp_path / "games" / "game-1.jsonl").exists() and (tmp_path / "games" / "game-1.dice.jsonl").exists()
    app.over.new_game()
    assert app.flow.display.screen == "start"


def test_an_unfinished_game_is_offered_after_a_restart_and_continues(tmp_path):
    first = App(tmp_path)
    first.new_game(game="chess")
    first.tap("e2", "e4")
    first.flow.game.journal.close()  # the process dies here
    app = App(tmp_path)
    assert app.flow.display.screen == "resume"
    view = app.resume.view()
    assert view.summary == "Chess: White against Black, 1 move played." and not view.loss
    app.resume.accept()
    assert app.flow.display.screen == "setup"  # the simulated board restarted empty: set it up first
    assert app.setup.view().counts == "32 squares to fill, 0 to empty"
    app.setup.fill()
    app.pump()
    assert app.flow.display.screen == "game" and app.game.view().moves == (("1.", "e4", ""),)
    app.tap("e7", "e5")
    assert len(read_journal(tmp_path / "current.jsonl").entries) == 4  # start, table, two moves


def test_a_fight_in_progress_is_resumed_on_the_fight_screen(tmp_path):
    first = App(tmp_path)
    first.new_game()
    first.tap("e2", "e4", "d7", "d5", "d5", "e4", "d5")
    first.flow.game.journal.close()
    app = App(tmp_path)
    app.resume.accept()
    app.setup.fill()
    app.pump()
    assert app.flow.display.screen == "fight" and app.fight.phase() == "ready"


def test_discarding_the_unfinished_game_keeps_it_in_the_archive(tmp_path):
    first = App(tmp_path)
    first.new_game(game="chess")
    first.flow.game.journal.close()
    app = App(tmp_path)
    app.resume.discard()
    assert app.flow.display.screen == "start" and list((tmp_path / "games").glob("game-1-unfinished*.jsonl"))


def test_the_board_check_lights_every_led_in_turn_and_shows_the_switches(tmp_path):
    app = App(tmp_path)
    app.start.board_check()
    assert app.flow.display.screen == "board_check"
    app.check.tap(app.sq("c3"))
    app.pump()
    assert app.check.view().sensed == "Pieces sensed: 1"
    assert app.check.board().squares[app.sq("c3")].glyph
    app.check.toggle_walk()
    app.flow.pump(1000)
    assert app.check.view().walk == "Lit: a1 (1 of 64)"
    assert app.flow.board.frame[0] == PALETTE[Meaning.DIAG_TEST].rgb
    app.flow.pump(1250)
    assert app.check.view().walk == "Lit: b1 (2 of 64)" and app.flow.board.frame[0] == (0, 0, 0)
    app.check.back()
    assert app.flow.display.screen == "start"


def test_a_disconnected_board_shows_a_banner_until_it_is_back(tmp_path):
    app = App(tmp_path)
    app.new_game(game="chess")
    app.flow.board.sink(BoardDisconnected("cable", 5))
    app.pump()
    assert app.game.view().banner == "The board is not connected. Check its cable."
    app.flow.board.sink(BoardConnected({}, 6))
    app.pump()
    assert app.game.view().banner == ""


def test_the_menu_can_leave_an_unfinished_game_for_a_new_one(tmp_path):
    app = App(tmp_path)
    app.new_game(game="chess")
    app.game.menu()
    app.prompt.answer("new-game")
    assert app.prompt.view().kind == "new-game"
    app.prompt.answer("yes")
    assert app.flow.display.screen == "start" and app.flow.game.session is None
    assert list((tmp_path / "games").glob("game-1-unfinished*.jsonl"))


def test_a_long_press_shows_a_piece_fatigue_and_fights(tmp_path):
    app = App(tmp_path)
    app.new_game()
    app.tap("e2", "e4", "d7", "d5", "d5", "e4", "d5")
    app.fight_through()
    app.board.hold(app.sq("d5"))
    info = app.info.view()
    assert info.fatigue == "Fatigue: 1" and info.fights[0].startswith("Fight 1: ")
    app.info.close()
    assert app.info.view() is None


def test_the_move_that_ended_the_game_is_taken_back_from_the_game_over_screen(tmp_path):
    """Undo after the game is over (casual play, issue 17): the game-over screen offers Undo;
    the game is not archived while it may still be taken back; after Undo the board is guided
    back like after any undo and play goes on; leaving archives a finished game."""
    app = App(tmp_path)
    app.new_game(game="chess", dice="virtual")
    for frm, to in (("f2", "f3"), ("e7", "e5"), ("g2", "g4"), ("d8", "h4")):
        app.tap(frm, to)
    assert app.flow.display.screen == "game_over" and app.over.view().can_undo
    assert (tmp_path / "current.jsonl").exists() and not list((tmp_path / "games").glob("*.jsonl"))
    app.over.undo()
    app.pump()
    assert app.flow.display.screen == "game" and app.flow.play.over is None and not app.flow.game.session.is_over
    assert app.game.view().notice == "Taken back: Qh4#" and not app.flow.board.in_sync  # two people: one move
    app.tap("h4", "d8")
    assert app.flow.board.in_sync
    app.tap("b8", "c6")
    assert [m.san for m in app.flow.game.session.moves] == ["f3", "e5", "g4", "Nc6"]
    app.bar.resign()
    app.prompt.answer("0")
    assert app.flow.display.screen == "game_over" and not app.over.view().can_undo  # decided: not taken back
    assert not (tmp_path / "current.jsonl").exists() and (tmp_path / "games" / "game-1.jsonl").exists()


def test_a_finished_game_left_for_the_start_screen_is_archived(tmp_path):
    app = App(tmp_path)
    app.new_game(game="chess", dice="virtual")
    for frm, to in (("f2", "f3"), ("e7", "e5"), ("g2", "g4"), ("d8", "h4")):
        app.tap(frm, to)
    assert app.over.view().can_undo and (tmp_path / "current.jsonl").exists()
    app.over.new_game()
    assert app.flow.display.screen == "start" and not (tmp_path / "current.jsonl").exists()
    assert (tmp_path / "games" / "game-1.jsonl").exists()
