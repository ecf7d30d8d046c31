"""Chess 2's capture-search lists (companion/games/chess2_search.py): ``noisy_moves`` gives
exactly the legal captures (the abilities' too), promotions and Midline Invasions that filtering
``legal_moves`` gives, ``has_legal_move`` is ``bool(legal_moves)``, in every army; and the search
plays the same tree with them as with the path they replace (the search's own ``capture_moves``
branch, kept here as a reference: :func:`old_capture_moves`) and as with every legal move
filtered (``SearchOptions(noisy=False)``): the same nodes, best move, score and principal
variation at a fixed depth.

Positions come from seeded random play that prefers captures and King moves (so duels,
king-turns, en passant, the abilities' captures, checks and Kings on the midline come up:
the coverage is asserted), pending decisions (a duel offered, a king-turn, a bluff's choice,
the bids) included, plus hand-made positions: Kings that can cross the midline, promotions,
no legal move."""

import itertools
import random
import time

import pytest

from companion.ai.search import Search, SearchOptions
from companion.core.moves import Answer, Move
from companion.core.rules import Rules
from companion.games.chess2 import Chess2Rules
from tests.chess2_helpers import game, pos_of

ARMIES = ("classic", "animals", "reaper", "two-kings", "nemesis", "empowered")
#: every army at least once, each as white and as black (the quick loop)
PAIRS = [("classic", "classic"), ("animals", "reaper"), ("two-kings", "nemesis"), ("nemesis", "empowered"),
         ("empowered", "two-kings"), ("reaper", "animals")]


def pairs(chosen):
    return [pytest.param(w, b, id=f"{w}-{b}") for w, b in chosen]

#: a King that can cross the midline next move (the mover's fifth rank, or beyond), or cannot
CROSSING = [
    ("classic", "classic", "8/8/8/3k4/8/8/8/R3K3 b - - 0 1"),          # black's King: c4, d4, e4 win
    ("classic", "classic", "8/8/8/3k4/R7/8/8/4K3 b - - 0 1"),          # the rook holds the fourth rank
    ("classic", "classic", "4k3/8/8/3n4/3K4/8/8/8 w - - 0 1"),         # the King crosses capturing
    ("classic", "classic", "4k3/2n5/8/8/3K4/8/8/8 w - - 0 1"),         # the knight guards d5, not c5 or e5
    ("two-kings", "classic", "4k3/8/8/4K3/3K4/8/8/8 w - - 0 1"),       # one King across, the other next to it
    ("two-kings", "classic", "4k3/8/8/8/3K4/8/4K3/8 w - - 0 1"),       # one King far: no move wins
    ("animals", "reaper", "2b2b2/ppppp1pp/2n1r3/1N5k/3PP3/3rB3/PP1KBP2/R2Q4 b - - 6 15"),  # a match's race
    ("nemesis", "two-kings", "8/8/8/3k4/3k4/8/8/4K3 b - - 0 1"),        # black's Kings: d4 across, d5 steps
]


#: promotions (the random games end by Midline Invasion long before a pawn gets there)
PROMOTING = [
    ("classic", "classic", "3r3k/2P5/8/8/8/8/8/4K3 w - - 0 1"),        # a push and a capture promote
    ("nemesis", "classic", "5k2/3P4/8/8/8/8/8/4K3 w - - 0 1"),         # the Nemesis pawn's step to e8 too
    ("animals", "reaper", "3r3k/2P5/8/8/8/8/8/4K3 w - - 0 1"),         # a Ghost on d8 is never captured
]

#: no legal move (Chess 2 has no stalemate: the side to move loses), or only a pinned piece's
STUCK = [
    ("classic", "classic", "k7/8/1Q6/8/8/8/8/7K b - - 0 1"),           # no move, not in check
    ("classic", "classic", "k7/8/1Q6/8/8/8/8/r6K b - - 0 1"),          # the rook has moves
    ("classic", "classic", "4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1"),       # a pinned bishop, the King moves
]


