"""The smaller presenters: game panel, set-up, resume, game over, prompts, piece info."""

from companion.app.presenters.game import move_rows, fight_marks
from companion.session import MoveEntry
from tests.ui_flow_helpers import App


def test_the_move_list_pairs_moves_and_keeps_fight_results_apart():
    moves = [MoveEntry(0, "e4", "e2e4", 12, 28), MoveEntry(1, "d5", "d7d5", 51, 35),
             MoveEntry(0, "exd5", "e4d5", 28, 35, "defender")]
    assert move_rows(moves) == (("1.", "e4", "d5"), ("2.", "exd5", ""))
    assert fight_marks(moves) == (("", ""), ("lost", ""))
    black_first = [MoveEntry(1, "e5", "e7e5", 52, 36)]
    assert move_rows(black_first) == (("1.", "", "e5"),)


def test_the_panel_says_whose_turn_with_names_and_colours(tmp_path):
    app = App(tmp_path)
    app.start.pick_name(None)
    app.start.open_names(0)
    app.start.pick_name("Player 1")
    app.start.start()
    app.setup.fill()
    app.pump()
    v = app.game.view()
    assert v.status == "Player 1 (White) to move" and v.title == "Combat Chess"
    assert [(p.name, p.to_move) for p in v.players] == [("Player 1", True), ("Black", False)]
    bar = app.bar.view()
    assert not bar.can_undo and bar.can_draw and bar.can_resign and v.banner == "" and bar.action == ""


def test_during_a_fight_draws_are_not_offered_and_the_status_says_roll(tmp_path):
    app = App(tmp_path)
    app.new_game()
    app.tap("e2", "e4")
    app.tap("d7", "d5")
    app.tap("d5", "e4", "d5")
    app.flow.display.screen = "game"  # what the panel would say behind the fight screen
    v = app.game.view()
    assert v.status == "A fight is on: roll the dice." and not app.bar.view().can_draw and app.bar.view().can_undo


def test_the_setup_counts_what_is_still_wrong(tmp_path):
    app = App(tmp_path)
    app.new_game(fill=False)
    app.tap("e4", settle=False)  # a stray piece
    v = app.setup.view()
    assert v.counts == "32 squares to fill, 1 to empty" and not v.ready and v.simulated
    assert "Tap a square" in v.help


def test_a_resume_that_lost_something_says_what(tmp_path):
    first = App(tmp_path)
    first.new_game(game="chess")
    first.tap("e2", "e4")
    first.flow.game.journal.close()
    data = (tmp_path / "current.jsonl").read_bytes()
    (tmp_path / "current.jsonl").write_bytes(data[:-5])
    v = App(tmp_path).resume.view()
    assert v.summary == "Chess: White against Black, 0 moves played."
    assert v.loss.startswith("Part of the record was damaged and is lost: line 3")  # start, table, the cut move


def test_an_unreadable_saved_game_is_reported_then_the_start_screen(tmp_path):
    (tmp_path / "current.jsonl").write_text("garbage\n")
    app = App(tmp_path)
    assert app.flow.display.screen == "problem"
    v = app.problem.view()
    assert v.title == "The last game could not be loaded" and v.reason.startswith("line 1: not valid JSON")
    assert "games/damaged.jsonl" in v.advice
    app.problem.go_on()
    assert app.flow.display.screen == "start" and app.start.view().problem == ""


def test_the_game_over_screen_names_the_winner_and_the_reason(tmp_path):
    app = App(tmp_path)
    app.new_game(game="chess")
    for frm, to in (("f2", "f3"), ("e7", "e5"), ("g2", "g4"), ("d8", "h4")):
        app.tap(frm, to)
    assert app.flow.display.screen == "game_over"
    v = app.over.view()
    assert (v.headline, v.reason, v.seed) == ("Black wins", "by checkmate", "")
    assert v.moves[-1] == ("2.", "g4", "Qh4#")


def test_the_menu_and_its_cancel(tmp_path):
    app = App(tmp_path)
    app.new_game(game="chess")
    app.game.menu()
    prompt = app.prompt.view()
    assert [o.label for o in prompt.options] == ["Load / Save", "Board check", "New game", "Coach on / off",
                                                 "Save the game record (PGN)", "Copy games to a USB stick", "Settings\u2026"]
    assert prompt.cancel
    app.prompt.answer(None)
    assert app.prompt.view() is None


def test_against_the_computer_resigning_asks_the_person_to_confirm(tmp_path):
    app = App(tmp_path)
    app.new_game(game="chess", computer_black=True)
    app.bar.resign()
    prompt = app.prompt.view()
    assert prompt.kind == "resign-confirm" and prompt.title == "White, resign this game?"
    app.prompt.answer(prompt.options[0].key)
    assert app.over.view().headline == "Computer wins"


def test_an_empty_square_tapped_for_info_says_so(tmp_path):
    app = App(tmp_path)
    app.new_game(game="chess")
    app.board.hold(app.sq("e4"))
    assert app.info.view().title == "Square e4 is empty."


def test_a_which_move_question_uses_the_trackers_words_and_can_be_withdrawn(tmp_path):
    from companion.board.tracker import PromptRequested, PromptWithdrawn

    app = App(tmp_path)
    app.new_game(game="chess")
    app.flow.game.handle([PromptRequested("which-move", ("e2e4", "e2e3"), "Which?", ("e2 to e4", "e2 to e3"))])
    prompt = app.prompt.view()
    assert prompt.title == "Which move did you make?" and [o.label for o in prompt.options] == ["e2 to e4", "e2 to e3"]
    assert not prompt.cancel
    app.flow.game.handle([PromptWithdrawn("which-move")])
    assert app.prompt.view() is None
    app.flow.game.handle([PromptRequested("which-move", ("e2e4",), "Which?")])
    assert app.prompt.view().options[0].label == "e2 \u2192 e4"  # no label given: the squares
    app.prompt.answer("0")  # the real tracker has no such question open: said, not crashed
    assert "no question" in app.game.view().notice


def test_a_game_that_cannot_be_saved_is_not_started_and_the_start_screen_says_why(tmp_path):
    blocked = tmp_path / "file"
    blocked.write_text("not a directory")
    app = App(blocked)
    app.start.start()
    assert app.flow.display.screen == "start" and app.flow.game.session is None
    assert app.start.view().problem.startswith("Games cannot be saved here:")
