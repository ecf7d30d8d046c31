"""A game with a friend's board in the app, without Kivy: two apps (host and guest), each with
its simulated board, linked over loopback TCP through the product's own rooms and presenters:
the code shown and typed on the number pad, the game agreed, moves sensed on one board lit and
guided on the other, a Combat Chess fight's dice from both boards, a Chess 2 duel's sealed bids,
a takeback asked and answered."""

import re
import time

import pytest

from companion.link.transport import TcpGuest, TcpHost
from companion.link.match import free_port
from tests.ui_flow_helpers import App


def _transports(port):
    def make(role, nameplate):
        return TcpHost("127.0.0.1", port) if role == "host" else TcpGuest(("127.0.0.1", port))
    return make


def _pump(*apps, until, seconds=10.0):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        for a in apps:
            a.pump()
        if until():
            return
        time.sleep(0.005)
    raise AssertionError("the two boards did not get there in time")


@pytest.fixture
def pair(tmp_path):
    port = free_port()
    host = App(tmp_path / "host", computer=False, link_transport=_transports(port))
    guest = App(tmp_path / "guest", computer=False, link_transport=_transports(port))
    yield host, guest
    for a in (host, guest):
        a.flow.stop()


def _link(host, guest, game):
    host.start.choose_game(game)
    host.start.open_kind(1)
    host.start.pick_kind("Friend's board")
    assert host.start.view().seats[1].kind == "Friend's board"
    host.start.start()
    host.pump()
    view = host.link.view()
    assert host.flow.display.screen == "link" and view.code == "00 000 000" and not view.typing
    guest.start.join()
    guest.pump()
    assert guest.flow.display.screen == "link" and guest.link.view().typing
    for digit in "0000000":
        guest.link.key(digit)
    assert guest.link.view().code == "00 000 00_"
    guest.link.key("0")
    _pump(host, guest, until=lambda: guest.flow.display.prompt is not None)
    assert guest.flow.display.prompt.kind == "link-proposal"
    guest.prompt.answer("accept")


def _setup(*apps):
    for a in apps:
        a.setup.fill()
        a.pump()
    assert all(a.flow.display.screen == "game" for a in apps)


def test_a_chess_game_with_a_friends_board_moves_sensed_here_and_guided_there(pair):
    host, guest = pair
    _link(host, guest, "chess")
    _pump(host, guest, until=lambda: guest.flow.display.screen == "setup" and host.flow.display.screen == "setup")
    _setup(host, guest)
    assert "Linked game" in host.flow.display.banner
    host.tap("e2", "e4")  # sensed on the host's board, sent
    _pump(host, guest, until=lambda: len(guest.flow.game.session.moves) == 1)
    assert guest.flow.game.session.moves[0].move == "e2e4"
    assert not guest.flow.board.in_sync  # the guest's board is guided to make it
    guest.tap("e2", "e4")  # the guest makes the host's move on its own board
    _pump(host, guest, until=lambda: guest.flow.board.in_sync)
    guest.tap("e7", "e5")
    _pump(host, guest, until=lambda: len(host.flow.game.session.moves) == 2)
    host.tap("e7", "e5")
    _pump(host, guest, until=lambda: host.flow.board.in_sync)
    # a takeback is asked of the other board and answered there
    guest.bar.undo() if hasattr(guest.bar, "undo") else guest.flow.play.undo()
    _pump(host, guest, until=lambda: host.flow.display.prompt is not None)
    assert host.flow.display.prompt.kind == "link-takeback"
    host.prompt.answer("accept")
    _pump(host, guest, until=lambda: len(guest.flow.game.session.moves) == 1 == len(host.flow.game.session.moves))


