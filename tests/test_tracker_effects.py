"""The tracker follows effects it has never heard of: a game describes them, the tracker guides.

Every game here is the synthetic ``EffectChess`` (tests/effect_game.py): FIDE chess plus special
moves that do to the board what Chess 2's and KoL Chess's rules do (a whirlwind, the Tiger's
pounce, a rampage, Boris's double capture, a swap, a teleport, a capture of one's own piece, a
piece into and out of its Tower, a duel the attacker lost, an optional king-turn skipped by a
gesture). The tracker has no code for any of them; these tests show it reads them from the
engine (docs/tracker.md, "A new game's effects").
"""

from __future__ import annotations

import pytest
from effect_game import EffectChess, EffectTable
from tracker_hands import frame_contexts

from companion.board.palette import Meaning
from companion.board.tracker import PromptWithdrawn, Tracker
from companion.core.moves import Answer, Move
from companion.errors import VariantError


def table(fen: str, *specials: tuple, paths: dict | None = None, **options) -> EffectTable:
    """A table on ``fen`` with the special moves ``(frm, to, capture, special)`` (square names)."""
    rules = EffectChess()
    g = rules.geometry.parse_square
    rules.extra = [Move(g(f), g(t), g(c) if c else None, None, s) for f, t, c, s in specials]
    rules.paths = {(g(a), g(b)): tuple(g(s) for s in path) for (a, b), path in (paths or {}).items()}
    rules.king_turn = options.pop("king_turn", False)
    return EffectTable(rules, fen, **options)


def detected(t: EffectTable) -> list[str]:
    return t.actions


def assert_frames_ok(t: EffectTable) -> None:
    for frame in t.frames:
        assert frame_contexts(frame), sorted(m.value for m in frame.values())


# --- Whirlwind (Chess 2, Two Kings): the king stays, every piece next to it is removed --------

WHIRL = "4k3/ppp5/8/3pn3/3K4/4P3/8/8 w - - 0 1"  # around d4: white pawn e3, black pawn d5, knight e5
WHIRLWIND = ("d4", "d4", None, "whirlwind")


def test_whirlwind_the_king_touched_and_one_neighbour_taken_off_makes_it_and_the_rest_is_guided():
    t = table(WHIRL, WHIRLWIND)
    t.do("-d4", "-d5", "+d4")
    assert detected(t) == ["d4d4"]
    assert t.tracker.status == "out-of-sync"
    assert t.names(t.tracker.guidance.remove) == {"e3", "e5"}
    assert t.tracker.guidance.text == "Take the white pawn off e3. Take the black knight off e5."
    t.do("-e3", "-e5")
    assert t.tracker.in_sync
    assert_frames_ok(t)


def test_whirlwind_every_neighbour_taken_off_with_the_king_lifted_meanwhile_is_in_step_at_once():
    t = table(WHIRL, WHIRLWIND)
    t.do("-e5", "-d4", "-e3", "-d5", "+d4")
    assert detected(t) == ["d4d4"] and t.tracker.in_sync


def test_whirlwind_lifting_the_king_and_putting_it_back_is_nothing():
    """A king is lifted and put back all the time: that must never destroy its neighbours."""
    t = table(WHIRL, WHIRLWIND)
    t.do("-d4", "+d4")
    assert detected(t) == [] and t.tracker.in_sync


def test_whirlwind_a_neighbour_lifted_without_the_king_is_not_a_whirlwind():
    t = table(WHIRL, WHIRLWIND)
    t.do("-d5", settle=3000)
    assert detected(t) == []
    t.do("+d5")
    assert t.tracker.in_sync and detected(t) == []


def test_whirlwind_asked_of_a_person_says_what_to_take_off_and_to_touch_the_king():
    t = table(WHIRL, WHIRLWIND)
    move = next(m for m in t.rules.legal_moves(t.pos) if m.special == "whirlwind")
    t.handle(t.tracker.request_move(move))
    g = t.tracker.guidance
    assert g.text == ("Take the white pawn off e3. Take the black pawn off d5. Take the black knight off e5. "
                      "Lift the white king on d4 and put it back.")
    assert t.lit()["d4"] == Meaning.COMPUTER_MOVE_FROM.value
    t.do("-e3", "-d5", "-e5", "-d4", "+d4")
    assert detected(t) == ["d4d4"] and t.tracker.in_sync


