"""Unit abilities as named hooks, each written once (Dungeon Chess uses them; any game may).

A unit lists its abilities by name in its roster (maps/variants/dungeon.toml). Two sorts exist:

* **vocabulary** abilities are nothing but movement: the unit's patterns already say it
  (``phase``: a ``ride ... phase``; ``cannon_proof``: ``immune = ["hop"]``; ...). They are named
  here so the draft screen can describe them and a test can check that the data says so.
* **hook** abilities change more than the moved piece. Each is one function below, called by
  the game's rules at a fixed point of the turn:

  ``fragile``      move generation: any adjacent enemy may capture the unit
  ``intimidate``   attack detection: adjacent enemy Pawns cannot attack
  ``thick_skin``   a capture of the unit: absorbed once, the unit pushed 1 square back
  ``volatile``     the unit's death: it explodes, destroying adjacent enemies (chains)
  ``hit_and_run``  after the unit captures: one more step, a choice for its player
  ``hex``          a special move: freeze one visible enemy for its owner's next 2 turns

Every hook changes the position only through the Position primitives, so undo and hashing
stay exact, and appends plain tuples to ``effects`` that the screen turns into words
(companion.games.dungeon.describe_effects) and the tracker into things to do on the board.

Effects (first item names it; squares are ints):

``("captured", sq, title, owner)``            a piece was captured on sq
``("absorbed", sq, to, title, owner)``        a Troll took the hit and was pushed sq -> to
``("crushed", sq, title, owner, why)``        a Troll could not be pushed back and died
``("explosion", sq, title, owner)``           a volatile unit exploded on sq
``("destroyed", sq, title, owner)``           a piece destroyed by an explosion
``("hex", sq, title, owner, turns)``          a unit was hexed
``("hex_ends", sq, title, owner)``            a hex wore off
``("step", frm, to, title, owner)``           the hit-and-run step
``("eliminated", player, squares)``           a player's King fell; their pieces removed
``("king_falls", player)``                    a King fell and the game is over
``("pass", player)``                          the player had no legal move and passed
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

from ..core.compiled import backward_step
from ..i18n import N_
from ..core.geometry import FLOOR, VOID, WATER
from ..core.moves import Move

if TYPE_CHECKING:
    from ..core.position import Position

HEX_TURNS = 2


@dataclass(frozen=True)
class Ability:
    """What the draft screen and docs/rules/dungeon.md say about an ability."""

    name: str
    title: str
    words: str  # plain words for the screen
    rule: str  # the rulebook's own words
    by: str  # "vocabulary" (the unit's patterns say it) or "hook" (a function here)


ABILITIES: dict[str, Ability] = {a.name: a for a in (
    Ability("fragile", N_("Fragile"),
            N_("Any enemy piece next to it may capture it, whatever that piece's normal attack."),
            "Fragile: any adjacent enemy can capture it (auto-capture)", "hook"),
    Ability("screen_slide", N_("Screen slide"),
            N_("May also slide along straight lines up to the first piece (not onto it)."),
            "rook slide (to screen)", "vocabulary"),
    Ability("cannon", N_("Cannon"),
            N_("Captures along a straight line by jumping over exactly one piece (either side's) "
            "onto the target; water squares in the line are skipped."),
            "It must pass over exactly ONE piece (the \u201cscreen\u201d) between itself and the target.", "vocabulary"),
    Ability("phase_fire", N_("Phase fire"), N_("Its straight-line attacks pass through one of its own pieces."),
            "Phase fire: rook-slide attacks pass through one friendly piece", "vocabulary"),
    Ability("cannon_proof", N_("Cannon-proof"), N_("No cannon can capture it."),
            "Cannon-proof: cannot be targeted by cannon attacks", "vocabulary"),
    Ability("intimidate", N_("Intimidate"),
            N_("Enemy Pawns on the 8 squares around it cannot attack (nor give check)."),
            "Intimidate: adjacent enemy Pawns cannot attack", "hook"),
    Ability("water_walk", N_("Water-walk"), N_("May land on water squares."),
            "Water-walk: can land on water squares", "vocabulary"),
    Ability("hit_and_run", N_("Hit-and-run"),
            N_("After a capture it may step 1 more square in any direction (not capturing)."),
            "Hit-and-run: after capturing, may move 1 additional square in any direction", "hook"),
    Ability("flexible", N_("Flexible"), N_("May also jump 2 squares straight."),
            "Flexible: can also move 2 squares straight (orthogonal)", "vocabulary"),
    Ability("piercing", N_("Piercing"), N_("Its diagonal attacks may pass over one piece in between."),
            "Piercing: can attack through one intervening piece", "vocabulary"),
    Ability("phase", N_("Phase"), N_("Its slides pass through its own pieces; only enemies and void stop it."),
            "Phase: slides pass through friendly pieces (stops only at enemies/voids)", "vocabulary"),
    Ability("water_weakness", N_("Water weakness"),
            N_("Water stops its diagonal slides: it cannot slide diagonally over water."),
            "Water blocks diagonal slides for Fire Elemental, Troll, Demonics, and Shaman.", "vocabulary"),
    Ability("thick_skin", N_("Thick-skinned"), N_("The first capture only pushes it 1 square back toward its home edge "
            "(the attacker stays put); if it cannot be pushed, or on the second capture, it dies."),
            "Thick-skinned: first capture is absorbed (pushed 1 sq backward); second capture kills", "hook"),
    Ability("split", N_("Split"), N_("Moves one way but attacks in all 8 directions."),
            "Split: moves as Rook, attacks in all directions", "vocabulary"),
    Ability("volatile", N_("Volatile"), N_("When it dies it explodes: every enemy piece on the 8 squares around it is "
            "destroyed (other exploding units chain)."),
            "Volatile: on death, explodes \u2014 destroys all adjacent enemy pieces", "hook"),
    Ability("hex", N_("Hex"), N_("Once per game, instead of moving, freeze one enemy it can see along a straight or "
            "diagonal line: that unit cannot move or attack for its owner's next 2 turns."),
            "Hex: once per game, spend a turn to immobilise one visible enemy for 2 turns", "hook"),
    Ability("mobile", N_("Mobile"), N_("May also slide diagonally, but never captures by sliding."),
            "Mobile: slides diagonally for repositioning (no capture via slide)", "vocabulary"),
    Ability("ranged", N_("Ranged"),
            N_("Attacks at a distance (diagonal slide or L-shaped jump) besides the King step."),
            "Ranged: attacks at distance via diagonal slide", "vocabulary"),
)}


def describe_ability(name: str) -> Ability:
    return ABILITIES[name]


# --------------------------------------------------------------------------------- helpers


def neighbour_table(geo) -> list[tuple[int, ...]]:
    """The up-to-8 non-void squares around each square."""
    out = []
    for sq in range(geo.size):
        f, r = sq % geo.width, sq // geo.width
        around = []
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                if (dx or dy) and geo.on_board(f + dx, r + dy):
                    t = (r + dy) * geo.width + f + dx
                    if geo.terrain[t] != VOID:
                        around.append(t)
        out.append(tuple(around))
    return out


def sight_table(geo) -> list[tuple[tuple[int, ...], ...]]:
    """The 8 straight and diagonal lines of sight from each square: void and the board edge
    end a line; water does not (it is "transparent to ranged attacks")."""
    out = []
    for sq in range(geo.size):
        f, r = sq % geo.width, sq // geo.width
        lines = []
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)):
            line, x, y = [], f + dx, r + dy
            while geo.on_board(x, y) and geo.terrain[y * geo.width + x] != VOID:
                line.append(y * geo.width + x)
                x += dx
                y += dy
            if line:
                lines.append(tuple(line))
        out.append(tuple(lines))
    return out


def can_stand(geo, sq: int, kind) -> bool:
    t = geo.terrain[sq]
    return t == FLOOR or (t == WATER and kind.water == "stop")


# ---------------------------------------------------------------------------------- hooks


def is_hexed(piece) -> bool:
    """``hex``: a hexed unit cannot move, attack or give check."""
    return bool(piece.state) and bool(piece.state.get("hex"))


def is_intimidated(board, neighbours, intimidators: frozenset, sq: int) -> bool:
    """``intimidate``: is the Pawn on ``sq`` next to an enemy intimidator?"""
    owner = board[sq].owner
    for n in neighbours[sq]:
        q = board[n]
        if q is not None and q.owner != owner and q.kid in intimidators:
            return True
    return False


def fragile_captures(board, neighbours, fragile: frozenset, sq: int, player: int) -> list[int]:
    """``fragile``: squares of enemy fragile units next to the piece on ``sq``."""
    out = []
    for n in neighbours[sq]:
        q = board[n]
        if q is not None and q.owner != player and q.kid in fragile:
            out.append(n)
    return out


def absorb(pos: "Position", homes, sq: int, effects: list) -> bool:
    """``thick_skin``: the unit on ``sq`` is being captured. The first time, push it one square
    toward its owner's home edge and return True (the capture is absorbed, the attacker stays).
    If it is already wounded, False (it dies like any piece); if the square behind is off the
    board, void, water or occupied, it dies as well (an effect says why) and False is returned."""
    piece = pos.board[sq]
    if piece.state.get("wounded"):
        return False
    geo = pos.geometry
    back = backward_step(geo, sq, homes[piece.owner])
    why = ""
    if back is None:
        why = "the board edge"
    elif geo.terrain[back] == VOID:
        why = "void"
    elif not can_stand(geo, back, piece.kind):
        why = "water"
    elif pos.board[back] is not None:
        why = "a piece"
    if why:
        effects.append(("crushed", sq, piece.kind.title, piece.owner, why))
        return False
    pos.move_piece(sq, back)
    pos.set_state(back, "wounded", 1)
    effects.append(("absorbed", sq, back, piece.kind.title, piece.owner))
    return True


def explode(pos: "Position", neighbours, volatile: frozenset, sq: int, owner: int, title: str,
            effects: list) -> None:
    """``volatile``: the unit of ``owner`` died on ``sq``: destroy every enemy piece on the 8
    squares around; a destroyed volatile unit explodes in turn (breadth first). Destroyed is
    not captured: a Troll's thick skin does not help against it."""
    queue = [(sq, owner, title)]
    while queue:
        centre, who, name = queue.pop(0)
        effects.append(("explosion", centre, name, who))
        for n in neighbours[centre]:
            q = pos.board[n]
            if q is not None and q.owner != who:
                pos.take(n)
                effects.append(("destroyed", n, q.kind.title, q.owner))
                if q.kid in volatile:
                    queue.append((n, q.owner, q.kind.title))


