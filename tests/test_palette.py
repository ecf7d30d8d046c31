"""The LED palette: meanings lit together stay apart for colour-blind players.

Colour vision is simulated with the Machado, Oliveira & Fernandes (2009) matrices at full
severity (dichromacy), applied to linear RGB; differences are CIEDE2000 in CIELAB (D65),
the formula checked against Sharma, Wu & Dalal's (2005) published test pairs.
"""

from __future__ import annotations

import itertools
import math

import pytest

from companion.board.palette import (
    CONTEXTS,
    COLOURS,
    MIN_CAP,
    MIN_DISTANCE,
    PALETTE,
    Appearance,
    Meaning,
    cap,
    led_levels,
    linear_fraction,
    linearize,
    player,
    render,
)

# --- colour science (independent of the module under test, except the sRGB curve) ---------------

VISION = {
    "normal": ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)),
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}


def srgb_to_linear(rgb):
    return tuple(linear_fraction(v) for v in rgb)


def simulate(linear_rgb, vision):
    m = VISION[vision]
    return tuple(min(1.0, max(0.0, sum(m[i][j] * linear_rgb[j] for j in range(3)))) for i in range(3))


def linear_to_lab(linear_rgb):
    r, g, b = linear_rgb
    x = 0.4124564 * r + 0.3575761 * g + 0.1804375 * b
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = 0.0193339 * r + 0.1191920 * g + 0.9503041 * b

    def f(t):
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    fx, fy, fz = f(x / 0.95047), f(y / 1.0), f(z / 1.08883)
    return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))