def test_a_combat_fight_rolls_from_both_boards_secrets(pair):
    host, guest = pair
    _link(host, guest, "combat")
    _pump(host, guest, until=lambda: guest.flow.display.screen == "setup" and host.flow.display.screen == "setup")
    _setup(host, guest)
    assert host.flow.game.session.setup.dice == "linked"
    for app, other, move in ((host, guest, "e2e4"), (guest, host, "d7d5")):
        app.tap(move[:2], move[2:])
        _pump(host, guest, until=lambda: len(other.flow.game.session.moves) == len(app.flow.game.session.moves))
        other.tap(move[:2], move[2:])
        _pump(host, guest, until=lambda: other.flow.board.in_sync)
    host.tap("d5", "e4", "d5")  # a capture (the taken pawn lifted first): a fight
    _pump(host, guest, until=lambda: host.flow.play.fight is not None and host.flow.play.fight.rounds
          and guest.flow.play.fight is not None and guest.flow.play.fight.rounds)
    assert host.fight.view().rounds or host.fight.phase() in ("rolling", "done", "again")
    h, g = host.flow.game.session, guest.flow.game.session
    assert h.record.rounds == g.record.rounds and h.record.rounds[0].link is not None


def _both(host, guest, app, other, *taps):
    """``app``'s player moves on its board; the other board's player makes it on theirs."""
    app.tap(*taps)
    _pump(host, guest, until=lambda: len(other.flow.game.session.moves) == len(app.flow.game.session.moves))
    other.tap(*taps)
    _pump(host, guest, until=lambda: other.flow.board.in_sync)


def test_a_chess2_duel_between_two_boards_each_bid_sealed_until_both_are_in(pair):
    host, guest = pair
    _link(host, guest, "chess2")
    _pump(host, guest, until=lambda: all(a.flow.display.prompt is not None and a.flow.display.prompt.kind == "link-army"
                                         for a in (host, guest)))
    host.prompt.answer("classic")
    guest.prompt.answer("animals")  # each army kept secret until both are chosen
    _pump(host, guest, until=lambda: guest.flow.display.screen == "setup" and host.flow.display.screen == "setup")
    assert host.flow.game.session.setup.option_values["armies"] == "classic,animals"
    _setup(host, guest)
    _both(host, guest, host, guest, "e2", "e4")
    _both(host, guest, guest, host, "d7", "d5")
    host.tap("d5", "e4", "d5")  # a capture the defender may duel
    _pump(host, guest, until=lambda: guest.duel.view() is not None and guest.duel.view().phase == "offer")
    guest.duel.choose("duel")
    _pump(host, guest, until=lambda: host.duel.view() is not None and host.duel.view().phase == "bid"
          and guest.duel.view().phase == "bid")
    host.duel.choose("1")
    host.duel.act()
    _pump(host, guest, until=lambda: host.duel.view().phase == "wait" and guest.flow.game.session.sealed_players == (0,))
    assert not any(e.get("type") == "part" for e in guest.flow.game.session.history)  # sealed, not known there
    guest.duel.choose("2")
    guest.duel.act()
    _pump(host, guest, until=lambda: host.duel.view().phase == "result" and guest.duel.view().phase == "result")
    for app in (host, guest):
        effects = app.flow.game.session.moves[-1].effects
        assert ("bids", 1, 2, "defender") in effects


def test_a_board_that_loses_power_takes_the_linked_game_up_again_and_nothing_is_lost(pair, tmp_path):
    host, guest = pair
    _link(host, guest, "chess")
    _pump(host, guest, until=lambda: guest.flow.display.screen == "setup" and host.flow.display.screen == "setup")
    _setup(host, guest)
    _both(host, guest, host, guest, "e2", "e4")
    _both(host, guest, guest, host, "e7", "e5")
    # the guest's power goes: its network with it; nothing is closed properly
    guest.flow.link.port.stop()
    guest.flow.link.port = None
    host.tap("g1", "f3")  # journaled and applied here; the guest cannot hear it now
    host.pump()
    again = App(tmp_path / "guest", computer=False, link_transport=_transports(_port_of(host)))
    _pump(host, again, until=lambda: again.flow.display.screen == "resume")
    again.resume.accept()
    _pump(host, again, until=lambda: len(again.flow.game.session.moves) == 3)  # the move it missed, resent
    assert again.flow.game.session.linked.me == 1
    again.setup.fill()
    again.pump()
    _both(host, again, again, host, "b8", "c6")
    assert [m.move for m in host.flow.game.session.moves] == [m.move for m in again.flow.game.session.moves]
    again.flow.stop()


