"""The capture search's own generator (``rules.noisy_moves``, companion/core/noisy.py): in every
game it gives exactly the legal moves the capture search plays (captures, promotions, moves that
win at once), the same list as filtering ``legal_moves``, and the search with it plays the same
tree as without it (the same nodes, best move and score at a fixed budget): a pure speed-up.

Positions come from seeded random play that prefers captures (so promotions, en passant, lone
Kings, checks, fights, duels and the abilities' captures all come up: the coverage is asserted),
plus hand-made chess positions for the rare cases (en passant, promotions, stalemate, pins)."""

import random
import time

import pytest

from companion.ai.search import Search, SearchOptions
from companion.core.rules import Rules
from companion.games import make_rules

#: the games with their own generator (the quick loop), then every game and match-up the computer
#: plays, dice fights included where a game takes them (slow)
OWN = [("chess", ()), ("dungeon", ()), ("kol", ()), ("chess4", ()), ("combat", ()),
       ("chess2", (("armies", "classic,classic"),))]
GAMES = OWN + [
    ("dungeon", (("board_map", "dungeon-two-player"),)),
    ("dungeon", (("board_map", "dungeon-four-player"),)), ("chess4", (("mode", "teams"),)),
    ("chess2", (("armies", "animals,reaper"),)),
    ("chess2", (("armies", "two-kings,nemesis"),)), ("chess2", (("armies", "empowered,nemesis"),)),
    ("dungeon", (("fights", "dice"),)), ("kol", (("fights", "dice"),)), ("chess4", (("fights", "dice"),)),
]
QUICK = [pytest.param(g, o, id=g) for g, o in OWN]
ALL = [pytest.param(g, o, id=g + "".join(f"-{v}" for _k, v in o), marks=() if (g, o) in OWN else pytest.mark.slow)
       for g, o in GAMES]


def rules_of(game, options):
    return make_rules(game, **dict(options))


def walk(rules, games: int, seed: int, longest: int = 160):
    """Every position (nothing pending, game not over) of ``games`` seeded random games in
    which a capture or promotion is chosen 40% of the time when there is one. One position
    object, played on: copy what you keep."""
    rng = random.Random(seed)
    for _ in range(games):
        pos = rules.start_position()
        for _ply in range(rng.randint(10, longest)):
            pend = pos.pending
            if pend is not None:
                if pend.chance:
                    rules.apply(pos, rng.choice(rules.chance_outcomes(pos)).answer)
                else:
                    rules.apply(pos, rng.choice(list(rules.answers(pos))))
                continue
            if rules.outcome(pos) is not None:
                break
            yield pos
            moves = rules.legal_moves(pos)
            if not moves:
                break
            noisy = [m for m in moves if m.capture is not None or m.promotion]
            rules.apply(pos, rng.choice(noisy) if noisy and rng.random() < 0.4 else rng.choice(moves))


def same_candidates(rules, pos):
    """``legal_candidates``: the candidates passing its test are exactly ``legal_moves`` (as a
    list: each move as often; the search orders them itself), and not in check never none."""
    got = getattr(rules, "legal_candidates", None)
    got = got(pos) if got is not None else None
    if got is None:
        return False
    moves, legal = got
    passed = [m for m in moves if legal(m)]
    if passed or not rules.in_check(pos):  # in check none may pass: legal_moves then decides
        assert sorted(passed, key=repr) == sorted(rules.legal_moves(pos), key=repr), rules.position_text(pos)
    assert passed or rules.in_check(pos)
    return True


def same_moves(rules, pos, search=None):
    """The game's noisy_moves against the filtered legal_moves: the same moves (each as often),
    and, as the capture search sees them (``Search._order``), in the same order."""
    fast, filtered = rules.noisy_moves(pos), Rules.noisy_moves(rules, pos)
    assert sorted(fast, key=repr) == sorted(filtered, key=repr), rules.position_text(pos)
    assert rules.has_legal_move(pos) == bool(rules.legal_moves(pos)), rules.position_text(pos)
    if search is not None and fast:
        search.pos = pos
        assert search._order(fast, None, 3) == search._order(filtered, None, 3)


@pytest.mark.parametrize("game,options", ALL)
def test_noisy_moves_are_the_filtered_legal_moves_on_random_positions(game, options):
    rules = rules_of(game, options)
    search = Search(rules)
    search.killers = [[] for _ in range(8)]
    search.history = {}
    seen = {"positions": 0, "noisy": 0, "check": 0, "promotion": 0, "special": 0}
    for pos in walk(rules, 4, 3):
        same_moves(rules, pos, search)
        seen["candidates"] = seen.get("candidates", 0) + same_candidates(rules, pos)
        moves = rules.noisy_moves(pos)
        seen["positions"] += 1
        seen["noisy"] += bool(moves)
        seen["check"] += rules.in_check(pos)
        seen["promotion"] += any(m.promotion for m in moves)
        seen["special"] += any(m.special for m in moves)
    assert seen["positions"] >= 100 and seen["noisy"] >= 30, seen
    if game in ("chess", "combat", "dungeon", "kol", "chess4"):
        assert seen["check"] >= 3, seen
    if game in ("dungeon", "kol") and not options:
        assert seen["candidates"] >= seen["positions"] // 2, seen


