"""A linked Dungeon Chess draft survives a power cut (docs/link.md, "What each fault does"): two
apps over loopback TCP, as tests/test_link_app.py; a board's power goes (its process state
dropped, nothing closed) mid-draft, mid-deployment, after sealing or while waiting, and a new app
on the same data folder comes back where it was. Both boards end with the same sealed armies."""

from __future__ import annotations

import pytest

from tests.test_link_app import _link, _place, _pump, _setup, _transports
from companion.link.match import free_port
from tests.ui_flow_helpers import App

GOBLINS = ("warlord", "ogre", "shaman", "goblin", "goblin", "goblin")  # 15 + 14 + 40 XP, not the default


@pytest.fixture
def boards(tmp_path):
    port = free_port()
    apps = [App(tmp_path / "host", computer=False, link_transport=_transports(port)),
            App(tmp_path / "guest", computer=False, link_transport=_transports(port))]
    yield apps, port, tmp_path
    for a in apps:
        a.flow.stop()


def _power_cut(app) -> None:
    """The power goes: the network with it; nothing is closed, nothing more is written."""
    port = app.flow.link.port
    if port is not None:
        port.stop()
    app.flow.link.port = None


def _again(apps, i, port, tmp_path, pieces=()) -> App:
    """The board comes back on the same data folder. Its pieces stood on the table through the
    power cut: the board says so as it comes up (before any time passes)."""
    new = App(tmp_path / ("host" if i == 0 else "guest"), computer=False, link_transport=_transports(port))
    apps[i] = new
    if pieces:
        new.flow.board.set_simulated(pieces)
        new.pump()
    return new


def _dungeon_agreed(boards):
    """The host proposes Dungeon Chess, the guest accepts and is asked its army."""
    apps, port, tmp_path = boards
    host, guest = apps
    _link(host, guest, "dungeon")
    _pump(host, guest, until=lambda: guest.flow.display.prompt is not None
          and guest.flow.display.prompt.kind == "link-dungeon-army")
    return apps, port, tmp_path, host, guest


def _guest_drafts(guest) -> None:
    """Draft beside the presets: the Goblins' army, then the deployment screen."""
    guest.prompt.answer("draft")
    guest.pump()
    draft = guest.presenters.draft
    draft.choose_faction("greenskin")
    draft.clear()
    for unit in GOBLINS:
        draft.add(unit)
    draft.next()
    assert guest.flow.display.screen == "deploy"


def _started(host, guest):
    """Both boards start, their boards set up: the same game on both. Returns the host's."""
    _pump(host, guest, until=lambda: guest.flow.display.screen == "setup" and host.flow.display.screen == "setup")
    _setup(host, guest)
    h, g = host.flow.game.session, guest.flow.game.session
    assert h.setup == g.setup and h.rules.position_text(h.pos) == g.rules.position_text(g.pos)
    return h


def _host_default_and_play(host, guest, apps):
    _pump(host, guest, until=lambda: host.flow.display.prompt is not None
          and host.flow.display.prompt.kind == "link-dungeon-army")
    host.prompt.answer(host.flow.display.prompt.options[0].key)  # the seat's default army
    host.pump()
    return _started(host, guest)


def _stands(session, placed) -> None:
    for unit, sq in placed:  # where the guest put them, on both boards
        piece = session.pos.board[sq]
        assert (piece.owner, piece.kind.code) == (1, session.rules.roster_kind(unit).code)


def test_a_guest_that_loses_power_mid_deployment_comes_back_to_its_draft_and_placements(boards):
    apps, port, tmp_path, host, guest = _dungeon_agreed(boards)
    _guest_drafts(guest)
    placed = _place(guest, 3)
    _power_cut(guest)
    guest = _again(apps, 1, port, tmp_path, pieces=[sq for _, sq in placed])
    _pump(host, guest, until=lambda: guest.flow.display.screen == "deploy" and guest.flow.link.port.connected)
    prep = guest.flow.dungeon.prep
    assert prep.army(1).units == GOBLINS and prep.army(1).faction == "greenskin"
    guest.clock.t += 2000
    guest.pump()
    assert [(u, sq) for _, u, sq in prep.deployment.placed] == placed  # the pieces still stand: kept
    placed += _place(guest, len(GOBLINS) - 3)
    assert guest.flow.display.screen == "link"
    assert guest.link.view().status == "Your armies are sealed. Waiting for the other board's..."
    h = _host_default_and_play(host, guest, apps)
    _stands(h, placed)


