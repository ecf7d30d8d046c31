"""The hall believes only the boards the arbiter admitted: those that sign their events with the
round key of the pairing file they loaded, and play a board of that round; a board's data is
held to its own PGN; one board number is shown from one board; a refused board's reason is on
the page; the key itself is never sent, shown, logged or written into a record."""

from __future__ import annotations

import io
import json
import os
import stat
from pathlib import Path

import chess.pgn
import pytest

from companion.broadcast.admission import Admission, sign
from companion.broadcast.board_server import BoardServer
from companion.broadcast.hall import Hall, HallServer
from companion.broadcast.snapshot import live_json, take_snapshot
from companion.broadcast.web import event_stream
from companion.errors import BroadcastError, PairingError
from companion.session import GameSetup, Seat
from companion.tournament.pairing import parse_pairings, split_round_key, trf_with_result, with_round_key
from companion.tournament.table import Table, TableSetup
from tests.broadcast_helpers import HallWatch, get

DATA = Path(__file__).parent / "data" / "pairings"
KEY = "5f" * 32
OTHER_KEY = "a0" * 32
NONCE = "0123456789abcdef" * 2
CSV = with_round_key((DATA / "club-round2.csv").read_text(encoding="utf-8-sig"), KEY)


def admission() -> Admission:
    return Admission.of(parse_pairings(CSV, "club-round2.csv"))


def table(board="1", white="Berg, Anna", black="Holm, Eric", round_="2", moves=("e2e4",), resign=None,
          t0: int = 0) -> Table:
    t, _ = Table.new(GameSetup("chess", (Seat(white), Seat(black)), game_id=f"club-{board}"),
                     TableSetup(time_control="900+10", round=round_, board=board,
                                event="Club Rapid", source="csv:club-round2.csv"))
    t.start_clock(t0)
    for i, m in enumerate(moves):
        side = t.session.turn
        t.session.play(m)
        t.press(side, t0 + 9000 * (i + 1))
    if resign is not None:
        t.session.resign(resign)
    return t


def data_of(t: Table, name: str = "board") -> str:
    return live_json(take_snapshot(t, 1, 10_000, name), 10_000)


def signed(data: str, key: str = KEY, nonce: str = NONCE) -> tuple[str, str]:
    return sign(bytes.fromhex(key), nonce, data), nonce


# ----- the round key in the pairing file ----------------------------------------------------------------


def test_the_round_key_rides_in_the_pairing_file_and_stays_out_of_reprs_and_results():
    p = parse_pairings(CSV, "club-round2.csv")
    assert p.round_key == KEY and KEY not in repr(p) and [g.board for g in p.games] == [1, 2, 3]
    assert split_round_key(CSV)[1] == KEY and CSV.rstrip().endswith(f"XXK {KEY}")
    trf = with_round_key((DATA / "leiden-rapid.trf").read_text(encoding="utf-8"), KEY)
    pairings = parse_pairings(trf, "leiden-rapid.trf")
    assert pairings.round_key == KEY and pairings.round == 4
    back = trf_with_result(trf, pairings.board(1), "1-0")  # the results that go back to the pairing program
    assert KEY not in back and "XXK" not in back


@pytest.mark.parametrize("line", ["XXK 1234", f"XXK {KEY[:-1]}g", f"XXK {KEY}00"])
def test_a_damaged_key_line_is_one_message_that_does_not_quote_it(line):
    with pytest.raises(PairingError, match=r"pairs.csv, line 5: the round key \(XXK\) must be 64") as e:
        parse_pairings(CSV.replace(f"XXK {KEY}", line), "pairs.csv")
    assert line[4:] not in str(e.value)


def test_a_signature_holds_for_its_key_its_stream_and_its_data_only():
    a, data = admission(), data_of(table())
    sig, nonce = signed(data)
    a.check_signature(nonce, data, sig)
    for nonce2, data2, sig2, words in [(nonce, data, "", "not signed with the round key"),
                                       (nonce, data, signed(data, OTHER_KEY)[0], "not signed with this round's key"),
                                       ("f" * 32, data, sig, "this round's key"),  # played back on another stream
                                       (nonce, data.replace("Berg", "Borg"), sig, "this round's key")]:
        with pytest.raises(BroadcastError, match=words):
            a.check_signature(nonce2, data2, sig2)


# ----- the hall: whom it believes --------------------------------------------------------------------------


