"""Expected vs sensed: fights, takebacks, set-up, the computer's moves, check, the last move,
and the LED frames themselves."""

from __future__ import annotations

import pytest

from companion.core.moves import Answer
from companion.errors import IllegalMoveError
from tests.tracker_hands import InSync, OutOfSync, Table, frame_contexts
from companion.board.tracker import LedsChanged, SetupCompleted, assign_pairs

FIGHT = "4k3/8/8/3p4/8/4N3/8/4K3 w - - 0 1"  # Nxd5 starts a fight in Combat Chess


# ----- Combat Chess fights ------------------------------------------------------------------------


def fight_table() -> Table:
    table = Table(FIGHT, variant="combat")
    table.run([("lift", "d5"), ("lift", "e3"), ("put", "d5")])
    assert table.moves == ["e3d5"]
    assert table.pos.pending is not None and table.pos.pending.kind == "fight"
    assert table.tracker.in_sync  # the board shows the capture as made: that is what is expected
    return table


def resolve(table: Table, answer) -> None:
    table.rules.play(table.pos, Answer("fight", answer))
    table.handle(table.tracker.position_changed())


def test_a_fight_lost_by_the_attacker_is_guided_back_to_the_right_board():
    table = fight_table()
    resolve(table, "defender")
    assert table.tracker.status == "out-of-sync"
    assert table.lit() == {"d5": "remove"}
    g = table.tracker.guidance
    assert g.text == "Take the white knight off d5. Put the black pawn back on d5."
    assert table.names(g.remove) == {"d5"} and table.names(g.place) == {"d5"}
    assert table.of(OutOfSync)
    table.lift("d5")
    assert table.lit() == {"d5": "place"}
    assert table.tracker.guidance.text == "Put the black pawn back on d5."
    assert not table.tracker.in_sync  # the square went empty, but the pawn is not back yet
    table.put("d5")
    assert table.tracker.in_sync and table.of(InSync)
    assert table.fen().startswith("4k3/8/8/3p4/8/8/8/4K3 b")


def test_no_move_is_accepted_until_the_board_matches_again():
    table = fight_table()
    resolve(table, "defender")
    table.run([("lift", "e8"), ("put", "d8")])  # black tries to move before the board is fixed
    assert table.moves == ["e3d5"]
    assert table.tracker.status == "out-of-sync"


def test_a_three_tie_bounce_sends_both_pieces_back():
    table = fight_table()
    resolve(table, "bounce")
    assert table.lit() == {"d5": "remove", "e3": "place"}
    g = table.tracker.guidance
    assert g.text == "Move the white knight from d5 to e3. Put the black pawn back on d5."
    assert table.names(p for pair in g.pairs for p in pair) == {"d5", "e3"}
    table.run([("lift", "d5"), ("put", "e3"), ("put", "d5")])
    assert table.tracker.in_sync


def tie_faces(attacker, defender):
    """Faces (one die each) giving equal totals, found by trying them all."""
    for a in range(1, attacker.dice.sides + 1):
        for d in range(1, defender.dice.sides + 1):
            if attacker.total((a,)) == defender.total((d,)):
                return (a,), (d,)
    raise AssertionError("no tie possible")


def test_three_ties_rolled_with_dice_bounce_too():
    table = fight_table()
    for _ in range(3):
        attacker, (defender,) = table.rules.fighters(table.pos)
        a, d = tie_faces(attacker, defender)
        table.rules.play(table.pos, Answer("fight", ("roll", a, (d,))))
        table.handle(table.tracker.position_changed())
    assert table.pos.pending is None
    assert table.lit() == {"d5": "remove", "e3": "place"}


def test_a_fight_won_by_the_attacker_needs_nothing():
    table = fight_table()
    resolve(table, "attacker")
    assert table.tracker.in_sync and table.lit()["d5"] == "last-move-to"


# ----- takebacks ---------------------------------------------------------------------------------------


