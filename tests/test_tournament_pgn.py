"""Game records as PGN: FIDE chess loads in another program (python-chess) with the same moves,
final position, result and clocks; Combat Chess, Dungeon Chess (2 and 4 players) and KoL Chess
(clocked, special moves and back-row trades) are written and read back by our own reader to the
same final position."""

from __future__ import annotations

import io
import random

import chess
import chess.pgn
import pytest

from companion.errors import RecordError
from companion.session import GameSetup, Seat
from companion.tournament.pgn import PgnGame, PgnMove, format_pgn, parse_pgn
from companion.tournament.record import pgn_game, replay_pgn, snapshot, snapshot_json, snapshot_pgn
from companion.tournament.table import Table, TableSetup
from tests.dungeon_board_games import QUICK_FOUR_SCRIPT, greedy_answer, greedy_move
from tests.dungeon_ui_helpers import quick_four_text
from tests.journal_kill_runner import step

S = 1000


def long_clocked_chess_game(plies: int = 212, seed: int = 7) -> tuple[Table, list[int]]:
    """A casual FIDE game with a 90+30 clock pressed after every move, a draw offer, then a
    resignation after ``plies`` half-moves (random legal moves, seeded)."""
    game = GameSetup("chess", (Seat("Anna Kovacs"), Seat("Ben O'Rook")), game_id="long")
    table, _ = Table.new(game, TableSetup("casual", "5400+30", event="Club Championship", site="Leiden NED",
                                           date="2026.11.22", round="3", board="7", ratings=(1834, 1790)))
    s = table.session
    rng = random.Random(seed)
    now = 0
    table.start_clock(now)
    while len(s.moves) < plies:
        moves = sorted(s.rules.legal_moves(s.pos))
        # keep the game going: avoid moves that end it early
        rng.shuffle(moves)
        for m in moves:
            s.rules.apply(s.pos, m)
            over = s.rules.outcome(s.pos) is not None
            s.rules.undo(s.pos)
            if not over:
                break
        now += rng.randint(500, 40_000)
        s.play(m)
        table.press(1 - s.turn, now)
    table.resign(s.turn, now + 5000)
    return table, []


@pytest.fixture(scope="module")
def long_game():
    table, _ = long_clocked_chess_game()
    return table


def test_a_fide_game_of_more_than_100_moves_with_clocks_loads_in_python_chess(long_game):
    table = long_game
    s = table.session
    text = format_pgn(pgn_game(table))
    game = chess.pgn.read_game(io.StringIO(text))
    assert not game.errors, game.errors
    board = game.board()
    sans = []
    clocks = []
    for node in game.mainline():
        sans.append(board.san(node.move))
        board.push(node.move)
        clocks.append(node.clock())
    assert len(sans) == len(s.moves) >= 200
    assert sans == [m.san for m in s.moves]
    assert board.fen() == s.rules.position_text(s.pos)
    assert game.headers["Result"] == table.result_code() == ("0-1" if s.result.winners == {1} else "1-0")
    assert game.headers["TimeControl"] == "5400+30" and game.headers["Round"] == "3"
    assert game.headers["Board"] == "7" and game.headers["WhiteElo"] == "1834" and game.headers["BlackElo"] == "1790"
    assert game.headers["White"] == "Anna Kovacs" and game.headers["Black"] == "Ben O'Rook"
    assert game.headers["Termination"] == "normal"
    for i, clock in enumerate(clocks):
        ours = table.plies[i].left_ms
        assert clock is not None and abs(clock * 1000 - ours) < 1000, (i, clock, ours)
        assert clock * 1000 >= ours  # written as the clock showed it: rounded up


def test_the_seven_tag_roster_comes_first_in_order(long_game):
    text = format_pgn(pgn_game(long_game))
    names = [line.split()[0][1:] for line in text.splitlines() if line.startswith("[")]
    assert names[:7] == ["Event", "Site", "Date", "Round", "White", "Black", "Result"]


@pytest.mark.parametrize("mode, clock, round_, tag", [("casual", None, "", "-"), ("tournament", "600+5", "", "?"),
                                                     ("tournament", "600+5", "4", "4"), ("casual", None, "2", "2")])
