"""The tracker follows Dungeon Chess: what a lifted piece lights (cannons, ranged Kings,
piercing, fragile Skeletons), and every effect that changes more than the moved piece, lit and
said in words (Troll push-back, Demonics explosions and their chains, eliminations, the
Salamander's extra step, the Shaman's hex, a forced pass).

Board: tests/dungeon_board.py OPEN (10x10, water d5 e5 d6 e6, void h9); player 1 (blue) sits
south, player 2 (red) north. OPEN4: four players blue (south), red (east), green (north),
yellow (west)."""

from __future__ import annotations

import pytest

from companion.board.palette import Meaning
from companion.board.tracker import (AnswerDetected, IllegalMoveShown, MoveDetected, PromptRequested,
                                     PromptWithdrawn, ScreenMovesChanged)
from companion.core.moves import Answer
from companion.errors import IllegalMoveError
from tests.dungeon_board import position, rules
from tests.dungeon_board_table import DungeonTable
from tests.tracker_hands import frame_contexts

R = rules()
R4 = rules("open4")
KINGS = {"a1": (0, "princess"), "j10": (1, "warlord")}


def table(pieces, turn=0, kings=KINGS, r=R, **options) -> DungeonTable:
    return DungeonTable(r, position(r, {**kings, **pieces}, turn), **options)


def lifted_view(t: DungeonTable, square: str) -> dict[str, str]:
    t.lift(square)
    return t.lit()


def assert_frames_in_one_context(t: DungeonTable) -> None:
    for frame in t.frames:
        assert frame_contexts(frame), f"frame mixes palette contexts: {sorted(m.value for m in frame.values())}"


# ----- what a lifted piece lights ----------------------------------------------------------------


def test_a_lifted_cannon_lights_the_capture_over_exactly_one_screen():
    t = table({"a3": (0, "kobold"), "a5": (1, "hero"), "a8": (1, "hero"), "c4": (1, "hero")})
    lit = lifted_view(t, "a3")
    assert lit["a3"] == "lifted"
    assert {s for s, m in lit.items() if m == "capture"} == {"a8"}  # over the screen on a5
    assert lit["a4"] == "move"  # the screen slide stops before the screen
    assert not {"a5", "a6", "a7", "c4"} & set(lit)  # not the screen, nor past it; c4 is no diagonal
    t.lift("a8")
    t.put("a8")
    t.wait()
    assert t.actions == ["a3a8"]
    assert t.tracker.in_sync


def test_a_cannon_line_skips_water_on_the_board_too():
    t = table({"b5": (0, "goblin"), "c5": (1, "hero"), "f5": (1, "hero")})
    assert lifted_view(t, "b5")["f5"] == "capture"
    t.run([("lift", "f5"), ("put", "f5")])
    assert t.actions == ["b5f5"]


@pytest.mark.parametrize("victim_first", [True, False])
def test_a_cannon_capture_is_followed_in_either_order(victim_first):
    t = table({"a3": (0, "kobold"), "a5": (0, "hero"), "a8": (1, "hero")})
    t.make(t.rules.parse_move(t.pos, "a3a8"), victim_first=victim_first)
    assert t.actions == ["a3a8"] and t.tracker.in_sync


def test_a_ranged_king_attack_is_lit_as_a_capture_at_range():
    """Warlock: "King step + Bishop slide attack"; Red Dragon: "King step + Knight jump attack"."""
    t = table({"c3": (0, "hero"), "g5": (1, "hero")}, kings={"c1": (0, "warlock"), "j10": (1, "red_dragon")})
    lit = lifted_view(t, "c1")
    assert lit["g5"] == "capture" and lit["b2"] == "move" and lit["d2"] == "move"
    assert "e3" not in lit  # the Warlock only steps one square when it does not capture
    t.run([("lift", "g5"), ("put", "g5")])
    assert t.actions == ["c1g5"]


def test_a_red_dragon_captures_with_a_knight_jump():
    t = table({"i8": (0, "hero")}, kings={"a1": (0, "princess"), "j10": (1, "red_dragon")}, turn=1)
    lit = lifted_view(t, "j10")
    assert lit["i8"] == "capture"
    assert lit["i9"] == "move" and "h9" not in lit  # h9 is void
    t.run([("lift", "i8"), ("put", "i8")])
    assert t.actions == ["j10i8"]


