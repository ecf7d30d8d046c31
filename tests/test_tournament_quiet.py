"""Tournament mode's board: no help while a player moves (FIDE 11.3), the move judged when the
clock is pressed (6.2.1), guidance back to agreement only."""

from __future__ import annotations

import random

import pytest

from companion.board.palette import Meaning
from companion.board.ports import OccupancySnapshot, SquareChanged
from companion.board.tracker import GuidanceChanged, LedsChanged, Tracker
from companion.games.chess import ChessRules
from companion.tournament.laws import ClaimedDraws
from companion.tournament.quiet import BoardShowsIllegal, BoardShowsMove, QuietBoard, judge_board
from tests.tournament_helpers import FAST_TRACKER, Harness

# ----- a player can never be shown what is legal ----------------------------------------------------


class NoLegalMoves:
    """Rules that refuse to say what is legal: any question about moves fails the test."""

    def __init__(self, rules):
        self._rules = rules

    def __getattr__(self, name):
        if name in ("legal_moves", "is_legal", "moves_from", "pseudo_moves", "extra_moves", "parse_move", "answers"):
            raise AssertionError(f"the quiet board asked {name}() while a player moved")
        return getattr(self._rules, name)


class OtherLegalMoves:
    """Rules whose legal moves are a different (random) set."""

    def __init__(self, rules, rng):
        self._rules, self._rng = rules, rng

    def __getattr__(self, name):
        return getattr(self._rules, name)

    def legal_moves(self, pos):
        moves = self._rules.pseudo_moves(pos, pos.turn)
        return [m for m in moves if self._rng.random() < 0.5]


def random_positions(n: int, seed: int):
    rules = ChessRules()
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        pos = rules.start_position()
        for _ in range(rng.randint(0, 60)):
            moves = rules.legal_moves(pos)
            if not moves or rules.outcome(pos) is not None:
                break
            rules.apply(pos, rng.choice(moves))
        if rules.legal_moves(pos):
            out.append(pos)
    return rules, out


def random_events(rules, pos, rng, count: int):
    """What hands do: lift and put pieces anywhere, a snapshot now and then."""
    occ = set(rules.expected_occupancy(pos))
    t = 0
    events = []
    for _ in range(count):
        t += rng.randint(1, 900)
        if rng.random() < 0.05:
            events.append(OccupancySnapshot(frozenset(occ), t))
            continue
        if occ and rng.random() < 0.55:
            sq = rng.choice(sorted(occ))
            occ.discard(sq)
            events.append(SquareChanged(sq, False, t))
        else:
            sq = rng.randrange(64)
            if sq in occ:
                continue
            occ.add(sq)
            events.append(SquareChanged(sq, True, t))
    return events


def observed(board, out):
    return (tuple(out), dict(board.meanings), board.guidance, board.status, board.prompt, board.in_sync,
            board.screen_moves)


@pytest.mark.parametrize("seed", range(6))
def test_what_the_board_shows_never_depends_on_the_legal_moves(seed):
    """For random positions and random hands, a quiet board on the real rules, one on rules
    with other legal moves and one on rules that refuse to name any show exactly the same
    lights, words, questions and status until the clock is pressed."""
    base, positions = random_positions(12, seed)
    rng = random.Random(seed)
    for pos in positions:
        events = random_events(base, pos, rng, 40)
        boards = [QuietBoard(r, pos.copy(), make_tracker=Tracker, t_ms=0)
                  for r in (ClaimedDraws(base), OtherLegalMoves(base, random.Random(seed)), NoLegalMoves(base))]
        seen = None
        for ev in events:
            views = [observed(b, b.feed(ev)) for b in boards]
            assert views[0] == views[1] == views[2], ev
            for b in boards:
                views_after_tick = observed(b, b.tick(ev.t_ms + 5000))
                seen = seen if seen is not None else views_after_tick
            assert len({repr(observed(b, [])) for b in boards}) == 1
        # nothing but terrain and the last move is ever lit while a player moves
        for b in boards:
            assert set(b.meanings.values()) <= {Meaning.LAST_MOVE_FROM, Meaning.LAST_MOVE_TO}
            assert b.guidance.text == "" and b.prompt is None


def test_lifting_a_piece_lights_nothing_and_says_nothing():
    h = Harness()
    h.start()
    out = h.lift("g1")
    assert not [o for o in out if isinstance(o, LedsChanged) and o.meanings]
    assert all(not o.text for o in out if isinstance(o, GuidanceChanged))
    assert h.board.meanings == {} and h.board.status == "moving"
    out = h.put("h3") + h.settle(5000)  # a legal move, settled: still nothing
    assert h.sans() == [] and h.board.meanings == {}


def test_a_piece_put_where_it_may_not_go_is_not_flagged_before_the_press():
    h = Harness()
    h.start()
    h.move("e1", "e5")  # a king's leap
    h.settle(5000)
    assert h.board.meanings == {} and h.board.guidance.text == "" and h.sans() == []


def test_the_last_move_is_lit_when_the_players_want_it_and_not_otherwise():
    lit = Harness()
    lit.start()
    lit.play("e2", "e4")
    assert dict(lit.board.meanings) == {lit.sq("e2"): Meaning.LAST_MOVE_FROM, lit.sq("e4"): Meaning.LAST_MOVE_TO}
    dark = Harness(last_move=False)
    dark.board = QuietBoard(dark.s.rules, dark.s.pos, make_tracker=FAST_TRACKER, last_move=False)
    dark.s.attach_tracker(dark.board)
    dark.start()
    dark.play("e2", "e4")
    assert dark.sans() == ["e4"] and dict(dark.board.meanings) == {}