def test_an_impostor_claiming_a_board_of_the_round_is_refused_and_the_real_board_shown():
    hall = Hall(admission())
    real = data_of(table(), "club board 1")
    hall.received("http://10.0.0.21:8080", real, 0, *signed(real))
    fake = data_of(table(white="Mallory", black="Eve"), "round 2 board 1")
    hall.received("http://10.0.0.66:8080", fake, 5)  # no key: it cannot sign
    impostor = hall.boards["http://10.0.0.66:8080"]
    assert impostor.status(5) == "refused" and "not signed with the round key" in impostor.problem
    assert impostor.copy is None
    hall.received("http://10.0.0.66:8080", fake, 6, *signed(fake, OTHER_KEY))  # another round's key
    assert "not signed with this round's key" in impostor.problem
    games = _games(hall.round_pgn())
    assert len(games) == 1 and games[0].headers["White"] == "Berg, Anna"
    shown = {b["key"]: b for b in hall.changed_since(0, 10)}
    assert shown["http://10.0.0.66:8080"]["status"] == "refused" and "this round's key" in shown["http://10.0.0.66:8080"]["problem"]


def test_a_signed_board_must_be_a_board_of_the_round_with_its_players():
    hall = Hall(admission())
    for url, t, words in [("http://a:1", table(round_="3"), "it plays round 3; this hall shows round 2"),
                          ("http://b:1", table(board="7"), "round 2 has no board 7 (its boards: 1, 2, 3)"),
                          ("http://c:1", table(board="2"), "board 2 of round 2 is Nils Dahl - Sara Lund, not "
                                                          "Berg, Anna - Holm, Eric")]:
        data = data_of(t)
        hall.received(url, data, 0, *signed(data))
        assert hall.boards[url].status(0) == "refused" and hall.boards[url].problem == words
    assert hall.round_pgn() == ""


def test_a_result_the_boards_own_pgn_does_not_have_is_refused_and_kept_out_of_the_results():
    hall = Hall(admission())
    honest = data_of(table())
    hall.received("http://a:1", honest, 0, *signed(honest))
    lie = json.loads(honest)
    lie["result"], lie["state"] = "0-1", "over"  # its PGN still says *
    text = json.dumps(lie)
    hall.received("http://a:1", text, 5, *signed(text))
    entry = hall.boards["http://a:1"]
    assert entry.problem == "its data says result 0-1 but its PGN says *" and entry.status(5) == "refused"
    assert hall.results_csv().splitlines() == ["round,board,white_id,white,black_id,black,result"]
    assert entry.copy.result == "*"  # the last good copy stays


@pytest.mark.parametrize("field, value, words", [
    ("board", "3", "its data says board 3 but its PGN says 1"),
    ("round", "5", "its data says round 5 but its PGN says 2"),
    ("players", ["Holm, Eric", "Berg, Anna"], "its data says White Holm, Eric but its PGN says Berg, Anna"),
])
def test_a_board_number_round_or_player_its_pgn_does_not_have_is_refused(field, value, words):
    hall = Hall()  # held to its own PGN with or without a round key
    data = json.loads(data_of(table()))
    data[field] = value
    hall.received("http://a:1", json.dumps(data), 0)
    assert hall.boards["http://a:1"].problem == words and hall.round_pgn() == ""


def test_one_board_number_is_shown_from_one_board_only():
    hall = Hall()  # boards given by hand, no key: still one number, one board
    first, second = data_of(table(moves=("e2e4",))), data_of(table(moves=("d2d4",)))
    hall.received("http://a:1", first, 0)
    hall.received("http://b:1", second, 1)
    assert "round 2 board 1 is shown from http://a:1" in hall.boards["http://b:1"].problem
    assert [g.headers["Board"] for g in _games(hall.round_pgn())] == ["1"]
    hall.lost("http://a:1", "unreachable", 2)  # the board came back at another address
    hall.received("http://b:1", second, 3)
    assert hall.boards["http://b:1"].status(3) == "live" and hall.boards["http://a:1"].copy is None
    games = _games(hall.round_pgn())
    assert len(games) == 1 and [m.uci() for m in games[0].mainline_moves()] == ["d2d4"]
    hall.received("http://a:1", first, 4)  # the old address answers again: it is the second one now
    assert hall.boards["http://a:1"].status(4) == "refused" and len(_games(hall.round_pgn())) == 1


