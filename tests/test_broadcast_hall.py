"""The hall: what it keeps of each board (checked), how it marks boards that went quiet or
off the network, the round it serves; and against 100 boards on loopback: the round parses to
100 games, a move shows within 2 s, a board killed and restarted comes back with its game."""

import functools
import io
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import chess.pgn
import pytest

from companion.broadcast.hall import STALE_MS, Hall, SseParser, read_board_event
from companion.broadcast.snapshot import live_json, take_snapshot
from companion.errors import BroadcastError
from tests.broadcast_helpers import HallWatch

ROOT = Path(__file__).resolve().parent.parent


@functools.lru_cache(maxsize=None)
def event(*moves, board="1", name=None, version=1, result=None):
    from companion.tournament.table import Table, TableSetup
    from companion.session import GameSetup, Seat

    table, _ = Table.new(GameSetup("chess", (Seat(f"W{board}"), Seat(f"B{board}")), game_id=f"g{board}"),
                         TableSetup(round="2", board=board, time_control="600+5"))
    table.start_clock(0)
    for i, m in enumerate(moves):
        side = table.session.turn
        table.session.play(m)
        table.press(side, 1000 * (i + 1))
    if result is not None:
        table.session.resign(1 if result == "1-0" else 0)
    return live_json(take_snapshot(table, version, 10_000, name or f"board {board}"), 10_000)


# ----- reading a board's events --------------------------------------------------------------------


def test_events_split_at_every_byte_read_the_same():
    stream = (b": hello\n\nevent: game\ndata: {\"a\": 1}\n\nevent: game\r\ndata: line one\ndata: line two\r\n\r\n"
              b"event: game\nsig: 00ff\ndata: x\n\n")
    whole = SseParser().feed(stream)
    assert whole == [("", "", ""), ("game", '{"a": 1}', ""), ("game", "line one\nline two", ""), ("game", "x", "00ff")]
    for cut in range(len(stream)):
        p = SseParser()
        assert p.feed(stream[:cut]) + p.feed(stream[cut:]) == whole


def test_an_endless_event_is_cut_off():
    p = SseParser(limit=1000)
    with pytest.raises(BroadcastError, match="more than 1000 bytes"):
        p.feed(b"data: " + b"x" * 2000)


def test_a_board_event_is_read_into_what_the_hall_keeps():
    copy = read_board_event(event("e2e4", "e7e5"), 5)
    assert (copy.round, copy.board, copy.players, copy.moves, copy.last, copy.result) == ("2", "1", ("W1", "B1"), 2, "e5", "*")
    assert copy.clock.times_ms == (596_000, 604_000) and copy.clock.running == 0  # White thinks since 2 s
    game = chess.pgn.read_game(io.StringIO(copy.pgn))
    assert [m.uci() for m in game.mainline_moves()] == ["e2e4", "e7e5"]
    assert copy.svg.count('class="piece"') == 32


@pytest.mark.parametrize("change, word", [
    (lambda d: d.update(format=2), "format"),
    (lambda d: d.update(pgn=d["pgn"] + "\n" + d["pgn"]), "2 games"),
    (lambda d: d.update(pgn="1. e4 {never closed"), "does not read"),
    (lambda d: d.update(players="W1"), "players"),
    (lambda d: d.update(result="2-0"), "result"),
    (lambda d: d["clock"].update(times_ms=[1, 2, 3]), "clock"),
    (lambda d: d["board_picture"].update(width=3), "width"),
    (lambda d: d.update(state="exploded"), "state"),
    (lambda d: d.update(round="x" * 500), "round"),
])
def test_what_a_board_could_not_have_sent_is_refused_by_name(change, word):
    data = json.loads(event("e2e4"))
    change(data)
    with pytest.raises(BroadcastError, match=word):
        read_board_event(json.dumps(data), 0)


@pytest.mark.parametrize("text", ["<html>", "[" * 100_000 + "]" * 100_000])
def test_not_json_is_refused(text):
    with pytest.raises(BroadcastError, match="not valid JSON|nested more than"):
        read_board_event(text, 0)


