"""The start screen's seat names after a change of language (companion/app/presenters/seat_names.py,
docs/i18n.md "What follows a change of language"): the app's own names (colours, "Computer",
"Friend") and the presets picked follow the language; a name typed on the board, remembered
from before, from a tournament's pairing or from the network stays as it is."""

from __future__ import annotations

import shutil

import pytest

from companion import board_settings
from companion.board_settings import BoardSettings
from companion.i18n import Language, current, use
from tests.test_link_app import _link, _pump, pair  # noqa: F401 (pair: the two linked apps)
from tests.test_online_app import fake, playing  # noqa: F401 (fake: the fake lichess)
from tests.test_presenter_tournament import PAIRINGS, stick
from tests.ui_flow_helpers import App


@pytest.fixture(autouse=True)
def english_after():
    yield
    use(Language.load("en"))


def speak(app: App, code: str) -> None:
    """The language chosen as a player does: the start screen's Settings, Language, the language."""
    app.start.preferences()
    app.prompt.answer("language")
    app.prompt.answer(code)
    app.pump()
    assert current().code == code


def pick(app: App, seat: int, name: str) -> None:
    """A tap on the seat's name, then on ``name`` in the list."""
    app.start.open_names(seat)
    app.start.pick_name(name)


def names(app: App) -> list[str]:
    return [s.name for s in app.start.view().seats]


def colours(app: App) -> list[str]:
    return [s.colour for s in app.start.view().seats]


@pytest.mark.parametrize("game, english, german", [
    ("chess", ["White", "Black"], ["Weiß", "Schwarz"]),
    ("combat", ["White", "Black"], ["Weiß", "Schwarz"]),
    ("chess2", ["White", "Black"], ["Weiß", "Schwarz"]),
    ("kol", ["Blue", "Orange"], ["Blau", "Orange"]),
    ("chess4", ["Red", "Blue", "Yellow", "Green"], ["Rot", "Blau", "Gelb", "Grün"]),
])
def test_the_default_seat_names_follow_a_change_of_language_in_every_game(tmp_path, game, english, german):
    app = App(tmp_path)
    app.start.choose_game(game)
    assert names(app) == english
    speak(app, "de")
    assert names(app) == german == colours(app)
    speak(app, "en")
    assert names(app) == english


@pytest.mark.parametrize("board_map", ["dungeon-compact", "dungeon-two-player", "dungeon-four-player"])
def test_dungeon_seats_are_named_after_their_map_colours_in_the_language_of_the_moment(tmp_path, board_map):
    app = App(tmp_path)
    app.start.choose_game("dungeon")
    app.start.choose_map(board_map)
    english = names(app)
    speak(app, "de")
    assert names(app) == colours(app) and names(app) != english
    app.start.choose_map("dungeon-four-player")  # another map in German: its colours, in German
    assert names(app) == colours(app) == ["Blau", "Rot", "Grün", "Gelb"]
    speak(app, "en")
    assert names(app) == ["Blue", "Red", "Green", "Yellow"]


def test_the_game_started_after_the_change_has_the_seats_in_the_new_language(tmp_path):
    app = App(tmp_path)
    speak(app, "de")
    app.start.start()
    assert [seat.name for seat in app.flow.game.session.seats] == ["Weiß", "Schwarz"]


def test_a_dungeon_draft_started_after_the_change_names_its_seats_in_the_new_language(tmp_path):
    app = App(tmp_path)
    app.start.choose_game("dungeon")
    app.start.choose_map("dungeon-two-player")
    speak(app, "de")
    app.start.start()
    seats = app.flow.dungeon.prep.seats
    assert [seat.name for seat in seats] == colours(app)


def test_computer_and_friend_are_the_apps_own_words_and_follow_too(tmp_path):
    """"Computer" is German too; "Friend" is "Freund". A seat given back to a person here takes
    its colour again."""
    app = App(tmp_path)
    app.start.choose_game("chess")
    app.start.open_kind(1)
    app.start.pick_kind("Computer 2")
    app.start.open_kind(0)
    app.start.pick_kind("Friend's board")
    assert names(app) == ["Friend", "Computer"]
    speak(app, "de")
    assert names(app) == ["Freund", "Computer"]
    app.start.set_kind(0, False)
    app.start.set_kind(1, False)
    assert names(app) == ["Weiß", "Schwarz"]


def test_a_preset_picked_stays_the_choice_and_its_word_follows(tmp_path):
    app = App(tmp_path)
    pick(app, 0, "Guest")
    pick(app, 1, "Player 1")
    assert names(app) == ["Guest", "Player 1"]
    speak(app, "de")
    assert names(app) == ["Gast", "Spieler 1"]
    app.start.choose_game("kol")  # a name, not a colour: it stays through another game
    assert names(app) == ["Gast", "Spieler 1"]
    pick(app, 1, "Gast")  # picked in German: the same preset, "Guest" in English
    speak(app, "en")
    assert names(app) == ["Guest", "Guest"]


