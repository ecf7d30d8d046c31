"""Chess 2 on the live broadcast (companion.broadcast): the spectators see the standard set as
the table shows it, and a sealed duel bid never leaves the board before both are in."""

from __future__ import annotations

from companion.broadcast.snapshot import take_snapshot
from companion.broadcast.picture import BoardPicture
from companion.broadcast.svg import board_svg
from companion.core.rules import goal_lines
from companion.errors import BroadcastError
from companion.session import GameSetup, Seat, Session

import pytest


def test_the_spectators_see_the_pieces_of_the_standard_set():
    """An Elephant stands as a rook on the table and is drawn as one, with its army's code."""
    s, _ = Session.new(GameSetup("chess2", (Seat("Ann"), Seat("Ben")), options={"armies": "animals,two-kings"}))
    pic = take_snapshot(s, 1, 0, "board").picture
    by_square = {p.square: p for p in pic.pieces}
    assert (by_square[0].kind, by_square[0].code, by_square[0].glyph) == ("rook", "AR", "\u265c")
    assert by_square[60].kind == "king" and by_square[59].kind == "king"  # two Kings: both drawn as kings
    assert all(p.glyph for p in pic.pieces)


def test_a_sealed_bid_is_not_in_what_the_board_serves():
    """The app's game is a table (companion.tournament.table): what it serves says a duel is on,
    never the bid sealed so far; once both are in, the record has the duel."""
    from companion.tournament.table import Table, TableSetup

    table, _ = Table.new(GameSetup("chess2", (Seat("Ann"), Seat("Ben")), options={"armies": "classic,classic"}),
                         TableSetup())
    s = table.session

    def act(events) -> None:
        table.observe(events, 0)  # as the app's flow does with every session event

    for move in ("e2e4", "d7d5", "e4d5"):
        act(s.play(move))
    act(s.play_answer("duel"))
    act(s.play_part(0, "2"))  # Ann's bid sealed; Ben's not in
    assert s.sealed_players == (0,)
    snap = take_snapshot(table, 1, 0, "board")
    served = snap.json_text(0) + snap.pgn_text + snap.svg
    assert '"pending":"bids"' in served
    assert "part" not in served and "duel:" not in served
    act(s.play_part(1, "0"))  # both in: the duel is played and shown
    assert "e4d5:duel:2-0" in take_snapshot(table, 2, 0, "board").pgn_text


def test_the_spectators_see_the_midline_the_touchscreen_draws():
    """Midline Invasion ("you also win if your king crosses the midline of the board"): the
    page draws the border between ranks 4 and 5 in the touchscreen's colour, and a hall takes it."""
    s, _ = Session.new(GameSetup("chess2", (Seat("Ann"), Seat("Ben")), options={"armies": "classic,reaper"}))
    pic = take_snapshot(s, 1, 0, "board").picture
    assert pic.lines == (4,) == goal_lines(s.rules, 8, 8)
    svg = board_svg(pic)
    assert svg.count('class="goal-line"') == 1
    assert BoardPicture.from_json(pic.to_json()) == pic
    chess, _ = Session.new(GameSetup("chess", (Seat("Ann"), Seat("Ben"))))
    chess_pic = take_snapshot(chess, 1, 0, "board").picture
    assert chess_pic.lines == () and 'goal-line' not in board_svg(chess_pic)


@pytest.mark.parametrize("lines", [[0], [8], [4, 4], "4", [True]])
def test_a_midline_a_board_could_not_have_drawn_is_refused(lines):
    s, _ = Session.new(GameSetup("chess2", (Seat("Ann"), Seat("Ben")), options={"armies": "classic,classic"}))
    data = take_snapshot(s, 1, 0, "board").picture.to_json()
    data["lines"] = lines
    with pytest.raises(BroadcastError, match="lines"):
        BoardPicture.from_json(data)
