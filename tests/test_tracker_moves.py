"""Every order a person might make each kind of move in, at fast and slow hands.

Each move is a few physical chains (the mover: lift, put; a victim: lift; castling's rook:
lift, put). ``interleavings`` merges the chains in every order that keeps each chain's own
order, the way h11 splits its input at every byte; impossible orders (putting a piece on an
occupied square) are skipped. Every order must give exactly the move, and a board in sync.
"""

from __future__ import annotations

import pytest

from tests.tracker_hands import (MoveDetected, PromptRequested, PromptWithdrawn, Table, interleavings,
                                 physically_possible)

CAPTURE = "4k3/8/8/3p4/8/4N3/8/4K3 w - - 0 1"  # Nxd5
CASTLE_WHITE = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1"
CASTLE_BLACK = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R b KQkq - 0 1"
EN_PASSANT = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2"  # exd6
EN_PASSANT_BLACK = "4k3/8/8/8/3Pp3/8/8/4K3 b - d3 0 2"  # exd3
PROMOTION = "4k3/P7/8/8/8/8/8/4K3 w - - 0 1"  # a8=?
PROMOTION_CAPTURE = "1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1"  # axb8=?

GAPS = (30, 400)


def occupied_names(table: Table) -> set[str]:
    return table.names(table.pos.occupied())


def orders(fen: str, *chains) -> list[tuple]:
    table = Table(fen)
    occ = occupied_names(table)
    return [o for o in interleavings(*chains) if physically_possible(o, occ)]


# ----- quiet moves ---------------------------------------------------------------------------------


@pytest.mark.parametrize("gap", GAPS)
def test_a_quiet_move_is_detected_once_the_piece_settles(gap):
    table = Table(gap=gap).run([("lift", "g1"), ("put", "f3")])
    assert table.moves == ["g1f3"]
    assert table.tracker.in_sync


def test_the_move_is_stamped_with_the_time_the_piece_landed_not_the_commit_time():
    table = Table(gap=100).run([("lift", "g1"), ("put", "f3")])
    (detected,) = table.of(MoveDetected)
    assert detected.t_ms == 200


def test_nothing_is_committed_before_the_settle_time():
    table = Table(settle_ms=150)
    table.lift("g1")
    table.put("f3")
    table.wait(100)
    assert table.moves == []
    table.wait(60)
    assert table.moves == ["g1f3"]


def test_a_move_that_could_still_be_extended_waits_longer():
    # e2-e3 may be a pawn on its way to e4 (PicoChess's rule): it waits the slow settle time
    table = Table(settle_ms=150, slow_settle_ms=600)
    table.lift("e2")
    table.put("e3")
    table.wait(400)
    assert table.moves == []
    table.wait(250)
    assert table.moves == ["e2e3"]


def test_a_knight_move_is_never_delayed():
    table = Table(settle_ms=150, slow_settle_ms=600)
    table.lift("g1")
    table.put("h3")
    table.wait(160)
    assert table.moves == ["g1h3"]


# ----- captures ------------------------------------------------------------------------------------

CAPTURE_ORDERS = orders(CAPTURE, [("lift", "e3"), ("put", "d5")], [("lift", "d5")])


def test_both_capture_orders_are_generated():
    assert {o[0][1] for o in CAPTURE_ORDERS} == {"e3", "d5"}  # attacker first and victim first


@pytest.mark.parametrize("gap", GAPS)
@pytest.mark.parametrize("steps", CAPTURE_ORDERS, ids=lambda s: "-".join(f"{a}{b}" for a, b in s))
def test_a_capture_is_detected_in_either_order(steps, gap):
    table = Table(CAPTURE, gap=gap).run(steps)
    assert table.moves == ["e3d5"]
    assert table.tracker.in_sync


def test_a_capture_needs_the_victims_square_to_have_been_lifted():
    # the knight lifted and held: the board looks exactly like "Nxd5" but nobody touched d5
    table = Table(CAPTURE)
    table.lift("e3")
    table.wait(3000)
    assert table.moves == []
    assert table.lit()["d5"] == "capture"


@pytest.mark.parametrize("first", ["d5", "e3"])
def test_lifting_the_enemy_piece_first_or_your_own_first_lights_the_capture(first):
    table = Table(CAPTURE)
    table.lift(first)
    assert table.lit()[first] == "lifted"
    table.lift("e3" if first == "d5" else "d5")
    lit = table.lit()
    assert lit["e3"] == "lifted" and lit["d5"] == "capture"  # the victim's square: go here
    table.put("d5")
    assert table.lit()["d5"] == "capture"  # the knight stands on its capture square


