"""The FIDE procedures at the table (Laws of Chess 2023): every one journaled, replayed exactly,
and written in the record. Each test names the article it checks."""

from __future__ import annotations

import pytest

from companion.errors import ClockError, IllegalMoveError, RecordError
from companion.session import GameSetup, Seat
from companion.tournament.clock import FlagFell
from companion.tournament.pgn import format_pgn, parse_pgn
from companion.tournament.record import pgn_game
from companion.tournament.table import (
    ClaimJudged, IllegalMoveCaught, PowerRestored, PressNeedsChoice, Table, TableSetup,
)
from tests.tournament_helpers import MIN, S, Harness, fingerprint


def record_text(table) -> str:
    """The PGN with its line breaks undone, to search sentences in."""
    return " ".join(format_pgn(pgn_game(table)).split())


def same_after_replay(h: Harness) -> None:
    assert fingerprint(h.replayed()) == fingerprint(h.table)


# ----- 6.2.1: the press completes the move ------------------------------------------------------------


def test_6_2_1_the_move_is_completed_by_the_press_not_before():
    h = Harness()
    h.start()
    h.move("e2", "e4")
    h.settle(10_000)
    assert h.sans() == [] and h.table.clock.running == 0
    h.press()
    assert h.sans() == ["e4"] and h.table.clock.running == 1
    same_after_replay(h)


def test_the_clock_is_started_by_blacks_half_as_on_a_real_clock():
    h = Harness()
    assert h.table.can_press(1) and not h.table.can_press(0)
    h.table.press(1, 0)
    assert h.table.clock.running == 0 and h.table.clock.counting
    assert h.table.can_press(0) and not h.table.can_press(1)


def test_a_promotion_asks_the_piece_and_the_clock_runs_until_it_is_chosen():
    h = Harness(start="8/4P1k1/8/8/8/8/6K1/8 w - - 0 1")
    h.start()
    h.move("e7", "e8")
    (ask,) = h.press()
    assert isinstance(ask, PressNeedsChoice) and ask.kind == "promotion" and "e7e8n" in ask.options
    assert h.sans() == [] and h.table.clock.running == 0
    with pytest.raises(IllegalMoveError):
        h.press()
    h.t += 3000
    h.table.complete_press("e7e8n", h.t)
    assert h.sans() == ["e8=N+"] and h.table.plies[0].spent_ms == h.t
    same_after_replay(h)


# ----- 7.5: illegal moves -----------------------------------------------------------------------------


@pytest.mark.parametrize("control, minutes", [("5400+30", 2), ("40/5400+30:1800+30", 2), ("900+10", 1), ("180+2", 1)])
def test_7_5_5_a_first_illegal_move_gives_the_opponent_time_by_category(control, minutes):
    """Two minutes in standard play; one in rapid and blitz (Appendices A.3, B.3)."""
    h = Harness(control=control)
    h.start()
    h.play("e2", "e4")
    before = h.table.clock.view(h.t).times[0]
    h.move("e8", "e7")  # not Black's king's move: e7 holds a pawn... the king steps onto its own pawn
    out = h.press()
    (caught,) = [o for o in out if isinstance(o, IllegalMoveCaught)]
    assert caught.count == 1 and caught.penalty_ms == minutes * MIN
    assert h.table.clock.view(h.t).times[0] == before + minutes * MIN
    assert h.table.clock.running == 1 and not h.s.is_over
    same_after_replay(h)


def test_7_5_1_the_position_before_the_illegal_move_is_reinstated_and_play_goes_on():
    h = Harness()
    h.start()
    h.play("e2", "e4")
    h.move("e7", "e4")  # a pawn that leaps three squares onto White's pawn
    h.press()
    assert h.sans() == ["e4"] and h.s.turn == 1
    h.fix_board()
    h.play("e7", "e5")
    assert h.sans() == ["e4", "e5"]


