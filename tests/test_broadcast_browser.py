"""The spectator page and the hall page in a real browser (headless Chromium): the board the
page draws is the game's position, for chess, a Combat Chess fight, a four-player Dungeon on
20x20, KoL Chess with its coloured squares, four-player chess (points, a dead army) and Dungeon
Chess with dice fights (their results in the move list); screenshots of a board page and of a 20-board hall go to the README."""

import os
import shutil
from pathlib import Path

import pytest

from companion.broadcast.board_server import BoardServer
from companion.broadcast.snapshot import take_snapshot
from tests.broadcast_helpers import (
    HallWatch, chess4_session, chess_session, chromium, dom_boards, dungeon_session, expected_pieces, fights_session,
    kol_session,
)
from tests.png_check import colour_count, read_png

pytestmark = pytest.mark.slow  # headless Chromium: seconds a page

HERE = Path(__file__).resolve().parent
SHOTS = HERE / "screenshots" / "broadcast"
DOCS = HERE.parent / "docs" / "screenshots"


def keep(shot: Path, name: str) -> None:
    """A screenshot the README shows: copied to docs/screenshots when missing (or asked)."""
    w, h, _, _ = read_png(shot)
    assert w > 600 and h > 400 and colour_count(shot) > 20, f"{shot} is (nearly) blank"
    if os.environ.get("COMPANION_UPDATE_SCREENSHOTS") == "1" or not (DOCS / name).exists():
        DOCS.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(shot, DOCS / name)


