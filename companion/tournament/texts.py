"""The sentences a game record (PGN comments) is written with: penalties, claims, arbiter
actions, Combat Chess fights, how a game ended. One table, like the tracker's
(companion/board/texts.py), so the record reads the same everywhere and can be translated.
What the touchscreen shows lives in companion/app/texts.py."""

from __future__ import annotations

COLOURS = ("White", "Black", "Red", "Blue")

RECORD = {
    "illegal first": "Illegal move by {name} ({what}), completed by the clock press: the position before it "
                     "is back and {other} gets {minutes} (FIDE 7.5.5).",
    "illegal second": "Second illegal move by {name} ({what}): {name} loses the game (FIDE 7.5.5).",
    "illegal second draw": "Second illegal move by {name} ({what}): drawn, {other} cannot checkmate (FIDE 7.5.5).",
    "penalty": "Penalty against {name} by the arbiter: {other} gets {minutes} (FIDE 7.5.5).",
    "penalty loss": "Second penalty against {name} by the arbiter: {name} loses the game (FIDE 7.5.5).",
    "penalty cancelled": "The arbiter cancels the penalty against {name} ({minutes} taken off {other}).",
    "claim right": "{name} claims a draw by {kind}: correct (FIDE {article}).",
    "claim wrong": "{name} claims a draw by {kind}: incorrect, {other} gets {minutes} (FIDE 9.5.3).",
    "flag": "{name}'s flag fell.",
    "flag draw": "{name}'s flag fell, but {other} cannot checkmate: drawn (FIDE 6.9).",
    "flag mate": "{name}'s flag fell after the move on the board ended the game; the move stands (FIDE 6.9, 5.1.1).",
    "draw offer": "{name} offers a draw.",
    "agreed": "Result agreed by both players: {result}.",
    "resigned": "{name} resigns.",
    "set time": "Arbiter: {name}'s clock set to {time}.",
    "add time": "Arbiter: {time} added to {name}'s clock.",
    "set moves": "Arbiter: {name}'s move counter set to {moves}.",
    "pause": "Arbiter: clock paused.",
    "resume": "Arbiter: clock restarted.",
    "takeback": "Arbiter: {count} taken back.",
    "result": "Arbiter: result set to {result}.",
    "forfeit": "Arbiter: {winner} wins by forfeit.",
    "double forfeit": "Arbiter: both players forfeit (0-0).",
    "both lose": "Arbiter: result 0-0, both lose.",
    "end": "Arbiter: game ended without a result.",
    "power": "The board lost power; the clocks stood at {times} and the time it was off counts against nobody.",
    "text": "The game was loaded from its text with the clocks stopped at {times}.",
    "corrected": "The arbiter corrected the position (the FEN above); the moves before it: {moves}.",
    "position set": "(a correction)",
}

KINDS = {"threefold": "threefold repetition", "fifty": "the fifty-move rule"}
ARTICLES = {"threefold": "9.2", "fifty": "9.3"}

#: How each ending is told at the end of the record (the session's result reasons).
ENDINGS = {
    "checkmate": "{winner} wins by checkmate.",
    "resigned": "{loser} resigns.",
    "draw agreed": "Draw agreed.",
    "result agreed": "Result agreed by both players.",
    "stalemate": "Drawn by stalemate.",
    "insufficient material": "Drawn: neither side can checkmate.",
    "fifty-move rule": "Drawn by the fifty-move rule.",
    "seventy-five-move rule": "Drawn by the seventy-five-move rule.",
    "threefold repetition": "Drawn by threefold repetition.",
    "fivefold repetition": "Drawn by fivefold repetition.",
    "time": "{winner} wins on time.",
    "time, cannot win": "Drawn: the flag fell, but the opponent cannot win.",
    "illegal move": "{winner} wins: the opponent made a second illegal move.",
    "illegal move, cannot win": "Drawn: second illegal move, but the opponent cannot checkmate.",
    "king lost a fight": "{winner} wins: the King lost a fight.",
    "set by the arbiter": "Result set by the arbiter.",
    "forfeit": "Result by forfeit.",
    "ended by the arbiter": "Game ended by the arbiter without a result.",
}


def record(key: str, **values) -> str:
    return RECORD[key].format(**values)


def minutes(ms: int) -> str:
    m = ms // 60_000
    return f"{m} minute{'s' if m != 1 else ''}" if ms % 60_000 == 0 else f"{ms / 1000:g} seconds"
