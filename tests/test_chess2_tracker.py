"""Every Chess 2 effect on the physical board, with the players' hands in any order: the real
Chess 2 rules and the real tracker, fed every interleaving of the hand steps a person might use
(tests/tracker_hands.py), each ending with the board and the game in agreement.

A duel the attacker lost (both pieces off), a Whirlwind (every neighbour off), an Elephant's
rampage (friend and foe; one spared by a duel put back), the Tiger's pounce (the Tiger back
home), the Reaper's and a Ghost's teleports, the Wild Horse taking its own piece, castling,
promotion inside the army, en passant by another army's pawn, and the king-turn (a Warrior
King's move, and the skip by lifting one).
"""

from __future__ import annotations

import pytest

from companion.games.chess2 import rules_for
from tests.tracker_hands import Table, chatter, frame_contexts, interleavings, physically_possible


def table(fen: str, armies: str, **kw) -> Table:
    rules = rules_for(armies.split(","))
    return Table(f"{fen} armies={armies}", rules=rules, **kw)


def lift(*names: str) -> list[tuple]:
    return [("lift", n) for n in names]


def orders(fen: str, armies: str, *chains) -> list[tuple]:
    """Every interleaving of the chains that hands can do (a piece lifted from where it stands,
    put where nothing stands)."""
    t = table(fen, armies)
    occupied = t.names(t.tracker.sensed)
    return [o for o in interleavings(*chains) if physically_possible(o, occupied)]


def run_and_follow(fen: str, armies: str, steps, answers=()) -> Table:
    """Make the steps, answer the game's questions on the screen, then do what the board asks."""
    t = table(fen, armies).run(steps)
    for a in answers:
        t.answer(a)
    return t.follow()


# --- a duel the attacker lost: both pieces off -------------------------------------------------------

DUEL = "4k3/8/8/4p3/8/5N2/8/4K3 w - - 0 1"  # white knight f3 takes the pawn on e5


@pytest.mark.parametrize("steps", orders(DUEL + " stones=3,3", "classic,classic", lift("e5"),
                                         (("lift", "f3"), ("put", "e5"))))
def test_a_duel_the_attacker_lost_takes_both_pieces_off_whatever_the_hands_did_first(steps):
    t = table(DUEL + " stones=3,3", "classic,classic").run(steps)
    assert t.moves == ["f3e5"] and t.pos.pending.kind == "duel"
    assert t.tracker.in_sync  # the board shows the capture as made while the duel is on
    t.answer("duel")
    t.answer("0-1")
    assert t.tracker.guidance.text == "Remove the white knight from e5 (it lost the duel)."
    t.follow()
    assert t.tracker.in_sync and t.pos.board[t.sq("e5")] is None and t.pos.board[t.sq("f3")] is None


def test_a_duel_the_attacker_won_leaves_the_board_as_the_hand_made_it():
    t = table(DUEL + " stones=3,3", "classic,classic").run(lift("e5") + [("lift", "f3"), ("put", "e5")])
    t.answer("duel")
    t.answer("2-1")
    assert t.tracker.in_sync and t.pos.board[t.sq("e5")].kind.title == "Knight"


# --- the Whirlwind: every piece next to the King off ----------------------------------------------------

WHIRL = "4k3/8/8/3pn3/3K4/4P3/8/7K w - - 0 1 stones=3,3"  # Warrior Kings d4 and h1
WHIRL_VICTIMS = ("d5", "e5", "e3")


def whirl_orders():
    """The King lifted and put back on its square, its neighbours taken off in any order; a
    neighbour must be off before the King is back (a King merely lifted and put back is nothing)."""
    king = (("lift", "d4"), ("put", "d4"))
    out = []
    for o in orders(WHIRL, "two-kings,classic", king, *[lift(v) for v in WHIRL_VICTIMS]):
        if o.index(("put", "d4")) > min(o.index(("lift", v)) for v in WHIRL_VICTIMS):
            out.append(o)
    return out


