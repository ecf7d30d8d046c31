"""Chess 2's army abilities as named hooks, each written once (maps/variants/chess2.toml names
them per piece; companion/games/chess2.py calls them at fixed points of the turn).

Movement that the vocabulary says (the Tiger's 2-square diagonal, the Jungle Queen's rook and
knight moves, the Empowered Queen's king steps) is data. What it cannot say is here:

``nemesis_step``   move generation: a step to an empty neighbouring square toward an enemy King
``nemesis``        capture rules: captures only Kings, only a King captures it
``empowered``      move generation and attacks: the movement of orthogonal knight/bishop/rook neighbours
``ghost``          move generation: teleport to any empty square; capture rules: never captured
``reap``           move generation: teleport and capture anywhere but the enemy back row, no King
``whirlwind``      a special move: destroy every piece next to the King (not Ghosts)
``king_turn``      the turn structure: an optional king-turn after each turn (the game module)
``friendly_fire``  move generation: capture its own pieces (not the King)
``pounce``         making the move: the capturer stays where it was
``rampage``        move generation, attacks and making the move: capture everything on the path,
                   friend or foe, and go the full distance
``box``            capture rules: only a piece at most 2 squares away may capture it
``en_passant``     move generation: capture a pawn that has just double-stepped (every army)
``castle``         move generation: castling (the Classic King only)

Every function is pure: it reads a board (a list of pieces or None) and the precomputed tables
of :class:`Powers`, and returns squares or moves. Changing the position is the game module's
business, through the Position primitives, so undo and hashing stay exact.
"""

from __future__ import annotations

from ..core.moves import Move
from ..i18n import N_
from .abilities import Ability

ABILITIES: dict[str, Ability] = {a.name: a for a in (
    Ability("en_passant", N_("En passant"),
            N_("Captures a pawn that has just moved two squares, as if it had moved one."),
            "All pawns on all teams have the ability to en passant.", "hook"),
    Ability("castle", N_("Castling"), N_("The King castles as in ordinary chess."),
            "It's regular old Chess. This is the only army that can castle.", "hook"),
    Ability("nemesis_step", N_("Nemesis move"), N_("May also step to an empty square next to it that is closer to an "
            "enemy King (inside the box between them); captures only diagonally forward."),
            "Your pawns can move as normal pawns, or alternatively they can make a nemesis move, which is a move "
            "one space toward the enemy king.", "hook"),
    Ability("nemesis", N_("Nemesis"), N_("Moves as a queen, but captures only a King (it gives check) and only a King "
            "can capture it."),
            "The nemesis piece moves as a queen, but cannot capture or be captured except by the enemy king.", "hook"),
    Ability("empowered", N_("Empowered"), N_("Next to another of its army's knights, bishops or rooks (not diagonally) "
            "it also moves as that piece."),
            "While a knight, bishop, or rook is adjacent (diagonals do not count) to another knight, bishop, or rook "
            "on your team, each piece gains the movement powers of its neighbor", "hook"),
    Ability("ghost", N_("Ghost"),
            N_("Teleports to any empty square; never captures and can never be captured; no piece "
            "passes through it."),
            "the rooks are ghosts that can teleport to any open square on the board. The ghosts cannot capture or "
            "be captured.", "hook"),
    Ability("reap", N_("Reaper"),
            N_("Teleports, and captures, anywhere except the enemy's back row; it never captures a "
            "King."),
            "It can teleport and capture anywhere on the board except the enemy's back row. The reaper cannot "
            "capture a king.", "hook"),
    Ability("whirlwind", N_("Whirlwind"), N_("Instead of moving, destroys every piece next to it, both colours (not "
            "Ghosts); not while the other Warrior King is next to it."),
            "the warrior king stays in place and destroys all adjacent pieces\u2014friendly and enemy\u2014including "
            "diagonally adjacent pieces. You cannot Whirlwind if your other warrior king is adjacent.", "hook"),
    Ability("king_turn", N_("King-turn"),
            N_("After each turn, its army may move a Warrior King (or Whirlwind) once more."),
            "After each of your turns, you may (optionally) take a special king-turn where you only move a warrior "
            "king.", "hook"),
    Ability("friendly_fire", N_("Wild"), N_("May capture its own pieces too (never its King)."),
            "Moves as a knight, but can capture its own pieces.", "hook"),
    Ability("pounce", N_("Pounce"), N_("When it captures it does not move: it stays on the square it attacked from."),
            "does not move when it captures (immediately jumps back to the square it attacked from).", "hook"),
    Ability("rampage", N_("Rampage"), N_("A capture makes it rampage its full 3 squares, capturing every piece on the "
            "way, its own included."),
            "If it captures a piece, the elephant rampages and must move its maximum distance, capturing everything "
            "in its path.", "hook"),
    Ability("box", N_("Box"), N_("Only a piece within 2 squares of it (its 5x5 box) can capture it."),
            "the elephant cannot be captured by a piece more than 2 squares away.", "hook"),
)}

