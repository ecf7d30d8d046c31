"""Speech in the app (companion/app/presenters/speech_room.py, preferences.py): the board speaks
the game as the bus tells it, the Menu turns it on and off, sets its volume, "moves only" and
the language; it is kept in settings.json; a tournament game is never spoken. A fake voice
records what it is asked to say (the real one: tests/test_speech_voice.py)."""

from __future__ import annotations

import json

import pytest

from companion.board_settings import BoardSettings, load
from companion.i18n import Language, current, use
from companion.speech.announcements import SpeechSettings
from tests.ui_flow_helpers import App


class FakeVoice:
    def __init__(self):
        self.said: list[str] = []
        self.settings = None

    def say(self, batch):
        self.said += [a.text for a in batch if self.settings is not None and self.settings.says(a)]

    def configure(self, settings):
        self.settings = settings

    def close(self, timeout=2.0):
        pass


@pytest.fixture(autouse=True)
def english_after():
    yield
    use(Language.load("en"))


def speaking_app(tmp_path, **settings) -> tuple[App, FakeVoice]:
    voice = FakeVoice()
    app = App(tmp_path, voice=voice, board_settings=BoardSettings(None, SpeechSettings(**settings)))
    return app, voice


def test_speech_is_off_unless_the_board_turns_it_on(tmp_path):
    app, voice = speaking_app(tmp_path)
    app.new_game("chess")
    app.tap("e2", "e4")
    assert voice.said == []


def test_with_speech_on_the_moves_and_whose_turn_are_said(tmp_path):
    app, voice = speaking_app(tmp_path, on=True)
    app.new_game("chess")
    app.tap("e2", "e4")
    assert "Pawn e4" in voice.said
    assert voice.said[-1] == "Black to move"


def test_moves_only_says_only_the_moves(tmp_path):
    app, voice = speaking_app(tmp_path, on=True, moves_only=True)
    app.new_game("chess")
    app.tap("e2", "e4")
    app.tap("e7", "e5")
    assert voice.said == ["Pawn e4", "Pawn e5"]


def test_a_fight_and_its_dice_are_said(tmp_path):
    app, voice = speaking_app(tmp_path, on=True)
    app.new_game("combat")
    for squares in (("e2", "e4"), ("d7", "d5"), ("e4", "d5", "d5")):
        app.tap(*squares)
    assert any(s.startswith("Fight on d5:") for s in voice.said), voice.said[-6:]
    app.fight_through()
    assert any(s.startswith("Attacker: ") for s in voice.said)


def test_the_menu_turns_speech_on_and_keeps_it(tmp_path):
    app, voice = speaking_app(tmp_path)
    app.new_game("chess")
    app.game.menu()
    app.prompt.answer("settings")
    options = {o.key: o.label for o in app.flow.display.prompt.options}
    assert options["speech"] == "Speech: off" and options["volume"] == "Volume: 80%"
    assert options["moves-only"] == "Moves only: off" and options["language"] == "Language: English"
    app.prompt.answer("speech")
    app.pump()
    assert load(tmp_path).speech.on and voice.settings.on
    assert {o.key: o.label for o in app.flow.display.prompt.options}["speech"] == "Speech: on"  # shown again
    app.prompt.answer("volume")
    assert load(tmp_path).speech.volume == 100
    app.tap("e2", "e4")
    assert "Pawn e4" in voice.said


def test_the_start_screen_opens_the_settings_before_any_game(tmp_path):
    """A player who does not read the screen's language finds the language and speech on the
    start screen too, not only in a game's Menu."""
    app, voice = speaking_app(tmp_path)
    app.start.preferences()
    prompt = app.flow.display.prompt
    assert prompt.kind == "settings" and [o.key for o in prompt.options] == ["speech", "volume", "moves-only",
                                                                            "language"]
    app.prompt.answer("speech")
    assert load(tmp_path).speech.on


def test_a_tournament_game_is_never_spoken(tmp_path):
    app, voice = speaking_app(tmp_path, on=True)
    app.start_at_the_table("chess", "rapid", mode="tournament")
    app.tap("e2", "e4")
    assert voice.said == [] and not voice.settings.on


def test_the_language_chosen_in_the_menu_is_used_at_once_and_kept(tmp_path):
    app, voice = speaking_app(tmp_path, on=True)
    app.new_game("chess")
    app.game.menu()
    app.prompt.answer("settings")
    app.prompt.answer("language")
    assert [o.key for o in app.flow.display.prompt.options] == ["en", "de"]
    app.prompt.answer("de")
    app.pump()
    assert current().code == "de"
    assert json.loads((tmp_path / "settings.json").read_text())["language"] == "de"
    from companion.app import texts as T

    assert T.UNDO == "Zurück"
    app.tap("e2", "e4")
    assert "Bauer e4" in voice.said and voice.said[-1] == "Schwarz am Zug"


def test_a_damaged_settings_file_is_as_good_as_none(tmp_path):
    (tmp_path / "settings.json").write_text("{not json")
    assert load(tmp_path) == BoardSettings()
    (tmp_path / "settings.json").write_text('{"language": "xx", "speech": {}}')
    assert load(tmp_path) == BoardSettings()


def _capture_into_a_fight(app):
    app.new_game("combat")
    for squares in (("e2", "e4"), ("d7", "d5"), ("e4", "d5", "d5")):
        app.tap(*squares)
    assert app.flow.display.screen == "fight"


def _wait(app, ms, step=250):
    for _ in range(ms // step):
        app.clock.t += step
        app.pump()
        if app.fight.phase() == "rolling":  # the screen's dice animation, done at once here
            app.fight.animation_done()


def test_with_speech_on_a_fight_rolls_by_itself_once_said_and_the_game_goes_on(tmp_path):
    """Playable by the board alone (docs/speech.md): nobody has to tap "Roll the dice" or
    "Continue"; the dice are said, then the result, then the board guides on."""
    from companion.app.presenters.hands_free import SAY_END_MS, SAY_FIGHT_MS

    app, voice = speaking_app(tmp_path, on=True)
    _capture_into_a_fight(app)
    _wait(app, SAY_FIGHT_MS - 500)
    assert app.fight.phase() == "ready", "rolled before the fight was said"
    _wait(app, 20 * (SAY_FIGHT_MS + SAY_END_MS))  # ties roll again by themselves too
    assert app.flow.display.screen == "game" and app.flow.play.fight is None
    assert any(s.startswith("Attacker: ") for s in voice.said)
    s = app.flow.game.session
    assert [m.san for m in s.moves] == ["e4", "d5", "exd5"] and s.turn == 1


@pytest.mark.parametrize("settings", [{}, {"on": True, "moves_only": False}])
def test_a_fight_waits_for_a_tap_when_silent_or_with_real_dice(tmp_path, settings):
    app, voice = speaking_app(tmp_path, **settings)
    if settings:  # speech on, but the dice are real: their numbers are typed in
        app.new_game("combat", dice="entered")
        for squares in (("e2", "e4"), ("d7", "d5"), ("e4", "d5", "d5")):
            app.tap(*squares)
    else:
        _capture_into_a_fight(app)
    _wait(app, 60_000)
    assert app.flow.display.screen == "fight" and app.flow.play.fight.rounds == []
