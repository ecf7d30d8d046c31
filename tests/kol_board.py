"""Positions on the KoL Chess board for the rule tests: squares named, codes as the text's
(upper case Blue, lower case Orange; ``TK:1`` a Tower with its King, one turn inside)."""

from companion.core.pieces import Piece
from companion.games import make_rules

R = make_rules("kol")
#: Kings and one Legend each, out of the way of the tests' pieces (Boris on the far corners
#: holds rank 12 / file a for Blue and rank 1 / file l for Orange).
BASE = {"c2": "K", "j11": "k", "a12": "B", "l1": "b"}


def sq(name: str) -> int:
    return R.geometry.parse_square(name)


def position(pieces: dict, turn: int = 0, base: bool = True, **variables):
    """A position with ``pieces`` ({"e4": "NS", "e5": "kg", "g1": "TK:1"}) plus BASE."""
    pos = R.new_position()
    for name, code in ({**BASE, **pieces} if base else pieces).items():
        if code is None:
            continue
        code, _, turns = code.partition(":")
        owner = 0 if code.isupper() else 1
        piece = pos.new_piece(code.upper(), owner)
        if turns:
            piece.state = {"turns": int(turns), "carries": pos.next_uid}
            pos.next_uid += 1
        pos.put(sq(name), piece)
    pos.set_turn(turn)
    for k, v in variables.items():
        pos.set_var(k, v)
    return pos


def moves(pos, square: str | None = None) -> list[str]:
    """Legal move texts (of the piece on ``square``), sorted."""
    out = R.legal_moves(pos)
    if square is not None:
        out = [m for m in out if m.frm == sq(square)]
    return sorted(R.move_text(pos, m) for m in out)


def targets(pos, square: str) -> list[str]:
    """Where the piece on ``square`` may go (square names only), sorted."""
    return sorted({R.geometry.name_of(m.to) for m in R.legal_moves(pos) if m.frm == sq(square)})


def play(pos, *texts: str):
    for t in texts:
        if t.startswith("="):
            R.play(pos, next(a for a in R.answers(pos) if R.answer_text(a) == t[1:]))
        else:
            R.play(pos, R.parse_move(pos, t))
    return pos
