"""Every sentence the board says, in a :class:`companion.i18n.Language`.

Each function takes the language first and returns the sentence; the English texts are the
catalog's message ids (``L.gettext("...")``, extracted by Babel, docs/i18n.md). Pieces and
players are said without articles ("Knight (white)" in German: "Springer (Weiß)"), so that
a language whose articles and adjectives follow the noun's gender needs no grammar here.
"""

from __future__ import annotations

import re
from typing import Sequence

from ..board.texts import COLOUR_WORDS as PIECE_COLOURS
from ..i18n import N_, Language
from .moves import STANDARD_ROLES, SpokenMove

#: The words of a chess set's pieces (a named unit keeps its title: a proper name).
ROLE_WORDS = {"king": N_("king"), "queen": N_("queen"), "rook": N_("rook"), "bishop": N_("bishop"),
              "knight": N_("knight"), "pawn": N_("pawn")}
#: The players' colours: chess's two and every colour a map may give a seat (companion/maps.py).
COLOUR_WORDS = {"white": N_("White"), "black": N_("Black"), "red": N_("Red"), "blue": N_("Blue"),
                "green": N_("Green"), "yellow": N_("Yellow"), "orange": N_("Orange"), "purple": N_("Purple"),
                "cyan": N_("Cyan"), "magenta": N_("Magenta")}

#: How a game ended (the keys of companion.session.events.GameResult.reason), as said.
REASONS = {
    "checkmate": N_("checkmate"),
    "king lost a fight": N_("the king lost a fight"),
    "resigned": N_("resignation"),
    "draw agreed": N_("agreement"),
    "stalemate": N_("stalemate"),
    "insufficient material": N_("not enough pieces to win"),
    "fifty-move rule": N_("the fifty-move rule"),
    "seventy-five-move rule": N_("the seventy-five-move rule"),
    "threefold repetition": N_("threefold repetition"),
    "fivefold repetition": N_("fivefold repetition"),
    "the last King standing": N_("the last King standing"),
    "King captured": N_("the King is taken"),
    "King destroyed by an explosion": N_("the King is destroyed"),
    "no King left": N_("no King is left"),
    "Midline Invasion": N_("Midline Invasion"),
    "no legal move": N_("no legal move"),
    "impossible checkmate": N_("no side can win"),
    "time": N_("time"),
    "time, cannot win": N_("time, but the opponent cannot win"),
    "illegal move": N_("a second illegal move"),
    "result agreed": N_("the players' result"),
    "set by the arbiter": N_("the arbiter's decision"),
    "forfeit": N_("forfeit"),
}

_SQUARE = re.compile(r"\b([a-z])(\d{1,2})\b")


def capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def colour(L: Language, word: str) -> str:
    """A player's colour ("White"); a colour no map uses is said as it is written."""
    return L.gettext(COLOUR_WORDS[word]) if word in COLOUR_WORDS else word


def piece(L: Language, word: str) -> str:
    """A piece's word: a chess piece translated ("knight"), a named unit as its title, in the
    language (the catalog has the titles of maps/**.toml)."""
    return L.gettext(ROLE_WORDS[word]) if word in STANDARD_ROLES else L.gettext(word)


def piece_of(L: Language, player_colour: str, word: str) -> str:
    """A player's piece: "the white knight"."""
    word_of_colour = L.gettext(player_colour) if player_colour in PIECE_COLOURS else player_colour
    return L.gettext("the {colour} {piece}").format(colour=word_of_colour, piece=piece(L, word))


def move(L: Language, m: SpokenMove) -> str:
    """"Knight takes e5, check"."""
    if m.castle:
        text = L.gettext("Castles kingside") if m.castle == "short" else L.gettext("Castles queenside")
    else:
        p = capital(piece(L, m.piece))
        if m.frm and m.capture:
            text = L.gettext("{piece} from {frm} takes {to}").format(piece=p, frm=m.frm, to=m.to)
        elif m.frm:
            text = L.gettext("{piece} from {frm} to {to}").format(piece=p, frm=m.frm, to=m.to)
        elif m.capture:
            text = L.gettext("{piece} takes {to}").format(piece=p, to=m.to)
        else:
            text = L.gettext("{piece} {to}").format(piece=p, to=m.to)
    if m.promotion:
        text = L.gettext("{move}, becomes a {piece}").format(move=text, piece=piece(L, m.promotion))
    if m.check == "mate":
        text = L.gettext("{move}, checkmate").format(move=text)
    elif m.check == "check":
        text = L.gettext("{move}, check").format(move=text)
    return text