def test_the_round_tag_says_unknown_or_inappropriate_as_the_pgn_standard_does(mode, clock, round_, tag):
    """PGN standard 8.1.1.3: "If the use of a round number is inappropriate, then the field should
    be a single hyphen character. If the round is unknown, a single question mark should appear"."""
    table, _ = Table.new(GameSetup("chess", (Seat("A"), Seat("B")), game_id="r"),
                         TableSetup(mode=mode, time_control=clock, round=round_))
    game = chess.pgn.read_game(io.StringIO(format_pgn(pgn_game(table))))
    assert game.headers["Round"] == tag


def test_lines_are_at_most_80_characters_and_commands_never_broken(long_game):
    text = format_pgn(pgn_game(long_game))
    assert max(len(line) for line in text.splitlines()) <= 80
    import re
    for line in text.splitlines():
        assert not re.search(r"\[%[^\]]*$", line), line  # a [%command] is never cut at a line end


def test_our_reader_reads_back_what_we_write(long_game):
    written = pgn_game(long_game)
    (back,) = parse_pgn(format_pgn(written))
    assert back.tags == written.tags and back.result == written.result
    assert [m.text for m in back.moves] == [m.text for m in written.moves]
    assert all(0 <= w.emt_ms - b.emt_ms < 1000 for w, b in zip(written.moves, back.moves))  # [%emt]: whole seconds
    assert all(0 <= b.clock_ms - w.clock_ms < 1000 for w, b in zip(written.moves, back.moves))  # [%clk]: rounded up
    replayed = replay_pgn(back)
    assert replayed.rules.position_text(replayed.pos) == long_game.session.rules.position_text(long_game.session.pos)


def test_a_draw_offer_is_written_as_fides_equal_sign_in_a_comment():
    game = GameSetup("chess", (Seat("A"), Seat("B")))
    table, _ = Table.new(game, TableSetup("tournament", "180+2"))
    s = table.session
    table.start_clock(0)
    s.play("e2e4")  # (the session is fed directly here; tests/test_tournament_table.py presses)
    table.offer_draw(1, 100)  # Black offers with the move it is about to make
    s.play("e7e5")
    table.offer_draw(1, 200)  # ... and again while White thinks: it goes with Black's last move
    s.play("g1f3")
    table.offer_draw(1, 300)  # offered, but no move of Black's follows: a note at the end
    text = format_pgn(pgn_game(table))
    g = chess.pgn.read_game(io.StringIO(text))
    assert not g.errors and [m.uci() for m in g.mainline_moves()] == ["e2e4", "e7e5", "g1f3"]
    (back,) = parse_pgn(text)
    assert [m.draw_offer for m in back.moves] == [False, True, False]
    assert back.moves[-1].comment == "B offers a draw."


# ----- Combat Chess ------------------------------------------------------------------------------------


def combat_table(seed: int = 3, d6_only: bool = False):
    game = GameSetup("combat", (Seat("Ann"), Seat("Bob")), "seeded", d6_only, "c1", f"{seed:02x}" * 32)
    table, _ = Table.new(game, TableSetup())
    s = table.session
    while not s.is_over and s.actions < 400:
        step(s, seed)
    return table


@pytest.mark.parametrize("seed, d6_only", [(3, False), (5, False), (8, True)])
def test_combat_chess_pgn_reads_back_to_the_same_position_fight_by_fight(seed, d6_only):
    table = combat_table(seed, d6_only)
    s = table.session
    text = format_pgn(pgn_game(table))
    (back,) = parse_pgn(text)
    replayed = replay_pgn(back)
    assert replayed.game == "combat"
    assert replayed.rules.position_text(replayed.pos) == s.rules.position_text(s.pos)
    fights = [m for m in back.moves if m.command("dice")]
    assert len(fights) == len({r.fight for r in s.record.rounds}) > 0
    assert back.tag("Variant") == "Human Combat Chess" and back.tag("DiceSeal") == s.setup.commitment


