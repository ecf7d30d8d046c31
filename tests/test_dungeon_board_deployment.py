"""Deploying Dungeon Chess armies on the physical board (companion/board/deployment.py): the
spawn zone lit in the player's colour, the screen saying which unit comes next, a piece put on
a free square becoming that unit, lifting it back undoing, wrong squares flagged at once; for
two and four players, and handing over to the tracker."""

from __future__ import annotations

import pytest

from companion.board.deployment import (DeploymentCompleted, DeploymentTracker, PlacementUndone,
                                        UnitPlaced)
from companion.board.ports import BoardConnected, OccupancySnapshot, SquareChanged
from companion.board.tracker import IllegalMoveShown, InSync, OutOfSync, Tracker
from companion.errors import HardwareError
from companion.games import make_rules
from companion.games.draft import Army, Deployment, auto_placements, spawn_zone
from tests.dungeon_board_table import SMALL, Hands, deploy_everything
from tests.tracker_hands import frame_contexts

# ----- the lights and the words ----------------------------------------------------------------


def test_the_current_players_free_spawn_squares_are_lit_in_their_colour():
    h = Hands("dungeon-compact", [SMALL["human"], SMALL["redskin"]])
    zone = {h.name(s) for s in spawn_zone(h.rules, 0)}
    assert h.lit() == {s: "player-3" for s in zone}  # blue seat: sky blue
    assert h.guide.guidance.text == ("Put the blue Princess on a lit square of the blue spawn zone. "
                                     "0 of 4 units placed.")
    assert h.guide.next_unit == (0, "princess")
    assert {h.name(s) for s, m in h.guide.meanings.items() if m.value == "terrain-water"} == {
        f + str(n) for f in "defg" for n in (4, 5, 6, 7)}
    assert "players" in frame_contexts(h.frames[-1])  # (the coach on a map holds these too)


def test_a_piece_put_on_a_free_spawn_square_becomes_the_next_unit():
    h = Hands("dungeon-compact", [SMALL["human"], SMALL["redskin"]])
    out = h.put("e1")
    assert [o for o in out if isinstance(o, UnitPlaced)] == [UnitPlaced(0, "princess", h.sq("e1"), h.t)]
    assert h.deployment.placed == [(0, "princess", h.sq("e1"))]
    assert "e1" not in h.lit()
    assert h.guide.guidance.text.startswith("Put the blue Wizard on a lit square")


def test_a_piece_must_stand_for_the_settle_time_before_it_counts():
    h = Hands("dungeon-compact", [SMALL["human"], SMALL["redskin"]])
    h.put("e1", settle=100)
    assert h.deployment.placed == []
    h.lift("e1", settle=0)
    h.put("f1", settle=0)  # slid on to the next square
    h.wait(200)
    assert h.deployment.placed == [(0, "princess", h.sq("f1"))]


def test_lifting_the_last_placed_piece_undoes_it():
    h = Hands("dungeon-compact", [SMALL["human"], SMALL["redskin"]])
    h.put("e1")
    h.put("d1")
    out = h.lift("d1")
    assert [o for o in out if isinstance(o, PlacementUndone)] == [PlacementUndone(0, "wizard", h.sq("d1"), h.t)]
    assert h.deployment.next_unit() == (0, "wizard")
    h.put("c2")
    assert h.deployment.placed[-1] == (0, "wizard", h.sq("c2"))


def test_lifting_the_newest_pieces_together_undoes_them_all():
    h = Hands("dungeon-compact", [SMALL["human"], SMALL["redskin"]])
    for s in ("e1", "d1", "c1"):
        h.put(s)
    h.lift("c1", settle=0)
    h.lift("d1", settle=0)
    h.wait(200)
    assert [(u, h.name(s)) for _, u, s in h.deployment.placed] == [("princess", "e1")]
    assert [o.unit for o in h.of(PlacementUndone)] == ["hero", "wizard"]


def test_lifting_an_older_piece_asks_for_it_back():
    h = Hands("dungeon-compact", [SMALL["human"], SMALL["redskin"]])
    h.put("e1")
    h.put("d1")
    h.lift("e1")
    assert len(h.deployment.placed) == 2
    assert h.guide.status == "out-of-sync"
    assert h.lit() == {"e1": "place"}
    assert h.guide.guidance.text == ("Put the blue Princess back on e1 "
                                     "(only the last unit placed can be taken back).")
    h.put("e1")
    assert h.guide.status == "placing" and h.of(InSync)


