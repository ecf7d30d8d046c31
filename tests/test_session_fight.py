"""Combat Chess fights through the session: odds first, dice from the source or the players,
ties, the three-tie bounce, fatigue, the dice record, undo, the seed revealed at the end."""

import pytest

from companion.dice.verify import verify_record
from companion.errors import DiceError, IllegalMoveError
from companion.session import DiceRolled, FightEnded, FightStarted, GameOver, Session
from tests.session_helpers import FixedDice, event_types, new_session, play_all, setup

EXD5 = ("e2e4", "d7d5", "e4d5")


def fight_session(*faces, **kw):
    session, _ = Session.new(setup(dice="virtual", **kw), source=FixedDice(*faces))
    return session


def test_a_capture_starts_a_fight_with_the_exact_odds_shown_before_rolling():
    s = fight_session()
    events = play_all(s, *EXD5)
    started = [e for e in events if isinstance(e, FightStarted)]
    assert len(started) == 1
    fight = started[0].fight
    assert fight.number == 1 and fight.round == 1 and fight.san == "exd5"
    assert fight.odds == s.rules.odds(s.pos)
    assert fight.odds.attacker + fight.odds.defender + fight.odds.bounce == 1
    assert fight.attacker.kind == "pawn" and fight.attacker.weapon_choice and fight.attacker.modifier == 1
    assert fight.defenders[0].kind == "pawn" and not fight.defenders[0].weapon_choice
    assert s.computer_to_move() is None  # nobody moves during a fight


def test_the_winner_of_a_round_takes_the_square_and_a_fatigue_token():
    s = fight_session(5, 2)  # 5+1 against 2
    play_all(s, *EXD5)
    events = s.roll()
    assert event_types(events) == ["DiceRolled", "FightEnded"]
    assert events[1].result == "attacker"
    d5 = s.rules.geometry.parse_square("d5")
    assert s.pos.board[d5].kind.name == "pawn" and s.pos.board[d5].owner == 0
    assert s.pos.board[d5].state["fatigue"] == 1
    assert s.moves[-1].fight == "attacker" and s.turn == 1


def test_a_lost_attack_removes_the_attacker_and_tires_the_defender():
    s = fight_session(1, 6)
    play_all(s, *EXD5)
    ended = s.roll()[-1]
    assert isinstance(ended, FightEnded) and ended.result == "defender"
    d5 = s.rules.geometry.parse_square("d5")
    assert s.pos.board[d5].owner == 1 and s.pos.board[d5].state["fatigue"] == 1
    assert s.captured(0) == ["pawn"]


def test_a_tie_is_rolled_again_and_the_third_tie_bounces_with_a_token_each():
    s = fight_session(4, 5, 2, 3, 5, 6)  # 4+1=5 vs 5, 2+1=3 vs 3, 5+1=6 vs 6
    play_all(s, *EXD5)
    first = s.roll()
    assert isinstance(first[0], DiceRolled) and first[0].round.result == "tie"
    assert first[0].fight.round == 2 and len(first[0].fight.rounds) == 1
    second = s.roll()
    assert second[0].round.result == "tie" and second[0].fight.round == 3
    third = s.roll()
    assert third[0].round.result == "bounce" and isinstance(third[1], FightEnded)
    assert third[1].result == "bounce" and len(third[1].rounds) == 3
    g = s.rules.geometry
    assert s.pos.board[g.parse_square("e4")].state["fatigue"] == 1
    assert s.pos.board[g.parse_square("d5")].state["fatigue"] == 1
    assert s.moves[-1].fight == "bounce" and s.turn == 1


def test_a_king_that_loses_a_fight_loses_the_game():
    s = fight_session(1, 6, start="4k3/8/8/8/8/8/3p4/4K3 w - - 0 1")
    s.play("e1d2")
    events = s.roll()
    over = [e for e in events if isinstance(e, GameOver)]
    assert over and over[0].result.winners == {1} and over[0].result.reason == "king lost a fight"


def test_entered_dice_are_checked_and_an_impossible_number_changes_nothing():
    written = []
    s = new_session(recorder=written.append, dice="entered")
    play_all(s, *EXD5)
    with pytest.raises(DiceError, match="enter the numbers"):
        s.roll()
    count = len(written)
    with pytest.raises(DiceError, match="1 to 6"):
        s.enter_dice([7], [[3]])
    with pytest.raises(DiceError):
        s.enter_dice([3], [[3], [4]])
    assert len(written) == count and s.pending_fight().round == 1
    events = s.enter_dice([6], [[1]])
    assert events[-1].result == "attacker"
    assert written[-1] == {"type": "roll", "attacker": [6], "defenders": [[1]], "source": "entered"}


def test_rolling_without_a_fight_is_refused():
    s = fight_session()
    with pytest.raises(IllegalMoveError, match="no fight"):
        s.roll()


def test_fatigue_from_earlier_fights_is_a_modifier_of_the_next_one():
    s = fight_session(6, 1, 6, 1)
    play_all(s, *EXD5)
    s.roll()  # white pawn wins, 1 token
    s.play("d8d5")  # the black queen attacks the tired pawn
    fight = s.pending_fight()
    assert fight.defenders[0].fatigue == 1 and fight.defenders[0].modifier == -1
    assert fight.attacker.dice.sides == 10


def test_only_d6_mode_rolls_two_d6_for_an_eight_sided_piece():
    s = new_session(dice="seeded", d6_only=True, start="4k3/8/8/3p4/8/4N3/8/4K3 w - - 0 1")
    s.play("e3d5")
    fight = s.pending_fight()
    assert fight.attacker.dice.count == 2 and fight.attacker.dice.sides == 6
    events = s.roll()
    assert len(events[0].round.attacker.fighters[0].faces) == 2


def test_a_seeded_game_reveals_its_seed_at_the_end_and_the_record_verifies():
    s = new_session(dice="seeded")
    play_all(s, *EXD5)
    while s.pending_fight() is not None:
        s.roll()
    s.play("b8c6")
    events = s.resign(1)
    assert events[-1].revealed_seed == s.setup.seed
    result = verify_record(s.record)
    assert result.status == "verified", result.problems


def test_undoing_a_fight_drops_its_rounds_from_the_record_and_the_fight_is_renumbered():
    s = new_session(dice="seeded")
    play_all(s, *EXD5)
    while s.pending_fight() is not None:
        s.roll()
    assert s.record.rounds
    s.undo()
    assert s.record.rounds == () and s.pos.var("fights", ()) == ()
    s.play("e4d5")
    assert s.pending_fight().number == 1
    while s.pending_fight() is not None:
        s.roll()
    s.resign(0)
    assert verify_record(s.record).status == "verified"


def test_undo_during_a_fight_takes_back_the_capture():
    s = fight_session(4, 5)
    play_all(s, *EXD5)
    s.roll()  # a tie: the fight goes on
    events = s.undo()
    assert [m.san for m in events[0].entries] == ["exd5"]
    assert s.pending_fight() is None and s.record.rounds == () and s.turn == 0


def test_a_piece_fight_history_names_its_fights_and_opponents():
    s = fight_session(5, 2)
    play_all(s, *EXD5)
    s.roll()
    d5 = s.rules.geometry.parse_square("d5")
    history = s.fight_history(s.pos.board[d5].uid)
    assert history == [{"number": 1, "move": "e4d5", "role": "attacker", "opponents": [("pawn", 1)],
                        "result": "attacker", "won": True, "rounds": 1}]