ORTHOGONAL = ((1, 0), (-1, 0), (0, 1), (0, -1))
DIAGONAL = ((1, 1), (1, -1), (-1, 1), (-1, -1))
RAMPAGE_RANGE = 3
BOX = 2


def step_table(geo, directions, limit: int) -> list[tuple[tuple[int, ...], ...]]:
    """Per square, per direction: the squares met going that way, at most ``limit`` (0: to the edge)."""
    out = []
    for sq in range(geo.size):
        f, r = sq % geo.width, sq // geo.width
        lines = []
        for dx, dy in directions:
            line, x, y = [], f + dx, r + dy
            while geo.on_board(x, y) and (not limit or len(line) < limit):
                line.append(y * geo.width + x)
                x += dx
                y += dy
            lines.append(tuple(line))
        out.append(tuple(lines))
    return out


class Powers:
    """What the abilities need, precomputed once per rules object: which kinds have which
    ability, and square tables (neighbours, orthogonal neighbours, rampage paths, back rows)."""

    def __init__(self, rules):
        geo = rules.geometry
        kinds = rules.kinds
        self.geometry = geo

        def kids(ability: str) -> frozenset[int]:
            return frozenset(i for i, k in enumerate(kinds) if ability in k.abilities)

        self.nemesis_pawns = kids("nemesis_step")
        self.nemeses = kids("nemesis")
        self.empowered = kids("empowered")
        self.ghosts = kids("ghost")
        self.reapers = kids("reap")
        self.whirlers = kids("whirlwind")
        self.wild = kids("friendly_fire")
        self.pouncers = kids("pounce")
        self.elephants = kids("rampage")
        self.boxed = kids("box")
        self.en_passant = kids("en_passant")
        self.castlers = kids("castle")
        #: kinds whose moves come (also) from a hook in move generation
        self.hooked = (self.nemesis_pawns | self.empowered | self.ghosts | self.reapers | self.whirlers
                       | self.wild | self.elephants)
        self.royal = frozenset(i for i, k in enumerate(kinds) if k.royal)
        self.neighbours = _neighbours(geo, ORTHOGONAL + DIAGONAL)
        self.orthogonal = _neighbours(geo, ORTHOGONAL)
        #: per square, per orthogonal direction: the rampage path (up to 3 squares, to the edge)
        self.paths = step_table(geo, ORTHOGONAL, RAMPAGE_RANGE)
        #: squares each player may not enter with the Reaper: the enemy's back row
        w = geo.width
        self.enemy_back_row = (frozenset(range(geo.size - w, geo.size)), frozenset(range(w)))

    def distance(self, a: int, b: int) -> int:
        return self.geometry.distance(a, b)


def _neighbours(geo, directions) -> list[tuple[int, ...]]:
    out = []
    for sq in range(geo.size):
        f, r = sq % geo.width, sq // geo.width
        out.append(tuple((r + dy) * geo.width + f + dx for dx, dy in directions if geo.on_board(f + dx, r + dy)))
    return out


# ------------------------------------------------------------------------------ capture rules


