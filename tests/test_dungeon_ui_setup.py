"""Setting up a Dungeon Chess game in the app, without Kivy: the start screen's map and seats,
the draft screen, the turn order, the deployment on the simulated board."""

import json

import pytest

from companion.app.presenters.dungeon_prep import DungeonPrep
from companion.app.presenters.flow import BoardLink
from companion.board.palette import Meaning
from companion.errors import DraftError
from companion.session import Seat
from tests.dungeon_ui_helpers import DungeonApp


# ----- the start screen ---------------------------------------------------------------------------


def test_dungeon_chess_is_a_game_choice_with_the_three_maps_drawn_small(tmp_path):
    app = DungeonApp(tmp_path)
    app.p.start.choose_game("dungeon")
    v = app.p.start.view()
    assert [g.label for g in v.games] == ["Chess", "Dungeon Chess", "Chess 2", "KoL Chess", "Four-player chess"] and v.dungeon
    assert [(m.key, m.size, m.selected) for m in v.maps] == [
        ("dungeon-compact", "10\u00d710, 2 players", True),
        ("dungeon-two-player", "8\u00d720, 2 players", False),
        ("dungeon-four-player", "20\u00d720, 3\u20134 players", False)]
    four = v.maps[2].thumb
    assert (four.width, four.height, len(four.cells)) == (20, 20, 400)
    from companion.app import theme
    assert four.cells[0] == theme.VOID  # a1: outside the cross
    assert four.cells[9 * 20 + 9] == theme.WATER  # j10: the pool
    assert four.cells[7] == theme.seat_colour("blue")  # h1: the blue spawn chamber
    assert v.start_label == "Choose the armies" and not v.has_dice


def test_the_seats_follow_the_map_two_or_four_named_by_their_colours(tmp_path):
    app = DungeonApp(tmp_path)
    p = app.p.start
    p.choose_game("dungeon")
    assert [(s.colour, s.name, s.kind) for s in p.view().seats] == [("Blue", "Blue", "Person"), ("Red", "Red", "Person")]
    p.choose_map("dungeon-four-player")
    assert [s.name for s in p.view().seats] == ["Blue", "Red", "Green", "Yellow"]
    p.open_names(2)
    v = p.view()
    assert v.picking_for == "Pick a name for Green" and v.names[:4] == ("Blue", "Red", "Green", "Yellow")
    p.pick_name("Guest")
    p.choose_map("dungeon-compact")
    p.choose_map("dungeon-four-player")
    assert [s.name for s in p.view().seats] == ["Blue", "Red", "Guest", "Yellow"]


def test_without_companion_ai_every_dungeon_seat_is_a_person(tmp_path):
    app = DungeonApp(tmp_path)
    p = app.p.start
    p.choose_game("dungeon")
    p.set_kind(1, True, 1)
    p.open_kind(1)
    v = p.view()
    assert not v.seats[1].computer and v.names == ("Person", "Friend's board")  # no computer to choose


def test_with_a_computer_player_a_seat_lists_person_and_every_level(tmp_path):
    app = DungeonApp(tmp_path, computer=True)
    p = app.p.start
    p.choose_game("dungeon")
    p.open_kind(1)
    assert p.view().names == ("Person", "Computer 1", "Computer 2", "Computer 3", "Friend's board")
    p.pick_kind("Computer 1")
    p.start()
    assert app.flow.dungeon.prep.seats[1] == Seat("Red", True, 1, word=True)  # the seat's colour: the app's word