def test_7_5_5_a_second_illegal_move_loses():
    h = Harness()
    h.start()
    h.move("g1", "g3")
    h.press()
    h.fix_board()
    h.move("b1", "b3")
    out = h.press()
    assert h.s.is_over and h.s.result.winners == {1} and h.s.result.reason == "illegal move"
    assert h.table.result_code() == "0-1"
    assert [o.count for o in out if isinstance(o, IllegalMoveCaught)] == [2]
    assert h.table.clock.stopped
    text = record_text(h.table)
    assert "Second illegal move by Ann (b1-b3): Ann loses the game (FIDE 7.5.5)." in text
    assert '[Termination "rules infraction"]' in text
    same_after_replay(h)


def test_7_5_5_a_second_illegal_move_is_a_draw_when_the_opponent_cannot_checkmate():
    h = Harness(start="4k3/8/8/8/8/8/3PPP2/4K3 w - - 0 1")  # Black has a lone King
    h.start()
    h.move("e1", "e3")
    h.press()
    h.fix_board()
    h.move("e1", "e3")
    h.press()
    assert h.s.result.is_draw and h.s.result.reason == "illegal move, cannot win"
    assert h.table.result_code() == "1/2-1/2"


def test_7_5_3_pressing_without_a_move_counts_as_an_illegal_move():
    h = Harness()
    h.start()
    out = h.press()
    (caught,) = [o for o in out if isinstance(o, IllegalMoveCaught)]
    assert caught.what == "no move" and h.table.illegal == {0: 1}


def test_illegal_moves_are_judged_in_tournament_mode_only():
    h = Harness(mode="casual", control="300")
    h.start()
    h.press(0)  # a casual press is just a press
    assert h.table.illegal == {} and h.table.clock.running == 1


# ----- 9.1 and 8.7: draw offers and agreed results -----------------------------------------------------


def test_9_1_2_a_draw_offer_is_recorded_and_accepted_by_the_same_result_tap():
    h = Harness()
    h.start()
    h.play("e2", "e4")
    h.table.offer_draw(1, h.t)
    h.move("e7", "e5")
    h.press()
    h.t += 100
    h.table.tap_result(0, "1/2-1/2", h.t)  # Black's offer stands after his move: White accepts
    assert h.s.result.is_draw and h.s.result.reason == "draw agreed" and h.table.result_code() == "1/2-1/2"
    (back,) = parse_pgn(format_pgn(pgn_game(h.table)))
    assert [m.draw_offer for m in back.moves] == [False, True]
    same_after_replay(h)


def test_9_1_2_3_a_draw_offer_lapses_when_the_opponent_moves():
    h = Harness()
    h.start()
    h.table.offer_draw(0, h.t)
    h.play("e2", "e4")
    h.play("e7", "e5")  # Black moves: the offer is declined
    h.table.tap_result(1, "1/2-1/2", h.t)
    assert not h.s.is_over


def test_8_7_a_result_needs_both_players_to_tap_the_same():
    h = Harness()
    h.start()
    h.play("e2", "e4")
    h.table.tap_result(0, "1-0", h.t)
    h.table.tap_result(1, "0-1", h.t)
    assert not h.s.is_over
    h.table.tap_result(1, "1-0", h.t)
    assert h.s.result.winners == {0} and h.s.result.reason == "result agreed" and h.table.result_code() == "1-0"


def test_5_1_2_resignation_ends_the_game_at_once():
    h = Harness()
    h.start()
    h.play("e2", "e4")
    h.table.resign(1, h.t + 500)
    assert h.s.result.winners == {0} and h.table.clock.stopped
    same_after_replay(h)


# ----- 9.2, 9.3, 9.5: claims ----------------------------------------------------------------------------


def shuffle_knights(h: Harness, times: int) -> None:
    for _ in range(times):
        h.play("g1", "f3")
        h.play("g8", "f6")
        h.play("f3", "g1")
        h.play("f6", "g8")