def step_squares(pos: "Position", neighbours, sq: int) -> list[int]:
    """``hit_and_run``: where the unit on ``sq`` may take its extra step: an empty square it can
    stand on, next to it; no capture."""
    board, geo = pos.board, pos.geometry
    kind = board[sq].kind
    return [n for n in neighbours[sq] if board[n] is None and can_stand(geo, n, kind)]


def hex_moves(pos: "Position", sight, sq: int, player: int, out_players) -> list[Move]:
    """``hex``: the unit on ``sq`` may hex the first piece on each of its 8 lines of sight if it
    is an enemy's; once per game (state ``hex_spent``)."""
    caster = pos.board[sq]
    if caster.state.get("hex_spent"):
        return []
    board = pos.board
    out = []
    for line in sight[sq]:
        for t in line:
            q = board[t]
            if q is not None:
                if q.owner != player and q.owner not in out_players:
                    out.append(Move(sq, t, None, None, "hex"))
                break
    return out


def cast_hex(pos: "Position", move: Move, effects: list) -> None:
    pos.set_state(move.frm, "hex_spent", 1)
    pos.set_state(move.to, "hex", HEX_TURNS)
    target = pos.board[move.to]
    effects.append(("hex", move.to, target.kind.title, target.owner, HEX_TURNS))


