"""The session's game flow: moves, the end of the game, resign, draws, undo, the computer seat."""

import hashlib

import pytest

from companion.errors import IllegalMoveError, VariantError, DiceError
from companion.session import (
    DrawDeclined, DrawOffered, GameOver, GameSetup, MovePlayed, Seat, TurnsUndone, Session,
)
from tests.session_helpers import HUMANS, SEED_HEX, VS_COMPUTER, event_types, new_session, play_all, setup


def test_a_new_game_publishes_the_commitment_of_the_seed_not_the_seed():
    session, events = Session.new(setup(dice="seeded"))
    assert event_types(events) == ["GameStarted"]
    assert events[0].commitment == hashlib.sha256(bytes.fromhex(SEED_HEX)).hexdigest()
    assert session.record.commitment == events[0].commitment
    assert session.record.revealed_seed is None


def test_moves_are_listed_in_standard_notation_with_the_player_who_made_them():
    s = new_session(game="chess", dice="virtual")
    events = play_all(s, "e2e4", "e7e5", "g1f3")
    assert [e.entry.san for e in events if isinstance(e, MovePlayed)] == ["e4", "e5", "Nf3"]
    assert [m.player for m in s.moves] == [0, 1, 0]
    assert s.turn == 1
    assert s.last_move() == (s.rules.geometry.parse_square("g1"), s.rules.geometry.parse_square("f3"))


def test_an_illegal_move_is_refused_and_nothing_is_recorded():
    written = []
    s = new_session(recorder=written.append, game="chess", dice="virtual")
    before = s.pos.snapshot()
    with pytest.raises(IllegalMoveError):
        s.play("e2e5")
    assert len(written) == 1  # the start entry only
    assert s.pos.snapshot() == before


def test_every_action_is_recorded_before_it_takes_effect():
    seen = []
    s = None

    def recorder(entry):
        seen.append((entry.get("type"), len(s.moves) if s is not None else None))

    s, _ = Session.new(setup(game="chess", dice="virtual"), recorder=recorder)
    s.play("e2e4")
    assert seen[-1] == ("move", 0)  # written while the move list was still empty


def test_checkmate_ends_the_game_with_the_winner():
    s = new_session(game="chess", dice="virtual")
    events = play_all(s, "f2f3", "e7e5", "g2g4", "d8h4")
    over = [e for e in events if isinstance(e, GameOver)]
    assert over and over[0].result.winners == {1} and over[0].result.reason == "checkmate"
    assert s.moves[-1].san == "Qh4#"
    with pytest.raises(IllegalMoveError):
        s.play("a2a3")


def test_check_is_reported_for_the_side_to_move():
    s = new_session(game="chess", dice="virtual")
    play_all(s, "e2e4", "f7f6", "d1h5")
    assert s.in_check()


def test_resigning_gives_the_game_to_the_other_player():
    s = new_session(game="chess", dice="virtual")
    events = s.resign(0)
    assert events[-1].result.winners == {1} and events[-1].result.reason == "resigned"
    assert s.is_over and not s.can_undo()


def test_a_draw_offer_waits_for_an_answer_and_blocks_moves_meanwhile():
    s = new_session(game="chess", dice="virtual")
    assert event_types(s.offer_draw(0)) == ["DrawOffered"]
    with pytest.raises(IllegalMoveError):
        s.play("e2e4")
    declined = s.answer_draw(False)
    assert isinstance(declined[0], DrawDeclined) and declined[0].player == 1
    s.play("e2e4")
    s.offer_draw(1)
    over = s.answer_draw(True)
    assert over[-1].result.is_draw and over[-1].result.reason == "draw agreed"


def test_answering_without_an_offer_is_refused():
    s = new_session(game="chess", dice="virtual")
    with pytest.raises(IllegalMoveError):
        s.answer_draw(True)


def test_the_computer_declines_a_draw_when_material_is_level_and_accepts_when_behind():
    written = []
    s = new_session(recorder=written.append, game="chess", dice="virtual", seats=VS_COMPUTER)
    events = s.offer_draw(0)
    assert event_types(events) == ["DrawOffered", "DrawDeclined"]
    assert [w["type"] for w in written[1:]] == ["offer-draw", "answer-draw"]
    behind = new_session(game="chess", dice="virtual", seats=VS_COMPUTER,
                         start="rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    assert behind.offer_draw(0)[-1].result.reason == "draw agreed"


def test_undo_against_a_person_takes_back_one_move():
    s = new_session(game="chess", dice="virtual", seats=HUMANS)
    play_all(s, "e2e4", "e7e5")
    events = s.undo()
    assert [m.san for m in events[0].entries] == ["e5"]
    assert [m.san for m in s.moves] == ["e4"] and s.turn == 1


def test_undo_against_the_computer_takes_back_its_reply_too():
    s = new_session(game="chess", dice="virtual", seats=VS_COMPUTER)
    start = s.pos.snapshot()
    play_all(s, "e2e4", "e7e5")
    events = s.undo()
    assert isinstance(events[0], TurnsUndone) and len(events[0].entries) == 2
    assert s.pos.snapshot() == start and s.turn == 0


def test_undo_while_the_computer_thinks_takes_back_the_players_move():
    s = new_session(game="chess", dice="virtual", seats=VS_COMPUTER)
    s.play("e2e4")
    assert s.computer_to_move() == 1
    s.undo()
    assert s.moves == [] and s.turn == 0 and s.computer_to_move() is None


def test_undo_with_a_computer_playing_white_stops_when_nothing_is_left():
    s = new_session(game="chess", dice="virtual", seats=(Seat("Computer", True, 1), Seat("Player 1")))
    s.play("e2e4")  # the computer's move, made on the board by a person
    s.undo()
    assert s.moves == [] and s.computer_to_move() == 0


def test_undo_with_nothing_played_is_refused():
    s = new_session(game="chess", dice="virtual")
    with pytest.raises(IllegalMoveError):
        s.undo()


def test_captured_pieces_are_listed_for_their_owner():
    s = new_session(game="chess", dice="virtual")
    play_all(s, "e2e4", "d7d5", "e4d5", "d8d5")
    assert s.captured(1) == ["pawn"] and s.captured(0) == ["pawn"]


def test_set_up_errors_name_the_problem():
    with pytest.raises(VariantError, match="unknown game"):
        GameSetup("checkers", HUMANS)
    with pytest.raises(VariantError, match="2 players"):
        GameSetup("chess", HUMANS[:1])
    with pytest.raises(DiceError, match="need a seed"):
        GameSetup("combat", HUMANS, "seeded")
    with pytest.raises(DiceError, match="only seeded"):
        GameSetup("combat", HUMANS, "virtual", seed="00")
    with pytest.raises(DiceError, match="one of"):
        GameSetup("combat", HUMANS, "loaded")
    with pytest.raises(DiceError, match="no dice"):
        GameSetup("chess", HUMANS, d6_only=True)
    with pytest.raises(VariantError, match="level"):
        Seat("Computer", computer=True, level=0)
    with pytest.raises(VariantError, match="name"):
        Seat("  ")


def test_an_action_that_cannot_be_saved_is_refused_and_changes_nothing():
    from companion.errors import RecordError

    def broken(entry):
        if entry["type"] != "start":
            raise OSError(28, "No space left on device")

    s = new_session(recorder=broken, game="chess", dice="virtual")
    with pytest.raises(RecordError, match="No space left"):
        s.play("e2e4")
    assert s.moves == [] and s.turn == 0
