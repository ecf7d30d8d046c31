"""The session with Dungeon Chess: 2 to 4 seats, the mid-turn choice (a Salamander's step)
journaled as its own action, the game replayed exactly from its journal (resume)."""

import pytest

from companion.errors import IllegalMoveError, MapError, RecordError, VariantError
from companion.session import (
    AnswerPlayed, GameOver, GameSetup, PlayAnswer, PlayerResigned, Resign, Seat, Session, action_from_json,
    action_to_json,
)
from tests.dungeon_board_games import QUICK_FOUR_SCRIPT
from tests.dungeon_ui_helpers import quick_four_text

FOUR = tuple(Seat(n, word=True) for n in ("Blue", "Red", "Green", "Yellow"))  # as the app names them: words


def four_player(recorder=None, seats=FOUR):
    setup = GameSetup("dungeon", seats, game_id="g1", start=quick_four_text(), board_map="dungeon-four-player")
    session, _ = Session.new(setup, recorder=recorder)
    return session


def play_script(session, count=None):
    for text, _ in QUICK_FOUR_SCRIPT[:count]:
        if session.pos.pending is not None:
            session.play_answer(text)
        else:
            session.play(text)


def test_dungeon_is_played_by_two_to_four_seats_and_chess_by_two():
    GameSetup("dungeon", FOUR, board_map="dungeon-four-player")
    GameSetup("dungeon", FOUR[:2])
    with pytest.raises(VariantError, match="chess is played by 2 players, got 4"):
        GameSetup("chess", FOUR)
    with pytest.raises(VariantError, match="dungeon is played by 2 to 4 players, got 5"):
        GameSetup("dungeon", FOUR + (Seat("Guest"),))


def test_the_seats_must_match_the_maps_players():
    setup = GameSetup("dungeon", FOUR[:2], board_map="dungeon-four-player")
    with pytest.raises(MapError, match="'dungeon-four-player' is for 3 or 4 players, not 2"):
        Session(setup)


def test_a_four_player_game_ends_with_the_last_king_standing():
    s = four_player()
    play_script(s)
    assert s.result.winners == frozenset({0}) and s.result.reason == "the last King standing"
    texts = [m.san for m in s.moves]
    assert texts[:4] == ["KN k14xm13", "SK b8-b9", "SL g9xh7-i8", "SM r12 hex q11"]
    assert texts[-2:] == ["pass", "WZ a10xa14"]
    assert [m.player for m in s.moves][:5] == [0, 1, 2, 3, 0]


def test_the_salamanders_step_is_an_answer_action_in_the_journal():
    written = []
    s = four_player(written.append)
    play_script(s, 3)
    assert s.pos.pending is not None and s.pos.pending.kind == "step"
    assert s.computer_to_move() is None  # a person answers
    events = s.play_answer("i8")
    assert isinstance(events[0], AnswerPlayed) and events[0].text == "i8"
    assert written[-1] == {"type": "answer", "answer": "i8"}
    assert s.moves[-1].san == "SL g9xh7-i8" and s.moves[-1].to == s.rules.geometry.parse_square("i8")


def test_a_wrong_answer_is_refused_before_anything_is_written():
    written = []
    s = four_player(written.append)
    play_script(s, 3)
    before = len(written)
    with pytest.raises(IllegalMoveError, match="'a1' is not one of the choices"):
        s.play_answer("a1")
    with pytest.raises(IllegalMoveError, match="is not a legal move"):
        s.play("k14m13")
    assert len(written) == before
    s.play_answer("stay")
    with pytest.raises(IllegalMoveError, match="no choice is waiting"):
        s.play_answer("stay")


def test_an_answer_round_trips_through_json_and_bad_entries_are_named():
    assert action_from_json(action_to_json(PlayAnswer("i8"))) == PlayAnswer("i8")
    with pytest.raises(RecordError, match="journal entry 7: field 'answer' must be text"):
        action_from_json({"type": "answer", "answer": 3}, "journal entry 7")
    with pytest.raises(RecordError, match="expected move, answer, roll"):
        action_from_json({"type": "bid"}, "entry")


