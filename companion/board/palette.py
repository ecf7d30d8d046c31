"""What each square's light means, and the colours that say it.

The tracker decides *meanings* (a lifted piece, a quiet destination, a square to empty, ...);
this module turns meanings into an LED frame. Everything here is pure: no clock (blinking
takes ``t_ms`` as a value), no hardware.

Colour choice. The colours come from the Okabe-Ito set (designed to stay apart for the common
colour-vision deficiencies) plus white, some at a dim level. Meanings that can be lit at the
same time are listed in :data:`CONTEXTS`; inside one context every steady meaning has its own
colour, and meanings that share a colour differ in *pattern* (steady, slow blink, fast flash).
``tests/test_palette.py`` simulates protanopia, deuteranopia and tritanopia (Machado et al.
2009) and checks that every pair in a context stays at least :data:`MIN_DISTANCE` apart
(CIEDE2000), both as drawn on screen and as emitted by the LEDs after the brightness cap.
docs/leds.md has the table and the reasons.

Frames carry design colours (sRGB, as the on-screen board paints them). LED adapters call
:func:`linearize` (so an LED emits the same relative light a screen would) and then
:func:`cap` (the brightness cap) before writing.
"""

from __future__ import annotations

import enum
import functools
from dataclasses import dataclass
from typing import Mapping, Sequence, Union

from .ports import LedFrame, RGB

# --- colours ------------------------------------------------------------------------------------

#: Okabe-Ito colours (sRGB) plus white and three dim tones used by the palette.
COLOURS: Mapping[str, RGB] = {
    "black": (0, 0, 0),
    "white": (255, 255, 255),
    "yellow": (240, 228, 66),
    "sky blue": (86, 180, 233),
    "blue": (0, 114, 178),
    "vermillion": (213, 94, 0),
    "bluish green": (0, 158, 115),
    "orange": (230, 159, 0),
    "reddish purple": (204, 121, 167),
    # Dim tones: 40 % of the value of their full colour. Brightness is the second cue
    # (after hue) that survives every colour-vision deficiency.
    "dim amber": (92, 64, 0),
    "dim blue": (0, 46, 71),
    "dim white": (102, 102, 102),
}

#: Below this brightness cap (0-255) the dim tones fall to one or two PWM steps and stop being
#: distinguishable; profiles reject lower caps (tested in tests/test_palette.py).
MIN_CAP = 24

#: Smallest CIEDE2000 difference between two colours lit together, under normal vision and
#: every simulated dichromacy (a pure red next to a mid green scores about 5 for deuteranopes).
MIN_DISTANCE = 15.0


class Pattern(enum.Enum):
    """How a light varies over time; the non-colour cue."""

    STEADY = "steady"
    BLINK = "blink"  # 1 Hz, half on: "act here"
    FLASH = "flash"  # 4 Hz, half on: "wrong, fix this now"


#: Half period of each pattern in milliseconds (on for one half, off for the next).
HALF_PERIOD_MS: Mapping[Pattern, int] = {Pattern.BLINK: 500, Pattern.FLASH: 125}


class Meaning(enum.Enum):
    """Why a square is lit. Values are stable names for logs and the on-screen legend."""

    OFF = "off"
    LIFTED = "lifted"  # the lifted piece's own square
    MOVE = "move"  # a quiet destination of the lifted piece
    CAPTURE = "capture"  # a capture destination of the lifted piece
    LAST_MOVE_FROM = "last-move-from"
    LAST_MOVE_TO = "last-move-to"
    CHECK = "check"  # the king in check
    HINT_FROM = "hint-from"
    HINT_TO = "hint-to"
    THREAT = "threat"  # the coach: a piece of the player's that can be taken for free
    COMPUTER_MOVE_FROM = "computer-move-from"  # carry out the computer's move
    COMPUTER_MOVE_TO = "computer-move-to"
    REMOVE = "remove"  # a piece to lift off (the board differs from the game)
    PLACE = "place"  # a square to fill
    ILLEGAL = "illegal"  # a piece put where it may not go
    SETUP_PLACE = "setup-place"  # setting up: a piece belongs here
    TERRAIN_WATER = "terrain-water"
    SPAWN = "spawn"  # a spawn zone
    PLAYER_1 = "player-1"
    PLAYER_2 = "player-2"
    PLAYER_3 = "player-3"
    PLAYER_4 = "player-4"
    DIAG_TEST = "diag-test"  # the LED test pattern


