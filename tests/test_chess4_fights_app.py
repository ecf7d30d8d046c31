"""Four-player chess and dice fights in every game, in the app without a window (the flow and its
presenters on the simulated board): the start screen's game row and "Dice fights" switch, the
dice carried into any game with fights, four seats with free-for-all or teams, points and dead
armies on the screens, several winners, the fight screen naming and drawing any game's pieces,
the records filed and the games screen's review (issue 32)."""

from __future__ import annotations

import random

import pytest

from companion.app import theme
from companion.app.presenters.dungeon_game import DungeonGamePresenter
from companion.app.presenters.game import result_headline
from companion.games import make_rules
from companion.session import GameResult, GameSetup, Seat, Session
from tests.dungeon_board import position as dungeon_position, rules as dungeon_rules
from tests.ui_flow_helpers import App

FOUR = tuple(Seat(n) for n in ("Ann", "Ben", "Cy", "Di"))
FIGHTS = {"fights": "dice"}


def chess4_position(plies: int = 36, seed: int = 11) -> str:
    """A free-for-all game some way in: moves at random (captures often) for ``plies``, then Blue
    resigns: its army stays on the board, dead, its King live; the points as they came."""
    s, _ = Session.new(GameSetup("chess4", FOUR))
    rng = random.Random(seed)
    for _ in range(plies):
        moves = s.rules.legal_moves(s.pos)
        captures = [m for m in moves if m.capture is not None]
        s.play(rng.choice(captures) if captures and rng.random() < 0.6 else rng.choice(moves))
        assert s.pos.pending is None and not s.is_over
    s.resign(1)
    return s.rules.position_text(s.pos)


#: Dungeon Chess on the compact map: Blue's Knight on b3 can attack Red's Iron Golem on c5.
def dungeon_fight_start() -> str:
    r = dungeon_rules("dungeon-compact")
    return r.position_text(dungeon_position(r, {"a1": (0, "warlord"), "j10": (1, "warlord"), "b3": (0, "knight"),
                                                 "c5": (1, "iron_golem"), "b7": (1, "goblin"), "h2": (0, "hero")}, 0))


def open_game(app: App, game: str, seats, dice: str = "virtual", start=None, board_map=None, **options):
    app.flow.new_game(game, seats, dice, start=start, board_map=board_map, options=options)
    app.pump()
    app.setup.fill()
    app.pump()
    return app.flow.game.session


def tap(app: App, *names: str):
    """Taps on the simulated board by square name (any map), then time to settle the move."""
    g = app.flow.game.session.rules.geometry
    for n in names:
        app.board.tap(g.parse_square(n))
        app.pump()
    app.clock.t += 2000
    app.pump()


def side_panel(app: App):
    return DungeonGamePresenter(app.flow.game, app.flow.ai, app.flow.board, app.flow.display).view()


# ----- the start screen -------------------------------------------------------------------------------
def test_every_game_is_in_the_row_and_the_dice_fights_switch_is_on_for_any_game_that_takes_them(tmp_path):
    app = App(tmp_path)
    p = app.start
    assert [g.key for g in p.view().games] == ["chess", "dungeon", "chess2", "kol", "chess4"]
    for game, takes in (("dungeon", True), ("kol", True), ("chess4", True), ("chess2", False)):
        p.choose_game(game)
        v = p.view()
        assert v.can_fight == takes and not v.fights and not v.has_dice, game
        p.toggle_fights()
        v = p.view()
        assert v.fights == takes and v.has_dice == takes and v.fights_label == f"Dice fights: {'on' if takes else 'off'}"
        assert (p.options().get("fights") == "dice") == takes
    p.choose_game("chess")  # chess's switch was on from the start: Human Combat Chess
    assert p.game == "combat" and p.options() == {}
    p.toggle_fights()
    assert p.game == "chess" and not p.view().has_dice


def test_a_player_looking_for_human_combat_chess_finds_it_by_name_under_the_games(tmp_path):
    """Combat Chess has no button of its own (chess with its switch on): the line under the
    games names it whether the switch is on or off, and names the fights of any other game."""
    app = App(tmp_path)
    p = app.start
    p.choose_game("chess")
    assert p.game == "combat" and "Human Combat Chess" in p.view().hint and "dice" in p.view().hint
    p.toggle_fights()
    assert p.game == "chess" and "With dice fights on it is Human Combat Chess" in p.view().hint
    p.choose_game("dungeon")
    p.toggle_fights()
    assert "as in Human Combat Chess" in p.view().hint and "The app rolls" in p.view().hint
    p.choose_game("combat")  # a saved choice or a tool naming Combat Chess: chess, the switch on
    assert p.row == "chess" and p.view().fights and p.game == "combat"


