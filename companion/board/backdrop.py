"""The lights under everything else: terrain, and which colour each player's seat is lit in.

A map's water squares glow dim blue (``TERRAIN_WATER``) in every frame the tracker and the
deployment guide send; void and floor stay dark. Move hints, corrections and the rest are
drawn on top, so a water square that is a destination shows the destination.

Each seat gets one of the palette's four player colours (``PLAYER_1`` .. ``PLAYER_4``). The
palette is fixed (its colours were chosen to stay apart for colour-blind players, see
docs/leds.md), the seat colours are the map's own words ("blue", "red", ...). So a seat takes
the palette colour that matches its name where there is one (white, red/orange, blue/cyan,
yellow), and the seats whose colour the palette lacks (green, black, purple, ...) take the
colours left over, in seat order. On the four-player Dungeon map that is: blue -> sky blue,
red -> vermillion, green -> white, yellow -> yellow.

Pure values; no hardware.
"""

from __future__ import annotations

from typing import Mapping, Sequence

from ..core.geometry import WATER
from .palette import PLAYERS, Meaning

#: Seat colour word -> the palette's player colour that looks like it.
SEAT_LOOKS: Mapping[str, Meaning] = {
    "white": Meaning.PLAYER_1,
    "red": Meaning.PLAYER_2,
    "orange": Meaning.PLAYER_2,
    "blue": Meaning.PLAYER_3,
    "cyan": Meaning.PLAYER_3,
    "yellow": Meaning.PLAYER_4,
}

#: Colour words for games without a map of seats (chess on the standard board).
DEFAULT_SEAT_COLOURS = ("white", "black", "red", "blue")


def seat_colours(rules) -> tuple[str, ...]:
    """The colour word of every player: the map's seats where the rules have a map, else
    white, black, red, blue."""
    board_map = getattr(rules, "board_map", None)
    seats = getattr(board_map, "seats", None)
    if seats:
        return tuple(seat.colour for seat in seats)
    return DEFAULT_SEAT_COLOURS[:rules.nplayers]


def player_meanings(colours: Sequence[str]) -> tuple[Meaning, ...]:
    """One palette player colour per seat, all different (see the module docstring)."""
    if len(colours) > len(PLAYERS):
        raise ValueError(f"the palette has {len(PLAYERS)} player colours, {len(colours)} seats given")
    chosen: list[Meaning | None] = []
    used: set[Meaning] = set()
    for colour in colours:
        look = SEAT_LOOKS.get(colour)
        if look is not None and look not in used:
            used.add(look)
            chosen.append(look)
        else:
            chosen.append(None)
    spare = [m for m in PLAYERS if m not in used]
    return tuple(m if m is not None else spare.pop(0) for m in chosen)


class Backdrop:
    """Terrain and seat colours of one game's board."""

    def __init__(self, rules):
        geo = rules.geometry
        self.terrain: Mapping[int, Meaning] = {sq: Meaning.TERRAIN_WATER
                                               for sq in range(geo.size) if geo.terrain[sq] == WATER}
        self.colours: tuple[str, ...] = seat_colours(rules)
        self.players: tuple[Meaning, ...] = player_meanings(self.colours)

    def frame(self) -> dict[int, Meaning]:
        """A fresh frame holding only the terrain, to draw on."""
        return dict(self.terrain)

    def player(self, player: int) -> Meaning:
        """The LED colour meaning of ``player`` (0-based)."""
        return self.players[player]