def test_a_piercing_archer_lights_the_enemy_behind_one_piece():
    t = table({"f2": (0, "archer"), "g3": (1, "hero"), "h4": (1, "wraith"), "i5": (1, "hero")})
    lit = lifted_view(t, "f2")
    assert lit["g3"] == "capture" and lit["h4"] == "capture"  # the first enemy, and the one behind it
    assert "i5" not in lit  # only through one piece
    t.run([("lift", "h4"), ("put", "h4")])
    assert t.actions == ["f2h4"]
    assert t.pos.board[t.sq("g3")] is not None  # the piece pierced through stays


# ----- Skeleton fragility -------------------------------------------------------------------------------


def test_any_enemy_next_to_a_skeleton_lights_it_as_a_capture():
    """"Fragile: any adjacent enemy can capture it": a Stronghold captures only along straight
    lines, yet the diagonal Skeleton is lit and taken."""
    t = table({"b4": (0, "stronghold"), "c5": (1, "skeleton"), "c6": (1, "hero")})
    lit = lifted_view(t, "b4")
    assert lit["c5"] == "capture"
    assert "c6" not in lit
    t.run([("lift", "c5"), ("put", "c5")])
    assert t.actions == ["b4c5"]
    assert t.tracker.in_sync


def test_a_fragile_capture_asked_of_a_person_says_why():
    t = table({"b4": (0, "stronghold"), "c5": (1, "skeleton")})
    move = next(m for m in t.rules.legal_moves(t.pos) if m.special == "fragile")
    t.handle(t.tracker.request_move(move))
    assert t.tracker.guidance.text == ("Remove the red Skeleton from c5 (fragile). "
                                       "Move the blue Stronghold from b4 to c5.")
    assert t.lit() == {"b4": "computer-move-from", "c5": "computer-move-to"}


# ----- Troll push-back ------------------------------------------------------------------------------


def troll_table(**kw) -> DungeonTable:
    return table({"b3": (0, "knight"), "c5": (1, "troll")}, **kw)


def test_a_troll_capture_made_by_hand_is_guided_back_in_words():
    """"Thick-skinned: first capture is absorbed (pushed 1 sq backward)": the knight took the
    square by hand, the engine says it stays home and the Troll moves one square back."""
    t = troll_table()
    t.run([("lift", "c5"), ("lift", "b3"), ("put", "c5")])
    assert t.actions == ["b3c5"]
    assert t.tracker.status == "out-of-sync"
    assert t.lit() == {"c5": "remove", "b3": "place", "c6": "place"}
    g = t.tracker.guidance
    assert g.text == ("Move the blue Knight back from c5 to b3 (the red Troll took the blow). "
                      "Put the red Troll on c6 (thick skin).")
    assert t.names(g.remove) == {"c5"} and t.names(g.place) == {"b3", "c6"}
    t.follow_guidance()
    assert t.tracker.in_sync
    assert t.pos.board[t.sq("c6")].state == {"wounded": 1}


def test_the_troll_pushed_back_by_hand_is_the_capture_too():
    """The full form: the attacker stays, the Troll moves one square back."""
    t = troll_table()
    t.run([("lift", "c5"), ("put", "c6")])
    assert t.actions == ["b3c5"]
    assert t.tracker.in_sync and not t.tracker.guidance.text


def test_a_troll_pushed_back_on_a_four_player_board_is_said_with_its_colour():
    t = table({"d4": (2, "troll"), "b3": (0, "knight")}, r=R4,
              kings={"b1": (0, "princess"), "j2": (1, "warlord"), "c10": (2, "warlock"), "a7": (3, "red_dragon")})
    t.handle(t.tracker.request_move(t.rules.parse_move(t.pos, "b3d4")))
    assert t.tracker.guidance.text == "Move the green Troll back from d4 to d5 (thick skin)."
    assert t.lit() == {"d4": "computer-move-from", "d5": "computer-move-to"}
    t.run([("lift", "d4"), ("put", "d5")])
    assert t.actions == ["b3d4"] and t.tracker.in_sync


def test_a_troll_that_cannot_be_pushed_back_dies_like_any_piece():
    """Pushed back onto water (c5's back square is c6; here d4's is d5, water): it dies, the
    capture is an ordinary one and nothing else has to change."""
    t = table({"c2": (0, "knight"), "d4": (1, "troll")})
    t.run([("lift", "d4"), ("lift", "c2"), ("put", "d4")])
    assert t.actions == ["c2d4"]
    assert t.tracker.in_sync
    assert t.pos.board[t.sq("d4")].kind.name == "knight"