def test_three_players_on_the_four_player_map_by_leaving_the_yellow_seat_empty(tmp_path):
    """"2-4 PLAYERS": the four-player map's last seat may be "Nobody" (the map's three-player
    seating), listed after the computer levels; the others cannot be left empty; the draft then
    has three armies, and the game seats south, west and north."""
    app = DungeonApp(tmp_path, computer=True)
    p = app.p.start
    p.choose_game("dungeon")
    p.choose_map("dungeon-four-player")
    p.open_kind(3)
    assert p.view().names == ("Person", "Computer 1", "Computer 2", "Computer 3", "Nobody", "Friend's board")
    p.pick_kind("Nobody")
    assert p.view().seats[3].kind == "Nobody" and p.view().seats[3].empty and p.view().seats[3].can_computer
    p.open_kind(2)
    assert "Nobody" not in p.view().names  # Green cannot be left empty as well: no such seating
    p.pick_kind("Nobody")
    assert p.view().seats[2].kind == "Person"
    p.start()
    prep = app.flow.dungeon.prep
    assert prep.nplayers == 3 and [s.name for s in prep.seats] == ["Blue", "Red", "Green"]
    assert [s.home for s in prep.rules.board_map.seats] == ["south", "west", "north"]


def test_the_empty_seat_is_kept_across_a_look_at_another_map(tmp_path):
    app = DungeonApp(tmp_path)
    p = app.p.start
    p.choose_game("dungeon")
    p.choose_map("dungeon-four-player")
    p.open_kind(3)  # no computer here: Person, Nobody, or a friend's board
    assert p.view().names == ("Person", "Nobody", "Friend's board")
    p.pick_kind("Nobody")
    assert p.view().seats[3].kind == "Nobody"
    p.choose_map("dungeon-compact")
    p.choose_map("dungeon-four-player")
    assert p.view().seats[3].kind == "Nobody"  # the seating is the four-player map's own: kept
    p.start()
    assert app.flow.dungeon.prep.nplayers == 3


def test_the_draw_rules_are_off_by_default_and_one_tap_turns_them_on(tmp_path):
    """The rulebook's game ("the game only ends on actual King capture") by default; the draw
    rules are an option, carried into the game's set-up and its rules."""
    app = DungeonApp(tmp_path)
    p = app.p.start
    p.choose_game("dungeon")
    v = p.view()
    assert [(c.label, c.selected) for c in v.choices] == [("No draws", True), ("Draw rules", False)]
    assert "only when a King is taken" in v.choices_hint and "only when a King is taken" in v.hint
    p.choose_option(v.choices[1].key)
    assert p.view().choices[1].selected and "3 repetitions" in p.view().choices_hint
    p.start()
    assert app.flow.dungeon.prep.draw_rules and app.flow.dungeon.prep.rules.quiet_moves == 50
    app.pump()
    app.draft_defaults()
    app.p.deploy.place_rest()
    app.pump()
    app.follow_the_lights()
    s = app.flow.game.session
    assert s is not None and s.setup.draw_rules and s.rules.repetition == 3


def test_choosing_the_armies_opens_the_draft_on_a_board_of_the_maps_size(tmp_path):
    app = DungeonApp(tmp_path)
    app.choose_dungeon("dungeon-four-player")
    assert app.flow.display.screen == "draft"
    assert (app.flow.board.link.width, app.flow.board.link.height) == (20, 20) and app.sim.size == 400
    assert len(app.flow.board.frame) == 400
    app.p.draft.back()
    assert app.flow.display.screen == "start" and app.flow.dungeon.prep is None


def test_a_hardware_board_of_another_size_says_so_on_the_start_screen(tmp_path):
    app = DungeonApp(tmp_path)
    wired = app.flow.board.link
    app.flow.board.link = BoardLink(wired.sensors, wired.leds, 8, 8, simulated=None, name="gpio")
    app.choose_dungeon("dungeon-compact")
    assert app.flow.display.screen == "start" and app.flow.dungeon.prep is None
    assert app.p.start.view().problem == "This board plays 8\u00d78 maps; the map is 10\u00d710."