def test_a_name_picked_from_the_presets_stays_when_the_game_changes(tmp_path):
    """"Player 1" is a preset name as well as the default of a seat no game showed yet: picked
    for White it is the player's name, kept through other games (the colours' names follow)."""
    app = App(tmp_path)
    p = app.start
    p.open_names(0)
    p.pick_name("Player 1")
    for game in ("chess2", "chess4", "kol", "chess"):
        p.choose_game(game)
        assert p.view().seats[0].name == "Player 1", game
    assert p.view().seats[1].name == "Black"


def test_the_dice_chosen_go_into_a_game_with_fights_not_only_combat_chess(tmp_path):
    """The new-game path forced the app's dice on every game but Combat Chess; it goes by
    whether the captures are fights."""
    app = App(tmp_path)
    p = app.start
    p.choose_game("kol")
    p.toggle_fights()
    p.choose_dice("entered")
    p.toggle_d6()
    assert "Roll your own dice" in p.view().hint and "six-sided" in p.view().hint
    p.start()
    setup = app.flow.game.session.setup
    assert (setup.game, setup.dice, setup.d6_only, setup.option_values, setup.has_dice) == \
        ("kol", "entered", True, {"fights": "dice"}, True)
    app.flow.game.leave()
    p.choose_game("chess4")
    p.toggle_fights()
    p.choose_dice("seeded")
    p.start()  # checkable dice, a fresh seed
    setup = app.flow.game.session.setup
    assert (setup.game, setup.dice, setup.seed) == ("chess4", "seeded", "01" * 32)


def test_without_fights_the_dice_choices_are_not_carried(tmp_path):
    app = App(tmp_path)
    app.start.choose_dice("entered")
    app.start.toggle_d6()
    app.start.choose_game("kol")  # its switch is off
    app.start.start()
    setup = app.flow.game.session.setup
    assert (setup.dice, setup.d6_only, setup.option_values) == ("virtual", False, {})


def test_four_player_chess_has_four_seats_in_its_colours_free_for_all_or_teams_and_no_clock(tmp_path):
    app = App(tmp_path)
    p = app.start
    p.choose_game("chess4")
    v = p.view()
    assert [(s.colour, s.name) for s in v.seats] == [("Red", "Red"), ("Blue", "Blue"), ("Yellow", "Yellow"),
                                                     ("Green", "Green")]
    assert [s.swatch for s in v.seats] == [theme.seat_colour(c) for c in ("red", "blue", "yellow", "green")]
    assert [(c.key, c.label, c.selected) for c in v.choices] == [("mode=ffa", "Free-for-all", True),
                                                                ("mode=teams", "Teams", False)]
    assert "most points" in v.hint and v.table == "" and not v.positions
    p.choose_option("mode=teams")
    assert p.view().choices[1].selected and "Red with Yellow" in p.view().hint
    p.set_kind(3, True, 2)  # the computer plays Green
    assert p.view().seats[3].name == "Computer"
    p.choose_game("chess")  # back to two seats, named White and Black
    assert [s.name for s in p.view().seats] == ["White", "Black"]
    p.choose_game("chess4")
    p.start()
    s = app.flow.game.session
    assert [(seat.name, seat.computer) for seat in s.seats] == [("Red", False), ("Blue", False), ("Yellow", False),
                                                                ("Computer", True)]
    assert s.setup.option_values == {"mode": "teams"} and s.rules.teams
    assert app.flow.game.table.clock is None  # no clock for three or four players (docs/rules/chess4.md)
    assert (app.flow.board.link.width, app.flow.board.link.height) == (14, 14)  # the simulated board fits it


def test_a_tournament_setting_does_not_stop_a_four_player_game(tmp_path):
    """The table settings are for two players; four-player chess is casual, as Dungeon Chess."""
    app = App(tmp_path)
    app.start.table_settings()
    app.table.mode("tournament")
    app.table.done()
    app.start.choose_game("chess4")
    app.start.set_kind(2, True, 1)
    app.start.start()
    assert app.flow.game.session is not None and app.flow.display.start_problem == ""


def test_a_dungeon_game_with_fights_is_drafted_and_deployed_with_its_dice(tmp_path):
    from tests.test_dungeon_ui_setup import DungeonApp

    app = DungeonApp(tmp_path)
    p = app.p.start
    p.choose_game("dungeon")
    p.toggle_fights()
    p.choose_dice("seeded")
    p.start()
    assert app.flow.dungeon.prep.options == FIGHTS and app.flow.dungeon.prep.dice == "seeded"
    app.pump()
    app.draft_defaults()
    app.p.deploy.place_rest()
    app.pump()
    app.follow_the_lights()
    s = app.flow.game.session
    assert s is not None and s.setup.option_values == FIGHTS and s.setup.dice == "seeded" and s.setup.seed