# ----- castling --------------------------------------------------------------------------------------

CASTLINGS = [
    (CASTLE_WHITE, "e1", "g1", "h1", "f1", "e1g1"),
    (CASTLE_WHITE, "e1", "c1", "a1", "d1", "e1c1"),
    (CASTLE_BLACK, "e8", "g8", "h8", "f8", "e8g8"),
    (CASTLE_BLACK, "e8", "c8", "a8", "d8", "e8c8"),
]
CASTLE_CASES = [
    (fen, steps, uci)
    for fen, kf, kt, rf, rt, uci in CASTLINGS
    for steps in orders(fen, [("lift", kf), ("put", kt)], [("lift", rf), ("put", rt)])
]


def test_castling_has_king_first_and_rook_first_orders_for_both_sides():
    assert len(CASTLE_CASES) == 4 * 6
    firsts = {(uci, steps[0][1]) for _, steps, uci in CASTLE_CASES}
    assert ("e1g1", "h1") in firsts and ("e1g1", "e1") in firsts and ("e8c8", "a8") in firsts


@pytest.mark.parametrize("gap", GAPS)
@pytest.mark.parametrize("fen,steps,uci", CASTLE_CASES,
                         ids=[f"{u}:" + "-".join(f"{a}{b}" for a, b in s) for _, s, u in CASTLE_CASES])
def test_castling_is_detected_in_any_order(fen, steps, uci, gap):
    table = Table(fen, gap=gap).run(steps)
    assert table.moves == [uci]
    assert table.tracker.in_sync


def test_the_king_on_g1_with_the_rook_still_home_asks_for_the_rook_and_is_not_illegal():
    table = Table(CASTLE_WHITE)
    table.lift("e1")
    table.put("g1")
    table.wait(3000)
    assert table.moves == []
    assert table.tracker.status == "moving"
    lit = table.lit()
    assert lit["h1"] == "hint-from" and lit["f1"] == "hint-to"
    assert table.tracker.guidance.text == "Now move the white rook from h1 to f1."
    table.run([("lift", "h1"), ("put", "f1")])
    assert table.moves == ["e1g1"]


def test_the_rook_moved_first_waits_long_enough_for_the_king():
    table = Table(CASTLE_WHITE, castle_settle_ms=1500)
    table.run([("lift", "h1"), ("put", "f1"), ("wait", 1200), ("lift", "e1"), ("put", "g1")])
    assert table.moves == ["e1g1"]


def test_a_rook_move_to_f1_left_alone_is_a_rook_move():
    table = Table(CASTLE_WHITE, castle_settle_ms=1500)
    table.run([("lift", "h1"), ("put", "f1")], settle=1600)
    assert table.moves == ["h1f1"]


@pytest.mark.parametrize("fen,steps,uci", CASTLE_CASES[:6])
def test_a_long_pause_inside_castling_commits_nothing_wrong(fen, steps, uci):
    """Split the hand's steps at every point with a 3 s pause: the result is castling, except
    after a finished rook move (h1-f1 alone is a legal move, committed after 1.5 s)."""
    for cut in range(1, len(steps)):
        table = Table(fen).run(list(steps[:cut]) + [("wait", 3000)] + list(steps[cut:]))
        done = {s[1] for s in steps[:cut]}
        if done == {"h1", "f1"}:
            assert table.moves == ["h1f1"]
            assert table.tracker.status == "out-of-sync"  # the king cannot move now: guided back
        else:
            assert table.moves == [uci], (cut, steps)


# ----- en passant -------------------------------------------------------------------------------------

EP_CASES = [(EN_PASSANT, s, "e5d6") for s in orders(EN_PASSANT, [("lift", "e5"), ("put", "d6")], [("lift", "d5")])]
EP_CASES += [(EN_PASSANT_BLACK, s, "e4d3")
             for s in orders(EN_PASSANT_BLACK, [("lift", "e4"), ("put", "d3")], [("lift", "d4")])]


@pytest.mark.parametrize("gap", GAPS)
@pytest.mark.parametrize("fen,steps,uci", EP_CASES, ids=[f"{u}:" + "-".join(f"{a}{b}" for a, b in s)
                                                        for _, s, u in EP_CASES])
def test_en_passant_is_detected_in_any_order(fen, steps, uci, gap):
    table = Table(fen, gap=gap).run(steps)
    assert table.moves == [uci]
    assert table.tracker.in_sync