def test_a_board_that_cannot_open_for_the_map_is_opened_again_at_its_own_size(tmp_path):
    from companion.errors import HardwareError

    app = DungeonApp(tmp_path)
    wired = app.flow.board.link
    opened = []

    def opener(width, height):
        opened.append((width, height))
        if (width, height) != (8, 8):
            raise HardwareError(f"the board's 8x8 squares cannot hold a {width}x{height} map")
        return BoardLink(wired.sensors, wired.leds, 8, 8, simulated=wired.simulated, opener=opener)

    app.flow.board.link = BoardLink(wired.sensors, wired.leds, 8, 8, simulated=wired.simulated, opener=opener)
    app.choose_dungeon("dungeon-four-player")
    assert opened == [(20, 20), (8, 8)] and app.flow.display.screen == "start"
    assert app.p.start.view().problem == "the board's 8x8 squares cannot hold a 20x20 map"
    assert app.flow.board.link.sensors.is_running and app.flow.board.connected


def test_a_chess_game_after_a_dungeon_game_gets_an_eight_by_eight_board_again(tmp_path):
    app = DungeonApp(tmp_path)
    app.choose_dungeon("dungeon-compact")
    app.p.draft.back()
    app.p.start.choose_game("chess")
    app.p.start.start()
    app.pump()
    assert app.flow.display.screen == "setup" and (app.flow.board.link.width, app.flow.board.link.height) == (8, 8)


# ----- the draft ---------------------------------------------------------------------------------


def test_each_seat_starts_with_a_ready_rulebook_army(tmp_path):
    app = DungeonApp(tmp_path)
    app.choose_dungeon()
    v = app.p.draft.view()
    assert (v.title, v.seat) == ("Blue army", "Player 1 of 2")
    assert [c.label for c in v.factions if c.selected] == ["Human"]
    assert [(u.title, u.count) for u in v.units] == [("Hero", 5), ("Stronghold", 0), ("Knight", 1), ("Archer", 1),
                                                     ("Wizard", 1), ("Princess", 1)]
    assert v.ready and v.summary == "9 units, 75 XP: ready." and v.budget == "0 XP left of 75"
    assert [c.label for c in v.presets] == ["Skeleton swarm", "Human balanced", "Redskin elite", "Greenskin midrange"]
    assert [c.selected for c in v.presets] == [False, True, False, False]


def test_a_rulebook_army_is_one_tap_and_the_swarm_does_not_fit_the_spawn_zone(tmp_path):
    app = DungeonApp(tmp_path)
    app.choose_dungeon()
    app.p.draft.use_preset("skeleton-swarm")
    v = app.p.draft.view()
    assert [c.label for c in v.factions if c.selected] == ["Undead"] and not v.ready
    assert v.problems == ("The army has 56 units but the spawn zone on this map has only 20 squares: "
                          "every unit must fit in the spawn zone.")
    assert v.units[0].count == 55 and v.units[-1].count == 1
    app.p.draft.next()
    assert app.flow.dungeon.prep.seat == 0 and "cannot be played yet" in app.flow.display.notice
    for name in ("human-balanced", "redskin-elite", "greenskin-midrange"):
        app.p.draft.use_preset(name)
        assert app.p.draft.view().ready, name


def test_units_are_added_and_removed_with_the_budget_and_the_rules_in_plain_words(tmp_path):
    app = DungeonApp(tmp_path)
    app.choose_dungeon()
    d = app.p.draft
    d.choose_faction("greenskin")
    v = d.view()
    assert all(u.count == 0 for u in v.units) and v.budget == "75 XP left of 75"
    assert v.problems.split("\n") == ["An army needs exactly 1 King, this one has 0.",
                                      "An army needs at least 1 Pawn, this one has 0."]
    d.add("warlord")
    v = d.view()
    assert not [u for u in v.units if u.name == "warlord"][0].can_add  # one King only
    for _ in range(3):
        d.add("ogre")  # 15 + 42
    d.add("goblin")
    v = d.view()
    assert v.ready and v.budget == "13 XP left of 75"
    assert [u.can_add for u in v.units] == [True, False, False, False, False, False]  # only a Goblin (5) fits
    d.add("troll")  # the screen's button is off; the rules say what is wrong
    assert d.view().problems == "The army costs 78 XP, over the 75 XP budget by 3."
    assert d.view().budget == "3 XP over the 75 XP budget"
    d.remove("troll")
    d.remove("goblin")
    assert d.view().problems == "An army needs at least 1 Pawn, this one has 0."
    d.clear()
    assert app.flow.dungeon.prep.army().units == () and app.flow.dungeon.prep.army().faction == "greenskin"


