"""Positions and scripts for Dungeon Chess games on the physical board (tests only).

``QUICK_FOUR``: a constructed mid-game on the 20x20 four-player map that ends in 15 plies
with the last King standing, and passes through every effect: a Troll push-back, a
Salamander's capture and step, a hex, a fragile Skeleton taken, a Demonics explosion killing
a King, two eliminations, a cannon capture that uncovers a ranged attack, a forced pass.
Seats: 1 blue (south, human), 2 red (west, undead), 3 green (north, redskin), 4 yellow (east,
greenskin).
"""

from __future__ import annotations

import random

from companion.core.moves import Answer, Move

QUICK_FOUR_PIECES = {
    # blue, south, human
    "h2": (0, "princess"), "n10": (0, "wizard"), "k14": (0, "knight"), "c12": (0, "hero"), "p10": (0, "hero"),
    "h7": (0, "hero"), "t10": (0, "hero"),
    # red, west, undead
    "a10": (1, "warlock"), "l13": (1, "skeleton"), "b8": (1, "skeleton"), "c14": (1, "tomb"), "c7": (1, "vampire"),
    # green, north, redskin: its King has wandered into the west arm
    "a14": (2, "red_dragon"), "b14": (2, "iron_golem"), "e10": (2, "kobold"), "g9": (2, "salamander"),
    "q11": (2, "demonics"), "j16": (2, "kobold"),
    # yellow, east, greenskin
    "r11": (3, "warlord"), "r12": (3, "shaman"), "m13": (3, "troll"), "s8": (3, "goblin"),
}

#: (move or answer text, what it shows)
QUICK_FOUR_SCRIPT = (
    ("k14m13", "blue's Knight attacks yellow's Troll: it is pushed back to n13"),
    ("b8b9", "red steps a Skeleton"),
    ("g9h7", "green's Salamander takes blue's Hero"),
    ("i8", "... and steps on to i8"),
    ("r12q11hex", "yellow's Shaman hexes green's Demonics, which stood next to yellow's King"),
    ("k14l13", "blue's Knight takes red's fragile Skeleton (not a knight's move)"),
    ("b9a9", "red steps"),
    ("j16j15", "green steps"),
    ("s8s7", "yellow steps"),
    ("p10q11", "blue's Hero takes the Demonics: the explosion kills yellow's King and Shaman; yellow is out"),
    ("c7b8", "red steps"),
    ("e10t10", "green's Kobold takes blue's Hero as a cannon, uncovering the Wizard's line to red's King"),
    ("n10a10", "blue's Wizard takes red's King across the water: red is out"),
    ("pass", "green's King is attacked and boxed in: no legal move, a pass"),
    ("a10a14", "blue takes the last enemy King"),
)


def action(rules, pos, text: str):
    """The move or the answer ``text`` names, legal now."""
    if pos.pending is not None:
        for a in rules.answers(pos):
            if rules.answer_text(a) == text:
                return a
        raise AssertionError(f"{text!r} does not answer {pos.pending.kind}")
    return rules.parse_move(pos, text)


def greedy_move(rules, pos, rng: random.Random) -> Move:
    """A scripted player for long games: takes a King when it can, usually the most valuable
    piece it can take, sometimes hexes, otherwise a move towards the enemy Kings that makes
    no position seen before. Deterministic for a given ``rng``."""
    moves = list(dict.fromkeys(rules.legal_moves(pos)))
    kings = [k for p in range(pos.nplayers) if p != pos.turn for k in pos.royals[p]]
    captures = [m for m in moves if m.capture is not None]
    for m in captures:
        if m.capture in kings:
            return m
    if captures and rng.random() < 0.8:
        return max(captures, key=lambda m: (pos.board[m.capture].kind.value, -m.frm, -m.to))
    hexes = [m for m in moves if m.special == "hex"]
    if hexes and rng.random() < 0.3:
        return hexes[0]
    seen = set(pos.history) | {pos.hash}

    def fresh(m):
        rules.apply(pos, m)
        try:
            return pos.hash not in seen
        finally:
            rules.undo(pos)

    g = rules.geometry

    def gain(m):
        return min((g.distance(m.to, k) for k in kings), default=0) - min((g.distance(m.frm, k) for k in kings), default=0)

    quiet = [m for m in moves if m.capture is None and m.special != "hex" and m.frm >= 0 and fresh(m)] or moves
    best = min(gain(m) if m.frm >= 0 else 0 for m in quiet)
    return rng.choice(sorted(m for m in quiet if m.frm < 0 or gain(m) == best))


def greedy_answer(rules, pos, rng: random.Random) -> Answer:
    return rng.choice(rules.answers(pos))