def undo(table: Table) -> None:
    table.rules.undo(table.pos)
    table.handle(table.tracker.position_changed())


def test_a_takeback_guides_the_moved_piece_back():
    table = Table().run([("lift", "e2"), ("put", "e4")])
    undo(table)
    assert table.lit() == {"e4": "remove", "e2": "place"}
    assert table.tracker.guidance.text == "Move the white pawn from e4 to e2."
    table.run([("lift", "e4"), ("put", "e2")])
    assert table.tracker.in_sync and table.lit() == {}


def test_a_takeback_of_a_capture_puts_the_victim_back():
    table = Table(gap=200).run([("lift", "e2"), ("put", "e4"), ("lift", "d7"), ("put", "d5"),
                                ("lift", "d5"), ("lift", "e4"), ("put", "d5")])
    assert table.moves == ["e2e4", "d7d5", "e4d5"]
    undo(table)
    assert table.tracker.guidance.text == "Move the white pawn from d5 to e4. Put the black pawn back on d5."
    table.run([("lift", "d5"), ("put", "e4"), ("put", "d5")])
    assert table.tracker.in_sync
    assert table.lit() == {"d7": "last-move-from", "d5": "last-move-to"}


def test_a_takeback_of_castling_pairs_king_and_rook_by_kind():
    table = Table("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1").run(
        [("lift", "e1"), ("put", "g1"), ("lift", "h1"), ("put", "f1")])
    undo(table)
    g = table.tracker.guidance
    assert set(g.pairs) == {(table.sq("g1"), table.sq("e1")), (table.sq("f1"), table.sq("h1"))}
    assert "Move the white king from g1 to e1." in g.text and "Move the white rook from f1 to h1." in g.text


def test_a_takeback_of_a_promotion_swaps_the_queen_for_the_pawn():
    table = Table("4k3/P7/8/8/8/8/8/4K3 w - - 0 1").run([("lift", "a7"), ("put", "a8")], settle=300)
    table.choose("q")
    undo(table)
    assert table.tracker.guidance.text == "Take the white queen off a8. Put the white pawn back on a7."


def test_no_move_is_accepted_while_a_takeback_is_not_done():
    table = Table().run([("lift", "e2"), ("put", "e4")])
    undo(table)
    table.run([("lift", "g1"), ("put", "f3")])
    assert table.moves == ["e2e4"]
    assert table.tracker.status == "out-of-sync"
    assert "g1" in table.names(table.tracker.guidance.place)


def test_two_takebacks_in_a_row_guide_to_the_older_position():
    table = Table().run([("lift", "e2"), ("put", "e4"), ("lift", "e7"), ("put", "e5")])
    undo(table)
    undo(table)
    assert set(table.lit()) == {"e4", "e5", "e2", "e7"}
    table.run([("lift", "e4"), ("put", "e2"), ("lift", "e5"), ("put", "e7")])
    assert table.tracker.in_sync and table.lit() == {}


def test_a_new_game_object_guides_the_board_to_its_start():
    table = Table().run([("lift", "e2"), ("put", "e4")])
    new = table.rules.start_position()
    table.pos = new
    table.handle(table.tracker.position_changed(new))
    assert table.lit() == {"e4": "remove", "e2": "place"}
    assert table.tracker.last_move is None


# ----- setting up ------------------------------------------------------------------------------------


def test_setup_from_an_empty_board_lights_every_square_and_names_the_next_piece():
    table = Table(sensed=frozenset())
    table.handle(table.tracker.begin_setup())
    lit = table.lit()
    assert len(lit) == 32 and set(lit.values()) == {"setup-place"}
    assert table.tracker.guidance.text == "Put the white rook on a1. 31 more squares are lit."
    for name in sorted(table.names(table.pos.occupied()), key=table.sq):
        table.put(name)
    assert table.of(SetupCompleted) and table.tracker.in_sync
    assert table.lit() == {}
    table.run([("lift", "e2"), ("put", "e4")])
    assert table.moves == ["e2e4"]


