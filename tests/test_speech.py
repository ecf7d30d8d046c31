"""What the board says (companion/speech, pure): moves in words, the listener of the game's
events, the clock's warnings, a lifted piece, the queue that lets a newer announcement cut a
stale one short, and the board's speech settings. No voice here (tests/test_speech_voice.py)."""

from __future__ import annotations

import pytest

from companion.board.ports import SquareChanged
from companion.board.tracker.outputs import GuidanceChanged, IllegalMoveShown
from companion.errors import CompanionError
from companion.i18n import Language
from companion.session import GameSetup, Seat, Session
from companion.speech import words as W
from companion.speech.announcements import Announcement, Kind, Priority, SpeechSettings
from companion.speech.announcer import GUIDANCE_SETTLE_MS, HOLD_MS, Announcer, TurnView
from companion.speech.cli import _view, sentences
from companion.speech.moves import SpokenMove
from companion.speech.schedule import Say, SpeechQueue, Stop

EN = Language.load("en")
DE = Language.load("de")


def test_the_german_catalog_is_compiled_for_these_tests():
    assert not DE.missing, "run companion/install.sh: it compiles companion/locale/*/LC_MESSAGES/*.mo"


@pytest.mark.parametrize("san, spoken", [
    ("Nxe5+", SpokenMove("knight", "e5", capture=True, check="check")),
    ("exd5", SpokenMove("pawn", "d5", capture=True)),
    ("e4", SpokenMove("pawn", "e4")),
    ("Bb5", SpokenMove("bishop", "b5")),
    ("Nbd7", SpokenMove("knight", "d7")),
    ("R1xa4", SpokenMove("rook", "a4", capture=True)),
    ("e8=Q#", SpokenMove("pawn", "e8", promotion="queen", check="mate")),
    ("O-O", SpokenMove("king", "", castle="short")),
    ("O-O-O+", SpokenMove("king", "", castle="long", check="check")),
])
def test_a_move_of_standard_notation_is_read_into_what_is_said(san, spoken):
    assert SpokenMove.from_san(san) == spoken


def test_what_is_not_standard_notation_is_not_read():
    assert SpokenMove.from_san("e2e4hex") is None
    assert SpokenMove.from_san("Kd4 whirl") is None


@pytest.mark.parametrize("san, english, german", [
    ("Nxe5+", "Knight takes e5, check", "Springer schlägt auf e5, Schach"),
    ("e4", "Pawn e4", "Bauer e4"),
    ("Qxf7#", "Queen takes f7, checkmate", "Dame schlägt auf f7, schachmatt"),
    ("e8=Q", "Pawn e8, becomes a queen", "Bauer e8, wird Dame"),
    ("O-O", "Castles kingside", "Kurze Rochade"),
])
def test_a_move_in_words_in_english_and_german(san, english, german):
    m = SpokenMove.from_san(san)
    assert W.move(EN, m) == english
    assert W.move(DE, m) == german


def test_german_notation_has_german_piece_letters():
    assert DE.piece_letters == {"K": "K", "Q": "D", "R": "T", "B": "L", "N": "S", "P": "B"}
    assert DE.san("Nxe5+") == "Sxe5+"
    assert DE.san("exd8=Q#") == "exd8=D#"
    assert DE.san("O-O") == "O-O"
    assert EN.san("Nxe5") == "Nxe5"


def test_plural_forms_come_from_the_catalog():
    assert W.taken_back(EN, 1) == "1 move taken back."
    assert W.taken_back(EN, 2) == "2 moves taken back."
    assert W.taken_back(DE, 1) == "1 Zug zurückgenommen."
    assert W.taken_back(DE, 3) == "3 Züge zurückgenommen."


def test_a_square_name_is_read_letter_apart_from_number():
    assert W.for_voice("Knight takes e5, check") == "Knight takes E 5, check"
    assert W.for_voice("Bauer von Weiß auf h10") == "Bauer von Weiß auf H 10"


