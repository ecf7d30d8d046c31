"""Levels: 1 (beginner, human mistakes on purpose) up to max (strongest), chosen per seat,
deterministic for a given seed."""

import random
import time

import pytest

from companion.ai.levels import LEVELS, STRONGEST, ComputerPlayer, LevelError, parse_level
from companion.errors import CompanionError
from companion.games import make_rules


@pytest.fixture(scope="module")
def chess():
    return make_rules("chess")


def test_level_names():
    assert parse_level("max") is STRONGEST and STRONGEST.is_strongest
    assert parse_level("1").number == 1 and parse_level(" 3 ").number == 3
    assert parse_level(len(LEVELS)) is STRONGEST
    assert [lv.number for lv in LEVELS] == list(range(1, len(LEVELS) + 1))


@pytest.mark.parametrize("text", ["0", "7", "-1", "strong", "", "1.5"])
def test_unknown_level_is_a_clear_error(text):
    with pytest.raises(LevelError, match=r"does not exist; use 1 \(beginner\) to 6, or max"):
        parse_level(text)
    assert issubclass(LevelError, CompanionError)


def play_sequence(rules, level, seed, plies=12):
    """The moves a seat plays against itself from the start, with a node limit."""
    player = ComputerPlayer(rules, parse_level(level), random.Random(seed))
    pos = rules.start_position()
    out = []
    for _ in range(plies):
        info = player.choose(pos, now=time.perf_counter, budget=None, max_nodes=400)
        out.append(rules.move_text(pos, info.best))
        rules.play(pos, info.best)
    return out


def test_beginner_is_deterministic_for_a_seed(chess):
    assert play_sequence(chess, "1", 42) == play_sequence(chess, "1", 42)


def test_beginner_varies_with_the_seed(chess):
    games = {tuple(play_sequence(chess, "1", s, plies=8)) for s in range(4)}
    assert len(games) > 1


def test_strongest_uses_no_randomness(chess):
    assert play_sequence(chess, "max", 1, plies=6) == play_sequence(chess, "max", 99, plies=6)


HANGING = [  # white can take an undefended black queen
    "4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1",
    "4k3/8/2q5/8/8/5B2/8/4K3 w - - 0 1",
    "4k3/8/8/8/4q3/8/3N1P2/4K3 w - - 0 1",
    "3k4/8/8/8/q7/8/8/R3K3 w - - 0 1",
]


def takes_queen(rules, level, text, seed):
    pos = rules.position_from_text(text)
    info = ComputerPlayer(rules, parse_level(level), random.Random(seed)).choose(
        pos, now=time.perf_counter, budget=None, max_nodes=3000)
    victim = pos.board[info.best.capture] if info.best.capture is not None else None
    return victim is not None and victim.kind.code == "Q"


def test_beginner_sometimes_misses_a_hanging_queen_the_strongest_never_does(chess):
    beginner = [takes_queen(chess, "1", t, seed) for t in HANGING for seed in range(8)]
    strongest = [takes_queen(chess, "max", t, 0) for t in HANGING]
    assert all(strongest)
    assert 0 < sum(beginner) < len(beginner)  # it usually sees it, but not always


def test_levels_grow_stronger_in_depth():
    depths = [lv.max_depth for lv in LEVELS[:-1]]
    assert depths == sorted(depths)
    assert LEVELS[0].quiescence is False and all(lv.quiescence for lv in LEVELS[1:])
    noises = [lv.noise for lv in LEVELS]
    assert noises == sorted(noises, reverse=True) and noises[-1] == 0


def test_each_seat_has_its_own_level(chess):
    pos = chess.start_position()
    a = ComputerPlayer(chess, parse_level("1"), random.Random(1))
    b = ComputerPlayer(chess, parse_level("max"), random.Random(1))
    assert a.search is not b.search and a.level != b.level
    for p in (a, b):
        assert p.choose(pos, now=time.perf_counter, budget=None, max_nodes=500).best in chess.legal_moves(pos)


#: Won FIDE endings against a bare King (White to move): a Queen, a Rook, two Rooks, Queen and
#: Rook, a Queen with a Pawn, from the middle, the corner and the edge.
WON_ENDINGS = [
    "8/8/8/4k3/8/8/8/4K2Q w - - 0 1",
    "8/8/8/4k3/8/8/8/R3K3 w - - 0 1",
    "8/8/3k4/8/8/8/8/R3K2R w - - 0 1",
    "7k/8/8/8/8/8/8/1Q2K3 w - - 0 1",
    "k7/8/8/8/8/8/8/4K2R w - - 0 1",
    "8/8/8/8/3k4/8/3P4/3QK3 w - - 0 1",
    "8/5k2/8/8/8/8/1R6/1R2K3 w - - 0 1",
    "4k3/8/8/8/8/8/8/3QKR2 w - - 0 1",
]


def test_a_bare_king_is_recognised_for_the_player_to_move(chess):
    from companion.ai.levels import against_bare_royals

    assert against_bare_royals(chess.position_from_text(WON_ENDINGS[0]))
    assert not against_bare_royals(chess.position_from_text("8/8/8/4k3/8/8/8/4K2Q b - - 0 1"))  # the bare side
    assert not against_bare_royals(chess.start_position())
    assert not against_bare_royals(chess.position_from_text("8/8/8/4k3/4p3/8/8/4K2Q w - - 0 1"))


@pytest.mark.slow
@pytest.mark.parametrize("level", [lv.number for lv in LEVELS])
def test_every_level_mates_from_won_endings_against_random_moves(chess, level):
    """Level 1 used to stalemate 3 of 8 such games (or hang its Queen to a random reply)."""
    from companion.ai.match import make_player, play_game

    for i, fen in enumerate(WON_ENDINGS):
        players = {0: make_player(str(level), chess, random.Random(f"{level}:{i}")),
                   1: make_player("random", chess, random.Random(f"random:{i}"))}
        result = play_game(chess, players, random.Random(0), now=time.perf_counter, budget=None, max_nodes=800,
                           max_plies=200, seats_of_a=frozenset({0}), position=chess.position_from_text(fen))
        assert (result.winner, result.reason) == ("A", "checkmate"), (fen, result.reason, result.actions)