def test_a_board_found_on_the_network_without_a_round_key_is_not_believed():
    hall = Hall()
    hall.add("http://x:1", "found")
    hall.received("http://x:1", data_of(table()), 0)
    assert "not admitted" in hall.boards["http://x:1"].problem and hall.round_pgn() == ""
    with pytest.raises(BroadcastError, match="needs the round's pairing file"):
        HallServer("127.0.0.1", 0, discover=True)


def test_with_the_pairings_the_results_file_has_the_pairings_ids():
    hall = Hall(admission())
    done = data_of(table(resign=0))
    hall.received("http://a:1", done, 0, *signed(done))
    assert hall.results_csv().splitlines()[1] == '2,1,,"Berg, Anna",,"Holm, Eric",0-1'


def _games(text):
    f, out = io.StringIO(text), []
    while (g := chess.pgn.read_game(f)) is not None:
        out.append(g)
    return out


# ----- on loopback: a real board, an impostor, a board that lies about its result ---------------------------


class LyingBoard(BoardServer):
    """A board of the round, with the key, whose data says a result its PGN does not."""

    def __init__(self, data: str) -> None:
        super().__init__("lying board", "127.0.0.1", 0)
        self.lie = data

    async def _events(self, request):
        nonce = request.query.get("nonce", "")
        return await event_stream(request, self.hub, lambda: self.lie, 5.0, "game",
                                  lambda d: sign(bytes.fromhex(KEY), nonce, d))


def test_a_hall_with_the_round_key_believes_the_real_board_only(tmp_path):
    real = BoardServer("club board 1", "127.0.0.1", 0)
    impostor = BoardServer("Round 2 Board 1", "127.0.0.1", 0)
    lie = json.loads(data_of(table(board="2", white="Nils Dahl", black="Sara Lund")))
    lie["result"] = "1-0"
    liar = LyingBoard(json.dumps(lie))
    boards = (real, impostor, liar)
    hall = None
    try:
        for b in boards:
            b.start()
        real.publish(take_snapshot(table(resign=1), 1, 0, real.name), bytes.fromhex(KEY))
        impostor.publish(take_snapshot(table(white="Mallory", black="Eve", resign=0), 1, 0, impostor.name))
        hall = HallServer("127.0.0.1", 0, boards=[f"127.0.0.1:{b.port}" for b in boards], admission=admission(),
                          out=tmp_path / "round")
        hall.start()
        watch = HallWatch(hall.port)
        keys = [f"http://127.0.0.1:{b.port}" for b in boards]
        watch.until(lambda s: len(s) == 3 and s[keys[0]]["status"] == "live"
                    and s[keys[1]]["status"] == s[keys[2]]["status"] == "refused", 20)
        watch.close()
        assert "not signed with the round key" in watch.boards[keys[1]]["problem"]
        assert watch.boards[keys[2]]["problem"] == "its data says result 1-0 but its PGN says *"
        games = _games(get(hall.port, "/round.pgn")[2].decode())
        assert [(g.headers["White"], g.headers["Result"]) for g in games] == [("Berg, Anna", "1-0")]
        csv = get(hall.port, "/results.csv")[2].decode().splitlines()
        assert csv == ["round,board,white_id,white,black_id,black,result", '2,1,,"Berg, Anna",,"Holm, Eric",1-0']
        for path in ("/", "/hall.json", "/round.pgn", "/results", "/results.csv", "/events"):
            assert KEY.encode() not in _body(hall.port, path)
        for path in ("/game.json", "/game.pgn", "/live.json", "/"):
            assert KEY.encode() not in get(real.port, path)[2]
        hall.stop()
        hall = None
        written = (tmp_path / "round" / "results.csv").read_text()
        assert written.splitlines()[1:] == ['2,1,,"Berg, Anna",,"Holm, Eric",1-0'] and KEY not in written
    finally:
        if hall is not None:
            hall.stop()
        for b in boards:
            b.stop()


def _body(port: int, path: str) -> bytes:
    """The response; of an event stream, what comes until its first event is whole."""
    import socket

    if not path.startswith("/events"):
        return get(port, path)[2]
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        got = b""
        while b"\ndata: " not in got or not got.split(b"\ndata: ", 1)[1].count(b"\n"):
            chunk = s.recv(65536)
            if not chunk:
                break
            got += chunk
        return got