def may_capture(pw: Powers, attacker, asq: int, victim, vsq: int) -> bool:
    """Whether ``attacker`` on ``asq`` may capture ``victim`` on ``vsq`` (the pattern aside).

    ``ghost``: never captured. ``nemesis``: captures only Kings, captured only by a King.
    ``box``: captured only from at most 2 squares away (by anything, the Reaper included).
    ``reap``: nothing on the enemy back row. Own pieces: only by ``friendly_fire`` (a rampage's
    own rules are :func:`rampage_victims`). Never a King: capturing a King is not a move (a
    King attacked is in check).
    """
    vk, ak = victim.kid, attacker.kid
    if vk in pw.royal:
        return False  # a King is never taken (one left in check by a lost duel is only in check)
    if victim.owner == attacker.owner:
        return ak in pw.wild and vk not in pw.ghosts
    if vk in pw.ghosts:
        return False
    if ak in pw.nemeses and vk not in pw.royal:
        return False
    if vk in pw.nemeses and ak not in pw.royal:
        return False
    if vk in pw.boxed and pw.distance(asq, vsq) > BOX:
        return False
    if ak in pw.reapers and vsq in pw.enemy_back_row[attacker.owner]:
        return False
    return True


def rampage_victims(pw: Powers, board, sq: int, path: tuple[int, ...], owner: int, king_target: int = -1):
    """The pieces an Elephant of ``owner`` on ``sq`` would capture rampaging along ``path`` (in
    path order), or None when that rampage is not allowed: a Ghost, a Nemesis, an Elephant more
    than 2 squares from it or a King on the way (capturing a King is not a move: an enemy King on
    the path is in check, which :func:`rampage_attacks` asks with ``king_target``, the square of
    that King; other enemy Kings on the path then count as captured too)."""
    victims = []
    for t in path:
        if t == king_target:
            victims.append(t)
            continue
        q = board[t]
        if q is None:
            continue
        k = q.kid
        if k in pw.royal:
            if king_target < 0 or q.owner == owner:
                return None
        elif k in pw.ghosts or k in pw.nemeses or (k in pw.boxed and pw.distance(sq, t) > BOX):
            return None
        victims.append(t)
    return victims


def rampage_moves(pw: Powers, board, sq: int, owner: int, out: list) -> None:
    """``rampage``: for each straight direction with a piece within 3 squares, one move to the
    full distance (3 squares, or the board edge) capturing everything on the way. The capture
    field names the first piece met; the quiet moves before it are the vocabulary's."""
    for path in pw.paths[sq]:
        if not path or all(board[t] is None for t in path):
            continue
        victims = rampage_victims(pw, board, sq, path, owner)
        if victims:
            out.append(Move(sq, path[-1], victims[0], None, "rampage"))


def rampage_path(pw: Powers, frm: int, to: int) -> tuple[int, ...]:
    for path in pw.paths[frm]:
        if path and path[-1] == to:
            return path
    return ()


def rampage_attacks(pw: Powers, board, sq: int, by: int) -> bool:
    """Could an Elephant of ``by`` capture a King standing on ``sq`` by a rampage? The path
    counts ``sq`` as holding that King and must be allowed beyond it too."""
    for d, line in enumerate(pw.paths[sq]):
        # an Elephant that reaches sq moving the opposite way stands 1..3 squares out on this
        # line (ORTHOGONAL lists each direction next to its opposite: d ^ 1 is the way back)
        for s in line:
            p = board[s]
            if p is not None and p.owner == by and p.kid in pw.elephants:
                if rampage_victims(pw, board, s, pw.paths[s][d ^ 1], by, king_target=sq) is not None:
                    return True
    return False


# ------------------------------------------------------------------------------ other moves


def nemesis_steps(geo, board, sq: int, enemy_kings) -> list[int]:
    """``nemesis_step``: empty neighbouring squares inside the box between the pawn and an enemy
    King (a step that brings it closer along one or both axes, never away along either)."""
    w = geo.width
    f, r = sq % w, sq // w
    out = []
    for k in enemy_kings:
        kf, kr = k % w, k // w
        sx, sy = (kf > f) - (kf < f), (kr > r) - (kr < r)
        for dx, dy in ((sx, sy), (sx, 0), (0, sy)):
            if dx == 0 and dy == 0:
                continue
            t = (r + dy) * w + f + dx
            if board[t] is None and t not in out:
                out.append(t)
    return out