def _place(app, n: int) -> list:
    """``n`` units placed by hand on the deployment screen: each on the lit square furthest
    forward and to the right; returns (unit, square) of each."""
    placed = []
    for _ in range(n):
        dep = app.flow.dungeon.prep.deployment
        sq = max(dep.free_squares())
        placed.append((dep.next_unit()[1], sq))
        app.board.tap(sq)
        app.pump()
        app.clock.t += 2000
        app.pump()
    return placed


def _port_of(app) -> int:
    return app.flow.link.port.transport._listener.getsockname()[1]



def test_a_four_player_dungeon_game_with_two_seats_at_each_board(pair):
    """Dungeon Chess for four, Blue and Green at the host's board, Red and Yellow at the guest's:
    each board's armies placed and sealed, a round of moves, each made at its player's board and
    guided on the other."""
    host, guest = pair
    host.start.choose_game("dungeon")
    host.start.choose_map("dungeon-four-player")
    for seat in (1, 3):
        host.start.open_kind(seat)
        host.start.pick_kind("Friend's board")
    assert [s.kind for s in host.start.view().seats] == ["Person", "Friend's board", "Person", "Friend's board"]
    host.start.start()
    host.pump()
    assert host.flow.display.screen == "link"
    guest.start.join()
    guest.pump()
    for digit in "00000000":
        guest.link.key(digit)
    _pump(host, guest, until=lambda: guest.flow.display.prompt is not None)
    assert "You play: Red, Yellow" in guest.flow.display.prompt.title
    guest.prompt.answer("accept")
    # each board chooses its own seats' armies, the seat's default first, kept secret
    for app, choices in ((host, ("human-balanced", "redskin-elite")), (guest, ("human-balanced", "greenskin-midrange"))):
        for name, choice in zip(("Blue", "Green") if app is host else ("Red", "Yellow"), choices):
            _pump(host, guest, until=lambda: app.flow.display.prompt is not None
                  and app.flow.display.prompt.kind == "link-dungeon-army")
            prompt = app.flow.display.prompt
            assert prompt.title.startswith(f"{name}'s army") and not prompt.cancel
            assert "skeleton-swarm" not in [o.key for o in prompt.options]  # 56 units: not on a 3-row zone
            app.prompt.answer(choice)
            app.pump()
    _pump(host, guest, until=lambda: guest.flow.display.screen == "setup" and host.flow.display.screen == "setup")
    _setup(host, guest)
    h, g = host.flow.game.session, guest.flow.game.session
    assert h.setup == g.setup and len(h.setup.seats) == 4
    text = h.rules.position_text(h.pos)
    assert "(2HE)" in text and "(1HE)" in text and not h.in_check()  # Red plays the Humans, as chosen
    for ply in range(4):
        seat = h.pos.turn
        app, other = (host, guest) if seat in (0, 2) else (guest, host)
        s = app.flow.game.session
        move, squares = next((t, m.groups()) for t in (s.rules.move_text(s.pos, m) for m in s.rules.legal_moves(s.pos))
                             if (m := re.fullmatch(r"([a-t]\d+)([a-t]\d+)", t)))
        _both(host, guest, app, other, *squares)
        assert h.moves[-1].move == g.moves[-1].move == move
    assert len(h.moves) == len(g.moves) == 4


