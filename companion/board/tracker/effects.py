"""Why a square must change, read from a game's effects (explosions, push-backs, eliminations).

Games whose moves change more than the moved piece (Dungeon Chess) record what happened as
plain tuples in the position variable ``effects`` (companion/games/abilities.py lists them).
The tracker guides the board square by square anyway (it compares what stands where with the
game); this module only adds the *reason* to each instruction, so the players understand what
they are doing: "Remove the red Skeleton from c5 (fragile)", "Move the green Troll back from d4
to d3 (thick skin)".

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
            piece: Callable[[int, str], str]) -> dict[int, Reason]:
    """Square -> reason for the effects of one turn. ``move`` is the turn's move (or None),
    ``colour(player)`` the player's colour word, ``piece(owner, title)`` "the green Troll"."""
    out: dict[int, Reason] = {}
    fragile = move is not None and getattr(move, "special", "") == "fragile"
    for e in effects or ():
        kind = e[0]
        if kind == "captured" and fragile:
            out[e[1]] = Reason(texts.TEXTS["why fragile"], removal=True)
        elif kind == "destroyed":
            out[e[1]] = Reason(texts.TEXTS["why destroyed"], removal=True)
        elif kind == "crushed":
            out[e[1]] = Reason(texts.TEXTS["why crushed"], removal=True)
        elif kind == "absorbed":
            _, sq, to, title, owner = e
            out[to] = Reason(texts.TEXTS["why thick skin"], back=True)
            if move is not None and getattr(move, "frm", -1) >= 0:
                out[move.frm] = Reason(texts.TEXTS["why absorbed"].format(piece=piece(owner, title)), back=True)
        elif kind == "step":
            out[e[2]] = Reason(texts.TEXTS["why step"])
        elif kind == "eliminated":
            why = texts.TEXTS["why out"].format(colour=colour(e[1]))
            for sq in e[2]:
                out[sq] = Reason(why, removal=True)
    return out


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