# ----- four-player chess on the screens ------------------------------------------------------------------
def test_points_and_players_out_are_on_the_players_rows_and_a_capture_scores(tmp_path):
    app = App(tmp_path)
    s = open_game(app, "chess4", FOUR, start=chess4_position())
    assert app.flow.view_screen == "dungeon_game"
    v = side_panel(app)
    points = s.pos.var("points")
    assert [c.detail for c in v.players] == [f"{points[0]} pts", f"{points[1]} \u00b7 out", f"{points[2]} pts",
                                             f"{points[3]} pts"]
    assert v.players[1].out and not v.players[0].out
    g = s.rules.geometry
    capture = next(m for m in s.rules.legal_moves(s.pos)
                   if m.capture is not None and s.pos.board[m.capture].owner not in s.pos.var("out"))
    tap(app, g.name_of(capture.to), g.name_of(capture.frm), g.name_of(capture.to))
    assert len(s.moves) == 1 and s.pos.var("points")[0] > points[0]
    v = side_panel(app)
    assert v.last_turn == f"Ann: {s.moves[-1].san}" and "Red scores" in v.effects
    assert v.effects == " ".join(s.rules.describe_turn(s.pos))


def test_the_board_draws_chess_glyphs_in_the_seats_colours_and_a_dead_army_grey(tmp_path):
    app = App(tmp_path)
    s = open_game(app, "chess4", FOUR, start=chess4_position())
    view = app.board.view()
    assert not view.units and view.owner_colours[0] == theme.seat_colour("red")
    g = s.rules.geometry
    squares = {sq.index: sq for sq in view.squares}
    blue = [sq for sq in s.pos.occ[1]]
    king = next(sq for sq in blue if s.pos.board[sq].kind.royal)
    assert all(squares[sq].dead for sq in blue if sq != king)  # a dead army: grey walls
    assert not squares[king].dead and squares[king].glyph == "\u265a"  # its resigned King is live
    assert not any(squares[sq].dead for sq in s.pos.occ[0])
    assert all(squares[sq].glyph in "\u265a\u265b\u265c\u265d\u265e\u265f" for sq in s.pos.occ[0])
    assert g.width == view.width == 14


def test_the_14x14_board_is_shown_whole_at_800x480_and_20x20_maps_of_units_in_part():
    from companion.app.widgets.board import least_side, shown_squares
    from types import SimpleNamespace

    glyphs, units = SimpleNamespace(units=False), SimpleNamespace(units=True)
    assert shown_squares(14, 14, 470, 470, least=least_side(glyphs))[:2] == (14, 14)
    assert shown_squares(20, 20, 470, 470, least=least_side(units))[:2] != (20, 20)


def test_several_winners_are_said_together_a_team_or_equal_points():
    s, _ = Session.new(GameSetup("chess4", FOUR, options=(("mode", "teams"),)))
    assert result_headline(s, GameResult(frozenset({0, 2}), "three players out")) == \
        "Ann and Cy win: three players are out"
    assert result_headline(s, GameResult(frozenset({0, 1, 3}), "fifty-move rule")).startswith("Ann, Ben and Di win: ")
    assert result_headline(s, GameResult(frozenset({3}), "resigned")) == "Di wins: by resignation"


def test_three_resignations_end_the_game_with_everyones_points(tmp_path):
    app = App(tmp_path)
    s = open_game(app, "chess4", FOUR, start=chess4_position())
    for _ in range(2):  # Blue is out already: Ann and Cy resign, Di is left
        app.flow.play.resign()
        prompt = app.flow.display.prompt
        assert prompt.kind == "resign-who"
        app.flow.display.answer_prompt(next(o.key for o in prompt.options if o.label == s.seats[s.turn].name))
        app.pump()
    assert s.is_over and s.result.reason == "three players out" and app.flow.display.screen == "game_over"
    over = app.over.view()
    points = s.pos.var("points")
    best = max(range(4), key=lambda i: points[i])
    assert over.headline == f"{s.seats[best].name} wins" and over.reason == "three players are out"
    assert over.points.startswith(f"Points: {s.seats[best].name} {points[best]}, ")
    assert app.flow.display.notice.endswith("resigns.")  # the last one: nobody plays on
    app.over.new_game()
    app.pump()
    pgn = next((tmp_path / "games").glob("*.pgn")).read_text(encoding="utf-8")
    assert '[Variant "Four-player chess"]' in pgn and '[Player4 "Di"]' in pgn