def test_a_colour_picked_as_a_name_gives_way_to_the_next_games_colours(tmp_path):
    """Picking "Black" for White is a colour word, not a person: another game names the seat
    after its own colours (as before the language followed)."""
    app = App(tmp_path)
    app.start.choose_game("chess")
    pick(app, 0, "Black")
    assert names(app) == ["Black", "Black"]
    speak(app, "de")
    assert names(app) == ["Schwarz", "Schwarz"]
    app.start.choose_game("kol")
    assert names(app) == ["Blau", "Orange"]


def test_a_typed_name_stays_as_it_is_in_every_language_even_an_english_colour(tmp_path):
    app = App(tmp_path)
    app.name_seat(0, "Ada")
    app.name_seat(1, "White")  # a person who calls himself White: his name, not a colour
    assert names(app) == ["Ada", "White"]
    speak(app, "de")
    assert names(app) == ["Ada", "White"]
    app.start.choose_game("kol")
    assert names(app) == ["Ada", "White"]
    app.start.start()
    assert [seat.name for seat in app.flow.game.session.seats] == ["Ada", "White"]


def test_a_name_remembered_from_an_earlier_start_stays_as_it_is(tmp_path):
    App(tmp_path).flow.storage.remember_name("Black")  # typed on this board once
    app = App(tmp_path)  # the next start of the app, on the same data folder
    pick(app, 0, "Black")
    speak(app, "de")
    assert names(app) == ["Black", "Schwarz"]


def test_a_board_that_kept_german_starts_german_and_follows_a_change_back(tmp_path):
    """The language the board keeps (settings.json), used before the screens are built."""
    board_settings.save(tmp_path, BoardSettings("de"))
    kept = board_settings.load(tmp_path)
    use(Language.load(kept.language))
    app = App(tmp_path, board_settings=kept)
    app.start.choose_game("chess4")
    assert names(app) == ["Rot", "Blau", "Gelb", "Grün"]
    speak(app, "en")
    assert names(app) == ["Red", "Blue", "Yellow", "Green"]
    assert board_settings.load(tmp_path).language == "en"


def test_names_from_a_tournament_pairing_are_never_renamed(tmp_path):
    media = stick(tmp_path)
    shutil.copy(PAIRINGS / "leiden-rapid.trf", media / "leiden-rapid.trf")
    app = App(tmp_path / "data", computer=False, media_roots=(tmp_path / "media",))
    app.pair_from(media / "leiden-rapid.trf", "2")
    assert names(app) == ["Okafor, Ada", "Lindqvist, Per"]
    speak(app, "de")
    assert names(app) == ["Okafor, Ada", "Lindqvist, Per"] and colours(app) == ["Weiß", "Schwarz"]
    app.start.start()
    assert [seat.name for seat in app.flow.game.session.seats] == ["Okafor, Ada", "Lindqvist, Per"]


def test_names_from_a_friends_board_stay_as_that_board_sent_them(pair):
    """A linked game's names are the proposing board's, sent as text (docs/link.md): the board
    that receives them shows them as they came, whatever its language."""
    host, guest = pair
    _link(host, guest, "chess")  # proposed in English: White here, Friend at the guest's board
    use(Language.load("de"))
    _pump(host, guest, until=lambda: guest.flow.display.screen == "setup" and host.flow.display.screen == "setup")
    for app in (host, guest):
        assert [seat.name for seat in app.flow.game.session.seats] == ["White", "Friend"]


def test_lichess_names_stay_after_a_change_of_language(tmp_path, fake):
    _online, app, _flow, _gid = playing(tmp_path, fake)
    shown = [p.name for p in app.game.view().players]
    assert shown == ["Bobby", "Maia"]  # lichess's names for the accounts
    app.game.menu()  # the language chosen in the game's Menu, as a player does
    app.prompt.answer("settings")
    app.prompt.answer("language")
    app.prompt.answer("de")
    app.pump()
    assert current().code == "de"
    assert [p.name for p in app.game.view().players] == shown


@pytest.mark.parametrize("game, status, colours_de", [
    ("kol", "Blau am Zug", ("Blau", "Orange")),
    ("chess4", "Rot am Zug", ("Rot", "Blau", "Gelb", "Grün")),
])
def test_a_game_on_a_map_of_seats_says_its_colours_in_the_language_shown(tmp_path, game, status, colours_de):
    """The sides' colours of a map's seats came out as the map's English ("Blau (Blue) am Zug")."""
    from companion.app.presenters.names import colour_names

    app = App(tmp_path)
    app.start.choose_game(game)
    speak(app, "de")
    app.start.start()
    app.setup.fill()
    app.pump()
    assert app.game.view().status == status
    assert colour_names(app.flow.game.session.rules) == colours_de