def test_a_guest_that_loses_power_on_the_draft_screen_comes_back_to_the_same_army_and_tab(boards):
    """Mid-draft (units chosen, a faction tab changed, not placed yet): the draft screen comes
    back with the army as it was, the other faction's draft kept behind its tab."""
    apps, port, tmp_path, host, guest = _dungeon_agreed(boards)
    guest.prompt.answer("draft")
    guest.pump()
    draft = guest.presenters.draft
    draft.choose_faction("human")
    draft.clear()
    draft.add("princess")
    draft.choose_faction("greenskin")
    draft.clear()
    for unit in GOBLINS[:4]:
        draft.add(unit)
    _power_cut(guest)
    guest = _again(apps, 1, port, tmp_path)
    assert guest.flow.display.screen == "draft"
    prep = guest.flow.dungeon.prep
    assert prep.army(1).faction == "greenskin" and prep.army(1).units == GOBLINS[:4]
    guest.presenters.draft.choose_faction("human")
    assert prep.army(1).units == ("princess",)  # the other tab's draft, kept too
    guest.presenters.draft.choose_faction("greenskin")
    for unit in GOBLINS[4:]:
        guest.presenters.draft.add(unit)
    guest.presenters.draft.next()
    placed = _place(guest, len(GOBLINS))
    h = _host_default_and_play(host, guest, apps)
    _stands(h, placed)


def test_a_guest_that_loses_power_after_sealing_waits_for_the_other_and_never_drafts_again(boards):
    """Sealed, then the power goes; the other board seals meanwhile. Back, the guest's link
    screen says its armies are sealed (nothing is asked), and both boards start from the armies
    sealed before the power cut."""
    apps, port, tmp_path, host, guest = _dungeon_agreed(boards)
    _guest_drafts(guest)
    placed = _place(guest, len(GOBLINS))
    link = tmp_path / "guest" / "link"
    assert not (link / "draft.json").exists()  # sealed: the link journal holds it now
    _pump(host, guest, until=lambda: ("setup", 1) in host.flow.link.linked.st.commits)
    _power_cut(guest)
    host.prompt.answer(host.flow.display.prompt.options[0].key)  # the host seals while the guest is away
    host.pump()
    guest = _again(apps, 1, port, tmp_path)
    assert guest.flow.display.screen == "link" and guest.flow.display.prompt is None
    assert guest.link.view().status == "Your armies are sealed. Waiting for the other board's..."
    h = _started(host, guest)
    _stands(h, placed)


def test_a_host_that_loses_power_while_waiting_for_the_guests_armies_starts_the_game_when_it_is_back(boards):
    apps, port, tmp_path = boards
    host, guest = apps
    _link(host, guest, "dungeon")
    _pump(host, guest, until=lambda: host.flow.display.prompt is not None
          and host.flow.display.prompt.kind == "link-dungeon-army"
          and guest.flow.display.prompt is not None)
    host.prompt.answer(host.flow.display.prompt.options[0].key)  # sealed, waiting for the guest's
    _pump(host, guest, until=lambda: ("setup", 0) in guest.flow.link.linked.st.commits)
    sealed = dict(host.flow.link.linked.st.sealed)
    _power_cut(host)
    _guest_drafts(guest)
    placed = _place(guest, len(GOBLINS))  # the guest seals meanwhile
    host = _again(apps, 0, port, tmp_path)  # the host listens on the same port again
    assert host.flow.link.linked.st.sealed == sealed and host.flow.display.prompt is None
    h = _started(host, guest)
    _stands(h, placed)


def _cut_mid_draft(boards):
    """The guest drafts and places two units; its power goes. Returns the apps and the draft file."""
    apps, port, tmp_path, host, guest = _dungeon_agreed(boards)
    _guest_drafts(guest)
    _place(guest, 2)
    path = tmp_path / "guest" / "link" / "draft.json"
    assert path.stat().st_mode & 0o777 == 0o600  # the app's user only, as every link file
    text = path.read_text()
    assert "warlord" in text and "nonce" not in text and "key" not in text
    _power_cut(guest)
    return apps, port, tmp_path, path