# --- the listener ----------------------------------------------------------------------------------------
def combat_session(dice=None) -> Session:
    setup = GameSetup("combat", (Seat("Anna"), Seat("Ben")), "seeded", False, "t", "5eed" * 16)
    session, _ = Session.new(setup, source=dice)
    return session


def listener(session, language=EN) -> Announcer:
    return Announcer(language, ["white", "black"], session.rules, lambda: session.pos)


def texts(announcements) -> list[str]:
    return [a.text for a in announcements]


def test_each_move_is_said_as_the_game_takes_it():
    s = combat_session()
    a = listener(s)
    said = a.hear(s.play("e2e4"), 0)
    assert texts(said) == ["Pawn e4"]
    assert said[0].priority == Priority.MOVE and said[0].kind == Kind.MOVE and said[0].language == "en"


def test_a_fight_its_dice_and_its_end_are_said():
    from tests.session_helpers import FixedDice

    s = combat_session(FixedDice(6, 1))
    a = listener(s)
    for m in ("e2e4", "d7d5"):
        a.hear(s.play(m), 0)
    said = texts(a.hear(s.play("e4d5"), 0))
    assert said == ["Pawn takes d5", "Fight on d5: the white pawn against the black pawn. Roll the dice."]
    said = texts(a.hear(s.roll(), 0))
    assert said[0].startswith("Attacker: 6, makes ")
    assert "Defender: 1, makes " in said[0]
    assert said[-1] == "The attacker wins: the white pawn takes d5."


def test_the_computers_move_is_said_when_chosen_and_not_again_when_made():
    s = combat_session()
    a = listener(s)
    move = s.rules.parse_move(s.pos, "g1f3")
    said = a.computer_move(0, SpokenMove.from_rules(s.rules, s.pos, move), move.frm, move.to)
    assert texts(said) == ["White: Knight f3"]
    assert a.hear(s.play("g1f3"), 0) == []
    assert texts(a.hear(s.play("g8f6"), 0)) == ["Knight f6"]


def test_whose_turn_is_said_when_it_changes_and_only_then():
    a = Announcer(EN, ["white", "black"])
    assert texts(a.turn(TurnView(0))) == ["White to move"]
    assert a.turn(TurnView(0)) == []
    said = a.turn(TurnView(1))
    assert texts(said) == ["Black to move"] and said[0].priority == Priority.CHATTER
    assert a.turn(TurnView(1, over=True)) == []


def test_a_duels_secret_bid_is_asked_of_each_player_whose_bid_is_missing():
    a = Announcer(EN, ["white", "black"])
    assert texts(a.turn(TurnView(0, "bids", (1, 0)))) == ["Black, choose your bid in secret."]
    assert texts(a.turn(TurnView(0, "bids", (0,)))) == ["White, choose your bid in secret."]
    assert texts(Announcer(DE, ["white", "black"]).turn(TurnView(0, "bids", (1,)))) == \
        ["Schwarz, wähle dein Gebot geheim."]


def test_a_chess2_duel_is_announced_from_a_real_game():
    said = texts(sentences(EN, "chess2", ["e2e4", "d7d5", "e4d5"]))
    assert said[-1] == "Black: start a duel? Choose on the screen."


def test_a_dungeon_ability_is_said_from_the_turns_effects():
    text = W.ability(EN, ("explosion", 28, "Bomb", 1), lambda sq: "e4", lambda p: "red")
    assert text == "Bomb explodes on e4!"
    assert W.ability(EN, ("eliminated", 2, (3, 4)), str, lambda p: "blue") == "Blue is out."
    assert W.ability(EN, ("captured", 28, "Troll", 1), str, str) == ""  # the move says it
    assert W.ability(EN, ("hex",), str, str) == ""  # a shape this version does not know


