"""What a map must allow to be played, beyond being well formed: every spawn zone holds the
smallest army, and every zone can reach the others (void may cut a board in parts); and which
edges a spawn zone lies at (a seat's home). companion.maps refuses a map that fails them."""

from __future__ import annotations

from .core.geometry import FLOOR, Geometry
from .i18n import _, ngettext

#: Floor squares every spawn zone needs: the smallest army any game fields is a King and a Pawn
#: (Dungeon Chess's draft rules), and a unit that cannot swim stands only on floor.
MIN_SPAWN_FLOOR = 2


def too_small_zones(geometry: Geometry, seats):
    """Each spawn zone that cannot hold the smallest army: (one of its squares, the message)."""
    for seat in seats:
        floor = [sq for sq in sorted(seat.spawn) if geometry.terrain[sq] == FLOOR]
        if len(floor) < MIN_SPAWN_FLOOR:
            names = ", ".join(geometry.name_of(sq) for sq in sorted(seat.spawn)[:8])
            yield min(seat.spawn), ngettext(
                "player {player}'s spawn zone ({names}) has {n} floor square; expected at least {least} (an army is "
                "at least a King and a Pawn, and a unit that cannot swim does not stand on water)",
                "player {player}'s spawn zone ({names}) has {n} floor squares; expected at least {least} (an army is "
                "at least a King and a Pawn, and a unit that cannot swim does not stand on water)",
                len(floor)).format(player=seat.player, names=names, n=len(floor), least=MIN_SPAWN_FLOOR)


def cut_off_squares(geometry: Geometry, seats):
    """For each player whose spawn zone cannot reach another's: the first cut-off square and the
    message. Reach is by King steps over floor and water (void cuts the board); players who can
    never meet play a game that only a draw rule ends."""
    region = regions(geometry)
    for seat in seats:
        for other in seats:
            if other.player <= seat.player:  # a cut between two players is said once
                continue
            theirs = {region[sq] for sq in other.spawn}
            cut = [sq for sq in sorted(seat.spawn) if region[sq] not in theirs]
            if cut:
                sq = cut[0]
                there = geometry.name_of(min(other.spawn))
                yield sq, _("square {square} of player {player}'s spawn zone cannot reach player {other}'s spawn "
                            "zone (from {there}): no path of floor or water squares joins them, void cuts the board; "
                            "expected a way across (squares next to each other, diagonals included)").format(
                    square=geometry.name_of(sq), player=seat.player, other=other.player, there=there)
                break


def regions(geometry: Geometry) -> list[int]:
    """For each square, the number of its region: squares joined by King steps over floor and
    water (void squares: -1)."""
    region = [-1] * geometry.size
    count = 0
    for start in geometry.playable():
        if region[start] >= 0:
            continue
        region[start] = count
        todo = [start]
        while todo:
            sq = todo.pop()
            f, r = geometry.file_of(sq), geometry.rank_of(sq)
            for df in (-1, 0, 1):
                for dr in (-1, 0, 1):
                    if (df or dr) and geometry.on_board(f + df, r + dr):
                        n = geometry.square(f + df, r + dr)
                        if region[n] < 0 and not geometry.is_void(n):
                            region[n] = count
                            todo.append(n)
        count += 1
    return region


def edges_held(geometry: Geometry, squares: frozenset[int]) -> list[str]:
    """The edges a spawn zone lies at: it touches that edge and no square of it is nearer the
    opposite edge (so a zone along the whole south edge does not also count as "west")."""
    ranks = {geometry.rank_of(s) for s in squares}
    files = {geometry.file_of(s) for s in squares}
    top, right = geometry.height - 1, geometry.width - 1
    held = {
        "south": 0 in ranks and all(r <= top - r for r in ranks),
        "north": top in ranks and all(top - r <= r for r in ranks),
        "west": 0 in files and all(f <= right - f for f in files),
        "east": right in files and all(right - f <= f for f in files),
    }
    return [edge for edge, ok in held.items() if ok]