def test_9_2_threefold_repetition_does_not_end_the_game_by_itself_in_tournament_play():
    h = Harness()
    h.start()
    shuffle_knights(h, 2)  # the start position for the third time
    assert not h.s.is_over


def test_9_2_1_2_a_correct_claim_on_the_position_that_has_just_appeared():
    h = Harness()
    h.start()
    shuffle_knights(h, 2)
    out = h.table.claim(0, "threefold", h.t)
    assert any(isinstance(o, ClaimJudged) and o.correct for o in out)
    assert h.s.result.reason == "threefold repetition" and h.table.result_code() == "1/2-1/2"
    same_after_replay(h)


def test_9_2_1_1_a_correct_claim_with_the_move_on_the_board_before_the_press():
    h = Harness()
    h.start()
    shuffle_knights(h, 1)
    h.play("g1", "f3")
    h.play("g8", "f6")
    h.play("f3", "g1")
    h.move("f6", "g8")  # not pressed: the intended move
    h.table.claim(1, "threefold", h.t)
    assert h.s.result.reason == "threefold repetition" and h.sans()[-1] == "Ng8"


def test_9_5_3_a_wrong_claim_gives_the_opponent_time_and_the_game_goes_on():
    h = Harness(control="900+10")  # rapid: one minute (A.3)
    h.start()
    h.play("e2", "e4")
    before = h.table.clock.view(h.t).times[0]
    out = h.table.claim(1, "fifty", h.t)
    assert any(isinstance(o, ClaimJudged) and not o.correct and o.penalty_ms == MIN for o in out)
    assert h.table.clock.view(h.t).times[0] == before + MIN and not h.s.is_over
    assert "incorrect, Ann gets 1 minute (FIDE 9.5.3)" in record_text(h.table)


def test_9_3_a_fifty_move_claim():
    h = Harness(start="4k3/8/8/8/8/8/8/R3K3 w - - 99 80")
    h.start()
    h.move("a1", "a2")
    h.table.claim(0, "fifty", h.t)
    assert h.s.result.reason == "fifty-move rule"


def test_only_the_player_to_move_may_claim():
    h = Harness()
    h.start()
    with pytest.raises(IllegalMoveError, match="only the player to move"):
        h.table.claim(1, "threefold", h.t)


# ----- 6.9: flag fall -------------------------------------------------------------------------------------


def test_6_9_a_flag_loses():
    h = Harness(control="60")
    h.start()
    out = h.table.tick(60 * S)
    assert any(isinstance(o, FlagFell) for o in out)
    assert h.s.result.winners == {1} and h.s.result.reason == "time" and h.table.result_code() == "0-1"
    assert '[Termination "time forfeit"]' in record_text(h.table)
    same_after_replay(h)


def test_6_9_a_flag_against_a_side_whose_opponent_cannot_checkmate_is_a_draw():
    h = Harness(control="60", start="4k3/8/8/8/8/8/3PPP2/4K3 w - - 0 1")
    h.start()
    h.table.tick(61 * S)
    assert h.s.result.is_draw and h.s.result.reason == "time, cannot win"


@pytest.mark.parametrize("start", [
    "8/8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8 w - - 0 1",  # issue 26: it scored 0-1
    "8/8/8/4k3/1p1p1p1p/1P1P1P1P/4K1B1/8 w - - 0 1",  # a Bishop shut in behind its own Pawns
])
def test_6_9_a_flag_in_a_locked_position_where_nobody_can_ever_mate_is_a_draw(start):
    """5.2.2 / 6.9: "the game is drawn if the position is such that the opponent cannot
    checkmate the player's king by any possible series of legal moves": locked Pawns that no
    King or piece can get past, not only the material (docs/tournament.md)."""
    h = Harness(control="60", start=start)
    h.start()
    h.table.tick(61 * S)
    assert h.s.result.is_draw and h.s.result.reason == "time, cannot win" and h.table.result_code() == "1/2-1/2"
    same_after_replay(h)


