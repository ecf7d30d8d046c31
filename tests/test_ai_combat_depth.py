"""Combat Chess's depth keys (docs/ai.md, "Combat Chess, round 6"; candidate B on in tables/combat.toml):
``chance_reduce`` (fight outcomes in the main search one ply shallower below a probability),
``chance_qply`` and ``chance_static`` (in the capture search, fight outcomes judged statically
after so many plies, or below a probability), ``fight_order`` and ``fight_see`` (captures ordered
by, and in the capture search skipped by, what the fight is worth by its odds: P(win) x victim -
P(loss) x attacker; ``fight_see_depth``: in the main search too, so near the leaves). Each key, and
the candidate sets of them, still finds a mate in one, takes a fight its odds make good, and
declines one its odds make bad; off, every key leaves the tree as it was."""

import time

import pytest

from companion.ai.eval_table import load_table, table_for
from companion.ai.evaluate import Evaluator
from companion.ai.levels import STRONGEST
from companion.ai.previous import PREVIOUS_TABLE_DIR
from companion.ai.search import INF, Search
from companion.errors import VariantError
from companion.games import make_rules

# a white knight on c3 can attack the undefended black bishop on d5; nothing else is going on
FORK_FREE = "4k3/8/8/3b4/8/2N5/8/4K3 w - - 0 1"
# the same knight with four fatigue tokens: d8 + 1 - 4 against d8, it loses most fights
TIRED = FORK_FREE + " fatigue=c3:4"
# Ra8 is checkmate: the King cannot step out, and the rook is not next to it (no Prerogative)
MATE_IN_ONE = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"
# the white queen on d4 may attack the pawn on g7 (nothing defends it): it wins most fights, but
# the queen lost in the rest costs far more than the pawn; Black's rook keeps material level
QUEEN_ON_A_PAWN = "r3k3/6p1/8/8/3Q4/8/8/4K3 w - - 0 1"

SETTINGS = [
    {"chance_reduce": 1.0},
    {"chance_reduce": 0.5},
    {"chance_qply": 0.0},
    {"fight_see": True},
    {"fight_order": True},
    {"fight_see": True, "fight_see_depth": 1.0},
    {"chance_static": 0.5},
    {"chance_probe": True},
    {"chance_reduce": 1.0, "fight_see": True},  # candidate A (docs/ai.md)
    {"chance_reduce": 1.0, "fight_see": True, "chance_static": 0.5},  # B
    {"chance_reduce": 1.0, "fight_see": True, "chance_qply": 1.0},  # C
]
IDS = ["+".join(f"{k}={v}" for k, v in s.items()) for s in SETTINGS]


@pytest.fixture(scope="module")
def combat():
    return make_rules("combat")


def search(rules, settings=None):
    """The strongest search with the depth keys off (:data:`OFF`), but for ``settings``: each key
    is measured against the search without any of them (Combat's own table has candidate B on)."""
    return Search(rules, Evaluator(rules, table_for(rules, {**OFF, **(settings or {})}, "test")),
                  STRONGEST.search_options())


def choose(rules, text, settings, depth=3):
    pos = rules.position_from_text(text)
    info = search(rules, settings).run(pos, now=time.perf_counter, max_depth=depth)
    return rules.move_text(pos, info.best), info


@pytest.mark.parametrize("settings", SETTINGS, ids=IDS)
def test_each_key_still_finds_a_mate_in_one(combat, settings):
    move, info = choose(combat, MATE_IN_ONE, settings)
    assert move == "a1a8" and info.mate_in() == 1


@pytest.mark.parametrize("settings", SETTINGS, ids=IDS)
def test_each_key_takes_a_fight_its_odds_make_good_and_declines_one_they_make_bad(combat, settings):
    pos = combat.position_from_text(TIRED)
    odds = combat.odds_of_move(pos, combat.parse_move(pos, "c3d5"))
    assert odds.attacker < odds.defender  # the tired knight is the underdog
    assert choose(combat, FORK_FREE, settings)[0] == "c3d5"
    assert choose(combat, TIRED, settings)[0] != "c3d5"


OFF = {"chance_reduce": 0.0, "chance_qply": -1.0, "chance_static": 0.0, "fight_order": False,
       "fight_see": False, "fight_see_depth": 0.0, "chance_probe": False}


def test_off_the_keys_leave_the_tree_as_it_was(combat):
    """A table without the keys (the frozen Combat table of tables/previous, from before them),
    and the same table with each key set to its default explicitly: the same nodes, move and score."""
    def frozen(settings):
        t = table_for(combat, settings, "test", PREVIOUS_TABLE_DIR)
        return Search(combat, Evaluator(combat, t), STRONGEST.search_options())

    for text in (FORK_FREE, QUEEN_ON_A_PAWN, "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"):
        pos = combat.position_from_text(text)
        a = frozen(None).run(pos, now=time.perf_counter, max_depth=3)
        b = frozen(OFF).run(pos, now=time.perf_counter, max_depth=3)
        assert (a.nodes, a.best, a.score, a.pv) == (b.nodes, b.best, b.score, b.pv)


