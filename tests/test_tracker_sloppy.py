"""Real hands: switch chatter, slides that brush other squares, knocked-over pieces, wrong
placements, two pieces in the air, pieces lifted and put back, fast replies, lost events."""

from __future__ import annotations

import pytest

from tests.test_tracker_moves import CAPTURE, CAPTURE_ORDERS, CASTLE_CASES, EP_CASES
from tests.tracker_hands import IllegalMoveShown, InSync, OutOfSync, Table, chatter

START = None


# ----- bounces ---------------------------------------------------------------------------------------

BOUNCE_CASES = [(CAPTURE, steps, "e3d5") for steps in CAPTURE_ORDERS] + \
    [(fen, steps, uci) for fen, steps, uci in CASTLE_CASES[::3]] + \
    [(fen, steps, uci) for fen, steps, uci in EP_CASES] + \
    [(START, (("lift", "e2"), ("put", "e4")), "e2e4"), (START, (("lift", "b1"), ("put", "c3")), "b1c3")]


@pytest.mark.parametrize("fen,steps,uci", BOUNCE_CASES)
def test_a_bouncing_switch_on_any_single_step_changes_nothing(fen, steps, uci):
    for i in range(len(steps)):
        bouncy = list(steps[:i]) + chatter(steps[i]) + list(steps[i + 1:])
        table = Table(fen).run(bouncy)
        assert table.moves == [uci], bouncy
        assert table.tracker.in_sync


@pytest.mark.parametrize("fen,steps,uci", BOUNCE_CASES)
def test_every_switch_bouncing_at_once_changes_nothing(fen, steps, uci):
    bouncy = [b for step in steps for b in chatter(step, ms=2)]
    table = Table(fen).run(bouncy)
    assert table.moves == [uci]


def test_a_long_chatter_burst_on_landing_commits_once_after_it_ends():
    table = Table()
    table.lift("g1")
    for _ in range(5):
        table.put("f3", 4)
        table.lift("f3", 4)
    table.put("f3", 4)
    table.wait(400)
    assert table.moves == ["g1f3"]


def test_chatter_on_the_idle_board_is_nothing():
    table = Table()
    table.run([("lift", "a2", 2), ("put", "a2", 2), ("lift", "a2", 2), ("put", "a2", 2)])
    assert table.moves == [] and table.tracker.in_sync


# ----- slides ---------------------------------------------------------------------------------------

SLIDE_FEN = "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1"


@pytest.mark.parametrize("dwell", [20, 80, 140])
def test_a_rook_slid_through_squares_commits_only_where_it_stops(dwell):
    steps = [("lift", "a1")]
    for sq in ("a2", "a3", "a4", "a5", "a6"):
        steps += [("put", sq, dwell), ("lift", sq, dwell)]
    steps += [("put", "a7", dwell)]
    table = Table(SLIDE_FEN).run(steps)
    assert table.moves == ["a1a7"]


def test_a_slide_pausing_longer_than_a_normal_settle_on_a_square_it_could_pass_does_not_commit():
    # 300 ms on a3 is longer than 150 but the rook can still go on along the file
    steps = [("lift", "a1"), ("put", "a2", 40), ("lift", "a2", 40), ("put", "a3", 40), ("lift", "a3", 300),
             ("put", "a4", 40)]
    table = Table(SLIDE_FEN).run(steps)
    assert table.moves == ["a1a4"]


def test_a_slide_that_brushes_neighbouring_squares_leaves_no_ghost_move():
    steps = [("lift", "a1"), ("put", "a2", 40), ("put", "b2", 10), ("lift", "b2", 30), ("lift", "a2", 20),
             ("put", "a3", 40), ("put", "b4", 15), ("lift", "b4", 25), ("lift", "a3", 40), ("put", "a4", 40)]
    table = Table(SLIDE_FEN).run(steps)
    assert table.moves == ["a1a4"]
    assert table.tracker.in_sync


def test_a_brushed_square_flashes_illegal_only_while_it_is_touched():
    table = Table(SLIDE_FEN)
    table.lift("a1")
    table.put("b3")  # not a rook destination from a1
    assert table.lit()["b3"] == "illegal"
    table.lift("b3", 30)
    assert "b3" not in table.lit()
    assert table.lit()["a1"] == "lifted"


def test_a_diagonal_slide_of_a_bishop_commits_where_it_stops():
    fen = "4k3/p7/8/8/8/8/P7/2B1K3 w - - 0 1"
    steps = [("lift", "c1")]
    for sq in ("d2", "e3", "f4"):
        steps += [("put", sq, 60), ("lift", sq, 60)]
    steps += [("put", "g5", 60)]
    assert Table(fen).run(steps).moves == ["c1g5"]


