"""Cross-check against python-chess on positions reached by random play: the same legal moves,
the same FEN after every move, the same verdicts (checkmate, stalemate, insufficient material,
fifty-move rule, threefold repetition)."""

import random

import chess
import pytest

from companion.games.chess import ChessRules

RULES = ChessRules()


def _games(n_games: int, seed: int):
    rng = random.Random(seed)
    for _ in range(n_games):
        yield rng, rng.randint(20, 220)


def _verdicts_ours(pos):
    out = RULES.outcome(pos, claim_draw=False)
    reason = out.reason if out else None
    return {
        "checkmate": reason == "checkmate",
        "stalemate": reason == "stalemate",
        "insufficient": RULES.insufficient_material(pos),
        "fifty": pos.var("halfmove", 0) >= 100 and bool(RULES.legal_moves(pos)),
        "threefold": RULES.repetitions(pos) >= 3,
        "fivefold": RULES.repetitions(pos) >= 5,
        "in_check": RULES.in_check(pos),
    }


def _verdicts_peer(board: chess.Board):
    return {
        "checkmate": board.is_checkmate(),
        "stalemate": board.is_stalemate(),
        "insufficient": board.is_insufficient_material(),
        "fifty": board.is_fifty_moves(),
        "threefold": board.is_repetition(3),
        "fivefold": board.is_fivefold_repetition(),
        "in_check": board.is_check(),
    }


@pytest.mark.slow
def test_legal_moves_fens_and_verdicts_match_python_chess_on_random_play():
    positions = 0
    endings = {"checkmate": 0, "stalemate": 0, "insufficient": 0, "threefold": 0}
    for rng, plies in _games(40, seed=20261122):
        board = chess.Board()
        pos = RULES.start_position()
        for _ply in range(plies):
            ours = sorted(RULES.move_text(pos, m) for m in RULES.legal_moves(pos))
            peer = sorted(m.uci() for m in board.legal_moves)
            assert ours == peer, f"legal moves differ in {board.fen()}"
            assert RULES.fen(pos) == board.fen(), "FEN differs"
            v_ours, v_peer = _verdicts_ours(pos), _verdicts_peer(board)
            assert v_ours == v_peer, f"verdicts differ in {board.fen()}: ours {v_ours}, python-chess {v_peer}"
            for k in endings:
                endings[k] += v_ours[k]
            positions += 1
            if not peer or v_peer["insufficient"] or v_peer["fivefold"]:
                break
            # prefer moves that shuffle pieces back and forth now and then, to make repetitions
            uci = rng.choice(peer)
            board.push_uci(uci)
            RULES.apply(pos, _find(pos, uci))
    assert positions >= 1000
    # the random games really exercised the endings we compare
    assert endings["threefold"] + endings["checkmate"] + endings["stalemate"] + endings["insufficient"] > 0


def _find(pos, uci):
    for m in RULES.legal_moves(pos):
        if RULES.move_text(pos, m) == uci:
            return m
    raise AssertionError(uci)


@pytest.mark.parametrize("fen,reason", [
    ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "stalemate"),
    ("6rk/5Npp/8/8/8/8/8/6K1 b - - 0 1", "checkmate"),
    ("8/8/4k3/8/8/3K4/8/8 w - - 0 1", "insufficient material"),
    ("8/8/4k3/8/8/3KB3/8/8 w - - 0 1", "insufficient material"),
    ("8/8/4k3/8/8/3KN3/8/8 w - - 0 1", "insufficient material"),
    ("8/8/4k3/8/8/3K4/8/R7 w - - 100 80", "fifty-move rule"),
    ("8/8/4k3/8/8/3K4/8/R7 w - - 150 80", "seventy-five-move rule"),
])
def test_named_endings(fen, reason):
    pos = RULES.position_from_fen(fen)
    out = RULES.outcome(pos)
    assert out is not None and out.reason == reason
    assert out.is_draw == (reason != "checkmate")
    assert out.result_for(0) == ("draw" if out.is_draw else "win")


def test_fifty_move_rule_is_a_claim_not_automatic():
    pos = RULES.position_from_fen("8/8/4k3/8/8/3K4/8/R7 w - - 100 80")
    assert RULES.outcome(pos, claim_draw=False) is None


def test_threefold_and_fivefold_repetition():
    pos = RULES.start_position()
    shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"]
    for i in range(8):
        RULES.play(pos, RULES.parse_move(pos, shuffle[i % 4]))
    assert RULES.repetitions(pos) == 3
    assert RULES.outcome(pos).reason == "threefold repetition"
    assert RULES.outcome(pos, claim_draw=False) is None
    for i in range(8):
        RULES.apply(pos, RULES.parse_move(pos, shuffle[i % 4]))
    assert RULES.outcome(pos, claim_draw=False).reason == "fivefold repetition"


def test_en_passant_square_only_counts_when_capturable():
    """As FEN and the repetition rule count it: after e2e4 with no black pawn beside, no ep."""
    pos = RULES.start_position()
    RULES.play(pos, RULES.parse_move(pos, "e2e4"))
    assert RULES.fen(pos).split()[3] == "-"
    pos = RULES.position_from_fen("4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1")
    RULES.play(pos, RULES.parse_move(pos, "e2e4"))
    assert RULES.fen(pos).split()[3] == "e3"
    assert "d4e3" in {RULES.move_text(pos, m) for m in RULES.legal_moves(pos)}


def test_san_of_typical_moves():
    pos = RULES.position_from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
    sans = {RULES.san(pos, m) for m in RULES.legal_moves(pos)}
    peer = chess.Board("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
    assert sans == {peer.san(m) for m in peer.legal_moves}


@pytest.mark.parametrize("uci,rook_from,rook_to", [("e1g1", "h1", "f1"), ("e1c1", "a1", "d1"),
                                                   ("e8g8", "h8", "f8"), ("e8c8", "a8", "d8")])
def test_occupancy_after_castling_moves_the_rook_too(uci, rook_from, rook_to):
    """Reported by the tracker work: the physical board shows both king and rook moved."""
    side = "w" if uci[1] == "1" else "b"
    pos = RULES.position_from_fen(f"r3k2r/8/8/8/8/8/8/R3K2R {side} KQkq - 0 1")
    after = RULES.occupancy_after(pos, RULES.parse_move(pos, uci))
    g = RULES.geometry
    assert g.parse_square(rook_from) not in after and g.parse_square(rook_to) in after
    RULES.apply(pos, RULES.parse_move(pos, uci))
    assert after == pos.occupied()