def crossing_positions(table=CROSSING):
    out = []
    for white, black, fen in table:
        r = game(white, black)
        out.append((r, pos_of(r, fen, stones="3,3")))
    return out


def walk(rules, games: int, seed: int, longest: int = 120):
    """Every position of ``games`` seeded random games, pending decisions included: a capture
    or promotion chosen 40% of the time when there is one, a King move 25% of the time. One
    position object, played on: copy what you keep."""
    rng = random.Random(seed)
    for _ in range(games):
        pos = rules.start_position()
        for _ply in range(rng.randint(10, longest)):
            if rules.outcome(pos) is not None:
                break
            yield pos
            pend = pos.pending
            if pend is not None:
                if pend.get("players"):
                    first, second = pend.get("options")
                    rules.apply(pos, Answer(pend.kind, (rng.choice(first), rng.choice(second))))
                else:
                    rules.apply(pos, rng.choice(list(rules.answers(pos))))
                continue
            moves = rules.legal_moves(pos)
            if not moves:
                break
            noisy = [m for m in moves if m.capture is not None or m.promotion]
            kings = [m for m in moves if pos.board[m.frm].kind.royal]
            roll = rng.random()
            rules.apply(pos, rng.choice(noisy) if noisy and roll < 0.4 else
                        rng.choice(kings) if kings and roll < 0.65 else rng.choice(moves))


def old_capture_moves(rules, pos):
    """The capture search's moves before ``noisy_moves`` (race.py's ``_capture_moves``, removed):
    every pseudo-legal move generated, the captures, promotions and moves that win at once kept,
    their legality tested alone (with the pin shortcut); of the rest only whether one is legal."""
    if pos.pending is not None or rules.is_over(pos):
        return [], False
    kept, rest = [], []
    for m in rules.pseudo_moves(pos, pos.turn):
        (kept if m.capture is not None or m.promotion or rules.wins_at_once(pos, m) else rest).append(m)
    out = rules._legal(pos, kept)
    return out, bool(out) or any(rules.is_legal(pos, m) for m in rest)


def with_old_lists(armies):
    """A rules object of its own (not the shared one of ``rules_for``) answering the capture
    search with :func:`old_capture_moves` (the search's old branch: the kept legal moves, or
    "legal moves but none kept": stand pat; none: the end)."""
    rules = Chess2Rules(armies)
    assert rules is not game(*armies)
    rules.noisy_moves = lambda pos: old_capture_moves(rules, pos)[0]
    rules.has_legal_move = lambda pos: old_capture_moves(rules, pos)[1]
    return rules


def same_lists(rules, pos):
    """noisy_moves against legal_moves filtered (each move as often) and against the old lists;
    has_legal_move against legal_moves."""
    fast, filtered = rules.noisy_moves(pos), Rules.noisy_moves(rules, pos)
    text = rules.position_text(pos)
    assert sorted(fast, key=repr) == sorted(filtered, key=repr), text
    assert sorted(fast, key=repr) == sorted(old_capture_moves(rules, pos)[0], key=repr), text
    assert rules.has_legal_move(pos) == bool(rules.legal_moves(pos)), text
    return fast


def _count(seen, rules, pos, moves):
    seen["positions"] += 1
    if pos.pending is not None:
        seen[pos.pending.kind] = seen.get(pos.pending.kind, 0) + 1
        return
    seen["noisy"] += bool(moves)
    seen["win"] += any(rules.wins_at_once(pos, m) for m in moves)
    seen["promotion"] += any(m.promotion for m in moves)
    seen["no move"] += not rules.legal_moves(pos)
    seen["check"] += rules.in_check(pos)
    for m in moves:
        if m.special:
            seen[m.special] = seen.get(m.special, 0) + 1


