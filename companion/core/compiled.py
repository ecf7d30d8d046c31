"""Movement tables compiled once per (game, board): the vocabulary turned into square lists.

For every piece kind, owner and square we precompute where its leaps land and the squares of
each slide (truncated at the board edge, at void, and at water where the kind is blocked by
it). Move generation and attack detection then only walk tuples of ints.

Reverse tables answer "is this square attacked by player p?" without generating moves: for a
target square they list, per attack group, the squares an attacker would stand on (leaps) or
the rays to walk outward until the first piece (slides) or the second piece (cannons).

Rides with the ``phase`` or ``pierce`` option (see companion.core.pieces) are kept apart, in
``phase_rays`` / ``pierce_rays`` and the matching reverse tables, so that the plain loops stay
as short as they were and games without such pieces pay one flag test per piece. A phasing
ray carries the kinds of own pieces it passes (``None``: every own piece): in a game with a
kind that its friends pass through (``passable_by``, KoL Chess's Gnome) every ride is compiled
as a phasing ride that passes exactly those kinds.

The tag options (``within=``, ``from=``, ``to=``), ``wrap`` and ``jump`` are resolved here:
they only shorten or lengthen the square lists, or turn a line into leaps.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Sequence

from .geometry import FLOOR, VOID, WATER, Geometry
from .pieces import Pattern, PieceKind
from ..i18n import _

HOMES = ("south", "north", "west", "east")
# forward and right unit vectors for a player sitting at each edge
_FRAMES = {
    "south": ((0, 1), (1, 0)),
    "north": ((0, -1), (-1, 0)),
    "west": ((1, 0), (0, -1)),
    "east": ((-1, 0), (0, 1)),
}


def orient(dx: int, dy: int, home: str) -> tuple[int, int]:
    (fx, fy), (rx, ry) = _FRAMES[home]
    return dx * rx + dy * fx, dx * ry + dy * fy


def relative_rank(geo: Geometry, sq: int, home: str) -> int:
    f, r = sq % geo.width, sq // geo.width
    if home == "south":
        return r
    if home == "north":
        return geo.height - 1 - r
    if home == "west":
        return f
    return geo.width - 1 - f


def backward_step(geo: Geometry, sq: int, home: str) -> int | None:
    """The square one step toward the owner's home edge, or None off the board."""
    dx, dy = orient(0, -1, home)
    f, r = sq % geo.width + dx, sq // geo.width + dy
    return r * geo.width + f if geo.on_board(f, r) else None


@dataclass
class CompiledKind:
    """Tables for one kind and one owner; each list is indexed by square."""

    leaps_move: list
    leaps_capture: list
    leaps_both: list
    rays_move: list
    rays_capture: list
    rays_both: list
    hops: list
    lames: list  # (squares that must be empty, target) pairs; move-only
    nostop: frozenset  # squares this kind may slide over but never stop on
    promo_squares: frozenset
    simple_rays: bool  # no nostop squares: the fast slide loop applies
    phase_rays: list = ()  # per square: (may move, may capture, ray, kinds passed or None) of phasing rides
    pierce_rays: list = ()  # per square: (friend only, ray) of piercing capture rides
    special: bool = False  # any phase or pierce ray at all
    may_repeat: bool = False  # two patterns can reach one square: generation removes repeats


def _can_stop(geo: Geometry, sq: int, kind: PieceKind) -> bool:
    t = geo.terrain[sq]
    return t == FLOOR or (t == WATER and kind.water == "stop")


def _ray(geo: Geometry, sq: int, dx: int, dy: int, kind: PieceKind, limit: int,
         within: frozenset | None = None, water_block: bool = False) -> tuple[int, ...]:
    """The squares of a slide: up to the board edge, void, a square outside ``within``, and
    water when the kind (or this ride, ``water_block``) is stopped by it."""
    blocked = water_block or kind.water == "block"
    out = []
    f, r = sq % geo.width, sq // geo.width
    while True:
        f += dx
        r += dy
        if not geo.on_board(f, r):
            break
        t = r * geo.width + f
        ter = geo.terrain[t]
        if ter == VOID or (ter == WATER and blocked):
            break
        if within is not None and t not in within:
            break
        out.append(t)
        if limit and len(out) >= limit:
            break
    return tuple(out)