def test_the_journal_replays_the_game_exactly_also_in_the_middle_of_a_turn():
    written = []
    s = four_player(written.append)
    play_script(s, 3)  # the Salamander's capture: its step still to choose
    back, used, problem = Session.replay(written)
    assert problem is None and used == len(written)
    assert back.rules.position_text(back.pos) == s.rules.position_text(s.pos)
    assert back.pos.pending == s.pos.pending and [m.san for m in back.moves] == [m.san for m in s.moves]
    s.recorder = written.append
    play_script_from = QUICK_FOUR_SCRIPT[3:]
    for text, _ in play_script_from:
        (s.play_answer if s.pos.pending is not None else s.play)(text)
    back, used, problem = Session.replay(written)
    assert problem is None and back.result == s.result and back.pos.snapshot() == s.pos.snapshot()


def test_undo_takes_back_a_capture_and_its_step_as_one_turn():
    s = four_player()
    play_script(s, 4)
    s.undo()
    assert s.pos.turn == 2 and s.pos.pending is None and len(s.moves) == 2
    assert s.rules.position_text(s.pos).count("SL") == 1 and s.pos.board[s.rules.geometry.parse_square("g9")] is not None


def test_undo_against_computers_goes_back_to_the_persons_move():
    seats = (Seat("Blue"), Seat("Red", True, 1), Seat("Green", True, 1), Seat("Yellow", True, 1))
    s = four_player(seats=seats)
    play_script(s, 9)  # two rounds: blue, red, green (a capture and its step), yellow
    assert s.turn == 0 and len(s.moves) == 8
    s.undo()  # yellow's, green's and red's replies go with blue's own move
    assert len(s.moves) == 4 and s.turn == 0


def test_a_computers_salamander_answers_its_own_step():
    seats = (Seat("Blue"), Seat("Red"), Seat("Green", True, 2), Seat("Yellow"))
    s = four_player(seats=seats)
    play_script(s, 3)
    assert s.computer_to_move() == 2


def test_with_more_than_two_players_nobody_offers_a_draw():
    written = []
    s = four_player(written.append)
    before = len(written)
    with pytest.raises(IllegalMoveError, match="more than two players nobody can offer a draw"):
        s.offer_draw(1)
    assert len(written) == before and s.result is None


def test_a_player_resigns_a_four_player_game_and_the_others_play_on():
    """Resign was missing with four players; now the player leaves as when their King falls."""
    written = []
    s = four_player(written.append)
    red = set(s.pos.occ[1])
    events = s.resign(1)  # Red resigns while Blue is to move
    assert isinstance(events[0], PlayerResigned) and events[0].player == 1 and s.result is None
    assert s.pos.var("out") == (1,) and not s.pos.occ[1] and s.pos.turn == 0
    assert s.pos.var("effects") == (("resigned", 1, tuple(sorted(red))),)
    assert s.moves[-1].san == "resigns" and s.last_move() is None
    with pytest.raises(IllegalMoveError, match="Red is out of the game already"):
        s.resign(1)
    replayed, used, problem = Session.replay(written)
    assert (used, problem) == (len(written), None)
    assert replayed.pos.var("out") == (1,) and replayed.pos.hash == s.pos.hash
    s.undo()
    assert s.pos.var("out", ()) == () and set(s.pos.occ[1]) == red and not s.moves


def test_resigning_the_player_to_move_passes_the_turn_and_the_last_two_end_the_game():
    s = four_player()
    s.resign(0)  # Blue to move resigns: Red's turn
    assert s.pos.turn == 1
    s.resign(2)
    assert s.result is None and s.pos.turn == 1
    events = s.resign(3)  # Yellow leaves Red alone: Red wins, Yellow's units stay where they are
    assert isinstance(events[-1], GameOver) and s.result.winners == frozenset({1})
    assert s.result.reason == "the last King standing" and s.pos.occ[3]


def test_a_two_player_dungeon_game_can_be_resigned():
    setup = GameSetup("dungeon", FOUR[:2], game_id="g2")
    s, _ = Session.new(setup)
    events = s.resign(1)
    assert isinstance(events[-1], GameOver) and s.result.winners == frozenset({0})
    assert isinstance(action_from_json(action_to_json(Resign(1))), Resign)