# ----- the hall's state ------------------------------------------------------------------------------


def test_a_board_off_the_network_keeps_its_game_in_the_round_and_comes_back_by_itself():
    hall = Hall()
    hall.received("http://a:1", event("e2e4", board="1"), 0)
    hall.received("http://b:1", event("d2d4", board="2"), 0)
    assert [e.status(0) for e in hall.ordered()] == ["live", "live"]
    hall.lost("http://b:1", "unreachable", 100)
    assert hall.boards["http://b:1"].status(100) == "off"
    games = _games(hall.round_pgn())
    assert len(games) == 2 and [m.uci() for m in games[1].mainline_moves()] == ["d2d4"]
    hall.received("http://b:1", event("d2d4", "d7d5", board="2"), 200)  # back, with its game on
    assert hall.boards["http://b:1"].status(200) == "live"
    assert [m.uci() for m in _games(hall.round_pgn())[1].mainline_moves()] == ["d2d4", "d7d5"]


def test_a_board_that_restarts_with_no_game_yet_does_not_replace_the_copy():
    hall = Hall()
    hall.received("http://a:1", event("e2e4"), 0)
    hall.received("http://a:1", json.dumps({"format": 1, "name": "board 1", "version": 0, "state": "idle"}), 50)
    assert hall.boards["http://a:1"].copy.last == "e4" and len(_games(hall.round_pgn())) == 1


def test_a_bad_event_is_said_and_changes_nothing_served():
    hall = Hall()
    hall.received("http://a:1", event("e2e4"), 0)
    before = hall.round_pgn()
    hall.received("http://a:1", '{"format": 1, "name": "x", "version": 3, "state": "playing", "pgn": 7}', 10)
    assert hall.round_pgn() == before and "players" in hall.boards["http://a:1"].problem


def test_a_board_silent_for_too_long_is_marked_stale_and_the_change_is_announced():
    hall = Hall()
    hall.received("http://a:1", event("e2e4"), 0)
    version = hall.version
    hall.refresh(STALE_MS)
    assert hall.version == version
    hall.refresh(STALE_MS + 1)
    assert hall.boards["http://a:1"].status(STALE_MS + 1) == "stale" and hall.version > version
    assert [b["key"] for b in hall.changed_since(version, STALE_MS + 1)] == ["http://a:1"]
    hall.heard("http://a:1", STALE_MS + 2)
    assert hall.boards["http://a:1"].shown == "live"


def test_the_round_is_in_board_order_and_the_results_file_has_a_line_per_board():
    hall = Hall()
    for b, result in (("10", "1-0"), ("2", "0-1"), ("9", None)):
        hall.received(f"http://b{b}:1", event("e2e4", board=b, result=result), 0)
    assert [g.headers["Board"] for g in _games(hall.round_pgn())] == ["2", "9", "10"]
    assert [g.headers["Result"] for g in _games(hall.round_pgn())] == ["0-1", "*", "1-0"]
    # the tournament's results file: a line per finished game (board 9 plays on)
    assert hall.results_csv().splitlines() == ["round,board,white_id,white,black_id,black,result",
                                               "2,2,,W2,,B2,0-1", "2,10,,W10,,B10,1-0"]


def _games(text):
    f, out = io.StringIO(text), []
    while (g := chess.pgn.read_game(f)) is not None:
        out.append(g)
    return out


# ----- 100 boards on loopback ------------------------------------------------------------------------


class Fleet:
    """Simulated boards in a process of their own (companion.broadcast.fleet)."""

    def __init__(self, folder, boards, first=1, ports=None):
        args = [sys.executable, "-m", "companion.broadcast.fleet", "--boards", str(boards), "--dir", str(folder),
                "--first", str(first)]
        if ports:
            args += ["--ports", ",".join(map(str, ports))]
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        self.proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env, cwd=ROOT)
        line = self.proc.stdout.readline()
        assert line.startswith("ready "), line
        self.ports = json.loads(line[6:])

    def move(self, board, uci):
        self.proc.stdin.write(f"move {board} {uci}\n")
        self.proc.stdin.flush()
        assert self.proc.stdout.readline().strip() == "ok"

    def kill(self):
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(30)

    def quit(self):
        if self.proc.poll() is None:
            self.proc.stdin.write("quit\n")
            self.proc.stdin.flush()
            self.proc.wait(60)