def _refused_then_played(apps, port, tmp_path, path, said):
    guest = _again(apps, 1, port, tmp_path)
    host = apps[0]
    notice = guest.flow.display.notice
    assert notice.startswith("Not taken up: the saved draft cannot be used: ") and said in notice, notice
    assert "\n" not in notice and notice.endswith("Choose the armies again; nothing else is lost.")
    assert not path.exists() and path.with_name("draft.damaged.json").exists()  # set aside, kept
    prompt = guest.flow.display.prompt  # the armies asked again; the agreed game, the pairing: all there
    assert guest.flow.display.screen == "link" and prompt.kind == "link-dungeon-army"
    assert guest.flow.link.linked.proposal.game == "dungeon" and guest.flow.link.linked.st.accepted
    guest.prompt.answer(prompt.options[0].key)
    guest.pump()
    _host_default_and_play(host, guest, apps)


def test_a_damaged_saved_draft_is_refused_in_one_line_and_nothing_else_is_lost(boards):
    apps, port, tmp_path, path = _cut_mid_draft(boards)
    path.write_text(path.read_text().replace("\"warlord\"", "\"goblin\""))  # one unit changed: the checksum fails
    _refused_then_played(apps, port, tmp_path, path, "damaged (its checksum does not match)")


def test_a_saved_draft_that_is_not_json_is_refused_in_one_line(boards):
    apps, port, tmp_path, path = _cut_mid_draft(boards)
    path.write_bytes(path.read_bytes()[:40])  # torn
    _refused_then_played(apps, port, tmp_path, path, "draft.json")


def test_the_saved_draft_of_another_game_is_refused_in_one_line(boards):
    from companion.link.store import LinkStore

    apps, port, tmp_path, path = _cut_mid_draft(boards)
    store = LinkStore(tmp_path / "guest")
    progress = __import__("json").loads(path.read_text())["progress"]
    store.save_draft(game=1, game_id="game-99", me=1, progress=progress)  # whole and checked, but not this game's
    _refused_then_played(apps, port, tmp_path, path, "the draft of another game (game 1, game-99)")


def test_a_saved_draft_whose_units_the_rules_refuse_is_refused_in_one_line(boards):
    from companion.link.store import LinkStore

    apps, port, tmp_path, path = _cut_mid_draft(boards)
    value = __import__("json").loads(path.read_text())
    value["progress"]["armies"]["1"]["units"].append("princess")  # a human unit in a greenskin army
    LinkStore(tmp_path / "guest").save_draft(game=1, game_id=value["game_id"], me=1, progress=value["progress"])
    _refused_then_played(apps, port, tmp_path, path, "greenskin")


def test_leaving_the_link_screen_gives_the_game_being_set_up_up(boards):
    """Cancel on the link screen: the next start does not take that game up again."""
    apps, port, tmp_path = boards
    host, guest = apps
    _link(host, guest, "dungeon")
    _pump(host, guest, until=lambda: guest.flow.display.prompt is not None)
    guest.flow.display.prompt = None
    guest.link.cancel()
    assert guest.flow.display.screen == "start"
    _power_cut(guest)
    guest = _again(apps, 1, port, tmp_path)
    assert guest.flow.display.screen == "start" and guest.flow.link.linked is None


def test_the_power_going_between_the_last_opening_and_the_games_first_line_starts_the_game_when_back(boards):
    """Both boards' armies opened on the guest, its game's journal not yet written (the power
    went between the two): back, the lobby starts the game from the same openings."""
    apps, port, tmp_path = boards
    host, guest = apps
    _link(host, guest, "dungeon")
    _pump(host, guest, until=lambda: guest.flow.display.prompt is not None and host.flow.display.prompt is not None)
    _guest_drafts(guest)
    placed = _place(guest, len(GOBLINS))
    host.prompt.answer(host.flow.display.prompt.options[0].key)
    _pump(host, guest, until=lambda: guest.flow.display.screen == "setup" and host.flow.display.screen == "setup")
    _power_cut(guest)
    (tmp_path / "guest" / "current.jsonl").unlink()
    guest = _again(apps, 1, port, tmp_path)
    _stands(_started(host, guest), placed)


