"""The tournament table in the app without Kivy: the table screen, the clock screen, the
procedures, the arbiter behind a PIN, records to a USB stick, pairings, a power cut."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from companion.app import texts as T
from companion.errors import IllegalMoveError
from companion.app.presenters.flow import AppFlow
from companion.board.palette import Meaning
from companion.tournament.pgn import parse_pgn
from tests.ui_flow_helpers import App

PAIRINGS = Path(__file__).parent / "data" / "pairings"


def stick(tmp_path: Path, name: str = "KINGSTON") -> Path:
    """A folder standing in for a mounted USB stick under a media root."""
    path = tmp_path / "media" / "pi" / name
    path.mkdir(parents=True)
    (path / ".companion-stick").write_text("")
    return path


def tournament_app(tmp_path, clock="blitz", **kw) -> App:
    app = App(tmp_path / "data", computer=False, media_roots=(tmp_path / "media",), **kw)
    app.start_at_the_table("chess", clock, mode="tournament")
    return app


def by_hand(app: App, frm: str, to: str, capture: bool = False) -> None:
    if capture:
        app.board.tap(app.sq(to))
        app.pump()
    app.board.tap(app.sq(frm))
    app.pump()
    app.board.tap(app.sq(to))
    app.pump()


def press(app: App, side: int, ms: int = 1500) -> None:
    app.clock.t += ms
    position = side if not app.flow.clock.swapped else 1 - side
    app.clock_screen.tap(position)
    app.pump()


# ----- the table screen ---------------------------------------------------------------------------------


def test_the_table_screen_sets_mode_clock_event_round_board_and_ratings(tmp_path):
    app = App(tmp_path, computer=False)
    assert app.start.view().table == "Casual, no clock"
    app.start.table_settings()
    app.table.mode("tournament")
    v = app.table.view()
    assert v.tournament and [c.key for c in v.clocks if c.selected] == ["fide-standard"]  # a tournament has a clock
    app.table.clock("rapid")
    app.table.round(+1)
    app.table.round(+1)
    app.table.board(+1)
    app.table.event()
    app.type("Club Rapid")
    app.table.rating(0)
    app.type("1834")
    app.table.rating(1)
    app.type("9999")  # refused: the pad stays open and says why
    assert app.entry.view().problem == "A rating is a number from 0 to 4000."
    app.entry.cancel()
    v = app.table.view()
    assert (v.round, v.board, v.event, v.ratings) == ("2", "1", "Club Rapid", ("1834", "\u2013"))
    assert v.clock_label == "Rapid 15 min + 10 s"
    app.table.done()
    assert app.start.view().table == "Tournament, 15+10  \u2013  Round 2 \u00b7 Board 1"


def test_a_name_is_typed_on_the_on_screen_keyboard(tmp_path):
    app = App(tmp_path, computer=False)
    app.start.open_names(1)
    app.start.type_name()
    app.type("ben o'rook")
    assert app.start.view().seats[1].name == "Ben O'Rook"


def test_a_tournament_has_no_computer_player(tmp_path):
    app = App(tmp_path)
    app.start.choose_game("chess")
    app.start.set_kind(1, True)  # the one seat control: Black is a computer
    app.start.table_settings()
    app.table.mode("tournament")
    app.table.done()
    app.start.start()
    assert app.flow.display.screen == "start" and app.start.view().problem == "A tournament game has no computer player."


# ----- playing at the clock ------------------------------------------------------------------------------


def test_a_tournament_game_shows_the_clock_and_nothing_legal_on_the_board(tmp_path):
    app = tournament_app(tmp_path)
    assert app.flow.view_screen == "clock"
    v = app.clock_screen.view()
    assert v.status == "Black: tap your side to start White's clock" and v.halves[1].can_tap and not v.halves[0].can_tap
    press(app, 1)
    v = app.clock_screen.view()
    assert v.halves[0].running and v.halves[0].can_tap and not v.halves[1].can_tap and v.halves[0].face == "3:00"
    app.board.tap(app.sq("g1"))  # lift the knight: nothing is lit, nothing said
    app.pump()
    assert not [m for m in app.flow.board.meanings.values()] and app.flow.board.guidance == ""
    assert all(not sq.odds for sq in app.board.view().squares)
    app.board.tap(app.sq("f3"))
    app.clock.t += 5000
    app.pump()
    assert app.flow.game.session.moves == []  # not before the press
    press(app, 0)
    assert [m.san for m in app.flow.game.session.moves] == ["Nf3"]
    assert set(app.flow.board.meanings.values()) == {Meaning.LAST_MOVE_FROM, Meaning.LAST_MOVE_TO}


def test_what_the_screens_show_while_a_piece_is_lifted_does_not_depend_on_the_legal_moves(tmp_path):
    app = tournament_app(tmp_path, clock="rapid")
    press(app, 1)
    for frm, to in (("e2", "e4"), ("e7", "e5"), ("d1", "h5")):
        by_hand(app, frm, to)
        press(app, app.flow.game.session.turn)
    app.board.tap(app.sq("b8"))  # Black lifts a knight while in no danger; White's queen eyes f7
    app.pump()

    def screens():
        return (app.clock_screen.view(), app.game.view(), app.board.view(), dict(app.flow.board.meanings), app.flow.board.guidance)

    before = screens()
    rules = app.flow.game.session.rules
    real = rules._rules.legal_moves
    try:
        rules._rules.legal_moves = lambda pos: []  # rules that say nothing is legal
        assert screens() == before
    finally:
        rules._rules.legal_moves = real


def test_an_illegal_move_is_penalised_at_the_press_and_guided_back(tmp_path):
    app = tournament_app(tmp_path, clock="rapid")
    press(app, 1)
    by_hand(app, "e1", "e3")
    press(app, 0)
    assert app.flow.display.notice == "Illegal move by White: put the position back. Black gets 1:00 more."
    assert app.flow.board.guidance == "Move the white king from e3 to e1."
    v = app.clock_screen.view()
    assert v.halves[1].face == "16:00" and v.halves[0].info.endswith("Illegal moves: 1")
    by_hand(app, "e3", "e1")
    assert app.flow.board.guidance == ""


def test_a_draw_offer_and_both_players_tapping_the_draw_end_the_game(tmp_path):
    app = tournament_app(tmp_path)
    press(app, 1)
    by_hand(app, "e2", "e4")
    app.clock_screen.offer(0)
    press(app, 0)
    assert app.clock_screen.view().offer == "White offers a draw: Black, tap Result \u2192 \u00bd\u2013\u00bd to accept, or just move."
    app.clock_screen.result(1)
    app.prompt.answer("1:1/2-1/2")
    app.pump()
    assert app.flow.display.screen == "game_over" and app.flow.game.session.result.reason == "draw agreed"
    saved = list((tmp_path / "data" / "games").glob("*.pgn"))
    (game,) = parse_pgn(saved[0].read_text())
    assert game.result == "1/2-1/2" and game.moves[0].draw_offer


def test_a_claim_is_checked(tmp_path):
    app = tournament_app(tmp_path, clock="rapid")
    press(app, 1)
    app.clock_screen.claim(0)
    app.prompt.answer("0:threefold")
    app.pump()
    assert app.flow.display.notice == "White's claim is not correct: Black gets 1:00 more. Play on."


def test_a_flag_while_the_promotion_piece_is_chosen_closes_the_question(tmp_path):
    app = App(tmp_path / "data", computer=False)
    app.start.choose_game("chess")
    app.start.table_settings()
    app.table.mode("tournament")
    app.table.clock("blitz")
    app.table.done()
    from companion.session import Seat

    app.flow.new_game("chess", (Seat("White"), Seat("Black")), start="8/4P1k1/8/8/8/8/6K1/8 w - - 0 1",
                      table=app.flow.settings.next_table.setup("2026.11.22"))
    app.pump()
    app.setup.fill()
    app.pump()
    press(app, 1)
    by_hand(app, "e7", "e8")
    press(app, 0)
    assert app.flow.display.prompt.kind == "press-choice"
    app.clock.t += 200_000
    app.pump()
    # White's flag: drawn, as Black's lone King cannot checkmate (6.9); the question is gone
    result = app.flow.game.session.result
    assert result.reason == "time, cannot win" and app.flow.display.prompt is None and app.flow.display.screen == "game_over"


def test_the_flag_is_shown_at_once(tmp_path):
    app = tournament_app(tmp_path)
    press(app, 1)
    app.clock.t += 180_000
    app.pump()
    assert app.flow.display.screen == "game_over" and app.flow.game.session.result.reason == "time"
    assert app.over.view().headline == "Black wins"


# ----- the arbiter ------------------------------------------------------------------------------------------


def test_the_arbiter_needs_the_pin_set_on_the_board(tmp_path):
    app = tournament_app(tmp_path)
    press(app, 1)
    app.flow.arbiter.open()
    assert app.entry.view().title.startswith("Choose an arbiter PIN")
    app.type("12")
    assert app.entry.view().problem == "A PIN is 4 to 8 digits."
    app.entry.cancel()
    app.flow.arbiter.open()
    app.type("2468")
    app.type("2469")
    assert app.entry.view().problem == "The two PINs differ: choose one again."
    app.entry.cancel()
    app.flow.arbiter.open()
    app.type("2468")
    app.type("2468")
    assert app.flow.display.screen == "arbiter"
    app.arbiter.back()
    app.flow.arbiter.open()
    app.type("1111")
    assert app.entry.view().problem == "Wrong PIN." and app.entry.view().shown == ""
    app.entry.cancel()
    app.flow.arbiter.open()
    app.type("2468")
    assert app.flow.display.screen == "arbiter"


def test_an_arbiter_correction_is_journaled_and_recorded(tmp_path):
    app = tournament_app(tmp_path)
    press(app, 1)
    app.flow.arbiter.open()
    app.type("1357")
    app.type("1357")
    app.arbiter.pause()
    app.arbiter.set_time(1)
    app.type("130")  # 1:30
    app.arbiter.add_time(0, 60_000)
    app.arbiter.resume()
    v = app.arbiter.view()
    assert v.sides[1].line.startswith("Black: 1:30") and "Arbiter: Black's clock set to 1:30." in v.log
    app.arbiter.result()
    app.prompt.answer("+-")
    app.pump()
    assert app.flow.game.session.is_over and app.flow.game.table.result_code() == "1-0"
    text = (tmp_path / "data" / "games" / f"{app.flow.game.table.game.game_id}.pgn").read_text()
    assert "Arbiter: White wins by forfeit." in " ".join(text.split())


# ----- records and pairings ------------------------------------------------------------------------------------


def test_records_are_copied_to_a_usb_stick(tmp_path):
    app = tournament_app(tmp_path)
    press(app, 1)
    app.flow.records.copy()
    assert app.flow.display.notice == T.NO_STICK
    s = stick(tmp_path)
    app.flow.records.save()
    app.flow.records.copy()
    assert app.flow.display.notice == "1 game copied to KINGSTON."
    assert (s / "companion-games" / f"{app.flow.game.table.game.game_id}.pgn").exists()
    assert (s / "companion-games" / "games.pgn").exists()


def test_a_pairing_file_from_a_stick_sets_players_clock_and_board_and_the_result_goes_back(tmp_path):
    s = stick(tmp_path)
    shutil.copy(PAIRINGS / "leiden-rapid.trf", s / "leiden-rapid.trf")
    app = App(tmp_path / "data", computer=False, media_roots=(tmp_path / "media",))
    app.start.choose_game("chess")
    app.start.table_settings()
    app.table.pairing()
    assert app.prompt.view().kind == "pairing-file"
    app.prompt.answer(str(s / "leiden-rapid.trf"))
    assert [o.label for o in app.prompt.view().options] == [
        "1. Ortiz, Dan (2050) \u2013 GM Petrov, Ivan (2610)", "2. IM Okafor, Ada (2455) \u2013 FM Lindqvist, Per (2390)"]
    app.prompt.answer("2")
    v = app.table.view()
    assert v.tournament and v.clock_label == "Rapid 15 min + 10 s" and v.ratings == ("2455", "2390")
    app.table.done()
    assert [seat.name for seat in app.start.view().seats] == ["Okafor, Ada", "Lindqvist, Per"]
    app.start.start()
    app.pump()
    app.setup.fill()
    app.pump()
    assert app.clock_screen.view().header.startswith("Round 4 \u2013 Board 2  \u2013  Leiden Rapid Open 2026")
    press(app, 1)
    app.clock_screen.resign(1)
    app.prompt.answer("1")
    app.pump()
    results = tmp_path / "data" / "results"
    assert (results / "round-4-results.csv").read_text().splitlines()[1] == "4,2,2,\"Okafor, Ada\",3,\"Lindqvist, Per\",1-0"
    trf = (results / "round-4-leiden-rapid.trf").read_text()
    rows = {int(line[4:8]): line for line in trf.splitlines() if line.startswith("001")}
    assert rows[2][128] == "1" and rows[3][128] == "0"
    app.flow.game.leave()
    app.flow.records.copy()
    assert (s / "companion-games" / "round-4-results.csv").exists()


def test_a_malformed_pairing_file_is_one_message_and_nothing_changes(tmp_path):
    s = stick(tmp_path)
    (s / "bad.csv").write_text("round,board,white,black\n1,1,A,B\n1,x,C,D\n")
    app = App(tmp_path / "data", computer=False, media_roots=(tmp_path / "media",))
    app.start.table_settings()
    before = app.table.view()
    app.table.pairing()
    app.prompt.answer(str(s / "bad.csv"))
    assert app.flow.display.notice == "bad.csv, line 3: the board must be a whole number, got 'x'"
    from dataclasses import replace

    assert app.prompt.view() is None and replace(app.table.view(), notice="") == before


# ----- a power cut ------------------------------------------------------------------------------------------


def test_after_a_power_cut_the_clock_comes_back_paused_and_says_so(tmp_path):
    app = tournament_app(tmp_path, clock="rapid")
    press(app, 1)
    by_hand(app, "e2", "e4")
    press(app, 0, ms=4000)
    app.clock.t += 7000
    app.pump()  # a checkpoint: Black has thought 7 s
    assert app.flow.clock.checkpoints.flush()  # its thread has written it (as a board does within a frame)
    app.flow.game.journal.close()  # the power goes
    back = App(tmp_path / "data", computer=False)
    assert back.flow.display.screen == "resume"
    back.resume.accept()
    back.pump()
    back.setup.fill()
    back.pump()
    v = back.clock_screen.view()
    assert v.paused and v.halves[1].face == "14:53" and v.halves[0].face == "15:06"
    assert back.flow.display.notice.startswith("The board was switched off. The clocks stopped at 15:06 \u2013 14:53")


# ----- casual play with a clock ---------------------------------------------------------------------------


def casual_app(tmp_path, auto_press: bool) -> App:
    app = App(tmp_path / "data", computer=False)
    app.start.choose_game("chess")
    app.start.table_settings()
    app.table.clock("blitz")
    if auto_press:
        app.table.toggle_auto_press()
    app.table.done()
    app.start.start()
    app.pump()
    app.setup.fill()
    app.pump()
    return app


def test_in_casual_play_the_clock_can_press_itself_when_the_board_shows_a_move(tmp_path):
    app = casual_app(tmp_path, auto_press=True)
    press(app, 1)  # Black starts White's clock
    app.tap("e2", "e4")  # the tracker sees the move: the clock presses itself
    v = app.clock_screen.view()
    assert [m.san for m in app.flow.game.session.moves] == ["e4"] and v.halves[1].running and not v.halves[0].running
    assert app.flow.game.table.plies[0].spent_ms > 0
    app.tap("e7", "e5")
    assert app.clock_screen.view().halves[0].running
    app.clock_screen.undo()  # casual: a takeback, and the clock follows the turn
    assert [m.san for m in app.flow.game.session.moves] == ["e4"] and app.clock_screen.view().halves[1].running


def test_in_casual_play_the_players_press_and_pause_the_clock_themselves(tmp_path):
    app = casual_app(tmp_path, auto_press=False)
    press(app, 1)
    app.tap("e2", "e4")
    assert app.clock_screen.view().halves[0].running  # not pressed yet
    press(app, 0)
    assert app.clock_screen.view().halves[1].running
    app.clock_screen.pause()
    assert app.clock_screen.view().paused
    app.clock_screen.resume()  # casual: the players restart it
    assert not app.clock_screen.view().paused and app.clock_screen.view().halves[1].running


# ----- Combat Chess at the clock ---------------------------------------------------------------------------


def test_a_combat_fight_stops_both_clocks_until_the_dice_have_spoken(tmp_path):
    app = App(tmp_path / "data", computer=False)
    app.start.choose_game("combat")
    app.start.table_settings()
    app.table.mode("tournament")
    app.table.clock("rapid")
    app.table.done()
    app.start.start()
    app.pump()
    app.setup.fill()
    app.pump()
    press(app, 1)
    for frm, to in (("e2", "e4"), ("d7", "d5")):
        by_hand(app, frm, to)
        press(app, app.flow.game.session.turn)
    by_hand(app, "e4", "d5", capture=True)
    press(app, 0)
    assert app.flow.display.screen == "fight" and app.flow.game.table.clock.paused
    before = app.flow.game.table.clock.view(app.clock.t).times
    app.clock.t += 30_000
    assert app.flow.game.table.clock.view(app.clock.t).times == before  # the dice are nobody's time
    app.fight_through()
    assert not app.flow.game.table.clock.paused and app.flow.game.table.clock.running == 1


# ----- undo after the game is over (issue 17) at the table ---------------------------------------------


def fools_mate_with_the_clock(app: App) -> None:
    for i, (frm, to) in enumerate((("f2", "f3"), ("e7", "e5"), ("g2", "g4"), ("d8", "h4"))):
        by_hand(app, frm, to)
        press(app, i % 2)


def test_a_tournament_game_that_ended_is_not_taken_back_and_is_archived_at_once(tmp_path):
    """Issue 17's undo after the end is casual play's: tournament mode turns it off (FIDE: a
    game over stays over; only the arbiter takes moves back, before the end)."""
    app = tournament_app(tmp_path, clock="blitz")
    press(app, 1)
    fools_mate_with_the_clock(app)
    assert app.flow.display.screen == "game_over" and app.flow.game.session.result.reason == "checkmate"
    assert app.flow.game.session.can_undo() and not app.flow.game.can_undo() and not app.over.view().can_undo
    assert not (tmp_path / "data" / "current.jsonl").exists()  # archived, with its record
    assert list((tmp_path / "data" / "games").glob("*.pgn"))


def test_a_casual_game_with_a_clock_that_ended_stays_ended(tmp_path):
    """Its clock has stopped for good at the end: no takeback after it (a casual game without a
    clock keeps issue 17's undo after the end)."""
    app = App(tmp_path / "data", computer=False)
    app.start_at_the_table("chess", "blitz")
    press(app, 1)
    fools_mate_with_the_clock(app)
    assert app.flow.display.screen == "game_over" and not app.over.view().can_undo
    with pytest.raises(IllegalMoveError, match="clock has stopped"):
        app.flow.game.table.undo(app.clock.t)


def test_a_flag_is_not_undone_by_a_takeback(tmp_path):
    """A result decided off the board (a flag, a claim, the arbiter) is not the last move's:
    the session refuses to take the move back after it."""
    from companion.session import Adjudicate, GameSetup, Seat, Session

    s, _ = Session.new(GameSetup("chess", (Seat("A"), Seat("B"))))
    s.play("e2e4")
    s.act(Adjudicate((0,), "time"))
    assert s.is_over and not s.can_undo()
    with pytest.raises(IllegalMoveError, match="ended off the board"):
        s.undo()