def _wrapped(geo: Geometry, sq: int, dx: int, dy: int, kind: PieceKind, limit: int,
             within: frozenset | None, plain: tuple[int, ...], water_block: bool = False) -> tuple[int, ...]:
    """``plain`` continued past the board edge from the opposite edge (``wrap``), or ``plain``
    itself when the slide was stopped before the edge (void, water, a square outside ``within``,
    the range) or there is nothing to come back onto. Never reaches ``sq`` again."""
    last = plain[-1] if plain else sq
    f, r = last % geo.width + dx, last // geo.width + dy
    if geo.on_board(f, r) or (limit and len(plain) >= limit):
        return plain
    out = list(plain)
    while True:
        f, r = f % geo.width, r % geo.height
        t = r * geo.width + f
        ter = geo.terrain[t]
        if t == sq or t in out or ter == VOID or (ter == WATER and (water_block or kind.water == "block")):
            break
        if within is not None and t not in within:
            break
        out.append(t)
        if limit and len(out) >= limit:
            break
        f, r = f + dx, r + dy
    return tuple(out)


def _jump_line(geo: Geometry, sq: int, dx: int, dy: int, limit: int) -> tuple[int, ...]:
    """Every square of the line from ``sq`` to the board edge (a ``jump`` ride passes anything)."""
    out = []
    f, r = sq % geo.width + dx, sq // geo.width + dy
    while geo.on_board(f, r) and not (limit and len(out) >= limit):
        out.append(r * geo.width + f)
        f, r = f + dx, r + dy
    return tuple(out)


def _reverse_ray(geo: Geometry, t: int, dx: int, dy: int, kind: PieceKind, limit: int,
                 within: frozenset | None, water_block: bool = False) -> tuple[int, ...]:
    """Where an attacker riding (dx, dy) into ``t`` may stand, walking outward from ``t``. With
    ``within`` every square of the slide, the attacker's own included, is in it."""
    if within is not None and t not in within:
        return ()
    return _ray(geo, t, -dx, -dy, kind, limit, within, water_block)


def tag_squares(geo: Geometry, name: str, kind: PieceKind, pat: Pattern) -> frozenset:
    """The squares of a tag a pattern names; VariantError when the map has no such tag."""
    if name not in geo.tags:
        from ..errors import VariantError

        have = ", ".join(sorted(geo.tags)) or _("none")
        raise VariantError(_("piece {piece!r}: pattern {text!r} names the tag {tag!r}, which the map {map} does "
                             "not have (its tags: {have})").format(
                               piece=kind.name, text=pat.text(), tag=name, map=geo.name or _("(unnamed)"), have=have))
    return geo.tags[name]


def _hop_line(geo: Geometry, sq: int, dx: int, dy: int) -> tuple[int, ...]:
    """A cannon's line: stops at void and the edge; water squares are skipped (transparent)."""
    out = []
    f, r = sq % geo.width, sq // geo.width
    while True:
        f += dx
        r += dy
        if not geo.on_board(f, r):
            break
        t = r * geo.width + f
        ter = geo.terrain[t]
        if ter == VOID:
            break
        if ter == WATER:
            continue
        out.append(t)
    return tuple(out)


class _Board:
    """A Geometry as a cache key (its tags are a dict, so it has no hash of its own): boards
    equal in size, terrain and tags compile to equal tables."""

    __slots__ = ("geo", "key")

    def __init__(self, geo: Geometry) -> None:
        self.geo = geo
        self.key = (geo.width, geo.height, geo.terrain, tuple(sorted(geo.tags.items())))

    def __hash__(self) -> int:
        return hash(self.key)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Board) and self.key == other.key


def compile_kind(geo: Geometry, kind: PieceKind, home: str, see_through: frozenset = frozenset()) -> CompiledKind:
    """Tables for ``kind`` owned by the player at ``home``. ``see_through``: kinds that their own
    side's slides pass through (``passable_by``); when given, every plain ride is compiled as a
    phasing ride that passes exactly those kinds.

    Compiled once per process for equal inputs (every new or loaded game builds its Rules, with
    the same tables as the last game of its kind; a KoL or Dungeon game's take tens of ms here,
    ten times that on a Pi). The tables are never changed after they are made: a game that
    needs others makes new ones (``dataclasses.replace``)."""
    return _compile_kind(_Board(geo), kind, home, see_through)


def attack_tables(geo: Geometry, kinds: Sequence[PieceKind], home: str,
                  see_through: frozenset = frozenset()) -> AttackTables:
    """:class:`AttackTables` for these kinds, made once per process for equal inputs (as
    :func:`compile_kind`)."""
    return _attack_tables(_Board(geo), tuple(kinds), home, see_through)


