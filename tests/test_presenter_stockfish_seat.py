"""Stockfish in the seat control for FIDE chess ("Stockfish, Elo N" beside our levels), not for
other games; the app's computer player plays a Stockfish seat's move; the journal and the game
text write such a seat as what it is, ``stockfish:ELO``, and still read the number written before."""

from __future__ import annotations

import json
import threading

import pytest

from companion.ai.stockfish import find_stockfish
from companion.app.computer import STOCKFISH_BASE, SearchComputer, stockfish_elo
from companion.core.moves import Move
from companion.errors import RecordError
from companion.gametext import format_game, load_game
from companion.games import make_rules
from companion.session import GameSetup, Seat, Session
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


# ----- a Stockfish seat in the journal and in the game text: "stockfish:ELO", what it is -------------

def _chess_setup(level: int) -> GameSetup:
    return GameSetup("chess", (Seat("Ann"), Seat("Stockfish", True, level)))


def test_a_stockfish_seat_is_journaled_as_its_player_key_and_loads_back():
    setup = _chess_setup(STOCKFISH_BASE + 1800)
    data = setup.to_json()
    assert data["seats"][1]["level"] == "stockfish:1800"
    assert _chess_setup(3).to_json()["seats"][1]["level"] == 3  # our own levels stay numbers
    again = GameSetup.from_json(json.loads(json.dumps(data)))
    assert again == setup and stockfish_elo(again.seats[1].level) == 1800


def test_a_journal_that_wrote_the_seat_as_ten_thousand_plus_elo_still_loads_as_that_seat():
    old = {**_chess_setup(3).to_json()}
    old["seats"] = [{"name": "Ann", "computer": False, "level": 0},
                    {"name": "Stockfish", "computer": True, "level": 11800}]
    assert stockfish_elo(GameSetup.from_json(old).seats[1].level) == 1800


@pytest.mark.parametrize("bad", ["stockfish:", "stockfish:abc", "stockfish:0", "stockfish:18000", "1800",
                                 "Stockfish:1800", True, None, 18.5])
def test_a_damaged_seat_level_in_a_journal_is_refused_in_one_line(bad):
    data = _chess_setup(3).to_json()
    data["seats"][1]["level"] = bad
    with pytest.raises(RecordError) as e:
        GameSetup.from_json(data)
    assert "\n" not in str(e.value) and "stockfish:ELO" in str(e.value) and "seat 2" in str(e.value)


def test_a_stockfish_seat_in_a_game_text_is_written_as_its_key_and_loads_back():
    session = Session(_chess_setup(STOCKFISH_BASE + 1800))
    session.play("e2e4")
    text = format_game(session)
    assert "player 2: Stockfish (computer, stockfish:1800)" in text
    again = load_game(text)
    assert stockfish_elo(again.setup.seats[1].level) == 1800 and format_game(again) == text
    # a text written before (the number) loads as the same seat; a damaged key is one line
    old = "companion game 1\ngame: chess\nplayer 1: Ann\nplayer 2: SF (computer, level 11800)\n\ne2e4\n"
    assert stockfish_elo(load_game(old).setup.seats[1].level) == 1800
    with pytest.raises(RecordError, match=r"^line 4: player 2: .*stockfish:ELO") as e:
        load_game(old.replace("level 11800", "stockfish:0"))
    assert "\n" not in str(e.value)
