"""Why a square must change, read from a game's effects (explosions, push-backs, eliminations).

Games whose moves change more than the moved piece (Dungeon Chess) record what happened as
plain tuples in the position variable ``effects`` (companion/games/abilities.py lists them).
The tracker guides the board square by square anyway (it compares what stands where with the
game); this module only adds the *reason* to each instruction, so the players understand what
they are doing: "Remove the red Skeleton from c5 (fragile)", "Move the green Troll back from d4
to d3 (thick skin)".

A game's own effects need no code here. An effect is a tuple whose first item names it and
whose layout is one of two: ``(kind, square, title, owner, ...)`` for a piece taken off (the
reason goes with that square) or ``(kind, frm, to, title, owner)`` for a piece moved (the reason
goes with ``to``). The reason's words are the text ``"why <kind>"`` of companion/board/texts.py
(``{piece}`` and ``{colour}`` may appear in it); an effect without such a text is guided without
a reason. Three Dungeon effects say more than one square and are read below by name.

Pure; the words come from companion/board/texts.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable

from .. import texts


@dataclass(frozen=True)
class Reason:
    """Why the piece on (or for) a square changes. ``back``: the piece goes back to where
    it came from or is pushed back ("Move ... back from ... to ..."). ``removal``: the reason
    is about the piece leaving the board (said when it is taken off, not when another piece
    moves onto its square)."""

    why: str
    back: bool = False
    removal: bool = False


#: Effects that change squares beyond the moved piece and the piece it captured.
BOARD_EFFECTS = frozenset({"absorbed", "crushed", "destroyed", "step", "eliminated"})


def has_board_effects(effects: Iterable[tuple]) -> bool:
    """Do these effects change more than the moved piece and its victim?"""
    return any(e[0] in BOARD_EFFECTS for e in effects or ())


def reasons(effects: Iterable[tuple], move, colour: Callable[[int], str],
            piece: Callable[[int, str], str], game: str = "") -> dict[int, Reason]:
    """Square -> reason for the effects of one turn. ``move`` is the turn's move (or None),
    ``colour(player)`` the player's colour word, ``piece(owner, title)`` "the green Troll";
    ``game``: the game's name, for a reason of its own (``"why <game> <kind>"``)."""
    out: dict[int, Reason] = {}
    fragile = move is not None and getattr(move, "special", "") == "fragile"
    for e in effects or ():
        kind = e[0]
        if kind == "captured" and fragile:
            out[e[1]] = Reason(texts.phrase("why fragile"), removal=True)
        elif kind == "absorbed":
            _, sq, to, title, owner = e
            out[to] = Reason(texts.phrase("why thick skin"), back=True)
            if move is not None and getattr(move, "frm", -1) >= 0:
                out[move.frm] = Reason(texts.phrase("why absorbed").format(piece=piece(owner, title)), back=True)
        elif kind == "eliminated":
            why = texts.phrase("why out").format(colour=colour(e[1]))
            for sq in e[2]:
                out[sq] = Reason(why, removal=True)
        else:
            _generic(e, colour, piece, out, game)
    return out


def _generic(e: tuple, colour: Callable[[int], str], piece: Callable[[int, str], str],
             out: dict[int, Reason], game: str = "") -> None:
    """The reason of an effect in one of the two common layouts (see the module docstring): the
    game's own words (``"why <game> <kind>"``) if it has them, else the common ones."""
    why = texts.phrase(f"why {game} {e[0]}") or texts.phrase(f"why {e[0]}")
    if why is None or len(e) < 4 or not isinstance(e[1], int):
        return
    if isinstance(e[2], int) and len(e) >= 5:  # (kind, frm, to, title, owner): a piece moved
        _, _frm, to, title, owner = e[:5]
        out[to] = Reason(why.format(piece=piece(owner, title), colour=colour(owner)))
    elif isinstance(e[2], str) and isinstance(e[3], int):  # (kind, square, title, owner, ...): taken off
        _, sq, title, owner = e[:4]
        out[sq] = Reason(why.format(piece=piece(owner, title), colour=colour(owner)), removal=True)


def sentence(action: str, reason: Reason | None, **values) -> str:
    """One instruction with its reason. ``action``: "move", "take off", "put", "put back"
    (the tracker's plain sentence keys), with their values."""
    if reason is None or (reason.removal and action != "take off"):
        return texts.text(action, **values)
    if action == "move":
        return texts.text("move back why" if reason.back else "move why", why=reason.why, **values)
    if action == "take off":
        return texts.text("remove why", why=reason.why, **values)
    return texts.text("put why", why=reason.why, **values)
