"""Shared pieces of the broadcast tests (not a test module): games of every kind, HTTP by
hand (raw bytes for the malformed requests), the pieces read back from a drawn board."""

from __future__ import annotations

import http.client
import re
import socket
from pathlib import Path
from xml.etree import ElementTree

from companion.board.tracker_bench import _dungeon_four_player
from companion.core.geometry import FILES
from companion.session import GameSetup, Seat, Session
from tests.session_helpers import new_session, play_all

SVG_NS = "{http://www.w3.org/2000/svg}"
FOUR = tuple(Seat(n) for n in ("Blue", "Red", "Green", "Yellow"))


def chess_session(*moves: str, game: str = "chess") -> Session:
    s = new_session(game=game, dice="virtual")
    play_all(s, *moves)
    return s


def dungeon_session() -> Session:
    """Four players on the 20x20 map (water, void), 24 plies into the game."""
    rules, pos = _dungeon_four_player()
    setup = GameSetup("dungeon", FOUR, start=rules.position_text(pos), board_map="dungeon-four-player",
                      game_id="dungeon-four")
    session, _ = Session.new(setup)
    return session


def kol_session(*moves: str) -> Session:
    """KoL Chess (12x12, coloured squares, named pieces on a map of seats) after ``moves``."""
    session, _ = Session.new(GameSetup("kol", (Seat("Blue"), Seat("Orange")), game_id="kol"))
    play_all(session, *moves)
    return session


def chess4_session() -> Session:
    """Four-player chess (free-for-all) some way in, with points, Blue's army dead and a move
    after it (tests/test_chess4_fights_app.py's position)."""
    from tests.test_chess4_fights_app import FOUR, chess4_position

    session, _ = Session.new(GameSetup("chess4", FOUR, start=chess4_position(), game_id="chess4"))
    capture = next(m for m in session.rules.legal_moves(session.pos)
                   if m.capture is not None and session.pos.board[m.capture].owner not in session.pos.var("out"))
    session.play(capture)
    return session


def fights_session(game: str = "dungeon") -> Session:
    """A game with dice fights (Dungeon Chess on the compact map; KoL Chess) after a fight won
    and a fight bounced or lost: the move list carries their results."""
    import random

    seats = (Seat("Blue"), Seat("Red")) if game == "dungeon" else (Seat("Blue"), Seat("Orange"))
    session, _ = Session.new(GameSetup(game, seats, "seeded", seed="cd" * 32, game_id=f"{game}-fights",
                                       options=(("fights", "dice"),)))
    rng = random.Random(3)
    while sum(1 for m in session.moves if m.fight) < 2:
        if session.pending_fight() is not None:
            session.roll()
            continue
        moves = session.rules.legal_moves(session.pos)
        captures = [m for m in moves if m.capture is not None]
        session.play(rng.choice(captures) if captures else rng.choice(moves))
    return session


def expected_pieces(session: Session) -> dict[str, tuple[str, int]]:
    """square name -> (code, owner) of every piece in the session's position."""
    g = session.rules.geometry
    return {g.name_of(sq): (p.kind.code, p.owner) for sq, p in session.pos.pieces()}


def svg_pieces(svg: str) -> dict[str, tuple[str, int]]:
    """square name -> (code, owner) of every piece drawn in an SVG board."""
    root = ElementTree.fromstring(svg)
    out = {}
    for g in root.iter(f"{SVG_NS}g"):
        if g.get("class") == "piece":
            out[g.get("data-square")] = (g.get("data-code"), int(g.get("data-owner")))
    return out


def dom_boards(html: str) -> list[dict[str, tuple[str, int]]]:
    """The pieces of every board SVG in a page's DOM (as Chromium dumps it)."""
    boards = []
    for svg in re.findall(r"<svg\b.*?</svg>", html, flags=re.S):
        boards.append(svg_pieces(svg))
    return boards


def get(port: int, path: str, method: str = "GET", headers: dict | None = None, body: bytes | None = None):
    """(status, headers, body) of one request to 127.0.0.1:port."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        r = conn.getresponse()
        return r.status, dict(r.getheaders()), r.read()
    finally:
        conn.close()


def raw(port: int, data: bytes) -> bytes:
    """Send ``data`` as it is; return the server's answer (the status line first): read until
    the server closes or one whole response (head and Content-Length body) has come. The
    answer is read while sending: a server that refuses a request early may close the
    connection on whatever the client is still sending."""
    import threading

    received = bytearray()

    def complete() -> bool:
        head, sep, body = bytes(received).partition(b"\r\n\r\n")
        if not sep:
            return False
        m = re.search(rb"(?im)^content-length:\s*(\d+)", head)
        return m is not None and len(body) >= int(m.group(1))

    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        def read():
            try:
                while not complete():
                    chunk = s.recv(65536)
                    if not chunk:
                        return
                    received.extend(chunk)
            except OSError:
                return

        reader = threading.Thread(target=read)
        reader.start()
        try:
            s.sendall(data)
        except OSError:
            pass  # the server closed first: its answer is what counts
        reader.join(10)
    return bytes(received)


def square_name(sq: int, width: int) -> str:
    return f"{FILES[sq % width]}{sq // width + 1}"


class HallWatch:
    """The hall's own event stream, read as a spectator's page reads it."""

    def __init__(self, port):
        import json

        self._json = json
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
        self.conn.request("GET", "/events")
        self.resp = self.conn.getresponse()
        self.boards = {}

    def until(self, done, seconds):
        """Read the stream until ``done(boards)`` or the time is up; returns the seconds taken."""
        import time

        start = time.monotonic()
        while not done(self.boards):
            if time.monotonic() - start > seconds:
                raise AssertionError(f"not within {seconds} s")
            line = self.resp.readline().decode()
            if line.startswith("data: "):
                for b in self._json.loads(line[6:])["boards"]:
                    self.boards[b["key"]] = b
        return time.monotonic() - start

    def close(self):
        self.conn.close()


CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--hide-scrollbars", "--virtual-time-budget=1000")


def chromium(url: str, tmp, *, screenshot=None, size=(1100, 760)) -> str:
    """Open ``url`` in headless Chromium (Debian's package, installed by install.sh test) once
    the page's script has run: the DOM as text, and a screenshot when asked. The page opens its
    event stream after 1.5 s; the 1 s virtual-time budget ends before that, so Chromium never
    waits on a stream that does not end."""
    import shutil
    import subprocess
    import tempfile

    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    assert exe, "Chromium is missing: bash companion/install.sh test installs Debian's chromium"
    profile = tempfile.mkdtemp(prefix="chromium-", dir=tmp)
    args = [exe, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", f"--window-size={size[0]},{size[1]}"]
    if screenshot is not None:
        Path(screenshot).parent.mkdir(parents=True, exist_ok=True)  # tests/screenshots/ is not in git
        r = subprocess.run(args + [f"--screenshot={screenshot}", url], capture_output=True, text=True, timeout=120)
        assert r.returncode == 0, r.stderr[-2000:]
    r = subprocess.run(args + ["--dump-dom", url], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]
    return r.stdout