def test_a_piece_outside_the_spawn_zone_is_flagged_at_once():
    h = Hands("dungeon-compact", [SMALL["human"], SMALL["redskin"]])
    out = h.put("e3", settle=0)
    assert [o.squares for o in out if isinstance(o, IllegalMoveShown)] == [(h.sq("e3"),)]
    assert any(isinstance(o, OutOfSync) for o in out)
    lit = h.lit()
    assert lit["e3"] == "illegal"
    assert {s for s, m in lit.items() if m == "place"} == {h.name(s) for s in spawn_zone(h.rules, 0)}
    assert h.guide.guidance.text == ("The piece on e3 is not on a free square of the blue spawn zone: "
                                     "put it on a lit square.")
    h.wait(1000)
    assert h.deployment.placed == []  # never placed, however long it stands
    assert frame_contexts(h.frames[-1]) == ["correction"]
    h.lift("e3")
    h.put("e2")
    assert h.deployment.placed == [(0, "princess", h.sq("e2"))]


def test_a_piece_in_another_players_zone_is_wrong_too():
    h = Hands("dungeon-compact", [SMALL["human"], SMALL["redskin"]])
    h.put("e10", settle=0)
    assert h.lit()["e10"] == "illegal"
    assert "blue spawn zone" in h.guide.guidance.text


def test_a_unit_that_cannot_stand_on_water_is_told_so():
    """The four-player map's zones are floor; a test map with water in the zone shows it."""
    from companion.games.dungeon import DungeonRules
    from companion.maps import parse_map
    text = """
[map]
name = "wet-zone"
width = 6
height = 6
players = 2
grid = '''
222222
......
......
......
......
1w1111
'''
[legend.w]
terrain = "water"
spawn = 1
[players.1]
home = "south"
colour = "blue"
[players.2]
home = "north"
colour = "red"
"""
    r = DungeonRules(parse_map(text))
    dep = Deployment(r, [Army("human", ("princess", "hero")), Army("redskin", ("red_dragon", "kobold"))])
    guide = DeploymentTracker(r, dep)
    out = guide.feed(SquareChanged(r.geometry.parse_square("b1"), True, 10))
    assert any(isinstance(o, IllegalMoveShown) for o in out)
    assert guide.guidance.text.startswith("The blue Princess cannot stand on water (b1)")


def test_two_pieces_put_at_once_are_asked_one_at_a_time():
    h = Hands("dungeon-compact", [SMALL["human"], SMALL["redskin"]])
    h.put("e1", settle=0)
    h.put("f1", settle=0)
    h.wait(500)
    assert h.deployment.placed == []
    assert h.lit()["e1"] == "remove" and h.lit()["f1"] == "remove"
    assert h.guide.guidance.text == "Place one unit at a time: take a piece off e1, f1."
    h.lift("f1")
    assert h.deployment.placed == [(0, "princess", h.sq("e1"))]


def test_stray_pieces_on_the_board_at_the_start_are_taken_off_first():
    r = make_rules("dungeon", "dungeon-compact")
    dep = Deployment(r, [SMALL["human"], SMALL["redskin"]])
    e1, e5 = r.geometry.parse_square("e1"), r.geometry.parse_square("e8")
    guide = DeploymentTracker(r, dep, sensed={e1, e5})
    assert guide.status == "out-of-sync"
    assert guide.guidance.text == "Take the piece off e1. Take the piece off e8."
    guide.feed(SquareChanged(e1, False, 10))
    guide.feed(SquareChanged(e5, False, 20))
    guide.feed(SquareChanged(e1, True, 30))
    guide.tick(400)
    assert dep.placed == [(0, "princess", e1)]


def test_the_screens_undo_button_asks_for_the_piece_to_be_taken_off():
    h = Hands("dungeon-compact", [SMALL["human"], SMALL["redskin"]])
    h.put("e1")
    h.put("d1")
    out = h.take(h.guide.undo())
    assert [o.unit for o in out if isinstance(o, PlacementUndone)] == ["wizard"]
    assert h.lit() == {"d1": "remove"}
    assert h.guide.guidance.text == "Take the blue Wizard off d1."
    h.wait(1000)
    assert len(h.deployment.placed) == 1  # the piece still standing there is not placed again
    h.lift("d1")
    assert h.guide.status == "placing" and h.deployment.next_unit() == (0, "wizard")


