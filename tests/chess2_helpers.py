"""Helpers for the Chess 2 tests: positions from text, move lists, playing moves and answers."""

from companion.core.moves import Answer
from companion.games.chess2 import rules_for


def game(white: str, black: str | None = None):
    return rules_for((white, black or white))


def pos_of(rules, fen: str, **extra):
    """``fen`` (4 or 6 FEN fields) with the rules' armies and any extra fields (stones="2,3")."""
    text = fen
    if "armies=" not in fen:
        text += f" armies={rules.armies[0]},{rules.armies[1]}"
    for k, v in extra.items():
        text += f" {k}={v}"
    return rules.position_from_text(text)


def moves(rules, pos, square: str | None = None) -> list[str]:
    """Legal moves (of the piece on ``square``), sorted, as text."""
    if square is None:
        ms = rules.legal_moves(pos)
    else:
        ms = rules.moves_from(pos, rules.geometry.parse_square(square))
    return sorted(rules.move_text(pos, m) for m in ms)


def targets(rules, pos, square: str) -> list[str]:
    """Destination squares of the legal moves of the piece on ``square`` (promotions once)."""
    return sorted({rules.move_text(pos, m)[2:4] for m in rules.moves_from(pos, rules.geometry.parse_square(square))})


def play(rules, pos, *actions: str):
    """Play moves (coordinate text) and answers (their text: duel, pass, 1-0, gain, skip, e1e2)
    through ``rules.play``, which refuses anything illegal."""
    for text in actions:
        if pos.pending is not None:
            rules.play(pos, rules.parse_answer(pos, text))
        else:
            rules.play(pos, rules.parse_move(pos, text))
    return pos


def piece(rules, pos, square: str) -> str | None:
    """The FEN letter on ``square`` (upper case white), or None."""
    p = pos.board[rules.geometry.parse_square(square)]
    return None if p is None else rules.letter(p)


def answer_texts(rules, pos) -> list[str]:
    return sorted(rules.answer_text(a) for a in rules.answers(pos))


def bids(a: int, d: int) -> Answer:
    return Answer("bids", (a, d))
