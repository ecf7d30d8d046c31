"""Chess 2 in the session: the armies in the set-up, secret bids sealed one part at a time (the
journal holds each; nobody sees one before both are in), the turn's effects kept with its move,
the move list in standard notation, Load / Save of a game with duels."""

from __future__ import annotations

import re

import pytest

from companion.errors import IllegalMoveError, RecordError, VariantError
from companion.gametext import format_game, load_game
from companion.journal import JournalStore, resume
from companion.session import (AnswerPlayed, GameSetup, PartSealed, PlayPart, Seat, Session, action_from_json,
                               action_to_json, start_from_json, start_to_json)

PEOPLE = (Seat("Ann"), Seat("Ben"))


def chess2(armies: str = "classic,classic", bids: str = "screen", start: str | None = None, **kw) -> GameSetup:
    return GameSetup("chess2", PEOPLE, options={"armies": armies}, bids=bids, start=start, game_id="c2", **kw)


def to_bids(s: Session) -> Session:
    """1. e4 d5 2. exd5, Black duels: the joint bids decision is pending."""
    for m in ("e2e4", "d7d5", "e4d5"):
        s.play(m)
    s.play_answer("duel")
    assert s.joint_decision() is not None
    return s


def test_the_armies_are_a_game_option_of_the_set_up_and_survive_the_journal():
    setup = chess2("two-kings,animals", bids="stones")
    back = start_from_json(start_to_json(setup))
    assert back == setup and back.option_values == {"armies": "two-kings,animals"} and back.bids == "stones"
    s, _ = Session.new(back)
    assert s.rules.armies == ("two-kings", "animals")


def test_a_set_up_without_options_or_bids_reads_as_before():
    setup = GameSetup("chess", PEOPLE)
    assert "options" not in setup.to_json() and "bids" not in setup.to_json()
    assert start_from_json(start_to_json(setup)) == setup


@pytest.mark.parametrize("kw,message", [
    (dict(game="chess", seats=PEOPLE, options={"armies": "classic,classic"}), "unknown option 'armies' for chess"),
    (dict(game="chess2", seats=PEOPLE, options={"colour": "red"}), "unknown option 'colour' for chess2"),
    (dict(game="chess2", seats=PEOPLE, bids="fists"), "bids must be one of screen, stones"),
    (dict(game="chess", seats=PEOPLE, bids="stones"), "chess has no bids to enter"),
])
def test_bad_game_options_are_refused_in_one_line(kw, message):
    with pytest.raises(VariantError, match=message):
        GameSetup(**kw)


def test_an_unknown_army_is_refused_when_the_game_is_built():
    with pytest.raises(VariantError, match="unknown Chess 2 army 'dragons'"):
        Session.new(chess2("classic,dragons"))


def test_a_journal_with_bad_options_is_a_record_error_naming_the_field():
    entry = start_to_json(chess2())
    entry["setup"]["options"] = ["armies"]
    with pytest.raises(RecordError, match="'options' must be an object of texts"):
        start_from_json(entry)


# --- secret bids, one sealed part at a time ------------------------------------------------------

def test_each_bid_is_sealed_and_the_duel_is_decided_only_when_both_are_in():
    s = to_bids(Session.new(chess2())[0])
    assert s.parts_missing() == (0, 1) and s.part_options(1) == (0, 1, 2)
    events = s.play_part(1, 2)
    assert events == [PartSealed(1)]  # the defender's bid is in, and not told
    assert s.sealed_players == (1,) and s.parts_missing() == (0,) and s.pos.pending.kind == "bids"
    events = s.play_part(0, 1)
    assert PartSealed(0) in events and any(isinstance(e, AnswerPlayed) and e.text == "1-2" for e in events)
    assert s.sealed_players == () and s.joint_decision() is None
    assert ("bids", 1, 2, "defender") in s.moves[-1].effects


def test_the_order_of_the_parts_does_not_matter():
    a = to_bids(Session.new(chess2())[0])
    b = to_bids(Session.new(chess2())[0])
    a.play_part(0, 0)
    a.play_part(1, 0)
    b.play_part(1, 0)
    b.play_part(0, 0)
    assert a.pos.snapshot() == b.pos.snapshot() and a.pos.pending.kind == "bluff"


@pytest.mark.parametrize("player,part,message", [
    (0, "3", "'3' is not possible for player 1 \\(possible: 0, 1, 2\\)"),
    (2, "1", "player 3 has no part in this bids decision"),
    (1, "two", "'two' is not possible"),
])
def test_an_impossible_part_is_refused_in_one_line_and_nothing_is_written(player, part, message):
    written = []
    s, _ = Session.new(chess2(), recorder=written.append)
    to_bids(s)
    n = len(written)
    with pytest.raises(IllegalMoveError, match=message):
        s.play_part(player, part)
    assert len(written) == n and s.sealed_players == ()


def test_a_part_cannot_be_given_twice_nor_the_answer_typed_around_a_sealed_part():
    s = to_bids(Session.new(chess2())[0])
    s.play_part(0, 1)
    with pytest.raises(IllegalMoveError, match="player 1's bids part is in already"):
        s.play_part(0, 2)
    with pytest.raises(IllegalMoveError, match="enter the other player's bid"):
        s.play_answer("1-1")