def test_setup_from_an_arbitrary_board_removes_strays_and_fills_gaps():
    table = Table()
    table.run([("lift", "a1"), ("put", "e4"), ("put", "e5")], settle=0)
    table.handle(table.tracker.begin_setup())
    assert table.lit() == {"a1": "setup-place", "e4": "remove", "e5": "remove"}
    assert table.tracker.guidance.text == "Take the piece off e4. 2 more squares are lit."
    table.run([("lift", "e4"), ("lift", "e5"), ("put", "a1")], settle=0)
    assert table.of(SetupCompleted) and table.tracker.in_sync


def test_setup_to_a_chosen_target():
    table = Table()
    target = table.pos.occupied() - {table.sq("b1")}
    table.handle(table.tracker.begin_setup(target))
    assert table.lit() == {"b1": "remove"}
    table.lift("b1")
    assert table.of(SetupCompleted)
    # the game still expects the knight on b1: the board is now guided back to the game
    assert table.lit() == {"b1": "place"}


# ----- the computer's move, made by a person -----------------------------------------------------------


def request(table: Table, uci: str) -> None:
    table.handle(table.tracker.request_move(table.rules.parse_move(table.pos, uci)))


def test_a_computer_move_is_lit_and_said():
    table = Table().run([("lift", "e2"), ("put", "e4")])
    request(table, "e7e5")
    assert table.lit() == {"e7": "computer-move-from", "e5": "computer-move-to",
                           "e2": "last-move-from", "e4": "last-move-to"}
    assert table.tracker.guidance.text == "Move the black pawn from e7 to e5."
    table.run([("lift", "e7"), ("put", "e5")])
    assert table.moves == ["e2e4", "e7e5"]
    assert table.tracker.guidance.text == ""


def test_a_different_move_than_the_computers_is_guided_back():
    table = Table().run([("lift", "e2"), ("put", "e4")])
    request(table, "e7e5")
    table.run([("lift", "d7"), ("put", "d5")])
    assert table.moves == ["e2e4"]
    assert table.lit()["d5"] == "illegal" and table.lit()["d7"] == "place"
    assert table.tracker.guidance.text.startswith("That is not the move to make.")
    table.run([("lift", "d5"), ("put", "d7"), ("lift", "e7"), ("put", "e5")])
    assert table.moves == ["e2e4", "e7e5"]


def test_a_computer_capture_castling_and_promotion_are_said_in_full():
    table = Table("r3k2r/pP6/8/8/8/8/8/R3K2R w KQkq - 0 1")
    request(table, "b7a8q")
    assert table.tracker.guidance.text == ("Take the black rook off a8. Move the white pawn from b7 to a8. "
                                           "It becomes a queen.")
    table.run([("lift", "a8"), ("lift", "b7"), ("put", "a8")])
    assert table.moves == ["b7a8q"] and table.prompts() == []
    table = Table("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1")
    request(table, "e8g8")
    assert table.tracker.guidance.text == "Move the black king from e8 to g8. Move the black rook from h8 to f8."
    table.run([("lift", "h8"), ("put", "f8"), ("lift", "e8"), ("put", "g8")])
    assert table.moves == ["e8g8"]


def test_requesting_an_illegal_move_is_refused():
    table = Table()
    from companion.core.moves import Move

    with pytest.raises(IllegalMoveError):
        table.tracker.request_move(Move(table.sq("e2"), table.sq("e5")))


# ----- check, last move, game over --------------------------------------------------------------------


def test_the_king_in_check_is_lit():
    table = Table("4k3/8/8/8/8/8/3P4/r3K3 w - - 0 1")
    assert table.lit() == {"e1": "check"}
    table.lift("e1")
    assert table.lit()["e1"] == "lifted"
    assert table.lit()["e2"] == "move"


