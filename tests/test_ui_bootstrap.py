"""The wiring module: the board chosen by the command line, the journal directory, the parts."""

import pytest

from companion.app import bootstrap
from companion.app.presenters.flow import AppFlow
from companion.board.simulated import SimulatedBoard
from companion.board.tracker import Tracker
from companion.errors import CompanionError, HardwareError
from companion.journal import JournalStore


def test_without_options_the_app_plays_on_the_simulated_board():
    link = bootstrap.open_board()
    assert isinstance(link.sensors, SimulatedBoard) and link.leds is link.sensors is link.simulated
    assert (link.width, link.height, link.name) == (8, 8, "simulated")


def test_a_simulated_profile_is_the_simulated_board_too():
    link = bootstrap.open_board(profile="simulated-8x8")
    assert isinstance(link.simulated, SimulatedBoard) and link.name == "simulated-8x8"


def test_profile_and_serial_together_are_refused():
    with pytest.raises(HardwareError, match="either --profile or --serial"):
        bootstrap.open_board(profile="gpio-8x8", serial="/dev/ttyACM0")


def test_a_serial_board_is_opened_only_when_started_and_gets_led_levels():
    link = bootstrap.open_board(serial="loop://")
    assert link.simulated is None and link.name == "loop://"
    assert type(link.sensors).__name__ == "SerialBoard" and link.sensors._thread is None
    sent = []
    link.leds.port = type("P", (), {"show": lambda self, f: sent.append(f), "stop": lambda self: None})()
    link.leds.show(((102, 102, 102),) * 64)
    assert sent[0][0] == (34, 34, 34)  # dim white, as LED light (linearized)


def test_games_are_saved_where_the_environment_says(monkeypatch, tmp_path):
    monkeypatch.setenv("COMPANION_DATA", str(tmp_path / "games"))
    assert bootstrap.data_dir() == tmp_path / "games"
    monkeypatch.delenv("COMPANION_DATA")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert bootstrap.data_dir() == tmp_path / "xdg" / "companion"


def test_the_parts_wire_into_a_flow_and_one_presenter_per_screen(tmp_path):
    link = bootstrap.open_board()
    flow = bootstrap.build_flow(link, JournalStore(tmp_path), make_tracker=bootstrap.default_tracker())
    presenters = bootstrap.build_presenters(flow)
    assert isinstance(flow, AppFlow) and bootstrap.default_tracker() is Tracker
    rooms = {id(room): name for name, room in vars(flow).items() if name not in ("clock_ms",)}
    for name, presenter in vars(presenters).items():
        held = [v for v in vars(presenter).values() if id(v) in rooms or v is flow]
        assert flow not in held, f"the {name} presenter holds the whole AppFlow"
        assert held, f"the {name} presenter is given none of the flow's rooms"
    flow.start()
    assert flow.display.screen == "start"
    link.simulated.toggle(28, 5)  # a board event goes through the inbox, not straight in
    assert 28 not in flow.board.sensed
    flow.pump(10)
    assert flow.board.sensed == frozenset({28})


def test_game_ids_sort_by_time_and_differ():
    a, b = bootstrap.game_id(), bootstrap.game_id()
    assert a != b and len(a.split("-")) == 3


def test_a_bad_window_size_is_explained(monkeypatch, tmp_path):
    monkeypatch.setenv("KIVY_HOME", str(tmp_path / "kivy"))
    monkeypatch.setenv("COMPANION_WINDOW", "big")
    from companion.app.main import configure_window

    with pytest.raises(CompanionError, match="800x480"):
        configure_window()


def test_no_room_or_presenter_imports_the_assembled_app():
    """Only the bootstrap (and the app's own main loop) knows AppFlow: a room or a presenter
    that imported it could reach every room through it."""
    import ast
    from pathlib import Path

    import companion.app.presenters as presenters

    for path in Path(presenters.__file__).parent.glob("*.py"):
        if path.name == "flow.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                assert node.module not in ("flow", "companion.app.presenters.flow"), f"{path.name} imports the flow"
