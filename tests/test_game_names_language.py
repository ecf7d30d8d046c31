"""A running game's names after a change of language (docs/i18n.md, "What follows a change of
language"): a seat called by the app's own word (its colour, "Computer", a preset picked such
as "Guest") keeps that fact in the session and its journal, so every place that shows or says
the name says it in the language of the moment: the status line, the players' rows, the clock,
speech, a duel, the end of the game, a resumed game, the saved games. A typed name stays as it
is. Records written for others keep the English word (the PGN's tags, the game text)."""

from __future__ import annotations

import json

import pytest

from companion.i18n import Language, current, use
from companion.journal import format_line
from companion.session import GameSetup, Seat
from tests.test_chess2_app import choose_armies, duel_to
from tests.test_speech_app import speaking_app
from tests.ui_flow_helpers import App


@pytest.fixture(autouse=True)
def english_after():
    yield
    use(Language.load("en"))


def speak(app: App, code: str, menu=None) -> None:
    """The language chosen as a player does mid-game: the screen's Menu, Settings, Language."""
    (menu or app.game.menu)()
    app.prompt.answer("settings")
    app.prompt.answer("language")
    app.prompt.answer(code)
    app.pump()
    assert current().code == code


def started(tmp_path, game: str = "chess", **kw) -> App:
    """A game started from the start screen in English, every seat called by its default, set up."""
    app = App(tmp_path, **kw)
    app.start.choose_game(game)
    app.start.start()
    app.pump()
    app.setup.fill()
    app.pump()
    assert app.flow.display.screen == "game", app.flow.display.screen
    return app


def rows(app: App) -> list[str]:
    return [p.name for p in app.game.view().players]


def journal_seats(directory) -> list[dict]:
    first = json.loads((directory / "current.jsonl").read_text(encoding="utf-8").splitlines()[0])
    return first["entry"]["setup"]["seats"]


# --- the game screen ---------------------------------------------------------------------------------

def test_english_start_german_mid_game_the_status_line_and_the_rows_say_the_german_colours(tmp_path):
    app = started(tmp_path)
    app.tap("e2", "e4")
    assert app.game.view().status == "Black to move" and rows(app) == ["White", "Black"]
    speak(app, "de")
    assert app.game.view().status == "Schwarz am Zug"  # was "Black (Schwarz) am Zug"
    assert rows(app) == ["Weiß", "Schwarz"]
    speak(app, "en")
    assert app.game.view().status == "Black to move" and rows(app) == ["White", "Black"]


@pytest.mark.parametrize("game, english, german, status", [
    ("kol", ["Blue", "Orange"], ["Blau", "Orange"], "Blau am Zug"),
    ("chess4", ["Red", "Blue", "Yellow", "Green"], ["Rot", "Blau", "Gelb", "Grün"], "Rot am Zug"),
])
def test_a_game_on_a_map_of_seats_follows_too(tmp_path, game, english, german, status):
    app = started(tmp_path, game)
    assert rows(app) == english
    speak(app, "de")
    assert rows(app) == german and app.game.view().status == status


def test_a_dungeon_draft_begun_in_english_follows_a_change_of_language(tmp_path):
    app = App(tmp_path)
    app.start.choose_game("dungeon")
    app.start.choose_map("dungeon-four-player")
    app.start.start()
    app.pump()
    seats = app.flow.dungeon.prep.seats
    assert [s.name for s in seats] == ["Blue", "Red", "Green", "Yellow"]
    use(Language.load("de"))
    assert [s.name for s in seats] == ["Blau", "Rot", "Grün", "Gelb"]
    assert [s.recorded for s in seats] == ["Blue", "Red", "Green", "Yellow"]


def test_the_computer_and_a_preset_picked_follow_a_typed_name_stays(tmp_path):
    app = App(tmp_path)
    app.start.choose_game("chess")
    app.start.open_names(0)
    app.start.pick_name("Guest")
    app.start.open_kind(1)
    app.start.pick_kind("Computer 2")
    app.start.start()
    app.pump()
    app.setup.fill()
    app.pump()
    assert rows(app) == ["Guest", "Computer"]
    speak(app, "de")
    assert rows(app) == ["Gast", "Computer"] and app.game.view().status == "Gast (Weiß) am Zug"
    assert [s["name"] for s in journal_seats(tmp_path)] == ["Guest", "Computer"]  # the words' English


def test_a_typed_name_is_untouched_even_an_english_colour(tmp_path):
    app = App(tmp_path)
    app.name_seat(0, "Ada")
    app.name_seat(1, "Black")  # his name, not a colour
    app.start.start()
    app.pump()
    app.setup.fill()
    app.pump()
    speak(app, "de")
    assert rows(app) == ["Ada", "Black"]
    assert app.game.view().status == "Ada (Weiß) am Zug"
    assert [(s["name"], s["word"]) for s in journal_seats(tmp_path)] == [("Ada", False), ("Black", False)]