def test_the_last_move_is_shown_only_while_idle():
    table = Table().run([("lift", "g1"), ("put", "f3")])
    assert table.lit() == {"g1": "last-move-from", "f3": "last-move-to"}
    table.lift("e7")
    assert "g1" not in table.lit() and "f3" not in table.lit()
    table.put("e7")
    assert table.lit() == {"g1": "last-move-from", "f3": "last-move-to"}


def test_a_finished_game_accepts_no_move():
    table = Table("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1")  # insufficient material: a draw
    table.lift("c1")
    assert table.lit() == {"c1": "lifted"}
    table.put("d2")
    assert table.lit()["d2"] == "illegal"


# ----- LED frames -----------------------------------------------------------------------------------


def scenario_tables():
    yield Table().run([("lift", "e2"), ("put", "e3"), ("lift", "e3"), ("put", "e4"), ("lift", "g8"),
                       ("put", "e4")], settle=100)
    t = fight_table()
    resolve(t, "bounce")
    t.run([("lift", "d5"), ("put", "e3")])
    yield t
    t = Table().run([("lift", "e2"), ("put", "e4")])
    request(t, "e7e5")
    t.run([("lift", "e7"), ("put", "d6"), ("lift", "d6"), ("put", "e5")])
    yield t
    t = Table(sensed=frozenset({0, 36}))
    t.handle(t.tracker.begin_setup())
    yield t
    t = Table("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1").run([("lift", "e1"), ("put", "g1")])
    yield t


def test_every_frame_uses_meanings_that_can_be_told_apart():
    """Each frame's meanings all belong to one palette context (tests/test_palette.py checks
    the colours of a context stay apart for every colour vision)."""
    n = 0
    for table in scenario_tables():
        for frame in table.frames:
            assert frame_contexts(frame), {table.rules.geometry.name_of(s): m.value for s, m in frame.items()}
            n += 1
    assert n > 15


def test_led_frames_are_sent_only_when_they_change():
    for table in scenario_tables():
        frames = [o.meanings for o in table.outputs if isinstance(o, LedsChanged)]
        assert all(a != b for a, b in zip(frames, frames[1:]))


# ----- pairing -----------------------------------------------------------------------------------------


def test_pairing_minimises_the_total_distance():
    # greedy would pair 1->2 (distance 1) and leave 0->3 (distance 3); best is 0->2 + 1->3 (2 + 2)
    dist = lambda a, b: abs(a - b)  # noqa: E731
    assert assign_pairs([0, 1], [2, 3], lambda a, b: True, dist) in ([(0, 2), (1, 3)], [(0, 3), (1, 2)])
    assert sum(abs(a - b) for a, b in assign_pairs([0, 1], [2, 3], lambda a, b: True, dist)) == 4


def test_pairing_never_makes_a_forbidden_pair_and_leaves_extras_unpaired():
    pairs = assign_pairs([0, 5, 9], [4, 8], lambda a, b: a != 9, lambda a, b: abs(a - b))
    assert pairs == [(0, 4), (5, 8)] or pairs == [(5, 4), (0, 8)]
    assert sorted(assign_pairs([0, 5, 9], [4, 8], lambda a, b: a != 9, lambda a, b: abs(a - b))) == [(0, 4), (5, 8)]


def test_pairing_brute_force_agrees_on_small_cases():
    from itertools import permutations
    import random

    rng = random.Random(4)
    for _ in range(200):
        src = rng.sample(range(64), rng.randint(1, 4))
        dst = rng.sample([s for s in range(64) if s not in src], rng.randint(1, 4))
        cost = lambda a, b: max(abs(a % 8 - b % 8), abs(a // 8 - b // 8))  # noqa: E731
        got = assign_pairs(src, dst, lambda a, b: True, cost)
        k = min(len(src), len(dst))
        best = min(sum(cost(a, b) for a, b in zip(src_p, dst_p))
                   for src_p in permutations(src, k) for dst_p in [dst[:k]] + list(permutations(dst, k)))
        assert len(got) == k and sum(cost(a, b) for a, b in got) == best