def tick_hexes(pos: "Position", player: int, effects: list) -> None:
    """At the end of ``player``'s turn each of their hexed units has served one turn."""
    board = pos.board
    for sq in list(pos.occ[player]):
        p = board[sq]
        if p.state:
            left = p.state.get("hex")
            if left:
                pos.set_state(sq, "hex", left - 1 or None)
                if left == 1:
                    effects.append(("hex_ends", sq, p.kind.title, player))


#: The hook abilities, by name, for checks that every named hook exists.
HOOKS: dict[str, Callable] = {
    "fragile": fragile_captures,
    "intimidate": is_intimidated,
    "thick_skin": absorb,
    "volatile": explode,
    "hit_and_run": step_squares,
    "hex": hex_moves,
}


# ------------------------------------------------------------------------ KoL Chess's abilities
#
# Named like the others; the vocabulary ones are the pieces' patterns (maps/variants/kol.toml),
# the hooks are the functions below, called by companion.games.kol at fixed points of a turn.
# Their squares come from the map's tags (green, red, blue), their distances from the text.

ABILITIES.update({a.name: a for a in (
    Ability("charge", N_("Charge"),
            N_("After capturing one square forward, it may go one square further forward if that "
            "square is empty."),
            "captures one space forward, but may move an extra space forward if the next space is empty", "hook"),
    Ability("passable", N_("Friends pass through"), N_("Pieces of its own side may move through it; enemies may not."),
            "Only friendly pieces can move through gnomes.", "vocabulary"),
    Ability("back_row_trade", N_("Back-row trade"),
            N_("On reaching the far rank it may be traded for a Monster, or for "
            "the Princess or the Tower if its side has none on the board."),
            "Knob Goblins and Gnolls which reach the back row may be traded for either a Monster or, if the "
            "appropriate piece has been removed previously, the Princess or Tower.", "hook"),
    Ability("back_row_trade_any", N_("Back-row trade (any piece)"),
            N_("On reaching the far rank it may be traded for any "
            "piece but the King (one Tower, one Princess and one of each Legend on the board at a time)."),
            "Gnomes which reach the back row may be traded for ANY piece except the King.", "hook"),
    Ability("colour_bound", N_("Colour-bound"), N_("Moves only over squares of its own colour family."),
            "stays on white/green and appropriate blue (black/red for the Demoninja)", "vocabulary"),
    Ability("wrap_around", N_("Wrap-around"),
            N_("Moves along the edges and the central cross; it may run off one edge and "
            "come back on at the opposite one, onto empty squares only."),
            "Wrap-around: can move off of edge and back onto opposite, open square.", "vocabulary"),
    Ability("holds_king", N_("Holds the King"),
            N_("Its King may retreat into it (three times a game); while he is inside "
            "it cannot be captured, cannot capture and gives no check."),
            "Three times during the game, the King can \"retreat\" into the tower by moving into it.", "hook"),
    Ability("retreat", N_("Retreat"),
            N_("May step into its own Tower, and must leave it again on its next turn or the one "
            "after."), "the King MUST leave the tower on the following turn, and may take a piece in doing so",
            "hook"),
    Ability("swap", N_("Swap"),
            N_("Standing on a green square, it may change places with one of its own Pawns or Monsters "
            "on a green square up to four squares away in a straight line."),
            "if on a green square, may change places with any friendly Pawn or Monster also on a green square "
            "within four spaces in a direct line", "hook"),
    Ability("double_capture", N_("Double capture"), N_("Takes two enemy pieces standing next to each other on its line "
            "when one of them is on a red square at most four squares away; it ends on the farther one."),
            "can take two adjacent pieces if one is on a red square within four spaces and both are in its line of "
            "movement", "hook"),
    Ability("teleport", N_("Teleport"),
            N_("From a blue square it may jump to any empty blue square on the same rank or "
            "file."), "teleports from a blue square to any open blue square in a direct horizontal/vertical line",
            "vocabulary"),
)})