def _proposed(host, guest, remote=(1,), board_map=None):
    """The host proposes Dungeon Chess with ``remote`` seats at the guest's board; the guest has
    typed the code and is asked to play."""
    host.start.choose_game("dungeon")
    if board_map:
        host.start.choose_map(board_map)
    for seat in remote:
        host.start.open_kind(seat)
        host.start.pick_kind("Friend's board")
    host.start.start()
    host.pump()
    guest.start.join()
    guest.pump()
    for digit in "00000000":
        guest.link.key(digit)
    _pump(host, guest, until=lambda: guest.flow.display.prompt is not None)
    assert guest.flow.display.prompt.kind == "link-proposal"


def _four_players(host, guest):
    """Four-player Dungeon Chess, Red and Yellow at the guest's board."""
    _proposed(host, guest, (1, 3), "dungeon-four-player")
    guest.prompt.answer("accept")
    _pump(host, guest, until=lambda: guest.flow.display.prompt is not None
          and guest.flow.display.prompt.kind == "link-dungeon-army")


def test_an_army_chosen_for_the_first_of_two_seats_is_kept_through_a_power_cut(boards):
    """Red's army chosen from the list, the power goes before Yellow's: back, Yellow's is asked
    (Red's stands), and the game starts with both as chosen."""
    apps, port, tmp_path = boards
    host, guest = apps
    _four_players(host, guest)
    assert guest.flow.display.prompt.title.startswith("Red's army")
    guest.prompt.answer("human-balanced")
    guest.pump()
    assert guest.flow.display.prompt.title.startswith("Yellow's army")
    _power_cut(guest)
    guest = _again(apps, 1, port, tmp_path)
    prompt = guest.flow.display.prompt
    assert prompt is not None and prompt.title.startswith("Yellow's army"), prompt
    guest.prompt.answer("greenskin-midrange")
    guest.pump()
    for name in ("human-balanced", "redskin-elite"):
        _pump(host, guest, until=lambda: host.flow.display.prompt is not None
              and host.flow.display.prompt.kind == "link-dungeon-army")
        host.prompt.answer(name)
        host.pump()
    h = _started(host, guest)
    assert "(1HE)" in h.rules.position_text(h.pos)  # Red plays the Humans, as chosen before the power cut
    assert not (tmp_path / "guest" / "link" / "draft.json").exists()


def test_a_saved_army_choice_that_is_not_one_the_seat_may_play_is_refused_in_one_line(boards):
    from companion.link.store import LinkStore

    apps, port, tmp_path = boards
    host, guest = apps
    _four_players(host, guest)
    guest.prompt.answer("human-balanced")
    guest.pump()
    _power_cut(guest)
    LinkStore(tmp_path / "guest").save_draft(game=1, game_id="game-1", me=1,
                                            progress={"presets": {"1": "skeleton-swarm"}})  # 56 units: no room
    guest = _again(apps, 1, port, tmp_path)
    notice = guest.flow.display.notice
    assert notice == ("Not taken up: the saved draft cannot be used: 'skeleton-swarm' is not an army seat 1 may "
                      "play here. Choose the armies again; nothing else is lost."), notice
    assert guest.flow.display.prompt.title.startswith("Red's army")


def test_a_draft_that_cannot_be_kept_on_a_full_card_goes_on_and_says_so_in_one_line(boards, monkeypatch):
    import errno

    apps, port, tmp_path, host, guest = _dungeon_agreed(boards)
    guest.prompt.answer("draft")
    guest.pump()

    def full(**_kw):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(guest.flow.link.store, "save_draft", full)
    guest.presenters.draft.clear()
    assert guest.flow.display.notice == ("The draft cannot be kept on this board (No space left on device); it goes "
                                         "on, but a power cut would lose it.")
    assert guest.flow.display.screen == "draft" and guest.flow.dungeon.prep.army(1).units == ()


def test_a_guest_that_loses_power_before_answering_the_proposal_is_asked_again(boards):
    apps, port, tmp_path = boards
    host, guest = apps
    _proposed(host, guest)
    _power_cut(guest)
    guest = _again(apps, 1, port, tmp_path)
    assert guest.flow.display.screen == "link" and guest.flow.display.prompt.kind == "link-proposal"
    guest.prompt.answer("accept")
    _pump(host, guest, until=lambda: guest.flow.display.prompt is not None
          and guest.flow.display.prompt.kind == "link-dungeon-army")
    guest.prompt.answer(guest.flow.display.prompt.options[0].key)
    guest.pump()
    _host_default_and_play(host, guest, apps)