def test_6_9_a_flag_in_a_locked_position_a_knight_can_break_still_loses():
    """The White Knight can jump the wall and take a Pawn: the structure can change, a mate
    can be reached, the flag loses."""
    h = Harness(control="60", start="8/8/8/4k3/1p1p1p1p/1P1P1P1P/4KN2/8 b - - 0 1")
    h.start()
    h.table.tick(61 * S)
    assert h.s.result.winners == {0} and h.s.result.reason == "time"


def test_6_9_a_flag_exactly_at_a_press_falls_first():
    h = Harness(control="60")
    h.start()
    h.move("e2", "e4")
    h.t = 60 * S
    h.table.press(0, h.t)
    assert h.s.result.reason == "time" and h.sans() == []


def test_6_9_with_5_1_1_a_mate_on_the_board_before_the_flag_stands():
    """Fool's mate made on the board; the flag falls before Black presses: the mate counts."""
    h = Harness(control="60+0")
    h.start()
    h.play("f2", "f3", think=100)
    h.play("e7", "e5", think=100)
    h.play("g2", "g4", think=100)
    h.move("d8", "h4")
    h.table.tick(10 * MIN)
    assert h.s.result.reason == "checkmate" and h.s.result.winners == {1} and h.sans()[-1] == "Qh4#"


# ----- arbiter --------------------------------------------------------------------------------------------


def test_the_arbiter_sets_and_adds_time_pauses_and_restarts():
    h = Harness()
    h.start()
    h.play("e2", "e4")
    h.table.arbiter("pause", h.t)
    assert h.table.clock.paused
    h.table.arbiter("set-time", h.t, side=1, ms=10 * MIN)
    h.table.arbiter("add-time", h.t, side=0, ms=2 * MIN)
    h.table.arbiter("set-moves", h.t, side=0, moves=5)
    h.t += 50_000
    h.table.arbiter("resume", h.t)
    view = h.table.clock.view(h.t)
    assert view.times[1] == 10 * MIN and view.moves[0] == 5
    text = record_text(h.table)
    assert "Arbiter: Bob's clock set to 10:00." in text and "Arbiter: 2:00 added to Ann's clock." in text
    same_after_replay(h)


def test_the_arbiter_applies_and_cancels_a_penalty():
    h = Harness()
    h.start()
    h.play("e2", "e4")
    before = h.table.clock.view(h.t).times[0]
    h.table.arbiter("penalty", h.t, side=1)
    assert h.table.clock.view(h.t).times[0] == before + 2 * MIN and h.table.illegal == {1: 1}
    h.table.arbiter("cancel-penalty", h.t, index=0)
    assert h.table.clock.view(h.t).times[0] == before and h.table.illegal == {1: 0}
    with pytest.raises(IllegalMoveError):
        h.table.arbiter("cancel-penalty", h.t, index=0)
    same_after_replay(h)


@pytest.mark.parametrize("code, result, score", [
    ("1-0", "1-0", (1.0, 0.0)), ("-+", "0-1", (0.0, 1.0)), ("--", "*", (0.0, 0.0)), ("0-0", "*", (0.0, 0.0)),
    ("1/2-1/2", "1/2-1/2", (0.5, 0.5)),
])
def test_the_arbiter_sets_any_result_forfeits_and_0_0_included(code, result, score):
    h = Harness()
    h.start()
    h.table.arbiter("result", h.t, result=code)
    assert h.s.is_over and h.table.result_code() == result and h.table.score() == score
    same_after_replay(h)


def test_the_arbiter_takes_moves_back_and_ends_a_game():
    h = Harness()
    h.start()
    for a, b in (("e2", "e4"), ("e7", "e5"), ("g1", "f3")):
        h.play(a, b)
    h.table.arbiter("takeback", h.t, turns=2)
    assert h.sans() == ["e4"] and h.s.turn == 1 and h.table.clock.running == 1 and h.table.clock.paused
    assert h.table.clock.moves == (1, 0) and h.board.status == "setup"
    h.fix_board()
    h.table.arbiter("resume", h.t)
    h.play("c7", "c5")
    h.table.arbiter("end", h.t)
    assert h.s.is_over and h.table.result_code() == "*"
    text = record_text(h.table)
    assert "Arbiter: 2 moves taken back." in text and '[Termination "unterminated"]' in text
    same_after_replay(h)


