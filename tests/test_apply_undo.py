"""apply then undo restores the position exactly (pieces, state, variables, hash, history)."""

from hypothesis import given, settings, strategies as st

from companion.games.chess import ChessRules

RULES = ChessRules()


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=10_000), min_size=1, max_size=80))
def test_apply_undo_restores_everything(choices):
    pos = RULES.start_position()
    snapshots = [pos.snapshot()]
    for c in choices:
        moves = RULES.legal_moves(pos)
        if not moves:
            break
        RULES.apply(pos, moves[c % len(moves)])
        snapshots.append(pos.snapshot())
        # the incremental hash equals the hash of the same position built from scratch
        assert RULES.position_from_fen(RULES.fen(pos)).hash == pos.hash
    while len(snapshots) > 1:
        snapshots.pop()
        RULES.undo(pos)
        assert pos.snapshot() == snapshots[-1]


def test_undo_with_nothing_to_undo_is_a_clear_error():
    import pytest

    from companion.errors import IllegalMoveError

    pos = RULES.start_position()
    with pytest.raises(IllegalMoveError, match="nothing to undo"):
        RULES.undo(pos)


def test_copy_is_independent():
    pos = RULES.start_position()
    RULES.apply(pos, RULES.parse_move(pos, "e2e4"))
    other = pos.copy()
    RULES.apply(other, RULES.parse_move(other, "e7e5"))
    RULES.undo(other)
    RULES.undo(other)
    assert other.snapshot() == RULES.start_position().snapshot()
    assert RULES.fen(pos).startswith("rnbqkbnr/pppppppp/8/8/4P3/")


def test_legal_moves_order_is_a_function_of_the_position():
    """Found by the AI work: the order must not depend on the apply/undo history (determinism
    of the computer player for a given seed)."""
    pos = RULES.position_from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
    before = RULES.legal_moves(pos)
    for m in before:
        RULES.apply(pos, m)
        for r in RULES.legal_moves(pos)[:5]:
            RULES.apply(pos, r)
            RULES.undo(pos)
        RULES.undo(pos)
    assert RULES.legal_moves(pos) == before
    fresh = RULES.position_from_fen(RULES.fen(pos))
    assert RULES.legal_moves(fresh) == before