def test_a_wounded_troll_captured_again_dies():
    t = table({"b3": (0, "knight"), "c5": (1, "troll", {"wounded": 1})})
    t.run([("lift", "c5"), ("lift", "b3"), ("put", "c5")])
    assert t.actions == ["b3c5"] and t.tracker.in_sync


# ----- Demonics explosions --------------------------------------------------------------------------


def explosion_table(**kw) -> DungeonTable:
    return table({"b3": (0, "knight"), "c5": (1, "demonics"), "b6": (0, "hero"), "d4": (0, "wizard"),
                  "c6": (1, "hero")}, **kw)


def test_an_explosion_lights_exactly_the_pieces_it_destroys():
    """"Volatile: on death, explodes - destroys all adjacent enemy pieces": the capturer on the
    death square survives, the Demonics' own Hero on c6 too."""
    t = explosion_table()
    t.run([("lift", "c5"), ("lift", "b3"), ("put", "c5")])
    assert t.actions == ["b3c5"]
    assert t.lit() == {"d4": "remove", "b6": "remove"}
    assert t.tracker.guidance.text == ("Remove the blue Wizard from d4 (destroyed by the explosion). "
                                       "Remove the blue Hero from b6 (destroyed by the explosion).")
    t.lift("d4")
    assert t.lit() == {"b6": "remove"}
    t.lift("b6")
    assert t.tracker.in_sync
    assert_frames_in_one_context(t)


def test_pieces_an_explosion_destroys_may_be_taken_off_before_the_capture_settles():
    t = explosion_table()
    t.run([("lift", "c5"), ("lift", "b3"), ("put", "c5"), ("lift", "b6")], settle=0)
    t.wait(60)
    t.lift("d4", 30)
    t.wait()
    assert t.actions == ["b3c5"]
    assert t.tracker.in_sync and not t.of(IllegalMoveShown)


def test_chained_explosions_light_every_destroyed_piece():
    """A destroyed Demonics explodes in turn (breadth first): red's Demonics on c5 destroys
    blue's Demonics on d4, which destroys red's pieces around d4."""
    t = table({"b3": (0, "knight"), "c5": (1, "demonics"), "d4": (0, "demonics"), "e3": (1, "hero"),
               "e4": (1, "kobold"), "a6": (1, "hero")})
    t.run([("lift", "c5"), ("lift", "b3"), ("put", "c5")])
    assert t.actions == ["b3c5"]
    assert set(t.lit()) == {"d4", "e3", "e4"}
    assert set(t.lit().values()) == {"remove"}
    text = t.tracker.guidance.text
    assert "Remove the blue Demonics from d4 (destroyed by the explosion)." in text
    assert "Remove the red Hero from e3 (destroyed by the explosion)." in text
    assert "Remove the red Kobold from e4 (destroyed by the explosion)." in text
    t.follow_guidance()
    assert t.tracker.in_sync
    assert t.pos.board[t.sq("c5")].kind.name == "knight"


def test_a_takeback_of_an_explosion_puts_the_pieces_back_without_a_reason():
    t = explosion_table()
    t.run([("lift", "c5"), ("lift", "b3"), ("put", "c5")])
    t.follow_guidance()
    t.rules.undo(t.pos)
    t.handle(t.tracker.position_changed())
    text = t.tracker.guidance.text
    assert "destroyed" not in text
    assert "Put the blue Wizard back on d4." in text
    t.follow_guidance()
    assert t.tracker.in_sync


# ----- four players: a fallen King's pieces go ---------------------------------------------------


def four_player_table() -> DungeonTable:
    return table({"c8": (0, "wizard"), "d9": (2, "skeleton"), "e9": (2, "skeleton"), "f10": (2, "tomb"),
                  "c5": (3, "hero")}, r=R4,
                 kings={"b1": (0, "princess"), "j2": (1, "warlord"), "c10": (2, "warlock"), "a6": (3, "red_dragon")})


def test_an_eliminated_players_pieces_are_lit_for_removal_and_named():
    """"In 4-player games, eliminated players' remaining pieces are removed"."""
    t = four_player_table()
    t.run([("lift", "c10"), ("lift", "c8"), ("put", "c10")])
    assert t.actions == ["c8c10"]
    assert t.lit() == {"d9": "remove", "e9": "remove", "f10": "remove"}
    assert t.tracker.guidance.text == ("Remove the green Skeleton from d9 (green is out). "
                                       "Remove the green Skeleton from e9 (green is out). "
                                       "Remove the green Tomb from f10 (green is out).")
    t.follow_guidance()
    assert t.tracker.in_sync and t.pos.turn == 1
    assert_frames_in_one_context(t)