@pytest.mark.parametrize("white,black", pairs(PAIRS))
def test_noisy_moves_are_the_filtered_legal_moves_in_every_army(white, black):
    rules = game(white, black)
    seen = {"positions": 0, "noisy": 0, "win": 0, "promotion": 0, "no move": 0, "check": 0}
    for pos in walk(rules, 5, 11):
        _count(seen, rules, pos, same_lists(rules, pos))
    assert seen["positions"] >= 150 and seen["noisy"] >= 40 and seen.get("duel", 0) >= 3, seen


@pytest.mark.slow
def test_noisy_moves_in_every_match_up():
    """All 36 match-ups, more games: the abilities' captures (a Tiger's pounce, a rampage, a
    Whirlwind, en passant), promotions and Midline Invasions all come up."""
    seen = {"positions": 0, "noisy": 0, "win": 0, "promotion": 0, "no move": 0, "check": 0}
    for i, (white, black) in enumerate(itertools.product(ARMIES, ARMIES)):
        rules = game(white, black)
        for pos in walk(rules, 3, 100 + i, 140):
            _count(seen, rules, pos, same_lists(rules, pos))
    assert seen["win"] >= 20 and seen["check"] >= 50, seen
    assert {"pounce", "rampage", "whirlwind", "ep", "duel", "bids", "king-turn"} <= set(seen), seen


def test_noisy_moves_where_a_king_can_cross_the_midline():
    wins = []
    for rules, pos in crossing_positions():
        moves = same_lists(rules, pos)
        wins.append(sorted(rules.move_text(pos, m) for m in moves if rules.wins_at_once(pos, m)))
    assert wins == [["d5c4", "d5d4", "d5e4"], [], ["d4c5", "d4d5", "d4e5"], ["d4c5", "d4e5"], ["d4c5", "d4d5"],
                    [], ["h5h4"], ["d5c4", "d5e4"]], wins


def test_promotions():
    found = []
    for rules, pos in crossing_positions(PROMOTING):
        found.append(sorted(rules.move_text(pos, m) for m in same_lists(rules, pos)))
        new, old, filtered = search_results(rules, pos, 2, 2000)
        assert new == old == filtered, rules.position_text(pos)
    assert found == [[f"c7{t}{p}" for t in ("c8", "d8") for p in "bnqr"], [f"d7{t}{p}" for t in ("d8", "e8") for p in "bnqr"],
                     [f"c7c8{p}" for p in "bnqr"]], found


def test_no_legal_move_and_only_a_few():
    has = []
    for rules, pos in crossing_positions(STUCK):
        same_lists(rules, pos)
        has.append(rules.has_legal_move(pos))
        new, old, filtered = search_results(rules, pos, 2, 2000)
        assert new == old == filtered, rules.position_text(pos)
    assert has == [False, True, True]


def test_no_list_while_a_decision_is_pending_or_once_a_king_has_crossed():
    rules = game("classic")
    pos = pos_of(rules, "4k3/8/8/3n4/3K4/8/8/8 w - - 0 1", stones="3,3")
    rules.apply(pos, Move(rules.geometry.parse_square("d4"), rules.geometry.parse_square("d5"),
                          rules.geometry.parse_square("d5")))
    assert rules.is_over(pos) and rules.noisy_moves(pos) == [] and not rules.has_legal_move(pos)
    duel = pos_of(rules, "4k3/8/8/3n4/4B3/8/8/4K3 w - - 0 1", stones="3,3")
    rules.apply(duel, Move(rules.geometry.parse_square("e4"), rules.geometry.parse_square("d5"),
                           rules.geometry.parse_square("d5")))
    assert duel.pending is not None and duel.pending.kind == "duel"
    assert rules.noisy_moves(duel) == [] and not rules.has_legal_move(duel) and rules.legal_moves(duel) == []