def test_combat_plays_candidate_b_and_no_other_game_has_the_keys(combat):
    """Round 6's choice (docs/ai.md, "Combat Chess, round 6"): candidate B on in Combat Chess's own
    table only; any other game with dice fights keeps them off (not measured there)."""
    t = load_table("combat")
    assert (t.chance_reduce, t.chance_probe, t.fight_see, t.chance_static) == (1.0, True, True, 0.5)
    assert (t.chance_qply, t.fight_see_depth, t.fight_order) == (-1.0, 0.0, False)
    for game in ("dungeon", "kol", "chess4"):
        other = table_for(make_rules(game, fights="dice"))
        assert all(getattr(other, k) == v for k, v in OFF.items()), game


def test_a_fight_is_worth_its_odds_times_the_victim_less_the_attacker_it_risks(combat):
    s = search(combat, {"fight_order": True})
    pos = combat.position_from_text(QUEEN_ON_A_PAWN)
    s.pos = pos
    move = combat.parse_move(pos, "d4g7")
    odds = combat.odds_of_move(pos, move)
    ov = s.ev.order_values
    queen, pawn = ov[combat.kind_index["Q"]], ov[combat.kind_index["P"]]
    expected = float(odds.attacker) * pawn - float(odds.defender) * queen
    assert odds.attacker > odds.defender and expected < 0  # the favourite, and a bad gamble still
    assert s._fight_worth(move) == pytest.approx(expected)


def test_fight_see_skips_a_bad_gamble_in_the_capture_search_and_orders_it_last_in_the_tree(combat):
    """Queen against pawn: with ``fight_see`` the capture search stands pat rather than try
    the queen's gamble (one node; without the key it is tried, and declined: the same choice), and with
    ``fight_order`` the gamble comes after the quiet moves in the tree."""
    text = QUEEN_ON_A_PAWN
    counts = []
    for settings in (None, {"fight_see": True}):
        s = search(combat, settings)
        pos = combat.position_from_text(text)
        s._prepare(pos, 0, time.perf_counter, None, None, None, time.perf_counter())
        stand = s._leaf(0)
        assert s._qs(-INF, INF, 0, 0) == stand  # the gamble is worse than standing pat either way
        counts.append(s.nodes)
    assert counts[1] == 1 < counts[0]  # standing pat at once; without the key the gamble is tried
    assert choose(combat, text, None, 2)[0] == choose(combat, text, {"fight_see": True}, 2)[0] != "d4g7"
    s = search(combat, {"fight_order": True})
    pos = combat.position_from_text(text)
    s.pos = pos
    s.killers = [[] for _ in range(8)]
    ordered = [combat.move_text(pos, m) for m in s._order(combat.legal_moves(pos), None, 1, True)]
    assert ordered[-1] == "d4g7"
    assert [combat.move_text(pos, m) for m in s._order(combat.legal_moves(pos), None, 1)][0] == "d4g7"


def test_a_bad_value_is_refused_naming_the_key(combat):
    with pytest.raises(VariantError, match="fight_see"):
        table_for(combat, {"fight_see": 1}, "--a-set")
    with pytest.raises(VariantError, match="chance_reduce"):
        table_for(combat, {"chance_reduce": "all"}, "--a-set")


#: middlegame positions of round 5's matches (seeds 11, 12, 14), before move 11 or 31
MATCH_POSITIONS = [
    "r1bqk2r/pp3ppp/2nbp3/3p4/2pP1P2/2N1PN1P/PPPB2P1/R2Q1BKR w kq - 1 11 fatigue=d1:1",
    "r2qkb1r/ppp2pp1/8/1P1npb1p/3p4/3P1P2/P1PBN1PP/R2QKB1R w KQkq - 0 11 fatigue=d5:1",
    "4r1k1/pp3pp1/2n5/3Q3p/4b2P/P3BN2/2PKBPP1/3RR3 w - - 2 31 fatigue=d1:1,e3:2,d5:1,c6:1",
]


def test_star2_probing_is_sound_the_same_move_and_score_in_fewer_nodes(combat):
    """``chance_probe`` cuts only where the probes prove the cut: at depth 3 the same best move
    and score as without it (all 52 positions of docs/ai.md, round 6), here on three of them."""
    saved = 0
    for text in MATCH_POSITIONS:
        pos = combat.position_from_text(text)
        plain = search(combat).run(pos, now=time.perf_counter, max_depth=3)
        probed = search(combat, {"chance_probe": True}).run(pos, now=time.perf_counter, max_depth=3)
        assert (probed.best, probed.score) == (plain.best, pytest.approx(plain.score, abs=1e-9))
        saved += plain.nodes - probed.nodes
    assert saved > 0