def test_a_combat_fight_comment_says_dice_modifiers_and_result():
    table = combat_table(3)
    text = format_pgn(pgn_game(table))
    assert "Fight 1: " in text and "rolls" in text and "+1 weapon choice" in text
    assert "fatigue" in text and ("the attacker wins" in text or "the defender holds" in text)


def test_a_fight_without_its_dice_is_refused_by_our_reader():
    table = combat_table(3)
    (back,) = parse_pgn(format_pgn(pgn_game(table)))
    i = next(i for i, m in enumerate(back.moves) if m.command("dice"))
    broken = PgnGame(back.tags, back.moves[:i] + (PgnMove(back.moves[i].text),) + back.moves[i + 1:], back.result)
    with pytest.raises(RecordError, match=f"move {i + 1} .*without its \\[%dice\\]"):
        replay_pgn(broken)


# ----- Dungeon Chess -------------------------------------------------------------------------------


def test_a_four_player_dungeon_game_is_written_and_read_back():
    seats = tuple(Seat(n) for n in ("Blue", "Red", "Green", "Yellow"))
    game = GameSetup("dungeon", seats, game_id="d4", start=quick_four_text(), board_map="dungeon-four-player")
    table, _ = Table.new(game, TableSetup())
    s = table.session
    for text, _ in QUICK_FOUR_SCRIPT:
        events = s.play_answer(text) if s.pos.pending is not None else s.play(text)
        table.observe(events, 0)
    pgn = pgn_game(table)
    text = format_pgn(pgn)
    assert '[Players "4"]' in text and '[Player3 "Green"]' in text and '[Variant "Dungeon Chess"]' in text
    assert "g9h7:i8" in text and "r12q11hex" in text and " pass " in text
    assert "1. k14m13" in text and "3. p10q11" in text and "4. n10a10" in text  # numbered by rounds of play
    (back,) = parse_pgn(text)
    replayed = replay_pgn(back)
    assert replayed.rules.position_text(replayed.pos) == s.rules.position_text(s.pos)
    assert back.result == "*" and back.tag("Termination") == "normal"  # more than two players: no PGN result


def test_a_two_player_dungeon_game_is_written_and_read_back():
    game = GameSetup("dungeon", (Seat("Blue"), Seat("Red")), game_id="d2")
    table, _ = Table.new(game, TableSetup())
    s = table.session
    rng = random.Random(11)
    while not s.is_over and len(s.moves) < 120:
        if s.pos.pending is not None:
            events = s.play_answer(greedy_answer(s.rules, s.pos, rng))
        else:
            events = s.play(greedy_move(s.rules, s.pos, rng))
        table.observe(events, 0)
    text = format_pgn(pgn_game(table))
    (back,) = parse_pgn(text)
    replayed = replay_pgn(back)
    assert replayed.rules.position_text(replayed.pos) == s.rules.position_text(s.pos)


# ----- KoL Chess: a game of the registry needs no code here ---------------------------------------------


def clocked_kol_game(seed: int, plies: int = 160) -> Table:
    """A KoL game with a 5+3 clock pressed after every move, played at random (seeded) with a
    bias to the special moves (the Tower, the Legends' moves) and every back-row trade
    answered, until it ends or ``plies`` moves are played."""
    game = GameSetup("kol", (Seat("Blue"), Seat("Orange")), game_id=f"kol-{seed}")
    table, _ = Table.new(game, TableSetup("casual", "300+3"))
    s = table.session
    rng = random.Random(seed)
    now = 0
    table.start_clock(now)
    while not s.is_over and len(s.moves) < plies:
        moves = s.rules.legal_moves(s.pos)
        special = [m for m in moves if m.special]
        move = rng.choice(special if special and rng.random() < 0.5 else moves)
        now += rng.randint(300, 4000)
        side = s.turn
        table.observe(s.play(move), now)
        while s.pos.pending is not None and not s.is_over:  # a back-row trade: the mover chooses
            table.observe(s.play_answer(s.rules.answer_text(rng.choice(s.rules.answers(s.pos)))), now)
        if not s.is_over:
            table.press(side, now)
    return table


