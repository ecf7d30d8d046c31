"""Dungeon Chess setup: drafting (rulebook "ARMY DRAFTING"), turn order and deployment
("SETUP")."""

import pytest

from companion.core.roster import load_roster
from companion.games.draft import (
    Army, Deployment, DraftError, DraftRules, army_cost, auto_placements, build_position, deploy, draft_problems,
    faction_units, first_player, load_armies_file, presets, remaining_budget, validate_army, zone_capacity,
)
from tests.dungeon_board import OPEN, names, rules, sq

ROSTER = load_roster("dungeon")
PRESETS = presets()
RULEBOOK = ["skeleton-swarm", "human-balanced", "redskin-elite", "greenskin-midrange"]


def water_zone_rules():
    """The OPEN test board with i1 and j1 turned into water inside player 1's spawn zone."""
    from companion.games.dungeon import DungeonRules
    from companion.maps import parse_map

    text = OPEN.replace("1111111111\n'''", "1111111111\n'''\n[legend]\nw = { terrain = \"water\", spawn = 1 }")
    text = text.replace("..........\n1111111111", "..........\n11111111ww")
    return DungeonRules(parse_map(text))


def army(faction, **counts):
    return Army.from_counts(faction, counts)


# ------------------------------------------------------------------------------- drafting

def test_the_draft_rules_are_the_rulebooks():
    """"Budget: 75 XP"; "Must include exactly 1 King"; "Must include at least 1 Pawn"."""
    rules_, _ = load_armies_file()
    assert rules_ == DraftRules(budget=75, kings=1, min_pawns=1)


@pytest.mark.parametrize("name", RULEBOOK)
def test_the_four_rulebook_armies_are_accepted_and_cost_75(name):
    """The "Strategy notes" armies: "Warlock (20) + 55 Skeletons = 75 XP", "Princess (15) +
    Wizard (20) + Archer (18) + Knight (12) + 5 Heroes (10) = 75 XP", "Red Dragon (20) +
    Demonics (22) + Iron Golem (18) + 3 Kobolds (15) = 75 XP", "Warlord (15) + Shaman (20) +
    Troll (16) + Orc (14) + 2 Goblins (10) = 75 XP"."""
    a = PRESETS[name]
    assert a.rulebook and a.source
    validate_army(ROSTER, a)
    assert army_cost(ROSTER, a) == 75 and remaining_budget(ROSTER, a) == 0


def test_the_draft_screen_lists_each_factions_six_units_in_roster_order():
    """"Each faction has 6 unit types corresponding to chess roles (Pawn, Castle, Knight,
    Bishop, Queen, King).\""""
    assert [k.title for k in faction_units(ROSTER, "redskin")] == [
        "Kobold", "Iron Golem", "Salamander", "Fire Elemental", "Demonics", "Red Dragon"]
    assert [k.cost for k in faction_units(ROSTER, "undead")] == [1, 12, 15, 15, 20, 20]
    with pytest.raises(DraftError, match="unknown faction"):
        faction_units(ROSTER, "orcs")


def test_skeleton_swarm_has_56_units():
    """"1 XP Skeletons let you field massive armies\""""
    assert len(PRESETS["skeleton-swarm"].units) == 56


def test_duplicates_are_allowed_and_there_is_no_maximum_size():
    """"Duplicates are allowed (e.g. 3 Knights is legal)"; "No maximum team size\""""
    assert draft_problems(ROSTER, army("human", princess=1, knight=3, hero=1)) == []
    assert draft_problems(ROSTER, army("undead", warlock=1, skeleton=55)) == []


@pytest.mark.parametrize("a,words", [
    (army("human", princess=1, wizard=3, archer=1, hero=1), "costs 95 XP, over the 75 XP budget by 20"),
    (army("human", wizard=1, hero=3), "exactly 1 King, this one has 0"),
    (army("human", princess=2, hero=3), "exactly 1 King, this one has 2"),
    (army("human", princess=1, knight=2), "at least 1 Pawn, this one has 0"),
    (army("human", princess=1, skeleton=1), "Skeleton is from another faction"),
    (army("elves", princess=1, hero=1), "unknown faction 'elves'"),
    (army("human", princess=1, peasant=1), "unknown unit 'peasant'"),
])
def test_a_bad_army_is_refused_with_the_reason(a, words):
    assert any(words in p for p in draft_problems(ROSTER, a))
    with pytest.raises(DraftError, match=words):
        validate_army(ROSTER, a)