@dataclass(frozen=True)
class Appearance:
    """How one meaning looks: a named colour and a pattern."""

    colour: str
    pattern: Pattern = Pattern.STEADY

    @property
    def rgb(self) -> RGB:
        return COLOURS[self.colour]


S, B, F = Pattern.STEADY, Pattern.BLINK, Pattern.FLASH

#: The palette. docs/leds.md explains every row.
PALETTE: Mapping[Meaning, Appearance] = {
    Meaning.OFF: Appearance("black"),
    Meaning.LIFTED: Appearance("white"),
    Meaning.MOVE: Appearance("sky blue"),
    Meaning.CAPTURE: Appearance("vermillion"),
    Meaning.LAST_MOVE_FROM: Appearance("dim amber"),
    Meaning.LAST_MOVE_TO: Appearance("yellow"),
    Meaning.CHECK: Appearance("vermillion", B),
    Meaning.HINT_FROM: Appearance("dim white", B),
    Meaning.HINT_TO: Appearance("white", B),
    Meaning.THREAT: Appearance("yellow", B),
    Meaning.COMPUTER_MOVE_FROM: Appearance("dim white", B),
    Meaning.COMPUTER_MOVE_TO: Appearance("white", B),
    Meaning.REMOVE: Appearance("yellow", B),
    Meaning.PLACE: Appearance("sky blue", B),
    Meaning.ILLEGAL: Appearance("vermillion", F),
    Meaning.SETUP_PLACE: Appearance("sky blue"),
    Meaning.TERRAIN_WATER: Appearance("dim blue"),
    Meaning.SPAWN: Appearance("dim white"),
    Meaning.PLAYER_1: Appearance("white"),
    Meaning.PLAYER_2: Appearance("vermillion"),
    Meaning.PLAYER_3: Appearance("sky blue"),
    Meaning.PLAYER_4: Appearance("yellow"),
    Meaning.DIAG_TEST: Appearance("white"),
}

_M = Meaning
_BACKGROUND = frozenset({_M.OFF, _M.TERRAIN_WATER, _M.SPAWN})

#: Meanings that may be lit at the same time. Inside a context, lights must be told apart.
#: Hints and the computer's move never show together (one is for the human's turn, the other
#: for the computer's), so they share looks.
CONTEXTS: Mapping[str, frozenset[Meaning]] = {
    "play": _BACKGROUND
    | {_M.LIFTED, _M.MOVE, _M.CAPTURE, _M.LAST_MOVE_FROM, _M.LAST_MOVE_TO, _M.CHECK, _M.HINT_FROM, _M.HINT_TO,
       _M.THREAT},
    "computer move": _BACKGROUND
    | {_M.COMPUTER_MOVE_FROM, _M.COMPUTER_MOVE_TO, _M.LIFTED, _M.LAST_MOVE_FROM, _M.LAST_MOVE_TO, _M.CHECK},
    "correction": _BACKGROUND | {_M.REMOVE, _M.PLACE, _M.ILLEGAL, _M.LAST_MOVE_FROM, _M.LAST_MOVE_TO},
    "setup": _BACKGROUND | {_M.SETUP_PLACE, _M.REMOVE},
    "players": _BACKGROUND | {_M.PLAYER_1, _M.PLAYER_2, _M.PLAYER_3, _M.PLAYER_4},
    # the coach on a map at rest: its blinking lights over the units' steady seat colours
    "coach on a map": _BACKGROUND | {_M.PLAYER_1, _M.PLAYER_2, _M.PLAYER_3, _M.PLAYER_4, _M.HINT_FROM, _M.HINT_TO,
                                     _M.THREAT},
    "diagnostic": frozenset({_M.OFF, _M.DIAG_TEST}),
}

PLAYERS = (Meaning.PLAYER_1, Meaning.PLAYER_2, Meaning.PLAYER_3, Meaning.PLAYER_4)


def player(number: int) -> Meaning:
    """The colour meaning of player ``number`` (1-4)."""
    if not 1 <= number <= len(PLAYERS):
        raise ValueError(f"player number must be 1 to {len(PLAYERS)}, got {number}")
    return PLAYERS[number - 1]


