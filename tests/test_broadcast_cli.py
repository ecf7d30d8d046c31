"""The command line of the broadcast: ``companion --broadcast`` and ``companion hall``; the
hall's own endpoints are read-only too, and what boards send is shown escaped."""

import argparse
import subprocess
import sys

import pytest

from companion.broadcast.board_server import BoardServer
from companion.broadcast.cli import read_board_list, run
from companion.broadcast.hall import HallServer
from companion.broadcast.snapshot import take_snapshot
from companion.broadcast.web import parse_address
from companion.errors import BroadcastError
from companion.session import GameSetup, Seat, Session
from tests.broadcast_helpers import HallWatch, get


@pytest.mark.parametrize("text, expected", [("8080", ("", 8080)), (":8080", ("", 8080)),
                                            ("0.0.0.0:80", ("0.0.0.0", 80)), ("[::1]:9", ("::1", 9)),
                                            ("board-7.local:8080", ("board-7.local", 8080))])
def test_addresses_are_host_and_port(text, expected):
    assert parse_address(text) == expected


@pytest.mark.parametrize("text", ["", "http", "80a", "host:99999", "a b:80", "host/x:80", "-1"])
def test_a_wrong_address_is_one_clear_error(text):
    with pytest.raises(BroadcastError, match="HOST|port|host"):
        parse_address(text)


def test_a_wrong_broadcast_address_stops_the_app_before_any_window_with_one_line():
    r = subprocess.run([sys.executable, "-m", "companion", "--broadcast", "nowhere:port"], capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "port must be a number" in r.stderr


def test_a_board_list_names_the_file_and_line_of_a_bad_address(tmp_path):
    path = tmp_path / "boards.txt"
    path.write_text("# hall B\n192.168.1.21:8080\n\nhttp://192.168.1.22:8080/  # by the window\nftp://x:1\n")
    with pytest.raises(BroadcastError, match=r"boards.txt, line 5: .*http://"):
        read_board_list(str(path))
    path.write_text("192.168.1.21:8080\nhttp://192.168.1.22:8080/\n")
    assert read_board_list(str(path)) == ["http://192.168.1.21:8080", "http://192.168.1.22:8080"]
    with pytest.raises(BroadcastError, match="cannot read"):
        read_board_list(str(tmp_path / "missing.txt"))


def test_a_hall_without_boards_or_discovery_is_refused():
    args = argparse.Namespace(listen="0", board=[], boards=None, no_discovery=True, interface=None, out=None)
    with pytest.raises(BroadcastError, match="no boards to follow"):
        run(args)


def test_the_hall_serves_the_round_and_keeps_its_files_up_to_date(tmp_path):
    board = BoardServer("evil", "127.0.0.1", 0)
    board.start()
    setup = GameSetup("chess", (Seat("<script>alert(1)</script>"), Seat('Bob "B" & Co')), game_id="x")
    session, _ = Session.new(setup)
    session.play("e2e4")
    session.resign(1)
    board.publish(take_snapshot(session, 1, 0, board.name))
    hall = HallServer("127.0.0.1", 0, boards=[f"127.0.0.1:{board.port}"], discover=False, out=tmp_path / "round")
    hall.start()
    try:
        watch = HallWatch(hall.port)
        watch.until(lambda b: any(x.get("result") == "1-0" for x in b.values()), 20)
        watch.close()
        status, headers, page = get(hall.port, "/results")
        assert status == 200 and b"&lt;script&gt;alert(1)&lt;/script&gt;" in page and b"<script>alert" not in page
        assert get(hall.port, "/results.csv")[2].decode().splitlines()[1] == \
            '0,0,,<script>alert(1)</script>,,"Bob ""B"" & Co",1-0'
        assert b'1. e4 {Bob "B" & Co resigns.} 1-0' in get(hall.port, "/round.pgn")[2]
        for path in ("/", "/hall.js", "/common.js", "/style.css", "/texts.js", "/hall.json"):
            assert get(hall.port, path)[0] == 200
        for method in ("POST", "PUT", "DELETE"):
            assert get(hall.port, "/round.pgn", method=method, body=b"x")[0] == 405
        for path in ("/../../etc/passwd", "/round.pgn/../../../etc/passwd", "/results.csv%00", "/boards"):
            status, _, body = get(hall.port, path)
            assert status in (400, 404) and b"root:" not in body
    finally:
        hall.stop()
        board.stop()
    assert (tmp_path / "round" / "round.pgn").read_text().count("[Event ") == 1
    assert "<script>" in (tmp_path / "round" / "results.csv").read_text()


# ----- inputs that never end: one line, what it quotes cut ---------------------------------------------

HUGE_PORT = "9" * 5000


@pytest.mark.parametrize("argv", [["hall", "--listen", HUGE_PORT], ["hall", "--board", f"10.0.0.1:{HUGE_PORT}"],
                                  ["--broadcast", HUGE_PORT]])
def test_a_port_of_5000_digits_is_one_short_line(argv, capsys):
    from companion.cli import main

    assert main(argv) == 2  # (it was a traceback: int() refuses more than 4,300 digits)
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and len(err) < 200 and "(5,0" in err and "port must be a number" in err


def test_broadcast_with_a_command_is_refused_not_ignored(capsys):
    """Through main in this process (the real process is the test of a wrong address above)."""
    from companion.cli import main

    with pytest.raises(SystemExit) as stop:
        main(["--broadcast", HUGE_PORT, "perft", "--depth", "1"])
    out = capsys.readouterr()
    assert stop.value.code == 2 and out.out == "" and out.err.count("\n") == 1 and len(out.err) < 300
    assert "--broadcast serves the app's game and does not go with the 'perft' command" in out.err


def test_a_board_list_line_of_100000_characters_is_quoted_cut(tmp_path, capsys):
    from companion.cli import main

    path = tmp_path / "boards.txt"
    path.write_text("192.168.1.21:8080\n" + "x" * 100_000 + "\n")
    assert main(["hall", "--boards", str(path), "--no-discovery"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and len(err) < 300 and "line 2: 'xxxxxxxx" in err and "(100,000 characters)" in err