def test_the_army_must_fit_its_spawn_zone_and_the_error_says_so():
    """rules-notes: "the army must fit the spawn zone" (v0.2.1 makes this a rule). The swarm's
    56 units cannot deploy in 20 squares."""
    problems = draft_problems(ROSTER, PRESETS["skeleton-swarm"], zone_squares=20)
    assert problems == ["the army has 56 units but the spawn zone on this map has only 20 squares: "
                        "every unit must fit in the spawn zone"]
    r = rules("dungeon-compact")
    with pytest.raises(DraftError, match="must fit in the spawn zone"):
        deploy(r, [PRESETS["skeleton-swarm"], PRESETS["human-balanced"]])


def test_zone_capacity_counts_water_only_for_units_that_may_stand_on_it():
    r = water_zone_rules()
    assert zone_capacity(r, 0, army("human", princess=1, hero=1)) == 8
    assert zone_capacity(r, 0, army("undead", warlock=1, reaper=1, skeleton=1)) == 9


def test_a_bad_armies_file_names_the_file_and_key(tmp_path):
    p = tmp_path / "armies.toml"
    p.write_text("[draft]\nbudget = -5\n")
    with pytest.raises(DraftError, match="budget must be a whole number"):
        load_armies_file(p)
    p.write_text("[armies.x]\nfaction = \"human\"\nunits = { hero = 0 }\n")
    with pytest.raises(DraftError, match=r"\[armies.x\]: units.hero must be a count"):
        load_armies_file(p)
    p.write_text("[extra]\n")
    with pytest.raises(DraftError, match="unknown table"):
        load_armies_file(p)


# ------------------------------------------------------------------------------ turn order

def test_turn_order_first_second_or_a_supplied_random_seat():
    """"Choose turn order: You First, AI First, or Random\""""
    assert first_player("first", you=0) == 0
    assert first_player("second", you=0) == 1
    assert first_player("random", you=0, random_value=1) == 1
    assert first_player("second", you=3, nplayers=4) == 0
    with pytest.raises(DraftError, match="needs the drawn seat"):
        first_player("random")
    with pytest.raises(DraftError, match="expected one of first, second, random"):
        first_player("last")


# ------------------------------------------------------------------------------ deployment

def test_deployment_asks_for_the_king_first_and_pawns_last_in_the_spawn_zone():
    """"Deploy units in your spawn zone (bottom rows of the map)\""""
    r = rules("dungeon-compact")
    dep = Deployment(r, [PRESETS["human-balanced"], PRESETS["greenskin-midrange"]])
    assert dep.next_unit() == (0, "princess")
    assert dep.free_squares() == r.board_map.spawn_zone(1)
    dep.place(sq(r, "e1"))
    assert dep.next_unit() == (0, "wizard")
    assert sq(r, "e1") not in dep.free_squares()
    with pytest.raises(DraftError, match="not in player 1's spawn zone"):
        dep.place(sq(r, "e5"))
    with pytest.raises(DraftError, match="a unit stands there already"):
        dep.place(sq(r, "e1"))
    assert dep.undo() == (0, "princess", sq(r, "e1"))
    assert dep.next_unit() == (0, "princess")


def test_deployment_runs_player_by_player_and_builds_the_start_position():
    r = rules("dungeon-compact")
    armies = [PRESETS["human-balanced"], PRESETS["greenskin-midrange"]]
    dep = Deployment(r, armies)
    dep.auto_rest()
    assert dep.done and dep.next_unit() is None
    pos = dep.position(first=1)
    assert pos.turn == 1
    for player, a in enumerate(armies):
        placed = sorted(p.kind.name for _, p in pos.pieces(player))
        assert placed == sorted(a.units)
        assert {s for s, _ in pos.pieces(player)} <= r.board_map.spawn_zone(player + 1)