@pytest.mark.parametrize("steps", whirl_orders())
def test_a_whirlwind_made_in_any_order_takes_every_neighbour_off(steps):
    t = table(WHIRL, "two-kings,classic").run(steps)
    assert t.moves == ["d4d4"], steps
    t.follow()
    assert t.tracker.in_sync
    assert all(t.pos.board[t.sq(v)] is None for v in WHIRL_VICTIMS)
    assert t.pos.pending.kind == "king-turn"  # then the king-turn


@pytest.mark.parametrize("first", WHIRL_VICTIMS)
@pytest.mark.parametrize("king_first", [True, False])
def test_a_whirlwind_is_shown_by_the_king_touched_and_any_one_neighbour_off(first, king_first):
    """Whichever neighbour the hand takes off first, friend or foe: the rest is guided."""
    steps = lift("d4", first) if king_first else lift(first, "d4")
    t = table(WHIRL, "two-kings,classic").run(steps + [("put", "d4")])
    assert t.moves == ["d4d4"]
    assert t.tracker.guidance.text.count("(destroyed by the Whirlwind)") == 2
    t.follow()
    assert t.tracker.in_sync


def test_a_whirlwind_begun_with_one_neighbour_says_which_others_go_and_why():
    t = table(WHIRL, "two-kings,classic").run(lift("d4", "d5") + [("put", "d4")])
    assert t.moves == ["d4d4"]
    assert t.tracker.guidance.text == ("Remove the white pawn from e3 (destroyed by the Whirlwind). "
                                       "Remove the black knight from e5 (destroyed by the Whirlwind).")


def test_a_warrior_king_lifted_and_put_back_is_no_whirlwind():
    t = table(WHIRL, "two-kings,classic").run([("lift", "d4"), ("put", "d4")])
    assert t.moves == [] and t.tracker.in_sync


# --- the Elephant's rampage: several captures, friend and foe ------------------------------------------

RAMPAGE = "4k3/8/8/8/p7/p7/P7/R3K3 w - - 0 1 stones=3,0"  # a2 own pawn, a3 and a4 black pawns


@pytest.mark.parametrize("steps", orders(RAMPAGE, "animals,classic", lift("a2"), lift("a3"), lift("a4"),
                                         (("lift", "a1"), ("put", "a4"))))
def test_a_rampage_made_in_any_order_captures_friend_and_foe(steps):
    t = table(RAMPAGE, "animals,classic").run(steps)
    assert t.moves == ["a1a4"], steps
    t.follow()
    assert t.tracker.in_sync and t.pos.board[t.sq("a4")].kind.title == "Elephant"
    assert all(t.pos.board[t.sq(s)] is None for s in ("a1", "a2", "a3"))


def test_a_rampage_with_only_the_first_victim_off_is_guided_to_the_rest():
    t = table(RAMPAGE, "animals,classic").run(lift("a2", "a1", "a4") + [("put", "a4")])
    assert t.moves == ["a1a4"]
    assert t.tracker.guidance.text == "Take the black pawn off a3."
    t.follow()
    assert t.tracker.in_sync


def test_a_rampage_stopped_by_a_duel_puts_the_spared_piece_back():
    """"A defender's win in a rampage removes that piece and the Elephant and spares the rest of
    the path" (docs/rules/chess2.md): the Elephant, set down at the end of its path, comes off
    and the pawn it passed over goes back."""
    fen = "4k3/8/8/8/p7/p7/8/R3K3 w - - 0 1 stones=3,3"
    t = table(fen, "animals,classic").run(lift("a3", "a4", "a1") + [("put", "a4")])
    t.answer("duel")
    t.answer("0-1")
    assert t.tracker.guidance.text == "Remove the white Elephant from a4 (it lost the duel). Put the black pawn back on a4."
    t.follow()
    assert t.tracker.in_sync and t.pos.board[t.sq("a4")].owner == 1 and t.pos.board[t.sq("a3")] is None


# --- the Tiger's pounce: the victim off, the Tiger back home --------------------------------------------

TIGER = "4k3/8/8/8/8/8/1p6/2B1K3 w - - 0 1 stones=3,0"  # the white Tiger c1 pounces on b2


@pytest.mark.parametrize("steps", [o for o in orders(TIGER, "animals,classic", lift("b2"),
                                                     (("lift", "c1"), ("put", "c1")))
                                   if o.index(("lift", "b2")) < o.index(("put", "c1"))])
