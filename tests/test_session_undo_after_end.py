"""Undo after the game is over (issue 17): "Players may undo their last move (reverting both
their move and the AI's response)" (Dungeon Chess rulebook) - also when that response ended the
game. Casual play allows it on every game (GameSetup.undo_after_end, the one switch tournament
mode turns off), guided on the board like any undo; never with seeded dice (their seed is
revealed at the end), nor after a resignation or an agreed draw (the players decided those)."""

import pytest

from companion.board.ports import SquareChanged
from companion.board.tracker import Tracker
from companion.errors import IllegalMoveError
from companion.games import make_rules
from companion.session import GameOver, GameSetup, Seat, Session, TurnsUndone
from tests.dungeon_board import position
from tests.session_helpers import HUMANS, VS_COMPUTER, new_session, play_all


def _fools_mate(s):
    """The person (White) walks into the computer's mate: f3, e5, g4, Qh4#."""
    return play_all(s, "f2f3", "e7e5", "g2g4", "d8h4")


def test_a_move_lost_to_the_computers_mate_is_taken_back_with_the_mate():
    """"reverting both their move and the AI's response": after Qh4# the person's g4 and the
    mate go back, the game goes on with the person to move, and the journal replays it."""
    written = []
    s = new_session(recorder=written.append, game="chess", dice="virtual", seats=VS_COMPUTER)
    events = _fools_mate(s)
    assert any(isinstance(e, GameOver) for e in events) and s.is_over
    assert s.setup.undo_after_end and s.can_undo()
    events = s.undo()
    assert isinstance(events[0], TurnsUndone) and [m.san for m in events[0].entries] == ["g4", "Qh4#"]
    assert not s.is_over and s.result is None and s.turn == 0 and [m.san for m in s.moves] == ["f3", "e5"]
    s.play("g2g3")  # and play goes on
    again, used, problem = Session.replay(written)
    assert problem is None and used == len(written)
    assert [m.san for m in again.moves] == ["f3", "e5", "g3"] and not again.is_over


def test_a_won_game_can_be_taken_back_too_between_two_people():
    s = new_session(game="chess", dice="virtual", seats=HUMANS)
    _fools_mate(s)
    assert s.result.winners == {1}
    s.undo()
    assert [m.san for m in s.moves] == ["f3", "e5", "g4"] and s.turn == 1 and not s.is_over


def test_a_dungeon_king_taken_after_a_forced_pass_is_taken_back_with_the_pass():
    """Dungeon Chess: the person, in check and without a legal move, passes (the publisher's
    reading); the computer takes the King. Undo takes back both; the person is to move again."""
    r = make_rules("dungeon", "dungeon-compact")
    pos = position(r, {"a1": (0, "princess"), "a10": (1, "stronghold"), "b10": (1, "stronghold"),
                       "j2": (1, "stronghold"), "j1": (1, "stronghold"), "b2": (1, "hero"),
                       "j10": (1, "warlord")})
    setup = GameSetup("dungeon", (Seat("Blue"), Seat("Red", True, 1)), start=r.position_text(pos),
                      board_map="dungeon-compact")
    s, _ = Session.new(setup)
    s.play("pass")
    assert s.computer_to_move() == 1
    events = s.play("a10a1")
    assert events[-1].result.winners == {1} and events[-1].result.reason == "King captured"
    s.undo()
    assert s.result is None and s.turn == 0 and s.moves == [] and s.pos.snapshot() == s.rules.position_from_text(
        setup.start).snapshot()


def test_the_board_is_guided_back_after_an_undo_of_the_end_like_any_undo():
    """With the real tracker: the mate was made on the board; after the undo the lights ask
    for h4 back to d8 and g4 back to g2, and the board is in step again once that is done."""
    s = new_session(game="chess", dice="virtual", seats=VS_COMPUTER)
    s.attach_tracker(Tracker(s.rules, s.pos, settle_ms=50))
    g = s.rules.geometry
    t = 0

    def hand(frm, to):
        nonlocal t
        t += 1000
        s.feed_board(SquareChanged(g.parse_square(frm), False, t))
        s.feed_board(SquareChanged(g.parse_square(to), True, t + 100))
        return s.tick(t + 500)

    for frm, to in (("f2", "f3"), ("e7", "e5"), ("g2", "g4"), ("d8", "h4")):
        hand(frm, to)
    assert s.is_over and s.tracker.in_sync
    s.undo()
    assert not s.tracker.in_sync
    pairs = {(g.name_of(a), g.name_of(b)) for a, b in s.tracker.guidance.pairs}
    assert pairs == {("h4", "d8"), ("g4", "g2")}
    hand("h4", "d8")
    hand("g4", "g2")
    assert s.tracker.in_sync and not s.is_over


def test_not_with_seeded_dice_whose_seed_the_end_revealed():
    """Combat Chess with seeded dice: the end reveals the seed, so the dice after a takeback
    could be foreseen; the game stays over (a mate without a fight: the fool's mate)."""
    s = new_session(game="combat", dice="seeded", seats=HUMANS)
    events = _fools_mate(s)
    assert next(e for e in events if isinstance(e, GameOver)).revealed_seed == s.setup.seed
    assert not s.setup.undo_after_end and not s.can_undo()
    with pytest.raises(IllegalMoveError, match="seed is revealed"):
        s.undo()


def test_with_virtual_dice_a_lost_fight_of_the_king_is_taken_back():
    """Combat Chess: a King that loses a fight loses the game; casual play takes it back."""
    s = new_session(game="combat", dice="virtual", seats=HUMANS, start="4k3/8/8/8/8/8/4q3/4K3 w - - 0 1")
    s.play("e1e2")
    s.enter_dice([1], [[10]])
    assert s.is_over and s.result.winners == {1}
    s.undo()
    assert not s.is_over and s.moves == [] and s.pos.pending is None and s.record.rounds == ()


@pytest.mark.parametrize("end", ["resign", "agree"])
def test_not_after_a_resignation_or_an_agreed_draw(end):
    s = new_session(game="chess", dice="virtual", seats=HUMANS)
    play_all(s, "e2e4", "e7e5")
    if end == "resign":
        s.resign(0)
    else:
        s.offer_draw(0)
        s.answer_draw(True)
    assert s.is_over and not s.can_undo()
    with pytest.raises(IllegalMoveError, match="ended by agreement"):
        s.undo()
