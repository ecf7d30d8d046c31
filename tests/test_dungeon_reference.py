"""The engine against an independent transcription of the rulebook (tests/dungeon_reference.py)
on seeded random positions of every map: move generation, attack detection ("check"), the
lifted-piece moves, and legality."""

import random

import pytest

from companion.core.geometry import VOID, WATER
from tests.dungeon_board import rules_for as rules
from tests.dungeon_reference import Ref

pytestmark = pytest.mark.slow  # an independent reference on many positions: out of the quick loop

MAPS = ["open", "open4", "dungeon-compact", "dungeon-two-player", "dungeon-four-player", "dungeon-four-player:3"]
KINGS = ["princess", "warlock", "red_dragon", "warlord"]


def random_position(r, rng: random.Random):
    units = [k.name for k in r.kinds if not k.royal]
    pos = r.new_position()
    g = r.geometry
    free = [s for s in range(g.size) if g.terrain[s] != VOID]
    rng.shuffle(free)
    for player in range(r.nplayers):
        for i in range(1 + rng.randint(2, 9)):
            name = rng.choice(KINGS) if i == 0 else rng.choice(units)
            kind = r.roster_kind(name)
            for j, s in enumerate(free):
                if g.terrain[s] != WATER or kind.water == "stop":
                    free.pop(j)
                    break
            state = {}
            if name == "troll" and rng.random() < 0.5:
                state["wounded"] = 1
            if name == "shaman" and rng.random() < 0.3:
                state["hex_spent"] = 1
            if rng.random() < 0.1:
                state["hex"] = rng.choice((1, 2))
            pos.put(s, pos.new_piece(kind.code, player, state))
    pos.set_turn(rng.randrange(r.nplayers))
    return pos


def engine_moves(r, pos, player):
    return {(m.frm, m.to, m.capture is not None, m.special == "hex") for m in r.pseudo_moves(pos, player)}


@pytest.mark.parametrize("map_name", MAPS)
def test_move_generation_and_attacks_match_the_reference(map_name):
    r = rules(map_name)
    rng = random.Random(f"dungeon-{map_name}")
    for _ in range(60):
        pos = random_position(r, rng)
        ref = Ref(pos)
        for player in range(r.nplayers):
            want = ref.moves(player)
            got = engine_moves(r, pos, player)
            assert got == want, (r.position_text(pos), player, sorted(got - want)[:5], sorted(want - got)[:5])
            for k in pos.royals[player]:
                for by in range(r.nplayers):
                    if by != player:
                        assert r.is_attacked(pos, k, by) == ref.attacked(k, by), (r.position_text(pos), k, by)


@pytest.mark.parametrize("map_name", MAPS)
def test_legal_moves_match_the_reference_check_rule_and_lifted_pieces_agree(map_name):
    """Legal = after the move (and the best hit-and-run step) the mover's King stands and no
    enemy could capture it (judged by the reference)."""
    r = rules(map_name)
    rng = random.Random(f"dungeon-legal-{map_name}")
    for _ in range(25):
        pos = random_position(r, rng)
        player = pos.turn
        legal = set(r.legal_moves(pos))
        ref_legal = set()
        for m in r.pseudo_moves(pos, player):
            r.apply(pos, m)
            if pos.pending is not None:
                ok = False
                for a in [("stay",)] + [(s,) for s in pos.pending.get("options")]:
                    from companion.core.moves import Answer

                    r.apply(pos, Answer("step", a[0]))
                    ok = ok or _ref_safe(r, pos, player)
                    r.undo(pos)
            else:
                ok = _ref_safe(r, pos, player)
            r.undo(pos)
            if ok:
                ref_legal.add(m)
        if not ref_legal:
            assert [r.move_text(pos, m) for m in legal] == ["pass"]
            continue
        assert legal == ref_legal, (r.position_text(pos), sorted(map(str, legal ^ ref_legal))[:6])
        for sq in pos.occ[player]:
            assert set(r.moves_from(pos, sq)) == {m for m in legal if m.frm == sq}


def _ref_safe(r, pos, player):
    if not pos.royals[player]:
        return False
    alive = r.alive(pos)
    if alive == [player]:
        return True
    ref = Ref(pos)
    return not any(ref.attacked(k, e) for k in pos.royals[player] for e in alive if e != player)