def test_units_placed_on_the_screen_are_guided_onto_the_board():
    h = Hands("dungeon-compact", [SMALL["human"], SMALL["redskin"]])
    h.put("e1")
    h.deployment.auto_rest()
    out = h.take(h.guide.deployment_changed())
    assert not any(isinstance(o, DeploymentCompleted) for o in out)
    places = {s for s, m in h.lit().items() if m == "place"}
    assert places == {h.name(s) for _, _, s in h.deployment.placed[1:]}
    assert h.guide.guidance.text.startswith("Put the blue ")
    for _, _, s in h.deployment.placed[1:]:
        h.put(s, settle=0)
    out = h.wait(200)
    assert any(isinstance(o, DeploymentCompleted) for o in h.outputs)
    assert h.guide.done and h.guide.status == "done"


# ----- whole deployments -------------------------------------------------------------------------------


@pytest.mark.parametrize("map_name, armies", [
    ("dungeon-compact", ("human", "redskin")),
    ("dungeon-two-player", ("undead", "greenskin")),
    ("dungeon-four-player", ("human", "undead", "redskin", "greenskin")),
])
def test_a_whole_deployment_on_the_board_gives_the_screens_position(map_name, armies):
    h = Hands(map_name, [SMALL[a] for a in armies])
    placed = deploy_everything(h)
    assert h.deployment.done and h.guide.done
    assert h.of(DeploymentCompleted)
    assert [(o.player, o.unit, o.square) for o in h.of(UnitPlaced)] == placed
    assert h.guide.guidance.text == "Every unit is placed."
    for frame in h.frames:
        assert frame_contexts(frame)
    # each player's zone was lit in their own colour while they deployed
    colours = {m.value for f in h.frames for m in f.values() if m.value.startswith("player")}
    assert len(colours) == len(armies)
    pos = h.deployment.position()
    tracker = Tracker(h.rules, pos, sensed=h.guide.sensed)
    assert tracker.in_sync
    assert {s for s, _ in pos.pieces()} == h.guide.sensed


def test_four_players_deploy_in_seat_order_each_in_their_own_zone():
    h = Hands("dungeon-four-player", [SMALL[a] for a in ("human", "undead", "redskin", "greenskin")])
    seen = []
    while h.deployment.next_unit() is not None:
        player, _ = h.deployment.next_unit()
        lit = {h.sq(s) for s, m in h.lit().items() if m.startswith("player")}
        assert lit and lit <= spawn_zone(h.rules, player)
        if not seen or seen[-1] != player:
            seen.append(player)
        deploy_one = auto_placements(h.rules, player,
                                     [u for p, u in h.deployment.queue[len(h.deployment.placed):] if p == player],
                                     h.deployment.placed)[0]
        h.put(deploy_one[1])
    assert seen == [0, 1, 2, 3]


def test_a_snapshot_and_connection_events_work_like_single_changes():
    h = Hands("dungeon-compact", [SMALL["human"], SMALL["redskin"]])
    h.t += 10
    h.take(h.guide.feed(OccupancySnapshot(frozenset({h.sq("e1")}), h.t)))
    h.take(h.guide.feed(BoardConnected({}, h.t + 500)))
    assert h.deployment.placed == [(0, "princess", h.sq("e1"))]


# ----- bad input ------------------------------------------------------------------------------------


def test_bad_inputs_are_refused_with_a_reason():
    r = make_rules("dungeon", "dungeon-compact")
    dep = Deployment(r, [SMALL["human"], SMALL["redskin"]])
    with pytest.raises(ValueError, match="settle_ms"):
        DeploymentTracker(r, dep, settle_ms=-5)
    guide = DeploymentTracker(r, dep)
    with pytest.raises(HardwareError, match="off this board of 100 squares"):
        guide.feed(SquareChanged(100, True, 5))
    with pytest.raises(TypeError, match="SquareChanged or OccupancySnapshot"):
        guide.feed("e1")