# --- The Tiger (Chess 2, Animals): it captures and goes back where it pounced from -------------

TIGER = "4k3/pppp4/8/8/8/8/1n6/R3K3 w - - 0 1"  # the white "tiger" on a1 may pounce on b2
POUNCE = ("a1", "b2", "b2", "pounce")


def test_tiger_lifted_victim_taken_tiger_back_home_is_the_pounce_and_in_step():
    """Only the victim's square empties; the Tiger lifted and put back says who captured."""
    t = table(TIGER, POUNCE)
    t.do("-a1", "-b2", "+a1")
    assert detected(t) == ["a1b2"] and t.tracker.in_sync


def test_tiger_put_on_its_victim_is_the_pounce_and_is_guided_back():
    t = table(TIGER, POUNCE)
    t.do("-b2", "-a1", "+b2")
    assert detected(t) == ["a1b2"]
    assert t.tracker.guidance.text == "Move the white rook from b2 to a1."
    t.do("-b2", "+a1")
    assert t.tracker.in_sync


def test_tiger_an_enemy_lifted_alone_is_not_a_pounce():
    """The victim lifted and held (to capture it with something else, or just touched)."""
    t = table(TIGER, POUNCE)
    t.do("-b2", settle=3000)
    assert detected(t) == []
    t.do("+b2")
    assert t.tracker.in_sync


def test_tiger_pounce_asked_of_a_person():
    t = table(TIGER, POUNCE)
    move = next(m for m in t.rules.legal_moves(t.pos) if m.special == "pounce")
    t.handle(t.tracker.request_move(move))
    assert t.tracker.guidance.text == "Take the black knight off b2. Lift the white rook on a1 and put it back."
    assert t.lit()["a1"] == t.lit()["b2"] == Meaning.COMPUTER_MOVE_FROM.value
    t.do("-b2", "-a1", "+a1")
    assert detected(t) == ["a1b2"] and t.tracker.in_sync


# --- The Elephant's rampage (Chess 2, Animals): several captures, friend and foe --------------

RAMPAGE_FEN = "4k3/1ppp4/8/8/8/p7/P7/R3K3 w - - 0 1"  # a2 white pawn, a3 black pawn, a4 empty
RAMPAGE = ("a1", "a4", "a2", "rampage")
RAMPAGE_PATH = {("a1", "a4"): ("a2", "a3")}


def test_rampage_made_by_hand_then_the_other_victim_guided():
    t = table(RAMPAGE_FEN, RAMPAGE, paths=RAMPAGE_PATH)
    t.do("-a2", "-a1", "+a4")
    assert detected(t) == ["a1a4"]
    assert t.tracker.guidance.text == "Take the black pawn off a3."
    t.do("-a3")
    assert t.tracker.in_sync


def test_rampage_with_every_victim_off_at_once_is_in_step():
    t = table(RAMPAGE_FEN, RAMPAGE, paths=RAMPAGE_PATH)
    t.do("-a3", "-a2", "-a1", "+a4")
    assert detected(t) == ["a1a4"] and t.tracker.in_sync


# --- Boris (KoL): two adjacent pieces taken, he ends on the farther ---------------------------

BORIS_FEN = "4k3/1pp5/8/8/3p4/3p4/8/3RK3 w - - 0 1"  # rook d1; black pawns d3 (near), d4 (far)
BORIS = ("d1", "d4", "d3", "boris")


def test_boris_double_capture_both_victims_off_and_boris_on_the_farther():
    t = table(BORIS_FEN, BORIS)
    t.do("-d1")
    assert t.lit()["d4"] == Meaning.CAPTURE.value  # where Boris goes
    t.do("-d3", "-d4", "+d4")
    assert detected(t) == ["d1d4"] and t.tracker.in_sync