def test_a_pawn_pushed_two_squares_through_e3_is_one_move():
    steps = [("lift", "e2"), ("put", "e3", 60), ("lift", "e3", 120), ("put", "e4", 60)]
    assert Table().run(steps).moves == ["e2e4"]


# ----- lifted and put back ---------------------------------------------------------------------------


@pytest.mark.parametrize("held", [10, 500, 5000])
def test_a_piece_lifted_and_put_back_is_nothing(held):
    table = Table().run([("lift", "g1"), ("put", "g1", held)])
    assert table.moves == [] and table.tracker.in_sync
    assert table.lit() == {}


def test_the_victim_lifted_and_put_back_does_not_count_as_touched_later():
    table = Table(CAPTURE)
    table.run([("lift", "d5"), ("put", "d5"), ("lift", "e3")], settle=3000)
    assert table.moves == []  # the knight is in the hand: no capture without a touched victim
    table.run([("put", "e3")])
    assert table.moves == [] and table.tracker.in_sync


def test_a_piece_lifted_shows_its_own_square_and_its_destinations():
    table = Table()
    table.lift("g1")
    assert table.lit() == {"g1": "lifted", "f3": "move", "h3": "move"}
    table.put("g1")
    assert table.lit() == {}


def test_captures_are_lit_apart_from_quiet_destinations():
    table = Table(CAPTURE)
    table.lift("e3")
    lit = table.lit()
    assert lit["d5"] == "capture"
    assert {sq for sq, m in lit.items() if m == "move"} == {"c2", "c4", "d1", "f1", "f5", "g2", "g4"}


# ----- knocked over -----------------------------------------------------------------------------------


def test_a_knocked_over_enemy_piece_put_back_is_nothing():
    table = Table()
    # white to move; a black pawn falls over onto d6 and is stood up again
    table.run([("lift", "d7"), ("put", "d6", 20), ("lift", "d6", 400), ("put", "d7", 300)])
    assert table.moves == [] and table.tracker.in_sync
    assert table.of(OutOfSync) and table.of(InSync)


def test_a_piece_knocked_over_during_a_move_and_stood_up_again_does_not_spoil_the_move():
    table = Table()
    table.run([("lift", "g1"), ("lift", "f2", 30), ("put", "f3", 60), ("put", "f2", 500)])
    assert table.moves == ["g1f3"]
    assert table.tracker.in_sync


def test_an_enemy_piece_knocked_over_after_a_finished_move_commits_the_move_at_once():
    table = Table()
    table.lift("g1")
    table.put("f3")
    table.lift("e7", 20)  # before the settle time: the move was finished, this is the other side
    assert table.moves == ["g1f3"]
    table.put("e7", 300)
    assert table.tracker.in_sync


# ----- wrong placements --------------------------------------------------------------------------------


def test_an_illegal_placement_is_shown_at_once_with_the_way_back():
    table = Table()
    table.lift("g1")
    out = table.put("e4")
    shown = [o for o in out if isinstance(o, IllegalMoveShown)]
    assert shown and table.names(shown[0].squares) == {"e4"} and table.names(shown[0].origins) == {"g1"}
    assert table.lit() == {"e4": "illegal", "g1": "place"}
    assert table.tracker.guidance.text == "The white knight cannot go to e4. Move the white knight from e4 to g1."
    assert table.tracker.status == "out-of-sync"
    table.wait(5000)
    assert table.moves == []
    table.run([("lift", "e4"), ("put", "f3")])
    assert table.moves == ["g1f3"]


def test_illegal_placement_can_wait_a_grace_time_when_configured():
    table = Table(illegal_ms=200)
    table.lift("g1")
    table.put("e4")
    assert "e4" not in table.lit()
    table.wait(250)
    assert table.lit()["e4"] == "illegal"


def test_a_piece_put_on_a_square_with_no_piece_lifted_is_flagged():
    table = Table()
    table.put("e5")  # a captured piece dropped back on the board
    assert table.lit() == {"e5": "illegal"}
    assert table.tracker.guidance.text.endswith("Take the piece off e5.")
    table.lift("e5")
    assert table.tracker.in_sync and table.lit() == {}


def test_moving_the_wrong_side_is_illegal():
    table = Table()
    table.run([("lift", "e7"), ("put", "e5")])
    assert table.moves == []
    assert table.lit() == {"e5": "illegal", "e7": "place"}
    assert "black pawn cannot go to e5" in table.tracker.guidance.text


def test_a_move_into_check_is_illegal():
    fen = "4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1"  # the bishop is pinned
    table = Table(fen).run([("lift", "e2"), ("put", "d3")])
    assert table.moves == []
    assert table.lit()["d3"] == "illegal"


# ----- two pieces in the air ---------------------------------------------------------------------------


