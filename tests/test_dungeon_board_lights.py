"""Terrain and player colours on the LEDs outside move hints (docs/leds.md, "Maps and players"):
water lit under everything, void dark, the side to move's pieces in its seat colour once the
last move has been shown, every frame inside one palette context."""

from __future__ import annotations

import pytest

from companion.board.backdrop import Backdrop, player_meanings, seat_colours
from companion.board.palette import CONTEXTS, Meaning
from companion.board.tracker import Tracker
from companion.games import make_rules
from tests.dungeon_board import position, rules
from tests.dungeon_board_table import DungeonTable
from tests.tracker_hands import Table, frame_contexts

R = rules()
KINGS = {"a1": (0, "princess"), "j10": (1, "warlord")}


def test_seat_colours_take_the_palette_colour_that_looks_like_them():
    assert player_meanings(("blue", "red")) == (Meaning.PLAYER_3, Meaning.PLAYER_2)
    assert player_meanings(("blue", "red", "green", "yellow")) == (
        Meaning.PLAYER_3, Meaning.PLAYER_2, Meaning.PLAYER_1, Meaning.PLAYER_4)
    assert player_meanings(("white", "black")) == (Meaning.PLAYER_1, Meaning.PLAYER_2)


def test_seats_whose_colour_the_palette_lacks_share_out_the_rest_all_different():
    assert player_meanings(("green", "purple", "black", "magenta")) == (
        Meaning.PLAYER_1, Meaning.PLAYER_2, Meaning.PLAYER_3, Meaning.PLAYER_4)
    assert player_meanings(("red", "orange")) == (Meaning.PLAYER_2, Meaning.PLAYER_1)


def test_more_seats_than_player_colours_is_an_error():
    with pytest.raises(ValueError, match="4 player colours, 5 seats"):
        player_meanings(("red",) * 5)


def test_seat_colours_come_from_the_map_or_default_to_chess_colours():
    assert seat_colours(make_rules("dungeon", "dungeon-four-player")) == ("blue", "red", "green", "yellow")
    assert seat_colours(make_rules("chess")) == ("white", "black")


def test_the_backdrop_lights_water_only():
    r = make_rules("dungeon", "dungeon-four-player")
    frame = Backdrop(r).frame()
    g = r.geometry
    assert set(frame.values()) == {Meaning.TERRAIN_WATER}
    assert sorted(g.name_of(s) for s in frame) == sorted(f + str(n) for f in "ijkl" for n in (9, 10, 11, 12))


def test_chess_frames_have_no_terrain_and_no_turn_colours():
    t = Table()
    t.run([("lift", "e2"), ("put", "e4")])
    t.wait(10_000)
    assert t.lit() == {"e2": "last-move-from", "e4": "last-move-to"}


def test_the_side_to_moves_pieces_glow_in_its_colour_after_the_last_move_was_shown():
    t = DungeonTable(R, position(R, {**KINGS, "b3": (0, "knight"), "g8": (1, "hero")}))
    assert t.lit() == {"a1": "player-3", "b3": "player-3"}  # a new game: blue (sky blue) to move
    t.run([("lift", "b3"), ("put", "c5")], settle=200)
    assert t.lit() == {"b3": "last-move-from", "c5": "last-move-to"}  # red sees blue's move
    t.wait(3000)
    assert t.lit() == {"j10": "player-2", "g8": "player-2"}  # then red's pieces, vermillion
    assert "players" in frame_contexts(t.frames[-1])  # (the coach on a map holds these too)


def test_the_last_move_time_is_an_option_and_zero_shows_the_turn_at_once():
    t = DungeonTable(R, position(R, {**KINGS, "b3": (0, "knight")}), last_move_ms=0)
    t.run([("lift", "b3"), ("put", "c5")], settle=200)
    assert t.lit() == {"j10": "player-2"}


def test_turn_colours_can_be_switched_off():
    t = DungeonTable(R, position(R, {**KINGS, "b3": (0, "knight")}), turn_colours=False)
    t.run([("lift", "b3"), ("put", "c5")])
    t.wait(10_000)
    assert t.lit() == {"b3": "last-move-from", "c5": "last-move-to"}


def test_a_king_in_check_shows_the_check_not_the_turn_colours():
    t = DungeonTable(R, position(R, {"a1": (0, "princess"), "j10": (1, "warlord"), "b3": (0, "knight"),
                                     "h5": (1, "wizard")}))
    t.run([("lift", "b3"), ("put", "a5")])  # blue moves; nothing attacks a King
    t.wait(5000)
    assert set(t.lit().values()) == {"player-2"}
    t.run([("lift", "h5"), ("put", "h1")])  # the red Wizard checks the Princess along the first rank
    t.wait(5000)
    assert t.lit()["a1"] == "check"
    assert "player-3" not in t.lit().values()


def test_every_frame_of_a_dungeon_game_stays_in_one_palette_context():
    t = DungeonTable(R, position(R, {**KINGS, "b3": (0, "knight"), "c5": (1, "troll"), "g8": (1, "hero")}))
    t.run([("lift", "c5"), ("lift", "b3"), ("put", "c5")])  # a push-back to guide
    t.follow_guidance()
    t.run([("lift", "g8"), ("put", "e5")], settle=0)  # water: illegal for a Hero
    t.run([("lift", "e5"), ("put", "g8")])
    t.wait(5000)
    assert len(t.frames) > 5
    for frame in t.frames:
        assert frame_contexts(frame), sorted(m.value for m in frame.values())


def test_the_players_context_holds_terrain_and_the_four_player_colours():
    assert {Meaning.TERRAIN_WATER, Meaning.PLAYER_1, Meaning.PLAYER_4} <= CONTEXTS["players"]


def test_last_move_ms_must_be_a_whole_number_of_milliseconds():
    with pytest.raises(ValueError, match="last_move_ms"):
        Tracker(R, position(R, KINGS), last_move_ms=-1)