@pytest.mark.parametrize("seed", [2, 5])
def test_a_kol_game_is_written_with_its_variant_start_and_clocks_and_read_back(seed):
    table = clocked_kol_game(seed)
    s = table.session
    text = format_pgn(pgn_game(table))
    assert '[Variant "KoL Chess"]' in text and '[SetUp "1"]' in text and '[TimeControl "300+3"]' in text
    assert f'[FEN "{s.rules.position_text(s.rules.start_position())}"]' in text
    assert "[%clk" in text
    specials = {m.move[4:] for m in s.moves if not m.move[-1].isdigit()}
    assert specials & {"in", "out", "swap", "double", "charge"}, specials  # the special moves are in it
    (back,) = parse_pgn(text)
    assert [m.text for m in back.moves] == [m.text for m in pgn_game(table).moves]
    replayed = replay_pgn(back)
    assert replayed.game == "kol" and replayed.plies == len(s.moves)
    assert replayed.rules.position_text(replayed.pos) == s.rules.position_text(s.pos)
    assert [m.clock_ms is not None for m in back.moves].count(True) == len(table.plies)


@pytest.mark.slow  # plays a KoL game until a trade comes
def test_a_kol_back_row_trade_is_written_after_its_move_and_read_back():
    for seed in range(40):
        table = clocked_kol_game(seed, plies=240)
        if table.answers:
            break
    else:
        pytest.fail("no back-row trade in 40 seeded games")
    s = table.session
    written = pgn_game(table)
    i, answers = next(iter(table.answers.items()))
    assert written.moves[i].text == ":".join([s.moves[i].move, *answers])
    (back,) = parse_pgn(format_pgn(written))
    replayed = replay_pgn(back)
    assert replayed.rules.position_text(replayed.pos) == s.rules.position_text(s.pos)


# ----- reading other programs' PGN ----------------------------------------------------------------------

OTHER = """% an escape line
[Event "Other program"]
[Site "?"]
[Date "2024.01.01"]
[Round "1.2"]
[White "X"]
[Black "Y"]
[Result "1-0"]

1.e4 e5 ; a line comment
2. Nf3 $1 (2. f4 exf4 (2... d5)) 2... Nc6 {a comment
on two lines} 3.Bb5 a6!? 4. Ba4 Nf6
5. O-O 1-0

[Event "Second"]
[Result "*"]

1. d4 *
"""


def test_other_programs_pgn_with_variations_nags_and_escapes_is_read():
    games = parse_pgn(OTHER, "other.pgn")
    assert len(games) == 2
    first = games[0]
    assert [m.text for m in first.moves] == ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O"]
    assert first.result == "1-0" and first.tag("Round") == "1.2"
    replayed = replay_pgn(first)
    assert replayed.rules.position_text(replayed.pos).startswith("r1bqkb1r/1ppp1ppp/p1n2n2/4p3/B3P3/5N2/PPPP1PPP/RNBQ1RK1 b kq")


@pytest.mark.parametrize("text, words", [
    ('[Event "x"\n1. e4 *', "line 1: a tag pair"),
    ('[Event "x"]\n\n1. e4 {never closed', "line 3: a comment opened"),
    ('[Event "x"]\n\n1. e4 (1. d4 *', "line 3: a variation opened"),
    ('[Event "x"]\n[Result "1-0"]\n\n1. e4 0-1', "ends 0-1 but its Result tag says 1-0"),
    ('[Event "x"]\n\n1. e4 ) *', "line 3: ')' without"),
    ('[Event "x"]\n\n1. e4 } *', "line 3: '}' without"),
])
def test_malformed_pgn_names_the_line(text, words):
    with pytest.raises(RecordError) as e:
        parse_pgn(text, "bad.pgn")
    assert "bad.pgn, " in str(e.value) and words in str(e.value)


def test_an_illegal_move_in_a_pgn_names_the_move():
    (game,) = parse_pgn('[Event "x"]\n\n1. e4 e5 2. Ke3 *')
    with pytest.raises(RecordError, match=r"move 3 \(Ke3\): 'Ke3' is not a legal move here"):
        replay_pgn(game)