def test_teams_and_the_computer_play_four_player_chess(tmp_path):
    app = App(tmp_path)
    seats = (Seat("Ann"), Seat("Bot", True, 1), Seat("Cy"), Seat("Bot 2", True, 1))
    s = open_game(app, "chess4", seats, mode="teams")
    tap(app, "h2", "h3")
    app.pump()  # the computer's answer comes by the mailbox
    assert len(s.moves) == 1 and app.flow.ai.requested is not None  # Blue's move, lit for a person to make
    move = app.flow.ai.requested
    g = s.rules.geometry
    tap(app, g.name_of(move.frm), g.name_of(move.to))
    assert len(s.moves) == 2 and s.moves[1].player == 1


# ----- fights in every game ----------------------------------------------------------------------------
def test_a_dungeon_fight_names_and_draws_its_units_with_the_odds_on_the_lifted_knight(tmp_path):
    app = App(tmp_path)
    s = open_game(app, "dungeon", (Seat("Blue"), Seat("Red")), "entered", start=dungeon_fight_start(),
                  board_map="dungeon-compact", **FIGHTS)
    g = s.rules.geometry
    app.board.tap(g.parse_square("b3"))  # lifted: the chance of each fight it could start
    app.pump()
    odds = app.board.view().squares[g.parse_square("c5")].odds
    assert odds.endswith("%") and app.board.view().units
    app.board.tap(g.parse_square("b3"))
    app.pump()
    tap(app, "c5", "b3", "c5")
    assert app.flow.display.screen == "fight"
    v = app.fight.view()
    assert (v.attacker.name, v.attacker.glyph, v.attacker.code) == ("Blue Knight", "", "KN")
    assert (v.defenders[0].name, v.defenders[0].code) == ("Red Iron Golem", "IG")
    assert v.attacker.fill == theme.seat_colour("blue") and v.defenders[0].fill == theme.seat_colour("red")
    assert v.entry.ask.startswith("Blue Knight: roll a d8")
    assert v.odds[0].label == "Blue Knight wins" and v.odds[0].value == f"{odds[:-1]}" + v.odds[0].value[len(odds) - 1:]
    for face in [8] * s.pending_fight().attacker.dice.count + [1] * s.pending_fight().defenders[0].dice.count:
        app.fight.enter(face)
    app.fight.use_dice()
    app.pump()
    assert app.fight.view().result.startswith("Blue Knight wins, 9 beats 1. It takes c5.")
    app.fight.act()
    app.pump()
    panel = side_panel(app)
    assert panel.last_turn == "Blue: KN b3xc5 (fight won)" and "fatigue" in panel.legend
    knight = s.pos.board[g.parse_square("c5")]
    assert knight.state["fatigue"] == 1 and app.board.view().squares[g.parse_square("c5")].fatigue == 1
    app.flow.display.show_piece_info(g.parse_square("c5"))
    info = app.info.view()
    assert info.fatigue == "Fatigue: 1." and any("attacked the red iron golem" in line for line in info.fights)


def test_a_kol_double_capture_is_one_fight_against_both_pawns_on_the_fight_screen(tmp_path):
    start = "9k1j/4(1KG)7/12/12/(2VG)11/12/12/4(2KG)7/4(2KG)7/12/12/(1SP)3BKT5 1"
    app = App(tmp_path)
    s = open_game(app, "kol", (Seat("Blue"), Seat("Orange")), "seeded", start=start, **FIGHTS)
    tap(app, "e4", "e5", "e1", "e5")
    assert app.flow.display.screen == "fight"
    v = app.fight.view()
    assert v.attacker.name == "Blue Boris" and [d.name for d in v.defenders] == ["Orange Knob Goblin"] * 2
    assert v.supporters.startswith("With the orange Knob Goblin: orange Knob Goblin on e5 (rolls a d6)")
    assert v.odds[1].label == "Defenders win"
    app.fight_through()
    assert s.moves[-1].fight in ("attacker", "defender") and s.record is not None


def chess4_capture_start(seed: int = 3) -> str:
    """Four-player chess with dice fights: quiet moves at random until the player to move can
    capture (no fight has been fought yet)."""
    s, _ = Session.new(GameSetup("chess4", FOUR, options=(("fights", "dice"),)))
    rng = random.Random(seed)
    while not any(m.capture is not None for m in s.rules.legal_moves(s.pos)):
        s.play(rng.choice([m for m in s.rules.legal_moves(s.pos) if m.capture is None]))
    return s.rules.position_text(s.pos)


