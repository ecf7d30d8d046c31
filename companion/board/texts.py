"""Every sentence the tracker shows to players, in one table, so it can be translated.

The tracker builds guidance from small phrases ("the white knight", "Move ... from f3 to
e5.") rather than from whole pre-written messages, because corrections combine: a lost fight
needs "Take the white queen off d7." and "Put the black pawn back on d7." together. A
translation is the catalog's (docs/i18n.md): every phrase is marked ``N_`` here and translated
as it is used, so the code never builds a sentence out of English words of its own.
"""

from __future__ import annotations

from typing import Mapping, Sequence

from ..i18n import N_, _, ngettext

#: Player colour words, by player number (0-based), for a tracker given no names. The tracker
#: itself names players by their map seat's colour ("blue", "red", ...; see
#: companion/board/backdrop.py), and chess, which has no map of seats, white and black.
COLOURS: Sequence[str] = ("white", "black", "red", "blue")
#: The colour words a player may be named by (companion/maps.py's seat colours), for the catalog.
COLOUR_WORDS = frozenset((N_("white"), N_("black"), N_("red"), N_("blue"), N_("green"), N_("yellow"),
                          N_("orange"), N_("purple"), N_("cyan"), N_("magenta")))

TEXTS: Mapping[str, str] = {
    # how a piece is named
    "piece": N_("the {colour} {kind}"),
    "unknown piece": N_("the piece"),
    # one instruction each; the tracker joins several with spaces
    "move": N_("Move {piece} from {frm} to {to}."),
    "take off": N_("Take {piece} off {square}."),
    "put back": N_("Put {piece} back on {square}."),
    "put": N_("Put {piece} on {square}."),
    # a wrong placement, said at once
    "illegal one": N_("{piece} cannot go to {square}."),
    "illegal many": N_("Pieces stand where they may not go: {squares}."),
    "one at a time": N_("Make one move at a time."),
    # a move half done (castling, en passant)
    "finish move": N_("Now move {piece} from {frm} to {to}."),
    "finish take": N_("Now take {piece} off {square}."),
    # the computer's (or remote player's) move, carried out by a person
    "request move": N_("Move {piece} from {frm} to {to}."),
    "request take": N_("Take {piece} off {square}."),
    "request promote": N_("It becomes a {kind}."),
    "request put": N_("Put {piece} on {square}."),
    "request touch": N_("Lift {piece} on {square} and put it back."),
    "not the request": N_("That is not the move to make."),
    # questions for the screen
    "promotion question": N_("Which piece does the {colour} pawn on {square} become?"),
    "which move question": N_("Two moves leave the board like this. Which one did you make?"),
    # setting up
    "setup put": N_("Put {piece} on {square}."),
    "setup take": N_("Take {piece} off {square}."),
    # effects of a move beyond the moved piece (Dungeon Chess), with the reason in brackets
    "remove why": N_("Remove {piece} from {square} ({why})."),
    "move why": N_("Move {piece} from {frm} to {to} ({why})."),
    "move back why": N_("Move {piece} back from {frm} to {to} ({why})."),
    "put why": N_("Put {piece} on {square} ({why})."),
    "why fragile": N_("fragile"),
    "why destroyed": N_("destroyed by the explosion"),
    "why out": N_("{colour} is out"),
    "why thick skin": N_("thick skin"),
    "why absorbed": N_("{piece} took the blow"),
    "why crushed": N_("it cannot be pushed back"),
    "why step": N_("hit-and-run"),
    "why duel_lost": N_("it lost the duel"),
    # a game's own reason for an effect another game names the same way: "why <game> <kind>"
    "why chess2 destroyed": N_("destroyed by the Whirlwind"),
    # choices made on the screen
    "step question": N_("{piece} may step one more square (hit-and-run): move it to a lit square, or choose Stay."),
    "step stay": N_("Stay on {square}"),
    "step to": N_("Step to {square}"),
    "decision question": N_("Make a choice on the screen."),
    "pass question": N_("The {colour} player has no legal move and must pass."),
    "pass label": N_("Pass"),
    "hex label": N_("Hex {target} on {square} with {piece}"),
    # deploying an army (Dungeon Chess): the switches cannot tell pieces apart
    "deploy next": N_("Put {piece} on a lit square of the {colour} spawn zone."),
    "deploy count": N_("{placed} of {total} units placed."),
    "deploy outside": N_("The piece on {square} is not on a free square of the {colour} spawn zone: put it on a lit square."),
    "deploy water": N_("{piece} cannot stand on water ({square}): put it on a lit square."),
    "deploy one at a time": N_("Place one unit at a time: take a piece off {squares}."),
    "deploy put back": N_("Put {piece} back on {square} (only the last unit placed can be taken back)."),
    "deploy done": N_("Every unit is placed."),
}

#: Piece titles that are ordinary nouns in the sentences (FIDE's six pieces: "the white
#: knight"). A game whose kinds all appear here uses these words; any other game names its units
#: by their titles, as proper names ("the red Skeleton", "the blue Knight").
KIND_WORDS: Mapping[str, str] = {
    "Pawn": N_("pawn"), "Knight": N_("knight"), "Bishop": N_("bishop"), "Rook": N_("rook"), "Queen": N_("queen"),
    "King": N_("king"),
}


def text(key: str, **values: object) -> str:
    """The sentence ``key`` with its placeholders filled; a capital first letter."""
    out = _(TEXTS[key]).format(**values)
    return out[:1].upper() + out[1:]


def more_lit(count: int) -> str:
    """"3 more squares are lit." (after the first three instructions)."""
    return ngettext("{count} more square is lit.", "{count} more squares are lit.", count).format(count=count)


def phrase(key: str) -> str | None:
    """The phrase ``key`` in the current language, as it stands (no capital, placeholders left);
    None when there is no such phrase."""
    return _(TEXTS[key]) if key in TEXTS else None


def piece_phrase(colour: str | None, kind: str | None) -> str:
    """"the white knight", or "the piece" when the tracker cannot know which one stands there."""
    if colour is None or kind is None:
        return _(TEXTS["unknown piece"])
    return _(TEXTS["piece"]).format(colour=colour, kind=kind)


def kind_words(titles: Sequence[str], standard_set: bool = False) -> dict[str, str]:
    """The word for each kind title: :data:`KIND_WORDS` when every title has one (chess), else the
    titles themselves (a game of named units). ``standard_set``: the game is played with a
    standard chess set (Chess 2: every kind stands for a chess piece), so its plain pieces are
    nouns ("the white pawn") and its special ones proper names ("the white Elephant")."""
    if titles and (standard_set or all(t in KIND_WORDS for t in titles)):
        return {t: _(KIND_WORDS[t]) if t in KIND_WORDS else _(t) for t in titles}
    return {t: _(t) for t in titles}  # a unit's title, as the catalog has it (maps/**.toml are extracted)


def colour_name(player: int, names: Sequence[str] | None = None) -> str:
    names = names or COLOURS
    if not 0 <= player < len(names):
        return _("player {n}").format(n=player + 1)
    return _(names[player]) if names[player] in COLOUR_WORDS else names[player]