def test_no_more_than_the_stones_owned():
    """"you each put 0, 1, or 2 stones in your closed fists": never more than you have."""
    s, _ = Session.new(chess2(start="rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2 "
                                    "armies=classic,classic stones=1,3"))
    s.play("e4d5")
    s.play_answer("duel")
    assert s.part_options(0) == (0, 1)
    with pytest.raises(IllegalMoveError, match="'2' is not possible for player 1"):
        s.play_part(0, 2)


def test_a_part_without_a_joint_decision_is_refused():
    s, _ = Session.new(chess2())
    with pytest.raises(IllegalMoveError, match="no secret choice"):
        s.play_part(0, 1)


def test_undo_takes_a_sealed_part_back_with_its_turn():
    s = to_bids(Session.new(chess2())[0])
    s.play_part(0, 2)
    s.undo()
    assert s.sealed_players == () and s.pos.pending is None and len(s.moves) == 2


def test_a_part_round_trips_through_json():
    action = PlayPart(1, "2")
    assert action_from_json(action_to_json(action)) == action
    with pytest.raises(RecordError, match="'player' must be a whole number of at least 0"):
        action_from_json({"type": "part", "player": -1, "part": "1"})


def test_a_power_cut_with_one_bid_in_resumes_in_the_same_duel_with_that_bid_sealed(tmp_path):
    """The journal holds the sealed bid; the resumed game waits for the other one and decides
    the duel with both, exactly as if nothing had happened."""
    store = JournalStore(tmp_path)
    s, _ = Session.new(chess2(), recorder=store.create().append)
    to_bids(s)
    s.play_part(1, 2)
    back = resume(store, Session.replay)
    r = back.game
    assert back.loss is None and r.pos.pending.kind == "bids"
    assert r.sealed_players == (1,) and r.parts_missing() == (0,)
    r.recorder = back.journal.append
    r.play_part(0, 1)
    s.play_part(0, 1)
    assert r.pos.snapshot() == s.pos.snapshot() and r.moves == s.moves


# --- what a turn did, the move list -----------------------------------------------------------------

def test_the_turn_keeps_its_effects_in_order_across_its_answers():
    s = to_bids(Session.new(chess2())[0])
    s.play_part(0, 0)
    s.play_part(1, 0)
    s.play_answer("destroy")
    effects = s.moves[-1].effects
    kinds = [e[0] for e in effects]
    assert kinds == ["duel", "bids", "stones", "captured", "stones"], effects
    assert ("stones", 1, -1, "bluff") in effects and ("stones", 0, 1, "pawn") in effects
    assert s.rules.stones(s.pos) == (4, 2)


def test_the_move_list_reads_as_chess_with_the_armies_letters():
    s, _ = Session.new(chess2("two-kings,animals"))
    s.play("e2e4")
    s.play_answer("e1e2")  # the king-turn: a Warrior King steps
    s.play("g8f6")
    assert [m.san for m in s.moves] == ["e4, Ke2", "Nf6"]


def test_a_whirlwind_and_a_rampage_in_the_move_list():
    s, _ = Session.new(chess2("two-kings,classic", start="4k3/8/8/8/3pK3/3P4/8/4K3 w - - 0 1 "
                                                         "armies=two-kings,classic"))
    assert s.rules.san(s.pos, s.rules.parse_move(s.pos, "e4e4")) == "Ke4 whirl"
    t, _ = Session.new(chess2("animals,classic", start="4k3/8/8/p7/p7/8/8/R3K3 w - - 0 1 armies=animals,classic"))
    assert t.rules.san(t.pos, t.rules.parse_move(t.pos, "a1a4")) == "Ra1xa4"


# --- Load / Save ----------------------------------------------------------------------------------

def test_a_game_with_duels_is_written_as_text_and_loaded_back():
    s = to_bids(Session.new(chess2("classic,animals"))[0])
    s.play_part(1, 1)
    s.play_part(0, 2)
    text = format_game(s)
    assert "setup options: {\"armies\":\"classic,animals\"}" in text
    assert "=duel part:2:1 part:1:2" in text
    back = load_game(text)
    assert back.pos.snapshot() == s.pos.snapshot() and back.rules.armies == ("classic", "animals")


def test_a_sealed_bid_is_never_written_in_the_text():
    s = to_bids(Session.new(chess2())[0])
    s.play_part(0, 2)
    text = format_game(s)
    assert "part:" not in text and "=duel" in text
    back = load_game(text)  # the duel waits for both bids again
    assert back.pos.pending.kind == "bids" and back.sealed_players == ()


def test_a_bad_part_token_names_its_line():
    text = format_game(to_bids(Session.new(chess2())[0])).replace("=duel", "=duel part:1")
    text = re.sub(r"(?m)^check: .*\n", "", text)  # edited by hand: its check line deleted
    with pytest.raises(RecordError, match=r"line \d+: 'part:1': expected part:<player>:<their part>"):
        load_game(text)