def test_guidance_is_said_once_it_has_stood_and_not_twice():
    a = Announcer(EN, ["white", "black"])
    assert a.hear([GuidanceChanged("Put the white bishop back on c1.")], 1000) == []
    assert a.tick(1000 + GUIDANCE_SETTLE_MS - 1) == []
    said = a.tick(1000 + GUIDANCE_SETTLE_MS)
    assert texts(said) == ["Put the white bishop back on c1."] and said[0].kind == Kind.GUIDANCE
    assert a.tick(9000) == []
    a.hear([GuidanceChanged("Put the white bishop back on c1.")], 9000)  # the same again: said
    assert a.tick(20000) == []
    a.hear([GuidanceChanged("")], 20000)
    a.hear([GuidanceChanged("Put the white bishop back on c1.")], 21000)  # after agreement: new
    assert texts(a.tick(21000 + GUIDANCE_SETTLE_MS)) == ["Put the white bishop back on c1."]


def test_guidance_that_changes_before_it_settles_is_not_said():
    a = Announcer(EN, ["white", "black"])
    a.hear([GuidanceChanged("Move the white knight from g1 to f3.")], 0)
    a.hear([GuidanceChanged("")], 500)
    assert a.tick(5000) == []


def test_a_wrong_placement_is_said_at_once():
    said = Announcer(EN, ["white"]).hear([IllegalMoveShown((28,), (12,), "The white knight cannot go to e4.")], 0)
    assert texts(said) == ["The white knight cannot go to e4."]


def test_a_lifted_piece_says_what_it_is_and_counts_its_moves_then_where_they_go():
    s = combat_session()
    a = listener(s)
    g1 = s.rules.geometry.parse_square("g1")
    said = a.hear([SquareChanged(g1, False, 100)], 100)
    assert texts(said) == ["The white knight on g1: 2 moves."]
    assert said[0].priority == Priority.CHATTER and said[0].kind == Kind.PIECE
    assert a.tick(100 + HOLD_MS - 1) == []
    assert texts(a.tick(100 + HOLD_MS)) == ["To f3 and h3."]
    assert a.tick(100 + 2 * HOLD_MS) == []
    assert a.hear([SquareChanged(g1, True, 5000)], 5000) == []


def test_a_lifted_piece_put_back_at_once_says_no_targets():
    s = combat_session()
    a = listener(s, DE)
    said = a.hear([SquareChanged(62, False, 0)], 0)  # g8: Black's knight, White to move
    assert texts(said) == ["Springer von Schwarz auf g8."]
    a.hear([SquareChanged(62, True, 300)], 300)
    assert a.tick(5000) == []


def test_the_clock_warns_at_a_minute_and_at_ten_seconds_once_each():
    a = Announcer(EN, ["white", "black"])
    assert a.clock((300_000, 300_000), 0) == []
    assert a.clock((60_001, 300_000), 0) == []
    assert texts(a.clock((60_000, 300_000), 0)) == ["White: 1 minute left."]
    assert a.clock((59_000, 300_000), 0) == []
    said = a.clock((9_000, 300_000), 0)
    assert texts(said) == ["White: 10 seconds left."] and said[0].priority == Priority.URGENT
    assert a.clock((5_000, 300_000), 0) == []


def test_a_clock_warning_comes_again_only_after_time_was_added_above_it():
    a = Announcer(DE, ["white", "black"])
    a.clock((120_000, 120_000), 1)
    assert texts(a.clock((120_000, 50_000), 1)) == ["Schwarz: noch 1 Minute."]
    a.clock((120_000, 80_000), 0)  # the arbiter added time
    assert texts(a.clock((120_000, 59_000), 1)) == ["Schwarz: noch 1 Minute."]


def test_a_game_started_short_of_time_gives_only_the_warnings_still_ahead():
    a = Announcer(EN, ["white", "black"])
    assert a.clock((30_000, 30_000), 0) == []
    assert texts(a.clock((10_000, 30_000), 0)) == ["White: 10 seconds left."]


def test_passing_both_warnings_at_once_says_the_nearer_one():
    a = Announcer(EN, ["white", "black"])
    a.clock((90_000, 90_000), 0)
    assert texts(a.clock((8_000, 90_000), 0)) == ["White: 10 seconds left."]