def test_a_bad_arbiter_request_changes_nothing():
    h = Harness()
    h.start()
    before = list(h.journal)
    for op, args in (("set-time", {"side": 2, "ms": 5}), ("set-time", {"side": 0, "ms": -1}),
                     ("takeback", {"turns": 1}), ("result", {"result": "2-0"}), ("resume", {})):
        with pytest.raises((IllegalMoveError, RecordError)):
            h.table.arbiter(op, h.t, **args)
    with pytest.raises(IllegalMoveError):
        h.table.arbiter("dance", h.t)
    assert h.journal == before


# ----- the clock after a power cut ---------------------------------------------------------------------


def test_after_a_power_cut_the_clock_is_paused_where_it_stood():
    h = Harness()
    h.start()
    h.play("e2", "e4", think=10_000)
    back = h.replayed()
    back.attach(h.journal.append)
    out = back.after_power_cut(spent=7_000, t=999_999)  # the checkpoint: Black had thought 7 s
    (restored,) = [o for o in out if isinstance(o, PowerRestored)]
    assert back.clock.paused and restored.times[1] == 5400 * S - 7_000
    assert "the time it was off counts against nobody" in record_text(back)
    again, used, problem = Table.replay(h.journal)
    assert fingerprint(again) == fingerprint(back)


# ----- casual play ---------------------------------------------------------------------------------------


def test_a_clock_that_presses_itself_records_move_and_press_as_one():
    h = Harness(mode="casual", control="180+2", auto_press=True)
    h.table.attach(h.journal.append)
    h.start()
    h.t += 3000
    h.move("e2", "e4")
    h.settle(500)
    assert h.sans() == ["e4"] and h.table.clock.running == 1
    assert [e["type"] for e in h.journal[2:]] == ["clock-start", "press"] and h.journal[-1]["move"] == "e2e4"
    same_after_replay(h)


def test_tournament_mode_is_for_chess_and_combat_chess_without_a_computer():
    with pytest.raises(ClockError, match="no tournament mode"):
        Table.new(GameSetup("dungeon", (Seat("A"), Seat("B"))), TableSetup("tournament", "300"))
    with pytest.raises(ClockError, match="no computer"):
        Table.new(GameSetup("chess", (Seat("A"), Seat("C", True, 1))), TableSetup("tournament", "300"))
    with pytest.raises(IllegalMoveError, match="only the arbiter"):
        h = Harness()
        h.table.undo(0)


def test_a_journal_written_before_tables_replays_as_a_casual_game_without_clock():
    from companion.session import Session

    log = []
    s, _ = Session.new(GameSetup("chess", (Seat("A"), Seat("B"))), recorder=log.append)
    s.play("e2e4")
    table, used, problem = Table.replay(log)
    assert problem is None and table.clock is None and [m.san for m in table.session.moves] == ["e4"]


def test_a_casual_draw_offer_and_resignation_made_on_the_session_replay():
    """A casual game's draw offer (and a resignation) are session actions in the journal, of the
    same type names as the table's entries but without ``spent``: replayed as what they are."""
    log = []
    table, _ = Table.new(GameSetup("chess", (Seat("A"), Seat("B"))), TableSetup(), recorder=log.append)
    s = table.session
    s.play("e2e4")
    s.offer_draw(1)
    s.answer_draw(False)
    s.play("e7e5")
    s.resign(0)
    again, used, problem = Table.replay(log)
    assert problem is None and used == len(log)
    assert [m.san for m in again.session.moves] == ["e4", "e5"] and again.session.result == s.result
    assert [e for e, _ in again.entries] == log[2:] == [e for e, _ in table.entries]
