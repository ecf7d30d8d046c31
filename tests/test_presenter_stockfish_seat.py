"""Stockfish in the seat control for FIDE chess ("Stockfish, Elo N" beside our levels), not for
other games; the app's computer player plays a Stockfish seat's move."""

from __future__ import annotations

import threading

import pytest

from companion.ai.stockfish import find_stockfish
from companion.app.computer import STOCKFISH_BASE, SearchComputer, stockfish_elo
from companion.core.moves import Move
from companion.games import make_rules
from tests.ui_flow_helpers import App


def test_a_chess_seat_may_be_stockfish_at_an_elo_and_dice_fights_turn_it_back(tmp_path):
    app = App(tmp_path)
    app.computer.extra_choices = lambda game: ((STOCKFISH_BASE + 1800, "Stockfish, Elo 1800"),) if game == "chess" else ()
    app.start.choose_game("chess")
    if app.start.view().fights:
        app.start.toggle_fights()  # FIDE chess: no dice fights
    app.start.open_kind(1)
    assert "Stockfish, Elo 1800" in app.start.view().names
    app.start.pick_kind("Stockfish, Elo 1800")
    black = app.start.view().seats[1]
    assert black.computer and black.kind == "Stockfish, Elo 1800" and stockfish_elo(app.start.seats[1].level) == 1800
    app.start.toggle_fights()  # chess with dice fights (Combat Chess)
    assert app.start.seats[1].level == app.computer.max_level  # Stockfish plays FIDE chess only
    app.start.open_kind(1)
    assert not any("Stockfish" in n for n in app.start.view().names)


@pytest.mark.skipif(find_stockfish() is None, reason="Stockfish is not installed")
def test_the_computer_player_plays_a_stockfish_seat():
    from companion.ai import levels, worker

    computer = SearchComputer(levels, worker, seconds=0.2)
    assert (STOCKFISH_BASE + 1800, "Stockfish, Elo 1800") in computer.extra_choices("chess")
    assert computer.extra_choices("combat") == ()
    rules = make_rules("chess")
    done, got = threading.Event(), []
    computer.start(rules, rules.start_position(), STOCKFISH_BASE + 1800, lambda f: None,
                   lambda m: (got.append(m), done.set()))
    assert done.wait(20)
    assert isinstance(got[0], Move)
    computer._players[(id(rules), STOCKFISH_BASE + 1800)].close()
