"""The Load / Save screen without Kivy (companion/app/presenters/game_text.py): the game as text
and QR pages, saving to the board and a USB stick (a folder stands in for it), loading from a
file or from text typed on the on-screen keyboard, the arbiter's correction, and bad text that
changes nothing."""

from companion.app.presenters.game_text import GameTextPresenter, qr_matrix, qr_pages
from companion.gametext import UNCHECKED, format_game, journal_entries
from companion.journal import read_journal
from tests.ui_flow_helpers import App


def app_with_stick(tmp_path):
    stick = tmp_path / "stick"
    stick.mkdir()
    (stick / ".companion-stick").write_text("")  # a folder that stands in for a mounted stick
    app = App(tmp_path / "data", media_roots=(tmp_path,))
    return app, GameTextPresenter(app.flow.load_save, app.flow.game, app.flow.display), stick


def type_text(p, text):
    for ch in text:
        key = {" ": "space", "\n": "enter"}.get(ch, ch)
        if ch.isupper():
            p.press("shift")
            key = ch.lower()
        p.press(key)


def test_the_screen_shows_the_game_as_text_and_a_qr_code(tmp_path):
    app, p, _ = app_with_stick(tmp_path)
    app.new_game(game="chess")
    app.tap("e2", "e4")
    p.open()
    assert app.flow.display.screen == "game_text"
    v = p.view()
    assert v.mode == "show" and "1. e2e4" in v.text and v.text == format_game(app.flow.game.session)
    assert v.qr and len(v.qr) == len(v.qr[0]) and v.pages == 1 and v.can_correct
    p.close()
    assert app.flow.display.screen == "game"


def test_a_long_text_is_cut_into_qr_pages_at_line_ends():
    text = "".join(f"line {i:03d} " + "x" * 60 + "\n" for i in range(40))
    pages = qr_pages(text, 700)
    assert "".join(pages) == text and all(len(pg.encode()) <= 700 for pg in pages) and len(pages) == 4
    assert all(pg.endswith("\n") for pg in pages)
    assert qr_matrix(pages[0])[0] == (False,) * len(qr_matrix(pages[0]))  # the quiet zone


def test_save_to_the_stick_and_load_it_back_from_the_file_list(tmp_path):
    app, p, stick = app_with_stick(tmp_path)
    app.new_game(game="chess")
    app.tap("e2", "e4", "e7", "e5")
    text = format_game(app.flow.game.session)
    p.open()
    p.save(True)
    assert (stick / "game-1.txt").read_text() == text and "USB stick" in p.view().message
    p.save(False)
    assert (tmp_path / "data" / "texts" / "game-1.txt").read_text() == text
    app.flow.game.leave()
    p.open()
    p.show_files()
    files = p.view().files
    assert [f.where for f in files] == ["on the USB stick", "on the board"]
    app.sim.set_occupancy(frozenset(), app.clock())  # the pieces were put away
    app.pump()
    p.load_file(files[0].key)
    assert app.flow.display.screen == "setup" and format_game(app.flow.game.session) == text
    assert [m.move for m in app.flow.game.session.moves] == ["e2e4", "e7e5"]
    app.setup.fill()
    app.pump()
    assert app.flow.display.screen == "game"


def test_a_game_typed_on_the_keyboard_loads(tmp_path):
    app, p, _ = app_with_stick(tmp_path)
    p.open()
    assert p.view().text.startswith("No game is being played")
    p.start_typing()
    type_text(p, "companion game 1\ngame: chess\nplayer 1: Ann\nplayer 2: Ben\ne2e4 e7e5 g1f4")
    v = p.view()
    assert v.mode == "type" and v.text.endswith("g1f4|") and len(v.keys) == 5
    p.load_typed()
    v = p.view()
    assert v.problem and "line 5: move 3 (g1f4)" in v.message and app.flow.game.session is None
    p.press("left")
    assert p.view().text.endswith("g1f|4")
    p.press("right")
    p.press("back")
    p.press("3")
    assert p.view().text.endswith("g1f3|")
    p.load_typed()
    assert app.flow.game.session is not None and [m.move for m in app.flow.game.session.moves] == ["e2e4", "e7e5", "g1f3"]
    assert app.flow.display.screen in ("setup", "game")


def test_a_text_without_a_check_line_loads_and_the_game_screen_says_it_could_not_be_checked(tmp_path):
    """The warning comes back with the loaded game (companion.gametext.load_text) and is shown
    as the game screen's notice; a text Save wrote (with its check line) loads without one."""
    app, p, _ = app_with_stick(tmp_path)
    assert app.flow.load_save.load_text("companion game 1\ngame: chess\nplayer 1: Ann\nplayer 2: Ben\n\ne2e4\n") is None
    app.setup.fill()
    app.pump()
    assert app.flow.display.screen == "game" and app.game.view().notice == UNCHECKED
    text = format_game(app.flow.game.session)
    assert app.flow.load_save.load_text(text) is None
    app.setup.fill()
    app.pump()
    assert app.game.view().notice == ""