def test_a_cut_connection_is_said_at_once_and_a_move_made_meanwhile_arrives_when_it_is_back(tmp_path):
    port = free_port()
    cut = []
    guest_link = TcpGuest(find=lambda: None if cut else ("127.0.0.1", port))
    host = App(tmp_path / "host", computer=False, link_transport=lambda role, nameplate: TcpHost("127.0.0.1", port))
    guest = App(tmp_path / "guest", computer=False, link_transport=lambda role, nameplate: guest_link)
    try:
        _link(host, guest, "chess")
        _pump(host, guest, until=lambda: guest.flow.display.screen == "setup" and host.flow.display.screen == "setup")
        _setup(host, guest)
        assert host.flow.display.banner == "Linked game: connected"  # white to move at the host
        assert guest.flow.display.banner == "Linked game: waiting for the other board"
        cut.append(True)
        guest_link.drop()
        _pump(host, guest, until=lambda: all("reconnecting" in a.flow.display.banner for a in (host, guest)))
        host.tap("e2", "e4")  # made while the boards are apart: journaled, sent when they meet again
        assert len(host.flow.game.session.moves) == 1 and not guest.flow.game.session.moves
        cut.clear()
        _pump(host, guest, until=lambda: len(guest.flow.game.session.moves) == 1)
        _pump(host, guest, until=lambda: host.flow.display.banner == "Linked game: waiting for the other board"
              and guest.flow.display.banner == "Linked game: connected")
        assert guest.flow.game.session.moves[0].move == "e2e4"
    finally:
        for a in (host, guest):
            a.flow.stop()


@pytest.mark.slow
def test_the_reed_switch_to_led_bench_runs_two_apps_through_a_short_game():
    """companion bench --only link's two-app figures (no times asserted: the bench reports them)."""
    from companion.app.link_bench import bench_link_boards

    rows = bench_link_boards(quick=True)
    assert [r[0].split(",")[0] for r in rows][:2] == ["link: reed switch to the other board's LEDs"] * 2
    assert all(value > 0 and unit == "ms" for _, value, unit in rows)
    whole, settle, rest = rows[0][1], rows[2][1], rows[3][1]
    assert settle < whole and rest < whole


def test_the_start_screens_open_options_go_into_the_proposal(tmp_path):
    """Dice fights on any game and four-player chess's mode travel with the proposal."""
    from companion.app.presenters.messages import LinkGame
    from companion.session import Seat

    app = App(tmp_path, computer=False, link_transport=_transports(free_port()))
    try:
        seats = tuple(Seat(f"P{i}") for i in range(4))
        app.flow.link.pending = LinkGame("chess4", seats, frozenset({1, 3}), "g-1", fights=True,
                                         options=(("mode", "teams"),))
        proposal = app.flow.link._proposal()
        assert dict(proposal.options) == {"mode": "teams", "fights": "dice"} and proposal.boards == (0, 1, 0, 1)
    finally:
        app.flow.stop()


def test_four_player_chess_and_dice_fights_from_the_start_screen_go_to_the_friends_board(pair, tmp_path):
    host, guest = pair
    p = host.start
    p.choose_game("chess4")
    p.choose_option("mode=teams")
    for seat in (1, 3):
        p.open_kind(seat)
        p.pick_kind("Friend's board")
    p.open_kind(0)
    p.pick_kind("Friend's board")
    assert [s.kind for s in p.view().seats].count("Friend's board") == 3
    p.open_kind(2)
    p.pick_kind("Friend's board")  # all four away: refused in one line, the seat stays here
    assert p.view().problem.startswith("One player at least plays at this board")
    p.start()
    host.pump()
    pending = host.flow.link.pending
    assert pending.game == "chess4" and pending.remote == frozenset({0, 1, 3}) and dict(pending.options) == {"mode": "teams"}
    assert host.flow.link._proposal().boards == (1, 1, 0, 1)
    other = App(tmp_path / "other", computer=False, link_transport=_transports(free_port()))
    try:
        other.start.choose_game("kol")
        other.start.toggle_fights()  # KoL Chess with dice fights
        other.start.open_kind(1)
        other.start.pick_kind("Friend's board")
        other.start.start()
        proposal = other.flow.link._proposal()
        assert proposal.game == "kol" and dict(proposal.options) == {"fights": "dice"}
    finally:
        other.flow.stop()