ORTHOGONAL = ((1, 0), (-1, 0), (0, 1), (0, -1))
STRAIGHT = ORTHOGONAL + ((1, 1), (1, -1), (-1, 1), (-1, -1))


def line_table(geo, directions) -> list[tuple[tuple[int, ...], ...]]:
    """From each square, the lines to the board edge in ``directions`` (terrain ignored)."""
    out = []
    for sq in range(geo.size):
        f, r = sq % geo.width, sq // geo.width
        lines = []
        for dx, dy in directions:
            line, x, y = [], f + dx, r + dy
            while geo.on_board(x, y):
                line.append(y * geo.width + x)
                x += dx
                y += dy
            lines.append(tuple(line))
        out.append(tuple(lines))
    return out


def charge_moves(board, forward_of, charger_kids: frozenset, sq: int, player: int, may_capture) -> list[Move]:
    """``charge``: the piece on ``sq`` captures one square forward and goes on one more square,
    if that one is empty: ``Move(sq, beyond, victim, None, "charge")``."""
    step = forward_of[sq]
    if step is None:
        return []
    victim_sq, beyond = step
    victim = board[victim_sq]
    if victim is None or victim.owner == player or beyond is None or board[beyond] is not None:
        return []
    if not may_capture(board[sq].kid, victim.kid):
        return []
    return [Move(sq, beyond, victim_sq, None, "charge")]