def test_an_unfinished_deployment_has_no_position():
    r = rules("dungeon-compact")
    dep = Deployment(r, [PRESETS["human-balanced"], PRESETS["greenskin-midrange"]])
    with pytest.raises(DraftError, match="player 1 still has to place Princess"):
        dep.position()


def test_deploy_with_explicit_placements_checks_each_one():
    r = rules("dungeon-compact")
    a = [army("human", princess=1, hero=1), army("greenskin", warlord=1, goblin=1)]
    pos = deploy(r, a, [(0, "princess", sq(r, "e1")), (0, "hero", sq(r, "e2")),
                        (1, "warlord", sq(r, "e10")), (1, "goblin", sq(r, "d9"))])
    assert pos.board[sq(r, "e1")].kind.name == "princess" and pos.turn == 0
    with pytest.raises(DraftError, match="missing player 2 goblin x1"):
        deploy(r, a, [(0, "princess", sq(r, "e1")), (0, "hero", sq(r, "e2")), (1, "warlord", sq(r, "e10"))])
    with pytest.raises(DraftError, match="not in player 2's spawn zone"):
        deploy(r, a, [(0, "princess", sq(r, "e1")), (0, "hero", sq(r, "e2")),
                      (1, "warlord", sq(r, "e10")), (1, "goblin", sq(r, "d2"))])


def test_units_cannot_be_deployed_on_water_except_the_reaper():
    r = water_zone_rules()
    a = [army("undead", warlock=1, reaper=1, skeleton=1), army("greenskin", warlord=1, goblin=1)]
    dep = Deployment(r, a)
    assert dep.next_unit() == (0, "warlock") and sq(r, "i1") not in dep.free_squares()
    dep.place(sq(r, "a1"))
    assert dep.next_unit() == (0, "reaper") and sq(r, "i1") in dep.free_squares()
    dep.place(sq(r, "i1"))
    assert dep.next_unit() == (0, "skeleton")
    with pytest.raises(DraftError, match="a Skeleton cannot stand on water"):
        dep.place(sq(r, "j1"))


def test_the_automatic_deployment_keeps_the_king_at_the_back_and_no_king_starts_attacked():
    for map_name in ("dungeon-compact", "dungeon-two-player", "dungeon-four-player"):
        r = rules(map_name)
        pos = r.start_position()
        for p in range(r.nplayers):
            assert not r.in_check(pos, p)
            (k,) = pos.royals[p]
            from companion.core.compiled import relative_rank

            assert relative_rank(r.geometry, k, r.homes[p]) == 0


def test_auto_placements_are_deterministic_and_fill_pawns_in_front():
    r = rules("dungeon-compact")
    a = PRESETS["human-balanced"]
    one = auto_placements(r, 0, a.units)
    assert one == auto_placements(r, 0, a.units)
    pawn_rows = {s // 10 for n, s in one if n == "hero"}
    other_rows = {s // 10 for n, s in one if n != "hero"}
    assert pawn_rows == {1} and other_rows == {0}
    assert names(r, [s for n, s in one if n == "princess"]) in (["e1"], ["f1"])


def test_build_position_refuses_a_bad_first_player():
    r = rules("dungeon-compact")
    with pytest.raises(DraftError, match="first player must be 0..1"):
        build_position(r, [], first=2)


def test_a_deployment_of_some_seats_only_places_and_checks_those_seats():
    """A linked board places its own seats' armies ("Deploy units in your spawn zone"); the
    other board's seats are not deployed here, and their armies are not looked at."""
    from companion.games import make_rules
    from companion.games.draft import spawn_zone

    rules = make_rules("dungeon", None)
    armies = [rules.armies()[0], Army("greenskin", ("goblin",) * 80)]  # seat 2's: not looked at
    dep = Deployment(rules, armies, players=(0,))
    assert {p for p, _ in dep.queue} == {0} and dep.free_squares() <= spawn_zone(rules, 0)
    dep.auto_rest()
    assert dep.done and {p for p, _, _ in dep.placed} == {0}
    with pytest.raises(DraftError, match="over the 75 XP budget"):
        Deployment(rules, armies, players=(1,))
