"""Chess 2 in the app without a window: the flow and the presenters of the army choice, the duel
screen (on-screen and real-stone bids, the bluff, the computer's sealed bid), the stones, the
king-turn, the end by Midline Invasion, a match, and power cuts in the middle of a duel."""

from __future__ import annotations

import json

import pytest

from companion.app.presenters.messages import ChooseArmies
from companion.journal import read_journal
from companion.match import MatchStore
from companion.session import Seat
from tests.ui_flow_helpers import App

PEOPLE = (Seat("Ann"), Seat("Ben"))


def chess2(tmp_path, start: str | None = None, armies: str = "classic,classic", bids: str = "screen",
           seats=PEOPLE, **kw) -> App:
    """A Chess 2 game set up on the simulated board (from ``start`` if given)."""
    app = App(tmp_path, **kw)
    app.flow.new_game("chess2", seats, start=start, options={"armies": armies}, bids=bids)
    app.pump()
    app.setup.fill()
    app.pump()
    assert app.flow.display.screen == "game", app.flow.display.screen
    return app


def moves_of(app: App) -> list[str]:
    return [m.move for m in app.flow.game.session.moves]


def duel_to(app: App) -> None:
    """1. e4 d5 2. exd5 (by taps): Black may duel."""
    app.tap("e2", "e4")
    app.tap("d7", "d5")
    app.tap("d5", "e4", "d5")
    assert app.flow.display.screen == "duel", (app.flow.display.screen, app.flow.board.guidance)


def choose_armies(app: App, white: str, black: str) -> None:
    """Both armies chosen on the armies screen, revealed, the game started and set up."""
    for army in (white, black):
        app.armies.pick(army)
        app.armies.act()
    app.armies.act()  # reveal
    app.armies.act()  # start
    app.pump()
    app.setup.fill()
    app.pump()


def sync_board(app: App) -> None:
    """Do what the lights say (take off, put on) until the board shows the game."""
    s = app.flow.game.session
    expected = s.rules.expected_occupancy(s.pos)
    for sq in sorted(app.flow.board.sensed - expected) + sorted(expected - app.flow.board.sensed):
        app.board.tap(sq)
        app.pump()
    app.clock.t += 2000
    app.pump()
    assert app.flow.board.in_sync, app.flow.board.guidance


# --- choosing the armies ----------------------------------------------------------------------------

def test_armies_are_chosen_double_blind_and_revealed_together(tmp_path):
    app = App(tmp_path)
    app.start.choose_game("chess2")
    app.start.pick_name("Ann") if False else None
    app.start.seats[0] = app.start.seats[0].__class__("Ann")
    app.start.seats[1] = app.start.seats[1].__class__("Ben")
    app.start.start()
    app.pump()
    assert app.flow.display.screen == "armies"
    v = app.armies.view()
    assert v.ask == "Ann (White): choose your army. Ben, please look away."
    assert [b.label for b in v.buttons] == ["Classic", "Nemesis", "Empowered", "Reaper", "Two Kings", "Animals"]
    assert v.action == ""  # nothing tapped yet
    app.armies.pick("animals")
    assert app.armies.view().action == "Hide my choice"
    app.armies.act()
    v = app.armies.view()
    assert "Ann's choice is hidden." in v.notes
    assert v.ask == "Ben (Black): choose your army. Ann, please look away."
    assert not any(b.selected for b in v.buttons)  # nothing of Ann's choice shows
    app.armies.pick("reaper")
    app.armies.act()
    v = app.armies.view()
    assert v.action == "Reveal" and v.buttons == ()
    app.armies.act()
    v = app.armies.view()
    assert v.revealed == "Ann (Animals) against Ben (Reaper)." and v.action == "Start the game"
    app.armies.act()
    app.pump()
    s = app.flow.game.session
    assert app.flow.display.screen == "setup" and s.rules.armies == ("animals", "reaper")
    assert s.setup.option_values == {"armies": "animals,reaper"}


def test_against_the_computer_its_army_is_chosen_first_in_secret(tmp_path):
    app = App(tmp_path, draws=iter([5]))  # the computer draws the sixth army: Animals
    app.flow.bus.handle(ChooseArmies("chess2", (Seat("Ann"), Seat("Computer", True, 2))))
    app.pump()
    v = app.armies.view()
    assert "Computer has chosen in secret." in v.notes
    assert v.ask == "Ann (White): choose your army."
    app.armies.pick("classic")
    app.armies.act()
    app.armies.act()  # reveal
    assert app.armies.view().revealed == "Ann (Classic) against Computer (Animals)."