def test_an_elimination_the_players_already_cleared_needs_no_guidance():
    t = four_player_table()
    t.run([("lift", "c10"), ("lift", "c8"), ("put", "c10"), ("lift", "d9"), ("lift", "e9"), ("lift", "f10")])
    assert t.actions == ["c8c10"] and t.tracker.in_sync


# ----- the Salamander's extra step ------------------------------------------------------------------


def salamander_table(**kw) -> DungeonTable:
    t = table({"b3": (0, "salamander"), "c5": (1, "hero")}, **kw)
    t.run([("lift", "c5"), ("lift", "b3"), ("put", "c5")])
    assert t.actions == ["b3c5"]
    return t


def test_after_a_salamander_capture_the_screen_asks_and_the_board_shows_the_steps():
    """"Hit-and-run: after capturing, may move 1 additional square in any direction"."""
    t = salamander_table()
    prompt = t.prompt()
    assert prompt == t.of(PromptRequested)[-1]
    assert prompt.kind == "step"
    assert prompt.options == ("stay", "b4", "b5", "b6", "c4", "c6", "d4")  # d5, d6 are water
    assert prompt.labels[0] == "Stay on c5" and prompt.labels[1] == "Step to b4"
    assert prompt.text == ("The blue Salamander may step one more square (hit-and-run): "
                           "move it to a lit square, or choose Stay.")
    assert t.lit() == {"c5": "hint-from", **{s: "hint-to" for s in ("b4", "b5", "b6", "c4", "c6", "d4")}}
    t.lift("c5")
    assert t.lit() == {"c5": "lifted", **{s: "move" for s in ("b4", "b5", "b6", "c4", "c6", "d4")}}
    assert_frames_in_one_context(t)


def test_the_salamander_stepped_on_the_board_answers_the_question():
    t = salamander_table()
    t.run([("lift", "c5"), ("put", "c6")])
    assert t.actions == ["b3c5", "c6"]
    assert t.of(AnswerDetected)[-1].answer == Answer("step", t.sq("c6"))
    assert t.of(PromptWithdrawn)[-1].kind == "step"
    assert t.tracker.in_sync and t.prompt() is None and t.pos.turn == 1


def test_stay_is_chosen_on_the_screen():
    t = salamander_table()
    t.choose("stay")
    assert t.actions == ["b3c5", "stay"]
    assert t.tracker.in_sync and t.prompt() is None
    assert t.lit() == {"b3": "last-move-from", "c5": "last-move-to"}


def test_a_step_chosen_on_the_screen_is_then_guided_on_the_board():
    t = salamander_table()
    t.choose("d4")
    assert t.actions == ["b3c5", "d4"]
    assert t.tracker.guidance.text == "Move the blue Salamander from c5 to d4 (hit-and-run)."
    assert t.lit() == {"c5": "remove", "d4": "place"}
    t.follow_guidance()
    assert t.tracker.in_sync


def test_a_salamander_put_on_water_is_flagged_and_the_question_stays():
    t = salamander_table()
    t.run([("lift", "c5"), ("put", "d5")], settle=0)
    assert t.tracker.status == "out-of-sync"
    assert t.lit() == {"d5": "illegal", "c5": "place"}
    assert t.prompt() is not None
    t.run([("lift", "d5"), ("put", "c5")])
    assert t.tracker.in_sync and t.prompt().kind == "step" and t.actions == ["b3c5"]


def test_a_question_answer_not_offered_is_refused():
    t = salamander_table()
    with pytest.raises(IllegalMoveError, match="not one of the choices"):
        t.choose("j1")


# ----- the Shaman's hex ----------------------------------------------------------------------------------


def hex_table() -> DungeonTable:
    return table({"b3": (0, "shaman"), "b8": (1, "troll"), "e3": (1, "hero")})


def test_a_hex_is_offered_on_the_screen_and_moves_no_piece():
    """"Hex: once per game, spend a turn to immobilise one visible enemy for 2 turns"."""
    t = hex_table()
    offer = t.screen_moves()
    assert dict(zip(offer.options, offer.labels)) == {
        "b3b8hex": "Hex the red Troll on b8 with the blue Shaman",
        "b3e3hex": "Hex the red Hero on e3 with the blue Shaman"}
    assert t.of(ScreenMovesChanged)[-1] == offer
    t.choose("b3b8hex")
    assert t.actions == ["b3b8hex"] and t.of(MoveDetected)[-1].move.special == "hex"
    assert t.tracker.in_sync
    assert t.pos.board[t.sq("b8")].state == {"hex": 2}
    assert t.lit() == {"b3": "last-move-from", "b8": "last-move-to"}
    assert t.screen_moves().options == ()  # red has no hex; blue's is spent anyway