@pytest.mark.slow
def test_a_hall_of_100_boards(tmp_path):
    from companion.broadcast.hall import HallServer
    from tests.broadcast_helpers import get

    many = Fleet(tmp_path, 99, first=1)
    one = Fleet(tmp_path, 1, first=100)
    hall = None
    watch = None
    try:
        urls = [f"127.0.0.1:{p}" for p in many.ports + one.ports]
        hall = HallServer("127.0.0.1", 0, boards=urls, discover=False)
        hall.start()
        watch = HallWatch(hall.port)
        watch.until(lambda b: len(b) == 100 and all(x["status"] == "live" for x in b.values()), 60)
        games = _games(get(hall.port, "/round.pgn")[2].decode())
        assert len(games) == 100 and [g.headers["Board"] for g in games] == [str(n) for n in range(1, 101)]

        key = f"http://127.0.0.1:{many.ports[41]}"  # board 42
        many.move(42, "e2e4")
        # the move reaches the hall's stream (how soon is the bench's: companion bench --only
        # broadcast; a wait here bounds only a stream that never says it)
        watch.until(lambda b: b[key].get("last") == "e4", 30)
        game = _games(get(hall.port, "/round.pgn")[2].decode())[41]
        assert [m.uci() for m in game.mainline_moves()] == ["e2e4"] and game.headers["Board"] == "42"

        last = f"http://127.0.0.1:{one.ports[0]}"
        one.move(100, "d2d4")
        one.move(100, "g8f6")
        watch.until(lambda b: b[last].get("last") == "Nf6", 30)
        one.kill()  # SIGKILL: no goodbye
        watch.until(lambda b: b[last]["status"] == "off", 20)
        kept = _games(get(hall.port, "/round.pgn")[2].decode())
        assert len(kept) == 100 and [m.uci() for m in kept[99].mainline_moves()] == ["d2d4", "g8f6"]
        one = Fleet(tmp_path, 1, first=100, ports=one.ports)  # restarted from its journal, same address
        watch.until(lambda b: b[last]["status"] == "live", 20)
        one.move(100, "c2c4")
        watch.until(lambda b: b[last].get("last") == "c4", 30)
        back = _games(get(hall.port, "/round.pgn")[2].decode())[99]
        assert [m.uci() for m in back.mainline_moves()] == ["d2d4", "g8f6", "c2c4"]
        assert back.headers["White"] == "White 100" and all(n.clock() is not None for n in back.mainline())
    finally:
        if watch is not None:
            watch.close()
        if hall is not None:
            hall.stop()
        many.quit()
        one.quit()


# ----- anything at all from the network ----------------------------------------------------------------

from hypothesis import given, settings, strategies as st  # noqa: E402

JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
                    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=12), inner, max_size=6),
                    max_leaves=30)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.binary(max_size=300), max_size=20))
def test_any_bytes_from_a_board_are_events_or_one_clear_error(chunks):
    p = SseParser(limit=2000)
    try:
        for chunk in chunks:
            for event, data, sig in p.feed(chunk):
                assert isinstance(event, str) and isinstance(data, str) and isinstance(sig, str)
    except BroadcastError as e:
        assert "more than 2000 bytes" in str(e)


@settings(max_examples=300, deadline=None)
@given(JSON, st.sampled_from(["format", "players", "moves", "clock", "board_picture", "pgn", "state", "ids"]))
def test_any_json_from_a_board_is_a_game_or_one_clear_error(value, key):
    data = json.loads(event("e2e4"))
    data[key] = value
    hall = Hall()
    hall.received("http://a:1", event("d2d4"), 0)
    before = hall.round_pgn()
    hall.received("http://a:1", json.dumps(data), 5)
    entry = hall.boards["http://a:1"]
    if entry.problem:  # refused: what is served is unchanged
        assert hall.round_pgn() == before
    else:
        assert entry.copy is not None
