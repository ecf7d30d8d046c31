"""The start screen's presenter: every choice by tap, the set-up it starts."""

from companion.app.presenters.start import StartPresenter
from tests.ui_flow_helpers import App


def test_the_defaults_are_combat_chess_between_two_people_with_app_dice(tmp_path):
    v = App(tmp_path).start.view()
    assert [c.label for c in v.games if c.selected] == ["Combat Chess"]
    assert [(s.colour, s.name, s.computer) for s in v.seats] == [("White", "White", False), ("Black", "Black", False)]
    assert [c.label for c in v.dice if c.selected] == ["App rolls"] and v.has_dice


def test_a_computer_seat_with_a_level_and_a_preset_name(tmp_path):
    app = App(tmp_path)
    p = app.start
    p.toggle_computer(1)
    p.change_level(1, +1)
    p.change_level(1, +5)  # capped at the computer's highest level
    assert p.view().seats[1].name == "Computer" and p.view().seats[1].level == "Level 3"
    p.change_level(1, -9)
    assert p.view().seats[1].level == "Level 1"
    p.open_names(0)
    assert p.view().picking_for == "Pick a name for White" and "Player 1" in p.view().names
    p.pick_name("Player 1")
    assert p.view().seats[0].name == "Player 1" and p.view().names == ()
    p.start()
    s = app.flow.session
    assert [(seat.name, seat.computer, seat.level) for seat in s.seats] == [("Player 1", False, 0), ("Computer", True, 1)]


def test_without_a_computer_player_the_seats_stay_people_and_the_screen_says_why(tmp_path):
    app = App(tmp_path, computer=False)
    app.start.toggle_computer(1)
    v = app.start.view()
    assert not v.seats[1].computer and not v.seats[1].can_computer
    app.start.choose_game("chess")
    assert app.start.view().no_computer == "Computer players are not installed."


def test_chess_has_no_dice_and_combat_chess_can_use_real_dice_or_only_d6(tmp_path):
    app = App(tmp_path)
    app.start.choose_game("chess")
    assert not app.start.view().has_dice
    app.start.choose_game("combat")
    app.start.choose_dice("entered")
    app.start.toggle_d6()
    app.start.start()
    setup = app.flow.session.setup
    assert (setup.game, setup.dice, setup.d6_only, setup.seed) == ("combat", "entered", True, None)


def test_checkable_dice_get_a_fresh_seed_whose_commitment_is_shown_in_play(tmp_path):
    app = App(tmp_path)
    app.start.choose_dice("seeded")
    app.start.start()
    app.setup.fill()
    app.pump()
    assert app.flow.session.setup.seed == "01" * 32
    assert app.game.view().seal == "Dice seal " + app.flow.session.setup.commitment[:8]


def test_unknown_choices_are_ignored(tmp_path):
    p = StartPresenter(App(tmp_path).flow)
    p.choose_game("checkers")
    p.choose_dice("loaded")
    assert p.game == "combat" and p.dice == "virtual"