def test_a_variant_we_do_not_know_is_refused():
    (game,) = parse_pgn('[Event "x"]\n[Variant "Crazyhouse"]\n\n1. e4 *')
    with pytest.raises(RecordError, match="Crazyhouse"):
        replay_pgn(game)


# ----- snapshots for a broadcast ----------------------------------------------------------------------


def test_a_snapshot_is_an_immutable_value_formatted_anywhere(long_game):
    snap = snapshot(long_game, 10_000_000)
    data = snapshot_json(snap)
    assert data["tags"]["Event"] == "Club Championship" and len(data["moves"]) == len(long_game.session.moves)
    assert data["clock"]["times_ms"] == list(long_game.clock.view(10_000_000).times)
    assert snapshot_pgn(snap) == format_pgn(pgn_game(long_game))
    with pytest.raises(AttributeError):
        snap.turn = 1  # frozen
    import json
    json.dumps(data)


def test_a_running_game_is_written_unterminated():
    game = GameSetup("chess", (Seat("A"), Seat("B")))
    table, _ = Table.new(game, TableSetup("casual", "300+3"))
    table.session.play("e2e4")
    text = format_pgn(pgn_game(table))
    assert '[Result "*"]' in text and '[Termination "unterminated"]' in text and text.rstrip().endswith("*")


def test_quotes_and_backslashes_in_tags_are_escaped_and_read_back():
    game = PgnGame((("Event", 'The "Open" \\ 2026'), ("Result", "*")), (PgnMove("e4"),), "*")
    text = format_pgn(game)
    assert '[Event "The \\"Open\\" \\\\ 2026"]' in text
    assert parse_pgn(text)[0].tag("Event") == 'The "Open" \\ 2026'


def test_a_chess2_game_with_its_duels_is_written_in_coordinates_and_read_back():
    """Chess 2 (in the registry since issue 16) needs no code in the records: its Variant is its
    title, its moves coordinates from its FEN, a duel's answers (the challenge, then the bids)
    joined after the move. Its duels' stones in words are for its own commenter (issue 21)."""
    game = GameSetup("chess2", (Seat("A"), Seat("B")), game_id="c2")
    table, _ = Table.new(game, TableSetup())
    s = table.session
    rng = random.Random(3)
    while not s.is_over and len(s.moves) < 170:
        if s.pos.pending is not None:
            table.observe(s.play_answer(s.rules.answer_text(rng.choice(s.rules.answers(s.pos)))), 0)
        else:
            table.observe(s.play(rng.choice(s.rules.legal_moves(s.pos))), 0)
    assert any(len(a) > 1 for a in table.answers.values()), "no duel with its bids in this game"
    text = format_pgn(pgn_game(table))
    assert '[Variant "Chess 2"]' in text and '[FEN "' in text
    (back,) = parse_pgn(text)
    replayed = replay_pgn(back)
    assert replayed.game == "chess2"
    assert replayed.rules.position_text(replayed.pos) == s.rules.position_text(s.pos)


def test_a_game_with_an_arbiters_position_correction_is_valid_pgn_from_the_correction():
    """Load / Save lets an arbiter correct the position (a session action); PGN cannot change
    the position mid-game, so the record starts from the correction and tells the moves before."""
    table, _ = Table.new(GameSetup("chess", (Seat("A"), Seat("B")), game_id="fix"), TableSetup())
    s = table.session
    s.play("e2e4")
    s.play("e7e5")
    corrected = "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
    s.correct_position(corrected)
    s.play("b8c6")
    text = format_pgn(pgn_game(table))
    assert f'[FEN "{corrected}"]' in text and "position set" not in text
    assert "the moves before it: e4 e5." in " ".join(text.split())
    game = chess.pgn.read_game(io.StringIO(text))
    assert not game.errors and [m.uci() for m in game.mainline_moves()] == ["b8c6"]
    assert game.end().board().fen() == s.rules.position_text(s.pos)
    (back,) = parse_pgn(text)
    assert replay_pgn(back).rules.position_text(replay_pgn(back).pos) == s.rules.position_text(s.pos)
