"""The games a board has played: listed newest first with game, players, date and result;
reviewed move by move on the screen and the LEDs; an unfinished one played on; deleted;
copied to a USB stick (a folder stands in for it). Presenters without Kivy; the window test is
tests/test_ui_games.py."""

from __future__ import annotations

import os

from companion import saved_games
from companion.board.palette import Meaning
from companion.tournament.files import Stick
from tests.ui_flow_helpers import App


def play_two_games(app: App) -> None:
    """A Combat Chess game resigned by Black after e4 (finished), then a chess game left after
    two moves (unfinished); their ids give them their order."""
    app.new_game(game="combat")
    app.tap("e2", "e4")
    app.flow.play.resign()
    app.flow.display.answer_prompt("1")
    app.pump()
    assert app.flow.display.screen == "game_over"
    app.flow.game.leave()
    app.new_game(game="chess", dice="virtual")
    app.tap("d2", "d4")
    app.tap("d7", "d5")
    app.flow.game.leave()
    app.pump()


def open_list(app: App) -> None:
    app.start.games()
    app.pump()
    assert app.flow.display.screen == "games"


def test_the_list_names_game_players_date_and_result_newest_first(tmp_path):
    app = App(tmp_path)
    play_two_games(app)
    open_list(app)
    v = app.games.view()
    assert v.status == "2 games, the newest first."
    assert [r.title for r in v.rows] == ["Chess: White against Black", "Combat Chess: White against Black"]
    assert v.rows[0].detail.endswith("Unfinished \u00b7 2 moves") and not v.rows[0].finished
    assert v.rows[1].detail.endswith("White wins, by resignation \u00b7 1 move") and v.rows[1].finished
    assert not v.selected and not v.can_take_up and v.has_games


def test_the_games_screen_is_not_reached_during_a_game(tmp_path):
    app = App(tmp_path)
    app.new_game()
    app.start.games()
    assert app.flow.display.screen == "game"


def test_a_game_is_reviewed_move_by_move_on_the_screen_and_the_leds(tmp_path):
    app = App(tmp_path)
    play_two_games(app)
    open_list(app)
    app.games.select(0)
    app.games.review()
    app.pump()
    assert app.flow.display.screen == "review"
    v = app.review.view()
    assert (v.title, v.players, v.result, v.step) == ("Chess", "White against Black", "Unfinished", "Move 2 of 2: d5")
    assert v.at_end and not v.at_start
    d7, d5 = app.sq("d7"), app.sq("d5")
    assert app.flow.board.meanings == {d7: Meaning.LAST_MOVE_FROM, d5: Meaning.LAST_MOVE_TO}
    board = app.review.board()
    assert board.squares[d5].glyph and board.squares[d5].last_move and not board.squares[d7].glyph
    assert board.squares[d5].light is not None  # the LED colour is on screen too
    app.review.back()
    app.pump()
    assert app.review.view().step == "Move 1 of 2: d4" and app.review.board().squares[d7].glyph
    app.review.first()
    app.pump()
    assert app.review.view().step == "The start (2 moves)" and app.flow.board.meanings == {}
    assert app.review.board().squares[app.sq("d2")].glyph
    app.review.last()
    app.review.close()
    assert app.flow.display.screen == "games" and app.flow.board.meanings == {}


def test_an_unfinished_game_is_played_on_from_the_list(tmp_path):
    app = App(tmp_path)
    play_two_games(app)
    open_list(app)
    app.games.select(0)
    assert app.games.view().can_take_up
    app.sim.set_occupancy(frozenset(), app.clock())  # the board was cleared meanwhile
    app.games.take_up()
    app.pump()
    assert app.flow.display.screen == "setup"  # asked for: no "Continue this game?" question
    app.setup.fill()
    app.pump()
    assert app.flow.display.screen == "game" and [m.san for m in app.flow.game.session.moves] == ["d4", "d5"]
    assert not list((tmp_path / "games").glob("*-unfinished.jsonl"))


def test_a_finished_game_is_not_played_on(tmp_path):
    app = App(tmp_path)
    play_two_games(app)
    open_list(app)
    app.games.select(1)
    assert not app.games.view().can_take_up
    app.games.take_up()
    assert app.flow.display.screen == "games"