def test_boris_asked_of_a_person_takes_both_victims():
    t = table(BORIS_FEN, BORIS)
    move = next(m for m in t.rules.legal_moves(t.pos) if m.special == "boris")
    t.handle(t.tracker.request_move(move))
    # both victims first: the farther stands where the rook lands
    assert t.tracker.guidance.text == ("Take the black pawn off d3. Take the black pawn off d4. "
                                       "Move the white rook from d1 to d4.")


# --- Sneaky Pete's swap (KoL): two squares stay occupied ---------------------------------------

SWAP_FEN = "4k3/pppp4/8/8/5P2/8/8/2B1K3 w - - 0 1"  # bishop c1 and pawn f4 may change places
SWAP = ("c1", "f4", None, "swap")


def test_swap_no_change_of_occupancy_is_read_from_the_lifts():
    t = table(SWAP_FEN, SWAP)
    t.do("-c1", "-f4", "+f4", "+c1")
    assert detected(t) == ["c1f4"] and t.tracker.in_sync
    assert t.pos.board[t.sq("f4")].kind.code == "B"
    # the tracker knows the bishop now stands on f4: black replies, then the bishop lights its moves
    t.do("-a7", "+a6")
    t.do("-f4")
    assert t.lit()["g5"] == Meaning.MOVE.value and t.lit()["f4"] == Meaning.LIFTED.value


def test_swap_any_order_of_the_hands():
    for steps in (("-f4", "-c1", "+c1", "+f4"), ("-c1", "-f4", "+c1", "+f4"), ("-f4", "-c1", "+f4", "+c1")):
        t = table(SWAP_FEN, SWAP)
        t.do(*steps)
        assert detected(t) == ["c1f4"], steps


def test_swap_made_half_then_guided():
    """The bishop put on the pawn's square while the pawn is still in the hand: the swap."""
    t = table(SWAP_FEN, SWAP)
    t.do("-c1", "-f4", "+f4")
    assert detected(t) == ["c1f4"]
    assert t.tracker.guidance.text == "Put the white pawn back on c1."
    t.do("+c1")
    assert t.tracker.in_sync


def test_swap_one_piece_lifted_and_put_back_is_nothing():
    t = table(SWAP_FEN, SWAP)
    t.do("-c1", "+c1")
    t.do("-f4", "+f4")
    assert detected(t) == [] and t.tracker.in_sync


def test_swap_decision_both_pieces_lifted_together_and_put_back_reads_as_the_swap():
    """docs/tracker.md, known limits: an occupancy-only board cannot tell a swap from the same
    two pieces lifted at once and put back unswapped; the tracker reads the swap (a takeback
    fixes it), as it reads a capture from a touched victim."""
    t = table(SWAP_FEN, SWAP)
    t.do("-c1", "-f4", "+c1", "+f4")
    assert detected(t) == ["c1f4"]


def test_swap_with_another_piece_touched_too_is_nothing():
    t = table(SWAP_FEN, SWAP)
    t.do("-c1", "-f4", "-e1", "+e1", "+f4", "+c1")
    assert detected(t) == []


def test_swap_asked_of_a_person():
    t = table(SWAP_FEN, SWAP)
    move = next(m for m in t.rules.legal_moves(t.pos) if m.special == "swap")
    t.handle(t.tracker.request_move(move))
    assert t.tracker.guidance.text == "Move the white bishop from c1 to f4. Move the white pawn from f4 to c1."
    t.do("-f4", "-c1", "+f4", "+c1")
    assert detected(t) == ["c1f4"] and t.tracker.in_sync


# --- Teleports (Ghost, Reaper, Jarlsberg) and the Wild Horse taking its own piece --------------