def test_a_pounce_made_in_any_order_leaves_the_tiger_home(steps):
    t = table(TIGER, "animals,classic").run(steps)
    assert t.moves == ["c1b2"] and t.tracker.in_sync
    assert t.pos.board[t.sq("c1")].kind.title == "Tiger" and t.pos.board[t.sq("b2")] is None


def test_a_tiger_put_on_its_victim_is_guided_back_home():
    t = table(TIGER, "animals,classic").run(lift("b2", "c1") + [("put", "b2")])
    assert t.moves == ["c1b2"]
    assert t.tracker.guidance.text == "Move the white Tiger from b2 to c1."
    t.follow()
    assert t.tracker.in_sync


def test_a_pounce_lost_in_a_duel_takes_the_tiger_off_its_own_square():
    t = table(TIGER.replace("stones=3,0", "stones=3,3"), "animals,classic")
    t.run(lift("b2", "c1") + [("put", "c1")])
    t.answer("duel")
    t.answer("0-1")
    assert t.tracker.guidance.text == "Remove the white Tiger from c1 (it lost the duel)."
    t.follow()
    assert t.tracker.in_sync


# --- teleports, the Wild Horse, castling, promotion, en passant -------------------------------------------

REAPER = "4k3/8/8/8/3p4/8/8/R2QK3 w - - 0 1 stones=3,0"  # white Ghost a1, Reaper d1, black pawn d4


@pytest.mark.parametrize("steps", orders(REAPER, "reaper,classic", lift("d4"), (("lift", "d1"), ("put", "d4"))))
def test_the_reaper_teleports_to_capture_in_any_order(steps):
    t = table(REAPER, "reaper,classic").run(steps)
    assert t.moves == ["d1d4"] and t.tracker.in_sync


def test_a_ghost_teleports_to_any_empty_square():
    t = table(REAPER, "reaper,classic").run([("lift", "a1"), ("put", "h6")])
    assert t.moves == ["a1h6"] and t.tracker.in_sync


HORSE = "4k3/8/8/8/8/8/3P4/1N2K3 w - - 0 1"  # the Wild Horse b1 may take its own pawn on d2


@pytest.mark.parametrize("steps", orders(HORSE, "animals,classic", lift("d2"), (("lift", "b1"), ("put", "d2"))))
def test_the_wild_horse_takes_its_own_piece_in_any_order(steps):
    t = table(HORSE, "animals,classic").run(steps)
    assert t.moves == ["b1d2"] and t.tracker.in_sync
    assert t.pos.board[t.sq("d2")].kind.title == "Wild horse"


CASTLE = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"


@pytest.mark.parametrize("steps", orders(CASTLE, "classic,classic", (("lift", "e1"), ("put", "g1")),
                                         (("lift", "h1"), ("put", "f1"))))
def test_classic_castling_in_any_order(steps):
    t = table(CASTLE, "classic,classic").run(steps)
    assert t.moves == ["e1g1"], steps
    assert t.tracker.in_sync


PROMOTE = "4k3/P7/8/8/8/8/8/4K3 w - - 0 1"


@pytest.mark.parametrize("answer_first", [True, False])
def test_an_animals_pawn_promotes_inside_its_army(answer_first):
    """"You can promote to any piece that's part of your army": the question offers the
    Animals' pieces, by name; the piece is changed on the board before or after the answer."""
    t = table(PROMOTE, "animals,classic").run([("lift", "a7"), ("put", "a8")])
    prompt = t.tracker.prompt
    assert prompt.kind == "promotion" and sorted(prompt.labels) == ["Elephant", "Jungle queen", "Tiger",
                                                                     "Wild horse"]
    option = prompt.options[prompt.labels.index("Elephant")]
    if answer_first:
        t.choose(option)
        t.run([("lift", "a8"), ("put", "a8")])
    else:
        t.run([("lift", "a8"), ("put", "a8")])
        t.choose(option)
    t.wait(2000)
    assert t.moves == ["a7a8r"] and t.tracker.in_sync
    assert t.pos.board[t.sq("a8")].kind.title == "Elephant"


