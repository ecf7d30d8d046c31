"""Three and four players: the paranoid search on a toy game built from data only
(PieceKinds + the shared Rules, like tests/test_engine_vocabulary.py), since Dungeon Chess
arrives later. Toy rules: kings may be captured; a captured king knocks its owner out (their
other pieces leave the board, their turns are skipped); the last king standing wins."""

import gc
import random
import time

import pytest

from companion.ai.levels import STRONGEST, ComputerPlayer, parse_level
from companion.ai.match import play_game
from companion.ai.search import MATE_BOUND, Search
from companion.core.geometry import Geometry
from companion.core.moves import Outcome
from companion.core.notation import parse_position
from companion.core.pieces import PieceKind, parse_pattern
from companion.core.rules import Rules


def kind(name, code, move=(), capture=(), both=(), **kw):
    P = lambda items: tuple(parse_pattern(t) for t in items)  # noqa: E731
    return PieceKind(name=name, code=code, move=P(move), capture=P(capture), both=P(both), **kw)


KINDS = [
    kind("king", "K", both=["leap 1,0", "leap 1,1"], royal=True),
    kind("queen", "Q", both=["ride 1,0", "ride 1,1"], value=900),
    kind("rook", "R", both=["ride 1,0"], value=500),
    kind("knight", "N", both=["leap 1,2"], cost=11),  # priced in XP only: valued from its cost
    kind("pawn", "P", move=["leap 0,1 exact"], capture=["leap 1,1 forward"], promotes_to=("Q",), value=100),
]


class LastKingStanding(Rules):
    name = "toy-last-king"

    def legal_moves(self, pos):
        if pos.pending is not None or self.outcome(pos) is not None:
            return []
        return self.pseudo_moves(pos, pos.turn)

    def perform(self, pos, move):
        victim = pos.board[move.capture] if move.capture is not None else None
        if victim is not None and victim.kind.royal:
            for sq in sorted(pos.occ[victim.owner]):
                if sq != move.capture:
                    pos.take(sq)
            pos.set_var("out", tuple(sorted(set(pos.var("out", ())) | {victim.owner})))
        super().perform(pos, move)

    def outcome(self, pos, claim_draw=True):
        alive = [p for p in range(pos.nplayers) if p not in pos.var("out", ())]
        if len(alive) == 1:
            return Outcome(frozenset(alive), "last king standing")
        return None


HOMES = ("south", "north", "west", "east")


def game(players, size=9):
    return LastKingStanding(Geometry(size, size), KINDS, HOMES[:players])


def best(rules, text, depth):
    pos = parse_position(rules, text)
    info = Search(rules).run(pos, now=time.perf_counter, max_depth=depth)
    return pos, info


def test_captures_a_king_to_knock_a_player_out():
    rules = game(3)
    # player 1's rook on a1 sees player 2's king on a9; player 3 sits on the east edge
    pos, info = best(rules, "(2K)8/9/9/9/9/8(3K)/9/9/(1R)3(1K)4 1", 2)
    assert rules.geometry.name_of(info.best.to) == "a9"


def test_paranoid_search_sees_the_threat_of_the_player_after_next():
    """Player 3's knight on e6 attacks player 1's queen on d4, two turns away (player 2 moves
    in between). The search moves the queen out of reach; no opponent's move is ignored."""
    rules = game(3)
    text = "(2K)8/9/9/4(3N)4/9/3(1Q)5/9/9/4(1K)3(3K) 1"
    pos, info = best(rules, text, 3)
    rules.apply(pos, info.best)
    queen = next(sq for sq in pos.occ[0] if pos.board[sq].kind.code == "Q")
    assert not rules.is_attacked(pos, queen, 2)


def test_four_players_threat_three_turns_away_is_seen_at_depth_four():
    rules = game(4)
    # player 4's rook on i4 attacks player 1's queen on d4 along rank 4; players 2, 3 move first
    text = "(2K)8/9/9/9/9/3(1Q)4(4R)/9/(3K)8/4(1K)3(4K) 1"
    pos, info = best(rules, text, 4)
    rules.apply(pos, info.best)
    queens = [sq for sq in pos.occ[0] if pos.board[sq].kind.code == "Q"]
    assert queens and not rules.is_attacked(pos, queens[0], 3)


def test_king_steps_out_of_an_attack_that_would_knock_its_player_out():
    rules = game(3)
    # player 2's rook on a9 attacks player 1's king on a1 along the a-file (player 3 is out)
    pos = parse_position(rules, "(2R)8/9/9/9/9/9/9/9/(1K)7(2K) 1 out=[2]")
    info = Search(rules).run(pos, now=time.perf_counter, max_depth=2)
    assert info.best is not None
    rules.apply(pos, info.best)
    assert not rules.is_attacked(pos, next(iter(pos.royals[0])), 1)