def search_results(rules, pos, depth: int, max_nodes: int | None = None):
    """(best, score, depth, nodes, pv) of a fresh search on the new lists, on the old ones (the
    reference) and on every legal move filtered."""
    out = []
    assert "noisy_moves" not in vars(rules)  # the shared rules object: the game's own lists
    for make in (lambda: (rules, SearchOptions()), lambda: (with_old_lists(rules.armies), SearchOptions()),
                 lambda: (rules, SearchOptions(noisy=False))):
        r, options = make()
        s = Search(r, options=options)
        assert s.noisy is options.noisy
        i = s.run(pos.copy(), now=time.process_time, max_depth=depth, max_nodes=max_nodes)
        out.append((str(i.best), i.score, i.depth, i.nodes, tuple(map(str, i.pv))))
    return out


def _positions(rules, seed: int, count: int, every: int = 9):
    """``count`` positions of seeded random play the search may start from: nothing pending or
    a choice (a duel offered, a king-turn; not the bids)."""
    out = []
    for i, pos in enumerate(walk(rules, 6, seed, 90)):
        pend = pos.pending
        if i % every == 4 and (pend is None or not pend.get("players")) and rules.outcome(pos) is None:
            out.append(pos.copy())
        if len(out) == count:
            break
    return out


@pytest.mark.parametrize("white,black", pairs(PAIRS[:3]))
def test_the_search_plays_the_same_tree_with_the_new_lists(white, black):
    rules = game(white, black)
    for pos in _positions(rules, 21, 2):
        new, old, filtered = search_results(rules, pos, 2)
        assert new == old == filtered, rules.position_text(pos)


@pytest.mark.slow
@pytest.mark.parametrize("white,black", pairs(PAIRS))
def test_the_same_tree_at_depth_2_and_3_on_more_positions(white, black):
    rules = game(white, black)
    for k, pos in enumerate(_positions(rules, 22, 4, 7)):
        new, old, filtered = search_results(rules, pos, 3 if k % 2 else 2, 4000)
        assert new == old == filtered, rules.position_text(pos)


def test_the_same_tree_where_a_king_can_cross_the_midline():
    for rules, pos in crossing_positions():
        new, old, filtered = search_results(rules, pos, 3, 3000)
        assert new == old == filtered, rules.position_text(pos)


@pytest.mark.slow
def test_the_same_tree_from_duels_and_king_turns():
    """Choice nodes at the root: a duel offered (pass or duel), a Two Kings king-turn."""
    kinds = {}
    for i, (white, black) in enumerate((("classic", "animals"), ("two-kings", "reaper"), ("nemesis", "two-kings"))):
        rules = game(white, black)
        found = [p.copy() for p in walk(rules, 8, 40 + i, 90) if p.pending is not None and not p.pending.get("players")]
        for pos in found[::max(1, len(found) // 4)][:4]:
            kinds[pos.pending.kind] = kinds.get(pos.pending.kind, 0) + 1
            new, old, filtered = search_results(rules, pos, 2, 3000)
            assert new == old == filtered, rules.position_text(pos)
    assert kinds.get("duel", 0) >= 2 and kinds.get("king-turn", 0) >= 2, kinds


def test_the_key_is_gone_and_the_previous_level_never_asks_the_new_lists():
    """One mechanism: a table naming ``capture_moves`` is refused; the frozen previous level
    (its own capture search over ``legal_moves``, its frozen tables without the key) plays
    without ever asking ``noisy_moves`` or ``has_legal_move``, as it did before they existed."""
    from companion.ai.eval_table import table_for
    from companion.ai.previous import previous_player
    from companion.errors import VariantError

    rules = Chess2Rules(("animals", "reaper"))  # its own: the shared one is left alone
    with pytest.raises(VariantError, match="unknown key 'capture_moves'"):
        table_for(rules, {"capture_moves": True})

    def refuse(pos):
        raise AssertionError("the previous level asked the capture search's new lists")

    rules.noisy_moves = rules.has_legal_move = refuse
    pos = crossing_positions()[6][1]
    player = previous_player(rules, random.Random(1))
    assert "capture_moves" not in player.search.ev.table.settings
    info = player.search.run(pos, now=time.process_time, max_depth=2)
    assert info.best is not None and info.nodes > 100