def hall_page(hall, tmp_path, name: str, size: tuple[int, int]):
    """The hall's page in Chromium: its screenshot (tests/screenshots/broadcast/``name``) and DOM."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    shot = SHOTS / name
    return shot, chromium(f"http://127.0.0.1:{hall.port}/", tmp_path, screenshot=shot, size=size)


def serve(session):
    server = BoardServer("page test", "127.0.0.1", 0)
    server.start()
    server.publish(take_snapshot(session, 1, 0, server.name))
    return server


@pytest.mark.parametrize("name, make", [
    ("chess", lambda: chess_session("e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6")),
    ("combat-fight", lambda: chess_session("e2e4", "d7d5", "e4d5", game="combat")),
    ("dungeon-20x20", dungeon_session),
    ("kol", lambda: kol_session("f1g1in", "f11f9", "f2f4")),
    ("chess4", chess4_session),
    ("dungeon-fights", fights_session),
])
def test_the_spectator_page_draws_the_games_position(tmp_path, name, make):
    session = make()
    server = serve(session)
    shot = SHOTS / f"broadcast-{name}.png" if name in ("kol", "chess4") else None
    try:
        dom = chromium(f"http://127.0.0.1:{server.port}/", tmp_path, screenshot=shot, size=(1100, 740))
    finally:
        server.stop()
    if name == "kol":  # KoL Chess: its coloured squares, as the touchscreen draws them
        keep(shot, "broadcast-kol.png")
        assert 'class="tint green"' in dom and 'class="tint blue"' in dom
    if name == "chess4":  # four colours, the points beside the names, the dead army grey
        keep(shot, "broadcast-chess4.png")
        points = session.pos.var("points")
        assert dom.count('class="points"') == 4 and f"{points[0]} pts" in dom and "out" in dom
        live_king = 1
        assert dom.count('data-dead="1"') == len(session.pos.occ[1]) - live_king > 0
    if name == "dungeon-fights":  # each fight's result in the move list
        assert dom.count('class="fight-mark') == sum(1 for m in session.moves if m.fight) >= 2
    boards = dom_boards(dom)
    assert len(boards) == 1
    expected = expected_pieces(session)
    if session.pending_fight() is not None:  # the attacker stands where it moved, as on the board
        fight = session.pending_fight()
        g = session.rules.geometry
        expected[g.name_of(fight.defenders[0].square)] = expected.pop(g.name_of(fight.attacker.square))
    assert boards[0] == expected
    assert session.seats[0].name in dom
    assert 'class="moves"' in dom and dom.count('class="move"') == len(session.moves)


def test_a_clocked_board_page_screenshot(tmp_path):
    from tests.test_broadcast_session import TableBoard

    board = TableBoard("900+10")
    for uci, ms in [("e2e4", 5_000), ("c7c5", 8_000), ("g1f3", 3_000), ("d7d6", 11_000), ("d2d4", 6_000),
                    ("c5d4", 2_000), ("f3d4", 1_500), ("g8f6", 9_000), ("b1c3", 4_000), ("a7a6", 25_000)]:
        board.move(uci, ms)
    server = BoardServer("club-board-07", "127.0.0.1", 0, clock_ms=board.clock_ms)
    server.start()
    server.publish(take_snapshot(board.table, 1, board.t, server.name))
    SHOTS.mkdir(parents=True, exist_ok=True)
    shot = SHOTS / "board-page.png"
    try:
        dom = chromium(f"http://127.0.0.1:{server.port}/", tmp_path, screenshot=shot, size=(1100, 740))
    finally:
        server.stop()
    assert dom_boards(dom)[0] == expected_pieces(board.session)
    assert len(board.session.moves) == 10 and "Anna" in dom and "Round 3" in dom
    keep(shot, "broadcast-board.png")


def test_a_hall_of_20_boards_in_the_browser(tmp_path):
    from companion.broadcast.fleet import FleetBoard
    from companion.broadcast.hall import HallServer

    openings = ["e2e4 e7e5 g1f3", "d2d4 d7d5 c2c4 e7e6", "c2c4 g8f6", "e2e4 c7c5 g1f3 d7d6 d2d4 c5d4", "g1f3",
                "e2e4 e7e6 d2d4 d7d5", "d2d4 g8f6 c2c4 g7g6 b1c3 f8g7", ""]
    boards = [FleetBoard(n, tmp_path / f"board-{n}", heartbeat=1.0) for n in range(1, 21)]
    hall = None
    try:
        for b in boards:
            b.start()
        for b in boards:
            for uci in openings[b.number % len(openings)].split():
                b.move(uci)
        hall = HallServer("127.0.0.1", 0, boards=[f"127.0.0.1:{b.server.port}" for b in boards], discover=False)
        hall.start()
        watch = HallWatch(hall.port)
        watch.until(lambda s: len(s) == 20 and all(x["status"] == "live" for x in s.values()), 30)
        boards[19].stop()  # board 20 goes off the network
        gone = f"http://127.0.0.1:{boards[19].server.port}"
        watch.until(lambda s: s[gone]["status"] == "off", 20)
        watch.close()
        shot, dom = hall_page(hall, tmp_path, "hall-20-boards.png", (1400, 1740))
    finally:
        if hall is not None:
            hall.stop()
        for b in boards[:19]:
            b.server.thread.request_stop()
        for b in boards[:19]:
            b.stop()
    drawn = dom_boards(dom)
    assert len(drawn) == 20
    assert sorted(map(frozenset, (d.items() for d in drawn)), key=len) == \
        sorted(map(frozenset, (expected_pieces(b.table.session).items() for b in boards)), key=len)
    assert dom.count("status-off") == 1 and "Off the network" in dom
    keep(shot, "broadcast-hall.png")


def test_the_hall_page_shows_why_a_board_is_refused(tmp_path):
    """A hall with the round key: the real boards 1 and 2, a device claiming board 1 without the
    key, and a board whose data says a result its PGN does not have; the page says why."""
    import json

    from functools import partial

    from companion.broadcast.board_server import monotonic_ms
    from companion.broadcast.hall import HallServer
    from tests.test_broadcast_admission import KEY, LyingBoard, admission, data_of
    from tests.test_broadcast_admission import table as paired

    key = bytes.fromhex(KEY)
    table = partial(paired, t0=monotonic_ms() - 40_000)  # clocks that run on the servers' clock
    real = BoardServer("club board 1", "127.0.0.1", 0)
    second = BoardServer("club board 2", "127.0.0.1", 0)
    impostor = BoardServer("Round 2 Board 1", "127.0.0.1", 0)
    lie = json.loads(data_of(table(board="3", white="Guest One", black="Guest Two", moves=("d2d4", "d7d5"))))
    lie["result"] = "1-0"
    liar = LyingBoard(json.dumps(lie))
    boards = (real, second, impostor, liar)
    hall = None
    try:
        for b in boards:
            b.start()
        now = monotonic_ms()
        real.publish(take_snapshot(table(moves=("e2e4", "e7e5", "g1f3")), 1, now, real.name), key)
        second.publish(take_snapshot(table(board="2", white="Nils Dahl", black="Sara Lund", moves=("c2c4",)), 1, now,
                                     second.name), key)
        impostor.publish(take_snapshot(table(white="Mallory", black="Eve", resign=0), 1, now, impostor.name))
        hall = HallServer("127.0.0.1", 0, boards=[f"127.0.0.1:{b.port}" for b in boards], admission=admission())
        hall.start()
        watch = HallWatch(hall.port)
        watch.until(lambda s: len(s) == 4 and sorted(x["status"] for x in s.values()) ==
                    ["live", "live", "refused", "refused"], 20)
        watch.close()
        shot, dom = hall_page(hall, tmp_path, "hall-refused.png", (1100, 760))
    finally:
        if hall is not None:
            hall.stop()
        for b in boards:
            b.stop()
    assert dom.count("status-refused") == 2 and dom.count("status-live") == 2
    assert "Refused: its data is not signed with the round key" in dom
    assert "Refused: its data says result 1-0 but its PGN says *" in dom
    assert len(dom_boards(dom)) == 2  # only the admitted boards are drawn
    keep(shot, "broadcast-hall-refused.png")