@pytest.mark.slow
def test_the_random_positions_reach_the_rare_captures():
    """What the random play above covers: en passant and promotions in chess, Dungeon Chess's
    fragile captures (the four-player map's Skeletons), KoL Chess's ability captures (charge,
    double capture, the King's step out of his Tower)."""
    found = {}
    for game, options in (("chess", {}), ("dungeon", {"board_map": "dungeon-four-player"}), ("kol", {})):
        rules = make_rules(game, **options)
        kinds = set()
        for pos in walk(rules, 30, 3):
            for m in rules.noisy_moves(pos):
                kinds.add(m.special or ("promotion" if m.promotion else "capture"))
        found[game] = kinds
    assert {"ep", "promotion", "capture"} <= found["chess"], found
    assert {"fragile", "capture"} <= found["dungeon"], found
    assert {"charge", "double", "out", "capture"} <= found["kol"], found


@pytest.mark.parametrize("fen", [
    "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2",          # en passant
    "4k3/8/8/K2pP2r/8/8/8/8 w - d6 0 2",          # en passant that exposes the King: illegal
    "3rk3/2P5/8/8/8/8/8/4K3 w - - 0 1",           # promotions, quiet and capturing
    "4k3/8/8/8/8/8/3r4/R3K3 w Q - 0 1",           # in check: captures and blocks
    "4k3/8/8/8/1b6/8/3N4/4K3 w - - 0 1",          # a pinned knight
    "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",             # stalemate: no move at all
    "k7/P7/1K6/8/8/8/8/8 b - - 0 1",              # stalemate with a pawn on the seventh
    "4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1",          # a pinned bishop with no move along the pin
])
def test_noisy_moves_in_chess_special_positions(fen):
    rules = make_rules("chess")
    same_moves(rules, rules.position_from_text(fen))


