"""Names typed on the board are remembered for next time, newest first, and a damaged file is
as good as none."""

from companion import player_names


def test_a_typed_name_comes_first_and_is_kept_once(tmp_path):
    assert player_names.load(tmp_path) == []
    player_names.remember(tmp_path, "Ann")
    player_names.remember(tmp_path, "  Ben   van  Dijk ")
    assert player_names.remember(tmp_path, "Ann") == ["Ann", "Ben van Dijk"]
    assert player_names.load(tmp_path) == ["Ann", "Ben van Dijk"]


def test_only_the_newest_names_are_kept(tmp_path):
    for i in range(20):
        player_names.remember(tmp_path, f"Player {i}")
    names = player_names.load(tmp_path)
    assert len(names) == player_names.KEEP and names[0] == "Player 19"


def test_a_damaged_or_hostile_file_is_as_good_as_none(tmp_path):
    path = tmp_path / player_names.FILE
    for text in ("not json", "[" * 100 + "]" * 100, '{"a": 1}', "[1, 2]", "\xff\xfe"):
        path.write_bytes(text.encode("latin-1"))
        assert player_names.load(tmp_path) == [], text
    path.write_text('["Ann", "Ann", "", "B\\u0007ob"]')
    assert player_names.load(tmp_path) == ["Ann", "Bob"]


def test_the_name_picker_lists_the_remembered_names_before_the_presets(tmp_path):
    from tests.ui_flow_helpers import App

    app = App(tmp_path)
    app.flow.storage.remember_name("Zoë")
    app.start.open_names(0)
    names = app.start.view().names
    assert names[0] == "Zoë" and "Player 1" in names and names.count("Zoë") == 1


def test_a_name_typed_on_the_keyboard_is_the_seat_s_and_is_offered_first_next_time(tmp_path):
    from tests.ui_flow_helpers import App

    app = App(tmp_path)
    app.start.open_names(1)
    app.start.type_name()
    for key in "Ada":
        app.entry.key(key)
    app.entry.done()
    assert app.start.view().seats[1].name == "Ada"
    again = App(tmp_path)  # the next start of the app, on the same data folder
    again.start.open_names(0)
    assert again.start.view().names[0] == "Ada"
