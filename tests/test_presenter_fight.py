"""The fight screen's presenter: fighters, modifiers, exact odds, rounds, result, number pad."""

from fractions import Fraction

from companion.app.presenters.fight import percentages
from tests.ui_flow_helpers import App

CAPTURE = ("e2", "e4", "d7", "d5", "d5", "e4", "d5")


def fight_app(tmp_path, dice="entered", start=None):
    app = App(tmp_path)
    app.new_game(dice=dice, start=start)
    if start is None:
        app.tap(*CAPTURE[:2])
        app.tap(*CAPTURE[2:4])
        app.tap(*CAPTURE[4:])
    return app


def test_percentages_add_up_to_exactly_one_hundred():
    assert percentages((Fraction(1, 3), Fraction(1, 3), Fraction(1, 3))) == ("33.4%", "33.3%", "33.3%")
    assert percentages((Fraction(2, 3), Fraction(1, 3), Fraction(0))) == ("66.7%", "33.3%", "0.0%")
    for ps in [(Fraction(7, 12), Fraction(4, 12), Fraction(1, 12)), (Fraction(1, 7), Fraction(5, 7), Fraction(1, 7))]:
        assert abs(sum(float(p[:-1]) for p in percentages(ps)) - 100) < 1e-9


def test_the_fight_shows_both_fighters_their_dice_every_modifier_and_the_odds(tmp_path):
    app = fight_app(tmp_path)
    v = app.fight.view()
    assert v.title == "Fight 1: exd5"
    assert (v.attacker.name, v.attacker.square, v.attacker.dice) == ("White pawn", "e4", "rolls a d6")
    assert v.attacker.modifiers == ("+1 weapon choice",) and v.defenders[0].modifiers == ("no modifiers",)
    assert [o.label for o in v.odds] == ["White pawn wins", "Black pawn wins", "Three ties (bounce)"]
    odds = app.flow.game.session.rules.odds(app.flow.game.session.pos)
    assert [o.value for o in v.odds] == list(percentages((odds.attacker, odds.defender, odds.bounce)))
    assert [o.value for o in v.odds] == ["67.5%", "32.2%", "0.3%"]
    assert v.phase == "ready" and v.entry is not None and v.entry.sides == 6


def test_real_dice_are_typed_on_a_number_pad_and_can_be_fixed(tmp_path):
    app = fight_app(tmp_path)
    app.fight.enter(7)  # not on a d6 pad: ignored
    assert app.fight.view().entry.entered == ()
    app.fight.enter(4)
    v = app.fight.view()
    assert v.attacker.faces == (4,) and v.entry.ask.startswith("Black pawn: roll a d6")
    app.fight.fix()
    assert app.fight.view().entry.entered == ()
    app.fight.enter(4)
    app.fight.enter(5)
    v = app.fight.view()
    assert v.entry.complete and v.action == "Use these dice"
    app.fight.use_dice()
    app.pump()
    v = app.fight.view()
    assert v.phase == "again" and v.rounds == ("Round 1: 5 against 5 \u2014 tie",) and v.action == ""


def test_the_result_says_who_won_and_why(tmp_path):
    app = fight_app(tmp_path)
    for f in (6, 1):
        app.fight.enter(f)
    app.fight.use_dice()
    app.pump()
    v = app.fight.view()
    assert v.phase == "done" and v.action == "Continue"
    assert v.result == "White pawn wins, 7 beats 1. It takes d5. The winner gets a fatigue token."
    assert v.attacker.total == "= 7" and v.defenders[0].total == "= 1"


def test_a_lost_attack_and_a_bounce_are_explained(tmp_path):
    app = fight_app(tmp_path)
    for f in (1, 6):
        app.fight.enter(f)
    app.fight.use_dice()
    app.pump()
    assert app.fight.view().result == ("Black pawn holds, 6 beats 2. The white pawn is removed. "
                                       "The winner gets a fatigue token.")
    other = fight_app(tmp_path / "b")
    for _ in range(3):
        for f in (5, 6):
            other.fight.enter(f)
        other.fight.use_dice()
        other.pump()
    v = other.fight.view()
    assert v.phase == "done" and v.result.startswith("Three ties: the fight bounces.")
    assert len(v.rounds) == 3 and all(r.endswith("tie") for r in v.rounds)


def test_app_rolled_dice_hide_the_last_round_until_the_animation_is_over(tmp_path):
    app = fight_app(tmp_path, dice="seeded")
    assert app.fight.view().entry is None and app.fight.view().action == "Roll the dice"
    app.fight.act()
    app.pump()
    v = app.fight.view()
    assert v.phase == "rolling" and v.rounds == () and v.result == "" and app.flow.board.leds_held
    app.fight.animation_done()
    assert app.fight.view().rounds and not app.flow.board.leds_held


def test_fatigue_and_weapon_choice_of_a_king_defender(tmp_path):
    app = fight_app(tmp_path, dice="seeded", start="4k3/3P4/8/8/8/8/8/4K3 b - - 0 1")
    app.tap("d7", "e8", "d7")  # the black king takes the pawn: lift the victim, lift the king, put it down
    v = app.fight.view()
    assert v.attacker.name == "Black king" and v.attacker.dice == "rolls a d10"
    assert v.attacker.modifiers == ("+1 weapon choice",)


def test_kings_prerogative_lists_every_defender_and_adds_their_rolls(tmp_path):
    # Black is mated by the rook on e7 (defended by the knight on c6 and the pawn on f6); the King
    # may attack it anyway and fights all three at once
    start = "4k3/4R1P1/2N2P2/8/8/8/8/4K3 b - - 0 1"
    app = fight_app(tmp_path, dice="entered", start=start)
    app.tap("e7", "e8", "e7")
    v = app.fight.view()
    assert v.attacker.name == "Black king" and len(v.defenders) == 3
    assert v.supporters.startswith("With the white rook: ")
    assert "white knight on c6 (rolls a d8)" in v.supporters and "white pawn on f6 (rolls a d6)" in v.supporters
    assert v.entry.slots == 4
    for f in (10, 1, 1, 1):
        app.fight.enter(f)
    app.fight.use_dice()
    app.pump()
    v = app.fight.view()
    assert v.phase == "done" and v.result.startswith("Black king wins, 11 beats 3.")