EN_PASSANT = "4k3/8/8/3Pp3/8/8/8/4K3 w - e6 0 2"


@pytest.mark.parametrize("steps", orders(EN_PASSANT, "empowered,classic", lift("e5"),
                                         (("lift", "d5"), ("put", "e6"))))
def test_every_armys_pawns_take_en_passant_in_any_order(steps):
    """"All pawns on all teams have the ability to en passant.\""""
    t = table(EN_PASSANT, "empowered,classic").run(steps)
    assert t.moves == ["d5e6"] and t.tracker.in_sync


# --- the king-turn -------------------------------------------------------------------------------------

KING_TURN = "4k3/pppp4/8/8/8/8/4P3/3KK3 w - - 0 1"


def after_move() -> Table:
    t = table(KING_TURN, "two-kings,classic").run([("lift", "e2"), ("put", "e4")])
    assert t.pos.pending.kind == "king-turn"
    return t


@pytest.mark.parametrize("king", ["d1", "e1"])
def test_the_king_turn_is_skipped_by_lifting_either_warrior_king(king):
    t = after_move().run([("lift", king), ("put", king)])
    assert t.moves == ["e2e4", "skip"] and t.pos.turn == 1 and t.tracker.in_sync


def test_lifting_both_warrior_kings_and_putting_them_back_is_no_skip():
    t = after_move().run(lift("d1", "e1") + [("put", "e1"), ("put", "d1")])
    assert t.moves == ["e2e4"] and t.pos.pending.kind == "king-turn"


def test_the_king_turn_taken_by_moving_a_warrior_king():
    t = after_move().run([("lift", "e1"), ("put", "f2")])
    assert t.moves == ["e2e4", "e1f2"] and t.pos.turn == 1 and t.tracker.in_sync


def test_every_frame_of_these_effects_stays_in_one_palette_context():
    """Colour-blind safety holds for Chess 2's effects too: each frame uses meanings of one
    context (tests/test_palette.py checks the contexts' colours)."""
    tables = [
        run_and_follow(DUEL + " stones=3,3", "classic,classic", lift("e5", "f3") + [("put", "e5")], ("duel", "0-1")),
        run_and_follow(WHIRL, "two-kings,classic", lift("d4", "d5") + [("put", "d4")]),
        run_and_follow(RAMPAGE, "animals,classic", lift("a2", "a1", "a4") + [("put", "a4")]),
        run_and_follow(TIGER, "animals,classic", lift("b2", "c1") + [("put", "b2")]),
        after_move().run([("lift", "d1"), ("put", "d1")]),
    ]
    for t in tables:
        assert t.frames and t.tracker.in_sync
        for frame in t.frames:
            assert frame_contexts(frame), sorted(m.value for m in frame.values())


BOUNCY = [
    (DUEL + " stones=3,0", "classic,classic", lift("e5", "f3") + [("put", "e5")], "f3e5"),
    (WHIRL, "two-kings,classic", lift("d4", "d5", "e5", "e3") + [("put", "d4")], "d4d4"),
    (RAMPAGE, "animals,classic", lift("a2", "a3", "a4", "a1") + [("put", "a4")], "a1a4"),
    (TIGER, "animals,classic", lift("c1", "b2") + [("put", "c1")], "c1b2"),
    (HORSE, "animals,classic", lift("d2", "b1") + [("put", "d2")], "b1d2"),
]


@pytest.mark.parametrize("fen,armies,steps,move", BOUNCY)
def test_a_bouncing_switch_on_any_step_of_an_effect_changes_nothing(fen, armies, steps, move):
    """Reed switches chatter: each step of each effect bouncing, one at a time and all at once."""
    for i in range(len(steps)):
        bouncy = list(steps[:i]) + chatter(steps[i]) + list(steps[i + 1:])
        t = table(fen, armies).run(bouncy).follow()
        assert t.moves == [move] and t.tracker.in_sync, bouncy
    t = table(fen, armies).run([b for step in steps for b in chatter(step, ms=2)]).follow()
    assert t.moves == [move] and t.tracker.in_sync