def teleport_moves(pw: Powers, board, sq: int, piece, out: list) -> None:
    """``ghost``: every empty square. ``reap``: every square but the enemy back row, empty or
    holding an enemy piece the Reaper may capture."""
    if piece.kid in pw.ghosts:
        for t, q in enumerate(board):
            if q is None:
                out.append(Move(sq, t))
        return
    banned = pw.enemy_back_row[piece.owner]
    for t, q in enumerate(board):
        if t in banned:
            continue
        if q is None:
            out.append(Move(sq, t))
        elif q.owner != piece.owner and may_capture(pw, piece, sq, q, t):
            out.append(Move(sq, t, t))


def whirlwind_victims(pw: Powers, board, sq: int, owner: int) -> list[int] | None:
    """``whirlwind``: the squares of the pieces a Whirlwind from ``sq`` destroys, or None when
    it is not allowed (the other Warrior King is adjacent) or would destroy nothing (only
    Ghosts, or nothing, around it: docs/rules/chess2.md)."""
    victims = []
    for n in pw.neighbours[sq]:
        q = board[n]
        if q is None or q.kid in pw.ghosts:
            continue
        if q.kid in pw.royal:
            return None  # the other Warrior King (an enemy King cannot stand next to a King)
        victims.append(n)
    return victims or None


def borrowed_moves(pw: Powers, compiled, board, sq: int, piece, out: list) -> None:
    """``empowered``: the moves of each orthogonally adjacent empowered piece of another kind,
    made from ``sq`` with that kind's patterns (its own moves are the vocabulary's)."""
    owner = piece.owner
    have = {(m.to, m.capture) for m in out if m.frm == sq}
    for n in pw.orthogonal[sq]:
        q = board[n]
        if q is None or q.owner != owner or q.kid == piece.kid or q.kid not in pw.empowered:
            continue
        ck = compiled[q.kid][owner]
        for t in ck.leaps_both[sq] + ck.leaps_move[sq] + ck.leaps_capture[sq]:
            _add_target(pw, board, sq, piece, t, out, have)
        for ray in ck.rays_both[sq] + ck.rays_move[sq] + ck.rays_capture[sq]:
            for t in ray:
                _add_target(pw, board, sq, piece, t, out, have)
                if board[t] is not None:
                    break


def _add_target(pw, board, sq, piece, t, out, have) -> None:
    q = board[t]
    if q is None:
        key = (t, None)
        if key not in have:
            have.add(key)
            out.append(Move(sq, t))
    elif q.owner != piece.owner and may_capture(pw, piece, sq, q, t):
        key = (t, t)
        if key not in have:
            have.add(key)
            out.append(Move(sq, t, t))


def borrowed_attack(pw: Powers, compiled, board, sq: int, by: int, occupied) -> bool:
    """Does an empowered piece of ``by`` attack ``sq`` with a borrowed pattern?"""
    for s in occupied:
        p = board[s]
        if p.kid not in pw.empowered:
            continue
        for n in pw.orthogonal[s]:
            q = board[n]
            if q is None or q.owner != by or q.kid == p.kid or q.kid not in pw.empowered:
                continue
            ck = compiled[q.kid][by]
            if sq in ck.leaps_both[s] or sq in ck.leaps_capture[s]:
                return True
            for ray in ck.rays_both[s] + ck.rays_capture[s]:
                for t in ray:
                    if t == sq:
                        return True
                    if board[t] is not None:
                        break
    return False


def friendly_captures(pw: Powers, compiled, board, sq: int, piece, out: list) -> None:
    """``friendly_fire``: captures of its own pieces (never its King) by its own patterns."""
    owner = piece.owner
    ck = compiled[piece.kid][owner]
    for t in ck.leaps_both[sq] + ck.leaps_capture[sq]:
        q = board[t]
        if q is not None and q.owner == owner and may_capture(pw, piece, sq, q, t):
            out.append(Move(sq, t, t))
    for ray in ck.rays_both[sq] + ck.rays_capture[sq]:
        for t in ray:
            q = board[t]
            if q is not None:
                if q.owner == owner and may_capture(pw, piece, sq, q, t):
                    out.append(Move(sq, t, t))
                break