@functools.lru_cache(maxsize=1024)
def _compile_kind(board: _Board, kind: PieceKind, home: str, see_through: frozenset) -> CompiledKind:
    geo = board.geo
    n = geo.size
    tables = {k: [[] for _ in range(n)] for k in ("leaps_move", "leaps_capture", "leaps_both",
                                                   "rays_move", "rays_capture", "rays_both", "hops", "lames",
                                                   "phase_rays", "pierce_rays")}
    passes = see_through or None
    for mode, pat in kind.all_patterns():
        steps = [orient(odx, ody, home) for odx, ody in pat.offsets()]
        within = tag_squares(geo, pat.within, kind, pat) if pat.within else None
        origin = tag_squares(geo, pat.origin, kind, pat) if pat.origin else None
        onto = tag_squares(geo, pat.onto, kind, pat) if pat.onto else None
        for sq in range(n):
            if geo.terrain[sq] == VOID:
                continue
            if pat.from_rank >= 0 and relative_rank(geo, sq, home) != pat.from_rank:
                continue
            if (origin is not None and sq not in origin) or (within is not None and sq not in within):
                continue
            f, r = sq % geo.width, sq // geo.width
            for dx, dy in steps:
                if pat.type == "leap" and pat.lame:
                    if mode != "move":
                        from ..errors import VariantError

                        raise VariantError(_("piece {piece!r}: 'lame' leaps only move; list {text} under move").format(
                            piece=kind.name, text=pat.text()))
                    n_steps = max(abs(dx), abs(dy))
                    sx, sy = (dx > 0) - (dx < 0), (dy > 0) - (dy < 0)
                    path = _ray(geo, sq, sx, sy, kind, n_steps)
                    if len(path) == n_steps and _can_stop(geo, path[-1], kind):
                        tables["lames"][sq].append((path[:-1], path[-1]))
                elif pat.type == "leap":
                    tf, tr = f + dx, r + dy
                    if geo.on_board(tf, tr):
                        t = tr * geo.width + tf
                        if (_can_stop(geo, t, kind) and (onto is None or t in onto)
                                and t not in tables[f"leaps_{mode}"][sq]):
                            tables[f"leaps_{mode}"][sq].append(t)
                elif pat.type == "ride" and pat.jump:  # move-only: every landing square is a leap
                    for t in _jump_line(geo, sq, dx, dy, pat.max_range):
                        if (_can_stop(geo, t, kind) and (onto is None or t in onto)
                                and t not in tables["leaps_move"][sq]):
                            tables["leaps_move"][sq].append(t)
                elif pat.type == "ride":
                    ray = _ray(geo, sq, dx, dy, kind, pat.max_range, within, pat.water_block)
                    full = (_wrapped(geo, sq, dx, dy, kind, pat.max_range, within, ray, pat.water_block)
                            if pat.wrap else ray)
                    if not full:
                        continue
                    if pat.phase:
                        tables["phase_rays"][sq].append((mode != "capture", mode != "move", ray, None))
                    elif pat.pierce:
                        tables["pierce_rays"][sq].append((pat.pierce == "friend", ray))
                        if mode == "both":
                            tables["rays_move"][sq].append(ray)
                    elif passes is not None:
                        if full is not ray:  # captures stop at the edge; quiet moves wrap round
                            tables["phase_rays"][sq].append((True, False, full, passes))
                            if mode == "both" and ray:
                                tables["phase_rays"][sq].append((False, True, ray, passes))
                        else:
                            tables["phase_rays"][sq].append((mode != "capture", mode != "move", ray, passes))
                    elif full is not ray:
                        tables["rays_move"][sq].append(full)
                        if mode == "both" and ray:
                            tables["rays_capture"][sq].append(ray)
                    else:
                        tables[f"rays_{mode}"][sq].append(ray)
                else:
                    line = _hop_line(geo, sq, dx, dy)
                    if len(line) >= 2:
                        tables["hops"][sq].append(line)
    nostop = frozenset(s for s in range(n) if geo.terrain[s] == WATER and kind.water == "cross")
    promo = frozenset()
    if kind.promotes_to:
        far = (geo.height if home in ("south", "north") else geo.width) - 1
        promo = frozenset(s for s in range(n) if relative_rank(geo, s, home) == far)
    frozen = {k: [tuple(v) for v in lst] for k, lst in tables.items()}
    special = any(frozen["phase_rays"]) or any(frozen["pierce_rays"])
    return CompiledKind(**frozen, nostop=nostop, promo_squares=promo, simple_rays=not nostop, special=special,
                        may_repeat=_patterns_overlap(frozen, n))


def _patterns_overlap(t: dict, n: int) -> bool:
    """Can two of a kind's patterns produce the same move from one square (e.g. a king step and
    the first square of a slide)? Quiet and capturing patterns are counted apart."""
    for sq in range(n):
        quiet = list(t["leaps_move"][sq]) + [x for _, x in t["lames"][sq]]
        quiet += [s for ray in t["rays_move"][sq] for s in ray]
        captures = list(t["leaps_capture"][sq]) + [s for ray in t["rays_capture"][sq] for s in ray]
        captures += [s for line in t["hops"][sq] for s in line]
        both = list(t["leaps_both"][sq]) + [s for ray in t["rays_both"][sq] for s in ray]
        for may_move, may_capture, ray, _passes in t["phase_rays"][sq]:
            (both if may_move and may_capture else quiet if may_move else captures).extend(ray)
        captures += [s for _, ray in t["pierce_rays"][sq] for s in ray]
        if len(set(quiet + both)) < len(quiet + both) or len(set(captures + both)) < len(captures + both):
            return True
    return False