def is_lit(appearance: Appearance, t_ms: int | None) -> bool:
    """Whether a light with this appearance is on at ``t_ms`` (None: always its on phase)."""
    if appearance.pattern is Pattern.STEADY or t_ms is None:
        return True
    return (t_ms // HALF_PERIOD_MS[appearance.pattern]) % 2 == 0


Meanings = Union[Mapping[int, Meaning], Sequence[Meaning]]


def blinking(meanings: Meanings) -> frozenset[Pattern]:
    """The patterns other than steady among ``meanings``: a frame of them changes over time
    only if this is not empty."""
    values = meanings.values() if isinstance(meanings, Mapping) else meanings
    return frozenset(PALETTE[m].pattern for m in set(values)) - {Pattern.STEADY}


def phase(patterns: frozenset[Pattern], t_ms: int) -> tuple[int, ...]:
    """Which half of its period each of ``patterns`` is in at ``t_ms``: :func:`render` of
    meanings with these patterns gives the same frame for every ``t_ms`` with the same phase
    (so a caller can skip rendering an unchanged frame)."""
    return tuple((t_ms // HALF_PERIOD_MS[p]) % 2 for p in sorted(patterns, key=lambda p: p.value))


def render(meanings: Meanings, size: int, *, t_ms: int | None = None) -> LedFrame:
    """The LED frame for ``meanings`` on a board of ``size`` squares.

    ``meanings`` is either a mapping square -> meaning (unlisted squares are OFF) or one
    meaning per square. With ``t_ms`` blinking lights are on or off by their phase; without
    it, every light shows its colour (the legend and the on-screen board's still view).
    """
    if isinstance(meanings, Mapping):
        bad = [sq for sq in meanings if not (isinstance(sq, int) and 0 <= sq < size)]
        if bad:
            raise ValueError(f"squares {bad[:3]} are off a board of {size} squares")
        per_square: Sequence[Meaning] = [meanings.get(sq, Meaning.OFF) for sq in range(size)]
    else:
        if len(meanings) != size:
            raise ValueError(f"{len(meanings)} meanings given for a board of {size} squares")
        per_square = meanings
    off = COLOURS["black"]
    out = []
    for meaning in per_square:
        look = PALETTE[meaning]
        out.append(look.rgb if is_lit(look, t_ms) else off)
    return tuple(out)


def _check_level(max_level: object) -> int:
    if isinstance(max_level, bool) or not isinstance(max_level, int) or not 0 <= max_level <= 255:
        raise ValueError(f"brightness cap must be an integer from 0 to 255, got {max_level!r}")
    return max_level


def cap(frame: LedFrame, max_level: int) -> LedFrame:
    """Scale every channel so that 255 becomes ``max_level`` (0-255), keeping the hue."""
    table = _cap_table(_check_level(max_level))
    return tuple((table[r], table[g], table[b]) for r, g, b in frame)


def linearize(frame: LedFrame) -> LedFrame:
    """Design colours (sRGB) -> LED levels, so that an LED looks like the on-screen square.

    WS2812 PWM is linear in light, a screen is not: without this a "dim" tone at 40 % of the
    value would glow at 40 % of the light, which the eye sees as barely dimmer than full."""
    return led_levels(frame, 255)


def led_levels(frame: LedFrame, max_level: int) -> LedFrame:
    """Design colours -> what an LED adapter writes: linearized, then capped.

    Done in one step rather than ``cap(linearize(frame))`` to round once: at low caps a double
    rounding merges the dim tones."""
    table = _led_table(_check_level(max_level))
    return tuple((table[r], table[g], table[b]) for r, g, b in frame)


def linear_fraction(value: int) -> float:
    """The sRGB transfer function: 8-bit design value -> relative light, 0.0-1.0."""
    c = value / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


@functools.lru_cache(maxsize=None)
def _cap_table(max_level: int) -> tuple[int, ...]:
    return tuple((v * max_level + 127) // 255 for v in range(256))


@functools.lru_cache(maxsize=None)
def _led_table(max_level: int) -> tuple[int, ...]:
    return tuple(round(linear_fraction(v) * max_level) for v in range(256))