# --- the duel screen: on-screen bids ---------------------------------------------------------------

def test_a_duel_won_by_the_defender_with_on_screen_bids(tmp_path):
    app = chess2(tmp_path)
    duel_to(app)
    v = app.duel.view()
    assert v.phase == "offer" and v.title == "Duel on d5"
    assert v.capture == "Ann's pawn takes Ben's pawn on d5."
    assert v.ask == "Ben may start a duel to save the pawn."
    assert v.detail.startswith("Starting it costs nothing")
    assert [c.label for c in v.choices] == ["Duel", "No duel"]
    assert (v.attacker.stones_text, v.defender.stones_text) == ("3 stones", "3 stones")
    app.duel.choose("duel")
    app.pump()
    v = app.duel.view()
    assert v.phase == "bid" and v.ask == "Ann (attacker): choose your bid in secret. Ben, please look away."
    app.duel.choose("1")
    assert app.duel.view().action == "Seal my bid"
    app.duel.act()
    app.pump()
    v = app.duel.view()
    assert v.phase == "bid" and v.ask.startswith("Ann's bid is sealed. Ben (defender)")
    assert not any(c.selected for c in v.choices) and v.attacker.bid == "" and v.attacker.sealed
    app.duel.choose("2")
    app.duel.act()
    app.pump()
    v = app.duel.view()
    assert v.phase == "result"
    assert v.result == ("Ann bid 1, Ben bid 2.", "Ben wins the duel: Ben's pawn and Ann's pawn both leave the board.")
    assert (v.attacker.bid, v.defender.bid) == ("1", "2")
    # Ann: 3 - 1 bid + 1 (the pawn taken); Ben: 3 - 2 bid + 1 (Ann's pawn lost in the duel)
    assert (v.attacker.stones, v.defender.stones) == (3, 2)
    app.duel.act()
    app.pump()
    assert app.flow.display.screen == "game"
    assert app.flow.board.guidance == "Remove the white pawn from d5 (it lost the duel)."
    sync_board(app)
    assert app.game.view().players[0].counter == "3 stones"


def test_a_duel_with_real_stones_entered_and_an_impossible_bid_refused(tmp_path):
    start = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2 armies=classic,classic stones=1,3"
    app = chess2(tmp_path, start=start, bids="stones")
    app.tap("d5", "e4", "d5")
    app.duel.choose("duel")
    app.pump()
    v = app.duel.view()
    assert v.phase == "fists" and v.ask.startswith("Both: put 0, 1 or 2 stones in a closed fist")
    assert [r.label for r in v.fists] == ["Ann showed", "Ben showed"]
    app.duel.enter(0, 2)  # Ann has only one stone
    app.duel.enter(1, 1)
    assert app.duel.view().action == "Use these bids"
    written = len(read_journal(tmp_path / "current.jsonl").entries)
    app.duel.act()
    app.pump()
    v = app.duel.view()
    assert v.error == "Ann has only 1 stone: a bid of 2 is not possible. Check the fists and tap again."
    assert len(read_journal(tmp_path / "current.jsonl").entries) == written  # nothing was played
    app.duel.enter(0, 1)
    app.duel.enter(1, 1)
    app.duel.act()
    app.pump()
    v = app.duel.view()
    assert v.phase == "result" and v.result[0] == "Ann bid 1, Ben bid 1."
    assert v.result[1] == "Ann wins the duel: the pawn takes the pawn."  # a tie goes to the attacker
    entries = read_journal(tmp_path / "current.jsonl").entries
    assert entries[-1] == {"type": "answer", "answer": "1-1"}  # both shown at once: one action


def test_a_called_bluff_lets_the_attacker_choose_the_reward(tmp_path):
    app = chess2(tmp_path)
    duel_to(app)
    app.duel.choose("duel")
    app.pump()
    for bid in ("0", "0"):
        app.duel.choose(bid)
        app.duel.act()
        app.pump()
    v = app.duel.view()
    assert v.phase == "bluff" and v.ask == "Bluff called: both bid 0, so Ann wins. Ann, choose your reward:"
    assert [c.label for c in v.choices] == ["Gain a stone", "Ben loses a stone"]
    app.duel.choose("destroy")
    app.pump()
    v = app.duel.view()
    assert v.phase == "result" and "Bluff called: Ben loses a stone." in v.result
    assert (v.attacker.stones, v.defender.stones) == (4, 2)
    app.duel.act()
    app.pump()
    assert app.game.view().marks[1] == ("bluff called", "")
    card = app.flow.game.extras.card(app.flow.game.session)
    assert card.lines[-1] == "2. exd5: Ben \u22121 (bluff called); Ann +1 (a pawn captured)"


