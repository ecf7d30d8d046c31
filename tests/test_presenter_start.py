"""The start screen's presenter: every choice by tap, the set-up it starts."""

from companion.app.bootstrap import build_presenters
from tests.ui_flow_helpers import App


def test_the_defaults_are_combat_chess_between_two_people_with_app_dice(tmp_path):
    """Combat Chess is chess with the game row's "Dice fights" switch on (one control, not a
    second chess button)."""
    app = App(tmp_path)
    v = app.start.view()
    assert [c.label for c in v.games if c.selected] == ["Chess"] and v.fights and v.fights_label == "Dice fights: on"
    assert app.start.game == "combat"
    assert [(s.colour, s.name, s.computer) for s in v.seats] == [("White", "White", False), ("Black", "Black", False)]
    assert [c.label for c in v.dice if c.selected] == ["App rolls"] and v.has_dice


def test_a_computer_seat_with_a_level_and_a_preset_name(tmp_path):
    app = App(tmp_path)
    p = app.start
    p.open_kind(1)
    v = p.view()
    assert v.picking_for == "Who plays Black?" and v.names == ("Person", "Computer 1", "Computer 2", "Computer 3",
                                                                       "Friend's board")
    p.pick_kind("Computer 3")
    assert p.view().seats[1].name == "Computer" and p.view().seats[1].kind == "Computer 3"
    assert p.view().names == ()
    p.set_kind(1, True, 9)  # capped at the computer's highest level
    assert p.view().seats[1].level == "Level 3"
    p.set_kind(1, True, 1)
    assert p.view().seats[1].level == "Level 1"
    p.open_names(0)
    assert p.view().picking_for == "Pick a name for White" and "Player 1" in p.view().names
    p.pick_name("Player 1")
    assert p.view().seats[0].name == "Player 1" and p.view().names == ()
    p.start()
    s = app.flow.game.session
    assert [(seat.name, seat.computer, seat.level) for seat in s.seats] == [("Player 1", False, 0), ("Computer", True, 1)]


def test_without_a_computer_player_the_seats_stay_people_and_the_screen_says_why(tmp_path):
    app = App(tmp_path, computer=False)
    app.start.set_kind(1, True, 1)
    app.start.open_kind(1)
    v = app.start.view()
    assert v.names == ("Person", "Friend's board")  # no computer to choose (a friend's board may play it)
    assert not v.seats[1].computer
    app.start.choose_game("chess")
    assert app.start.view().no_computer == "Computer players are not installed."


def test_chess_has_no_dice_and_combat_chess_can_use_real_dice_or_only_d6(tmp_path):
    app = App(tmp_path)
    app.start.toggle_fights()
    assert not app.start.view().has_dice and app.start.game == "chess"
    assert app.start.view().fights_label == "Dice fights: off"
    app.start.choose_game("combat")
    app.start.choose_dice("entered")
    app.start.toggle_d6()
    app.start.start()
    setup = app.flow.game.session.setup
    assert (setup.game, setup.dice, setup.d6_only, setup.seed) == ("combat", "entered", True, None)


def test_checkable_dice_get_a_fresh_seed_whose_commitment_is_shown_in_play(tmp_path):
    app = App(tmp_path)
    app.start.choose_dice("seeded")
    app.start.start()
    app.setup.fill()
    app.pump()
    assert app.flow.game.session.setup.seed == "01" * 32
    assert app.game.view().seal == "Dice seal " + app.flow.game.session.setup.commitment[:8]


def test_every_game_has_the_same_seat_control_a_colour_a_name_and_who_plays_it(tmp_path):
    """Dungeon Chess used to cycle through levels with one button, chess had Person, Computer,
    minus and plus: now both list who may play the seat, and the seat shows it in words."""
    app = App(tmp_path)
    p = app.start
    for game in ("chess", "combat", "dungeon"):
        p.choose_game(game)
        p.open_kind(0)
        assert p.view().names[0] == "Person" and "Computer 3" in p.view().names
        assert p.view().names[-1] == "Friend's board"  # every game may be played with a friend's board
        p.pick_kind("Computer 2")
        seat = p.view().seats[0]
        assert (seat.kind, seat.computer) == ("Computer 2", True) and seat.swatch
        p.open_kind(0)
        p.pick_kind("Person")
        assert p.view().seats[0].kind == "Person"


def test_the_seat_choices_name_what_each_level_plays_like(tmp_path):
    app = App(tmp_path)
    app.flow.ai.computer.level_titles = ("beginner", "novice", "club player")
    app.start.open_kind(0)
    assert app.start.view().names == ("Person", "Computer 1: beginner", "Computer 2: novice", "Computer 3: club player",
                                      "Friend's board")
    app.start.pick_kind("Computer 2: novice")
    assert app.start.view().seats[0].kind == "Computer 2"


def test_unknown_choices_are_ignored(tmp_path):
    p = build_presenters(App(tmp_path).flow).start
    p.choose_game("checkers")
    p.choose_dice("loaded")
    p.choose_option("mode=teams")  # not an option of Combat Chess
    p.choose_option("draw_rules=on")
    assert p.game == "combat" and p.dice == "virtual" and p.options() == {} and not p.draw_rules


def test_dungeon_seats_at_a_friends_board_leave_one_seat_at_least_at_this_board(tmp_path):
    p = App(tmp_path).start
    p.choose_game("dungeon")
    p.choose_map("dungeon-two-player")
    p.open_kind(0)
    p.pick_kind("Friend's board")
    p.open_kind(1)
    p.pick_kind("Friend's board")  # both seats away: refused in one line, the seat stays here
    assert [s.kind for s in p.view().seats] == ["Friend's board", "Person"]
    assert p.view().problem == "One player at least plays at this board: choose another seat for the friend's board."