def test_en_passant_half_done_lights_and_names_the_victim():
    table = Table(EN_PASSANT)
    table.lift("e5")
    table.put("d6")
    table.wait(1000)
    assert table.moves == []
    assert table.lit()["d5"] == "capture"
    assert table.tracker.guidance.text == "Now take the black pawn off d5."
    table.lift("d5")
    table.wait(200)
    assert table.moves == ["e5d6"]


# ----- promotion ---------------------------------------------------------------------------------------


def promotion_orders(fen, frm, to, victim=None):
    chains = [[("lift", frm), ("put", to)]]
    if victim:
        chains.append([("lift", victim)])
    return orders(fen, *chains)


@pytest.mark.parametrize("piece", ["q", "r", "b", "n"])
def test_promotion_asks_for_the_piece_and_commits_the_choice(piece):
    table = Table(PROMOTION).run([("lift", "a7"), ("put", "a8")], settle=300)
    assert table.moves == []
    (prompt,) = table.prompts()
    assert prompt.kind == "promotion" and set(prompt.options) == {"Q", "R", "B", "N"}
    assert prompt.text == "Which piece does the white pawn on a8 become?"
    assert "Queen" in prompt.labels
    table.choose(piece)
    assert table.moves == [f"a7a8{piece}"]
    assert table.fen().split()[0].startswith(piece.upper())


@pytest.mark.parametrize("choose_when", ["before-swap", "mid-swap", "after-swap"])
def test_the_pawn_swapped_for_the_new_piece_by_hand_is_one_move(choose_when):
    """The pawn is lifted off a8 again and a queen put there: occupancy does not change, the
    question stays open during the swap, and the answer may come at any point of it."""
    table = Table(PROMOTION).run([("lift", "a7"), ("put", "a8")], settle=300)
    steps = [("lift", "a8"), ("put", "a8", 700)]
    if choose_when == "before-swap":
        steps = [("choose", "q")] + steps
    elif choose_when == "mid-swap":
        steps = [steps[0], ("choose", "q"), steps[1]]
    else:
        steps = steps + [("wait", 300), ("choose", "q")]
    table.run(steps)
    assert table.moves == ["a7a8q"]
    assert not table.of(PromptWithdrawn)
    assert table.tracker.in_sync


@pytest.mark.parametrize("steps", promotion_orders(PROMOTION_CAPTURE, "a7", "b8", "b8"),
                         ids=lambda s: "-".join(f"{a}{b}" for a, b in s))
def test_a_promotion_with_capture_in_either_order_asks_and_commits(steps):
    table = Table(PROMOTION_CAPTURE).run(steps, settle=300)
    assert [p.kind for p in table.prompts()] == ["promotion"]
    table.choose("N")
    assert table.moves == ["a7b8n"]
    assert table.tracker.in_sync


def test_a_pawn_put_back_withdraws_the_promotion_question():
    table = Table(PROMOTION).run([("lift", "a7"), ("put", "a8")], settle=300)
    table.run([("lift", "a8"), ("put", "a7")])
    assert [type(o).__name__ for o in table.outputs if isinstance(o, (PromptRequested, PromptWithdrawn))] == [
        "PromptRequested", "PromptWithdrawn"]
    assert table.moves == [] and table.tracker.in_sync
    with pytest.raises(ValueError):
        table.choose("q")


def test_a_wrong_answer_is_refused_and_the_question_stays():
    table = Table(PROMOTION).run([("lift", "a7"), ("put", "a8")], settle=300)
    with pytest.raises(ValueError, match="not one of the choices"):
        table.choose("k")
    assert table.tracker.prompt is not None
    table.choose("Q")
    assert table.moves == ["a7a8q"]


# ----- ambiguity ------------------------------------------------------------------------------------------

QUEEN_TWO_VICTIMS = "4k3/8/8/8/8/8/2p1p3/3QK3 w - - 0 1"  # Qxc2 and Qxe2 leave the same occupancy


def test_two_legal_moves_with_the_same_occupancy_are_asked_not_guessed():
    """Both pawns were touched and the queen stands on one of their squares: the board shows
    the same occupancy for Qxc2 and Qxe2. The tracker asks rather than guesses."""
    table = Table(QUEEN_TWO_VICTIMS)
    table.run([("lift", "d1"), ("lift", "c2"), ("lift", "e2"), ("put", "e2"), ("put", "c2")], settle=300)
    assert table.moves == []
    (prompt,) = table.prompts()
    assert prompt.kind == "which-move" and set(prompt.options) == {"d1c2", "d1e2"}
    assert any("from d1 to e2" in label for label in prompt.labels)
    table.choose("d1e2")
    assert table.moves == ["d1e2"]
    assert table.tracker.in_sync