def move_by(L: Language, player_colour: str, text: str) -> str:
    """A move with who made it (games of three or four, a computer's move)."""
    return L.gettext("{colour}: {move}").format(colour=colour(L, player_colour), move=text)


def to_move(L: Language, player_colour: str) -> str:
    return L.gettext("{colour} to move").format(colour=colour(L, player_colour))


# --- fights -----------------------------------------------------------------------------------------
def fight(L: Language, square: str, attacker: str, defenders: Sequence[str]) -> str:
    """``attacker`` and ``defenders`` already as :func:`piece_of` says them."""
    return L.gettext("Fight on {square}: {attacker} against {defender}.").format(
        square=square, attacker=attacker, defender=and_list(L, defenders))


def roll_the_dice(L: Language) -> str:
    return L.gettext("Roll the dice.")


def dice_round(L: Language, attacker_faces: Sequence[int], attacker_total: int,
               defender_faces: Sequence[int], defender_total: int) -> str:
    """One round's dice: "Attacker: 6 and 2, makes 6. Defender: 3, makes 2."."""
    return L.gettext("Attacker: {a_faces}, makes {a}. Defender: {d_faces}, makes {d}.").format(
        a_faces=and_list(L, [str(f) for f in attacker_faces]), a=attacker_total,
        d_faces=and_list(L, [str(f) for f in defender_faces]), d=defender_total)


def round_result(L: Language, result: str) -> str:
    """A round's outcome when the fight goes on (a tie)."""
    return L.gettext("A tie: roll again.") if result == "tie" else ""


def fight_result(L: Language, result: str, attacker: str, square: str) -> str:
    if result == "attacker":
        return L.gettext("The attacker wins: {attacker} takes {square}.").format(attacker=attacker, square=square)
    if result == "defender":
        return L.gettext("The defender holds: {attacker} is removed.").format(attacker=attacker)
    return L.gettext("Three ties: the fight bounces, both go back.")


# --- decisions in the middle of a turn -------------------------------------------------------------------
def decision(L: Language, kind: str, player_colour: str) -> str:
    """What a player is asked by the game (a duel's bid, a step, a trade); "" for a kind the
    board does not say."""
    who = colour(L, player_colour)
    texts = {
        "duel": L.gettext("{colour}: start a duel? Choose on the screen."),
        "bids": L.gettext("{colour}, choose your bid in secret."),
        "bluff": L.gettext("{colour}: bluff called. Choose your reward on the screen."),
        "step": L.gettext("{colour}: step one more square, or stay."),
        "trade": L.gettext("{colour}: trade this piece? Choose on the screen."),
        "king-turn": L.gettext("{colour}: king-turn. Move a Warrior King, or lift one and put it back."),
    }
    return texts[kind].format(colour=who) if kind in texts else ""


def bid_sealed(L: Language, player_colour: str) -> str:
    return L.gettext("{colour}'s bid is sealed.").format(colour=colour(L, player_colour))


# --- abilities (the effects a turn recorded, companion/games/abilities.py) -----------------------------
def ability(L: Language, effect: tuple, name_of, colour_of) -> str:
    """One effect of a turn in words ("" for one the move itself says, such as a capture).
    ``name_of``: square -> name; ``colour_of``: player -> colour word."""
    kind = effect[0] if effect else ""
    try:
        if kind == "explosion":
            return L.gettext("{unit} explodes on {square}!").format(unit=effect[2], square=name_of(effect[1]))
        if kind == "destroyed":
            return L.gettext("{unit} on {square} is destroyed.").format(unit=effect[2], square=name_of(effect[1]))
        if kind == "hex":
            return L.gettext("{unit} on {square} is hexed.").format(unit=effect[2], square=name_of(effect[1]))
        if kind == "hex_ends":
            return L.gettext("The hex on {unit} wears off.").format(unit=effect[2])
        if kind == "absorbed":
            return L.gettext("{unit} absorbs the blow and is pushed back to {to}.").format(
                unit=effect[3], to=name_of(effect[2]))
        if kind == "crushed":
            return L.gettext("{unit} on {square} cannot be pushed back and dies.").format(
                unit=effect[2], square=name_of(effect[1]))
        if kind == "step":
            return L.gettext("{unit} steps on to {to}.").format(unit=effect[3], to=name_of(effect[2]))
        if kind == "eliminated":
            return L.gettext("{colour} is out.").format(colour=colour(L, colour_of(effect[1])))
        if kind == "king_falls":
            return L.gettext("{colour}'s King has fallen.").format(colour=colour(L, colour_of(effect[1])))
        if kind == "pass":
            return L.gettext("{colour} has no legal move and passes.").format(colour=colour(L, colour_of(effect[1])))
        if kind == "retreat":
            return L.gettext("The King retreats into the Tower.")
        if kind == "exit":
            return L.gettext("The King leaves the Tower for {to}.").format(to=name_of(effect[2]))
        if kind == "swap":
            return L.gettext("{unit} and {other} change places.").format(unit=effect[3], other=effect[4])
        if kind == "charge":
            return L.gettext("The Gnome charges on to {to}.").format(to=name_of(effect[3]))
        if kind == "trade":
            return L.gettext("{unit} is traded for a {other}.").format(unit=effect[2], other=effect[3])
    except (IndexError, TypeError):
        return ""  # an effect of a shape this version does not know: the screen shows it
    return ""