def test_a_faction_tab_never_wipes_a_draft_each_faction_keeps_its_own(tmp_path):
    """Switching the faction tab used to wipe the drafted army without a word."""
    app = DungeonApp(tmp_path)
    app.choose_dungeon()
    d, prep = app.p.draft, app.flow.dungeon.prep
    d.remove("hero")
    mine = prep.army()
    assert mine.faction == "human" and mine.units.count("hero") == 4
    d.choose_faction("undead")
    assert prep.army().faction == "undead" and prep.army().units == ()
    d.add("warlock")
    d.choose_faction("human")
    assert prep.army() == mine
    d.choose_faction("undead")
    assert prep.army().units == ("warlock",)
    d.choose_faction("human")
    d.next()  # the next seat has drafts of its own
    assert prep.seat == 1
    d.choose_faction("undead")
    assert prep.army().units == ()


def test_tapping_a_unit_shows_what_it_does_and_its_abilities(tmp_path):
    app = DungeonApp(tmp_path)
    app.choose_dungeon()
    app.p.draft.choose_faction("greenskin")
    app.p.draft.select("troll")
    v = app.p.draft.view()
    assert v.detail_title == "Troll (TR)" and [u.selected for u in v.units][3]
    assert v.detail.startswith("Slides diagonally; captures the same way.")
    assert "Thick-skinned: The first capture only pushes it 1 square back" in v.detail
    assert "Water weakness: Water stops its diagonal slides" in v.detail


def test_after_the_last_army_the_screen_asks_who_moves_first(tmp_path):
    app = DungeonApp(tmp_path)
    app.choose_dungeon()
    app.p.draft.next()
    v = app.p.draft.view()
    assert (v.title, v.next_label) == ("Red army", "Who starts?")
    app.p.draft.back()
    assert app.p.draft.view().title == "Blue army"
    app.p.draft.next()
    app.p.draft.next()
    prompt = app.flow.display.prompt
    assert prompt.kind == "turn-order" and prompt.title == "Who moves first?"
    assert [(o.key, o.label) for o in prompt.options] == [("first", "Blue first"), ("second", "Red first"),
                                                        ("random", "Random")]


# ----- turn order --------------------------------------------------------------------------------


@pytest.mark.parametrize("choice, first", [("first", 0), ("second", 1), ("random", 1)])
def test_the_turn_order_decides_who_moves_first_in_the_journaled_game(tmp_path, choice, first):
    app = DungeonApp(tmp_path, drawn=1)
    app.choose_dungeon()
    app.draft_defaults(choice)
    assert app.flow.display.screen == "deploy" and app.flow.dungeon.prep.first == first
    assert app.draws == ([2] if choice == "random" else [])
    app.p.deploy.place_rest()
    app.settle(300)
    assert app.flow.display.screen == "game" and app.flow.game.session.turn == first
    start = json.loads((tmp_path / "current.jsonl").read_text().splitlines()[0])["entry"]["setup"]
    assert start["game"] == "dungeon" and start["board_map"] == "dungeon-compact"
    assert start["start"].endswith(f" {first + 1}")


def test_with_a_person_only_on_the_second_seat_you_first_means_that_seat():
    prep = DungeonPrep("dungeon-compact", (Seat("Computer", True, 1), Seat("Ann")))
    assert prep.choose_first("first") == 1 and prep.choose_first("second") == 0
    with pytest.raises(DraftError, match="needs the drawn seat"):
        prep.choose_first("random")
    with pytest.raises(DraftError, match="expected one of first, second, random"):
        prep.choose_first("last")