def test_teleport_and_a_capture_of_ones_own_piece_are_ordinary_shapes():
    t = table("4k3/pppp4/8/8/8/8/3P4/RN2K3 w - - 0 1", ("a1", "h6", None, "teleport"), ("b1", "d2", "d2", "own"))
    t.do("-b1")
    assert t.lit()["d2"] == Meaning.CAPTURE.value  # the Wild Horse may take its own pawn
    t.do("-d2", "+d2")
    assert detected(t) == ["b1d2"] and t.tracker.in_sync
    t.do("-a7", "+a6")
    t.do("-a1", "+h6")
    assert detected(t) == ["b1d2", "a7a6", "a1h6"] and t.tracker.in_sync


# --- A piece into its Tower and out again (KoL: the King and the Tower) ------------------------

TOWER_FEN = "4k3/ppp5/8/8/8/3p4/8/RN2K3 w - - 0 1"  # the knight b1 may go into the rook a1
ENTER = ("b1", "a1", None, "enter")


def test_tower_enter_the_piece_leaves_the_board_and_the_tower_is_touched():
    """The board keeps the Tower's square occupied; the piece inside is kept beside the board."""
    t = table(TOWER_FEN, ENTER)
    t.do("-b1", "-a1", "+a1")
    assert detected(t) == ["b1a1"] and t.tracker.in_sync
    assert t.pos.board[t.sq("a1")].state["inside"][0] == "N"


def test_tower_lifting_the_piece_alone_is_not_entering():
    t = table(TOWER_FEN, ENTER)
    t.do("-b1", settle=3000)
    assert detected(t) == []


def test_tower_moves_with_the_piece_inside_and_lets_it_out_onto_an_empty_square():
    t = table(TOWER_FEN, ENTER, ("a1", "c3", None, "exit"), ("a4", "c3", None, "exit"))
    t.do("-b1", "-a1", "+a1")
    t.do("-a7", "+a6")
    t.do("-a1", "+a4")  # the Tower moves, the piece inside goes with it
    assert detected(t) == ["b1a1", "a7a6", "a1a4"] and t.tracker.in_sync
    t.do("-a6", "+a5")
    t.do("+c3")  # the knight comes out: put on the board from beside it
    assert detected(t) == ["b1a1", "a7a6", "a1a4", "a6a5", "a4c3"] and t.tracker.in_sync
    assert t.pos.board[t.sq("c3")].kind.code == "N"


def test_tower_the_piece_comes_out_capturing():
    t = table(TOWER_FEN, ENTER, ("a1", "d3", "d3", "exit"))
    t.do("-b1", "-a1", "+a1")
    t.do("-a7", "+a6")
    t.do("-d3", "+d3", settle=3000)  # the victim touched and put back: nothing
    assert detected(t) == ["b1a1", "a7a6"]
    t.do("-d3", "-a1", "+a1", "+d3")  # the victim off, the knight out onto d3, the Tower touched
    assert detected(t) == ["b1a1", "a7a6", "a1d3"] and t.tracker.in_sync
    assert t.pos.board[t.sq("d3")].kind.code == "N" and t.pos.board[t.sq("d3")].owner == 0


def test_tower_exit_asked_of_a_person():
    t = table(TOWER_FEN, ENTER, ("a1", "d3", "d3", "exit"))
    t.do("-b1", "-a1", "+a1")
    t.do("-a7", "+a6")
    move = next(m for m in t.rules.legal_moves(t.pos) if m.special == "exit")
    t.handle(t.tracker.request_move(move))
    assert t.tracker.guidance.text == ("Take the black pawn off d3. Put the white knight on d3. "
                                       "Lift the white rook on a1 and put it back.")
    t.do("-d3", "+d3", "-a1", "+a1")
    assert detected(t)[-1] == "a1d3" and t.tracker.in_sync


# --- A duel the attacker lost (Chess 2): both pieces off ---------------------------------------