def test_check_is_not_lit():
    h = Harness()
    h.start()
    for a, b in (("e2", "e4"), ("f7", "f6"), ("d1", "h5")):
        h.play(a, b)
    assert h.s.in_check()
    assert Meaning.CHECK not in h.board.meanings.values()


# ----- judging the board at the press -------------------------------------------------------------------


def judge(fen: str, lifted=(), placed=(), touched=()):
    rules = ClaimedDraws(ChessRules())
    pos = rules.position_from_text(fen)
    g = rules.geometry
    E = frozenset(rules.expected_occupancy(pos))
    S = (E - {g.parse_square(x) for x in lifted}) | {g.parse_square(x) for x in placed}
    T = {g.parse_square(x) for x in touched} | {g.parse_square(x) for x in lifted}
    return rules, judge_board(rules, pos, E, frozenset(S), frozenset(T))


START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def test_a_quiet_move_is_judged_legal():
    rules, v = judge(START, ["e2"], ["e4"])
    assert isinstance(v, BoardShowsMove) and [rules.move_text(None, m) for m in v.moves] == ["e2e4"]


def test_a_capture_needs_its_victim_lifted_during_the_move():
    fen = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    _, held = judge(fen, ["e4"])  # the pawn held in the hand over d5
    assert isinstance(held, BoardShowsIllegal) and held.what == "e4 lifted"
    rules, taken = judge(fen, ["e4"], touched=["d5"])
    assert isinstance(taken, BoardShowsMove) and rules.move_text(None, taken.moves[0]) == "e4d5"


def test_castling_and_en_passant_are_judged_from_their_squares():
    fen = "r3k2r/pppq1ppp/8/3pP3/8/8/PPP2PPP/R3K2R w KQkq d6 0 10"
    rules, castle = judge(fen, ["e1", "h1"], ["g1", "f1"])
    assert rules.move_text(None, castle.moves[0]) == "e1g1"
    rules, ep = judge(fen, ["e5", "d5"], ["d6"])
    assert rules.move_text(None, ep.moves[0]) == "e5d6"


def test_a_promotion_and_two_captures_alike_need_a_choice():
    rules, promo = judge("8/4P1k1/8/8/8/8/6K1/8 w - - 0 1", ["e7"], ["e8"])
    assert promo.needs_choice and promo.is_promotion and len(promo.moves) == 4
    rules, two = judge("7k/8/8/8/8/1p1p4/2Q5/K7 w - - 0 1", ["c2"], touched=["b3", "d3"])
    assert isinstance(two, BoardShowsMove) and two.needs_choice and not two.is_promotion


def test_pressing_without_a_move_is_an_illegal_move():
    _, v = judge(START)
    assert isinstance(v, BoardShowsIllegal) and v.no_move and v.what == "no move"


@pytest.mark.parametrize("lifted, placed, what", [
    (["e1"], ["e3"], "e1-e3"),
    (["g1", "b1"], ["f3", "c3"], "emptied b1 g1, filled c3 f3"),
    (["e2"], ["e5"], "e2-e5"),
])
def test_an_illegal_move_is_described_from_its_squares(lifted, placed, what):
    _, v = judge(START, lifted, placed)
    assert isinstance(v, BoardShowsIllegal) and v.what == what


# ----- guidance back to agreement --------------------------------------------------------------------------


def test_after_an_illegal_move_the_board_is_guided_back_in_words_and_lights():
    h = Harness()
    h.start()
    h.play("e2", "e4")
    h.play("e7", "e5")
    h.move("e1", "e3")
    out = h.press()
    guidance = [o for o in out if isinstance(o, GuidanceChanged)][-1]
    assert guidance.text == "Move the white king from e3 to e1."
    assert h.board.meanings[h.sq("e3")] == Meaning.REMOVE and h.board.meanings[h.sq("e1")] == Meaning.SETUP_PLACE
    assert h.board.status == "setup"
    h.move("e3", "e1")
    assert h.board.status == "in-sync" and h.board.guidance.text == ""
    assert dict(h.board.meanings) == {h.sq("e7"): Meaning.LAST_MOVE_FROM, h.sq("e5"): Meaning.LAST_MOVE_TO}
    h.play("g1", "f3")
    assert h.sans() == ["e4", "e5", "Nf3"]


def test_a_legal_move_made_straight_from_an_illegal_one_counts_at_the_press():
    h = Harness()
    h.start()
    h.move("g1", "g3")
    h.press()
    h.lift("g3")
    h.put("f3")  # not back to g1 first: the knight goes on to a legal square
    h.press()
    assert h.sans() == ["Nf3"] and h.table.illegal == {0: 1}


def test_a_combat_fight_the_defender_wins_is_guided_back_like_any_other():
    h = Harness("combat", control="900+10")
    h.start()
    h.play("e2", "e4")
    h.play("d7", "d5")
    h.play("e4", "d5", capture=True)
    assert h.s.pending_fight() is not None and h.table.clock.paused
    while h.s.pending_fight() is not None:
        events = h.s.enter_dice([1], [[6]])
        h.table.observe(events, h.t)
    assert h.s.moves[-1].fight == "defender"
    assert h.board.status == "out-of-sync" and "white pawn" in h.board.guidance.text
    assert not h.table.clock.paused and h.table.clock.running == 1
    h.fix_board()  # occupancy is already right: the piece on d5 is the wrong one
    assert h.board.status == "out-of-sync" and h.board.meanings[h.sq("d5")] == Meaning.REMOVE
    h.lift("d5")
    h.put("d5")
    assert h.board.status == "in-sync"
    h.play("g8", "f6")
    assert h.sans()[-1] == "Nf6"
