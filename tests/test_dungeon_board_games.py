"""Whole Dungeon Chess games played with hands on the board (sensor events only) and followed by
the tracker: on the 10x10 Compact map and the 8x20 Two Player Dungeon from the automatic
deployment to the end, on the 20x20 Four Player Dungeon from a deployment made on the board,
and a constructed four-player game to the last King standing through every effect.

The session (tests/dungeon_board_table.py) only plays what the tracker reports; a scripted
player decides each move, a person's hands make it (victim first or attacker first, now and
then a piece touched and put back), and the hands then do what the lit squares say. Every
move must be recognised as the one intended, and the board must end in step with the game."""

from __future__ import annotations

import random

import pytest

from companion.core.moves import Answer
from companion.games import make_rules
from companion.games.draft import Army, Deployment, presets
from tests.dungeon_board import position, rules
from tests.dungeon_board_games import QUICK_FOUR_PIECES, QUICK_FOUR_SCRIPT, action, greedy_answer, greedy_move
from tests.dungeon_board_table import SMALL, DungeonTable, Hands, deploy_everything
from tests.tracker_hands import frame_contexts

RAIDERS = Army("redskin", ("red_dragon", "salamander", "demonics", "kobold", "kobold", "kobold"), "Redskin raiders")


def carry_out(t: DungeonTable, act, rng: random.Random) -> None:
    """A person makes ``act`` (a move or an answer) on the board or on the screen."""
    pos = t.pos
    if isinstance(act, Answer):
        if act.value == "stay":
            t.choose("stay")
        else:
            square = pos.pending.get("square")
            t.run([("lift", square), ("put", act.value)])
        return
    if act.special in ("hex", "pass"):
        t.choose(t.rules.move_text(pos, act))
        return
    if rng.random() < 0.15:  # a piece of the mover touched and put back first
        own = sorted(pos.occ[pos.turn])
        touched = rng.choice(own)
        t.run([("lift", touched), ("put", touched)], settle=0)
    t.make(act, victim_first=rng.random() < 0.5, settle=rng.choice((700, 2000)))


def play_on_the_board(t: DungeonTable, seed: int, max_plies: int) -> list[str]:
    """Play with the greedy scripted players until the game ends (or ``max_plies``); returns
    the intended actions as texts."""
    rng = random.Random(seed)
    intended: list[str] = []
    for _ in range(max_plies):
        if t.rules.outcome(t.pos) is not None:
            break
        if t.pos.pending is not None:
            act = greedy_answer(t.rules, t.pos, rng)
            intended.append(t.rules.answer_text(act))
        else:
            act = greedy_move(t.rules, t.pos, rng)
            intended.append(t.rules.move_text(t.pos, act))
        carry_out(t, act, rng)
        t.follow_guidance()
        assert t.actions == intended, f"the board showed {t.actions[-1:]} for {intended[-1]}"
        assert t.tracker.in_sync or t.pos.pending is not None
        assert t.tracker.sensed == t.pos.occupied()
    return intended


def assert_frames_ok(t: DungeonTable) -> None:
    for frame in t.frames:
        assert frame_contexts(frame), sorted(m.value for m in frame.values())


# (map, armies, seed of the scripted players and hands): games that end with a King taken
TWO_PLAYER_GAMES = [
    ("dungeon-compact", (RAIDERS, "greenskin-midrange"), 5),  # a Troll crushed, explosions, a step, a pass
    ("dungeon-two-player", ("human-balanced", "skeleton-swarm-24"), 13),  # fragile Skeletons
    ("dungeon-two-player", (RAIDERS, "greenskin-midrange"), 5),
]


@pytest.mark.parametrize("map_name, armies, seed", TWO_PLAYER_GAMES)
def test_a_two_player_game_is_followed_from_the_start_to_the_king_taken(map_name, armies, seed):
    r = make_rules("dungeon", map_name, quiet_moves=40)
    known = presets()
    dep = Deployment(r, [a if isinstance(a, Army) else known[a] for a in armies])
    dep.auto_rest()
    t = DungeonTable(r, dep.position())
    intended = play_on_the_board(t, seed, 400)
    outcome = r.outcome(t.pos)
    assert outcome is not None and outcome.reason == "King captured", outcome
    assert len(intended) > 40
    assert t.tracker.in_sync
    assert_frames_ok(t)


def test_a_four_player_game_deployed_on_the_board_is_followed():
    h = Hands("dungeon-four-player", [SMALL[a] for a in ("human", "undead", "redskin", "greenskin")])
    deploy_everything(h)
    assert h.guide.done
    t = DungeonTable(h.rules, h.deployment.position(), sensed=h.guide.sensed)
    assert t.tracker.in_sync
    intended = play_on_the_board(t, 7, 60)
    assert len(intended) == 60 or t.rules.outcome(t.pos) is not None
    assert_frames_ok(t)


def test_a_constructed_four_player_game_is_followed_to_the_last_king_standing():
    r = rules("dungeon-four-player")
    t = DungeonTable(r, position(r, QUICK_FOUR_PIECES, 0))
    rng = random.Random(3)
    said = []
    for text, _why in QUICK_FOUR_SCRIPT:
        act = action(r, t.pos, text)
        carry_out(t, act, rng)
        if t.tracker.status == "out-of-sync":
            said.append(t.tracker.guidance.text)
        t.follow_guidance()
        assert t.actions[-1] == text
    assert t.actions == [text for text, _ in QUICK_FOUR_SCRIPT]
    outcome = r.outcome(t.pos)
    assert outcome.winners == frozenset({0}) and outcome.reason == "the last King standing"
    assert t.tracker.in_sync and t.tracker.sensed == t.pos.occupied()
    words = " ".join(said)
    assert "Put the yellow Troll on n13 (thick skin)." in words
    assert "Remove the yellow Warlord from r11 (destroyed by the explosion)." in words
    assert "(yellow is out)" in words and "(red is out)" in words
    assert_frames_ok(t)