def ciede2000(lab1, lab2):
    l1, a1, b1 = lab1
    l2, a2, b2 = lab2
    c_bar = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_bar**7 / (c_bar**7 + 25**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    dl, dc = l2 - l1, c2p - c1p
    if c1p * c2p == 0:
        dh = 0.0
    else:
        dh = h2p - h1p
        if dh > 180:
            dh -= 360
        elif dh < -180:
            dh += 360
    d_big_h = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    l_bar, cp_bar = (l1 + l2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        h_bar = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        h_bar = (h1p + h2p) / 2
    elif h1p + h2p < 360:
        h_bar = (h1p + h2p + 360) / 2
    else:
        h_bar = (h1p + h2p - 360) / 2
    t = (
        1
        - 0.17 * math.cos(math.radians(h_bar - 30))
        + 0.24 * math.cos(math.radians(2 * h_bar))
        + 0.32 * math.cos(math.radians(3 * h_bar + 6))
        - 0.20 * math.cos(math.radians(4 * h_bar - 63))
    )
    d_theta = 30 * math.exp(-(((h_bar - 275) / 25) ** 2))
    r_c = 2 * math.sqrt(cp_bar**7 / (cp_bar**7 + 25**7))
    s_l = 1 + 0.015 * (l_bar - 50) ** 2 / math.sqrt(20 + (l_bar - 50) ** 2)
    s_c = 1 + 0.045 * cp_bar
    s_h = 1 + 0.015 * cp_bar * t
    r_t = -math.sin(math.radians(2 * d_theta)) * r_c
    return math.sqrt((dl / s_l) ** 2 + (dc / s_c) ** 2 + (d_big_h / s_h) ** 2 + r_t * (dc / s_c) * (d_big_h / s_h))


def distance(linear_a, linear_b, vision):
    return ciede2000(linear_to_lab(simulate(linear_a, vision)), linear_to_lab(simulate(linear_b, vision)))


def confusable_pairs(palette, contexts, to_linear):
    """Every (context, meaning, meaning, vision, distance) lit together that is too close."""
    found = []
    for context, meanings in contexts.items():
        for m1, m2 in itertools.combinations(sorted(meanings, key=lambda m: m.value), 2):
            a, b = palette[m1], palette[m2]
            if a.pattern is not b.pattern:
                continue  # told apart by the pattern
            for vision in VISION:
                d = distance(to_linear(a.rgb), to_linear(b.rgb), vision)
                if d < MIN_DISTANCE:
                    found.append((context, m1.value, m2.value, vision, round(d, 1)))
    return found


def as_screen(rgb):
    return srgb_to_linear(rgb)


def as_led_at(max_level):
    """The light an LED emits after the adapter's linearize + cap, relative to the cap."""

    def to_linear(rgb):
        (levels,) = led_levels((rgb,), max_level)
        return tuple(v / max_level for v in levels)

    return to_linear


# --- the colour science itself is right --------------------------------------------------------

SHARMA_PAIRS = [  # Sharma, Wu & Dalal (2005), table 1: pairs 1, 7, 17-21, 25
    ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
    ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
    ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
    ((50.0, 2.5, 0.0), (61.0, -5.0, 29.0), 22.8977),
    ((50.0, 2.5, 0.0), (56.0, -27.0, -3.0), 31.9030),
    ((50.0, 2.5, 0.0), (58.0, 24.0, 15.0), 19.4535),
    ((50.0, 2.5, 0.0), (50.0, 3.1736, 0.5854), 1.0000),
    ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
]


@pytest.mark.parametrize("lab1, lab2, expected", SHARMA_PAIRS)
def test_ciede2000_matches_the_published_test_pairs(lab1, lab2, expected):
    assert ciede2000(lab1, lab2) == pytest.approx(expected, abs=1e-4)
    assert ciede2000(lab2, lab1) == pytest.approx(expected, abs=1e-4)


@pytest.mark.parametrize("vision", VISION)
def test_simulated_vision_keeps_greys_grey(vision):
    for level in (0.0, 0.2, 1.0):
        assert simulate((level,) * 3, vision) == pytest.approx((level,) * 3, abs=1e-5)


def test_simulation_confuses_red_and_green_for_deuteranopes_only():
    red, green = srgb_to_linear((200, 0, 0)), srgb_to_linear((0, 150, 0))
    assert distance(red, green, "normal") > 50
    assert distance(red, green, "deuteranopia") < MIN_DISTANCE


def test_white_lab_is_100_0_0():
    assert linear_to_lab((1.0, 1.0, 1.0)) == pytest.approx((100.0, 0.0, 0.0), abs=0.01)


# --- the palette --------------------------------------------------------------------------------


def test_every_meaning_has_a_look_and_a_context():
    assert set(PALETTE) == set(Meaning)
    in_contexts = set().union(*CONTEXTS.values())
    assert in_contexts == set(Meaning)
    assert all(a.colour in COLOURS for a in PALETTE.values())


def test_meanings_lit_together_are_distinguishable_on_screen_for_every_vision():
    assert confusable_pairs(PALETTE, CONTEXTS, as_screen) == []


@pytest.mark.parametrize("max_level", [MIN_CAP, 48, 128, 255])
def test_meanings_lit_together_are_distinguishable_on_the_leds_at_the_cap(max_level):
    assert confusable_pairs(PALETTE, CONTEXTS, as_led_at(max_level)) == []


def test_below_the_minimum_cap_the_dim_tones_merge():
    # Why profiles refuse caps under MIN_CAP: the check really fails there.
    assert confusable_pairs(PALETTE, CONTEXTS, as_led_at(MIN_CAP - 8)) != []


def test_a_red_green_palette_is_caught():
    bad = dict(PALETTE)
    bad[Meaning.MOVE] = Appearance("bluish green")
    bad[Meaning.CAPTURE] = Appearance("orange")
    bad[Meaning.LIFTED] = Appearance("yellow")
    found = confusable_pairs(bad, {"play": CONTEXTS["play"]}, as_screen)
    pairs = {(a, b) for _, a, b, _, _ in found}
    assert ("capture", "lifted") in pairs  # orange next to yellow
    assert ("capture", "last-move-to") in pairs


def test_shared_looks_are_never_lit_together():
    for context, meanings in CONTEXTS.items():
        looks = [PALETTE[m] for m in meanings]
        assert len(looks) == len(set(looks)), context


def test_player_colours_are_numbered_from_one():
    assert player(1) is Meaning.PLAYER_1 and player(4) is Meaning.PLAYER_4
    with pytest.raises(ValueError, match="1 to 4"):
        player(5)


# --- render ------------------------------------------------------------------------------------


def test_render_lights_listed_squares_and_leaves_the_rest_off():
    frame = render({0: Meaning.LIFTED, 9: Meaning.MOVE, 10: Meaning.CAPTURE}, 64)
    assert len(frame) == 64
    assert frame[0] == COLOURS["white"]
    assert frame[9] == COLOURS["sky blue"]
    assert frame[10] == COLOURS["vermillion"]
    assert frame.count((0, 0, 0)) == 61


def test_render_takes_one_meaning_per_square():
    meanings = [Meaning.OFF] * 25
    meanings[24] = Meaning.TERRAIN_WATER
    assert render(meanings, 25)[24] == COLOURS["dim blue"]


def test_blinking_lights_follow_their_phase_and_steady_ones_stay_on():
    m = {0: Meaning.REMOVE, 1: Meaning.ILLEGAL, 2: Meaning.PLACE, 3: Meaning.MOVE}
    on = render(m, 4, t_ms=0)
    assert all(c != (0, 0, 0) for c in on)
    at_200 = render(m, 4, t_ms=200)  # BLINK still on (500 ms half period), FLASH off (125 ms)
    assert at_200[0] != (0, 0, 0) and at_200[1] == (0, 0, 0)
    at_600 = render(m, 4, t_ms=600)
    assert at_600[0] == (0, 0, 0) and at_600[2] == (0, 0, 0) and at_600[3] == COLOURS["sky blue"]
    assert render(m, 4) == on  # no time: the still view shows every colour


def test_render_rejects_squares_off_the_board_and_wrong_lengths():
    with pytest.raises(ValueError, match="off a board of 64"):
        render({64: Meaning.MOVE}, 64)
    with pytest.raises(ValueError, match="3 meanings given for a board of 64"):
        render([Meaning.OFF] * 3, 64)


# --- cap and linearize -------------------------------------------------------------------------


def test_cap_scales_full_white_to_the_cap_and_keeps_hue():
    frame = ((255, 255, 255), (200, 100, 0), (0, 0, 0))
    assert cap(frame, 48) == ((48, 48, 48), (38, 19, 0), (0, 0, 0))
    assert cap(frame, 255) == frame
    assert cap(frame, 0) == ((0, 0, 0),) * 3


@pytest.mark.parametrize("bad", [-1, 256, 1.5, "48", True])
def test_cap_rejects_levels_outside_0_to_255(bad):
    with pytest.raises(ValueError, match="integer from 0 to 255"):
        cap(((1, 2, 3),), bad)


def test_linearize_keeps_the_ends_and_darkens_the_middle():
    assert linearize(((0, 128, 255),)) == ((0, 55, 255),)
    levels = [linearize(((v, v, v),))[0][0] for v in range(256)]
    assert levels == sorted(levels)


def test_led_levels_round_once():
    # dim blue (0, 46, 71) at the minimum cap still has two distinct non-zero channels
    (levels,) = led_levels((COLOURS["dim blue"],), MIN_CAP)
    assert levels[0] == 0 and 0 < levels[1] < levels[2]
    assert led_levels(((255, 255, 255),), 48) == ((48, 48, 48),)