def test_a_defender_with_his_last_stone_may_pay_it_and_is_told_what_follows(tmp_path):
    """A knight takes Ben's pawn; Ben has 1 stone: the duel is offered (it costs his last stone),
    the screen says the attacker then must bid 1 and wins, and the result says so."""
    start = "rnbqkbnr/ppp1pppp/8/3p4/8/2N5/PPPPPPPP/R1BQKBNR w KQkq - 0 2 armies=classic,classic stones=3,1"
    app = chess2(tmp_path, start=start)
    app.tap("d5", "c3", "d5")
    assert app.flow.display.screen == "duel", (app.flow.display.screen, app.flow.board.guidance)
    v = app.duel.view()
    assert v.phase == "offer" and [c.label for c in v.choices] == ["Duel (pay 1)", "No duel"]
    assert v.detail == ("It costs your last stone (the knight outranks the pawn); then Ann must bid 1 and wins: "
                        "a stone for a stone.")
    app.duel.choose("duel")
    app.pump()
    v = app.duel.view()
    assert v.phase == "result"
    assert v.result == ("Ben paid the last stone: Ann bids 1 and wins.", "Ann wins the duel: the knight takes the pawn.")
    assert (v.attacker.stones, v.defender.stones) == (3, 0)  # Ann: 3 - 1 (bid) + 1 (the pawn taken)
    app.duel.act()
    app.pump()
    assert app.flow.display.screen == "game" and moves_of(app) == ["c3d5"]


def test_a_defender_who_does_not_duel_goes_straight_back_to_the_game(tmp_path):
    app = chess2(tmp_path)
    duel_to(app)
    app.duel.choose("pass")
    app.pump()
    assert app.flow.display.screen == "game" and app.flow.board.in_sync and moves_of(app) == ["e2e4", "d7d5", "e4d5"]


# --- the computer's bid is sealed first ---------------------------------------------------------------

def test_against_the_computer_its_sealed_bid_comes_before_the_persons_pad(tmp_path):
    start = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2 armies=classic,classic"
    app = chess2(tmp_path, start=start, seats=(Seat("Ann"), Seat("Computer", True, 2)))
    app.computer.start = lambda rules, pos, level, progress, done: done(rules.answers(pos)[1])  # it duels
    app.tap("d5", "e4", "d5")
    app.pump()
    v = app.duel.view()
    assert v.phase == "bid" and v.ask.startswith("Computer has bid in secret. Ann (attacker)")
    entries = read_journal(tmp_path / "current.jsonl").entries
    assert entries[-1] == {"type": "part", "player": 1, "part": "0"}  # the computer's, before Ann bids
    assert app.computer.parts == [(1, 0.0)]
    app.duel.choose("2")
    app.duel.act()
    app.pump()
    assert app.duel.view().result[0] == "Ann bid 2, Computer bid 0."


# --- a power cut in the middle of a duel ------------------------------------------------------------

def test_a_power_cut_with_one_bid_in_comes_back_to_the_same_duel_without_showing_it(tmp_path):
    app = chess2(tmp_path)
    duel_to(app)
    app.duel.choose("duel")
    app.pump()
    app.duel.choose("2")
    app.duel.act()  # Ann's bid sealed: then the power goes
    app.pump()
    back = App(tmp_path)  # the same journal directory
    assert back.flow.display.screen == "resume"
    back.resume.accept() if hasattr(back.resume, "accept") else back.flow.resume.accept()
    back.pump()
    back.setup.fill()
    back.pump()
    assert back.flow.display.screen == "duel"
    v = back.duel.view()
    assert v.phase == "bid" and v.ask.startswith("Ann's bid is sealed. Ben (defender)")
    assert v.attacker.bid == "" and "2" not in v.ask
    back.duel.choose("1")
    back.duel.act()
    back.pump()
    v = back.duel.view()
    assert v.result[0] == "Ann bid 2, Ben bid 1."  # the sealed bid counted


# --- the king-turn ------------------------------------------------------------------------------------