def swap_moves(board, lines, green: frozenset, partner_kids: frozenset, sq: int, player: int,
               reach: int = 4) -> list[Move]:
    """``swap``: from a green ``sq``, change places with an own piece of ``partner_kids`` on a
    green square at most ``reach`` squares away along one of the 8 lines. Pieces between do not
    matter (a change of places is no slide: docs/rules/kol.md)."""
    if sq not in green:
        return []
    out = []
    for line in lines[sq]:
        for t in line[:reach]:
            q = board[t]
            if q is not None and q.owner == player and q.kid in partner_kids and t in green:
                out.append(Move(sq, t, None, None, "swap"))
    return out


def double_captures(board, lines, red: frozenset, see_through: frozenset, sq: int, player: int,
                    may_capture, reach: int = 4) -> list[Move]:
    """``double_capture``: along each orthogonal line from ``sq``, the first piece met (own pieces
    the mover may pass excepted) and the one right behind it, both enemies, one of them on a red
    square at most ``reach`` squares from ``sq``: ``Move(sq, farther, nearer, None, "double")``."""
    out = []
    mover = board[sq].kid
    for line in lines[sq]:
        for i, t in enumerate(line):
            q = board[t]
            if q is None:
                continue
            if q.owner == player:
                if q.kid in see_through:
                    continue
                break
            if i + 1 >= len(line):
                break
            far = line[i + 1]
            r = board[far]
            if r is None or r.owner == player:
                break
            if not ((t in red and i + 1 <= reach) or (far in red and i + 2 <= reach)):
                break
            if may_capture(mover, q.kid) and may_capture(mover, r.kid):
                out.append(Move(sq, far, t, None, "double"))
            break
    return out


def double_threats(board, lines, red: frozenset, see_through: frozenset, capturers: frozenset, sq: int,
                   by: int, may_capture, reach: int = 4) -> list[int]:
    """Squares of ``by``'s double capturers that could take the piece on ``sq`` as the farther of
    two (the nearer is taken by the plain line, which the vocabulary already counts)."""
    target = board[sq]
    if target is None or target.owner == by:
        return []
    out = []
    for line in lines[sq]:  # from the target outward: the nearer piece first, then the capturer
        if not line:
            continue
        near = line[0]
        q = board[near]
        if q is None or q.owner == by:
            continue
        for j, s in enumerate(line[1:], start=1):
            p = board[s]
            if p is None:
                continue
            if p.owner == by and p.kid in capturers:
                k = j  # squares from the capturer to the nearer piece
                if ((near in red and k <= reach) or (sq in red and k + 1 <= reach)) \
                        and may_capture(p.kid, q.kid) and may_capture(p.kid, target.kid):
                    out.append(s)
                break
            if p.owner == by and p.kid in see_through:
                continue
            break
    return out