def test_an_army_that_is_not_ready_cannot_be_deployed():
    prep = DungeonPrep("dungeon-compact", (Seat("A"), Seat("B")))
    prep.use_preset("skeleton-swarm")
    with pytest.raises(DraftError, match="player 1's army cannot be played yet: the army has 56 units"):
        prep.choose_first("first")
    with pytest.raises(DraftError, match="choose who moves first"):
        prep.begin_deployment(None, (), 0)


# ----- deployment --------------------------------------------------------------------------------


def test_the_deployment_lights_the_spawn_zone_and_names_the_next_unit(tmp_path):
    app = DungeonApp(tmp_path)
    app.choose_dungeon()
    app.draft_defaults("first")
    v = app.p.deploy.view()
    assert (v.next_code, v.next_line) == ("PR", "Next: Blue Princess")
    assert v.then == "Then: Wizard, Archer, Knight, Hero \u00d75"
    assert v.players == ("Blue 0 of 9 placed", "Red 0 of 6 placed")
    assert v.guidance == "Put the blue Princess on a lit square of the blue spawn zone. 0 of 9 units placed."
    lit = {sq for sq, m in app.flow.board.meanings.items() if m is Meaning.PLAYER_3}  # blue's LED colour
    assert lit == set(range(20))  # ranks 1 and 2 of the 10x10 map
    water = {sq for sq, m in app.flow.board.meanings.items() if m is Meaning.TERRAIN_WATER}
    assert len(water) == 16
    board = app.p.board.view()
    assert board.squares[lit.pop()].light is not None and board.squares[33].terrain == "water"
    assert board.squares[33].light is None  # the water is drawn as water, not as its dim glow


def test_a_piece_put_on_a_lit_square_becomes_the_next_unit_and_undo_takes_it_back(tmp_path):
    app = DungeonApp(tmp_path)
    app.choose_dungeon()
    app.draft_defaults("first")
    app.tap("e1")
    square = app.p.board.view().squares[app.sq("e1")]
    assert (square.glyph, square.owner) == ("PR", 0)
    assert app.p.deploy.view().next_line == "Next: Blue Wizard" and app.p.bar.view().can_undo
    app.p.bar.undo()
    app.pump()
    assert app.flow.dungeon.prep.deployment.placed == []
    assert app.flow.board.guidance == "Take the blue Princess off e1." and not app.flow.board.in_sync
    app.tap("e1")
    assert app.flow.board.in_sync and app.p.deploy.view().next_line == "Next: Blue Princess"


def test_a_piece_outside_the_spawn_zone_is_flagged(tmp_path):
    app = DungeonApp(tmp_path)
    app.choose_dungeon()
    app.draft_defaults("first")
    app.tap("e5")
    assert app.flow.board.guidance == ("The piece on e5 is not on a free square of the blue spawn zone: "
                                 "put it on a lit square.")
    assert app.flow.board.meanings[app.sq("e5")] is Meaning.ILLEGAL and app.flow.dungeon.prep.deployment.placed == []


def test_every_unit_placed_by_taps_starts_the_game_with_the_board_in_step(tmp_path):
    app = DungeonApp(tmp_path)
    app.choose_dungeon()
    app.draft_defaults("second")
    app.deploy_by_taps()
    assert app.flow.display.screen == "game" and app.flow.dungeon.prep is None
    s = app.flow.game.session
    assert s.turn == 1 and app.flow.board.in_sync and len(s.pos.occupied()) == 15
    assert app.flow.display.notice == "Red moves first."


def test_back_to_the_armies_drops_the_placements(tmp_path):
    app = DungeonApp(tmp_path)
    app.choose_dungeon()
    app.draft_defaults("first")
    app.tap("a1")
    app.p.deploy.back()
    assert app.flow.display.screen == "draft" and app.flow.dungeon.prep.deployment is None and app.flow.dungeon.prep.seat == 1
    assert app.p.deploy.view() is None