def test_a_board_signs_a_halls_stream_only_and_checks_the_nonce():
    board = BoardServer("club board 1", "127.0.0.1", 0)
    board.start()
    try:
        board.publish(take_snapshot(table(), 1, 0, board.name), bytes.fromhex(KEY))
        spectator = _body(board.port, "/events").decode()
        assert "sig:" not in spectator and "event: game" in spectator  # a browser's stream: as before
        hall = _body(board.port, f"/events?nonce={NONCE}").decode()
        sig = next(line[5:] for line in hall.splitlines() if line.startswith("sig: "))
        data = next(line[6:] for line in hall.splitlines() if line.startswith("data: "))
        admission().check_signature(NONCE, data, sig)
        assert get(board.port, "/events?nonce=zz")[0] == 400
    finally:
        board.stop()


# ----- the command line: the hall adds the key to the arbiter's file ----------------------------------------


def test_the_hall_adds_a_round_key_to_a_pairing_file_without_one_and_never_prints_it(tmp_path):
    from companion.broadcast.cli import admission_from

    path = tmp_path / "round4.trf"
    path.write_text((DATA / "leiden-rapid.trf").read_text(encoding="utf-8"))
    os.chmod(path, 0o644)
    said = []
    first = admission_from(str(path), said.append)
    key = split_round_key(path.read_text())[1]
    assert len(key) == 64 and first.key == bytes.fromhex(key)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert len(said) == 1 and "a round key was added" in said[0] and key not in said[0]
    assert parse_pairings(path.read_text(), "round4.trf").games == parse_pairings(
        (DATA / "leiden-rapid.trf").read_text(encoding="utf-8"), "round4.trf").games
    os.chmod(path, 0o644)  # copied back from a stick: the hall keeps the key and makes it private again
    said.clear()
    assert admission_from(str(path), said.append).key == first.key
    assert stat.S_IMODE(path.stat().st_mode) == 0o600 and "readable by you only" in said[0]
    assert key not in repr(first)


def test_the_hall_command_line_says_whom_it_believes(tmp_path):
    import argparse

    from companion.broadcast.cli import run

    path = tmp_path / "club.csv"
    path.write_text(CSV)
    said = []
    args = argparse.Namespace(listen="127.0.0.1:0", board=[], boards=None, no_discovery=True, interface=None, out=None,
                              pairings=str(path))
    with pytest.raises(BroadcastError, match="no boards to follow"):
        run(args, said.append, wait=lambda: None)
    args.board = ["127.0.0.1:9"]
    assert run(args, said.append, wait=lambda: None) == 0
    assert any("round 2 of Club Rapid: 3 boards; the hall takes results only from boards that sign" in s for s in said)
    assert not any(KEY in s for s in said)


# ----- the board: the key comes with the pairing file it loads, and goes nowhere else ---------------------


def test_a_board_that_loaded_the_pairing_file_signs_with_its_key_and_keeps_it_private(tmp_path):
    from companion.broadcast.board_server import start_broadcast
    from tests.test_presenter_tournament import press, stick
    from tests.ui_flow_helpers import App

    s = stick(tmp_path)
    (s / "club-round2.csv").write_text(CSV)
    app = App(tmp_path / "data", computer=False, media_roots=(tmp_path / "media",))
    app.pair_from(s / "club-round2.csv", "1")
    app.start.start()
    app.pump()
    app.setup.fill()
    app.pump()
    copy = tmp_path / "data" / "pairings" / "club-round2.csv"
    assert stat.S_IMODE(copy.stat().st_mode) == 0o600  # the board's copy, for its results and its key
    live = start_broadcast(app.flow, "127.0.0.1:0", announce=False)
    try:
        text = _body(live.server.port, f"/events?nonce={NONCE}").decode()
        sig = next(line[5:] for line in text.splitlines() if line.startswith("sig: "))
        data = next(line[6:] for line in text.splitlines() if line.startswith("data: "))
        admission().check_signature(NONCE, data, sig)
        assert json.loads(data)["board"] == "1" and json.loads(data)["players"] == ["Berg, Anna", "Holm, Eric"]
    finally:
        live.stop()
    press(app, 1)
    app.clock_screen.resign(1)
    app.prompt.answer("1")
    app.pump()
    assert (tmp_path / "data" / "results" / "round-2-results.csv").read_text().splitlines()[1] == \
        '2,1,,"Berg, Anna",,"Holm, Eric",1-0'
    for path in (tmp_path / "data").rglob("*"):  # the journal, the games, the results, the records
        if path.is_file() and path != copy:
            assert KEY.encode() not in path.read_bytes(), path
