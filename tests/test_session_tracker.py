"""The session drives the tracker: detected moves are played, the tracker hears of every
change, and its other outputs reach the presenters untouched."""

from companion.board.ports import SquareChanged
from companion.board.tracker import GuidanceChanged, MoveDetected, Tracker
from companion.session import ActionRefused, FightStarted, MovePlayed
from tests.session_helpers import new_session


class FakeTracker:
    """Answers each call with what the test queued for it, and logs the calls."""

    def __init__(self):
        self.calls = []
        self.queued = {}

    def _out(self, name, *args):
        self.calls.append((name, *args))
        return self.queued.pop(name, [])

    def feed(self, event):
        return self._out("feed", event)

    def tick(self, t_ms):
        return self._out("tick", t_ms)

    def choose(self, option):
        return self._out("choose", option)

    def position_changed(self):
        return self._out("position_changed")

    def request_move(self, move):
        return self._out("request_move", move)


def test_a_detected_move_is_played_and_the_tracker_is_told_the_position_changed():
    s = new_session(game="chess", dice="virtual")
    t = FakeTracker()
    s.attach_tracker(t)
    e4 = s.rules.parse_move(s.pos, "e2e4")
    t.queued["feed"] = [MoveDetected(e4, 100)]
    events = s.feed_board(SquareChanged(28, True, 100))
    assert [type(e).__name__ for e in events] == ["MovePlayed"]
    assert [c[0] for c in t.calls] == ["position_changed", "feed", "position_changed"]


def test_other_tracker_outputs_pass_through():
    s = new_session(game="chess", dice="virtual")
    t = FakeTracker()
    s.attach_tracker(t)
    t.queued["tick"] = [GuidanceChanged("put the knight back on g1")]
    assert s.tick(500) == [GuidanceChanged("put the knight back on g1")]


def test_a_promotion_chosen_on_screen_reaches_the_tracker_and_the_move_is_played():
    s = new_session(game="chess", dice="virtual", start="8/4P3/8/8/8/8/8/k3K3 w - - 0 1")
    t = FakeTracker()
    s.attach_tracker(t)
    promo = s.rules.parse_move(s.pos, "e7e8n")
    t.queued["choose"] = [MoveDetected(promo, 10)]
    events = s.choose("N")
    assert ("choose", "N") in t.calls
    assert isinstance(events[0], MovePlayed) and events[0].entry.san == "e8=N"


def test_a_capture_detected_on_the_board_opens_the_fight():
    s = new_session(dice="seeded")
    for m in ("e2e4", "d7d5"):
        s.play(m)
    t = FakeTracker()
    s.attach_tracker(t)
    t.queued["feed"] = [MoveDetected(s.rules.parse_move(s.pos, "e4d5"), 5)]
    events = s.feed_board(SquareChanged(35, True, 5))
    assert any(isinstance(e, FightStarted) for e in events)


def test_a_move_the_game_cannot_take_is_refused_and_the_tracker_guides_back():
    s = new_session(game="chess", dice="virtual")
    t = FakeTracker()
    s.attach_tracker(t)
    e4 = s.rules.parse_move(s.pos, "e2e4")
    s.offer_draw(0)  # moves wait for the answer
    t.queued["feed"] = [MoveDetected(e4, 1)]
    t.calls.clear()
    events = s.feed_board(SquareChanged(28, True, 1))
    assert isinstance(events[0], ActionRefused)
    assert t.calls[-1] == ("position_changed",)


def test_the_computer_move_is_handed_to_the_tracker_to_light():
    s = new_session(game="chess", dice="virtual")
    t = FakeTracker()
    s.attach_tracker(t)
    m = s.rules.parse_move(s.pos, "d2d4")
    s.request_move(m)
    assert t.calls[-1] == ("request_move", m)


def test_without_a_tracker_board_events_are_ignored():
    s = new_session(game="chess", dice="virtual")
    assert s.feed_board(SquareChanged(28, True, 1)) == [] and s.tick(5) == [] and s.choose("Q") == []


def test_with_the_real_tracker_a_move_made_on_the_board_is_played_after_the_settle_time():
    s = new_session(game="chess", dice="virtual")
    s.attach_tracker(Tracker(s.rules, s.pos))
    g = s.rules.geometry
    events = s.feed_board(SquareChanged(g.parse_square("e2"), False, 100))
    events += s.feed_board(SquareChanged(g.parse_square("e4"), True, 300))
    events += s.tick(2000)
    played = [e for e in events if isinstance(e, MovePlayed)]
    assert [e.entry.san for e in played] == ["e4"] and s.tracker.in_sync