def test_the_journal_keeps_the_fact_and_the_english_word(tmp_path):
    """A game started in German keeps "White" as its word too: the journal holds no language."""
    app = App(tmp_path)
    use(Language.load("de"))
    app.start.choose_game("chess")
    app.start.start()
    app.pump()
    assert [(s["name"], s["word"]) for s in journal_seats(tmp_path)] == [("White", True), ("Black", True)]
    app.setup.fill()
    app.pump()
    assert rows(app) == ["Weiß", "Schwarz"]


# --- the clock, speech, a duel, the end ----------------------------------------------------------------

def test_the_clock_says_the_names_in_the_language_of_the_moment(tmp_path):
    app = App(tmp_path)
    app.start_at_the_table("chess", "rapid")
    v = app.clock_screen.view()
    assert [h.name for h in v.halves] == ["White", "Black"]
    speak(app, "de", menu=app.clock_screen.menu)
    v = app.clock_screen.view()
    assert [h.name for h in v.halves] == ["Weiß", "Schwarz"]
    assert [h.detail for h in v.halves] == ["", ""]  # the colour is not said twice ("Weiß · Weiß")
    assert "White" not in v.status and "Black" not in v.status and "Schwarz" in v.status


def test_speech_says_the_game_in_the_new_language(tmp_path):
    """Speech names a side by its colour, which the announcer made again for the new language."""
    app, voice = speaking_app(tmp_path, on=True)
    app.start.choose_game("chess")
    app.start.start()
    app.pump()
    app.setup.fill()
    app.pump()
    app.tap("e2", "e4")
    assert voice.said[-1] == "Black to move"
    speak(app, "de")
    app.tap("e7", "e5")
    assert voice.said[-1] == "Weiß am Zug"
    assert not any("White" in s or "Black" in s for s in voice.said[voice.said.index("Black to move") + 1:])


def test_a_duels_names_follow(tmp_path):
    app = App(tmp_path)
    app.start.choose_game("chess2")
    app.start.start()
    app.pump()
    choose_armies(app, "classic", "classic")
    duel_to(app)
    assert app.duel.view().ask == "Black may start a duel to save the pawn."
    speak(app, "de", menu=app.game.menu)
    v = app.duel.view()
    assert (v.attacker.name, v.defender.name) == ("Weiß", "Schwarz")
    assert "Black" not in v.ask and "Schwarz" in v.ask


def test_a_fight_says_its_sides_in_the_new_language(tmp_path):
    app = started(tmp_path, "combat")
    for squares in (("e2", "e4"), ("d7", "d5"), ("e4", "d5", "d5")):
        app.tap(*squares)
    assert app.flow.display.screen == "fight"
    speak(app, "de", menu=app.game.menu)
    text = repr(app.fight.view())
    assert "White" not in text and "Black" not in text and "Weiß" in text


def test_the_end_of_the_game_names_the_winner_in_the_new_language(tmp_path):
    app = started(tmp_path)
    for squares in (("f2", "f3"), ("e7", "e5"), ("g2", "g4")):
        app.tap(*squares)
    speak(app, "de")
    app.tap("d8", "h4")
    assert app.flow.display.screen == "game_over"
    v = app.over.view()
    assert "Schwarz" in v.headline and "Black" not in repr(v)


# --- a resumed game, an old journal, the records ---------------------------------------------------

def test_a_game_resumed_from_its_journal_after_a_change_of_language(tmp_path):
    app = started(tmp_path)
    app.tap("e2", "e4")
    app.flow.game.journal.close()  # the power goes; the board comes back speaking German
    use(Language.load("de"))
    back = App(tmp_path)
    assert back.flow.display.screen == "resume"
    assert "Weiß" in back.resume.view().summary and "White" not in back.resume.view().summary
    back.resume.accept()
    back.pump()
    back.setup.fill()
    back.pump()
    assert rows(back) == ["Weiß", "Schwarz"] and back.game.view().status == "Schwarz am Zug"


def _without_the_fact(directory) -> None:
    """current.jsonl as a board wrote it before seats kept their words (no "word" field)."""
    path = directory / "current.jsonl"
    lines = []
    for text in path.read_text(encoding="utf-8").splitlines():
        value = json.loads(text)
        entry = value["entry"]
        for seat in entry.get("setup", {}).get("seats", ()):
            seat.pop("word")
        lines.append(format_line(value["seq"], entry))
    path.write_text("".join(lines), encoding="utf-8")