def test_three_seats_play_on_the_four_player_maps_three_player_seating():
    """"2-4 PLAYERS": three seats on the four-player map: south, west, north (docs/rules/dungeon.md)."""
    setup = GameSetup("dungeon", FOUR[:3], board_map="dungeon-four-player")
    s, _ = Session.new(setup)
    assert s.rules.nplayers == 3 and [seat.home for seat in s.rules.board_map.seats] == ["south", "west", "north"]
    s.play(s.rules.move_text(s.pos, s.rules.legal_moves(s.pos)[0]))
    assert s.turn == 1


def test_the_draw_rules_are_part_of_the_set_up_and_old_journals_keep_them_on():
    """The start screen's "Draws" choice is journaled with the game (off: the rulebook's game);
    a journal written before the choice existed was played with the draw rules on."""
    plain = GameSetup("dungeon", FOUR[:2])
    ruled = GameSetup("dungeon", FOUR[:2], draw_rules=True)
    assert Session(plain).rules.repetition == 0 and Session(ruled).rules.quiet_moves == 50
    assert GameSetup.from_json(ruled.to_json()) == ruled and GameSetup.from_json(plain.to_json()) == plain
    old = plain.to_json()
    del old["draw_rules"]
    assert GameSetup.from_json(old).draw_rules
    with pytest.raises(VariantError, match="draw rules are part of the game"):
        GameSetup("chess", FOUR[:2], draw_rules=True)


@pytest.mark.parametrize("draw_rules", [False, True])
def test_the_draw_rules_choice_and_three_seats_survive_the_game_text(draw_rules):
    """Load / Save (companion.gametext) keeps the choice and the seating of a three-player game."""
    from companion.gametext import format_game, load_game

    s, _ = Session.new(GameSetup("dungeon", FOUR[:3], board_map="dungeon-four-player", draw_rules=draw_rules))
    s.play(s.rules.move_text(s.pos, s.rules.legal_moves(s.pos)[0]))
    again = load_game(format_game(s))
    assert again.setup == s.setup and again.rules.nplayers == 3 and again.rules.quiet_moves == (50 if draw_rules else 0)
    assert [m.san for m in again.moves] == [m.san for m in s.moves]


@pytest.mark.parametrize("draw_rules", [False, True])
def test_a_three_player_game_with_its_draw_choice_is_played_at_a_table_and_recorded(draw_rules):
    """The app plays every game at a table (companion.tournament.table): the table's rules are
    the session's (three seats on the four-player map, the draw rules), and the record reads back."""
    from companion.tournament.pgn import format_pgn, parse_pgn
    from companion.tournament.record import pgn_game, replay_pgn
    from companion.tournament.table import Table, TableSetup

    table, _ = Table.new(GameSetup("dungeon", FOUR[:3], board_map="dungeon-four-player", draw_rules=draw_rules),
                         TableSetup())
    s = table.session
    assert s.rules.nplayers == 3 and s.rules.quiet_moves == (50 if draw_rules else 0)
    for _ in range(6):
        table.observe(s.play(s.rules.move_text(s.pos, s.rules.legal_moves(s.pos)[0])), 0)
    (back,) = parse_pgn(format_pgn(pgn_game(table)))
    replayed = replay_pgn(back)
    assert replayed.rules.position_text(replayed.pos) == s.rules.position_text(s.pos)
    again, used, problem = Table.replay([{"type": "start", "version": 1, "setup": s.setup.to_json(),
                                          "commitment": None}] + [e for e, _ in table.entries])
    assert problem is None and again.session.rules.nplayers == 3


def test_a_three_player_replay_log_written_as_pgn_reads_back():
    """``companion replay --pgn`` (record.pgn_from_actions) names the number of players too."""
    from companion.session import rules_for
    from companion.tournament.pgn import format_pgn, parse_pgn
    from companion.tournament.record import pgn_from_actions, replay_pgn

    rules = rules_for(GameSetup("dungeon", FOUR[:3], board_map="dungeon-four-player"))
    start = rules.start_position()
    pos, moves = start.copy(), []
    for _ in range(4):
        m = rules.legal_moves(pos)[0]
        moves.append(m)
        rules.apply(pos, m)
    pgn = pgn_from_actions("dungeon", rules, start, moves, board_map="dungeon-four-player")
    (back,) = parse_pgn(format_pgn(pgn))
    assert back.tag("Players") == "3"
    assert replay_pgn(back).rules.position_text(replay_pgn(back).pos) == rules.position_text(pos)