def test_a_four_player_fight_with_real_dice_names_the_seats_and_leaves_fatigue_on_the_board(tmp_path):
    """Dice fights on four-player chess: odds on the lifted piece, the fight screen in the
    seats' words and colours with chess glyphs, real dice typed, the fatigue on the board and
    in the piece's card, the turn passing to the next seat."""
    app = App(tmp_path)
    s = open_game(app, "chess4", FOUR, "entered", start=chess4_capture_start(), **FIGHTS)
    g = s.rules.geometry
    capture = next(m for m in s.rules.legal_moves(s.pos) if m.capture is not None)
    mover, target = s.pos.board[capture.frm], s.pos.board[capture.capture]
    app.board.tap(capture.frm)
    app.pump()
    assert app.board.view().squares[capture.to].odds.endswith("%")
    app.board.tap(capture.frm)
    app.pump()
    tap(app, g.name_of(capture.to), g.name_of(capture.frm), g.name_of(capture.to))
    assert app.flow.display.screen == "fight"
    v = app.fight.view()
    colours = ("Red", "Blue", "Yellow", "Green")
    assert v.attacker.name == f"{colours[mover.owner]} {mover.kind.name}"
    assert v.defenders[0].name == f"{colours[target.owner]} {target.kind.name}"
    assert v.attacker.glyph in "\u265a\u265b\u265c\u265d\u265e\u265f"
    assert v.attacker.fill == theme.seat_colour(colours[mover.owner].lower())
    assert v.defenders[0].fill == theme.seat_colour(colours[target.owner].lower())
    fight = s.pending_fight()
    for _ in range(fight.attacker.dice.count):
        app.fight.enter(fight.attacker.dice.sides)
    for _ in range(fight.defenders[0].dice.count):
        app.fight.enter(1)
    app.fight.use_dice()
    app.pump()
    assert app.fight.view().result.startswith(f"{v.attacker.name} wins")
    app.fight.act()
    app.pump()
    winner = s.pos.board[capture.to]
    assert winner.uid == mover.uid and winner.state["fatigue"] == 1 and s.moves[-1].fight == "attacker"
    assert app.board.view().squares[capture.to].fatigue == 1 and s.turn == (mover.owner + 1) % 4
    app.flow.display.show_piece_info(capture.to)
    assert app.info.view().fatigue == "Fatigue: 1."


def test_the_fight_screen_of_chess_is_unchanged_white_and_black_glyphs(tmp_path):
    app = App(tmp_path)
    app.new_game(start="4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1")
    app.tap("d5", "e4", "d5")
    v = app.fight.view()
    assert (v.attacker.name, v.attacker.glyph, v.attacker.fill) == ("White pawn", "\u265f", theme.WHITE_PIECE[0])
    assert v.defenders[0].fill == theme.BLACK_PIECE[0]


# ----- records and the games screen -------------------------------------------------------------------------
@pytest.mark.parametrize("game, seats, options", [("chess4", FOUR, {}), ("kol", (Seat("Blue"), Seat("Orange")), FIGHTS)])
def test_a_finished_game_is_filed_and_reviewed_on_the_games_screen(tmp_path, game, seats, options):
    app = App(tmp_path)
    s = open_game(app, game, seats, "seeded" if options else "virtual", **options)
    rng = random.Random(4)
    rules = s.rules
    while len(s.moves) < 8 and not s.is_over:  # played through the session: captures fight
        if s.pending_fight() is not None:
            s.roll()
            continue
        moves = rules.legal_moves(s.pos)
        s.play(rng.choice(moves))
    while s.pending_fight() is not None:
        s.roll()
    for _ in range(len(seats) - 1):
        if not s.is_over:
            app.flow.game.command(lambda: s.resign(s.turn))
    app.pump()
    assert s.is_over
    app.over.new_game()
    app.pump()
    games = tmp_path / "games"
    assert len(list(games.glob("*.pgn"))) == 1
    assert bool(list(games.glob("*.dice.jsonl"))) == bool(options)
    app.flow.archive.open()
    app.pump()
    listed = app.games.view()
    assert len(listed.rows) == 1 and "Four-player chess" in listed.rows[0].title if game == "chess4" else True
    app.games.select(0)
    app.games.review()
    app.pump()
    review = app.review.view()
    assert app.flow.display.screen == "review" and review.step.startswith(f"Move {len(s.moves)} of {len(s.moves)}")
    board = app.review.board()
    assert board.width == rules.geometry.width and board.units == (game == "kol")
    app.review.first()
    app.pump()
    assert app.review.view().at_start