def test_a_hexed_unit_lights_no_destination_and_may_not_move():
    t = hex_table()
    t.choose("b3b8hex")
    lit = lifted_view(t, "b8")
    assert lit == {"b8": "lifted"}
    t.put("b7")
    assert t.tracker.status == "out-of-sync" and t.lit()["b7"] == "illegal"


def test_the_hex_wears_off_with_nothing_to_do_on_the_board():
    t = hex_table()
    t.choose("b3b8hex")
    for move in ("e3f3", "a1a2", "f3g3"):  # the hexed unit's owner plays two turns
        t.make(t.rules.parse_move(t.pos, move))
    assert t.pos.board[t.sq("b8")].state == {}
    assert any(e[0] == "hex_ends" for e in t.pos.var("effects"))
    assert t.tracker.in_sync and not t.tracker.guidance.text


def test_a_hex_must_wait_until_the_board_shows_the_game():
    t = hex_table()
    t.put("h1")  # a stray piece: nothing can go there
    with pytest.raises(IllegalMoveError, match="does not show the game"):
        t.choose("b3b8hex")
    t.lift("h1")
    t.choose("b3b8hex")
    assert t.actions == ["b3b8hex"]


def test_choose_without_a_question_or_an_offer_is_refused():
    t = hex_table()
    with pytest.raises(IllegalMoveError, match="no question"):
        t.choose("b3b4")


# ----- no legal move: a pass --------------------------------------------------------------------------


def test_a_player_without_a_legal_move_passes_on_the_screen():
    """A hexed King alone cannot move: the player passes (the publisher's choice)."""
    t = table({"c3": (0, "hero")}, kings={"a1": (0, "princess"), "j10": (1, "warlord", {"hex": 2})}, turn=1)
    prompt = t.prompt()
    assert prompt.kind == "pass" and prompt.options == ("pass",) and prompt.labels == ("Pass",)
    assert prompt.text == "The red player has no legal move and must pass."
    assert t.screen_moves().options == ()
    t.choose("pass")
    assert t.actions == ["pass"] and t.pos.turn == 0
    assert t.prompt() is None and t.tracker.in_sync


def test_a_pass_asked_of_the_tracker_is_reported_at_once():
    t = table({"c3": (0, "hero")}, kings={"a1": (0, "princess"), "j10": (1, "warlord", {"hex": 2})}, turn=1)
    out = t.handle(t.tracker.request_move(t.rules.legal_moves(t.pos)[0]))
    assert [o.move.special for o in out if isinstance(o, MoveDetected)] == ["pass"]
    assert t.pos.turn == 0


# ----- words and lights ----------------------------------------------------------------------------------


def test_pieces_are_named_by_their_unit_and_players_by_their_seat_colour():
    t = table({"b1": (0, "iron_golem"), "b5": (1, "hero")})
    t.run([("lift", "b1"), ("put", "e5")], settle=0)  # water: no Iron Golem may stand there
    assert t.tracker.guidance.text == ("The blue Iron Golem cannot go to e5. "
                                       "Move the blue Iron Golem from e5 to b1.")


def test_water_is_lit_under_everything_and_void_never():
    t = table({"b3": (0, "knight")})
    water = {"d5", "e5", "d6", "e6"}
    assert {s for s, m in t.lit(terrain=True).items() if m == "terrain-water"} == water
    t.lift("b3")
    assert {s for s, m in t.lit(terrain=True).items() if m == "terrain-water"} == water
    for frame in t.frames:
        assert t.sq("h9") not in frame
        assert {t.name(s) for s, m in frame.items() if m is Meaning.TERRAIN_WATER} <= water


def test_a_troll_pushed_back_with_two_possible_attackers_asks_which_one():
    """The full form does not say who struck: the screen asks, and the answer counts."""
    t = table({"b3": (0, "knight"), "e4": (0, "knight"), "c5": (1, "troll")})
    t.run([("lift", "c5"), ("put", "c6")])
    prompt = t.prompt()
    assert prompt.kind == "which-move" and sorted(prompt.options) == ["b3c5", "e4c5"]
    assert "Move the blue Knight from e4 to c5." in prompt.labels
    t.choose("e4c5")
    assert t.actions == ["e4c5"] and t.tracker.in_sync
