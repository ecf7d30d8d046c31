"""Every sentence the tracker shows to players, in one table, so it can be translated.

The tracker builds guidance from small phrases ("the white knight", "Move ... from f3 to
e5.") rather than from whole pre-written messages, because corrections combine: a lost fight
needs "Take the white queen off d7." and "Put the black pawn back on d7." together. A
translation replaces :data:`TEXTS` (same keys, same ``{placeholders}``); the code never
builds a sentence out of English words of its own.
"""

from __future__ import annotations

from typing import Mapping, Sequence

#: Player colour words, by player number (0-based), for a tracker given no names. The tracker
#: itself names players by their map seat's colour ("blue", "red", ...; see
#: companion/board/backdrop.py), and chess, which has no map of seats, white and black.
COLOURS: Sequence[str] = ("white", "black", "red", "blue")

TEXTS: Mapping[str, str] = {
    # how a piece is named
    "piece": "the {colour} {kind}",
    "unknown piece": "the piece",
    # one instruction each; the tracker joins several with spaces
    "move": "Move {piece} from {frm} to {to}.",
    "take off": "Take {piece} off {square}.",
    "put back": "Put {piece} back on {square}.",
    "put": "Put {piece} on {square}.",
    "more": "{count} more squares are lit.",
    # a wrong placement, said at once
    "illegal one": "{piece} cannot go to {square}.",
    "illegal many": "Pieces stand where they may not go: {squares}.",
    "one at a time": "Make one move at a time.",
    # a move half done (castling, en passant)
    "finish move": "Now move {piece} from {frm} to {to}.",
    "finish take": "Now take {piece} off {square}.",
    # the computer's (or remote player's) move, carried out by a person
    "request move": "Move {piece} from {frm} to {to}.",
    "request take": "Take {piece} off {square}.",
    "request promote": "It becomes a {kind}.",
    "request put": "Put {piece} on {square}.",
    "request touch": "Lift {piece} on {square} and put it back.",
    "not the request": "That is not the move to make.",
    # questions for the screen
    "promotion question": "Which piece does the {colour} pawn on {square} become?",
    "which move question": "Two moves leave the board like this. Which one did you make?",
    # setting up
    "setup put": "Put {piece} on {square}.",
    "setup take": "Take {piece} off {square}.",
    # effects of a move beyond the moved piece (Dungeon Chess), with the reason in brackets
    "remove why": "Remove {piece} from {square} ({why}).",
    "move why": "Move {piece} from {frm} to {to} ({why}).",
    "move back why": "Move {piece} back from {frm} to {to} ({why}).",
    "put why": "Put {piece} on {square} ({why}).",
    "why fragile": "fragile",
    "why destroyed": "destroyed by the explosion",
    "why out": "{colour} is out",
    "why thick skin": "thick skin",
    "why absorbed": "{piece} took the blow",
    "why crushed": "it cannot be pushed back",
    "why step": "hit-and-run",
    # choices made on the screen
    "step question": "{piece} may step one more square (hit-and-run): move it to a lit square, or choose Stay.",
    "step stay": "Stay on {square}",
    "step to": "Step to {square}",
    "decision question": "Make a choice on the screen.",
    "pass question": "The {colour} player has no legal move and must pass.",
    "pass label": "Pass",
    "hex label": "Hex {target} on {square} with {piece}",
    # deploying an army (Dungeon Chess): the switches cannot tell pieces apart
    "deploy next": "Put {piece} on a lit square of the {colour} spawn zone.",
    "deploy count": "{placed} of {total} units placed.",
    "deploy outside": "The piece on {square} is not on a free square of the {colour} spawn zone: put it on a lit square.",
    "deploy water": "{piece} cannot stand on water ({square}): put it on a lit square.",
    "deploy one at a time": "Place one unit at a time: take a piece off {squares}.",
    "deploy put back": "Put {piece} back on {square} (only the last unit placed can be taken back).",
    "deploy done": "Every unit is placed.",
}

#: Piece titles that are ordinary nouns in the sentences (FIDE's six pieces: "the white
#: knight"). A game whose kinds all appear here uses these words; any other game names its units
#: by their titles, as proper names ("the red Skeleton", "the blue Knight").
KIND_WORDS: Mapping[str, str] = {
    "Pawn": "pawn", "Knight": "knight", "Bishop": "bishop", "Rook": "rook", "Queen": "queen", "King": "king",
}


def text(key: str, **values: object) -> str:
    """The sentence ``key`` with its placeholders filled; a capital first letter."""
    out = TEXTS[key].format(**values)
    return out[:1].upper() + out[1:]


def piece_phrase(colour: str | None, kind: str | None) -> str:
    """"the white knight", or "the piece" when the tracker cannot know which one stands there."""
    if colour is None or kind is None:
        return TEXTS["unknown piece"]
    return TEXTS["piece"].format(colour=colour, kind=kind)


def kind_words(titles: Sequence[str]) -> dict[str, str]:
    """The word for each kind title: :data:`KIND_WORDS` when every title has one (chess), else the
    titles themselves (a game of named units)."""
    if titles and all(t in KIND_WORDS for t in titles):
        return {t: KIND_WORDS[t] for t in titles}
    return {t: t for t in titles}


def colour_name(player: int, names: Sequence[str] | None = None) -> str:
    names = names or COLOURS
    return names[player] if 0 <= player < len(names) else f"player {player + 1}"