# --- the clock, the end, notices ----------------------------------------------------------------------
def time_left(L: Language, player_colour: str, ms: int) -> str:
    """"White: one minute left" at a minute, "Black: 10 seconds left" below one."""
    who = colour(L, player_colour)
    if ms >= 60_000:
        n = ms // 60_000
        return L.ngettext("{colour}: {n} minute left.", "{colour}: {n} minutes left.", n).format(colour=who, n=n)
    n = max(1, ms // 1000)
    return L.ngettext("{colour}: {n} second left.", "{colour}: {n} seconds left.", n).format(colour=who, n=n)


def flag_fell(L: Language, player_colour: str) -> str:
    return L.gettext("{colour}'s flag fell.").format(colour=colour(L, player_colour))


def result(L: Language, winners: Sequence[str], reason: str) -> str:
    """"White wins: checkmate." / "Draw: stalemate."."""
    why = L.gettext(REASONS[reason]) if reason in REASONS else ""
    if not winners:
        return L.gettext("Draw: {reason}.").format(reason=why) if why else L.gettext("Draw.")
    who = and_list(L, [colour(L, w) for w in winners])
    if len(winners) > 1:
        return L.gettext("{names} win: {reason}.").format(names=who, reason=why) if why else \
            L.gettext("{names} win.").format(names=who)
    return L.gettext("{name} wins: {reason}.").format(name=who, reason=why) if why else \
        L.gettext("{name} wins.").format(name=who)


def game_started(L: Language) -> str:
    return L.gettext("A new game. Set up the pieces on the lit squares.")


def board_ready(L: Language) -> str:
    return L.gettext("The board is ready.")


def draw_offered(L: Language, player_colour: str) -> str:
    return L.gettext("{colour} offers a draw.").format(colour=colour(L, player_colour))


def draw_declined(L: Language, player_colour: str) -> str:
    return L.gettext("{colour} declines the draw.").format(colour=colour(L, player_colour))


def resigned(L: Language, player_colour: str) -> str:
    return L.gettext("{colour} resigns.").format(colour=colour(L, player_colour))


def taken_back(L: Language, n: int) -> str:
    return L.ngettext("{n} move taken back.", "{n} moves taken back.", n).format(n=n)


def refused(L: Language) -> str:
    return L.gettext("That move cannot be played now. Put the piece back.")


def position_set(L: Language) -> str:
    return L.gettext("The position was corrected. Set the pieces as the lights show.")


# --- a lifted piece ---------------------------------------------------------------------------------------
def lifted(L: Language, what: str, square: str, moves: int | None) -> str:
    """A piece lifted: "White knight on g1: 2 moves." (``moves`` None: not its turn)."""
    if moves is None:
        return L.gettext("{piece} on {square}.").format(piece=capital(what), square=square)
    if moves == 0:
        return L.gettext("{piece} on {square}: no moves.").format(piece=capital(what), square=square)
    return L.ngettext("{piece} on {square}: {n} move.", "{piece} on {square}: {n} moves.", moves).format(
        piece=capital(what), square=square, n=moves)


def targets(L: Language, squares: Sequence[str]) -> str:
    """The squares a piece held up can go to: "To f3 and h3."."""
    return L.gettext("To {squares}.").format(squares=and_list(L, squares))


def and_list(L: Language, items: Sequence[str]) -> str:
    """"a, b and c"."""
    items = list(items)
    if len(items) <= 1:
        return items[0] if items else ""
    return L.gettext("{items} and {last}").format(items=", ".join(items[:-1]), last=items[-1])


def for_voice(text: str) -> str:
    """The text as the voice should read it: a square name's letter apart from its number
    ("e5" -> "E 5"), so a voice says the letter's name, not a word."""
    return _SQUARE.sub(lambda m: m.group(1).upper() + " " + m.group(2), text)