def test_a_file_saved_as_utf_8_with_bom_loads_and_one_save_would_choke_on_is_refused(tmp_path):
    app, p, stick = app_with_stick(tmp_path)
    app.new_game(game="chess")
    app.tap("e2", "e4")
    text = format_game(app.flow.game.session)
    (stick / "notepad.txt").write_bytes(b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode())
    (stick / "nul.txt").write_text(text.replace("id: game-1", "id: game\x001").replace("check: ", "# check: "))
    app.flow.game.leave()
    p.open()
    p.show_files()
    keys = {f.label: f.key for f in p.view().files}
    p.load_file(keys["nul"])
    assert p.view().problem and p.view().message.startswith("nul.txt: line 6: the character U+0000")
    p.load_file(keys["notepad"])
    assert not p.view().problem and app.flow.display.screen in ("setup", "game")
    assert format_game(app.flow.game.session) == text and app.flow.display.notice == ""


def test_bad_text_changes_nothing(tmp_path):
    app, p, _ = app_with_stick(tmp_path)
    app.new_game(game="chess")
    app.tap("e2", "e4")
    before = format_game(app.flow.game.session)
    assert app.flow.load_save.load_text("companion game 1\ngame: chess\n") == \
        "line 3: expected the players, one line each: 'player 1: <name>'"
    assert format_game(app.flow.game.session) == before and app.flow.display.screen == "game"


def test_the_arbiter_corrects_the_position_and_undo_takes_it_back(tmp_path):
    app, p, _ = app_with_stick(tmp_path)
    app.new_game(game="chess")
    app.tap("e2", "e4")
    p.open()
    p.start_correction()
    v = p.view()
    assert v.mode == "correct" and v.text.startswith("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b")
    p.clear()
    type_text(p, "4k3/8/8/8/8/8/8/4K2R w K - 0 1")
    p.load_typed()
    s = app.flow.game.session
    assert p.view().mode == "show" and not p.view().problem
    assert s.rules.position_text(s.pos) == "4k3/8/8/8/8/8/8/4K2R w K - 0 1"
    assert app.flow.display.notice == "The arbiter corrected the position."
    assert "position: 4k3/8/8/8/8/8/8/4K2R w K - 0 1" in format_game(s)
    # the board must now be set to the corrected position before play goes on
    assert not app.flow.board.in_sync
    p.start_correction()
    p.clear()
    type_text(p, "nonsense")
    p.load_typed()
    assert p.view().problem and "FEN has 1 field;" in p.view().message
    s.undo()
    assert s.rules.position_text(s.pos).startswith("rnbqkbnr/pppppppp/8/8/4P3/")


def test_load_save_is_on_the_menu_and_the_start_screen(tmp_path):
    app, p, _ = app_with_stick(tmp_path)
    app.start.load_save()
    assert app.flow.display.screen == "game_text"
    p.close()
    assert app.flow.display.screen == "start"
    app.new_game(game="chess")
    app.flow.menu.open()
    assert app.flow.display.prompt.options[0].label == "Load / Save"
    app.flow.display.answer_prompt("load-save")
    assert app.flow.display.screen == "game_text"


def test_a_clocked_games_text_loads_in_the_app_with_its_clock_stopped_where_it_was(tmp_path):
    from companion.tournament.table import Table
    from tests.test_presenter_tournament import press, tournament_app

    app = tournament_app(tmp_path, clock="blitz")
    press(app, 1)  # Black starts White's clock
    app.tap("e2", "e4")
    press(app, 0, ms=4000)
    app.clock.t += 2500  # Black thinks
    p = GameTextPresenter(app.flow.load_save, app.flow.game, app.flow.display)
    p.open()
    text = p.view().text
    times = app.flow.game.table.clock.view(app.clock.t).times
    assert '"type":"press"' in text and '"why":"text"' in text
    p.close()
    app.flow.game.leave()
    assert app.flow.load_save.load_text(text) is None
    flow = app.flow
    assert flow.game.table.tournament and flow.game.table.clock.paused and flow.game.table.clock.view(0).times == times
    app.setup.fill()
    app.pump()
    assert flow.view_screen == "clock" and app.clock_screen.view().paused
    on_disk = read_journal(flow.storage.store.current).entries  # the loaded game's journal, as after a power cut
    assert on_disk == journal_entries(flow.game.table)
    again, used, problem = Table.replay(on_disk)
    assert problem is None and used == len(on_disk) and again.clock.view(0).times == times


def test_in_a_tournament_only_the_arbiter_corrects_the_position(tmp_path):
    from tests.test_presenter_tournament import press, tournament_app

    app = tournament_app(tmp_path)
    press(app, 1)
    p = GameTextPresenter(app.flow.load_save, app.flow.game, app.flow.display)
    p.open()
    assert not p.view().can_correct  # behind the arbiter's PIN in tournament mode
    p.close()
    app.flow.arbiter.open()
    app.type("2468")
    app.type("2468")
    assert app.flow.display.screen == "arbiter"
    app.arbiter.correct_position()
    assert app.flow.display.screen == "game_text" and p.view().mode == "correct"
    p.clear()
    type_text(p, "4k3/8/8/8/8/8/8/4K2R w K - 0 1")
    p.load_typed()
    s = app.flow.game.session
    assert s.rules.position_text(s.pos) == "4k3/8/8/8/8/8/8/4K2R w K - 0 1" and p.view().mode == "show"
    p.close()
    assert app.flow.display.screen == "arbiter"