def test_duel_lost_by_the_attacker_both_pieces_end_off_the_board():
    t = table("4k3/pppp4/8/4p3/8/5N2/8/4K3 w - - 0 1", ("f3", "e5", "e5", "duel"))
    t.do("-e5", "-f3", "+e5")
    assert detected(t) == ["f3e5"]
    prompt = t.tracker.prompt
    assert prompt.kind == "duel" and prompt.options == ("attacker", "defender")
    t.handle(t.tracker.choose("defender"))
    assert detected(t) == ["f3e5", "defender"]
    assert t.tracker.guidance.text == "Take the white knight off e5."
    assert t.names(t.tracker.guidance.remove) == {"e5"}
    t.do("-e5")
    assert t.tracker.in_sync and t.pos.turn == 1


# --- An optional turn skipped by a gesture (Chess 2, Two Kings' king-turn) ---------------------

KING_TURN = "4k3/pppp4/8/8/8/8/4P3/4K3 w - - 0 1"


def king_turn_table() -> EffectTable:
    t = table(KING_TURN, king_turn=True)
    t.do("-e2", "+e4")
    assert detected(t) == ["e2e4"]
    assert t.pos.pending is not None and t.pos.pending.kind == "king-turn"
    return t


def test_king_turn_skipped_by_lifting_the_king_and_putting_it_back():
    t = king_turn_table()
    assert t.tracker.prompt.kind == "king-turn" and t.tracker.prompt.options[0] == "skip"
    assert t.lit()["e1"] == Meaning.HINT_FROM.value and t.lit()["f2"] == Meaning.HINT_TO.value
    t.do("-e1", "+e1")
    assert detected(t) == ["e2e4", "skip"]
    assert t.pos.pending is None and t.pos.turn == 1 and t.tracker.in_sync
    assert any(isinstance(o, PromptWithdrawn) and o.kind == "king-turn" for o in t.outputs)


def test_king_turn_taken_by_moving_the_king():
    t = king_turn_table()
    t.do("-e1", "+f2")
    assert detected(t) == ["e2e4", "f2"] and t.tracker.in_sync


def test_king_turn_skipped_on_the_screen():
    t = king_turn_table()
    t.handle(t.tracker.choose("skip"))
    assert detected(t) == ["e2e4", "skip"] and t.pos.turn == 1


def test_king_turn_gesture_with_another_piece_touched_too_is_nothing():
    t = king_turn_table()
    t.do("-e1", "-e4", "+e4", "+e1")
    assert detected(t) == ["e2e4"] and t.pos.pending is not None


def test_a_gesture_must_name_a_possible_action_and_occupied_squares():
    rules = EffectChess()
    pos = rules.position_from_fen(KING_TURN)
    rules.gestures = lambda p: [(Answer("king-turn", "skip", 0), frozenset({4}))]
    with pytest.raises(VariantError, match="cannot be made now"):
        Tracker(rules, pos)
    rules.gestures = lambda p: [(rules.legal_moves(p)[0], frozenset({30}))]
    with pytest.raises(VariantError, match="must name squares that hold a piece"):
        Tracker(rules, pos)


def test_every_frame_in_these_games_stays_in_one_palette_context():
    """Colour-blind safety holds for effects too: each frame uses meanings of one context."""
    tables = [table(WHIRL, WHIRLWIND).do("-d4", "-d5", "+d4"), table(TIGER, POUNCE).do("-b2", "-a1", "+b2"),
              table(SWAP_FEN, SWAP).do("-c1", "-f4", "+f4"), king_turn_table().do("-e1", "+e1")]
    for t in tables:
        assert t.actions and t.frames
        assert_frames_ok(t)


def test_a_new_effect_gets_its_reason_from_the_text_table_alone(monkeypatch):
    """An effect in the common layout ``(kind, square, title, owner)`` is said with the text
    ``"why <kind>"`` when the table has one: words are data, no code (effects.py)."""
    from companion.board import texts

    monkeypatch.setitem(texts.TEXTS, "why trampled", "trampled by the Elephant")
    t = table(RAMPAGE_FEN, RAMPAGE, paths=RAMPAGE_PATH)
    t.do("-a2", "-a1", "+a4")
    assert t.tracker.guidance.text == "Remove the black pawn from a3 (trampled by the Elephant)."
