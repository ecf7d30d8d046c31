"""A linked Dungeon Chess draft survives a power cut (docs/link.md, "What each fault does"): two
apps over loopback TCP, as tests/test_link_app.py; a board's power goes (its process state
dropped, nothing closed) mid-draft, mid-deployment, after sealing or while waiting, and a new app
on the same data folder comes back where it was. Both boards end with the same sealed armies."""

from __future__ import annotations

import pytest

from tests.test_link_app import _link, _pump, _setup, _transports
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


def _guest_drafts(guest, place: int) -> list:
    guest.prompt.answer("draft")
    guest.pump()
    draft = guest.presenters.draft
    draft.choose_faction("greenskin")
    draft.clear()
    for unit in GOBLINS:
        draft.add(unit)
    draft.next()
    assert guest.flow.display.screen == "deploy"
    placed = []
    for _ in range(place):
        dep = guest.flow.dungeon.prep.deployment
        sq = max(dep.free_squares())
        placed.append((dep.next_unit()[1], sq))
        guest.board.tap(sq)
        guest.pump()
        guest.clock.t += 2000
        guest.pump()
    return placed


def _place(app, n: int) -> list:
    """``n`` units placed by hand: each on the lit square furthest forward and to the right."""
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


def _host_default_and_play(host, guest, apps):
    _pump(host, guest, until=lambda: host.flow.display.prompt is not None
          and host.flow.display.prompt.kind == "link-dungeon-army")
    host.prompt.answer(host.flow.display.prompt.options[0].key)  # the seat's default army
    host.pump()
    _pump(host, guest, until=lambda: guest.flow.display.screen == "setup" and host.flow.display.screen == "setup")
    _setup(host, guest)
    h, g = host.flow.game.session, guest.flow.game.session
    assert h.setup == g.setup and h.rules.position_text(h.pos) == g.rules.position_text(g.pos)
    return h


def _stands(session, placed) -> None:
    for unit, sq in placed:  # where the guest put them, on both boards
        piece = session.pos.board[sq]
        assert (piece.owner, piece.kind.code) == (1, session.rules.roster_kind(unit).code)


def test_a_guest_that_loses_power_mid_deployment_comes_back_to_its_draft_and_placements(boards):
    apps, port, tmp_path = boards
    host, guest = apps
    _link(host, guest, "dungeon")
    _pump(host, guest, until=lambda: guest.flow.display.prompt is not None
          and guest.flow.display.prompt.kind == "link-dungeon-army")
    placed = _guest_drafts(guest, 3)
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