def test_the_king_turn_is_asked_on_the_game_screen_and_skipped_by_lifting_a_warrior_king(tmp_path):
    app = chess2(tmp_path, armies="two-kings,classic")
    app.tap("e2", "e4")
    v = app.game.view()
    assert v.question.startswith("King-turn for Ann: a Warrior King may move or Whirlwind. Skip: lift and put back")
    assert app.bar.view().action_label == "Skip king-turn" and app.flow.display.prompt is None  # no popup
    app.tap("d1", "d1")  # a Warrior King lifted and put back
    assert app.flow.game.session.turn == 1 and app.flow.game.session.pos.pending is None
    assert app.bar.view().action_label == "Stones"
    app.tap("e7", "e5")
    app.tap("d2", "d4")
    assert app.bar.view().action_label == "Skip king-turn"
    app.bar.action()  # skip with the game bar's button
    app.pump()
    assert app.flow.game.session.turn == 1 and moves_of(app) == ["e2e4", "e7e5", "d2d4"]


def test_a_king_turn_taken_by_moving_a_warrior_king(tmp_path):
    app = chess2(tmp_path, armies="two-kings,classic")
    app.tap("e2", "e4")
    app.tap("e1", "e2")
    assert app.flow.game.session.moves[-1].san == "e4, Ke2" and app.flow.game.session.turn == 1


# --- the end -------------------------------------------------------------------------------------------

def test_a_midline_invasion_ends_the_game_in_words(tmp_path):
    app = chess2(tmp_path, start="4k3/8/8/8/3K4/8/8/8 w - - 0 1 armies=classic,classic")
    app.tap("d4", "d5")
    assert app.flow.display.screen == "game_over"
    v = app.over.view()
    assert v.headline == "Ann wins" and v.reason == "by Midline Invasion: across the middle of the board"


def test_the_midline_is_drawn_on_the_screens_board(tmp_path):
    app = chess2(tmp_path)
    assert app.board.view().lines == (4,)


def test_pieces_are_drawn_as_the_standard_set_shows_them(tmp_path):
    app = chess2(tmp_path, armies="animals,reaper")
    view = app.board.view()
    glyph = {sq.name: sq.glyph for sq in view.squares}
    assert glyph["a1"] == "\u265c" and glyph["d8"] == "\u265b"  # an Elephant is a rook; the Reaper a queen


def test_an_elephants_info_shows_its_5x5_box_on_the_screens_board(tmp_path):
    """"Draw a 5x5 box around the elephant ... the elephant cannot be captured by a piece more
    than 2 squares away": tapping an Elephant in Piece info marks every square within 2 of it
    (cut at the board's edge) and says what it is, and the box stays after its card is closed
    until Piece info is turned off; another piece marks nothing."""
    app = chess2(tmp_path, armies="animals,classic")
    app.board.toggle_info_mode()
    app.board.tap(app.sq("a1"))  # the Elephant, standing as a rook
    v = app.info.view()
    assert v.title == "White Elephant on a1" and any("within 2 squares" in line for line in v.fights)
    marked = {sq.name for sq in app.board.view().squares if sq.zone}
    assert marked == {f + r for f in "abc" for r in "123"}
    app.info.close()  # the card covered the board: the box stays while Piece info is on
    assert {sq.name for sq in app.board.view().squares if sq.zone} == marked
    app.board.tap(app.sq("b1"))  # the Wild Horse: no box
    assert not any(sq.zone for sq in app.board.view().squares)
    app.info.close()
    app.board.tap(app.sq("a1"))
    app.info.close()
    app.board.toggle_info_mode()  # Piece info off: the box goes
    assert not any(sq.zone for sq in app.board.view().squares)


# --- a match -----------------------------------------------------------------------------------------

def finish_by_invasion(app: App) -> None:
    """Resign stands in for a result here: White resigns."""
    app.flow.game.session.resign(0)
    app.flow.game.handle([])  # noqa: SLF001 - nothing else to do