def test_the_result_is_said():
    said = sentences(EN, "chess", ["e2e4", "e7e5", "d1h5", "b8c6", "f1c4", "g8f6", "h5f7"])
    assert said[-1].text == "White wins: checkmate." and said[-1].kind == Kind.RESULT
    assert said[-2].text == "Queen takes f7, checkmate"
    german = sentences(DE, "chess", ["f2f3", "e7e5", "g2g4", "d8h4"])
    assert [a.text for a in german][-2:] == ["Dame h4, schachmatt", "Schwarz gewinnt: Schachmatt."]


def test_a_game_on_a_map_is_announced_from_its_start():
    said = texts(sentences(EN, "dungeon", []))
    assert said[0] == "A new game. Set up the pieces on the lit squares."


def test_the_turn_view_of_a_session():
    s = combat_session()
    assert _view(s) == TurnView(0, None, (), False)


# --- what is said next ---------------------------------------------------------------------------------
def ann(text, priority=Priority.INFO, kind=Kind.FIGHT) -> Announcement:
    return Announcement(text, "en", priority, kind)


ON = SpeechSettings(on=True)


def test_speech_is_off_unless_turned_on():
    q = SpeechQueue(SpeechSettings())
    assert q.offer([ann("Pawn e4", Priority.MOVE, Kind.MOVE)]) == []


def test_a_newer_move_cuts_a_stale_one_short():
    q = SpeechQueue(ON)
    first, second = ann("Pawn e4", Priority.MOVE, Kind.MOVE), ann("Pawn e5", Priority.MOVE, Kind.MOVE)
    assert q.offer([first]) == [Say(first)]
    assert q.offer([second]) == [Stop(), Say(second)]
    assert q.finished() == []


def test_a_batch_is_said_in_order_and_not_cut_by_itself():
    q = SpeechQueue(ON)
    move, fight = ann("Pawn takes d5", Priority.MOVE, Kind.MOVE), ann("Fight on d5")
    assert q.offer([move, fight]) == [Say(move)]
    assert q.finished() == [Say(fight)]
    assert q.finished() == []


def test_a_less_important_announcement_waits_and_stale_ones_of_its_kind_are_replaced():
    q = SpeechQueue(ON)
    move = ann("Knight f3", Priority.MOVE, Kind.MOVE)
    q.offer([move])
    old, new = ann("Black to move", Priority.CHATTER, Kind.TURN), ann("White to move", Priority.CHATTER, Kind.TURN)
    assert q.offer([old]) == []
    assert q.offer([new]) == []
    assert q.finished() == [Say(new)]


def test_the_result_cuts_everything_short_and_drops_what_waited():
    q = SpeechQueue(ON)
    q.offer([ann("Fight on d5"), ann("Roll the dice.")])
    result = ann("White wins.", Priority.URGENT, Kind.RESULT)
    assert q.offer([result]) == [Stop(), Say(result)]
    assert q.finished() == []


def test_moves_only_says_the_moves_and_the_result():
    q = SpeechQueue(SpeechSettings(on=True, moves_only=True))
    assert q.offer([ann("White to move", Priority.CHATTER, Kind.TURN)]) == []
    move = ann("Pawn e4", Priority.MOVE, Kind.MOVE)
    assert q.offer([move, ann("Fight on e4")]) == [Say(move)]
    assert q.finished() == []


def test_turning_speech_off_stops_it():
    q = SpeechQueue(ON)
    q.offer([ann("a"), ann("b")])
    assert q.silence() == [Stop()]
    assert q.finished() == []


def test_a_board_keeps_its_speech_settings_as_json_and_refuses_bad_ones():
    s = SpeechSettings(on=True, volume=60, moves_only=True)
    assert SpeechSettings.from_json(s.to_json()) == s
    assert SpeechSettings() == SpeechSettings(on=False, volume=80, moves_only=False)
    with pytest.raises(CompanionError, match="volume"):
        SpeechSettings.from_json({"on": True, "volume": 101})
    with pytest.raises(CompanionError, match="unknown"):
        SpeechSettings.from_json({"on": True, "loud": 1})
    with pytest.raises(CompanionError):
        SpeechSettings.from_json({"on": "yes"})
    assert SpeechSettings(volume=100).louder().volume == 20
    assert SpeechSettings(volume=40).louder().volume == 60