@functools.lru_cache(maxsize=64)
def _attack_tables(board: _Board, kinds: tuple[PieceKind, ...], home: str, see_through: frozenset) -> AttackTables:
    return AttackTables(board.geo, list(kinds), home, see_through)


class AttackTables:
    """Reverse lookup for one attacking player.

    ``leap[sq]``: tuple of (attacker square, kind ids) pairs.
    ``rays[sq]``: tuple of (ray outward from sq, kind ids): the first piece met attacks if its
    kind is listed. ``hops[sq]``: same, but the second piece met (cannons).
    ``phase[sq]``: (ray, kind ids, kinds passed) of phasing rides: the attacker's own other pieces
    on the ray are passed through (only those of the kinds passed, when that is not ``None``).
    ``pierce[sq]``: (ray, kind ids, friend only) of piercing rides: the first or the second piece
    met attacks (with friend only, the first must be the attacker's own).
    ``special`` is true when any phase or pierce entry exists. ``see_through`` as for
    :func:`compile_kind`. Leaps honour ``to=``; rides ``within=``; a wrapped ride attacks only
    up to the edge (captures never wrap).
    """

    def __init__(self, geo: Geometry, kinds: list[PieceKind], home: str, see_through: frozenset = frozenset()):
        n = geo.size
        leap: list[dict[int, set[int]]] = [dict() for _ in range(n)]
        rays: list[dict[tuple, set[int]]] = [dict() for _ in range(n)]
        hops: list[dict[tuple, set[int]]] = [dict() for _ in range(n)]
        phase: list[dict[tuple, set[int]]] = [dict() for _ in range(n)]
        passes = see_through or None
        pierce: list[dict[tuple, set[int]]] = [dict() for _ in range(n)]
        for kid, kind in enumerate(kinds):
            pats = [p for mode, p in kind.all_patterns() if mode != "move"]
            for pat in pats:
                if pat.type != "leap":
                    continue
                steps = [orient(odx, ody, home) for odx, ody in pat.offsets()]
                onto = tag_squares(geo, pat.onto, kind, pat) if pat.onto else None
                for sq in range(n):  # sq = attacker square
                    if geo.terrain[sq] == VOID:
                        continue
                    f, r = sq % geo.width, sq // geo.width
                    for dx, dy in steps:
                        tf, tr = f + dx, r + dy
                        if geo.on_board(tf, tr):
                            t = tr * geo.width + tf
                            if _can_stop(geo, t, kind) and (onto is None or t in onto):
                                leap[t].setdefault(sq, set()).add(kid)
            # slides and hops are symmetric in their squares: walk outward from the target
            for pat in pats:
                if pat.type == "leap":
                    continue
                steps = [orient(odx, ody, home) for odx, ody in pat.offsets()]
                within = tag_squares(geo, pat.within, kind, pat) if pat.within else None
                for t in range(n):
                    if geo.terrain[t] == VOID or not _can_stop(geo, t, kind):
                        continue
                    for dx, dy in steps:
                        if pat.type == "ride":
                            ray = _reverse_ray(geo, t, dx, dy, kind, pat.max_range, within, pat.water_block)
                            if not ray:
                                continue
                            if pat.phase:
                                phase[t].setdefault((ray, None), set()).add(kid)
                            elif pat.pierce:
                                pierce[t].setdefault((ray, pat.pierce == "friend"), set()).add(kid)
                            elif passes is not None:
                                phase[t].setdefault((ray, passes), set()).add(kid)
                            else:
                                rays[t].setdefault(ray, set()).add(kid)
                        else:
                            line = _hop_line(geo, t, -dx, -dy)
                            if len(line) >= 2:
                                hops[t].setdefault(line, set()).add(kid)
        self.leap = [tuple((s, frozenset(k)) for s, k in d.items()) for d in leap]
        self.rays = [tuple((r, frozenset(k)) for r, k in d.items()) for d in rays]
        self.hops = [tuple((r, frozenset(k)) for r, k in d.items()) for d in hops]
        self.phase = [tuple((r, frozenset(k), p) for (r, p), k in d.items()) for d in phase]
        self.pierce = [tuple((r, frozenset(k), f) for (r, f), k in d.items()) for d in pierce]
        self.special = any(self.phase) or any(self.pierce)