def test_a_three_game_match_the_loser_switches_and_the_score_survives_a_power_cut(tmp_path):
    app = App(tmp_path)
    app.flow.bus.handle(ChooseArmies("chess2", PEOPLE, games=3))
    app.pump()
    choose_armies(app, "classic", "animals")
    app.flow.game.command(lambda: app.flow.game.session.resign(1))  # Ben (black) resigns: Ann wins game 1
    app.pump()
    assert app.flow.display.screen == "game_over"
    assert app.flow.matches.match.score == (1.0, 0.0)
    # the power goes: the match and its score come back, and the next army choice opens
    back = App(tmp_path)
    assert back.flow.display.screen == "armies" and back.flow.matches.match.score == (1.0, 0.0)
    v = back.armies.view()
    assert v.title == "Game 2 of 3: choose your armies" and v.score == "Match: Ann 1 \u2013 0 Ben"
    assert "Ann won the last game and keeps Classic." in v.notes and "Ben lost the last game and may switch army." in v.notes
    assert v.ask == "Ben (White): choose your army."  # colours alternate; only the loser chooses
    assert [b.key for b in v.buttons if b.selected] == ["animals"]  # offered as it was
    back.armies.pick("two-kings")
    back.armies.act()
    back.pump()
    s = back.flow.game.session
    assert back.flow.display.screen == "setup" and s.rules.armies == ("two-kings", "classic")
    assert s.seats[0].name == "Ben"
    assert MatchStore(tmp_path).load().current.choices == ("classic", "two-kings")


# --- at a table: a clock, tournament mode ------------------------------------------------------------

def test_tournament_mode_is_refused_for_chess_2_in_one_line(tmp_path):
    """docs/rules/chess2.md: FIDE's tournament procedures give no help from the board, and Chess
    2's duels and king-turns need the screen; a clock may run in casual play."""
    app = App(tmp_path, computer=False)
    app.start.choose_game("chess2")
    app.start.table_settings()
    app.table.mode("tournament")
    app.table.clock("blitz")
    app.table.done()
    app.start.start()
    app.pump()
    assert app.flow.display.screen == "start" and app.flow.game.session is None
    assert app.start.view().problem == ("Chess 2 is played casually (a clock may run): its duels need the "
                                        "screen and the board's help.")


def test_a_chess_2_game_with_a_clock_duels_and_its_record_reads_back(tmp_path):
    """The table's casual clock with Chess 2: the armies chosen, the clock started, a duel on
    the screen while the clock waits for the defender's press, the stones; the one game button is
    the clock's; the PGN and the game's text carry the armies and the duel."""
    from companion.gametext import load_table
    from companion.tournament.pgn import parse_pgn
    from companion.tournament.record import replay_pgn

    app = App(tmp_path, computer=False)
    app.start.choose_game("chess2")
    app.start.table_settings()
    app.table.clock("blitz")
    app.table.done()
    app.start.start()
    app.pump()
    assert app.flow.display.screen == "armies"
    choose_armies(app, "classic", "two-kings")
    flow = app.flow
    assert flow.game.table.clock is not None and flow.view_screen == "clock"
    app.clock.t += 500
    app.clock_screen.tap(1)  # Black starts White's clock
    app.pump()
    app.clock_screen.board()
    assert (app.bar.view().action_label, app.bar.view().action) == ("Clock", "clock")
    app.game.menu()  # the stones card is in the menu too
    assert "card" in [o.key for o in app.flow.display.prompt.options]
    app.flow.display.answer_prompt("card")
    assert app.info.view().title == app.flow.game.extras.card(app.flow.game.session).title
    app.info.close()
    app.tap("e2", "e4")
    app.clock_screen.tap(0)
    app.pump()
    app.tap("d7", "d5")
    assert app.game.view().question.startswith("King-turn for Black")  # Two Kings: its king-turn
    assert app.bar.view().action_label == "Skip king-turn"  # the question takes the one button
    app.bar.action()
    app.pump()
    app.clock_screen.tap(1)
    app.pump()
    app.clock_screen.board()
    app.tap("d5", "e4", "d5")
    assert flow.display.screen == "duel"
    app.duel.choose("duel")
    app.pump()
    for bid in ("1", "2"):
        app.duel.choose(bid)
        app.duel.act()
        app.pump()
    assert app.duel.view().phase == "result"
    app.duel.act()  # Continue
    app.pump()
    sync_board(app)
    assert [m.move for m in flow.game.session.moves] == ["e2e4", "d7d5", "e4d5"]
    assert flow.game.table.clock is not None and not flow.game.table.is_over
    text = flow.load_save.game_text()
    back = load_table(text)
    assert back.session.rules.armies == ("classic", "two-kings")
    assert back.session.rules.stones(back.session.pos) == flow.game.session.rules.stones(flow.game.session.pos)
    flow.records.save()
    (game,) = parse_pgn((tmp_path / "games" / f"{flow.game.session.setup.game_id}.pgn").read_text())
    assert replay_pgn(game).rules.position_text(replay_pgn(game).pos) == \
        flow.game.session.rules.position_text(flow.game.session.pos)