def test_pieces_priced_in_xp_get_a_value_from_their_cost():
    from companion.ai.evaluate import Evaluator

    rules = game(3)
    ev = Evaluator(rules)
    assert ev.values[rules.kind_index["N"]] == 11 * ev.table.xp_value
    assert ev.values[rules.kind_index["K"]] == 0


@pytest.mark.slow
@pytest.mark.parametrize("players", [3, 4])
def test_strongest_beats_random_players_in_a_whole_toy_game(players):
    """A seeded game to the end through rules.play (which refuses any illegal action)."""
    rules = game(players)
    rows = {3: "(2K)(2R)3(2P)3/9/9/(3R)8/(3K)3(3P)4/9/9/(1P)8/(1K)(1Q)(1R)6 1",
            4: "(2K)(2R)7/9/9/(3R)7(4R)/(3K)7(4K)/9/9/9/(1K)(1Q)(1R)6 1"}[players]
    pos = parse_position(rules, rows)
    players_map = {0: ComputerPlayer(rules, STRONGEST, random.Random(1))}
    for p in range(1, players):
        from companion.ai.baselines import RandomPlayer
        players_map[p] = RandomPlayer(rules, random.Random(p))
    res = play_game(rules, players_map, random.Random(0), now=time.perf_counter, budget=None,
                    max_nodes=600, max_plies=150, seats_of_a=frozenset({0}), position=pos)
    assert res.winner == "A", res.reason


def test_levels_work_in_multi_player_games():
    rules = game(3)
    pos = parse_position(rules, "(2K)8/9/9/9/9/8(3K)/9/9/(1R)3(1K)4 1")
    for level in ("1", "3", "max"):
        player = ComputerPlayer(rules, parse_level(level), random.Random(2))
        info = player.choose(pos, now=time.perf_counter, budget=None, max_nodes=2000)
        assert info.best in rules.legal_moves(pos)


def test_winning_for_the_root_player_is_a_mate_score():
    rules = game(3)
    pos = parse_position(rules, "(2K)8/9/9/9/9/9/9/9/(1R)3(1K)3(3K) 1 out=[2]")
    info = Search(rules).run(pos, now=time.perf_counter, max_depth=2)
    assert info.score >= MATE_BOUND


@pytest.mark.slow
def test_budget_holds_in_four_player_games_on_random_positions():
    """Measured by the search's own clock (processor time): at most 10% over."""
    rules = game(4)
    start = "(2K)(2R)(2N)6/9/(3N)7(4Q)/(3R)7(4R)/(3K)7(4K)/9/9/9/(1K)(1Q)(1R)(1N)5 1"
    rng = random.Random(12)
    search = Search(rules)
    budget = 0.02
    worst = 0.0
    for _ in range(15):
        pos = parse_position(rules, start)
        for _ in range(rng.randint(0, 30)):
            moves = rules.legal_moves(pos)
            if not moves:
                break
            rules.apply(pos, rng.choice(moves))
        if rules.outcome(pos) is not None:
            continue
        gc.collect()  # garbage left by other tests is not this search's: collect it outside the timing
        info = search.run(pos, now=time.process_time, budget=budget)
        assert info.best in rules.legal_moves(pos)
        worst = max(worst, info.elapsed)
    assert worst <= budget * 1.10, f"worst {worst * 1000:.1f} ms for {budget * 1000:.0f} ms"


def test_dungeon_like_game_on_the_compact_map_uses_terrain_and_xp_costs():
    """Dungeon Chess arrives later; its shape is here already: the compact map's 4x4 water
    block, pieces priced in XP only, king capture wins. Defaults (no table) must cope."""
    from companion.ai.evaluate import Evaluator
    from companion.maps import load_map

    geo = load_map("dungeon-compact").geometry
    kinds = [
        kind("warlord", "K", both=["leap 1,0", "leap 1,1"], royal=True, cost=15),
        kind("hero", "H", move=["leap 1,0", "leap 1,1"], capture=["leap 1,1"], cost=2),
        kind("knight", "N", both=["leap 1,2"], cost=12),
        kind("wizard", "W", move=["ride 1,0"], capture=["ride 1,0", "ride 1,1"], cost=20),
    ]
    rules = LastKingStanding(geo, kinds, ("south", "north"))
    ev = Evaluator(rules)
    wid = rules.kind_index["W"]
    # water fills d4..g7: a wizard on c5 slides along its rank only to a5/b5, one on c2 along
    # the whole rank; the open square is worth more although c5 is nearer the centre
    assert geo.is_water(geo.parse_square("d5"))
    assert ev.mg[wid][0][geo.parse_square("c5")] < ev.mg[wid][0][geo.parse_square("c2")]
    assert ev.values[rules.kind_index["N"]] == 12 * ev.table.xp_value
    pos = parse_position(rules, "2(2K)7/(2H)(2H)(2N)7/10/10/10/10/10/10/(1H)(1H)(1W)7/3(1K)6 1")
    info = Search(rules).run(pos, now=time.perf_counter, max_nodes=3000)
    assert info.best in rules.legal_moves(pos)