def test_two_pieces_lifted_light_both_and_commit_nothing_until_one_is_back():
    table = Table()
    table.lift("g1")
    table.lift("b1")
    lit = table.lit()
    assert lit["g1"] == lit["b1"] == "lifted"
    assert {lit[s] for s in ("f3", "h3", "a3", "c3")} == {"move"}
    table.put("f3")
    table.wait(1000)
    assert table.moves == []
    table.put("b1")
    table.wait(300)
    assert table.moves == ["g1f3"]


def test_two_moves_made_at_once_are_flagged_and_guided_back():
    table = Table()
    table.run([("lift", "g1"), ("lift", "b1"), ("put", "f3"), ("put", "c3")])
    assert table.moves == []
    lit = table.lit()
    assert lit["f3"] == lit["c3"] == "illegal"
    assert lit["g1"] == lit["b1"] == "place"
    assert table.tracker.guidance.text.startswith("Make one move at a time.")
    table.run([("lift", "c3"), ("put", "b1")])
    assert table.moves == ["g1f3"]


# ----- fast play -----------------------------------------------------------------------------------------


def test_a_fast_reply_commits_the_waiting_move_first():
    table = Table(slow_settle_ms=600)
    # e2-e3 waits 600 ms (it could be e4), but black answers after 200 ms
    table.run([("lift", "e2"), ("put", "e3"), ("lift", "e7", 200), ("put", "e5", 200)])
    assert table.moves == ["e2e3", "e7e5"]


def test_a_reply_started_before_the_move_landed_is_flagged_then_sorted_out():
    """Black lifts before white's pawn lands: the board never showed e2-e4 on its own, so the
    tracker does not guess; black's pawn on e5 is flagged, and once it is back white's move
    stands alone and counts."""
    table = Table()
    table.run([("lift", "e2"), ("lift", "e7", 10), ("put", "e4", 10), ("put", "e5", 100)])
    assert table.moves == []
    assert table.lit()["e5"] == "illegal"
    table.run([("lift", "e5"), ("put", "e7"), ("lift", "e7"), ("put", "e5")])
    assert table.moves == ["e2e4", "e7e5"]


def test_a_brush_during_a_slide_is_not_mistaken_for_a_fast_reply():
    """Rook a8 takes on e8 (attacker first), sliding through b8 and brushing c7: the board
    briefly shows 'Rb8 plus a white piece on c7', which no white piece can reach."""
    fen = "r3Qbk1/8/8/8/8/8/8/1K6 b - - 0 1"
    steps = [("lift", "a8"), ("lift", "e8"), ("put", "b8", 50), ("put", "c7", 15), ("lift", "c7", 20),
             ("lift", "b8", 40), ("put", "c8", 50), ("lift", "c8", 50), ("put", "d8", 50), ("lift", "d8", 50),
             ("put", "e8", 50)]
    table = Table(fen).run(steps)
    assert table.moves == ["a8e8"]


def test_changing_your_mind_to_a_capture_is_not_mistaken_for_a_reply():
    fen = "4k3/8/8/8/5p2/8/8/2B1K3 w - - 0 1"
    table = Table(fen)
    # the bishop goes to e3, then the player takes f4 instead: f4 is a target of the same bishop
    table.run([("lift", "c1"), ("put", "e3"), ("lift", "f4", 60), ("lift", "e3", 60), ("put", "f4", 60)])
    assert table.moves == ["c1f4"]


# ----- lost events ------------------------------------------------------------------------------------


def test_a_snapshot_repairs_lost_events():
    table = Table()
    table.lift("g1")
    # the "put f3" event was lost; the periodic snapshot shows the truth
    occ = table.names(table.pos.occupied()) - {"g1"} | {"f3"}
    table.snapshot(occ)
    table.wait(300)
    assert table.moves == ["g1f3"]


def test_a_snapshot_equal_to_the_board_changes_nothing():
    table = Table()
    before = len(table.outputs)
    table.snapshot(table.names(table.pos.occupied()))
    assert len(table.outputs) == before


def test_events_for_squares_off_the_board_are_refused():
    from companion.board.ports import SquareChanged
    from companion.errors import HardwareError

    table = Table()
    with pytest.raises(HardwareError, match="off this board of 64 squares"):
        table.tracker.feed(SquareChanged(64, True, 10))


def test_a_connection_event_only_passes_time():
    from companion.board.ports import BoardConnected

    table = Table()
    table.lift("g1")
    table.put("f3")
    table.handle(table.tracker.feed(BoardConnected({}, table.t + 500)))
    assert table.moves == ["g1f3"]


def test_settle_times_must_be_whole_milliseconds():
    with pytest.raises(ValueError, match="settle_ms"):
        Table(settle_ms=-1)
    with pytest.raises(ValueError, match="illegal_ms"):
        Table(illegal_ms=1.5)
