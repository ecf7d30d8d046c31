"""Small positions of four-player chess for the tests: pieces by square name ("1K" is Red's King,
"3P" a Yellow pawn), the other variables as given."""

from __future__ import annotations

from companion.games import make_rules

_RULES: dict = {}
KINGS = {"h1": "1K", "a7": "2K", "g14": "3K", "n8": "4K"}


def rules(mode: str = "ffa", fights: str = "none"):
    key = (mode, fights)
    if key not in _RULES:
        _RULES[key] = make_rules("chess4", mode=mode, fights=fights)
    return _RULES[key]


def position(pieces: dict[str, str], turn: int = 0, mode: str = "ffa", fights: str = "none", kings: bool = True,
             **variables):
    """``(rules, pos)``: ``pieces`` (with each player's King on its start square unless that
    square is given or ``kings`` is false), ``turn`` 0..3, variables (points default 0)."""
    r = rules(mode, fights)
    pos = r.new_position()
    placed = dict(KINGS) if kings else {}
    taken = {c for c in pieces.values() if c[1:] == "K"}
    placed = {s: c for s, c in placed.items() if c not in taken}
    placed.update(pieces)
    g = r.geometry
    for name, cell in placed.items():
        pos.put(g.parse_square(name), pos.new_piece(cell[1:], int(cell[0]) - 1))
    pos.set_turn(turn)
    if mode == "ffa":
        pos.set_var("points", tuple(variables.pop("points", (0, 0, 0, 0))))
    for key, value in variables.items():
        pos.set_var(key, value)
    return r, pos


def play(r, pos, *texts: str) -> None:
    for t in texts:
        r.play(pos, r.parse_move(pos, t))


def moves(r, pos, frm: str | None = None) -> list[str]:
    g = r.geometry
    return sorted(r.move_text(pos, m) for m in r.legal_moves(pos) if frm is None or m.frm == g.parse_square(frm))