def test_a_linked_dungeon_army_drafted_unit_by_unit_and_placed_by_hand_stays_sealed_until_both_are_in(pair):
    """"Draft your army (75 XP)", "Deploy units in your spawn zone", across two boards: the guest
    taps Draft beside the presets, drafts Red's army on the local draft screen and places it by
    hand on its board; sealed, the host sees nothing of it until its own army is in."""
    host, guest = pair
    _link(host, guest, "dungeon")
    _pump(host, guest, until=lambda: guest.flow.display.prompt is not None
          and guest.flow.display.prompt.kind == "link-dungeon-army")
    options = [o.key for o in guest.flow.display.prompt.options]
    assert options[-1] == "draft" and len(options) > 2  # Draft beside the presets
    guest.prompt.answer("draft")
    guest.pump()
    draft = guest.presenters.draft
    assert guest.flow.display.screen == "draft" and draft.view().title == "Red army"
    draft.clear()
    draft.choose_faction("greenskin")
    draft.clear()
    for unit in ("warlord", "ogre", "shaman", "goblin", "goblin", "goblin"):
        draft.add(unit)
    draft.add("shaman")  # 15 + 14 + 40 + 15 = 84 XP: over the budget, said on the screen
    assert draft.view().over_budget and not draft.view().ready
    draft.next()
    assert guest.flow.display.screen == "draft" and "over the 75 XP budget by 9" in guest.flow.display.notice
    draft.remove("shaman")
    view = draft.view()
    assert view.ready and view.next_label == "Place on the board"
    draft.next()
    assert guest.flow.display.screen == "deploy"
    deploy = guest.presenters.deploy
    assert deploy.view().players == ("Red 0 of 6 placed",)  # this board's seat only: the host's is sealed there
    placed = _place(guest, 6)
    assert guest.flow.display.screen == "link"
    assert guest.link.view().status == "Your armies are sealed. Waiting for the other board's..."
    _pump(host, guest, until=lambda: ("setup", 1) in host.flow.link.linked.st.commits)
    st = host.flow.link.linked.st
    assert ("setup", 1) not in st.opened and host.flow.game.session is None  # sealed: nothing of it here
    assert host.flow.display.prompt.kind == "link-dungeon-army"
    host.prompt.answer(host.flow.display.prompt.options[0].key)  # the seat's default army
    host.pump()
    _pump(host, guest, until=lambda: guest.flow.display.screen == "setup" and host.flow.display.screen == "setup")
    _setup(host, guest)
    h, g = host.flow.game.session, guest.flow.game.session
    assert h.setup == g.setup and h.rules.position_text(h.pos) == g.rules.position_text(g.pos)
    for unit, sq in placed:  # where the guest put them, on both boards
        piece = h.pos.board[sq]
        assert (piece.owner, piece.kind.code) == (1, h.rules.roster_kind(unit).code)


def test_back_from_a_linked_draft_asks_the_army_again_and_nothing_is_sealed(pair):
    """Back on the first seat's draft (as on one board it leaves the draft): the choice of armies
    is asked again, the presets and Draft; nothing was sealed meanwhile."""
    host, guest = pair
    _link(host, guest, "dungeon")
    _pump(host, guest, until=lambda: guest.flow.display.prompt is not None
          and guest.flow.display.prompt.kind == "link-dungeon-army")
    guest.prompt.answer("draft")
    guest.pump()
    assert guest.flow.display.screen == "draft"
    guest.presenters.draft.back()
    guest.pump()
    prompt = guest.flow.display.prompt
    assert guest.flow.display.screen == "link" and prompt.kind == "link-dungeon-army"
    assert prompt.options[-1].key == "draft" and guest.flow.link.linked.st.choices is None
    assert guest.flow.link.linked is not None and guest.flow.dungeon.prep is None
    guest.prompt.answer(prompt.options[0].key)
    guest.pump()
    _pump(host, guest, until=lambda: ("setup", 1) in host.flow.link.linked.st.commits)