def test_an_old_journal_loads_its_english_colours_read_as_the_seats_own_words(tmp_path):
    """A journal without the fact: a name that is an English colour or "Computer" is read as
    the app's own word (an English board wrote it so); anything else, "Weiß" too, as it is."""
    app = App(tmp_path)
    app.new_game("chess", fill=True)  # Seat("White"), Seat("Black")
    app.tap("e2", "e4")
    app.flow.game.journal.close()
    _without_the_fact(tmp_path)
    use(Language.load("de"))
    back = App(tmp_path)
    back.resume.accept()
    back.pump()
    back.setup.fill()
    back.pump()
    assert rows(back) == ["Weiß", "Schwarz"]
    setup = GameSetup.from_json({"game": "chess", "seats": [{"name": "Weiß", "computer": False, "level": 0},
                                                            {"name": "Ada", "computer": False, "level": 0}],
                                 "dice": "virtual", "d6_only": False, "game_id": "g", "seed": None, "start": None,
                                 "board_map": None})
    use(Language.load("en"))
    assert [s.name for s in setup.seats] == ["Weiß", "Ada"]


def test_a_seat_reads_in_the_language_of_the_moment_and_records_its_english():
    seat = Seat("White", word=True)
    use(Language.load("de"))
    assert seat.name == "Weiß" and seat.recorded == "White"
    assert Seat("White").name == "White"  # typed
    assert GameSetup("chess", (seat, Seat("Ada"))).to_json()["seats"][0] == {
        "name": "White", "computer": False, "level": 0, "word": True}


def test_the_pgn_keeps_the_english_words_the_saved_games_show_the_language_of_the_moment(tmp_path):
    """PGN tags are English by convention (the record's comments are English too); the saved
    games' list reads the journal, which keeps the fact."""
    from companion import saved_games
    from companion.tournament.record import pgn_game
    from companion.tournament.pgn import format_pgn

    app = started(tmp_path)
    for squares in (("f2", "f3"), ("e7", "e5"), ("g2", "g4")):
        app.tap(*squares)
    speak(app, "de")
    app.tap("d8", "h4")
    text = format_pgn(pgn_game(app.flow.game.table or app.flow.game.session))
    assert '[White "White"]' in text and '[Black "Black"]' in text
    app.flow.game.leave()
    app.pump()
    saved = sorted((tmp_path / "games").glob("*.jsonl"))
    assert saved and saved_games.summary(saved[-1]).players == ("Weiß", "Schwarz")
    app.start.games()
    app.pump()
    assert [r.title.split(": ")[1] for r in app.games.view().rows] == ["Weiß gegen Schwarz"]
    pgns = sorted((tmp_path / "games").glob("*.pgn"))
    assert pgns and all('[White "White"]' in p.read_text(encoding="utf-8") for p in pgns)


def test_the_game_text_writes_the_english_word_and_reads_it_back_as_a_word(tmp_path):
    from companion.gametext import format_game, parse_game

    app = started(tmp_path)
    speak(app, "de")
    text = format_game(app.flow.game.session)
    assert "player 1: White\n" in text and "player 2: Black\n" in text
    setup = parse_game(text).setup
    assert [s.name for s in setup.seats] == ["Weiß", "Schwarz"]


@pytest.mark.parametrize("game, german", [("kol", ["Blau", "Orange"]), ("chess4", ["Rot", "Blau", "Gelb", "Grün"])])
def test_a_map_games_text_reads_its_english_colours_back_as_words(tmp_path, game, german):
    """The game text of a game on a map of seats writes each seat's colour in English; read back,
    every colour a map may give a seat (companion/maps.py's) is the app's word again, not only
    White and Black: parse(format(x)) keeps the seats."""
    from companion.gametext import format_game, parse_game

    app = started(tmp_path, game)
    session = app.flow.game.session
    setup = parse_game(format_game(session)).setup
    assert setup.seats == session.setup.seats
    use(Language.load("de"))
    assert [s.name for s in setup.seats] == german


def test_a_game_text_loaded_while_the_board_speaks_german_keeps_its_seats_as_words(tmp_path):
    """Read back in German, "player 1: White" is still the app's word (recorded in English, shown
    in the language of the moment), not a typed name "Weiß" that stays German in English."""
    from companion.gametext import format_game, parse_game

    app = started(tmp_path)
    text = format_game(app.flow.game.session)
    use(Language.load("de"))
    setup = parse_game(text).setup
    assert setup.seats == (Seat("White", word=True), Seat("Black", word=True))
    use(Language.load("en"))
    assert [s.name for s in setup.seats] == ["White", "Black"]