def test_a_stalemate_is_no_legal_move_and_a_position_with_moves_is():
    rules = make_rules("chess")
    stalemate = rules.position_from_text("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    assert rules.noisy_moves(stalemate) == [] and not rules.has_legal_move(stalemate)
    only_pinned = rules.position_from_text("4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1")
    assert rules.noisy_moves(only_pinned) == [] and rules.has_legal_move(only_pinned)


def test_a_game_that_changes_legal_moves_also_gives_its_noisy_moves():
    """A class that overrides ``legal_moves`` in front of the class whose ``noisy_moves`` (or
    ``legal_candidates``) it inherits would get lists that do not know its rules: in every
    game's class (and its class with dice fights) each class before that one in the method
    order that defines ``legal_moves`` derives from it (KoL's rules from their search hooks), or
    the default is kept (``noisy_moves`` filters the game's own ``legal_moves``; no candidates)."""
    for game, options in GAMES:
        cls = type(rules_of(game, options))
        mro = cls.__mro__
        for hook, default in (("noisy_moves", Rules.noisy_moves), ("legal_candidates", None)):
            if getattr(cls, hook, None) is default:
                continue
            owner = next(c for c in mro if hook in vars(c))
            for c in mro[:mro.index(owner)]:
                assert "legal_moves" not in vars(c) or issubclass(c, owner), (cls, hook, c)


@pytest.mark.parametrize("game,options", QUICK)
def test_the_search_plays_the_same_tree_with_the_noisy_generator(game, options):
    """A fixed node budget on positions from random play: the same best move, score, depth and
    node count with ``rules.noisy_moves`` and ``rules.legal_candidates`` as with the old path
    (every legal move generated and checked, then filtered)."""
    rules = rules_of(game, options)
    positions = [p.copy() for i, p in enumerate(walk(rules, 2, 5, 80)) if i % 11 == 4][:2]
    assert positions
    for pos in positions:
        results = []
        for fast in (False, True):
            info = Search(rules, options=SearchOptions(noisy=fast, lazy_legality=fast)).run(
                pos, now=time.perf_counter, max_nodes=400)
            results.append((info.best, info.score, info.depth, info.nodes, info.pv))
        assert results[0] == results[1], rules.position_text(pos)


@pytest.mark.slow
@pytest.mark.parametrize("game,options", ALL)
def test_the_same_tree_at_a_fixed_depth_on_more_positions(game, options):
    rules = rules_of(game, options)
    positions = [p.copy() for i, p in enumerate(walk(rules, 4, 8, 100)) if i % 13 == 6][:3]
    for pos in positions:
        results = []
        for fast in (False, True):
            info = Search(rules, options=SearchOptions(noisy=fast, lazy_legality=fast)).run(
                pos, now=time.perf_counter, max_depth=3, max_nodes=2000)
            results.append((info.best, info.score, info.depth, info.nodes, info.pv))
        assert results[0] == results[1], rules.position_text(pos)


def test_every_game_has_its_own_generator():
    """The default ``noisy_moves`` only filters ``legal_moves`` (asked when it is empty,
    ``has_legal_move`` would generate them again): a game without its own keeps the search's
    old path (``SearchOptions(noisy=False)``, the reference of the tests above); every game has
    its own (Chess 2's: tests/test_noisy_chess2.py). With dice fights the layer's
    ``noisy_moves`` is the game's own where the layer leaves the game's list as it is; no game
    with fights offers ``legal_candidates``."""
    searches = {(game, fights): Search(make_rules(game, fights=fights)) for game, fights in (
        ("chess2", "none"), ("chess", "none"), ("kol", "none"), ("dungeon", "none"), ("chess4", "none"),
        ("combat", "none"), ("kol", "dice"), ("dungeon", "dice"))}
    assert not Search(make_rules("chess"), options=SearchOptions(noisy=False)).noisy
    assert all(s.noisy for s in searches.values())
    with_candidates = {key for key, s in searches.items() if s.candidates is not None}
    assert with_candidates == {("kol", "none"), ("dungeon", "none")}


def test_with_fights_a_compulsory_attack_or_a_check_keeps_the_layers_list():
    """Combat Chess: where a King must be attacked (the compulsory move) or the side to move is
    in check (the King's Prerogative), the layer filters its own ``legal_moves``."""
    rules = make_rules("combat")
    must = rules.position_from_text("4k3/8/8/8/8/8/3q4/4K3 b - - 0 1")  # Black's queen attacks the King
    assert rules.must_attack(must) and not rules._games_list(must)
    same_moves(rules, must)
    checked = rules.position_from_text("4k3/8/8/8/8/8/3q4/4K3 w - - 0 1")
    assert rules.in_check(checked) and not rules._games_list(checked)
    same_moves(rules, checked)
    quiet = rules.position_from_text("4k3/8/8/8/8/8/8/R3K3 w - - 0 1")
    assert rules._games_list(quiet)
    same_moves(rules, quiet)


# ----- two more speed-ups found by profiling KoL Chess's search: the same answers, faster ----------
def test_is_attacked_with_capture_bans_is_any_attacker_that_may_capture():
    """With capture bans (KoL's Princess takes no pawns) ``is_attacked`` answers at the first
    attacker that may capture the piece there: the same as ``bool(attackers(...))``."""
    rules = make_rules("kol")
    assert rules.capture_bans is not None
    checked = attacked = 0
    for i, pos in enumerate(walk(rules, 3, 4)):
        if i % 4:
            continue
        for sq in range(len(pos.board)):
            for by in range(pos.nplayers):
                fast = Rules.is_attacked(rules, pos, sq, by)
                assert fast == bool(Rules.attackers(rules, pos, sq, by)), (rules.position_text(pos), sq, by)
                checked += 1
                attacked += fast
    assert checked > 5000 and attacked > 1000


@pytest.mark.parametrize("options", [{}, {"fights": "dice"}], ids=["kol", "kol-dice"])
def test_kol_legality_of_a_plain_move_without_the_rest_of_perform(options, monkeypatch):
    """KoL's ``is_legal`` moves the piece (its victim taken) for a plain move or a charge instead
    of playing the whole turn: the same verdict on every pseudo-legal move of random positions."""
    from companion.games.kol import KolRules

    rules = make_rules("kol", **options)
    cases = []
    for i, pos in enumerate(walk(rules, 4, 6)):
        if i % 2 == 0:
            cases.append((pos.copy(), rules.pseudo_moves(pos, pos.turn)))
    fast = [[rules.is_legal(pos, m) for m in moves] for pos, moves in cases]
    monkeypatch.delattr(KolRules, "is_legal")  # the engine's own: perform the turn, then look
    slow = [[rules.is_legal(pos, m) for m in moves] for pos, moves in cases]
    assert fast == slow
    assert sum(map(len, fast)) > 3000 and sum(not ok for row in fast for ok in row) > 10


def test_in_check_with_no_candidate_legal_the_capture_search_asks_legal_moves():
    """In check the capture search tests its candidates' legality as it plays them; when none
    passes (a Dungeon turn that must be passed, a mate) it asks ``legal_moves`` as before. A
    game whose candidates never pass in check gives the same tree as the old path, and falls
    back at every such node."""
    rules = make_rules("dungeon")
    positions = [p.copy() for i, p in enumerate(walk(rules, 3, 9, 80)) if i % 7 == 3][:4]
    fallbacks = []
    old_qs = Search._qs

    def counting(self, alpha, beta, ply, qply, candidates=True):
        fallbacks.append(not candidates)
        return old_qs(self, alpha, beta, ply, qply, candidates)

    def never_in_check(pos, in_check=None):
        return (rules.pseudo_moves(pos, pos.turn), lambda m: False) if in_check else None

    for pos in positions:
        results = []
        for fast in (False, True):
            search = Search(rules, options=SearchOptions(noisy=fast, lazy_legality=fast))
            if fast:
                search.candidates = never_in_check
                search._qs = counting.__get__(search)
            info = search.run(pos, now=time.perf_counter, max_nodes=400)
            results.append((info.best, info.score, info.depth, info.nodes, info.pv))
        assert results[0] == results[1], rules.position_text(pos)
    assert any(fallbacks)