def test_a_game_is_deleted_after_asking(tmp_path):
    app = App(tmp_path)
    play_two_games(app)
    open_list(app)
    app.games.select(1)
    app.games.delete()
    assert app.flow.display.prompt.kind == "delete-game"
    assert app.flow.display.prompt.title == "Delete this game for good? Combat Chess: White against Black"
    app.flow.display.answer_prompt("yes")
    app.pump()
    v = app.games.view()
    assert [r.title for r in v.rows] == ["Chess: White against Black"] and v.notice == "The game is deleted."
    assert not list((tmp_path / "games").glob("*.dice.jsonl"))  # the dice record went with it


def test_one_game_or_all_are_copied_to_the_usb_stick(tmp_path):
    app = App(tmp_path / "data")
    stick = tmp_path / "stick"
    play_two_games(app)
    open_list(app)
    app.flow.storage.sticks = lambda: []
    app.games.select(1)
    app.games.copy()
    assert app.games.view().notice == "No USB stick is plugged in: plug one in and tap again."
    stick.mkdir()
    app.flow.storage.sticks = lambda: [Stick(stick, "STICK")]  # as find_sticks gives them
    app.games.copy()
    copied = sorted(p.name for p in (stick / "companion-games").iterdir())
    gid = copied[0].split(".")[0]
    assert copied == [f"{gid}.dice.jsonl", f"{gid}.jsonl", f"{gid}.pgn"]  # the journal, its dice, its PGN
    assert app.games.view().notice.startswith("1 game copied to ")
    app.games.copy_all()
    names = sorted(p.name for p in (stick / "companion-games").iterdir())
    assert len(names) == 5 and sum(n.endswith(".pgn") for n in names) == 2  # the unfinished game as PGN too
    import chess.pgn, io
    for name in names:
        if name.endswith(".pgn"):
            game = chess.pgn.read_game(io.StringIO((stick / "companion-games" / name).read_text()))
            assert game is not None and game.headers["Event"]


def test_a_stick_that_refuses_the_copy_is_said_in_one_line(tmp_path):
    app = App(tmp_path / "data")
    play_two_games(app)
    open_list(app)
    blocked = tmp_path / "stick"
    blocked.mkdir()
    (blocked / "companion-games").write_text("a file where the folder should be")
    app.flow.storage.sticks = lambda: [Stick(blocked, "STICK")]
    app.games.copy_all()
    assert app.games.view().notice.startswith("The games could not be copied: ")


def test_unreadable_files_are_counted_not_listed(tmp_path):
    app = App(tmp_path)
    play_two_games(app)
    (tmp_path / "games" / "20990101-000000-zzzz.jsonl").write_text("not a journal\n")
    (tmp_path / "games" / "damaged.jsonl").write_text("set aside\n")
    open_list(app)
    v = app.games.view()
    assert len(v.rows) == 2 and v.status == "2 games, the newest first. 1 could not be read (see games/ in the data folder)."


def test_games_are_ordered_by_their_start_time_then_by_file_time(tmp_path):
    folder = tmp_path / "games"
    folder.mkdir()
    for name in ("20261101-090000-aaaa.jsonl", "20261125-090000-bbbb-unfinished.jsonl", "x.jsonl"):
        (folder / name).write_text("")
    os.utime(folder / "x.jsonl", (1, 1))
    assert [p.name for p in saved_games.list_games(tmp_path)] == [
        "20261125-090000-bbbb-unfinished.jsonl", "20261101-090000-aaaa.jsonl", "x.jsonl"]


def test_the_game_over_screen_says_where_the_game_is_saved(tmp_path):
    """It used to say "The game is saved." and not where."""
    app = App(tmp_path)
    app.new_game(game="chess", dice="virtual")
    for frm, to in (("f2", "f3"), ("e7", "e5"), ("g2", "g4"), ("d8", "h4")):  # fool's mate
        app.tap(frm, to)
    assert app.flow.display.screen == "game_over"
    gid = app.flow.game.session.setup.game_id
    words = app.over.view().saved  # open for a takeback: filed when the players leave
    assert words == (f"Saved. Once you leave this screen it is {gid}.jsonl in {tmp_path / 'games'} (the Games "
                     f"screen has it); until then Undo can take the last move back.")
    app.flow.game.leave()
    assert (tmp_path / "games" / f"{gid}.jsonl").exists()
    app.new_game()
    app.flow.play.resign()
    app.flow.display.answer_prompt("0")  # a resignation is not taken back: filed at once
    gid = app.flow.game.session.setup.game_id
    assert app.over.view().saved == f"Saved as {gid}.jsonl in {tmp_path / 'games'}. The Games screen has it."
